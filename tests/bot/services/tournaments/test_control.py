"""The organiser's actions (`bot.services.tournaments.control`): who may take them, the
start, pause and resumption (an arena's end moves on by the pause), and ending early
(the games under way are played out, then the final standings)."""

from __future__ import annotations

from collections.abc import Awaitable
from datetime import timedelta

import pytest

from bot.messages import Msg
from bot.services.errors import PlayerError
from bot.services.tournaments import Cancelled, Ended, Final, Paused, Resumed
from storage import Rating, TournamentStatus
from tests.support.clock import FakeClock
from tests.support.services import GUILD, OpenServices
from tests.support.tournament_play import (
    ORGANISER,
    PLAYERS,
    by_lower_id,
    create,
    current_round,
    play_round,
    sign_up,
)
from tournaments.model import Format

STRANGER = PLAYERS[0]


def rated(user_id: int, rating: float) -> Rating:
    """A stored Turkish draughts rating."""
    return Rating(user_id, "turkish", rating, 60.0, 0.06, 10, 5, 5, 0, None)


async def refused(call: Awaitable[object], key: Msg) -> None:
    with pytest.raises(PlayerError) as caught:
        await call
    assert caught.value.key is key


async def test_only_the_organiser_or_a_member_who_may_organise_runs_the_tournament(
        open_services: OpenServices) -> None:
    services = await open_services()
    view = await create(services, Format.SWISS)
    await sign_up(services, view.id, PLAYERS[:4])
    service = services.tournaments
    for action in (service.start, service.pause, service.resume, service.end):
        await refused(action(view.id, STRANGER, guild_id=GUILD, may_organise=False),
                      Msg.TOURNAMENT_NOT_ITS_ORGANISER)
    assert (await service.info(view.id, guild_id=GUILD)).status is TournamentStatus.SIGNUP
    # A member with Manage Server (or the organiser role) may, as the organiser may.
    started = await service.start(view.id, STRANGER, guild_id=GUILD, may_organise=True)
    assert started.status is TournamentStatus.RUNNING
    paused = await service.pause(view.id, ORGANISER, guild_id=GUILD, may_organise=False)
    assert paused.status is TournamentStatus.PAUSED


async def test_a_start_needs_two_players_and_happens_once(open_services: OpenServices) -> None:
    services = await open_services()
    view = await create(services, Format.SWISS)
    await sign_up(services, view.id, PLAYERS[:1])
    await refused(services.tournaments.start(view.id, ORGANISER, guild_id=GUILD),
                  Msg.TOURNAMENT_TOO_FEW_PLAYERS)
    await sign_up(services, view.id, PLAYERS[1:2])
    await services.tournaments.start(view.id, ORGANISER, guild_id=GUILD)
    await refused(services.tournaments.start(view.id, ORGANISER, guild_id=GUILD),
                  Msg.TOURNAMENT_ALREADY_STARTED)


async def test_entrants_are_numbered_by_rating_at_the_start(open_services: OpenServices) -> None:
    services = await open_services()
    view = await create(services, Format.SWISS)
    await sign_up(services, view.id, PLAYERS[:3])
    # The third player is rated 1700 in the variant, the second 1400; the first never
    # played it (a new player's 1500).
    await services.storage.ratings.import_ratings(
        [rated(PLAYERS[2], 1700.4), rated(PLAYERS[1], 1399.6)])
    started = await services.tournaments.start(view.id, ORGANISER, guild_id=GUILD)
    numbers = {entrant.user_id: entrant.number for entrant in started.entrants}
    assert numbers == {PLAYERS[2]: 1, PLAYERS[0]: 2, PLAYERS[1]: 3}
    ratings = {entrant.user_id: entrant.rating for entrant in started.entrants}
    assert ratings == {PLAYERS[2]: 1700, PLAYERS[0]: 1500, PLAYERS[1]: 1400}


