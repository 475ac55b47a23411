"""Whole tournaments of eight players run by local play's scripts against the real bot: a
Swiss of 4 rounds and a round robin (7 rounds) from `localplay/examples/`, and an arena of
10 minutes (slow) whose script is made here, block after block, until it is over.

Each run must end without a failed line, and the standings the bot posts (the final post
and `/tournament standings`) must be the ones computed here, independently of
`tournaments/`, from the results stored in the bot's database (read-only), by the rules
of docs/RULES.md, "Tournaments": win 2, draw 1, loss 0; Buchholz Cut 1, Sonneborn-Berger,
direct encounter, then shared ranks listed by pairing number; in an arena the streaks
(a win counts 4 after two wins in a row), the quick draw (fewer than 10 moves: 0), the
draw streak, the performance and the games ended by the end time.

With `GALLERY_DIR` set (`make gallery-tournaments` sets it to `gallery/`), the standings
picture of each final post is saved there (docs/LOCAL_PLAY.md, "Tournaments")."""

from __future__ import annotations

import asyncio
import os
import re
from collections import defaultdict
from collections.abc import Iterator, Sequence
from contextlib import closing
from dataclasses import dataclass
from itertools import combinations
from pathlib import Path

import pytest

import localplay
from localplay.server import LocalDiscord
from localplay.session import TerminalSession
from standin import MessageRecord
from tests.support.local_discord import ANSWER_TIMEOUT, read_database, run_script

EXAMPLES = Path(localplay.__file__).parent / "examples"
PLAYERS = ("ana", "ben", "cem", "dan", "eda", "fay", "gus", "hal")
WIN, DRAW, LOSS = 2, 1, 0
"""The points of docs/RULES.md, "Tournaments", Scores."""

Row = tuple[int, int, float, tuple[float, ...]]
"""A standings line: rank, player's user id, score, and what follows: the tie-breaks'
values (Swiss, round robin), or the games played and 1 when on fire, else 0 (arena)."""

LINE = re.compile(r"\*\*(\d+)\.\*\* <@(\d+)>: \*\*([\d.]+)\*\*(.*)")
SHOWN_TIEBREAK = re.compile(r"(Buchholz Cut 1|Sonneborn-Berger): ([\d.]+)")
ARENA_GAMES = re.compile(r"games: (\d+)")


@dataclass(frozen=True)
class Game:
    """One finished tournament game as stored: its players, the points each scored, its
    length in plies, when it ended (Unix ms) and its round (an arena's pairing batch)."""

    white: int
    black: int
    white_points: int
    black_points: int
    plies: int
    ended: int
    round: int


# ---- running a script ---------------------------------------------------------------------


def _script(name: str) -> list[str]:
    return (EXAMPLES / name).read_text(encoding="utf-8").splitlines()


def _final_and_asked(local: LocalDiscord, name: str) -> tuple[MessageRecord, MessageRecord]:
    """The tournament's final post, and the answer to the script's last line
    (`/tournament standings`)."""
    messages = [m for channel in list(local.standin.world.channels)
                for m in local.standin.messages(channel)]
    [final] = [m for m in messages if m.content.startswith(f"**{name} is over.")]
    asked = [m for m in local.standin.messages(local.channel)
             if m.interaction_id is not None and m.embeds
             and m.embeds[0].get("title") == f"{name}: standings"]
    return final, asked[-1]


def _shown(message: MessageRecord) -> list[Row]:
    """The standings lines of a message's embed."""
    rows = []
    for line in message.embeds[0]["description"].splitlines():
        found = LINE.match(line)
        if found:
            rank, user, score, rest = found.groups()
            values = tuple(float(v) for _, v in SHOWN_TIEBREAK.findall(rest))
            if played := ARENA_GAMES.search(rest):
                values = (float(played.group(1)), float("on fire" in rest))
            rows.append((int(rank), int(user), float(score), values))
    return rows


def _keep_picture(message: MessageRecord, name: str) -> None:
    """Save the final post's standings picture as `GALLERY_DIR/name` when it is set."""
    folder = os.environ.get("GALLERY_DIR")
    if folder:
        [picture] = [a for a in message.attachments if a.filename == "standings.png"]
        Path(folder).mkdir(parents=True, exist_ok=True)
        (Path(folder) / name).write_bytes(picture.data)


# ---- reading the database -------------------------------------------------------------------


