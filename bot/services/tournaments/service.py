"""`TournamentService`: the tournament service's one face for its callers (the Discord
layer, the composition root, the tests), a thin facade over its parts; each method says
which part does the work (docs/ARCHITECTURE.md, "Services and their events")."""

from __future__ import annotations

import builtins
from datetime import datetime

from bot.messages import Msg
from bot.services.errors import PlayerError
from bot.services.events import EventBus
from bot.services.games import Announce, GameService
from bot.services.shards import EVERY_SHARD, ShardScope
from bot.services.tournaments.advance import TournamentAdvance, standings_in_thread
from bot.services.tournaments.boards import TournamentBoards
from bot.services.tournaments.control import TournamentControl, require_organiser
from bot.services.tournaments.core import TournamentCore
from bot.services.tournaments.mapping import total_rounds
from bot.services.tournaments.outlet import TournamentOutlet
from bot.services.tournaments.posting import TournamentPosts
from bot.services.tournaments.scheduler import Interest, TournamentScheduler
from bot.services.tournaments.signup import TournamentSignUp
from bot.services.tournaments.values import (
    RoundView,
    StandingsView,
    TournamentSettings,
    TournamentView,
)
from storage import Storage, TournamentStatus, utc_now
from storage.clock import Clock
from tournaments.arena_scores import ArenaRules
from tournaments.model import Format
from tournaments.trf import tournament_to_trf, write_trf

_NOT_OVER = (TournamentStatus.SIGNUP, TournamentStatus.RUNNING, TournamentStatus.PAUSED)


