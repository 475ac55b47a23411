"""`TournamentAdvance`: the one reconciler. It reads the tournament, its rounds and its
games' states, and does the next due step, again until none is due; every step is
idempotent, so a crash anywhere leaves a state the next `advance` takes up (at start-up
`restore` calls it for every tournament under way or owing a post). First, whatever the
status, every notice claimed in the ledger and not recorded is posted
(`TournamentPosts.post_owed_notices`); then the steps, in order:

1. in sign-up: the sign-up post; the start when its start time came;
2. under way: the tournament's thread; the `Started` post; each pairing's game or
   forfeit (`TournamentBoards.settle`); each round's pairings post; each round marked
   finished once its games all have a result, and (Swiss, round robin) its results
   post with the standings after it;
3. running: the next round (a Swiss or round robin once the last round is finished; an
   arena's free players when a pairing is due), or the end (a Swiss after its last
   round, a round robin after its table, an arena at its end time);
4. finished: the final standings (a Swiss or round robin once its last games ended; an
   arena at once: games under way at the end do not count, docs/RULES.md, "Arena").
"""

from __future__ import annotations

import asyncio
import logging
from datetime import datetime
from typing import assert_never

from bot.faults import FaultPoint, reach
from bot.services.tournaments.boards import TournamentBoards
from bot.services.tournaments.control import TournamentControl
from bot.services.tournaments.core import Snapshot, TournamentCore
from bot.services.tournaments.mapping import round_view, total_rounds
from bot.services.tournaments.pairing import arena_round, round_robin, swiss_round
from bot.services.tournaments.posting import TournamentPosts
from bot.services.tournaments.standings import arena_standings, bracket_standings
from bot.services.tournaments.values import (
    MIN_PLAYERS,
    Final,
    RoundPaired,
    RoundResults,
    SignUp,
    StandingsView,
    Started,
)
from storage import StaleTournamentError, TournamentStatus
from tournaments.arena_scores import ArenaRules
from tournaments.model import Format, Round
from tournaments.swiss import NoLegalPairingError

log = logging.getLogger(__name__)

MAX_STEPS = 200
"""The most steps one `advance` takes before it lets the next call go on (a guard: each
step stores something, and a tournament's steps are finite)."""


def standings_of(core: TournamentCore, snapshot: Snapshot, rounds: int | None = None
                 ) -> StandingsView:
    """The standings of `snapshot` after its first `rounds` rounds (None: all), now
    (`standings_at` with the core's clock and arena rules)."""
    return standings_at(snapshot, core.now(), core.arena_rules, rounds)


def standings_at(snapshot: Snapshot, now: datetime, arena_rules: ArenaRules,
                 rounds: int | None = None) -> StandingsView:
    """The standings of `snapshot` after its first `rounds` rounds (None: all) at `now`:
    a Swiss's or round robin's by score and tie-breaks; an arena's (under
    `arena_rules`) counting the games ended by its end (or `now`, while it runs). Pure:
    the web pages, which run no tournament, read the standings with it too."""
    record = snapshot.record
    format_ = Format(record.format)
    final = record.status is TournamentStatus.FINISHED
    chosen = snapshot.rounds if rounds is None else snapshot.rounds[:rounds]
    if format_ is Format.ARENA:
        end = now if record.ends_at is None else min(now, record.ends_at)
        if final and record.ends_at is not None:
            end = record.ends_at
        return arena_standings(record.id, record.name, snapshot.numbered,
                               snapshot.statuses, chosen, arena_rules, end, final=final)
    return bracket_standings(record.id, record.name, format_, snapshot.numbered,
                             snapshot.statuses, chosen, final=final and rounds is None)


async def standings_in_thread(core: TournamentCore, snapshot: Snapshot,
                              rounds: int | None = None) -> StandingsView:
    """`standings_of`, computed in a worker thread: a long arena's or a large Swiss's
    standings take tens of milliseconds the event loop must not wait for
    (benchmarks/tournaments.py)."""
    return await asyncio.to_thread(standings_of, core, snapshot, rounds)


