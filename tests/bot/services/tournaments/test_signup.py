"""Creating a tournament and its sign-up (`bot.services.tournaments.signup`): who may
create, one tournament per channel, and the rules of joining, leaving and being removed
(full, role, already in, sign-up over, leaving keeps the games, a removed player is
paired no more and may not come back)."""

from __future__ import annotations

from collections.abc import Awaitable

import pytest

from bot.messages import Msg
from bot.services.errors import PlayerError, UserRef
from bot.services.tournaments import Cell, PlayerRemoved, SignUp
from storage import EntrantStatus, GameStatus, TournamentStatus
from tests.support.services import CHANNEL, GUILD, OpenServices
from tests.support.tournament_play import (
    ORGANISER,
    PLAYERS,
    by_lower_id,
    create,
    current_round,
    play_round,
    settings,
    sign_up,
)
from tournaments.model import ByeKind, Format, Outcome

OTHER_GUILD = 777


async def refused(call: Awaitable[object], key: Msg) -> PlayerError:
    with pytest.raises(PlayerError) as caught:
        await call
    assert caught.value.key is key
    return caught.value


async def test_only_a_member_who_may_organise_creates_a_tournament(
        open_services: OpenServices) -> None:
    services = await open_services()
    await refused(services.tournaments.create(GUILD, CHANNEL, ORGANISER,
                                              settings(Format.SWISS), may_organise=False),
                  Msg.TOURNAMENT_NOT_ORGANISER)
    assert await services.tournaments.list(GUILD) == []
    view = await create(services, Format.SWISS)
    assert view.status is TournamentStatus.SIGNUP
    assert view.post_message_id is not None
    assert services.tournament_posts.of_kind(view.id, SignUp) == [SignUp()]


async def test_a_channel_has_one_tournament_at_a_time(open_services: OpenServices) -> None:
    services = await open_services()
    first = await create(services, Format.SWISS, name="Autumn cup")
    error = await refused(create(services, Format.ARENA), Msg.TOURNAMENT_CHANNEL_BUSY)
    assert error.params["name"] == "Autumn cup"
    await create(services, Format.ARENA, channel=CHANNEL + 50)
    await services.tournaments.end(first.id, ORGANISER, guild_id=GUILD, may_organise=False)
    await create(services, Format.ARENA)


async def test_settings_are_checked_before_anything_is_stored(
        open_services: OpenServices) -> None:
    services = await open_services()
    await refused(create(services, Format.SWISS, rounds=21), Msg.TOURNAMENT_ROUNDS)
    await refused(create(services, Format.SWISS, move_seconds=41), Msg.TOURNAMENT_MOVE_TIME)
    assert await services.tournaments.list(GUILD) == []


async def test_joining_is_refused_when_full_without_the_role_or_twice(
        open_services: OpenServices) -> None:
    services = await open_services()
    view = await create(services, Format.SWISS, player_limit=2, role_id=55)
    join = services.tournaments.join
    await refused(join(view.id, PLAYERS[0], guild_id=GUILD, role_ids=frozenset({54}),
                       display_name="a"), Msg.TOURNAMENT_ROLE_REQUIRED)
    for player in PLAYERS[:2]:
        await join(view.id, player, guild_id=GUILD, role_ids=frozenset({55}), display_name="a")
    await refused(join(view.id, PLAYERS[0], guild_id=GUILD, role_ids=frozenset({55}),
                       display_name="a"), Msg.TOURNAMENT_ALREADY_IN)
    error = await refused(join(view.id, PLAYERS[2], guild_id=GUILD, role_ids=frozenset({55}),
                               display_name="c"), Msg.TOURNAMENT_FULL)
    assert error.params["limit"] == 2
    await refused(join(view.id, PLAYERS[2], guild_id=OTHER_GUILD, role_ids=frozenset({55}),
                       display_name="c"), Msg.TOURNAMENT_UNKNOWN)
    # A place freed by a player who leaves is taken; the sign-up post follows each change.
    await services.tournaments.leave(view.id, PLAYERS[1], guild_id=GUILD)
    after = await join(view.id, PLAYERS[2], guild_id=GUILD, role_ids=frozenset({55}),
                       display_name="c")
    assert [e.user_id for e in after.active_entrants] == [PLAYERS[0], PLAYERS[2]]
    assert services.tournament_posts.signup_edits[-1] == after


async def test_a_round_robin_takes_at_most_sixteen_players(open_services: OpenServices) -> None:
    services = await open_services()
    view = await create(services, Format.ROUND_ROBIN)
    await sign_up(services, view.id, range(3001, 3017))
    await refused(services.tournaments.join(view.id, 3017, guild_id=GUILD,
                                            role_ids=frozenset(), display_name=None),
                  Msg.TOURNAMENT_FULL)


