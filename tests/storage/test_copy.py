"""`dama-bot db copy SOURCE TARGET`: an SQLite database copied into PostgreSQL, every
table and row, checked by counts and digests; a non-empty target refused; progress on
large tables; a copy that does not match rolls back."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from dataclasses import replace
from datetime import timedelta
from pathlib import Path

import asyncpg
import pytest

from bot.__main__ import main
from storage import (
    ChallengeStatus,
    ColorChoice,
    Eligibility,
    GameResult,
    NewChallenge,
    NewGame,
    NewTournament,
    Rating,
    RatingUpdate,
    RatingValue,
    Seat,
    Storage,
)
from storage import copy as copying
from storage.copy import CopyError, copy_database, row_hash
from storage.models import PuzzleAttempt
from tests.support.clock import START, FakeClock
from tests.support.postgres import PostgresServer

EVERYONE = Eligibility(min_games=0, max_deviation=1000)
FEN = "W:Wa2,b2:Ba7,b7"


def rate(white: Rating | None, black: Rating | None) -> tuple[RatingUpdate, RatingUpdate]:
    start = RatingValue(1500.0, 350.0, 0.06)
    return (RatingUpdate(start, RatingValue(1512.25, 300.5, 0.0599)),
            RatingUpdate(start, RatingValue(1487.75, 300.5, 0.0599)))


def solve_rate(player: RatingValue | None, puzzle: RatingValue, solved: bool
               ) -> tuple[RatingValue, RatingValue, RatingValue]:
    before = player or RatingValue(1500.0, 350.0, 0.06)
    return before, RatingValue(1510.5, 300.0, 0.06), RatingValue(1489.5, 300.0, 0.06)


async def fill(path: Path) -> None:
    """A database with something in every table: active and ended games with moves (one
    finished game's moves after it ended), a rated result, challenges, names, a puzzle
    attempt, a daily puzzle and a puzzle under way."""
    clock = FakeClock(START, step=timedelta(milliseconds=7))
    store = await Storage.open(path, clock=clock, leaderboard=EVERYONE)
    try:
        await store.players.upsert(1, "Ayşe")
        await store.players.upsert(2, "عمر")
        rated = await store.games.create(NewGame("turkish", 100, 10, Seat.human(1),
                                                 Seat.human(2), FEN, rated=True))
        for ply, text in enumerate(("a2-a3", "a7-a6", "b2-b3"), start=1):
            await store.games.append_move(rated.id, ply=ply, text=text)
        await store.games.append_final_move(rated.id, ply=4, text="b7-b6",
                                            result=GameResult.WHITE_WINS,
                                            termination="no moves", rate=rate)
        active = await store.games.create(NewGame("italian", 101, None, Seat.human(1),
                                                  Seat.computer(3), FEN))
        await store.games.append_move(active.id, ply=1, text="21-17", by_computer=False)
        await store.games.set_board_message(active.id, 555)
        aborted = await store.games.create(NewGame("arab", 102, 10, Seat.human(2),
                                                   Seat.human(1), FEN))
        await store.games.abort(aborted.id, termination="aborted")
        challenge = await store.challenges.create(NewChallenge(
            challenger_id=1, challenged_id=2, guild_id=10, channel_id=103,
            variant="moroccan", rated=False, color=ColorChoice.RANDOM, move_seconds=60,
            expires_at=START + timedelta(hours=1)))
        await store.challenges.close(challenge.id, ChallengeStatus.DECLINED)
        await store.challenges.create(NewChallenge(
            challenger_id=2, challenged_id=None, guild_id=10, channel_id=104,
            variant="turkish", rated=True, color=ColorChoice.WHITE, move_seconds=None,
            expires_at=START + timedelta(hours=2)))
        attempt = PuzzleAttempt(1, "turkish-0", "turkish", True, False, False)
        await store.puzzles.record(attempt, RatingValue(1500.0, 350.0, 0.06), solve_rate)
        await store.puzzles.set_daily(10, 105, "arab", 2)
        under_way = await store.puzzles.start_session(
            2, "italian-1", "italian", ("c4-d5", "c6xe4", "f3xd5xf7"), rated=True)
        await store.puzzles.step_session(replace(under_way, plies=2, hinted=True))
        await fill_tournament(store)
    finally:
        await store.close()


async def fill_tournament(store: Storage) -> None:
    """A Swiss under way: three entrants, a round with a pairing whose game is stored, a
    bye, and a post in its ledger."""
    made = await store.tournaments.create(NewTournament(
        guild_id=10, channel_id=106, organiser_id=1, name="Cuma turnuvası", format="swiss",
        variant="turkish", rounds=3, duration_seconds=None, move_seconds=60, rated=False,
        seed=2**62, starts_at=START + timedelta(days=1), player_limit=16))
    for user, name in ((1, None), (2, None), (3, "Lina")):
        await store.tournaments.join(made.id, user, name, START)
    made = await store.tournaments.start(made.id, 3, [(1, 1512, 1), (2, 1488, 2), (3, None, 3)],
                                         START, None)
    await store.tournaments.add_round(made.id, made.revision, 1, [(1, 1, 2)], [(3, "U")], START)
    await store.tournaments.set_pairing_thread(made.id, 1, 1, 107)
    await store.tournaments.start_pairing_game(
        made.id, 1, 1, NewGame("turkish", 107, 10, Seat.human(1), Seat.human(2), FEN,
                               move_seconds=60))
    await store.tournaments.claim_post(made.id, "round", "1")
    await store.tournaments.set_post_message(made.id, "round", "1", 808)


async def table_rows(url: str) -> dict[str, int]:
    conn = await asyncpg.connect(url)
    try:
        names = [row[0] for row in await conn.fetch(
            "SELECT tablename FROM pg_tables WHERE schemaname = current_schema() "
            "AND tablename <> 'schema_migrations'")]
        return {name: int(await conn.fetchval(f"SELECT count(*) FROM {name}"))
                for name in names}
    finally:
        await conn.close()


@pytest.fixture
def empty(postgres_server: PostgresServer) -> Iterator[str]:
    """A new, empty PostgreSQL database (`copy_database` creates dama-bot's tables)."""
    url = postgres_server.new_database()
    try:
        yield url
    finally:
        postgres_server.drop_database(url)


async def test_every_table_and_row_is_copied(tmp_path: Path, empty: str) -> None:
    source = tmp_path / "dama.sqlite3"
    await fill(source)
    copied = await copy_database(source, empty)
    counts = {table.table: table.rows for table in copied}
    assert counts == await table_rows(empty)
    assert counts["games"] == 4 and counts["moves"] == 5 and counts["challenges"] == 2
    assert counts["ratings"] == 2 and counts["players"] == 3
    assert counts["leaderboard_rule"] == 1 and counts["rank_buckets"] > 0
    assert counts["puzzle_ratings"] == 1 and counts["puzzle_stats"] == 1
    assert counts["puzzle_attempts"] == 1 and counts["daily_puzzles"] == 1
    assert counts["puzzle_sessions"] == 1
    assert counts["tournaments"] == 1 and counts["tournament_entrants"] == 3
    assert counts["tournament_rounds"] == counts["tournament_pairings"] == 1
    assert counts["tournament_byes"] == counts["tournament_posts"] == 1
    before = await Storage.open(source, leaderboard=EVERYONE, read_only=True)
    after = await Storage.open(empty, leaderboard=EVERYONE)
    try:
        for game_id in (1, 2, 3, 4):
            assert await after.games.load(game_id) == await before.games.load(game_id)
        assert await after.challenges.pending() == await before.challenges.pending()
        assert await after.challenges.get(1) == await before.challenges.get(1)
        for guild in (None, 10):
            assert (await after.ratings.leaderboard("turkish", guild_id=guild)
                    == await before.ratings.leaderboard("turkish", guild_id=guild))
        assert await after.players.get(2) == await before.players.get(2)
        assert (await after.puzzles.rating(1, "turkish")
                == await before.puzzles.rating(1, "turkish"))
        assert await after.puzzles.stats("turkish-0") == await before.puzzles.stats("turkish-0")
        assert await after.puzzles.daily_all() == await before.puzzles.daily_all()
        session = await after.puzzles.session(2)
        assert session is not None and session == await before.puzzles.session(2)
        assert (session.plies, session.hinted, session.solution[2]) == (2, True, "f3xd5xf7")
        # New rows continue after the copied ids.
        game = await after.games.create(NewGame("turkish", 200, None, Seat.human(1),
                                                Seat.human(2), FEN))
        assert game.id == 5
        assert await after.tournaments.get(1) == await before.tournaments.get(1)
        assert await after.tournaments.entrants(1) == await before.tournaments.entrants(1)
        rounds = await after.tournaments.rounds(1)
        assert rounds == await before.tournaments.rounds(1)
        assert (rounds[0].pairings[0].game_id, rounds[0].byes[0].user_id) == (4, 3)
        assert (await after.tournaments.claim_post(1, "round", "1")).message_id == 808
        again = await after.tournaments.create(NewTournament(
            guild_id=10, channel_id=300, organiser_id=1, name="Next", format="arena",
            variant="arab", rounds=None, duration_seconds=600, move_seconds=30, rated=True,
            seed=1))
        assert again.id == 2
    finally:
        await before.close()
        await after.close()


async def test_a_non_empty_target_is_refused(tmp_path: Path, empty: str) -> None:
    source = tmp_path / "dama.sqlite3"
    await fill(source)
    store = await Storage.open(empty)
    await store.players.upsert(9, "already here")
    await store.close()
    before = await table_rows(empty)
    with pytest.raises(CopyError, match=r"not empty \(table \w+ has 1 row\)"):
        await copy_database(source, empty)
    assert await table_rows(empty) == before


async def test_a_copy_that_does_not_match_writes_nothing(
    tmp_path: Path, empty: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    source = tmp_path / "dama.sqlite3"
    await fill(source)
    original = copying._convert
    monkeypatch.setattr(copying, "_convert", lambda value, kind: (
        "altered" if value == "b7-b6" else original(value, kind)))
    with pytest.raises(CopyError, match="table moves: the copy does not match"):
        await copy_database(source, empty)
    assert set((await table_rows(empty)).values()) == {0}


async def test_large_tables_show_progress(
    tmp_path: Path, empty: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    source = tmp_path / "dama.sqlite3"
    await fill(source)
    monkeypatch.setattr(copying, "BATCH", 2)
    seen: list[tuple[str, int, int]] = []
    await copy_database(source, empty, lambda table, done, total: seen.append(
        (table, done, total)))
    assert [entry for entry in seen if entry[0] == "moves"] == [
        ("moves", 2, 5), ("moves", 4, 5), ("moves", 5, 5)]


def test_digest_does_not_depend_on_the_backends_types() -> None:
    kinds = ["bigint", "boolean", "double precision", "text"]
    assert row_hash((1, 1, 1500, "x"), kinds) == row_hash((1, True, 1500.0, "x"), kinds)
    assert row_hash((1, 0, 1500, "x"), kinds) != row_hash((1, True, 1500.0, "x"), kinds)


def test_the_command_line(tmp_path: Path, empty: str,
                          capsys: pytest.CaptureFixture[str]) -> None:
    import asyncio

    source = tmp_path / "dama.sqlite3"
    asyncio.run(fill(source))
    assert main(["db", "copy", str(source), empty]) == 0
    out = capsys.readouterr().out
    assert "moves: 5 rows" in out and "copied" in out
    # One row is "1 row" (the leaderboard rule is a single row in every database).
    assert "leaderboard_rule: 1 row, digest" in out and " 1 rows" not in out, out
    # Again into the same (now full) target: refused, status 2, one line.
    assert main(["db", "copy", str(source), empty]) == 2
    assert "not empty" in capsys.readouterr().err
    assert main(["db", "copy", empty, str(source)]) == 2
    assert "must be an SQLite file" in capsys.readouterr().err
    # A source that does not exist: one line saying to give the bot's database as SOURCE
    # (DAMA_DATABASE names it for the bot), not to change permissions.
    assert main(["db", "copy", str(tmp_path / "missing.sqlite3"), empty]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "missing.sqlite3" in err, err
    assert "as SOURCE" in err and "DAMA_DATABASE names" in err and "data/dama.sqlite3" in err
    assert "permission" not in err


def test_the_advice_names_the_argument_to_change(
    tmp_path: Path, empty: str, capsys: pytest.CaptureFixture[str]
) -> None:
    # What the bot's start says of DAMA_DATABASE, the copy says of SOURCE or TARGET:
    # those are what its user changes.
    foreign = tmp_path / "notes.sqlite3"
    with sqlite3.connect(foreign) as conn:
        conn.execute("CREATE TABLE notes (text TEXT)")
    assert main(["db", "copy", str(foreign), empty]) == 2
    err = capsys.readouterr().err
    assert "another program's tables" in err and "point SOURCE at dama-bot's database" in err
    assert "DAMA_DATABASE" not in err and err.count("\n") == 1, err
    import asyncio

    source = tmp_path / "dama.sqlite3"
    asyncio.run(fill(source))
    nowhere = f"postgresql://dama@/dama?host={tmp_path / 'no-server'}"
    assert main(["db", "copy", str(source), nowhere]) == 2
    err = capsys.readouterr().err
    assert "cannot use the database 'postgresql://" in err
    assert "TARGET's host, port, user, password and database name" in err
    assert "DAMA_DATABASE" not in err and err.count("\n") == 1, err
