"""`AnalysisService`: the computer's review of finished games (`engine.analysis`), on
plain values (no discord).

- Which game: `find(requester, game_id=..., channel_id=...)`, a number or the channel's last
  finished game, visible under the same rule as `/export` (`bot.services.visibility`);
  a game still being played or without moves is refused.
- Stored once computed (`storage.analyses`, the analysis as JSON): `stored(game_id)`
  answers at once, `result(game_id)` with the search budget it was computed with.
- `start(game_id, requester, progress)` reviews every position of the game, one after
  the other, through a `PositionReviewer` (the computer's worker processes,
  `bot.computer.PoolReviewer`: background work that comes after every game's move), and
  calls `progress(done, total)` after each; then judges the plies, stores the analysis
  and returns it. One analysis at a time per game (ANALYSIS_RUNNING), at most `limit`
  at once (ANALYSIS_BUSY): the bounded queue. `cancel(game_id, user_id)` stops one
  (only its requester may).
- Across a restart: each analysis is stored as under way (`storage.analyses`,
  `analyses_under_way`) from its start (`ProgressPlace`: where its progress shows and in
  which language) until its caller says its progress message shows a final state
  (`ended`); `shown` records that message. The analyses a killed process left under way
  are `interrupted()` at the next start, and `forget` drops each once its message was
  corrected (docs/ARCHITECTURE.md, "Recovery at start-up"). They are not resumed: their
  reviews so far were not kept, and the requester asks again when they want it.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Hashable, Sequence
from dataclasses import dataclass
from typing import Protocol

from bot.messages import Msg
from bot.services.errors import PlayerError, UserRef
from bot.services.games import GameService
from bot.services.visibility import Requester, can_see
from engine import Game, Position, get_variant
from engine.analysis import (
    DEFAULT_NODES,
    GameAnalysis,
    PositionReview,
    analyse,
    review_position,
    review_tasks,
)
from storage import AnalysisUnderWay, GameRecord, GameStatus, Storage

log = logging.getLogger(__name__)

DEFAULT_LIMIT = 4
"""Most analyses running or waiting at once (each holds at most one search in the
computer's queue at a time)."""

Progress = Callable[[int, int], Awaitable[None]]
"""Called with (positions reviewed, positions in all) after each position."""


class PositionReviewer(Protocol):
    """Reviews one position of a game somewhere off the event loop."""

    async def review(
        self, fen: str, variant_key: str, *, history: Sequence[str], no_progress_plies: int,
        nodes: int, key: Hashable,
    ) -> PositionReview:
        """`engine.analysis.review_position` of `fen`; cancelling the caller stops it."""
        ...


class ThreadReviewer:
    """A `PositionReviewer` in a worker thread of this process: for a bot without the
    computer's process pool (tests that replace the move chooser)."""

    async def review(
        self, fen: str, variant_key: str, *, history: Sequence[str], no_progress_plies: int,
        nodes: int, key: Hashable,
    ) -> PositionReview:
        variant = get_variant(variant_key)

        def work() -> PositionReview:
            return review_position(
                Position.from_fen(fen, variant), variant,
                history=[Position.from_fen(f, variant) for f in history],
                no_progress_plies=no_progress_plies, nodes=nodes,
            )

        return await asyncio.to_thread(work)


@dataclass(frozen=True)
class StoredAnalysis:
    """A game's stored analysis and the search budget per position (`nodes`) it was
    computed with."""

    analysis: GameAnalysis
    nodes: int


@dataclass(frozen=True)
class ProgressPlace:
    """Where an analysis's progress is shown: the server (None in direct messages), the
    channel, and the locale its requester reads it in."""

    guild_id: int | None
    channel_id: int
    locale: str


@dataclass(frozen=True)
class Running:
    """An analysis started: its task (whose result is the stored analysis) and the id of
    its record as under way (`storage.AnalysisUnderWay.id`; None: not stored)."""

    task: asyncio.Task[GameAnalysis]
    under_way: int | None


@dataclass
class _Job:
    game_id: int
    requester: int
    task: asyncio.Task[GameAnalysis] | None = None
    """None while its record as under way is being written."""
    under_way: int | None = None
    """Its record's id, once written."""


class AnalysisService:
    """Finds, runs, stores and cancels analyses (see the module docstring). `nodes`: the
    search budget per position (`engine.analysis.DEFAULT_NODES`); `limit`: most analyses
    at once."""

    def __init__(
        self,
        storage: Storage,
        games: GameService,
        reviewer: PositionReviewer,
        *,
        nodes: int = DEFAULT_NODES,
        limit: int = DEFAULT_LIMIT,
    ) -> None:
        self._storage = storage
        self._games = games
        self._reviewer = reviewer
        self.nodes = nodes
        self.limit = limit
        self._jobs: dict[int, _Job] = {}
        self._closing = False

    @property
    def closing(self) -> bool:
        """Whether the service is stopping (`close`): an analysis cancelled now was
        stopped by the shutdown, not by its requester."""
        return self._closing

    @property
    def running(self) -> int:
        """Analyses running or waiting now."""
        return len(self._jobs)

    async def find(
        self, requester: Requester, *, game_id: int | None = None, channel_id: int | None = None
    ) -> GameRecord:
        """The game to analyse: `game_id`, else the channel's last finished game. Raises
        `PlayerError`: UNKNOWN_GAME (no such game, or one `requester` may not see: told
        alike), NO_GAME_TO_ANALYZE, ANALYSIS_GAME_ACTIVE, ANALYSIS_NO_MOVES."""
        if game_id is None:
            record = (None if channel_id is None
                      else await self._storage.games.last_finished_in_channel(channel_id))
            if record is None or not can_see(requester, record):
                raise PlayerError(Msg.NO_GAME_TO_ANALYZE)
        else:
            found = await self._storage.games.get(game_id)
            if found is None or not can_see(requester, found):
                raise PlayerError(Msg.UNKNOWN_GAME, game_id=game_id)
            record = found
        if record.status is GameStatus.ACTIVE:
            raise PlayerError(Msg.ANALYSIS_GAME_ACTIVE, game_id=record.id)
        if record.ply_count == 0:
            raise PlayerError(Msg.ANALYSIS_NO_MOVES, game_id=record.id)
        return record

    async def stored(self, game_id: int) -> GameAnalysis | None:
        """The game's stored analysis, None when it has none (or one this version cannot
        read: it is then computed again)."""
        found = await self.result(game_id)
        return None if found is None else found.analysis

    async def result(self, game_id: int) -> StoredAnalysis | None:
        """The game's stored analysis with the search budget it was computed with; None
        as for `stored`."""
        row = await self._storage.analyses.get(game_id)
        if row is None:
            return None
        try:
            return StoredAnalysis(GameAnalysis.from_json(row.body), row.nodes)
        except (ValueError, KeyError, TypeError):
            log.warning("the stored analysis of game %d cannot be read; it is redone",
                        game_id)
            return None

    def is_running(self, game_id: int) -> bool:
        """Whether game `game_id` is being analysed now."""
        return game_id in self._jobs

    async def start(self, game_id: int, requester: int, progress: Progress,
                    place: ProgressPlace | None) -> Running:
        """Start analysing game `game_id` (found with `find`) for user `requester`, its
        progress shown at `place`, where it is stored as under way first (None: nowhere
        known, not stored). Raises `PlayerError`:
        ANALYSIS_RUNNING (this game is being analysed), ANALYSIS_BUSY (`limit` analyses
        already run); and the storage's errors (nothing started then)."""
        if game_id in self._jobs:
            raise PlayerError(Msg.ANALYSIS_RUNNING, game_id=game_id)
        if len(self._jobs) >= self.limit:
            raise PlayerError(Msg.ANALYSIS_BUSY, count=len(self._jobs))
        job = _Job(game_id, requester)
        self._jobs[game_id] = job  # held while the record is written: checked above
        try:
            under_way = None if place is None else (await self._storage.analyses.begin(
                game_id, requester_id=requester, guild_id=place.guild_id,
                channel_id=place.channel_id, locale=place.locale)).id
        except BaseException:
            self._jobs.pop(game_id, None)
            raise
        task = asyncio.create_task(self._run(game_id, progress),
                                   name=f"dama-background-analysis-{game_id}")
        job.task, job.under_way = task, under_way
        task.add_done_callback(lambda _t: self._jobs.pop(game_id, None))
        return Running(task, under_way)

    async def shown(self, running: Running, message_id: int | None) -> None:
        """Record the message that shows `running`'s progress (None, unknown: a restart
        looks for it among its channel's newest messages). A storage error is logged:
        the analysis goes on."""
        if message_id is None or running.under_way is None:
            return
        try:
            await self._storage.analyses.shown(running.under_way, message_id)
        except Exception:
            log.exception("the progress message of analysis %d could not be recorded",
                          running.under_way)

    async def ended(self, running: Running) -> None:
        """`running`'s progress message shows a final state (the result, a cancel, a
        failure, a stop): it is no longer under way. A storage error is logged (the next
        start finds the message without its Cancel and leaves it as it is)."""
        if running.under_way is not None:
            await self.forget(running.under_way)

    async def interrupted(self) -> list[AnalysisUnderWay]:
        """The analyses stored as under way in the guilds this process looks after (and,
        with shard 0, the direct messages: `GameService.scope`) that no task of this
        process runs: at start-up, those a killed process left behind."""
        mine = {job.under_way for job in self._jobs.values()}
        scope = self._games.scope
        return [row for row in await self._storage.analyses.under_way()
                if scope.owns(row.guild_id) and row.id not in mine]

    async def forget(self, under_way: int) -> None:
        """Drop the record of analysis `under_way` as under way (its progress message
        shows a final state); a storage error is logged."""
        try:
            await self._storage.analyses.end(under_way)
        except Exception:
            log.exception("analysis %d could not be recorded as ended", under_way)

    def cancel(self, game_id: int, user_id: int) -> bool:
        """Stop the analysis of game `game_id`; False when none runs. Raises
        `PlayerError(ANALYSIS_NOT_STARTER)` when `user_id` did not ask for it."""
        job = self._jobs.get(game_id)
        if job is None:
            return False
        if job.requester != user_id:
            raise PlayerError(Msg.ANALYSIS_NOT_STARTER, user=UserRef(job.requester))
        if job.task is None:  # still being recorded; its progress is not shown yet
            return False
        job.task.cancel()
        return True

    async def close(self) -> None:
        """Stop every analysis (shutdown)."""
        self._closing = True
        tasks = [job.task for job in self._jobs.values() if job.task is not None]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)

    async def _run(self, game_id: int, progress: Progress) -> GameAnalysis:
        record, game = await self._games.game_of(game_id)
        variant = game.variant
        tasks = await asyncio.to_thread(review_tasks, game.variant, game.start, game.moves)
        fens = await asyncio.to_thread(_fens, game)
        total = len(tasks)
        reviews: list[PositionReview] = []
        key = ("analysis", game_id)
        for i, task in enumerate(tasks):
            reviews.append(await self._reviewer.review(
                fens[i], variant.key, history=fens[:i],
                no_progress_plies=task.no_progress_plies, nodes=self.nodes, key=key,
            ))
            await progress(len(reviews), total)
        analysis = await asyncio.to_thread(analyse, variant, game.start, game.moves, reviews)
        await self._storage.analyses.save(record.id, plies=len(game.moves), nodes=self.nodes,
                                          body=analysis.to_json())
        return analysis


def _fens(game: Game) -> list[str]:
    """The FEN of the start position and of the position after each ply."""
    return [p.to_fen(game.variant) for p in game.positions()]
