"""`TournamentCore`: what the tournament service's parts share (the storage, the game
service, the outlet, the game announcer, the clock, the shard scope, the arena's rules),
one lock per tournament in this process, the background advances it started, and
`Snapshot`, one read of a tournament with its entrants and rounds."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Coroutine
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from bot.messages import Msg
from bot.services.errors import PlayerError
from bot.services.games import Announce, GameService
from bot.services.shards import ShardScope
from bot.services.tournaments.mapping import model_round, numbered, round_view, tournament_view
from bot.services.tournaments.outlet import TournamentOutlet
from bot.services.tournaments.values import RoundView, TournamentView
from storage import (
    EntrantRecord,
    EntrantStatus,
    Storage,
    TournamentRecord,
    TournamentRoundRecord,
)
from storage.clock import Clock
from storage.repositories import TournamentRepository
from tournaments.arena_scores import ArenaRules
from tournaments.model import Entrant, Round

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Snapshot:
    """One read of a tournament: its row, its entrants (join order) and its rounds (in
    order, with their pairings' games)."""

    record: TournamentRecord
    entrants: tuple[EntrantRecord, ...]
    rounds: tuple[TournamentRoundRecord, ...]

    @property
    def view(self) -> TournamentView:
        return tournament_view(self.record, self.entrants,
                               max((r.number for r in self.rounds), default=0))

    @property
    def numbered(self) -> tuple[Entrant, ...]:
        """The entrants with a pairing number, as the rules read them."""
        return numbered(self.entrants)

    @property
    def statuses(self) -> dict[int, EntrantStatus]:
        return {e.user_id: e.status for e in self.entrants}

    @property
    def active(self) -> frozenset[int]:
        """The user ids of the entrants still in."""
        return frozenset(e.user_id for e in self.entrants if e.status is EntrantStatus.ACTIVE)

    @property
    def model_rounds(self) -> tuple[Round, ...]:
        return tuple(model_round(r) for r in self.rounds)

    @property
    def round_views(self) -> tuple[RoundView, ...]:
        return tuple(round_view(r) for r in self.rounds)


class TournamentCore:
    """The shared parts (see the module docstring). `spawn` runs an advance in the
    background (a game's end, a tick) and keeps it until done; `idle` waits for those
    under way."""

    def __init__(self, storage: Storage, games: GameService, outlet: TournamentOutlet, *,
                 announce: Announce | None, clock: Clock, scope: ShardScope,
                 arena_rules: ArenaRules) -> None:
        self.storage = storage
        self.games = games
        self.outlet = outlet
        self.announce = announce
        self.clock = clock
        self.scope = scope
        self.arena_rules = arena_rules
        self._tournament_locks: dict[int, asyncio.Lock] = {}
        self._tasks: set[asyncio.Task[None]] = set()

    @property
    def repo(self) -> TournamentRepository:
        return self.storage.tournaments

    def now(self) -> datetime:
        return self.clock()

    def lock(self, tournament_id: int) -> asyncio.Lock:
        """The tournament's lock in this process: every change of a tournament (an
        organiser's action, a join, an advance) runs under it; across processes the
        shard scope and the repository's conditional writes keep them apart."""
        return self._tournament_locks.setdefault(tournament_id, asyncio.Lock())

    def owns(self, record: TournamentRecord) -> bool:
        """Whether this process runs the tournament (it owns its server: `ShardScope`)."""
        return self.scope.owns(record.guild_id)

    async def read(self, tournament_id: int) -> Snapshot | None:
        """The tournament with its entrants and rounds, None when there is none."""
        record = await self.repo.get(tournament_id)
        if record is None:
            return None
        entrants = await self.repo.entrants(tournament_id)
        rounds = await self.repo.rounds(tournament_id)
        return Snapshot(record, tuple(entrants), tuple(rounds))

    async def read_in(self, tournament_id: int, guild_id: int) -> Snapshot:
        """The tournament of `guild_id`. Raises `PlayerError(TOURNAMENT_UNKNOWN)` when
        there is none by that id in that server."""
        snapshot = await self.read(tournament_id)
        if snapshot is None or snapshot.record.guild_id != guild_id:
            raise PlayerError(Msg.TOURNAMENT_UNKNOWN, tournament_id=tournament_id)
        return snapshot

    def spawn(self, work: Coroutine[Any, Any, None], name: str) -> None:
        """Run `work` in the background; its errors are logged."""
        task = asyncio.create_task(self._logged(work, name), name=name)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    @staticmethod
    async def _logged(work: Coroutine[Any, Any, None], name: str) -> None:
        try:
            await work
        except Exception:
            log.exception("%s failed", name)

    async def idle(self) -> None:
        """Wait until the background work under way (and any it started) is done."""
        while self._tasks:
            await asyncio.gather(*list(self._tasks), return_exceptions=True)

    async def cancel(self) -> None:
        """Cancel the background work under way and wait for it."""
        tasks = list(self._tasks)
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
