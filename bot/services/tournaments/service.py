"""`TournamentService`: the tournament service's one face for its callers (the Discord
layer, the composition root, the tests), a thin facade over its parts; each method says
which part does the work (docs/ARCHITECTURE.md, "Services and their events")."""

from __future__ import annotations

import builtins
from datetime import datetime

from bot.services.events import EventBus
from bot.services.games import Announce, GameService
from bot.services.shards import EVERY_SHARD, ShardScope
from bot.services.tournaments.outlet import TournamentOutlet
from bot.services.tournaments.values import (
    RoundView,
    StandingsView,
    TournamentSettings,
    TournamentView,
)
from storage import Storage, utc_now
from storage.clock import Clock
from tournaments.arena_scores import ArenaRules


class TournamentService:
    """Tournaments from sign-up to the final standings. Build with the `Storage`, the
    `GameService` that runs the games, the `outlet` (threads and posts), the game
    announcer's `announce` (each game's boards in its thread; None: the boards stay owed,
    as `GameService.start` says), the `clock`, the shard `scope` (a tournament belongs to
    the process that owns its server) and the arena's `arena_rules` (None: lichess's,
    `ArenaRules()`). Call `listen(events)` once, `restore()` at start-up, then
    `start_scheduler()`; `stop_scheduler()` when stopping.

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
        raise NotImplementedError

    # --- creation and sign-up ----------------------------------------------------------

    async def create(self, guild_id: int, channel_id: int, organiser_id: int,
                     settings: TournamentSettings, *, may_organise: bool) -> TournamentView:
        """Create a tournament in sign-up in `channel_id` and post its sign-up post there
        (`SignUp`, its message id recorded). `may_organise`: the Discord layer found that
        `organiser_id` has Manage Server or the server's organiser role. Returns the
        tournament with its post. Raises `PlayerError`: TOURNAMENT_NOT_ORGANISER without
        `may_organise`, what `TournamentSettings.check` raises, TOURNAMENT_CHANNEL_BUSY
        when the channel has a tournament in sign-up, running or paused."""
        raise NotImplementedError

    async def join(self, tournament_id: int, user_id: int, *, guild_id: int,
                   role_ids: frozenset[int], display_name: str | None) -> TournamentView:
        """Sign `user_id` up (again, after leaving, before the start); an arena may be
        joined while it runs (the player is paired from the next pairing). `role_ids`:
        the member's roles; `display_name`: their name for the records. Edits the sign-up
        post. Raises `PlayerError`: TOURNAMENT_UNKNOWN, TOURNAMENT_ROLE_REQUIRED
        (the tournament's role is not among `role_ids`), TOURNAMENT_ALREADY_IN,
        TOURNAMENT_REMOVED (the organiser removed them), TOURNAMENT_SIGNUP_CLOSED (not in
        sign-up, and not an arena under way), TOURNAMENT_FULL."""
        raise NotImplementedError

    async def leave(self, tournament_id: int, user_id: int, *, guild_id: int
                    ) -> TournamentView:
        """Take `user_id` out: before the start their entry goes; once started they are
        paired no more and keep their games and results (a game under way is played
        out). Edits the sign-up post. Raises `PlayerError`: TOURNAMENT_UNKNOWN,
        TOURNAMENT_NOT_ENTERED (not an active entrant), TOURNAMENT_OVER (finished or
        cancelled)."""
        raise NotImplementedError

    async def remove(self, tournament_id: int, by: int, user_id: int, *, guild_id: int,
                     may_organise: bool) -> TournamentView:
        """The organiser (`by` is the tournament's organiser, or `may_organise`) takes
        `user_id` out, as `leave`, and may not join again; posted in the thread once
        started (`PlayerRemoved`). Raises `PlayerError`: TOURNAMENT_UNKNOWN,
        TOURNAMENT_NOT_ORGANISER, TOURNAMENT_PLAYER_NOT_ENTERED, TOURNAMENT_OVER."""
        raise NotImplementedError

    # --- the organiser's actions -------------------------------------------------------

    async def start(self, tournament_id: int, by: int | None, *, guild_id: int,
                    may_organise: bool = False) -> TournamentView:
        """Start the tournament: entrants numbered by rating (highest first; the rating
        of the tournament's variant at the start), then `advance` (the thread, the first
        round). `by` None: its start time came (the scheduler; then with fewer than two
        players it is cancelled, `Cancelled(too_few_players=True)`). Raises `PlayerError`:
        TOURNAMENT_UNKNOWN, TOURNAMENT_NOT_ORGANISER, TOURNAMENT_ALREADY_STARTED,
        TOURNAMENT_TOO_FEW_PLAYERS (fewer than two active entrants)."""
        raise NotImplementedError

    async def pause(self, tournament_id: int, by: int, *, guild_id: int,
                    may_organise: bool) -> TournamentView:
        """Pause a running tournament: games under way go on, no new round or pairing
        until `resume`; an arena's clock stops (its end moves on by the pause). Posts
        `Paused`. Raises `PlayerError`: TOURNAMENT_UNKNOWN, TOURNAMENT_NOT_ORGANISER,
        TOURNAMENT_NOT_RUNNING."""
        raise NotImplementedError

    async def resume(self, tournament_id: int, by: int, *, guild_id: int,
                     may_organise: bool) -> TournamentView:
        """Resume a paused tournament (posts `Resumed`, then `advance`). Raises
        `PlayerError`: TOURNAMENT_UNKNOWN, TOURNAMENT_NOT_ORGANISER,
        TOURNAMENT_NOT_PAUSED."""
        raise NotImplementedError

    async def end(self, tournament_id: int, by: int, *, guild_id: int,
                  may_organise: bool) -> TournamentView:
        """End early. In sign-up: cancelled (`Cancelled`). Running or paused: no new
        round or pairing; the games under way finish and count, then the final standings
        (`Ended`, later `Final`, by `advance`). Raises `PlayerError`: TOURNAMENT_UNKNOWN,
        TOURNAMENT_NOT_ORGANISER, TOURNAMENT_OVER (finished or cancelled, or already
        ended)."""
        raise NotImplementedError

    # --- reading -----------------------------------------------------------------------

    async def info(self, tournament_id: int, *, guild_id: int) -> TournamentView:
        """The tournament. Raises `PlayerError(TOURNAMENT_UNKNOWN)`."""
        raise NotImplementedError

    async def in_channel(self, guild_id: int, channel_id: int) -> TournamentView | None:
        """The tournament in sign-up, running or paused whose sign-up channel, thread or
        a game's thread is `channel_id` (what `/tournament standings` without an id
        means there); None when there is none."""
        raise NotImplementedError

    async def standings(self, tournament_id: int, *, guild_id: int) -> StandingsView:
        """The standings now (games under way count when they end; an arena's as its
        end counts them once over). Raises `PlayerError(TOURNAMENT_UNKNOWN)`."""
        raise NotImplementedError

    async def rounds(self, tournament_id: int, *, guild_id: int
                     ) -> builtins.list[RoundView]:
        """Every round paired so far, in order. Raises `PlayerError(TOURNAMENT_UNKNOWN)`."""
        raise NotImplementedError

    async def list(self, guild_id: int) -> builtins.list[TournamentView]:
        """The server's tournaments in sign-up, running or paused, newest first."""
        raise NotImplementedError

    async def history(self, guild_id: int, *, limit: int = 25
                      ) -> builtins.list[TournamentView]:
        """The server's finished tournaments, newest first, at most `limit`."""
        raise NotImplementedError

    async def export_trf(self, tournament_id: int, *, guild_id: int) -> str:
        """The tournament in FIDE's TRF (`tournaments.trf`): players named by their
        stored display names. Raises `PlayerError`: TOURNAMENT_UNKNOWN,
        TOURNAMENT_NO_TRF (an arena, or not started)."""
        raise NotImplementedError

    # --- the flow ----------------------------------------------------------------------

    async def advance(self, tournament_id: int) -> None:
        """The one reconciler: read the tournament, its rounds and its games' states, and
        do every step that is due, each idempotent (open the thread; pair the next round;
        open each pairing's thread and start its game; post pairings, results and the
        final standings once; finish the tournament). Does nothing for a tournament of
        a server this process does not own. Errors are logged, not raised (the next call
        takes up where this one stopped)."""
        raise NotImplementedError

    def listen(self, events: EventBus) -> None:
        """Advance a game's tournament when the game ends (`GameEnded`)."""
        raise NotImplementedError

    async def restore(self) -> None:
        """At start-up: advance every tournament in sign-up past its start time, running
        or paused, of the servers this process owns."""
        raise NotImplementedError

    def start_scheduler(self) -> None:
        """Start the background task: tournaments' start times and arenas' ticks
        (pairings as players come free, the end)."""
        raise NotImplementedError

    async def stop_scheduler(self) -> None:
        """Stop the background task and wait for the advances it started."""
        raise NotImplementedError

    async def tick(self, now: datetime | None = None) -> None:
        """One run of the scheduler now (the tests' fake clock): start the tournaments
        whose start time came, advance the running arenas."""
        raise NotImplementedError