async def test_a_paused_tournament_pairs_no_new_round_until_it_resumes(
        open_services: OpenServices) -> None:
    services = await open_services()
    view = await create(services, Format.SWISS, rounds=2)
    await sign_up(services, view.id, PLAYERS[:4])
    service = services.tournaments
    await service.start(view.id, ORGANISER, guild_id=GUILD)
    await refused(service.resume(view.id, ORGANISER, guild_id=GUILD, may_organise=False),
                  Msg.TOURNAMENT_NOT_PAUSED)
    await service.pause(view.id, ORGANISER, guild_id=GUILD, may_organise=False)
    await refused(service.pause(view.id, ORGANISER, guild_id=GUILD, may_organise=False),
                  Msg.TOURNAMENT_NOT_RUNNING)
    # The games under way are played out; the next round waits.
    await play_round(services, view.id, by_lower_id)
    assert (await current_round(services, view.id)).number == 1
    resumed = await service.resume(view.id, ORGANISER, guild_id=GUILD, may_organise=False)
    assert resumed.status is TournamentStatus.RUNNING
    assert (await current_round(services, view.id)).number == 2
    outlet = services.tournament_posts
    assert len(outlet.of_kind(view.id, Paused)) == 1
    assert len(outlet.of_kind(view.id, Resumed)) == 1


async def test_a_pause_moves_an_arenas_end_on(open_services: OpenServices) -> None:
    clock = FakeClock()
    services = await open_services(clock=clock)
    view = await create(services, Format.ARENA)
    await sign_up(services, view.id, PLAYERS[:2])
    started = await services.tournaments.start(view.id, ORGANISER, guild_id=GUILD)
    assert started.ends_at is not None
    await services.tournaments.pause(view.id, ORGANISER, guild_id=GUILD, may_organise=False)
    clock.advance(timedelta(minutes=3))
    resumed = await services.tournaments.resume(view.id, ORGANISER, guild_id=GUILD,
                                                may_organise=False)
    assert resumed.ends_at == started.ends_at + timedelta(minutes=3)


async def test_ending_early_lets_the_games_under_way_finish_then_posts_the_final(
        open_services: OpenServices) -> None:
    services = await open_services()
    view = await create(services, Format.SWISS, rounds=5)
    await sign_up(services, view.id, PLAYERS[:4])
    service = services.tournaments
    await service.start(view.id, ORGANISER, guild_id=GUILD)
    await play_round(services, view.id, by_lower_id)
    ended = await service.end(view.id, ORGANISER, guild_id=GUILD, may_organise=False)
    assert ended.status is TournamentStatus.FINISHED
    outlet = services.tournament_posts
    assert outlet.of_kind(view.id, Ended) == [Ended()]
    assert outlet.of_kind(view.id, Final) == []
    await refused(service.end(view.id, ORGANISER, guild_id=GUILD, may_organise=False),
                  Msg.TOURNAMENT_OVER)
    await play_round(services, view.id, by_lower_id)
    rounds = await service.rounds(view.id, guild_id=GUILD)
    assert [r.number for r in rounds] == [1, 2]
    (final,) = outlet.of_kind(view.id, Final)
    assert isinstance(final, Final) and final.standings.final
    assert sum(row.score for row in final.standings.rows) == 2 * 4  # 2 rounds of 2 games
    assert [view.id] == [t.id for t in await service.history(GUILD)]


async def test_ending_in_sign_up_cancels(open_services: OpenServices) -> None:
    services = await open_services()
    view = await create(services, Format.ARENA)
    ended = await services.tournaments.end(view.id, ORGANISER, guild_id=GUILD,
                                           may_organise=False)
    assert ended.status is TournamentStatus.CANCELLED
    assert services.tournament_posts.of_kind(view.id, Cancelled) == [
        Cancelled(too_few_players=False)]
    assert services.tournament_posts.signup_edits[-1].status is TournamentStatus.CANCELLED
    assert await services.tournaments.list(GUILD) == []
    assert await services.tournaments.history(GUILD) == []
