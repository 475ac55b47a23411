"""`DamaBot`: the discord.py client. Its `setup_hook` is the composition root.

setup_hook: open the database; build the presenter and the announcer (the Discord side
that shows updates), the event bus and the services; subscribe the listeners (the
computer's turns, the deadline scheduler); add the cogs; register the persistent buttons
(dynamic items: any old message's buttons work again); restore the active games (the
computer resumes its turns) and the pending challenges; start the deadline scheduler; and
sync the commands (development guild, or global when changed). Every collaborator is
given at construction; nothing is patched afterwards (docs/ARCHITECTURE.md).
"""

from __future__ import annotations

import asyncio
import functools
import gc
import logging
import sys
from collections.abc import Mapping, Sequence

import discord
from discord import app_commands
from discord.ext import commands

from bot.cogs.analysis import Analysis
from bot.cogs.computer import Computer
from bot.cogs.info import Info
from bot.cogs.play import Play
from bot.cogs.puzzles import Puzzles
from bot.cogs.settings import Settings as SettingsCog
from bot.computer import ComputerPlayer, PoolMoveChooser, PoolReviewer, workers_per_process
from bot.config import ConfigError, Settings
from bot.move_work import MoveWork
from bot.services import (
    ChallengeService,
    DeadlineScheduler,
    EventBus,
    GameRules,
    GameService,
    PlayerError,
    StatsService,
)
from bot.services.analysis import AnalysisService, PositionReviewer, ThreadReviewer
from bot.services.computer_games import ComputerGames
from bot.services.computer_turns import ComputerTurns, MoveChooser, Strength
from bot.services.puzzles import PuzzleService
from bot.services.scheduler import DailyPuzzleScheduler
from bot.services.settings import ChallengeLimits, SettingsService
from bot.sync import CLAIM_SECONDS, legacy_hash_file, sync_commands
from bot.ui.analysis import ANALYSIS_ITEMS, AnalysisPresses
from bot.ui.announcer import GameAnnouncer
from bot.ui.answer import Answer
from bot.ui.buttons import DYNAMIC_ITEMS, PressHandler
from bot.ui.errors import ErrorReporter
from bot.ui.languages import LanguageChoices, settle
from bot.ui.present import Presenter
from bot.ui.puzzles import PUZZLE_ITEMS, DailyPuzzlePosts, PuzzlePressHandler
from bot.ui.reading import check_options
from bot.ui.translator import CommandTranslator
from puzzles import Puzzle
from storage import Storage, redact_url, utc_now
from storage.clock import Clock

log = logging.getLogger(__name__)


def freeze_heap() -> None:
    """Move every object alive now (modules, discord.py, the engine's tables, restored
    sessions) out of the garbage collector's reach (`gc.freeze`). A full collection would
    otherwise walk them all while holding the GIL: 40+ ms event-loop stalls under load
    (benchmarks/bot.py); frozen, the loop's longest stall stays near 5 ms."""
    gc.collect()
    gc.freeze()


SWITCH_INTERVAL = 0.0005
"""Seconds a thread holding the GIL may run before the event loop's thread gets it back
(Python's default is 0.005)."""


def share_the_interpreter() -> None:
    """Let the event loop's thread take the GIL back within SWITCH_INTERVAL
    (`sys.setswitchinterval`). Move generation for a set-up position with tens of
    thousands of capture states runs in a worker thread for 100 ms or more; at the
    default 5 ms interval every other game's move waits 5 ms at each of its many GIL
    hand-overs (the database thread, the renderer's thread), and their p99 went from
    16 ms to 260 ms beside such moves; at 0.5 ms it was 42 ms (benchmarks/bot_worst.py)."""
    sys.setswitchinterval(SWITCH_INTERVAL)


PLAYER_CACHE_SECONDS = 30.0
"""With several bot processes (shards), how long a player's preferences stay in one
process's memory before they are read again (another process may have changed them)."""

CLOSE_GRACE = 8.0
"""Seconds a stop waits for interactions being handled (`docker stop` kills after 10)."""

SYNC_START_PATIENCE = 5.0
"""Seconds the start waits for another process's command sync claim on the same commands
(a process started beside one that is syncing) before going on and syncing in the
background when that claim expires (`bot.sync.CLAIM_SECONDS`): a restart never waits two
minutes for the claim its dead predecessor left."""

