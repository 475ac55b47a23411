"""The scheduler (`bot.services.tournaments.scheduler`) on a fake clock: an arena pairs
its players as they come free and stops pairing before its end, which freezes the
standings (a game ended after it does not count); a start time starts a tournament (or
cancels it with too few players); a restart posts the notices a kill left claimed, in a
cancelled tournament too, and shows the status on the sign-up post; a process that does
not own the server never pairs its tournaments."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

from bot.services.shards import ShardScope, shard_of
from bot.services.tournaments import (
    Cancelled,
    Final,
    Paused,
    Post,
    RoundPaired,
    TournamentView,
)
from storage import TournamentStatus
from tests.support.clock import FakeClock
from tests.support.services import CHANNEL, GUILD, OpenServices, Services, TournamentCollector
from tests.support.tournament_play import (
    ORGANISER,
    PLAYERS,
    by_lower_id,
    create,
    current_round,
    end_game,
    sign_up,
)
from tournaments.model import Format, Outcome

WAIT = timedelta(seconds=10)
"""The arena's wait before pairing a free player (docs/RULES.md, "Arena")."""

CLOSED = timedelta(seconds=30)
"""No pairing in an arena's last 30 seconds with 40 seconds a move (docs/RULES.md,
"Arena": half the initial time, at least 30 seconds)."""


def arena_scores(finished: list[tuple[int, int, Outcome]]) -> dict[int, int]:
    """lichess's arena points counted by hand over decisive games in the order they
    ended: a win 2, a loss 0, and a win after two wins in a row 4 (docs/RULES.md,
    "Arena", "Streaks")."""
    results: dict[int, list[bool]] = {}
    scores: dict[int, int] = {}
    for white, black, outcome in finished:
        winner = white if outcome is Outcome.WHITE_WINS else black
        for player in (white, black):
            history = results.setdefault(player, [])
            on_fire = history[-2:] == [True, True]
            won = player == winner
            scores[player] = scores.get(player, 0) + (0 if not won else 4 if on_fire else 2)
            history.append(won)
    return scores


async def end_under_way(services: Services, tournament_id: int,
                        finished: list[tuple[int, int, Outcome]], *, boards: int | None = None
                        ) -> None:
    """End the games under way of the arena's latest pairings (the first `boards`)."""
    rounds = await services.tournaments.rounds(tournament_id, guild_id=GUILD)
    under_way = [p for r in rounds for p in r.pairings if p.outcome is None]
    for pairing in under_way[:boards]:
        assert pairing.thread_id is not None
        outcome = by_lower_id(pairing.white, pairing.black)
        await end_game(services, pairing.thread_id, pairing.white, pairing.black, outcome)
        finished.append((pairing.white, pairing.black, outcome))


async def test_an_arena_pairs_players_as_they_come_free_until_its_end(
        open_services: OpenServices) -> None:
    clock = FakeClock()
    services = await open_services(clock=clock)
    arena = await create(services, Format.ARENA, duration=timedelta(minutes=10))
    players = list(PLAYERS[:4])
    await sign_up(services, arena.id, players)
    started = await services.tournaments.start(arena.id, ORGANISER, guild_id=GUILD)
    assert started.ends_at == clock.now + timedelta(minutes=10)
    first = await current_round(services, arena.id)
    assert first.number == 1 and len(first.pairings) == 2
    finished: list[tuple[int, int, Outcome]] = []

    # One board ends: its players wait for others to come free before they are paired.
    await end_under_way(services, arena.id, finished, boards=1)
    await services.tournaments.tick()
    assert (await current_round(services, arena.id)).number == 1
    clock.advance(WAIT)
    await services.tournaments.tick()
    second = await current_round(services, arena.id)
    assert second.number == 2
    (pairing,) = second.pairings
    assert {pairing.white, pairing.black} == set(finished[0][:2])

    # Then every game ends at once, again and again: all free, paired at once.
    assert started.ends_at is not None
    while clock.now + WAIT < started.ends_at - CLOSED:
        await end_under_way(services, arena.id, finished)
        clock.advance(WAIT)
        await services.tournaments.tick()
    late = await services.tournaments.rounds(arena.id, guild_id=GUILD)
    under_way = [p for r in late for p in r.pairings if p.outcome is None]
    assert under_way, "games are under way at the end"

    # The last stretch: players come free, no pairing is made.
    await end_under_way(services, arena.id, finished, boards=len(under_way) - 1)
    clock.now = started.ends_at - CLOSED + timedelta(seconds=1)
    await services.tournaments.tick()
    assert len(await services.tournaments.rounds(arena.id, guild_id=GUILD)) == len(late)

    # The end: the standings are frozen; the game under way is played out, not counted.
    clock.now = started.ends_at
    await services.tournaments.tick()
    info = await services.tournaments.info(arena.id, guild_id=GUILD)
    assert info.status is TournamentStatus.FINISHED
    clock.advance(timedelta(seconds=5))
    last: list[tuple[int, int, Outcome]] = []
    await end_under_way(services, arena.id, last)
    assert len(last) == 1
    standings = await services.tournaments.standings(arena.id, guild_id=GUILD)
    expected = arena_scores(finished)
    assert {row.user_id: row.score for row in standings.rows} == {
        player: expected.get(player, 0) for player in players}
    assert [row.rank for row in standings.rows] == [1, 2, 3, 4]
    assert [row.score for row in standings.rows] == sorted(expected.values(), reverse=True)
    assert any(row.score > 2 * row.wins for row in standings.rows), "a streak doubled a win"
    outlet = services.tournament_posts
    (final,) = outlet.of_kind(arena.id, Final)
    assert isinstance(final, Final) and final.standings.rows == standings.rows
    assert len(outlet.of_kind(arena.id, RoundPaired)) == len(late)


