"""The composition root: `compose` builds the bot's services from the configuration, once,
for the client (`bot.client.DamaBot.setup_hook`) and the tests (`tests/support/
services.py`) alike.

It opens the database, makes the move work (`bot.move_work`), the preferences, the puzzle
service and the event bus, asks the caller for its `Outlets` (where the services' own
posts go: the Discord side's announcer and daily puzzle poster, or a test's collector),
then builds the game flow on them: the game service, the computer's turns listening to
its events (before any restore, so restored games resume their computer turns),
`/play` games, challenges, statistics, the deadline and daily puzzle schedulers (not
started: `Services.start`), the analyses, the tournaments (listening to the games'
ends) and the turn notifications (listening to the games' turns). Every collaborator
is given at construction; nothing is set afterwards (docs/ARCHITECTURE.md, "Services
and their events").
"""

from __future__ import annotations

import functools
import logging
import random
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import timedelta
from typing import Generic, Protocol, TypeVar

from bot.computer import ComputerPlayer, PoolMoveChooser, PoolReviewer, workers_per_process
from bot.config import Config
from bot.move_work import MoveWork
from bot.services import (
    ChallengeService,
    DeadlineScheduler,
    EventBus,
    GameRules,
    GameService,
    GameUpdate,
    StatsService,
)
from bot.services.analysis import AnalysisService, PositionReviewer, ThreadReviewer
from bot.services.computer_games import ComputerGames
from bot.services.computer_turns import ComputerTurns, MoveChooser, Strength
from bot.services.notifications import (
    Delivery,
    NotificationOutlet,
    NotificationService,
    Outcome,
    SendResult,
)
from bot.services.puzzles import PuzzleService
from bot.services.scheduler import DailyPuzzlePoster, DailyPuzzleScheduler
from bot.services.settings import ChallengeLimits, PreferenceService
from bot.services.tournaments import Post, TournamentOutlet, TournamentService, TournamentView
from puzzles import Puzzle
from storage import Challenge, Storage, utc_now
from storage.clock import Clock

log = logging.getLogger(__name__)

SETTINGS_CACHE_SECONDS = 30.0
"""With several bot processes (shards), how long a player's preferences and a server's
settings stay in one process's memory before they are read again (another process may have
changed them: a player's through any process, a server's through the one owning it, read
by every process's web face)."""


class Announcer(Protocol):
    """Where the services post what no interaction asked for (the Discord side:
    `bot.ui.announcer.GameAnnouncer`)."""

    async def announce(self, update: GameUpdate) -> int | None:
        """Post a game's update to its channel (the computer's move, a time-out); the
        board message's id, None when no board was posted."""
        ...

    async def computer_delayed(self, channel_id: int, wait: timedelta) -> None:
        """Tell the channel that the computer's move comes in about `wait`."""
        ...

    async def challenge_expired(self, challenge: Challenge) -> None:
        """Tell the challenge's channel that it expired."""
        ...

    async def drain(self) -> None:
        """Wait for the posts under way (called when the bot stops)."""
        ...


A = TypeVar("A", bound=Announcer)
A_co = TypeVar("A_co", bound=Announcer, covariant=True)


@dataclass(frozen=True)
class Core:
    """What the outlets are built on: the database, the move work (the presenter draws
    boards through it), the preferences (each reader's side, notation and language) and
    the puzzles (the daily post shows a puzzle's rating)."""

    storage: Storage
    move_work: MoveWork
    preferences: PreferenceService
    puzzles: PuzzleService


@dataclass(frozen=True)
class Outlets(Generic[A_co]):
    """Where the services' own posts go: the game posts (`announcer`), the daily
    puzzles (`daily`), the tournaments' threads and posts (`tournaments`; None until
    the caller has one: every tournament post then fails and is logged, `NoTournamentOutlet`)
    and the turn notifications (`notifications`; None: none is sent, each is tried again
    later, `NoNotificationOutlet`)."""

    announcer: A_co
    daily: DailyPuzzlePoster
    tournaments: TournamentOutlet | None = None
    notifications: NotificationOutlet | None = None


class NoTournamentOutletError(RuntimeError):
    """The caller's `Outlets` gave no tournament outlet: nothing can be posted."""