IN_FLIGHT = ("CommandTree-invoker", "discord-ui-")
"""Names of discord.py's tasks running slash commands, buttons (dynamic items, views)."""


class DamaTree(app_commands.CommandTree["DamaBot"]):
    """The command tree; its `on_error` is the one handler for slash command errors."""

    async def interaction_check(self, interaction: discord.Interaction[DamaBot]) -> bool:
        # Start the deferral watchdog as the command arrives, so whatever it does first
        # (storage, rendering) is covered by Discord's 3-second limit.
        Answer.of(interaction)
        # The reader's and the channel's language, once (docs/ARCHITECTURE.md, Languages).
        await settle(interaction, interaction.client.language_choices)
        # Every option checked at the boundary (docs/ARCHITECTURE.md): a value no Discord
        # client sends is refused here, before discord.py reads it or a command runs.
        try:
            check_options(interaction)
        except PlayerError as error:
            await interaction.client.errors.report(interaction, error)
            return False
        return True

    async def on_error(
        self, interaction: discord.Interaction[DamaBot], error: app_commands.AppCommandError
    ) -> None:
        await interaction.client.errors.report(interaction, error)


class DamaBot(commands.AutoShardedBot):
    """The bot: discord.py's `AutoShardedBot`, running the shards `settings.shard_ids` of
    `settings.shard_count` (both None: as many as Discord recommends, all in this process),
    and looking after the games of those shards' guilds only (`settings.shard_scope`,
    `bot.services.shards`). `settings` from `bot.config`; `clock` is for tests. The
    computer's moves: a `ComputerPlayer` process pool is created in `setup_hook` and
    closed in `close`; `chooser` replaces the move chooser built on it (tests). `sync`
    and `run_scheduler` (default on) let tests skip the command sync and drive the
    deadlines themselves (`scheduler.run_once`)."""

    storage: Storage
    events: EventBus
    games: GameService
    challenges: ChallengeService
    stats: StatsService
    presenter: Presenter
    announcer: GameAnnouncer
    errors: ErrorReporter
    presses: PressHandler
    scheduler: DeadlineScheduler
    computer_games: ComputerGames
    computer_turns: ComputerTurns
    puzzles: PuzzleService
    puzzle_presses: PuzzlePressHandler
    daily_puzzles: DailyPuzzleScheduler
    analyses: AnalysisService
    analysis_presses: AnalysisPresses
    settings_service: SettingsService

    @property
    def language_choices(self) -> LanguageChoices | None:
        """Where the players' and servers' language choices are read (None before
        `setup_hook`)."""
        return getattr(self, "settings_service", None)

    def __init__(
        self,
        settings: Settings,
        *,
        clock: Clock = utc_now,
        chooser: MoveChooser | None = None,
        sync: bool = True,
        run_scheduler: bool = True,
        puzzle_banks: Mapping[str, Sequence[Puzzle]] | None = None,
    ) -> None:
        intents = discord.Intents.none()
        intents.guilds = True
        # discord.py's stubs say list[int], but None (every shard) is its default.
        shard_ids: list[int] | None = (
            None if settings.shard_ids is None else sorted(settings.shard_ids)
        )
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=intents,
            help_command=None,
            tree_cls=DamaTree,
            allowed_mentions=discord.AllowedMentions(everyone=False, roles=False, users=True),
            shard_count=settings.shard_count,
            shard_ids=shard_ids,  # type: ignore[arg-type]
        )
        self.settings = settings
        self.scope = settings.shard_scope
        self.clock = clock
        self.chooser = chooser
        self.computer: ComputerPlayer | None = None
        self.sync_on_start = sync
        self.run_scheduler = run_scheduler
        self.sync_result: str | None = None
        self.puzzle_banks = puzzle_banks

    async def setup_hook(self) -> None:
        settings = self.settings
        # Command names and descriptions in tr, it, fr (bot/locales/commands).
        await self.tree.set_translator(CommandTranslator())
        # The leaderboard rule is kept in the database's rankings: open with ours, or
        # every leaderboard and rank would fall back to a slow exact scan.
        self.storage = await Storage.open(settings.database, clock=self.clock,
                                          leaderboard=settings.eligibility,
                                          pool_size=settings.database_pool_size)
        if self.chooser is None:
            # Worker processes start at the first search, not here.
            self.computer = ComputerPlayer(
                workers_per_process(settings.computer_workers, settings.machine_processes),
                queue_limit=settings.computer_queue_limit,
            )
            self.chooser = PoolMoveChooser(self.computer)
        # Move work for positions with very many capture states: one worker process,
        # apart from the computer's pool, started by the first such position (about a
        # second, in that process: the event loop does not wait; bot.move_work).
        self.move_work = MoveWork()
        self.presenter = Presenter(board_size=settings.board_size,
                                   inactivity_limit=settings.inactivity_limit,
                                   move_work=self.move_work)
        self.settings_service = SettingsService(
            self.storage.settings,
            ChallengeLimits(settings.challenges_per_challenger, settings.challenges_per_opponent),
            # Another process may change a player's preferences: read them again now and then.
            player_cache_seconds=None if self.scope.everything else PLAYER_CACHE_SECONDS,
        )
        self.announcer = GameAnnouncer(self, self.presenter, self.settings_service)
        self.errors = ErrorReporter(self.announcer)
        self.events = EventBus()
        rules = GameRules(settings.inactivity_limit, settings.computer_moves_before_forfeit)
        self.games = GameService(self.storage, rules=rules, clock=self.clock,
                                 events=self.events, move_work=self.move_work,
                                 scope=self.scope)
        log.info("this process runs %s", self.scope.describe())
        self.computer_turns = ComputerTurns(
            self.games, self.chooser, announce=self.announcer.announce,
            delayed=self.announcer.computer_delayed,
            absent=Strength(settings.absent_player_level, settings.absent_player_budget),
            seat_budget=settings.computer_budget,
        )
        self.computer_turns.listen(self.events)
        computer = self.computer
        room = None if computer is None else functools.partial(
            computer.check_room, budget_seconds=settings.computer_budget
        )
        self.computer_games = ComputerGames(self.storage, self.games, clock=self.clock,
                                            room=room)
        self.challenges = ChallengeService(
            self.storage, self.games, expiry=settings.challenge_expiry, clock=self.clock,
            settings=self.settings_service,
        )
        self.stats = StatsService(self.storage, self.games, eligibility=settings.eligibility)
        self.scheduler = DeadlineScheduler(self.games, self.challenges, self.announcer,
                                           clock=self.clock)
        self.scheduler.listen(self.events)
        self._warming = asyncio.create_task(self._warm(), name="dama-warm-renderer")
        play = Play(games=self.games, challenges=self.challenges, announcer=self.announcer,
                    errors=self.errors, settings=settings, preferences=self.settings_service,
                    computer_games=self.computer_games, clock=self.clock)
        self.presses = play
        await self.add_cog(play)
        await self.add_cog(Info(stats=self.stats, presenter=self.presenter, settings=settings))
        await self.add_cog(Computer(computer_games=self.computer_games,
                                    announcer=self.announcer, settings=settings))
        self.puzzles = PuzzleService(self.storage.puzzles, banks=self.puzzle_banks)
        puzzle_cog = Puzzles(puzzles=self.puzzles, repository=self.storage.puzzles,
                             errors=self.errors, board_size=settings.board_size,
                             preferences=self.settings_service)
        self.puzzle_presses = puzzle_cog
        await self.add_cog(puzzle_cog)
        self.daily_puzzles = DailyPuzzleScheduler(
            self.puzzles, self.storage.puzzles,
            DailyPuzzlePosts(self, settings.board_size, self.puzzles),
            scope=self.scope, clock=self.clock)
        self.add_dynamic_items(*DYNAMIC_ITEMS, *PUZZLE_ITEMS)
        await self.add_cog(SettingsCog(settings=self.settings_service))
        # Analyses of finished games: in the computer's worker processes, after every
        # game's move (a worker thread when tests replaced the move chooser).
        reviewer: PositionReviewer = (
            ThreadReviewer() if computer is None else PoolReviewer(computer)
        )
        self.analyses = AnalysisService(self.storage, self.games, reviewer)
        analysis = Analysis(analyses=self.analyses, games=self.games, storage=self.storage,
                            preferences=self.settings_service)
        self.analysis_presses = analysis
        await self.add_cog(analysis)
        self.add_dynamic_items(*ANALYSIS_ITEMS)
        restored = await self.games.restore()
        log.info("restored %d active games; the computer is to move in %d", len(restored),
                 self.computer_turns.thinking)
        owed = await self.games.post_owed_boards(self.announcer.announce_owed)
        log.info("posted %d boards owed from before the restart", len(owed))
        pending = await self.challenges.restore()
        log.info("restored %d pending challenges", pending)
        if self.run_scheduler:
            self.scheduler.start()
            self.daily_puzzles.start()
        freeze_heap()
        # One process registers the commands: the one with shard 0 (bot.services.shards).
        if self.sync_on_start and self.scope.holds_shard_zero:
            try:
                result = await self._sync_commands(SYNC_START_PATIENCE)
                if result == "waiting":
                    # A claim on these commands still held (often: this process's
                    # predecessor died while syncing): start now, sync when it expires.
                    log.info("another process holds the command sync claim; starting now "
                             "and syncing in the background if it is not finished")
                    self._syncing = asyncio.create_task(self._sync_in_background(),
                                                        name="dama-command-sync")
                else:
                    self.sync_result = result
            except (discord.Forbidden, discord.NotFound):
                if settings.dev_guild is None:
                    raise
                # One line for the operator (bot.__main__ prints ConfigError), no traceback.
                raise ConfigError(
                    f"DAMA_DEV_GUILD={str(settings.dev_guild)!r} is not valid: the bot is not "
                    "in that server (or may not add commands there); invite it with the "
                    "applications.commands scope, or leave DAMA_DEV_GUILD empty for global "
                    "commands"
                ) from None

    async def _sync_commands(self, patience: float) -> str:
        """`bot.sync.sync_commands` with this bot's tree, settings and clock."""
        settings = self.settings
        return await sync_commands(
            self.tree, application_id=self.application_id,
            dev_guild=settings.dev_guild, values=self.storage.settings,
            legacy=legacy_hash_file(settings.database), clock=self.clock, patience=patience,
        )

    async def _sync_in_background(self) -> None:
        """The command sync, waiting out another process's claim (`CLAIM_SECONDS` at a
        time) while the bot runs; a failure is logged (the commands Discord has stay)."""
        try:
            result = "waiting"
            while result == "waiting":
                result = await self._sync_commands(CLAIM_SECONDS)
            self.sync_result = result
        except Exception:
            log.exception("the command sync in the background failed; the commands "
                          "Discord has stay until the next start")

    async def _warm(self) -> None:
        await self.presenter.warm()
        freeze_heap()  # again, with the renderer's caches built

    async def on_ready(self) -> None:
        user = self.user
        log.info("ready as %s (id %s) in %d guilds", user, user.id if user else "?",
                 len(self.guilds))

    async def close(self) -> None:
        scheduler = getattr(self, "scheduler", None)
        if scheduler is not None:
            await scheduler.stop()
        daily = getattr(self, "daily_puzzles", None)
        if daily is not None:
            await daily.stop()
        analyses = getattr(self, "analyses", None)
        if analyses is not None:
            await analyses.close()
        await self._finish_interactions(CLOSE_GRACE)
        computer_turns = getattr(self, "computer_turns", None)
        if computer_turns is not None:
            await computer_turns.close()
        if self.computer is not None:
            await self.computer.close()
        syncing = getattr(self, "_syncing", None)
        if syncing is not None:
            syncing.cancel()  # a sync under way puts the stored value back (bot.sync)
            await asyncio.gather(syncing, return_exceptions=True)
        warming = getattr(self, "_warming", None)
        if warming is not None:
            await asyncio.gather(warming, return_exceptions=True)
        announcer = getattr(self, "announcer", None)
        if announcer is not None:
            await announcer.drain()
        move_work = getattr(self, "move_work", None)
        if move_work is not None:
            await move_work.close()
        await super().close()
        storage = getattr(self, "storage", None)
        if storage is not None:
            await storage.close()

    async def _finish_interactions(self, timeout: float) -> None:
        """Let the interactions being handled finish (a move committed and its board being
        posted: the board's message id must be stored), for at most `timeout` seconds,
        before the HTTP session and the database close."""
        current = asyncio.current_task()
        pending = [
            task for task in asyncio.all_tasks()
            if task is not current and not task.done() and task.get_name().startswith(IN_FLIGHT)
        ]
        if pending:
            log.info("stopping: waiting for %d interactions to finish", len(pending))
            await asyncio.wait(pending, timeout=timeout)

    def __repr__(self) -> str:
        return f"<DamaBot database={redact_url(self.settings.database)!r}>"


