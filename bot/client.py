"""`DamaBot`: the discord.py client.

setup_hook: build the services (`bot.composition.compose`, the one composition root, with
the Discord side's outlets: the presenter, the announcer, the daily puzzle posts and the
tournaments' threads and posts);
add the cogs, fed from the services; register the persistent buttons (dynamic items: any
old message's buttons work again); restore the active games (the computer resumes its
turns), post the first boards owed (`OWED_BEFORE_CONNECT`; the others once connected, in
the background: `on_ready`) and restore the pending challenges; read the analyses a
killed process left under way (their progress messages told once connected:
`on_ready`); start the schedulers; warm the renderer and the move-work process in the
background; sync the commands (development guild, or global when changed); and learn
their ids, with which the texts mention them (`mention_commands`). The client holds the
one `Services` value and closes it (`close`). Every collaborator is given at
construction; nothing is patched afterwards (docs/ARCHITECTURE.md).
"""

from __future__ import annotations

import asyncio
import gc
import logging
import sys
from collections.abc import Mapping, Sequence
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.cogs.analysis import Analysis
from bot.cogs.computer import Computer
from bot.cogs.info import Info
from bot.cogs.play import Play
from bot.cogs.puzzles import Puzzles
from bot.cogs.settings import PreferencesCog
from bot.cogs.tournaments import Tournaments
from bot.composition import Core, Outlets, Services, compose
from bot.config import Config, ConfigError
from bot.messages.mentions import NO_COMMAND_IDS, install_command_ids
from bot.services import PlayerError
from bot.services.analysis import AnalysisService
from bot.services.computer_turns import MoveChooser
from bot.services.press_targets import PressTargets
from bot.sync import CLAIM_SECONDS, learn_command_ids, sync_commands
from bot.ui import analysis as analysis_ui
from bot.ui import buttons as buttons_ui
from bot.ui import puzzles as puzzles_ui
from bot.ui import tournaments as tournaments_ui
from bot.ui.announcer import GameAnnouncer
from bot.ui.answer import Answer
from bot.ui.components import BoardInPlay, ComponentRouter
from bot.ui.errors import ErrorReporter
from bot.ui.languages import LanguageChoices, settle
from bot.ui.notifications import DiscordNotifications, report_seen
from bot.ui.present import Presenter
from bot.ui.puzzles import DailyPuzzlePosts
from bot.ui.reading import check_options
from bot.ui.tournament_events import EventFollowingOutlet, TournamentEvents
from bot.ui.tournament_picture import standings_png
from bot.ui.tournament_posts import TournamentPosts
from bot.ui.translator import CommandTranslator
from bot.web.context import LiveSource, make_context
from bot.web.feeds import BusFeed, PollingFeed
from bot.web.server import WebServer
from puzzles import Puzzle
from storage import AnalysisUnderWay, redact_url, utc_now
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


CLOSE_GRACE = 8.0
"""Seconds a stop waits for interactions being handled (`docker stop` kills after 10)."""

SYNC_START_PATIENCE = 5.0
"""Seconds the start waits for another process's command sync claim on the same commands
(a process started beside one that is syncing) before going on and syncing in the
background when that claim expires (`bot.sync.CLAIM_SECONDS`): a restart never waits two
minutes for the claim its dead predecessor left."""

DORMANT_OVER = 200
"""With more active games than this, the start-up leaves those that need nothing at once
dormant, loaded when first touched (`GameService.restore`): replaying every game's moves
took 12 s with 10,000 games (docs/BENCHMARKS.md); with fewer, all are loaded (a fraction of
a second), so a game whose moves no longer replay is quarantined at once."""

