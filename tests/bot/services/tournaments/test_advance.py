"""The reconciler (`bot.services.tournaments.advance`) runs whole tournaments: a Swiss of
8 players and a round robin of 5 played to the end through the game service, the
standings checked against a computation written here (not `tournaments.*`), and a
restart mid-round that goes on without pairing or posting anything twice; an arena's
pairing is made in a worker thread, off the event loop."""

from __future__ import annotations

import threading
from collections import Counter, defaultdict
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from bot.services.tournaments import (
    Cell,
    Final,
    RoundPaired,
    RoundResults,
    SignUp,
    StandingsView,
    Started,
    TieBreak,
)
from storage import GameStatus, TournamentStatus
from tests.support.clock import FakeClock
from tests.support.services import GUILD, OpenServices, TournamentCollector
from tests.support.tournament_play import (
    ORGANISER,
    PLAYERS,
    by_lower_id,
    create,
    current_round,
    play_round,
    sign_up,
)
from tournaments import arena_pairing
from tournaments.model import Format, Outcome, Round

Played = list[tuple[int, int, Outcome]]


def expected_scores(players: list[int], played: Played, byes: list[int]) -> dict[int, int]:
    """Win 2, draw 1, loss 0, a Swiss's pairing-allocated bye 2 (docs/RULES.md, "Scores"),
    counted by hand."""
    scores = dict.fromkeys(players, 0)
    for white, black, outcome in played:
        if outcome is Outcome.DRAW:
            scores[white] += 1
            scores[black] += 1
        else:
            scores[white if outcome is Outcome.WHITE_WINS else black] += 2
    for player in byes:
        scores[player] += 2
    return scores


def sonneborn_berger(played: Played, scores: dict[int, int]) -> dict[int, Fraction]:
    """Each player's opponents' scores times the share of a win scored against them."""
    berger: dict[int, Fraction] = defaultdict(Fraction)
    for white, black, outcome in played:
        share = {Outcome.WHITE_WINS: (Fraction(1), Fraction(0)),
                 Outcome.DRAW: (Fraction(1, 2), Fraction(1, 2)),
                 Outcome.BLACK_WINS: (Fraction(0), Fraction(1))}[outcome]
        berger[white] += share[0] * scores[black]
        berger[black] += share[1] * scores[white]
    return berger


def buchholz_cut_1(played: Played, scores: dict[int, int]) -> dict[int, int]:
    """The opponents' scores but the lowest (every round played: no unplayed round)."""
    opponents: dict[int, list[int]] = defaultdict(list)
    for white, black, _ in played:
        opponents[white].append(scores[black])
        opponents[black].append(scores[white])
    return {player: sum(values) - min(values) for player, values in opponents.items()}


def tie_break(row_breaks: tuple[tuple[TieBreak, object], ...], name: TieBreak) -> object:
    return dict(row_breaks)[name]


def check_order(standings: StandingsView) -> None:
    """The rows go down by (score, tie-breaks), and a rank is shared only by equal rows."""
    keys = [(row.score, *(value or 0 for _, value in row.tie_breaks)) for row in standings.rows]
    assert keys == sorted(keys, reverse=True)
    for previous, row, key_before, key in zip(standings.rows, standings.rows[1:], keys,
                                              keys[1:], strict=False):
        assert (row.rank == previous.rank) == (key == key_before)


async def test_a_swiss_of_eight_is_played_to_the_end_with_the_standings_counted_by_hand(
        open_services: OpenServices) -> None:
    services = await open_services()
    view = await create(services, Format.SWISS, rounds=4)
    await sign_up(services, view.id, PLAYERS)
    started = await services.tournaments.start(view.id, ORGANISER, guild_id=GUILD)
    assert started.status is TournamentStatus.RUNNING
    assert started.current_round == 1
    played: Played = []
    for number in range(1, 5):
        round_ = await current_round(services, view.id)
        assert round_.number == number
        assert len(round_.pairings) == 4 and not round_.byes
        played += await play_round(services, view.id, by_lower_id)

    info = await services.tournaments.info(view.id, guild_id=GUILD)
    assert info.status is TournamentStatus.FINISHED
    assert len(played) == 16
    pairs = Counter(frozenset((white, black)) for white, black, _ in played)
    assert max(pairs.values()) == 1, "two players met twice"
    scores = expected_scores(list(PLAYERS), played, [])
    berger = sonneborn_berger(played, scores)
    buchholz = buchholz_cut_1(played, scores)
    standings = await services.tournaments.standings(view.id, guild_id=GUILD)
    assert standings.final
    assert {row.user_id: row.score for row in standings.rows} == scores
    for row in standings.rows:
        assert tie_break(row.tie_breaks, TieBreak.BUCHHOLZ_CUT_1) == buchholz[row.user_id]
        assert tie_break(row.tie_breaks, TieBreak.SONNEBORN_BERGER) == berger[row.user_id]
        assert [cell.cell for cell in row.results].count(Cell.UNDER_WAY) == 0
    check_order(standings)

    posts = services.tournament_posts
    assert len(posts.of_kind(view.id, SignUp)) == 1
    assert len(posts.of_kind(view.id, Started)) == 1
    assert [p.round.number for p in posts.of_kind(view.id, RoundPaired)] == [1, 2, 3, 4]
    assert [p.round.number for p in posts.of_kind(view.id, RoundResults)] == [1, 2, 3, 4]
    (final,) = posts.of_kind(view.id, Final)
    assert isinstance(final, Final) and final.standings == standings
    assert not posts.resent
    assert len(posts.game_threads) == 16