async def test_a_tournament_starts_at_its_start_time(open_services: OpenServices) -> None:
    clock = FakeClock()
    services = await open_services(clock=clock)
    starts = clock.now + timedelta(hours=1)
    view = await create(services, Format.SWISS, starts_at=starts)
    await sign_up(services, view.id, PLAYERS[:4])
    clock.now = starts - timedelta(seconds=1)
    await services.tournaments.tick()
    assert (await services.tournaments.info(view.id, guild_id=GUILD)).status \
        is TournamentStatus.SIGNUP
    clock.now = starts
    await services.tournaments.tick()
    info = await services.tournaments.info(view.id, guild_id=GUILD)
    assert info.status is TournamentStatus.RUNNING
    assert info.current_round == 1


async def test_a_start_time_with_one_player_cancels_the_tournament(
        open_services: OpenServices) -> None:
    clock = FakeClock()
    services = await open_services(clock=clock)
    starts = clock.now + timedelta(minutes=30)
    view = await create(services, Format.ROUND_ROBIN, starts_at=starts)
    await sign_up(services, view.id, PLAYERS[:1])
    clock.now = starts
    await services.tournaments.tick()
    info = await services.tournaments.info(view.id, guild_id=GUILD)
    assert info.status is TournamentStatus.CANCELLED
    (cancelled,) = services.tournament_posts.of_kind(view.id, Cancelled)
    assert cancelled == Cancelled(too_few_players=True)


async def test_a_start_time_set_before_a_restart_is_kept(
        open_services: OpenServices, tmp_path: Path) -> None:
    clock = FakeClock()
    path = tmp_path / "watch.sqlite3"
    services = await open_services(path, clock)
    starts = clock.now + timedelta(hours=2)
    view = await create(services, Format.SWISS, starts_at=starts)
    await sign_up(services, view.id, PLAYERS[:2])
    await services.close()
    again = await open_services(path, clock)
    clock.now = starts
    await again.tournaments.tick()
    assert (await again.tournaments.info(view.id, guild_id=GUILD)).status \
        is TournamentStatus.RUNNING


class Killed(TournamentCollector):
    """Sends nothing of the organiser's notices, as if the bot died once its status
    change was stored."""

    async def post(self, view: TournamentView, post: Post) -> int:
        if isinstance(post, Cancelled | Paused):
            raise ConnectionError("the bot died")
        return await super().post(view, post)


async def test_a_restart_posts_the_notices_a_kill_left_claimed_and_shows_the_status(
        open_services: OpenServices, tmp_path: Path) -> None:
    clock = FakeClock()
    path = tmp_path / "notices.sqlite3"
    services = await open_services(path, clock, tournament_outlet=Killed())
    cancelled = await create(services, Format.SWISS)
    await services.tournaments.end(cancelled.id, ORGANISER, guild_id=GUILD,
                                   may_organise=False)
    paused = await create(services, Format.SWISS, channel=CHANNEL + 1)
    await sign_up(services, paused.id, PLAYERS[:2])
    await services.tournaments.start(paused.id, ORGANISER, guild_id=GUILD)
    await services.tournaments.pause(paused.id, ORGANISER, guild_id=GUILD,
                                     may_organise=False)
    record = await services.storage.tournaments.get(paused.id)
    assert record is not None and record.status is TournamentStatus.PAUSED
    await services.close()

    outlet = TournamentCollector()
    again = await open_services(path, clock, tournament_outlet=outlet)
    await again.tournaments.restore()
    assert outlet.of_kind(cancelled.id, Cancelled) == [Cancelled(too_few_players=False)]
    assert outlet.of_kind(paused.id, Paused) == [Paused(record.revision)]
    shown = {view.id: view.status for view in outlet.signup_edits}
    assert shown == {cancelled.id: TournamentStatus.CANCELLED,
                     paused.id: TournamentStatus.PAUSED}
    for view in (cancelled, paused):
        assert await again.storage.tournaments.unrecorded_posts(view.id) == []
    # Owed no more: a second restart posts nothing.
    await again.tournaments.restore()
    assert outlet.resent == [] and len(outlet.posts) == 2


def other_shard_scope() -> ShardScope:
    """A scope of two shards that does not hold `GUILD`'s."""
    mine = shard_of(GUILD, 2)
    return ShardScope(2, frozenset({1 - mine}))


async def test_a_process_that_does_not_own_the_server_never_pairs_its_tournament(
        open_services: OpenServices, tmp_path: Path) -> None:
    clock = FakeClock()
    path = tmp_path / "shards.sqlite3"
    owner = await open_services(path, clock)
    view = await create(owner, Format.ARENA)
    await sign_up(owner, view.id, PLAYERS[:4])
    await owner.close()

    outlet = TournamentCollector()
    other = await open_services(path, clock, scope=other_shard_scope(),
                                tournament_outlet=outlet)
    # The organiser's command reaches the owner; here the start is stored as it would be,
    # and this process is asked to advance it every way it knows.
    await other.tournaments.start(view.id, ORGANISER, guild_id=GUILD)
    await other.tournaments.restore()
    await other.tournaments.tick()
    clock.advance(timedelta(minutes=1))
    await other.tournaments.tick()
    assert await other.tournaments.rounds(view.id, guild_id=GUILD) == []
    assert outlet.posts == [] and outlet.tournament_threads == {}
    info = await other.tournaments.info(view.id, guild_id=GUILD)
    assert info.status is TournamentStatus.RUNNING
    await other.close()

    owner = await open_services(path, clock)
    await owner.tournaments.restore()
    assert len(await owner.tournaments.rounds(view.id, guild_id=GUILD)) == 1
