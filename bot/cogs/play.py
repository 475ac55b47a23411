"""Slash commands of a game: /challenge, /move, /board, /resign, /draw, /abort, /rematch,
and the presses of the buttons of challenge and board messages (`bot.ui.buttons`, routed
by `bot.ui.components.ComponentRouter` to `Play.press`), among them a finished board's
Replay, answered privately with the game as an animated GIF (`bot.ui.replay`).

Resigning asks first: `/resign` and the Resign button answer privately "Resign game #7
against @bob?" with Resign and Keep playing; only that Resign resigns, and only while the
game is still at the ply it was asked at and within `RESIGN_QUESTION_LIFETIME`.

Each reads the interaction (`bot.ui.reading`), calls one service method with an
`Announce` callback of the `GameAnnouncer`, which answers with texts and embeds from the
`Presenter`; errors go to the tree's `on_error` (buttons: the router's `ErrorReporter`).
"""

from __future__ import annotations

import asyncio
import logging
from datetime import UTC, datetime
from typing import Any, TypeVar, assert_never

import discord
from discord import app_commands
from discord.ext import commands

from bot.cogs.choices import (
    CLOCK_CHOICES,
    COLOR_CHOICES,
    MOVE_TIME_CHOICES,
    VARIANT_CHOICES,
    game_timing,
)
from bot.cogs.installs import anywhere
from bot.config import Config, MoveTime
from bot.messages import Msg
from bot.messages import command_text as t
from bot.services import (
    BoardRef,
    ChallengeService,
    GameService,
    PlayerError,
    StaleBoardError,
    StatsService,
    UserRef,
)
from bot.services.challenges import Person
from bot.services.computer_games import ComputerGames
from bot.services.games import RESIGN_QUESTION_LIFETIME, suggest_moves
from bot.services.settings import PreferenceService
from bot.ui.announcer import GameAnnouncer
from bot.ui.answer import Answer
from bot.ui.buttons import GameAction
from bot.ui.components import Press
from bot.ui.errors import ErrorReporter
from bot.ui.reading import channel_of, game_place_of, locale_of, person, requester_of
from bot.ui.replay import replay_file, replay_text, replay_view
from engine import Color
from storage import Challenge, ColorChoice, utc_now
from storage.clock import Clock

log = logging.getLogger(__name__)

Interaction = discord.Interaction[Any]

SUGGEST_BUDGET = 2.0
"""Seconds `/move`'s autocomplete may spend (Discord drops answers after 3)."""


def _consume(future: asyncio.Future[Any]) -> None:
    """Retrieve a background future's outcome (so a late failure is logged, not warned)."""
    if not future.cancelled() and future.exception() is not None:
        log.error("autocomplete failed late", exc_info=future.exception())