class TournamentAdvance:
    """`advance(tournament_id)`: see the module docstring."""

    def __init__(self, core: TournamentCore, posts: TournamentPosts, boards: TournamentBoards,
                 control: TournamentControl) -> None:
        self._core = core
        self._posts = posts
        self._boards = boards
        self._control = control

    async def advance(self, tournament_id: int) -> None:
        """Do every due step of the tournament, under its lock; nothing for a tournament
        of a server this process does not own. Errors are logged (the next call takes
        up where this one stopped)."""
        async with self._core.lock(tournament_id):
            try:
                status = None
                for _ in range(MAX_STEPS):
                    snapshot = await self._core.read(tournament_id)
                    if snapshot is None or not self._core.owns(snapshot.record):
                        return
                    if status is None:
                        # Whatever the status (a cancelled tournament's notice too).
                        await self._posts.post_owed_notices(snapshot.view)
                    elif snapshot.record.status is not status:
                        # Started, finished or cancelled by a step: the sign-up post says so.
                        await self._posts.refresh_signup(snapshot.view)
                    status = snapshot.record.status
                    if not await self._step(snapshot):
                        return
            except StaleTournamentError:
                # Changed by another task meanwhile: its own advance follows.
                log.info("tournament %s changed while advancing", tournament_id)
            except Exception:
                log.exception("advancing tournament %s failed", tournament_id)

    async def _step(self, snapshot: Snapshot) -> bool:
        """Do the next due step; True when one was done (read again and go on)."""
        record = snapshot.record
        match record.status:
            case TournamentStatus.SIGNUP:
                return await self._signup(snapshot)
            case TournamentStatus.CANCELLED:
                return False
            case TournamentStatus.RUNNING | TournamentStatus.PAUSED | TournamentStatus.FINISHED:
                return await self._under_way(snapshot)
            case _:
                assert_never(record.status)

    async def _signup(self, snapshot: Snapshot) -> bool:
        core = self._core
        record = snapshot.record
        if record.post_message_id is None:
            message_id = await self._posts.post(snapshot.view, SignUp())
            if message_id is None:
                return False
            await core.repo.set_post(record.id, message_id)
            return True
        if record.starts_at is not None and core.now() >= record.starts_at:
            await self._control.begin(snapshot, None)
            return True
        return False

    async def _under_way(self, snapshot: Snapshot) -> bool:
        core = self._core
        record = snapshot.record
        view = snapshot.view
        if record.thread_id is None:
            try:
                thread_id = await core.outlet.open_tournament_thread(view)
            except Exception:
                log.exception("tournament %s: opening its thread failed", record.id)
                return False
            await core.repo.set_thread(record.id, thread_id)
            await self._posts.refresh_signup(view)
            return True
        if not self._posts.recorded(view, Started()):
            await self._posts.post(view, Started())
        if await self._boards.settle(snapshot):
            return True
        if await self._post_rounds(snapshot):
            return True
        match record.status:
            case TournamentStatus.RUNNING:
                return await self._next(snapshot)
            case TournamentStatus.FINISHED:
                await self._final(snapshot)
        return False

    async def _post_rounds(self, snapshot: Snapshot) -> bool:
        """Post each round's pairings, mark the rounds whose games all ended finished and
        post their results; True when a round was marked finished."""
        core = self._core
        record = snapshot.record
        view = snapshot.view
        bracket = record.format != Format.ARENA.value
        for index, round_ in enumerate(snapshot.rounds):
            shown = round_view(round_)
            if round_.pairings_message_id is None and round_.pairings:
                message_id = await self._posts.post(view, RoundPaired(shown))
                if message_id is not None:
                    await core.repo.set_round_messages(record.id, round_.number,
                                                       pairings_message_id=message_id)
            if round_.finished_at is None and shown.finished:
                await core.repo.finish_round(record.id, round_.number, core.now())
                return True
            if bracket and round_.finished_at is not None and round_.results_message_id is None:
                standings = await standings_in_thread(core, snapshot, index + 1)
                message_id = await self._posts.post(view, RoundResults(shown, standings))
                if message_id is not None:
                    await core.repo.set_round_messages(record.id, round_.number,
                                                       results_message_id=message_id)
        return False

    async def _next(self, snapshot: Snapshot) -> bool:
        """Pair the next round, or finish the tournament; True when either was done."""
        core = self._core
        record = snapshot.record
        now = core.now()
        if record.format == Format.ARENA.value:
            assert record.ends_at is not None
            if now >= record.ends_at:
                await core.repo.set_status(record.id, record.revision,
                                           TournamentStatus.FINISHED, now)
                return True
            # In a worker thread: the standings and free players of a long arena take
            # tens of milliseconds the event loop must not wait for (benchmarks/
            # tournaments.py).
            paired = await asyncio.to_thread(arena_round, snapshot, now, core.arena_rules)
            return paired is not None and await self._store(snapshot, paired)
        if snapshot.rounds and snapshot.rounds[-1].finished_at is None:
            return False
        total = total_rounds(record, snapshot.entrants) or 0
        number = len(snapshot.rounds) + 1
        if number > total or len(snapshot.active) < MIN_PLAYERS:
            await core.repo.set_status(record.id, record.revision, TournamentStatus.FINISHED,
                                       now)
            return True
        entrants = snapshot.numbered
        if record.format == Format.SWISS.value:
            absent = frozenset(e.player for e in entrants if e.player not in snapshot.active)
            try:
                paired = await swiss_round(entrants, snapshot.model_rounds, number, total,
                                           absent)
            except NoLegalPairingError:
                # Every pairing the rules allow was played (more rounds than the players
                # allow): the tournament ends after its last round that could be paired.
                log.info("tournament %s: round %s cannot be paired; it ends", record.id,
                         number)
                await core.repo.set_status(record.id, record.revision,
                                           TournamentStatus.FINISHED, now)
                return True
        else:
            paired = round_robin(entrants, number, record.rounds or 1, snapshot.active)
        return await self._store(snapshot, paired)

    async def _store(self, snapshot: Snapshot, paired: Round) -> bool:
        """Store the round `paired` (conditional on the revision read: a second pairing
        of it is refused)."""
        core = self._core
        record = snapshot.record
        await core.repo.add_round(
            record.id, record.revision, paired.number,
            [(game.board, game.white, game.black) for game in paired.games],
            [(bye.player, bye.kind.value) for bye in paired.byes], core.now())
        reach(FaultPoint.TOURNAMENT_ROUND_PAIRED)
        return True

    async def _final(self, snapshot: Snapshot) -> None:
        """Post the final standings once every game that counts has ended."""
        if self._posts.recorded(snapshot.view, Final(_NO_STANDINGS)):
            return
        if snapshot.record.format != Format.ARENA.value and not all(
                round_.finished_at is not None for round_ in snapshot.rounds):
            return
        standings = await standings_in_thread(self._core, snapshot)
        await self._posts.post(snapshot.view, Final(standings))


_NO_STANDINGS = StandingsView(0, "", Format.SWISS, 0, True, ())
"""A placeholder for asking the ledger whether `Final` was recorded (its key does not
depend on the standings)."""