def _games(local: LocalDiscord) -> tuple[list[int], dict[int, int], list[Game], int | None]:
    """The tournament's players by pairing number, their ratings at the start, its
    finished games and its end time (an arena's, Unix ms). Asserts what the computation
    below leaves out did not happen: no forfeit, no bye, no player left."""
    with closing(read_database(local)) as db:
        [(tournament, ends_at)] = db.execute("SELECT id, ends_at FROM tournaments").fetchall()
        entrants = db.execute("SELECT user_id, rating, status FROM tournament_entrants "
                              "WHERE tournament_id = ? ORDER BY number", (tournament,))
        players, ratings = [], {}
        for user, rating, status in entrants:
            assert status == "active"
            players.append(user)
            ratings[user] = rating
        assert not db.execute("SELECT * FROM tournament_byes").fetchall()
        assert not db.execute("SELECT * FROM tournament_pairings "
                              "WHERE forfeit IS NOT NULL").fetchall()
        games = []
        for white, black, result, plies, ended, round_ in db.execute(
                "SELECT g.white_user_id, g.black_user_id, g.result, g.ply_count, "
                "g.finished_at, p.round FROM tournament_pairings p "
                "JOIN games g ON g.id = p.game_id WHERE g.status = 'finished' "
                "ORDER BY g.finished_at"):
            points = {"1-0": (WIN, LOSS), "0-1": (LOSS, WIN), "1/2-1/2": (DRAW, DRAW)}[result]
            games.append(Game(white, black, *points, plies, ended, round_))
    return players, ratings, games, ends_at


def _sides(games: Sequence[Game]) -> Iterator[tuple[int, int, int]]:
    """Each game from each player's side: (player, opponent, points)."""
    for game in games:
        yield game.white, game.black, game.white_points
        yield game.black, game.white, game.black_points


# ---- the independent computations ----------------------------------------------------------
def _swiss_or_round_robin_standings(players: list[int], games: Sequence[Game]) -> list[Row]:
    """Score, Buchholz Cut 1 (the opponents' scores less the lowest), Sonneborn-Berger
    (each opponent's score times the share of a win scored against them), then direct
    encounter among the players still tied (only when each two of them met); equal
    players share the rank, listed by pairing number (docs/RULES.md, "Tie-breaks and
    standings"). Every round here is a game played."""
    score = {p: sum(points for q, _, points in _sides(games) if q == p) for p in players}
    met = defaultdict(list)  # player -> [(opponent, points)]
    for player, opponent, points in _sides(games):
        met[player].append((opponent, points))
    buchholz = {p: sum(score[o] for o, _ in met[p]) - min(score[o] for o, _ in met[p])
                for p in players}
    berger = {p: sum(score[o] * points / WIN for o, points in met[p]) for p in players}
    tied = defaultdict(list)
    for p in players:
        tied[(score[p], buchholz[p], berger[p])].append(p)
    direct = dict.fromkeys(players, 0)
    for group in tied.values():
        if all(any(o == b for o, _ in met[a]) for a, b in combinations(group, 2)):
            for p in group:
                direct[p] = sum(points for o, points in met[p] if o in group)
    key = {p: (score[p], buchholz[p], berger[p], direct[p]) for p in players}
    ordered = sorted(players, key=lambda p: (tuple(-v for v in key[p]), players.index(p)))
    return [(1 + sum(key[q] > key[p] for q in players), p, score[p],
             (buchholz[p], berger[p])) for p in ordered]


def _arena_standings(players: list[int], ratings: dict[int, int], games: Sequence[Game],
                     ends_at: int) -> list[Row]:
    """lichess's arena scoring as docs/RULES.md, "Arena", gives it: the games ended by
    the end time in the order they ended; a win 2, or 4 after two wins in a row; a draw
    in fewer than 10 moves (20 plies) 0; another draw 1 (2 after two wins), but 0 when
    the player's last game not lost was a draw and this one is under 30 moves (60
    plies); on fire after two wins in a row; ranked by score, then performance (the
    mean of each opponent's rating at the start, +500 for a win, -500 for a loss; the
    rating without a game), then pairing number, never sharing a rank."""
    score = dict.fromkeys(players, 0)
    results: dict[int, list[str]] = {p: [] for p in players}
    performances: dict[int, list[int]] = {p: [] for p in players}
    for game in (g for g in games if g.ended <= ends_at):
        for player, opponent, points in _sides([game]):
            past = results[player]
            on_fire = past[-2:] == ["win", "win"]
            if points == WIN:
                score[player] += 4 if on_fire else 2
                past.append("win")
            elif points == DRAW:
                not_lost = [r for r in past if r != "loss"]
                streak = bool(not_lost) and not_lost[-1] == "draw" and game.plies < 60
                if game.plies >= 20 and not streak:
                    score[player] += 2 if on_fire else 1
                past.append("draw")
            else:
                past.append("loss")
            swing = {WIN: 500, DRAW: 0, LOSS: -500}[points]
            performances[player].append(ratings[opponent] + swing)

    def performance(p: int) -> float:
        done = performances[p]
        return sum(done) / len(done) if done else ratings[p]

    ordered = sorted(players, key=lambda p: (-score[p], -performance(p), players.index(p)))
    return [(rank, p, score[p], (len(results[p]), float(results[p][-2:] == ["win", "win"])))
            for rank, p in enumerate(ordered, 1)]


