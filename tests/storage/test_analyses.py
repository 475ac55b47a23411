"""AnalysisRepository: one stored analysis per game, replaced when saved again; the
analyses under way, each with where its progress shows, until it ends."""

from __future__ import annotations

from datetime import timedelta

import pytest

from storage import AnalysisUnderWay, GameNotFoundError, NewGame, Seat, Storage
from tests.support.clock import FakeClock


def new_game(channel: int = 100) -> NewGame:
    return NewGame(variant="turkish", channel_id=channel, guild_id=10,
                   white=Seat.human(1), black=Seat.human(2), start_fen="W:Wa2,b2:Ba7,b7")


async def test_save_then_get(storage: Storage, clock: FakeClock) -> None:
    game = await storage.games.create(new_game())
    assert await storage.analyses.get(game.id) is None
    saved = await storage.analyses.save(game.id, plies=3, nodes=1000, body='{"a":1}')
    assert (saved.game_id, saved.plies, saved.nodes, saved.body) == (game.id, 3, 1000,
                                                                      '{"a":1}')
    assert await storage.analyses.get(game.id) == saved
    clock.advance(timedelta(minutes=1))
    again = await storage.analyses.save(game.id, plies=4, nodes=2000, body="{}")
    assert again.plies == 4 and again.created_at > saved.created_at
    assert await storage.analyses.get(game.id) == again


async def test_unknown_game_and_bad_values(storage: Storage) -> None:
    with pytest.raises(GameNotFoundError):
        await storage.analyses.save(999, plies=1, nodes=1, body="{}")
    game = await storage.games.create(new_game())
    for plies, nodes, body in ((-1, 1, "{}"), (1, 0, "{}"), (1, 1, "")):
        with pytest.raises(ValueError):
            await storage.analyses.save(game.id, plies=plies, nodes=nodes, body=body)
    assert await storage.analyses.get(game.id) is None



async def test_last_finished_in_channel(storage: Storage, clock: FakeClock) -> None:
    from storage import GameResult

    assert await storage.games.last_finished_in_channel(100) is None
    first = await storage.games.create(new_game(channel=100))
    await storage.games.finish(first.id, result=GameResult.WHITE_WINS, termination="resign")
    clock.advance(timedelta(minutes=1))
    second = await storage.games.create(new_game(channel=100))
    assert (await storage.games.last_finished_in_channel(100)).id == first.id  # type: ignore[union-attr]
    await storage.games.finish(second.id, result=GameResult.DRAW, termination="agreement")
    other = await storage.games.create(new_game(channel=101))
    await storage.games.finish(other.id, result=GameResult.DRAW, termination="agreement")
    third = await storage.games.create(new_game(channel=100))
    await storage.games.abort(third.id, termination="aborted")
    found = await storage.games.last_finished_in_channel(100)
    assert found is not None and found.id == second.id


async def test_an_analysis_under_way_is_recorded_shown_and_ended(
    storage: Storage, clock: FakeClock,
) -> None:
    game = await storage.games.create(new_game())
    assert await storage.analyses.under_way() == []
    first = await storage.analyses.begin(game.id, requester_id=1, guild_id=10,
                                         channel_id=100, locale="tr")
    clock.advance(timedelta(seconds=1))
    # The same game again elsewhere (a player's direct messages), before the first ends.
    second = await storage.analyses.begin(game.id, requester_id=2, guild_id=None,
                                          channel_id=555, locale="en-US")
    assert first.id != second.id
    assert (first.game_id, first.requester_id, first.guild_id, first.channel_id,
            first.message_id, first.locale) == (game.id, 1, 10, 100, None, "tr")
    await storage.analyses.shown(first.id, 9001)
    assert await storage.analyses.under_way() == [
        AnalysisUnderWay(first.id, game.id, 1, 10, 100, 9001, "tr", first.started_at),
        second,
    ]
    await storage.analyses.end(first.id)
    await storage.analyses.end(first.id)  # already forgotten: nothing
    await storage.analyses.shown(first.id, 9002)  # no longer under way: nothing
    assert await storage.analyses.under_way() == [second]


async def test_an_analysis_under_way_needs_its_game_and_a_locale(storage: Storage) -> None:
    with pytest.raises(GameNotFoundError):
        await storage.analyses.begin(999, requester_id=1, guild_id=10, channel_id=100,
                                     locale="en-US")
    game = await storage.games.create(new_game())
    with pytest.raises(ValueError):
        await storage.analyses.begin(game.id, requester_id=1, guild_id=10, channel_id=100,
                                     locale="")
    assert await storage.analyses.under_way() == []