class NoTournamentOutlet:
    """The tournament outlet of a caller that gave none: each call raises
    `NoTournamentOutletError` (the tournament service logs it and tries again at its next
    step)."""

    async def open_tournament_thread(self, view: TournamentView) -> int:
        raise NoTournamentOutletError("no tournament outlet")

    async def open_game_thread(self, view: TournamentView, round: int, board: int,
                               white: int, black: int) -> int:
        raise NoTournamentOutletError("no tournament outlet")

    async def post(self, view: TournamentView, post: Post) -> int:
        raise NoTournamentOutletError("no tournament outlet")

    async def edit_signup(self, view: TournamentView) -> None:
        raise NoTournamentOutletError("no tournament outlet")


class NoNotificationOutlet:
    """The notification outlet of a caller that gave none: nothing is sent; each message
    is `Outcome.FAILED`, so its notifications stay owed and are tried again later."""

    async def send(self, delivery: Delivery) -> SendResult:
        log.warning("no notification outlet: a notification to %s waits", delivery.user_id)
        return SendResult(Outcome.FAILED)


@dataclass(frozen=True)
class Services(Generic[A_co]):
    """The services of one bot process, built by `compose`; `announcer` is the one the
    caller's outlets gave. `computer` is the computer's process pool (None when the caller
    gave its own move chooser); `computer_turns` None when built without the computer's
    turns (`compose(computer_turns=False)`)."""

    storage: Storage
    move_work: MoveWork
    events: EventBus
    preferences: PreferenceService
    puzzles: PuzzleService
    announcer: A_co
    games: GameService
    computer: ComputerPlayer | None
    computer_turns: ComputerTurns | None
    computer_games: ComputerGames
    challenges: ChallengeService
    stats: StatsService
    deadlines: DeadlineScheduler
    daily_puzzles: DailyPuzzleScheduler
    analyses: AnalysisService
    tournaments: TournamentService
    notifications: NotificationService

    def start(self) -> None:
        """Start the background schedulers: the deadlines, the daily puzzles, the
        tournaments' (start times, arenas' pairings) and the turn notifications'."""
        self.deadlines.start()
        self.daily_puzzles.start()
        self.tournaments.start_scheduler()
        self.notifications.start()

    async def stop(self) -> None:
        """Start no new work: stop the schedulers and the analyses (the interactions being
        handled may still finish; `close` follows)."""
        await self.deadlines.stop()
        await self.daily_puzzles.stop()
        await self.tournaments.stop_scheduler()
        await self.notifications.stop()
        await self.analyses.close()

    async def close(self) -> None:
        """Stop everything and close the database: `stop`, the computer's turns and its
        processes, the posts under way, the move work, the storage. Idempotent (a test
        may close before it restarts)."""
        await self.stop()
        if self.computer_turns is not None:
            await self.computer_turns.close()
        if self.computer is not None:
            await self.computer.close()
        await self.announcer.drain()
        await self.notifications.close()
        await self.move_work.close()
        await self.storage.close()