class TournamentService:
    """Tournaments from sign-up to the final standings. Build with the `Storage`, the
    `GameService` that runs the games, the `outlet` (threads and posts), the game
    announcer's `announce` (each game's boards in its thread; None: the boards stay owed,
    as `GameService.start` says), the `clock`, the shard `scope` (a tournament belongs to
    the process that owns its server) and the arena's `arena_rules` (None: lichess's,
    `ArenaRules()`). Call `listen(events)` once, then, once the games are restored,
    `start_scheduler()` (which runs `restore()` first); `stop_scheduler()` when
    stopping.

    Every method that changes something raises `PlayerError` for a player's mistake
    before changing anything; a tournament asked for by id that is not in `guild_id` is
    TOURNAMENT_UNKNOWN, as one that does not exist (servers do not see each other's
    tournaments: docs/ARCHITECTURE.md, "Privacy between servers")."""

    def __init__(
        self,
        storage: Storage,
        games: GameService,
        outlet: TournamentOutlet,
        *,
        announce: Announce | None = None,
        clock: Clock = utc_now,
        scope: ShardScope = EVERY_SHARD,
        arena_rules: ArenaRules | None = None,
    ) -> None:
        self._core = TournamentCore(
            storage, games, outlet, announce=announce, clock=clock, scope=scope,
            arena_rules=arena_rules if arena_rules is not None else ArenaRules())
        self._posts = TournamentPosts(self._core)
        self._signup = TournamentSignUp(self._core, self._posts)
        self._control = TournamentControl(self._core, self._posts)
        self._advance = TournamentAdvance(self._core, self._posts,
                                          TournamentBoards(self._core), self._control)
        self._scheduler = TournamentScheduler(self._core, self._advance.advance)

    # --- creation and sign-up ----------------------------------------------------------

    async def create(self, guild_id: int, channel_id: int, organiser_id: int,
                     settings: TournamentSettings, *, may_organise: bool) -> TournamentView:
        """Create a tournament in sign-up in `channel_id` and post its sign-up post there
        (`SignUp`, its message id recorded). `may_organise`: the Discord layer found that
        `organiser_id` has Manage Server or the server's organiser role. Returns the
        tournament with its post. Raises `PlayerError`: TOURNAMENT_NOT_ORGANISER without
        `may_organise`, what `TournamentSettings.check` raises, TOURNAMENT_CHANNEL_BUSY
        when the channel has a tournament in sign-up, running or paused."""
        record = await self._signup.create(guild_id, channel_id, organiser_id, settings,
                                           may_organise)
        await self.advance(record.id)
        return await self._view(record.id)

    async def join(self, tournament_id: int, user_id: int, *, guild_id: int,
                   role_ids: frozenset[int], display_name: str | None) -> TournamentView:
        """Sign `user_id` up (again, after leaving, before the start); an arena may be
        joined while it runs (the player is paired from the next pairing). `role_ids`:
        the member's roles; `display_name`: their name for the records. Edits the sign-up
        post. Raises `PlayerError`: TOURNAMENT_UNKNOWN, TOURNAMENT_ROLE_REQUIRED
        (the tournament's role is not among `role_ids`), TOURNAMENT_ALREADY_IN,
        TOURNAMENT_REMOVED (the organiser removed them), TOURNAMENT_SIGNUP_CLOSED (not in
        sign-up, and not an arena under way), TOURNAMENT_FULL."""
        async with self._core.lock(tournament_id):
            snapshot = await self._core.read_in(tournament_id, guild_id)
            await self._signup.join(snapshot, user_id, role_ids, display_name)
            view = await self._view(tournament_id)
            await self._posts.refresh_signup(view)
        await self.advance(tournament_id)
        return await self._view(tournament_id)

    async def leave(self, tournament_id: int, user_id: int, *, guild_id: int
                    ) -> TournamentView:
        """Take `user_id` out: before the start their entry goes; once started they are
        paired no more and keep their games and results (a game under way is played
        out). Edits the sign-up post. Raises `PlayerError`: TOURNAMENT_UNKNOWN,
        TOURNAMENT_NOT_ENTERED (not an active entrant), TOURNAMENT_OVER (finished or
        cancelled)."""
        async with self._core.lock(tournament_id):
            snapshot = await self._core.read_in(tournament_id, guild_id)
            await self._signup.leave(snapshot, user_id)
            await self._posts.refresh_signup(await self._view(tournament_id))
        await self.advance(tournament_id)
        return await self._view(tournament_id)

    async def remove(self, tournament_id: int, by: int, user_id: int, *, guild_id: int,
                     may_organise: bool) -> TournamentView:
        """The organiser (`by` is the tournament's organiser, or `may_organise`) takes
        `user_id` out, as `leave`, and may not join again; posted in the thread once
        started (`PlayerRemoved`). Raises `PlayerError`: TOURNAMENT_UNKNOWN,
        TOURNAMENT_NOT_ITS_ORGANISER, TOURNAMENT_PLAYER_NOT_ENTERED, TOURNAMENT_OVER."""
        async with self._core.lock(tournament_id):
            snapshot = await self._core.read_in(tournament_id, guild_id)
            await self._signup.remove(snapshot, by, user_id, may_organise)
            await self._posts.refresh_signup(await self._view(tournament_id))
        await self.advance(tournament_id)
        return await self._view(tournament_id)

    async def set_event(self, tournament_id: int, event_id: int | None) -> None:
        """Record the Discord scheduled event of the tournament (None: it has none
        any more)."""
        await self._core.repo.set_event(tournament_id, event_id)

    def watch_interest(self, interest: Interest) -> None:
        """Have the scheduler call `interest(tournament_id)` for each tournament in
        sign-up with a scheduled event every `INTEREST_POLL`, and just before its start
        time starts it (the Discord layer signs up who pressed Interested)."""
        self._scheduler.interest = interest

    # --- the organiser's actions -------------------------------------------------------

    async def start(self, tournament_id: int, by: int | None, *, guild_id: int,
                    may_organise: bool = False) -> TournamentView:
        """Start the tournament: entrants numbered by rating (highest first; the rating
        of the tournament's variant at the start), then `advance` (the thread, the first
        round). `by` None: its start time came (the scheduler; then with fewer than two
        players it is cancelled, `Cancelled(too_few_players=True)`). Raises `PlayerError`:
        TOURNAMENT_UNKNOWN, TOURNAMENT_NOT_ITS_ORGANISER, TOURNAMENT_ALREADY_STARTED,
        TOURNAMENT_TOO_FEW_PLAYERS (fewer than two active entrants)."""
        async with self._core.lock(tournament_id):
            snapshot = await self._core.read_in(tournament_id, guild_id)
            if by is not None:
                require_organiser(snapshot.record, by, may_organise)
            await self._control.begin(snapshot, by)
            await self._posts.refresh_signup(await self._view(tournament_id))
        await self.advance(tournament_id)
        return await self._view(tournament_id)

    async def pause(self, tournament_id: int, by: int, *, guild_id: int,
                    may_organise: bool) -> TournamentView:
        """Pause a running tournament: games under way go on, no new round or pairing
        until `resume`; an arena's clock stops (its end moves on by the pause). Posts
        `Paused`. Raises `PlayerError`: TOURNAMENT_UNKNOWN, TOURNAMENT_NOT_ITS_ORGANISER,
        TOURNAMENT_NOT_RUNNING."""
        async with self._core.lock(tournament_id):
            snapshot = await self._core.read_in(tournament_id, guild_id)
            await self._control.pause(snapshot, by, may_organise)
        return await self._view(tournament_id)

    async def resume(self, tournament_id: int, by: int, *, guild_id: int,
                     may_organise: bool) -> TournamentView:
        """Resume a paused tournament (posts `Resumed`, then `advance`). Raises
        `PlayerError`: TOURNAMENT_UNKNOWN, TOURNAMENT_NOT_ITS_ORGANISER,
        TOURNAMENT_NOT_PAUSED."""
        async with self._core.lock(tournament_id):
            snapshot = await self._core.read_in(tournament_id, guild_id)
            await self._control.resume(snapshot, by, may_organise)
        await self.advance(tournament_id)
        return await self._view(tournament_id)

    async def end(self, tournament_id: int, by: int, *, guild_id: int,
                  may_organise: bool) -> TournamentView:
        """End early. In sign-up: cancelled (`Cancelled`). Running or paused: finished
        now (`Ended`), no new round or pairing. A Swiss or round robin: the games under
        way are played out and count, then the final standings (`Final`, by `advance`).
        An arena: its end is now, so, as at any arena's end, the games under way are
        played out but do not count, and `Final` follows at once (docs/RULES.md,
        "Arena"). Raises `PlayerError`: TOURNAMENT_UNKNOWN, TOURNAMENT_NOT_ITS_ORGANISER,
        TOURNAMENT_OVER (finished or cancelled)."""
        async with self._core.lock(tournament_id):
            snapshot = await self._core.read_in(tournament_id, guild_id)
            await self._control.end(snapshot, by, may_organise)
        await self.advance(tournament_id)
        return await self._view(tournament_id)

    # --- reading -----------------------------------------------------------------------

    async def info(self, tournament_id: int, *, guild_id: int) -> TournamentView:
        """The tournament. Raises `PlayerError(TOURNAMENT_UNKNOWN)`."""
        return (await self._core.read_in(tournament_id, guild_id)).view

    async def find(self, tournament_id: int) -> TournamentView | None:
        """The tournament, whatever its server (the Discord layer's background work);
        None when there is none."""
        snapshot = await self._core.read(tournament_id)
        return None if snapshot is None else snapshot.view

    async def in_channel(self, guild_id: int, channel_id: int) -> TournamentView | None:
        """The tournament in sign-up, running or paused whose sign-up channel, thread or
        a game's thread is `channel_id` (what `/tournament standings` without an id
        means there); None when there is none."""
        for record in await self._core.repo.in_guild(guild_id, _NOT_OVER):
            if channel_id in (record.channel_id, record.thread_id):
                return await self._view(record.id)
            snapshot = await self._core.read(record.id)
            if snapshot is not None and any(
                    pairing.thread_id == channel_id
                    for round_ in snapshot.rounds for pairing in round_.pairings):
                return snapshot.view
        return None

    async def standings(self, tournament_id: int, *, guild_id: int) -> StandingsView:
        """The standings now (games under way count when they end; an arena's as its
        end counts them once over). Raises `PlayerError(TOURNAMENT_UNKNOWN)`."""
        snapshot = await self._core.read_in(tournament_id, guild_id)
        return await standings_in_thread(self._core, snapshot)

    async def rounds(self, tournament_id: int, *, guild_id: int
                     ) -> builtins.list[RoundView]:
        """Every round paired so far, in order. Raises `PlayerError(TOURNAMENT_UNKNOWN)`."""
        return builtins.list(
            (await self._core.read_in(tournament_id, guild_id)).round_views)

    async def list(self, guild_id: int) -> builtins.list[TournamentView]:
        """The server's tournaments in sign-up, running or paused, newest first."""
        records = await self._core.repo.in_guild(guild_id, _NOT_OVER)
        return [await self._view(record.id) for record in records]

    async def history(self, guild_id: int, *, limit: int = 25
                      ) -> builtins.list[TournamentView]:
        """The server's finished tournaments, newest first, at most `limit`."""
        records = await self._core.repo.history(guild_id, limit)
        return [await self._view(record.id) for record in records]

    async def export_trf(self, tournament_id: int, *, guild_id: int) -> str:
        """The tournament in FIDE's TRF (`tournaments.trf`): players named by their
        stored display names, ranked as the standings rank them (tie-breaks included).
        Raises `PlayerError`: TOURNAMENT_UNKNOWN,
        TOURNAMENT_NO_TRF (an arena, or not started)."""
        snapshot = await self._core.read_in(tournament_id, guild_id)
        record = snapshot.record
        total = total_rounds(record, snapshot.entrants)
        if record.format == Format.ARENA.value or record.started_at is None or total is None:
            raise PlayerError(Msg.TOURNAMENT_NO_TRF)
        names = {e.user_id: e.display_name for e in snapshot.entrants
                 if e.display_name is not None}
        standings = await standings_in_thread(self._core, snapshot)
        ranks = {row.user_id: row.rank for row in standings.rows}
        return write_trf(tournament_to_trf(record.name, snapshot.numbered,
                                           snapshot.model_rounds, total, names,
                                           ranks=ranks))

    async def _view(self, tournament_id: int) -> TournamentView:
        snapshot = await self._core.read(tournament_id)
        if snapshot is None:
            raise PlayerError(Msg.TOURNAMENT_UNKNOWN, tournament_id=tournament_id)
        return snapshot.view

    # --- the flow ----------------------------------------------------------------------

    async def advance(self, tournament_id: int) -> None:
        """The one reconciler: read the tournament, its rounds and its games' states, and
        do every step that is due, each idempotent (open the thread; pair the next round;
        open each pairing's thread and start its game; post pairings, results and the
        final standings once; finish the tournament). Does nothing for a tournament of
        a server this process does not own. Errors are logged, not raised (the next call
        takes up where this one stopped)."""
        await self._advance.advance(tournament_id)

    def listen(self, events: EventBus) -> None:
        """Advance a game's tournament when the game ends (`GameEnded`)."""
        self._scheduler.listen(events)

    async def restore(self) -> None:
        """At start-up: advance every tournament of the servers this process owns that is
        running or paused, or owes a post (a finished one its final, any one a notice
        claimed but not recorded), and show each one's status on its sign-up post
        (`TournamentScheduler.restore`)."""
        await self._scheduler.restore()

    def start_scheduler(self) -> None:
        """Start the background task: tournaments' start times and arenas' ticks
        (pairings as players come free, the end)."""
        self._scheduler.start()

    async def stop_scheduler(self) -> None:
        """Stop the background task and wait for the advances it started."""
        await self._scheduler.stop()

    async def idle(self) -> None:
        """Wait for the advances started in the background (a game's end) to finish
        (the tests')."""
        await self._core.idle()

    async def tick(self, now: datetime | None = None) -> None:
        """One run of the scheduler now (the tests' fake clock): start the tournaments
        whose start time came, advance the running arenas."""
        await self._scheduler.tick(now)