async def test_sign_up_closes_at_the_start_but_an_arena_takes_players_while_it_runs(
        open_services: OpenServices) -> None:
    services = await open_services()
    swiss = await create(services, Format.SWISS)
    await sign_up(services, swiss.id, PLAYERS[:2])
    await services.tournaments.start(swiss.id, ORGANISER, guild_id=GUILD)
    await refused(services.tournaments.join(swiss.id, PLAYERS[2], guild_id=GUILD,
                                            role_ids=frozenset(), display_name=None),
                  Msg.TOURNAMENT_SIGNUP_CLOSED)
    arena = await create(services, Format.ARENA, channel=CHANNEL + 1)
    await sign_up(services, arena.id, PLAYERS[:2])
    await services.tournaments.start(arena.id, ORGANISER, guild_id=GUILD)
    late = await services.tournaments.join(arena.id, PLAYERS[2], guild_id=GUILD,
                                           role_ids=frozenset(), display_name=None)
    entrant = late.entrant(PLAYERS[2])
    assert entrant is not None and entrant.number == 3


async def test_leaving_and_being_removed_need_an_entry(open_services: OpenServices) -> None:
    services = await open_services()
    view = await create(services, Format.SWISS)
    await sign_up(services, view.id, PLAYERS[:3])
    await refused(services.tournaments.leave(view.id, PLAYERS[5], guild_id=GUILD),
                  Msg.TOURNAMENT_NOT_ENTERED)
    error = await refused(
        services.tournaments.remove(view.id, ORGANISER, PLAYERS[5], guild_id=GUILD,
                                    may_organise=False),
        Msg.TOURNAMENT_PLAYER_NOT_ENTERED)
    assert error.params["user"] == UserRef(PLAYERS[5])
    await refused(services.tournaments.remove(view.id, PLAYERS[1], PLAYERS[0], guild_id=GUILD,
                                              may_organise=False),
                  Msg.TOURNAMENT_NOT_ITS_ORGANISER)
    removed = await services.tournaments.remove(view.id, PLAYERS[1], PLAYERS[0],
                                                guild_id=GUILD, may_organise=True)
    entrant = removed.entrant(PLAYERS[0])
    assert entrant is not None and entrant.status is EntrantStatus.REMOVED
    await refused(services.tournaments.join(view.id, PLAYERS[0], guild_id=GUILD,
                                            role_ids=frozenset(), display_name=None),
                  Msg.TOURNAMENT_REMOVED)


async def test_a_player_who_leaves_keeps_their_games_and_is_paired_no_more(
        open_services: OpenServices) -> None:
    services = await open_services()
    view = await create(services, Format.SWISS, rounds=3)
    await sign_up(services, view.id, PLAYERS[:4])
    await services.tournaments.start(view.id, ORGANISER, guild_id=GUILD)
    first = await current_round(services, view.id)
    leaver = first.pairings[0].white
    # Leaving during a game: the game is played out and counts.
    await services.tournaments.leave(view.id, leaver, guild_id=GUILD)
    played = await play_round(services, view.id, lambda white, black: Outcome.WHITE_WINS)
    assert len(played) == 2
    game_id = first.pairings[0].game_id
    assert game_id is not None
    record = await services.storage.games.get(game_id)
    assert record is not None and record.status is GameStatus.FINISHED
    second = await current_round(services, view.id)
    assert second.number == 2
    assert leaver not in {p for pairing in second.pairings for p in (pairing.white,
                                                                      pairing.black)}
    assert [(bye.user_id, bye.kind) for bye in second.byes if bye.user_id == leaver] == [
        (leaver, ByeKind.NOT_PAIRED)]
    standings = await services.tournaments.standings(view.id, guild_id=GUILD)
    row = next(row for row in standings.rows if row.user_id == leaver)
    assert row.score == 2 and row.status is EntrantStatus.LEFT


async def test_a_removed_player_is_paired_no_more_in_a_round_robin(
        open_services: OpenServices) -> None:
    services = await open_services()
    view = await create(services, Format.ROUND_ROBIN)
    players = list(PLAYERS[:4])
    await sign_up(services, view.id, players)
    await services.tournaments.start(view.id, ORGANISER, guild_id=GUILD)
    await play_round(services, view.id, by_lower_id)
    removed = players[3]
    await services.tournaments.remove(view.id, ORGANISER, removed, guild_id=GUILD,
                                      may_organise=False)
    assert services.tournament_posts.of_kind(view.id, PlayerRemoved) == [PlayerRemoved(removed)]
    # Their game under way is played out; from the next round on their games are forfeits.
    under_way = await current_round(services, view.id)
    assert under_way.number == 2
    (game,) = [p for p in under_way.pairings if removed in (p.white, p.black)]
    assert game.game_id is not None
    await play_round(services, view.id, by_lower_id)
    round_ = await current_round(services, view.id)
    assert round_.number == 3
    assert all(removed not in (p.white, p.black) for p in round_.pairings)
    byes = {bye.user_id: bye.kind for bye in round_.byes}
    assert byes[removed] is ByeKind.NOT_PAIRED
    (resting,) = [user for user, kind in byes.items() if kind is ByeKind.PAIRING_ALLOCATED]
    await play_round(services, view.id, by_lower_id)
    info = await services.tournaments.info(view.id, guild_id=GUILD)
    assert info.status is TournamentStatus.FINISHED
    standings = await services.tournaments.standings(view.id, guild_id=GUILD)
    row = next(row for row in standings.rows if row.user_id == resting)
    assert (row.results[2].cell, row.results[2].points) == (Cell.BYE, 0)
    removed_row = next(row for row in standings.rows if row.user_id == removed)
    assert [cell.cell for cell in removed_row.results][2] is Cell.NOT_PAIRED
    assert removed_row.status is EntrantStatus.REMOVED
