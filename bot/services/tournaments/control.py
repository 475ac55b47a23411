"""`TournamentControl`: the changes of a tournament's status: the start (entrants numbered
by rating), the organiser's pause, resumption and early end, and the cancellation of a
tournament whose start time came with too few players. Each checks the organiser's right
and the status, writes conditionally on the revision it read, with its notice claimed in
the ledger in the same transaction (`set_status(claim=...)`: a kill after the change
leaves the notice owed, and the restart's reconciler sends it), posts the notice once and
shows the new status on the sign-up post; the facade then advances the tournament."""

from __future__ import annotations

import logging
from datetime import datetime

from bot.messages import Msg
from bot.ratings.glicko2 import CENTRE
from bot.services.errors import PlayerError
from bot.services.tournaments.core import Snapshot, TournamentCore
from bot.services.tournaments.posting import TournamentPosts
from bot.services.tournaments.values import (
    MIN_PLAYERS,
    Cancelled,
    Ended,
    Notice,
    Paused,
    Resumed,
    post_key,
)
from storage import TournamentRecord, TournamentStatus
from tournaments.model import Format

log = logging.getLogger(__name__)


def require_organiser(record: TournamentRecord, by: int, may_organise: bool) -> None:
    """Refuse anyone but the tournament's organiser and the members who may organise
    (Manage Server or the server's organiser role, which the Discord layer checks).
    Raises `PlayerError(TOURNAMENT_NOT_ITS_ORGANISER)`."""
    if by != record.organiser_id and not may_organise:
        raise PlayerError(Msg.TOURNAMENT_NOT_ITS_ORGANISER)


def require_not_over(record: TournamentRecord) -> None:
    """Raises `PlayerError(TOURNAMENT_OVER)` for a finished or cancelled tournament."""
    if record.status in (TournamentStatus.FINISHED, TournamentStatus.CANCELLED):
        raise PlayerError(Msg.TOURNAMENT_OVER)


class TournamentControl:
    """Starts, pauses, resumes, ends and cancels tournaments."""

    def __init__(self, core: TournamentCore, posts: TournamentPosts) -> None:
        self._core = core
        self._posts = posts

    async def begin(self, snapshot: Snapshot, by: int | None) -> TournamentRecord | None:
        """Start the tournament of `snapshot` (in sign-up): its active entrants numbered
        by their rating in the tournament's variant at this moment (highest first, then
        by who joined first; a player never rated counts as a new player's 1500), an
        arena's end set. `by` None (its start time came): with fewer than two players it
        is cancelled instead (`Cancelled`), and None returned. Raises `PlayerError`:
        TOURNAMENT_ALREADY_STARTED, TOURNAMENT_TOO_FEW_PLAYERS (`by` given);
        `StaleTournamentError` when it changed since it was read."""
        core = self._core
        record = snapshot.record
        require_not_over(record)
        if record.status is not TournamentStatus.SIGNUP:
            raise PlayerError(Msg.TOURNAMENT_ALREADY_STARTED)
        active = [e for e in snapshot.entrants if e.user_id in snapshot.active]
        if len(active) < MIN_PLAYERS:
            if by is not None:
                raise PlayerError(Msg.TOURNAMENT_TOO_FEW_PLAYERS)
            await self.cancel(snapshot, too_few_players=True)
            return None
        ratings: dict[int, int] = {}
        for entrant in active:
            rating = await core.storage.ratings.get(entrant.user_id, record.variant)
            ratings[entrant.user_id] = round(rating.rating if rating is not None else CENTRE)
        order = sorted(active, key=lambda e: (-ratings[e.user_id], e.joined_at, e.user_id))
        now = core.now()
        duration = snapshot.view.settings.duration
        ends_at = now + duration if record.format == Format.ARENA.value and duration else None
        return await core.repo.start(
            record.id, record.revision,
            [(e.user_id, ratings[e.user_id], number) for number, e in enumerate(order, 1)],
            now, ends_at)

    async def cancel(self, snapshot: Snapshot, *, too_few_players: bool) -> None:
        """Cancel the tournament (sign-up); posts `Cancelled` and shows it on the
        sign-up post."""
        await self._change(snapshot, TournamentStatus.CANCELLED,
                           Cancelled(too_few_players=too_few_players))

    async def pause(self, snapshot: Snapshot, by: int, may_organise: bool) -> None:
        """Pause a running tournament (see `TournamentService.pause`)."""
        record = snapshot.record
        require_organiser(record, by, may_organise)
        if record.status is not TournamentStatus.RUNNING:
            require_not_over(record)
            raise PlayerError(Msg.TOURNAMENT_NOT_RUNNING)
        # The change moves the revision on by one: the notice's key.
        await self._change(snapshot, TournamentStatus.PAUSED, Paused(record.revision + 1))

    async def resume(self, snapshot: Snapshot, by: int, may_organise: bool) -> None:
        """Resume a paused tournament; an arena's end moves on by the pause."""
        record = snapshot.record
        require_organiser(record, by, may_organise)
        if record.status is not TournamentStatus.PAUSED:
            require_not_over(record)
            raise PlayerError(Msg.TOURNAMENT_NOT_PAUSED)
        now = self._core.now()
        await self._change(snapshot, TournamentStatus.RUNNING, Resumed(record.revision + 1),
                           now=now, ends_at=_moved_end(record, now))

    async def end(self, snapshot: Snapshot, by: int, may_organise: bool) -> None:
        """End early: cancelled in sign-up; otherwise finished now (an arena's end is
        now), the games under way played out (`TournamentService.end`)."""
        record = snapshot.record
        require_organiser(record, by, may_organise)
        require_not_over(record)
        if record.status is TournamentStatus.SIGNUP:
            await self.cancel(snapshot, too_few_players=False)
            return
        now = self._core.now()
        arena = record.format == Format.ARENA.value
        await self._change(snapshot, TournamentStatus.FINISHED, Ended(), now=now,
                           ends_at=now if arena else None)

    async def _change(self, snapshot: Snapshot, status: TournamentStatus, notice: Notice,
                      *, now: datetime | None = None, ends_at: datetime | None = None
                      ) -> None:
        """Set `status` (conditional on the revision read) with `notice` claimed in the
        same transaction, post the notice, and show the change on the sign-up post."""
        core = self._core
        record = snapshot.record
        key = post_key(notice)
        await core.repo.set_status(record.id, record.revision, status,
                                   now if now is not None else core.now(), ends_at=ends_at,
                                   claim=(key.kind.value, key.key))
        changed = await core.read(record.id)
        view = snapshot.view if changed is None else changed.view
        await self._posts.post(view, notice)
        await self._posts.refresh_signup(view)


def _moved_end(record: TournamentRecord, now: datetime) -> datetime | None:
    """An arena's end after a pause from `record.paused_at` to `now` (None: no end)."""
    if record.ends_at is None:
        return None
    if record.paused_at is None:
        return record.ends_at
    return record.ends_at + (now - record.paused_at)
