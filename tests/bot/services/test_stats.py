"""`StatsService` (`bot/services/stats.py`) on a real SQLite file: which game `/export` picks."""

from __future__ import annotations

import pytest

from bot.messages import Msg
from bot.services import PlayerError
from tests.support.services import ALICE, OpenServices, start_game


async def test_export_in_direct_messages_with_several_games_and_none_ended(
    open_services: OpenServices,
) -> None:
    s = await open_services()
    one = await start_game(s, "turkish", channel=700)
    two = await start_game(s, "italian", channel=701)
    with pytest.raises(PlayerError) as info:
        await s.stats.export(ALICE, channel_id=9100, direct=True)
    assert info.value.key is Msg.NO_GAME_TO_EXPORT_SEVERAL
    assert info.value.params["games"] == f"#{one.id}, #{two.id}"
    # In a server channel without a game, the old rule stands: the most recent ended
    # game (there is none).
    with pytest.raises(PlayerError) as info:
        await s.stats.export(ALICE, channel_id=9100)
    assert info.value.key is Msg.NO_GAME_TO_EXPORT