async def compose(
    config: Config,
    outlets: Callable[[Core], Outlets[A]],
    *,
    clock: Clock = utc_now,
    chooser: MoveChooser | None = None,
    computer_turns: bool = True,
    rng: random.Random | None = None,
    puzzle_banks: Mapping[str, Sequence[Puzzle]] | None = None,
    monotonic: Callable[[], float] = time.monotonic,
) -> Services[A]:
    """The services for `config` (`bot.config.Config`: the database, the rules, the
    computer's strength, the shards...), their posts going to what `outlets` builds on the
    `Core`. `chooser` picks the computer's moves (None: a `ComputerPlayer` process pool,
    whose workers start at the first search); `computer_turns` False builds no runner of
    the computer's turns (a computer seat's turn stays pending, an absent player loses on
    time: for tests of the flow alone). `rng` draws the colours of challenges (None: the
    system's); `puzzle_banks` replaces the shipped puzzle banks; `monotonic` is the clock of
    the settings' cache (`_preferences`; tests step their own). Nothing is restored or
    started: the caller restores the games and challenges, then calls `Services.start`
    (whose tournament scheduler first advances the tournaments under way,
    `TournamentService.restore`).
    Raises what `Storage.open` raises for a database it cannot open or migrate."""
    # The leaderboard rule is kept in the database's rankings: open with ours, or
    # every leaderboard and rank would fall back to a slow exact scan.
    storage = await Storage.open(config.database, clock=clock, leaderboard=config.eligibility,
                                 pool_size=config.database_pool_size)
    scope = config.shard_scope
    computer, chooser = _computer(config, chooser, computer_turns)
    # Move work for positions with very many capture states: one worker process, apart
    # from the computer's pool, started by the first such position (bot.move_work).
    move_work = MoveWork()
    preferences = _preferences(config, storage, monotonic)
    puzzle_service = PuzzleService(storage.puzzles, banks=puzzle_banks)
    out = outlets(Core(storage, move_work, preferences, puzzle_service))
    announcer = out.announcer
    events = EventBus()
    rules = GameRules(config.inactivity_limit, config.computer_moves_before_forfeit)
    games = GameService(storage, rules=rules, clock=clock, events=events,
                        move_work=move_work, scope=scope)
    log.info("this process runs %s", scope.describe())
    turns = None if chooser is None else _turns(config, games, chooser, announcer, events)
    room = None if computer is None else functools.partial(
        computer.check_room, budget_seconds=config.computer_budget
    )
    challenges = ChallengeService(
        storage, games, expiry=config.challenge_expiry,
        correspondence_expiry=config.correspondence_challenge_expiry, clock=clock, rng=rng,
        settings=preferences,
    )
    deadlines = DeadlineScheduler(games, challenges, announcer, clock=clock)
    deadlines.listen(events)
    # Analyses of finished games: in the computer's worker processes, after every game's
    # move (a worker thread when the caller gave its own move chooser).
    reviewer: PositionReviewer = ThreadReviewer() if computer is None else PoolReviewer(computer)
    # Tournaments: their games' boards posted by the announcer in each game's thread; a
    # game's end advances its tournament.
    tournaments = TournamentService(
        storage, games, out.tournaments if out.tournaments is not None else NoTournamentOutlet(),
        announce=announcer.announce, clock=clock, scope=scope,
    )
    tournaments.listen(events)
    notifications = _notifications(config, storage, preferences, out, events, clock)
    return Services(
        storage=storage, move_work=move_work, events=events, preferences=preferences,
        puzzles=puzzle_service, announcer=announcer, games=games, computer=computer,
        computer_turns=turns,
        computer_games=ComputerGames(storage, games, clock=clock, room=room),
        challenges=challenges,
        stats=StatsService(storage, games, eligibility=config.eligibility),
        deadlines=deadlines,
        daily_puzzles=DailyPuzzleScheduler(puzzle_service, storage.puzzles, out.daily,
                                           scope=scope, clock=clock),
        analyses=AnalysisService(storage, games, reviewer),
        tournaments=tournaments,
        notifications=notifications,
    )


def _preferences(config: Config, storage: Storage,
                 monotonic: Callable[[], float]) -> PreferenceService:
    """The preferences and server settings, read again after `SETTINGS_CACHE_SECONDS`
    in a process that does not own every shard: another process may change a player's
    preferences, or a server's settings (through the process owning it), which this
    process's web face reads."""
    again = None if config.shard_scope.everything else SETTINGS_CACHE_SECONDS
    return PreferenceService(
        storage.settings,
        ChallengeLimits(config.challenges_per_challenger, config.challenges_per_opponent),
        player_cache_seconds=again, guild_cache_seconds=again, monotonic=monotonic)


def _notifications(
    config: Config, storage: Storage, preferences: PreferenceService, out: Outlets[A],
    events: EventBus, clock: Clock,
) -> NotificationService:
    """The turn notifications: owed on each game's turn (listening to `events`), sent
    through the outlets' `notifications` by the process that owns the game's server."""
    notifications = NotificationService(
        storage.notifications, storage.games, preferences,
        out.notifications if out.notifications is not None else NoNotificationOutlet(),
        scope=config.shard_scope, clock=clock, limits=config.notification_limits,
    )
    notifications.listen(events)
    return notifications


def _computer(
    config: Config, chooser: MoveChooser | None, computer_turns: bool
) -> tuple[ComputerPlayer | None, MoveChooser | None]:
    """The computer's process pool and the move chooser on it, when the caller gave no
    chooser and wants the computer's turns; otherwise no pool and the caller's chooser.
    Worker processes start at the first search, not here."""
    if chooser is not None or not computer_turns:
        return None, chooser
    computer = ComputerPlayer(
        workers_per_process(config.computer_workers, config.machine_processes),
        queue_limit=config.computer_queue_limit,
    )
    return computer, PoolMoveChooser(computer)


def _turns(
    config: Config, games: GameService, chooser: MoveChooser, announcer: Announcer,
    events: EventBus,
) -> ComputerTurns:
    """The one runner of the computer's turns, listening to `events`, announcing through
    `announcer` (its `announce` and `computer_delayed`)."""
    turns = ComputerTurns(
        games, chooser, announce=announcer.announce, delayed=announcer.computer_delayed,
        absent=Strength(config.absent_player_level, config.absent_player_budget),
        seat_budget=config.computer_budget,
    )
    turns.listen(events)
    return turns