async def test_a_round_robin_of_five_gives_each_player_one_rest_round(
        open_services: OpenServices) -> None:
    services = await open_services()
    view = await create(services, Format.ROUND_ROBIN, cycles=1)
    players = list(PLAYERS[:5])
    await sign_up(services, view.id, players)
    started = await services.tournaments.start(view.id, ORGANISER, guild_id=GUILD)
    assert started.total_rounds == 5
    played: Played = []
    rests: list[int] = []
    for _ in range(5):
        round_ = await current_round(services, view.id)
        assert len(round_.pairings) == 2 and len(round_.byes) == 1
        rests += [bye.user_id for bye in round_.byes]
        played += await play_round(services, view.id, by_lower_id)

    assert (await services.tournaments.info(view.id, guild_id=GUILD)).status \
        is TournamentStatus.FINISHED
    assert sorted(rests) == players, "each player rests once"
    assert sorted(Counter(frozenset((w, b)) for w, b, _ in played).values()) == [1] * 10
    # The rest round scores nothing in a round robin (docs/RULES.md, "Scores").
    scores = expected_scores(players, played, [])
    standings = await services.tournaments.standings(view.id, guild_id=GUILD)
    assert {row.user_id: row.score for row in standings.rows} == scores
    berger = sonneborn_berger(played, scores)
    for row in standings.rows:
        assert tie_break(row.tie_breaks, TieBreak.SONNEBORN_BERGER) == berger[row.user_id]
        assert [cell.cell for cell in row.results].count(Cell.BYE) == 1
    check_order(standings)
    assert standings.rows[0].user_id == PLAYERS[0]  # the lowest id wins all its games


async def test_a_restart_mid_round_goes_on_without_pairing_or_posting_twice(
        open_services: OpenServices, tmp_path: Path) -> None:
    path = tmp_path / "restart.sqlite3"
    clock = FakeClock()
    outlet = TournamentCollector()
    services = await open_services(path, clock, tournament_outlet=outlet)
    view = await create(services, Format.SWISS, rounds=3)
    await sign_up(services, view.id, PLAYERS)
    await services.tournaments.start(view.id, ORGANISER, guild_id=GUILD)
    await play_round(services, view.id, by_lower_id)
    round_ = await current_round(services, view.id)
    assert round_.number == 2
    first = round_.pairings[0]
    assert first.thread_id is not None
    # Half the second round is played, then the bot stops.
    await play_round(services, view.id, by_lower_id, limit=2)
    posts_before = len(outlet.posts)
    await services.close()

    again = await open_services(path, clock, tournament_outlet=outlet)
    restored = await current_round(again, view.id)
    assert restored.number == 2
    assert [p.game_id for p in restored.pairings] == [p.game_id for p in round_.pairings]
    assert len(outlet.posts) == posts_before, "the restart posted nothing again"
    for pairing in restored.pairings:
        if pairing.outcome is None:
            assert pairing.thread_id is not None
            assert again.games.has_game(pairing.thread_id)
    await play_round(again, view.id, by_lower_id)
    await play_round(again, view.id, by_lower_id)
    info = await again.tournaments.info(view.id, guild_id=GUILD)
    assert info.status is TournamentStatus.FINISHED
    rounds = await again.tournaments.rounds(view.id, guild_id=GUILD)
    assert [r.number for r in rounds] == [1, 2, 3]
    assert len(outlet.game_threads) == 12, "one thread per board, none opened twice"
    assert not outlet.resent
    assert len(outlet.of_kind(view.id, Final)) == 1
    for r in rounds:
        for pairing in r.pairings:
            assert pairing.game_id is not None
            record = await again.storage.games.get(pairing.game_id)
            assert record is not None and record.status is GameStatus.FINISHED



async def test_an_arenas_pairing_is_made_off_the_event_loop(
        open_services: OpenServices, monkeypatch: pytest.MonkeyPatch) -> None:
    # The standings and free players of a long arena take tens of milliseconds: the
    # event loop's thread must not wait for them (benchmarks/tournaments.py).
    threads: list[threading.Thread] = []
    pair = arena_pairing.pair

    def spied(*args: Any, **kwargs: Any) -> Round | None:
        threads.append(threading.current_thread())
        return pair(*args, **kwargs)

    monkeypatch.setattr(arena_pairing, "pair", spied)
    services = await open_services()
    view = await create(services, Format.ARENA)
    await sign_up(services, view.id, PLAYERS[:4])
    await services.tournaments.start(view.id, ORGANISER, guild_id=GUILD)
    assert len((await current_round(services, view.id)).pairings) == 2
    assert threads
    assert all(thread is not threading.main_thread() for thread in threads)


async def test_a_swiss_of_more_rounds_than_its_players_allow_ends_when_none_can_be_paired(
        open_services: OpenServices) -> None:
    services = await open_services()
    view = await create(services, Format.SWISS, rounds=3)
    await sign_up(services, view.id, PLAYERS[:2])
    await services.tournaments.start(view.id, ORGANISER, guild_id=GUILD)
    await play_round(services, view.id, by_lower_id)
    await services.tournaments.idle()
    rounds = await services.tournaments.rounds(view.id, guild_id=GUILD)
    assert [(len(r.pairings), len(r.byes)) for r in rounds] == [(1, 0)]
    info = await services.tournaments.info(view.id, guild_id=GUILD)
    assert info.status is TournamentStatus.FINISHED
    standings = await services.tournaments.standings(view.id, guild_id=GUILD)
    assert [(row.user_id, row.score) for row in standings.rows] == [
        (PLAYERS[0], 2), (PLAYERS[1], 0)]