OWED_BEFORE_CONNECT = 50
"""Most boards owed from before a restart that `setup_hook` posts before the bot connects
(about 12 ms each: well under a second); the others are posted once it is connected and
answering (`on_ready`), one at a time, while new moves are served (docs/ARCHITECTURE.md,
"Recovery at start-up")."""

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
        # Quiet while active, and a player whose DMs were found closed told once
        # (docs/ARCHITECTURE.md, "Notifications").
        await interaction.client.report_activity(interaction)
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
    computer's moves: `compose` creates a `ComputerPlayer` process pool, closed in
    `close`; `chooser` replaces the move chooser built on it (tests). `sync`
    and `run_scheduler` (default on) let tests skip the command sync and drive the
    deadlines themselves (`services.deadlines.run_once`). `mention_commands` (on when the
    bot runs, `bot.app`; off by default, so tests of the flow read plain `/name`s) learns
    the ids Discord gave the commands after the sync and installs them, so texts in
    English and Arabic mention the commands (`bot.messages.mentions`)."""

    errors: ErrorReporter
    router: ComponentRouter

    @property
    def services(self) -> Services[GameAnnouncer]:
        """The bot's services (`bot.composition.compose`). Raises RuntimeError before
        `setup_hook` built them."""
        if self._services is None:
            raise RuntimeError("the services are built by setup_hook, which has not run")
        return self._services

    @property
    def presenter(self) -> Presenter:
        """What draws and writes the boards (the announcer's)."""
        return self.services.announcer.presenter

    @property
    def language_choices(self) -> LanguageChoices | None:
        """Where the players' and servers' language choices are read (None before
        `setup_hook`)."""
        services = self._services
        return None if services is None else services.preferences

    def __init__(
        self,
        settings: Config,
        *,
        clock: Clock = utc_now,
        chooser: MoveChooser | None = None,
        sync: bool = True,
        run_scheduler: bool = True,
        mention_commands: bool = False,
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
        self.sync_on_start = sync
        self.run_scheduler = run_scheduler
        self.mention_commands = mention_commands
        self.sync_result: str | None = None
        self.puzzle_banks = puzzle_banks
        self._services: Services[GameAnnouncer] | None = None
        self._stopping = False
        """`close` has begun (a stop may come while `setup_hook` is still starting)."""
        self._syncing: asyncio.Task[None] | None = None
        self._warming: asyncio.Task[None] | None = None
        self._owing: asyncio.Task[None] | None = None
        self._interrupted: list[AnalysisUnderWay] = []
        self._correcting: asyncio.Task[None] | None = None
        self._notification_outlet: DiscordNotifications | None = None
        self.web: WebServer | None = None
        """The web face served beside the bot (`DAMA_WEB_ADDRESS`), once started."""

    async def report_activity(self, interaction: discord.Interaction[Any]) -> None:
        """Report the interaction's user to the notifications (`bot.ui.notifications.
        report_seen`); nothing before `setup_hook` built the services."""
        if self._services is not None:
            await report_seen(interaction, self._services.notifications,
                              self._notification_outlet, self._services.preferences)

    def _outlets(self, core: Core) -> Outlets[GameAnnouncer]:
        """The Discord side of the services' own posts: the presenter (boards drawn through
        the move work), the announcer (each reader's preferences), the daily puzzles and
        the tournaments' threads and posts (each server's language, the standings
        picture)."""
        presenter = Presenter(board_size=self.settings.board_size,
                              inactivity_limit=self.settings.inactivity_limit,
                              move_work=core.move_work)
        self._notification_outlet = DiscordNotifications(self, core.preferences)
        return Outlets(GameAnnouncer(self, presenter, core.preferences),
                       DailyPuzzlePosts(self, self.settings.board_size, core.puzzles),
                       tournaments=EventFollowingOutlet(
                           TournamentPosts(self, core.preferences, standings_png), self),
                       notifications=self._notification_outlet)

    async def setup_hook(self) -> None:
        settings = self.settings
        # Command names and descriptions in tr, it, fr (bot/locales/commands).
        await self.tree.set_translator(CommandTranslator())
        services = await compose(settings, self._outlets, clock=self.clock,
                                 chooser=self.chooser, puzzle_banks=self.puzzle_banks)
        self._services = services
        if self._stopping:
            # Stopped (SIGTERM) while the database was being opened: `close` found no
            # services to close; these are closed here and nothing starts.
            await services.close()
            return
        announcer = services.announcer
        await self._start_web(services)
        self.errors = ErrorReporter(announcer)
        self._warming = asyncio.create_task(self._warm(), name="dama-warm-renderer")
        play = Play(games=services.games, challenges=services.challenges, announcer=announcer,
                    errors=self.errors, settings=settings, preferences=services.preferences,
                    computer_games=services.computer_games, stats=services.stats,
                    clock=self.clock)
        await self.add_cog(play)
        await self.add_cog(Info(stats=services.stats, presenter=self.presenter,
                                settings=settings, preferences=services.preferences,
                                links=announcer.links))
        await self.add_cog(Computer(computer_games=services.computer_games,
                                    announcer=announcer, settings=settings))
        puzzle_cog = Puzzles(puzzles=services.puzzles, errors=self.errors,
                             board_size=settings.board_size, preferences=services.preferences)
        await self.add_cog(puzzle_cog)
        await self.add_cog(PreferencesCog(settings=services.preferences,
                                          notifications=services.notifications))
        analysis = Analysis(analyses=services.analyses, games=services.games,
                            preferences=services.preferences)
        await self.add_cog(analysis)
        events = TournamentEvents(self, services.tournaments)
        services.tournaments.watch_interest(events.sign_up_interested)
        tournament_cog = Tournaments(tournaments=services.tournaments,
                                     preferences=services.preferences, settings=settings,
                                     picture=standings_png, clock=self.clock, events=events)
        await self.add_cog(tournament_cog)
        # Every component's press: checked, then routed to its feature's cog
        # (bot.ui.components); the components are dynamic items, so any old message's
        # buttons work again.
        self.router = ComponentRouter(targets=PressTargets(services.storage), errors=self.errors,
                                      languages=services.preferences,
                                      current_board=self._board_in_play,
                                      activity=self.report_activity)
        self.router.route(buttons_ui.GameAction, play.press)
        self.router.route(puzzles_ui.PuzzleAction, puzzle_cog.press)
        self.router.route(analysis_ui.AnalysisAction, analysis.press)
        self.router.route(tournaments_ui.TournamentAction, tournament_cog.press)
        self.add_dynamic_items(*buttons_ui.COMPONENTS, *puzzles_ui.COMPONENTS,
                               *analysis_ui.COMPONENTS, *tournaments_ui.COMPONENTS)
        restored = await services.games.restore(dormant_over=DORMANT_OVER)
        thinking = 0 if services.computer_turns is None else services.computer_turns.thinking
        log.info("restored %d active games (and %d dormant, loaded when first touched); the "
                 "computer is to move in %d", len(restored),
                 len(services.games.table.dormant()), thinking)
        owed = await services.games.post_owed_boards(announcer.announce_owed,
                                                     at_most=OWED_BEFORE_CONNECT)
        log.info("posted %d boards owed from before the restart%s", len(owed),
                 "; the others once connected" if services.games.owed_left else "")
        pending = await services.challenges.restore()
        log.info("restored %d pending challenges", pending)
        # Analyses a killed process left under way: their progress messages are told
        # once connected (`on_ready`); read now, before any analysis of this process.
        self._interrupted = await services.analyses.interrupted()
        if self.run_scheduler and not self._stopping:  # not after a stop meanwhile
            services.start()
        freeze_heap()
        await self._commands_at_start()

    async def _start_web(self, services: Services[GameAnnouncer]) -> None:
        """With the web face configured (docs/OPERATING.md, "Game pages on the web"): the
        "Game page" buttons (`announcer.links`), and with `DAMA_WEB_ADDRESS` the pages
        served by this process (they read the database: no need to wait for the
        restore), their live updates from its events (from the database when another
        process owns some shards). An address it cannot listen on is logged; the bot runs
        on without the pages."""
        web_settings = self.settings.web
        if web_settings is None or self._stopping:
            return
        live: LiveSource = (BusFeed(services.events, services.storage.games)
                            if self.scope.everything else PollingFeed(services.storage.games))
        context = await make_context(services.storage, services.stats, services.preferences,
                                     live, web_settings, self.clock)
        services.announcer.show_pages(context.access.links)
        if web_settings.address is None:
            return
        server = WebServer(context)
        try:
            await server.start()
        except OSError as error:
            log.error("the game pages cannot be served on %s: %s", web_settings.address, error)
            await live.close()
            return
        self.web = server

    async def _commands_at_start(self) -> None:
        """Register the commands (the process holding shard 0, `bot.sync`), then learn
        their ids (`mention_commands`). Raises `ConfigError` for a development guild the
        bot may not add commands to, and what `bot.sync.sync_commands` raises."""
        settings = self.settings
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
        if self.mention_commands and not self._stopping:
            await self._learn_command_ids()

    def _board_in_play(self, channel_id: int) -> BoardInPlay | None:
        """The board of the channel's game in play (None without one, or before its
        board was posted)."""
        try:
            state = self.services.games.current(channel_id)
        except PlayerError:  # no game in play there
            return None
        if state.board_message_id is None:
            return None
        return BoardInPlay(state.board_message_id, state.game_id, state.ply)

    async def _sync_commands(self, patience: float) -> str:
        """`bot.sync.sync_commands` with this bot's tree, settings and clock."""
        settings = self.settings
        return await sync_commands(
            self.tree, application_id=self.application_id,
            dev_guild=settings.dev_guild, values=self.services.storage.settings,
            clock=self.clock, patience=patience,
        )

    async def _sync_in_background(self) -> None:
        """The command sync, waiting out another process's claim (`CLAIM_SECONDS` at a
        time) while the bot runs; a failure is logged (the commands Discord has stay)."""
        try:
            result = "waiting"
            while result == "waiting":
                result = await self._sync_commands(CLAIM_SECONDS)
            self.sync_result = result
            if self.mention_commands:
                await self._learn_command_ids()  # a command new in this version has one now
        except Exception:
            log.exception("the command sync in the background failed; the commands "
                          "Discord has stay until the next start")

    async def _learn_command_ids(self) -> None:
        """Learn the ids Discord gave the commands (`bot.sync.learn_command_ids`) and install
        them for every text (`bot.messages.mentions`); when Discord does not answer, the
        texts keep naming commands as plain `/name`s (logged)."""
        try:
            ids = await learn_command_ids(self.tree, dev_guild=self.settings.dev_guild)
        except discord.HTTPException as error:
            log.warning("could not list the registered commands (%s); texts name commands "
                        "without mentions", error)
            return
        install_command_ids(ids)
        log.info("learned the ids of %d commands; texts mention them", len(ids.ids))

    async def _warm(self) -> None:
        """Build the renderer's caches and start the move-work process (`MoveWork.warm`)
        in the background, so the first board and the first heavy position of the process
        wait for neither; a move-work process that cannot start is logged (the first heavy
        position tries again)."""
        await asyncio.gather(self._warm_move_work(), self.presenter.warm())
        freeze_heap()  # again, with the renderer's caches built

    async def _warm_move_work(self) -> None:
        try:
            await self.services.move_work.warm()
        except Exception:
            log.exception("the move-work process did not start; the first heavy position "
                          "will start it")

    async def _post_owed_in_background(self) -> None:
        """The boards still owed after `setup_hook` (`OWED_BEFORE_CONNECT`), posted one at a
        time while the bot answers (discord.py waits out Discord's rate limits); a failure
        is logged, and those boards stay owed until the next start."""
        try:
            owed = await self.services.games.post_owed_boards(
                self.services.announcer.announce_owed)
            log.info("posted %d more boards owed from before the restart", len(owed))
        except Exception:
            log.exception("posting the boards owed from before the restart failed; those "
                          "left are posted at the next start")

    async def on_ready(self) -> None:
        user = self.user
        log.info("ready as %s (id %s) in %d guilds", user, user.id if user else "?",
                 len(self.guilds))
        services = self._services
        if services is not None and services.games.owed_left and self._owing is None:
            self._owing = asyncio.create_task(self._post_owed_in_background(),
                                              name="dama-owed-boards")
        if services is not None and self._interrupted and self._correcting is None:
            self._correcting = asyncio.create_task(
                self._correct_interrupted(services.analyses), name="dama-interrupted-analyses")

    async def _correct_interrupted(self, analyses: AnalysisService) -> None:
        """Tell the progress messages of the analyses a killed process left under way that
        they stopped (`bot.ui.analysis.correct_interrupted`), in the background."""
        interrupted, self._interrupted = self._interrupted, []
        edited = await analysis_ui.correct_interrupted(self, analyses, interrupted)
        log.info("told %d progress messages of analyses stopped by the restart", edited)

    async def close(self) -> None:
        """Stop: no new work (schedulers, analyses), the interactions being handled let
        finish, the command sync and the renderer's warm-up ended, the services closed
        (the computer, the posts under way, the database), then the connection."""
        self._stopping = True
        services = self._services  # None when the bot stops before `setup_hook` built them
        if services is not None:
            await services.stop()
        if self._owing is not None:
            self._owing.cancel()  # a board being posted stays owed, its nonce fixed
            await asyncio.gather(self._owing, return_exceptions=True)
        if self._correcting is not None:
            self._correcting.cancel()  # those not told yet stay under way: the next start
            await asyncio.gather(self._correcting, return_exceptions=True)
        await self._finish_interactions(CLOSE_GRACE)
        if self._syncing is not None:
            self._syncing.cancel()  # a sync under way puts the stored value back (bot.sync)
            await asyncio.gather(self._syncing, return_exceptions=True)
        if self._warming is not None:
            await asyncio.gather(self._warming, return_exceptions=True)
        if self.web is not None:
            await self.web.stop()  # before the database it reads closes
        if services is not None:
            await services.close()
        if self._notification_outlet is not None:
            self._notification_outlet.close()
        if self.mention_commands:
            install_command_ids(NO_COMMAND_IDS)
        await super().close()

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


