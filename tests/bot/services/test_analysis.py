"""`AnalysisService` (`bot/services/analysis.py`) on a real SQLite file, with a reviewer
that waits for the test: which game, one analysis per game, the bound, cancelling, the
stored result."""

from __future__ import annotations

import asyncio
from collections.abc import Hashable, Sequence
from pathlib import Path

import pytest

from bot.messages import Msg
from bot.services import PlayerError, Requester
from bot.services.analysis import (
    AnalysisService,
    ProgressPlace,
    StoredAnalysis,
    ThreadReviewer,
)
from bot.services.shards import ShardScope
from engine.analysis import PositionReview
from tests.support.services import (
    ALICE,
    BOB,
    CAROL,
    CHANNEL,
    GUILD,
    OpenServices,
    Services,
    start_game,
)

PLACE = ProgressPlace(GUILD, CHANNEL, "tr")
"""Where the tests' analyses show their progress."""


class GatedReviewer:
    """Answers each position with a draw once `gate` is set; counts what it was asked."""

    def __init__(self) -> None:
        self.gate = asyncio.Event()
        self.asked: list[tuple[str, int, int]] = []

    async def review(
        self, fen: str, variant_key: str, *, history: Sequence[str], no_progress_plies: int,
        nodes: int, key: Hashable,
    ) -> PositionReview:
        self.asked.append((fen, len(history), no_progress_plies))
        await self.gate.wait()
        return PositionReview(0, None, (), False, 1)


async def _finished(s: Services, channel: int = CHANNEL) -> int:
    record = await start_game(s, "turkish", "W:Wd4,a2:Bd5,h7", channel=channel)
    await s.games.play(channel, ALICE, "d4xd6")
    await s.games.play(channel, BOB, "h7-h6")
    await s.games.resign(channel, BOB)
    return record.id


async def test_find_start_bound_cancel_and_store(open_services: OpenServices) -> None:
    s = await open_services()
    reviewer = GatedReviewer()
    service = AnalysisService(s.storage, s.games, reviewer, nodes=10, limit=1)
    requester = Requester(CAROL, GUILD)
    with pytest.raises(PlayerError) as info:
        await service.find(requester, channel_id=CHANNEL)
    assert info.value.key is Msg.NO_GAME_TO_ANALYZE
    active = await start_game(s, "turkish", channel=CHANNEL + 1)
    with pytest.raises(PlayerError) as info:
        await service.find(requester, game_id=active.id)
    assert info.value.key is Msg.ANALYSIS_GAME_ACTIVE
    game_id = await _finished(s)
    record = await service.find(requester, channel_id=CHANNEL)
    assert record.id == game_id
    with pytest.raises(PlayerError) as info:  # another server's requester: as if missing
        await service.find(Requester(CAROL, GUILD + 1), game_id=game_id)
    assert info.value.key is Msg.UNKNOWN_GAME

    seen: list[tuple[int, int]] = []

    async def progress(done: int, total: int) -> None:
        seen.append((done, total))

    running = await service.start(game_id, ALICE, progress, PLACE)
    task = running.task
    with pytest.raises(PlayerError) as info:
        await service.start(game_id, BOB, progress, PLACE)
    assert info.value.key is Msg.ANALYSIS_RUNNING
    other = await _finished(s, channel=CHANNEL + 2)
    with pytest.raises(PlayerError) as info:
        await service.start(other, BOB, progress, PLACE)
    assert info.value.key is Msg.ANALYSIS_BUSY
    with pytest.raises(PlayerError) as info:
        service.cancel(game_id, BOB)
    assert info.value.key is Msg.ANALYSIS_NOT_STARTER
    assert service.cancel(game_id, ALICE)
    with pytest.raises(asyncio.CancelledError):
        await task
    assert not service.is_running(game_id) and await service.stored(game_id) is None

    reviewer.gate.set()
    analysis = await (await service.start(game_id, ALICE, progress, None)).task
    # The start and the position after each of the two plies; the history grows and a
    # man's move resets the no-progress count.
    assert [(n, c) for _, n, c in reviewer.asked[-3:]] == [(0, 0), (1, 0), (2, 0)]
    assert seen[-3:] == [(1, 3), (2, 3), (3, 3)]
    assert len(analysis.evaluations) == 3
    assert await service.stored(game_id) == analysis
    assert (await s.storage.analyses.get(game_id)).nodes == 10  # type: ignore[union-attr]
    assert await service.result(game_id) == StoredAnalysis(analysis, 10)


async def test_thread_reviewer_matches_the_engine() -> None:
    from engine import Position, get_variant
    from engine.analysis import review_position

    variant = get_variant("italian")
    fen = "W:Wb1,c2,d3,f3:Bd5,f5,e8,g8,h7"
    here = review_position(Position.from_fen(fen, variant), variant, nodes=2_000)
    there = await ThreadReviewer().review(fen, "italian", history=(), no_progress_plies=0,
                                          nodes=2_000, key="k")
    assert there == here


async def test_an_analysis_is_under_way_from_its_start_until_its_progress_shows_an_end(
    open_services: OpenServices,
) -> None:
    s = await open_services()
    reviewer = GatedReviewer()
    service = AnalysisService(s.storage, s.games, reviewer, nodes=10)
    game_id = await _finished(s)

    async def progress(done: int, total: int) -> None:
        pass

    running = await service.start(game_id, ALICE, progress, PLACE)
    [stored] = await s.storage.analyses.under_way()
    assert (stored.id, stored.game_id, stored.requester_id, stored.guild_id,
            stored.channel_id, stored.message_id, stored.locale) == (
        running.under_way, game_id, ALICE, GUILD, CHANNEL, None, "tr")
    await service.shown(running, 4242)
    [stored] = await s.storage.analyses.under_way()
    assert stored.message_id == 4242
    # This process's own analysis is not one a killed process left behind.
    assert await service.interrupted() == []
    reviewer.gate.set()
    await running.task
    # Finished, but its progress message does not show the result yet: still under way.
    assert [r.id for r in await s.storage.analyses.under_way()] == [running.under_way]
    await service.ended(running)
    assert await s.storage.analyses.under_way() == []


async def test_analyses_left_under_way_by_a_killed_process_are_interrupted_in_scope(
    open_services: OpenServices, tmp_path: Path,
) -> None:
    path = tmp_path / "shared.sqlite3"
    s = await open_services(path)
    game_id = await _finished(s)
    mine = await s.storage.analyses.begin(game_id, requester_id=ALICE, guild_id=GUILD,
                                          channel_id=CHANNEL, locale="it")
    direct = await s.storage.analyses.begin(game_id, requester_id=BOB, guild_id=None,
                                            channel_id=777, locale="fr")
    far = await s.storage.analyses.begin(game_id, requester_id=CAROL, guild_id=1 << 22,
                                         channel_id=888, locale="ar")
    # A process of a later start with every shard: every guild and the direct messages.
    service = AnalysisService(s.storage, s.games, GatedReviewer())
    assert await service.interrupted() == [mine, direct, far]
    await service.forget(mine.id)
    assert await service.interrupted() == [direct, far]
    # Two processes, shard 0 (GUILD's and the direct messages) and shard 1 (guild 1 << 22).
    for shard, expected in ((0, [direct]), (1, [far])):
        scope = ShardScope(shard_count=2, shard_ids=frozenset({shard}))
        other = await open_services(path, scope=scope)
        service = AnalysisService(other.storage, other.games, GatedReviewer())
        assert await service.interrupted() == expected