def _check(final: MessageRecord, asked: MessageRecord, expected: list[Row]) -> None:
    assert _shown(final) == expected, (final.embeds[0]["description"], expected)
    assert _shown(asked) == expected
    assert [a.filename for a in final.attachments] == ["standings.png"]


# ---- the tournaments ----------------------------------------------------------------------
async def test_a_swiss_of_four_rounds_run_by_script_ends_with_the_computed_standings(
    local: LocalDiscord, tmp_path: Path
) -> None:
    await run_script(local, _script("swiss-8.txt"), tmp_path / "boards")
    players, _, games, _ = _games(local)
    assert len(players) == 8
    assert sorted(g.round for g in games) == [r for r in (1, 2, 3, 4) for _ in range(4)]
    final, asked = _final_and_asked(local, "Club Swiss")
    _check(final, asked, _swiss_or_round_robin_standings(players, games))
    _keep_picture(final, "local-play-swiss-standings.png")


async def test_a_round_robin_of_eight_run_by_script_ends_with_the_computed_standings(
    local: LocalDiscord, tmp_path: Path
) -> None:
    await run_script(local, _script("round-robin-8.txt"), tmp_path / "boards")
    players, _, games, _ = _games(local)
    assert len(players) == 8 and len(games) == 28
    assert {frozenset((g.white, g.black)) for g in games} == {
        frozenset(pair) for pair in combinations(players, 2)}  # everyone met everyone
    final, asked = _final_and_asked(local, "Club Round Robin")
    _check(final, asked, _swiss_or_round_robin_standings(players, games))
    _keep_picture(final, "local-play-round-robin-standings.png")


def _arena_block(number: int) -> list[str]:
    """One pass of the arena's players: each goes to their game, if they have one, and
    resigns it, in a rotating order so that results vary; in every third pass the first
    three offer a draw first (a quick draw: it scores nothing)."""
    order = list(PLAYERS[number % 8:] + PLAYERS[:number % 8])
    if number % 2:
        order.reverse()
    lines = []
    if number % 3 == 0:
        for player in order[:3]:
            lines += [f"as {player}", "in my game or skip", "/draw"]
    for player in order:
        lines += [f"as {player}", "in my game or skip", "/resign", "press Resign"]
    return lines


@pytest.mark.slow
async def test_an_arena_of_ten_minutes_run_by_script_ends_with_the_computed_standings(
    local: LocalDiscord, tmp_path: Path
) -> None:
    """About 10.5 minutes: the arena's 10 minutes are real time, then its last games are
    played out."""
    out: list[str] = []
    start = [
        "as owner", "in general",
        '/tournament create name:"Club Arena" format:arena variant:italian duration:10m '
        "move_time:40s",
        *[line for player in PLAYERS for line in (f"as {player}", "press Join")],
        "as owner", "/tournament start", 'wait "New games" 120s',
    ]
    async with TerminalSession(local, boards_dir=tmp_path / "boards", emit=out.append,
                               timeout=ANSWER_TIMEOUT) as session:
        for line in start:
            assert await session.run_line(line), (line, out[-20:])
        number = 0
        while not any(line.startswith("Club Arena is over.") for line in out):
            before = len(out)
            for line in _arena_block(number):
                assert await session.run_line(line), (line, out[-20:])
            number += 1
            if not any(line.startswith("(you are in") for line in out[before:]):
                await asyncio.sleep(3)  # no one had a game: the next pairing is coming
        for line in ('wait "Club Arena is over" 60s', "in general", "/tournament standings"):
            assert await session.run_line(line), (line, out[-20:])
        await session.finish()
    assert session.failures == 0
    players, ratings, games, ends_at = _games(local)
    assert ends_at is not None
    counted = [g for g in games if g.ended <= ends_at]
    assert len(counted) >= 40  # several games each (here some 600 in all)
    final, asked = _final_and_asked(local, "Club Arena")
    _check(final, asked, _arena_standings(players, ratings, games, ends_at))
    _keep_picture(final, "local-play-arena-standings.png")
