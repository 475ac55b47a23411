"""Privacy between servers (`bot/services/visibility.py`, docs/ARCHITECTURE.md "Privacy
between servers"): the rule itself, and `/export`, `/history` and `/board` at the
services level on a real SQLite file."""

from __future__ import annotations

import pytest

import engine
from bot.messages import Msg
from bot.services import PlayerError, Requester, can_see
from bot.services.press_targets import PressTargets
from tests.support.services import ALICE, BOB, CAROL, CHANNEL, GUILD, OpenServices, start_game

OTHER_GUILD, OTHER_CHANNEL = 777, 778


async def test_a_game_is_seen_in_its_guild_and_by_its_players_anywhere(
    open_services: OpenServices,
) -> None:
    s = await open_services()
    record = await start_game(s, "turkish")
    assert can_see(Requester(CAROL, GUILD), record)
    assert not can_see(Requester(CAROL, OTHER_GUILD), record)
    assert not can_see(Requester(CAROL, None), record)
    for player in (ALICE, BOB):
        for where in (GUILD, OTHER_GUILD, None):
            assert can_see(Requester(player, where), record)


async def test_export_of_another_guilds_game_is_refused_as_a_missing_one(
    open_services: OpenServices,
) -> None:
    s = await open_services()
    record = await start_game(s, "turkish")
    with pytest.raises(PlayerError) as missing:
        await s.stats.export(Requester(CAROL, OTHER_GUILD), game_id=record.id + 1000)
    for outsider in (Requester(CAROL, OTHER_GUILD), Requester(CAROL, None)):
        with pytest.raises(PlayerError) as hidden:
            await s.stats.export(outsider, game_id=record.id)
        assert hidden.value.key is missing.value.key is Msg.UNKNOWN_GAME
        assert hidden.value.params == {"game_id": record.id}
    for allowed in (Requester(CAROL, GUILD), Requester(BOB, None), Requester(ALICE, OTHER_GUILD)):
        assert (await s.stats.export(allowed, game_id=record.id)).game_id == record.id


async def test_history_lists_only_the_games_visible_here(open_services: OpenServices) -> None:
    s = await open_services()
    here = await start_game(s, "turkish")
    await s.games.resign(CHANNEL, BOB)
    elsewhere = await start_game(s, "turkish", white=ALICE, black=CAROL,
                                 channel=OTHER_CHANNEL, guild=OTHER_GUILD)
    await s.games.resign(OTHER_CHANNEL, CAROL)

    async def listed(requester: Requester, limit: int = 10) -> list[int]:
        return [g.id for g in await s.stats.history(ALICE, requester, limit=limit)]

    assert await listed(Requester(ALICE, None)) == [elsewhere.id, here.id]
    assert await listed(Requester(ALICE, GUILD)) == [elsewhere.id, here.id]
    # Bob, a stranger to the other guild's game, from the first guild or elsewhere:
    assert await listed(Requester(BOB, GUILD)) == [here.id]
    assert await listed(Requester(BOB, None)) == [here.id]
    # The limit counts visible games: the newest (hidden) one does not take the place.
    assert await listed(Requester(BOB, GUILD), limit=1) == [here.id]
    # Carol played the other game: she sees it from the first guild too.
    assert await listed(Requester(CAROL, GUILD)) == [elsewhere.id, here.id]
    assert await listed(Requester(9999, OTHER_GUILD)) == [elsewhere.id]
    assert await listed(Requester(9999, None)) == []


async def test_board_of_a_game_from_another_guild_is_refused(
    open_services: OpenServices,
) -> None:
    s = await open_services()
    await start_game(s, "turkish")
    with pytest.raises(PlayerError) as info:
        await s.games.show_board(CHANNEL, Requester(CAROL, OTHER_GUILD), announce=None)
    assert info.value.key is Msg.NO_GAME_HERE
    update = await s.games.show_board(CHANNEL, Requester(CAROL, GUILD), announce=None)
    assert update.state.channel_id == CHANNEL


DM = 9101
"""A DM between Alice and Bob: a game there has no guild (docs/ARCHITECTURE.md,
"Places")."""


async def test_a_game_in_a_dm_is_hidden_from_every_server_and_seen_by_its_players_anywhere(
    open_services: OpenServices,
) -> None:
    s = await open_services()
    record = await start_game(s, "turkish", channel=DM, guild=None)
    assert record.guild_id is None
    outsiders = [Requester(CAROL, where) for where in (GUILD, OTHER_GUILD, None)]
    players = [Requester(player, where) for player in (ALICE, BOB)
               for where in (GUILD, OTHER_GUILD, None)]
    targets = PressTargets(s.storage)
    for outsider in outsiders:
        assert not can_see(outsider, record)
        with pytest.raises(PlayerError) as board:
            await s.games.show_board(DM, outsider, announce=None)
        assert board.value.key is Msg.NO_GAME_HERE
        with pytest.raises(PlayerError) as pressed:
            await targets.game(outsider, record.id, channel_id=DM)
        assert pressed.value.key is Msg.UNKNOWN_GAME
    for player in players:
        assert (await s.games.show_board(DM, player, announce=None)).state.game_id == record.id
        assert (await targets.game(player, record.id, channel_id=DM)).id == record.id

    for _ in range(2):  # a game with moves, which the analysis takes
        state = s.games.current(DM)
        move = engine.legal_moves(state.position, state.variant)[0]
        assert state.to_move.user_id is not None
        await s.games.play(DM, state.to_move.user_id,
                           engine.format_move(move, state.position, state.variant))
    await s.games.resign(DM, BOB)
    for outsider in outsiders:
        assert [g.id for g in await s.stats.history(ALICE, outsider, limit=10)] == []
        for shown in (s.stats.export(outsider, game_id=record.id),
                      s.composed.analyses.find(outsider, game_id=record.id)):
            with pytest.raises(PlayerError) as hidden:
                await shown
            assert hidden.value.key is Msg.UNKNOWN_GAME
    for player in players:
        assert [g.id for g in await s.stats.history(ALICE, player, limit=10)] == [record.id]
        assert (await s.stats.export(player, game_id=record.id)).game_id == record.id
        assert (await s.composed.analyses.find(player, game_id=record.id)).id == record.id


async def test_a_group_chats_game_is_seen_from_that_chat_by_its_other_members(
    open_services: OpenServices,
) -> None:
    # Its boards are in the chat for every member to read: the place decides.
    s = await open_services()
    record = await start_game(s, "turkish", channel=DM, guild=None)
    member = Requester(CAROL, None, DM)
    assert can_see(member, record)
    assert (await s.games.show_board(DM, member, announce=None)).state.game_id == record.id
    for elsewhere in (Requester(CAROL, None, OTHER_CHANNEL), Requester(CAROL, GUILD, DM),
                      Requester(CAROL, None)):
        assert not can_see(elsewhere, record)