class Play(commands.Cog):
    """Challenges and moves."""

    def __init__(
        self,
        *,
        games: GameService,
        challenges: ChallengeService,
        announcer: GameAnnouncer,
        errors: ErrorReporter,
        settings: Config,
        computer_games: ComputerGames,
        stats: StatsService,
        clock: Clock = utc_now,
        preferences: PreferenceService | None = None,
    ) -> None:
        self.preferences = preferences
        self.stats = stats
        self.games = games
        self.challenges = challenges
        self.announcer = announcer
        self.errors = errors
        self.settings = settings
        self.computer_games = computer_games
        self.clock = clock

    @app_commands.command(name="challenge", description=t("challenge"))
    @anywhere
    @app_commands.describe(
        opponent=t("challenge.opponent"), variant=t("challenge.variant"),
        rated=t("challenge.rated"), color=t("challenge.color"),
        move_time=t("challenge.move_time"), clock=t("challenge.clock"),
    )
    @app_commands.choices(variant=VARIANT_CHOICES, color=COLOR_CHOICES,
                          move_time=MOVE_TIME_CHOICES, clock=CLOCK_CHOICES)
    async def challenge(
        self,
        interaction: Interaction,
        opponent: discord.User,
        variant: str,
        rated: bool | None = None,
        color: str = ColorChoice.RANDOM.value,
        move_time: str | None = None,
        clock: str | None = None,
    ) -> None:
        settings = self.settings
        per_move, control = game_timing(settings.default_move_time, move_time, clock)
        game_place_of(interaction)  # where every answer is private, no game can be played
        await self.challenges.create(
            challenger=person(interaction.user), opponent=person(opponent),
            guild_id=interaction.guild_id, channel_id=channel_of(interaction),
            variant=variant, rated=settings.default_rated if rated is None else rated,
            color=ColorChoice(color), move_time=per_move, time_control=control,
            post=self.announcer.posting_challenge(interaction),
        )

    @app_commands.command(name="move", description=t("move"))
    @anywhere
    @app_commands.describe(move=t("move.move"), draw=t("move.draw"))
    async def move(self, interaction: Interaction, move: str, draw: bool = False) -> None:
        """Play `move`; with `draw`, offer a draw with it, as players do over the board:
        the offer stands for the opponent, who accepts it or plays on (an offer made
        before one's own move lapses with that move: docs/RULES.md, "Project-wide game
        rules"). Raises `PlayerError` as `GameService.play`, COMPUTER_NO_DRAW before
        moving when `draw` is asked of a game against the computer, and
        DRAW_OFFER_OVERTAKEN after the move when the opponent answered it before the offer
        was made (the offer is then not made)."""
        channel_id = channel_of(interaction)
        players = self.games.players_in(channel_id)
        if draw and players is not None and None in players:
            raise PlayerError(Msg.COMPUTER_NO_DRAW)
        announce = self.announcer.answering(interaction)
        update = await self.games.play(channel_id, interaction.user.id, move,
                                       announce=announce)
        if draw and not update.state.is_over:
            # The offer goes with this move's board or not at all: made later, it could
            # accept an offer the opponent made in reply, unseen.
            board = BoardRef(update.state.game_id, update.state.ply)
            try:
                await self.games.draw(channel_id, interaction.user.id, board=board,
                                      announce=announce)
            except StaleBoardError:
                raise PlayerError(Msg.DRAW_OFFER_OVERTAKEN) from None

    @move.autocomplete("move")
    async def move_autocomplete(
        self, interaction: Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        # discord.py only logs an autocomplete's exception and never answers it (the
        # player would see "Loading options failed"): answer with no choices instead.
        try:
            return await self.suggestions(interaction, current)
        except Exception as error:
            self.errors.autocomplete_failed(interaction, error)
            return []

    async def suggestions(
        self, interaction: Interaction, typed: str
    ) -> list[app_commands.Choice[str]]:
        """The caller's moves for `/move`'s autocomplete, computed off the event loop
        (`GameService.move_work`: a worker thread, or the worker process for a position
        with very many capture states) within `SUGGEST_BUDGET` seconds; none if that is
        not enough (the work finishes anyway; in a thread it warms the notation cache for
        the next keystroke)."""
        if interaction.channel_id is None:
            return []
        await self.games.awake(interaction.channel_id)  # dormant since start-up: load it
        source = self.games.suggestion_source(interaction.channel_id, interaction.user.id)
        if source is None:
            return []
        numeric = (True if self.preferences is None
                   else (await self.preferences.player(interaction.user.id)).numeric)
        position, variant, _ = source
        work = asyncio.ensure_future(self.games.move_work.run(
            [(position, variant)], suggest_moves, *source, typed, numeric
        ))
        work.add_done_callback(_consume)
        try:
            found = await asyncio.wait_for(asyncio.shield(work), timeout=SUGGEST_BUDGET)
        except TimeoutError:
            log.warning("autocomplete took over %.1f s: user=%s channel=%s", SUGGEST_BUDGET,
                        interaction.user.id, interaction.channel_id)
            return []
        return [app_commands.Choice(name=c.name, value=c.value) for c in found]

    @app_commands.command(name="board", description=t("board"))
    @anywhere
    async def board(self, interaction: Interaction) -> None:
        await self.games.show_board(channel_of(interaction), requester_of(interaction),
                                    announce=self.announcer.answering(interaction))

    @app_commands.command(name="resign", description=t("resign"))
    @anywhere
    async def resign(self, interaction: Interaction) -> None:
        await self._ask_resign(interaction)

    @app_commands.command(name="draw", description=t("draw"))
    @anywhere
    async def draw(self, interaction: Interaction) -> None:
        await self._draw(interaction)

    @app_commands.command(name="abort", description=t("abort"))
    @anywhere
    async def abort(self, interaction: Interaction) -> None:
        await self.games.abort(
            channel_of(interaction), interaction.user.id,
            may_manage=interaction.permissions.manage_messages,
            announce=self.announcer.answering(interaction),
        )

    @app_commands.command(name="rematch", description=t("rematch"))
    @anywhere
    async def rematch(self, interaction: Interaction) -> None:
        game_id = await self.games.last_ended(channel_of(interaction), interaction.user.id)
        if game_id is None:
            raise PlayerError(Msg.NO_GAME_TO_REMATCH)
        await self._rematch(interaction, game_id)

    async def _ask_resign(self, interaction: Interaction, board: BoardRef | None = None) -> None:
        await self.games.awake(channel_of(interaction))  # dormant since start-up: load it
        question = self.games.resign_question(channel_of(interaction), interaction.user.id,
                                              board=board)
        await self.announcer.ask_resign(interaction, question, int(self.clock().timestamp()))

    async def _resign(self, interaction: Interaction, game_id: int, ply: int,
                      asked: int, asker: int) -> None:
        """The resign question's Resign: resigns if the question has not lapsed (asked of
        `asker` at `asked`, Unix seconds, at `ply`). Raises `PlayerError`:
        RESIGN_NOT_YOURS, GAME_OVER (the game ended meanwhile, e.g. on time: checked
        before the lapse, whose message says the game goes on), RESIGN_LAPSED,
        RESIGN_MOVED_ON, and those of `GameService.resign`."""
        if interaction.user.id != asker:
            raise PlayerError(Msg.RESIGN_NOT_YOURS, user=UserRef(asker))
        if not self.games.is_active(game_id):
            raise PlayerError(Msg.GAME_OVER)
        if self.clock() - datetime.fromtimestamp(asked, UTC) > RESIGN_QUESTION_LIFETIME:
            raise PlayerError(Msg.RESIGN_LAPSED)
        try:
            await self.games.resign(
                channel_of(interaction), interaction.user.id, board=BoardRef(game_id, ply),
                announce=self.announcer.answering(interaction),
            )
        except StaleBoardError:
            raise PlayerError(Msg.RESIGN_MOVED_ON) from None

    async def _rematch(self, interaction: Interaction, game_id: int) -> None:
        """Game `game_id` again, colours swapped, with the same per-move time or clocks:
        a challenge to the same person (who accepts as usual), or against the computer at
        once at the same level."""
        spec = await self.games.rematch_of(game_id, interaction.user.id)
        color = ColorChoice.WHITE if spec.color is Color.WHITE else ColorChoice.BLACK
        move_time = MoveTime.of_seconds(spec.move_seconds)
        channel_id = channel_of(interaction)
        place = game_place_of(interaction)
        if spec.opponent is None:
            await self.computer_games.start(
                player=person(interaction.user), guild_id=interaction.guild_id,
                channel_id=channel_id, variant=spec.variant, level=spec.level or 1,
                color=color, move_time=move_time, time_control=spec.time_control,
                announce=self.announcer.answering(interaction), place=place,
            )
            return
        await self.challenges.create(
            challenger=person(interaction.user), opponent=Person(spec.opponent),
            guild_id=interaction.guild_id, channel_id=channel_id, variant=spec.variant,
            rated=spec.rated, color=color, move_time=move_time,
            time_control=spec.time_control,
            post=self.announcer.posting_challenge(interaction),
        )

    async def _draw(self, interaction: Interaction, board: BoardRef | None = None) -> None:
        await self.games.draw(
            channel_of(interaction), interaction.user.id, board=board,
            announce=self.announcer.answering(interaction),
        )

    # --- buttons ------------------------------------------------------------------------

    async def press(self, interaction: Interaction, press: Press[GameAction]) -> None:
        """A button of a challenge (`press.challenge_id`), of a board (the game and the
        `ply` it was drawn for) or of the resign question (asked of user `asker` at
        `asked`, Unix seconds); the router checked what it names
        (`bot.ui.components`)."""
        match press.action:
            case GameAction.ACCEPT:
                await self._accept(interaction, _needed(press.challenge_id))
            case GameAction.DECLINE:
                declined = await self.challenges.decline(_needed(press.challenge_id),
                                                         interaction.user.id)
                await self.announcer.close_challenge(interaction, declined)
            case GameAction.CANCEL:
                cancelled = await self.challenges.cancel(_needed(press.challenge_id),
                                                         interaction.user.id)
                await self.announcer.close_challenge(interaction, cancelled)
            case GameAction.RESIGN:
                await self._ask_resign(interaction, _board(press))
            case GameAction.RESIGN_CONFIRM:
                board = _board(press)
                await self._resign(interaction, board.game_id, _needed(board.ply),
                                   _needed(press.asked), _needed(press.asker))
            case GameAction.KEEP_PLAYING:
                game_id = _needed(press.game_id)
                if not self.games.is_active(game_id):  # "you play on" would be untrue
                    raise PlayerError(Msg.GAME_OVER)
                await self.announcer.resign_kept(interaction, game_id)
            case GameAction.REMATCH:
                await self._rematch(interaction, _needed(press.game_id))
            case GameAction.REPLAY:
                await self._replay(interaction, _needed(press.game_id))
            case GameAction.DRAW:
                await self._draw(interaction, _board(press))
            case GameAction.MOVE:
                await self._move_picked(interaction, _board(press), _needed(press.picked))
            case _:
                assert_never(press.action)

    async def _move_picked(self, interaction: Interaction, board: BoardRef,
                           move: str) -> None:
        """A move picked in the move select of `board` (a board in an INTERACTIONS
        place, docs/ARCHITECTURE.md "Places"): played only at that board's ply, the new
        board replacing the pressed one. Raises as `GameService.play` (StaleBoardError:
        the game moved on since that board)."""
        await self.games.play(channel_of(interaction), interaction.user.id, move,
                              announce=self.announcer.moving_in_place(interaction),
                              board=board)

    async def _replay(self, interaction: Interaction, game_id: int) -> None:
        """A finished board's Replay: game `game_id` as an animated GIF, from the
        presser's side, answered privately (pressing it again posts nothing in the
        channel). Raises `PlayerError` as `StatsService.replay` (a game the presser may
        not see is told as a missing one) and REPLAY_TOO_LONG (`bot.ui.replay`)."""
        replay = await self.stats.replay(requester_of(interaction), game_id=game_id)
        view = await replay_view(replay, self.preferences, interaction.user.id)
        file = await replay_file(replay, view, self.announcer.presenter.move_work)
        await Answer.of(interaction).send(replay_text(replay, locale_of(interaction)),
                                          file=file, ephemeral=True)

    async def _accept(self, interaction: Interaction, challenge_id: int) -> None:
        async def closed() -> Challenge | None:
            return await self.challenges.get(challenge_id)

        await self.challenges.accept(
            challenge_id, interaction.user.id, channel_id=channel_of(interaction),
            announce=self.announcer.accepting(interaction, closed),
            place=game_place_of(interaction),
        )


T = TypeVar("T")


def _needed(value: T | None) -> T:
    """A field the pressed component's template always carries (`bot.ui.buttons`)."""
    if value is None:
        raise ValueError("the pressed component does not carry a field its template has")
    return value


def _board(press: Press[GameAction]) -> BoardRef:
    """The board a board button was drawn for: its game and ply."""
    return BoardRef(_needed(press.game_id), _needed(press.ply))
