"""`Table`: where interactions meet the services.

Each method reads the interaction, calls one service method, renders the result with
the `Presenter` and replies through the interaction's `Answer`. Slash commands (cogs) and
buttons both call these methods. The board is answered inside the service's channel lock
(the service calls our `announce` after committing), so boards appear in move order, and
the message id of each new board is stored; the previous board loses its buttons.

`report_error` is the one error handler: a `PlayerError` becomes a short ephemeral answer
from the catalog; anything else is logged with the command, user and channel ids and
answered with a generic ephemeral message. The game is never changed by a failed answer:
services commit before announcing, and refuse before changing anything.

The `Table` is also the scheduler's `DeadlineListener`: it edits expired challenges and
posts boards of games ended or moved by a deadline.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import Any

import discord
from discord import app_commands

from bot.config import MoveTime
from bot.messages import Msg, text
from bot.services import (
    Announce,
    BoardState,
    ChallengeService,
    Event,
    GameService,
    GameUpdate,
    Person,
    PlayerError,
)
from bot.services.games import suggest_moves
from bot.ui.answer import MENTIONS, Answer
from bot.ui.buttons import board_view, challenge_view
from bot.ui.present import Presenter, param
from storage import Challenge, ColorChoice

log = logging.getLogger(__name__)

Inter = discord.Interaction[Any]

SUGGEST_BUDGET = 2.0
"""Seconds `/move`'s autocomplete may spend (Discord drops answers after 3)."""

_RETIRED = (Msg.STALE_BOARD, Msg.GAME_OVER, Msg.CHALLENGE_CLOSED, Msg.CHALLENGE_UNKNOWN)
"""Refusals of a button press meaning its message is out of date: its buttons go."""


def _consume(future: asyncio.Future[Any]) -> None:
    """Retrieve a background future's outcome (so a late failure is logged, not warned)."""
    if not future.cancelled() and future.exception() is not None:
        log.error("autocomplete failed late", exc_info=future.exception())


def locale_of(interaction: Inter) -> str:
    return str(interaction.locale)


def person(user: discord.abc.User) -> Person:
    return Person(user.id, user.display_name, user.bot)


MAX_CONTENT = 2000
"""Discord refuses message content longer than this (the answer would be lost)."""


def error_text(
    error: PlayerError, locale: str | None, presenter: Presenter | None = None
) -> str:
    """The refusal's text in `locale`, cut to what Discord accepts (a long list of
    ambiguous candidates must not make the answer fail). A finished game's `BoardState`
    parameter becomes its result text (through `presenter`)."""
    params = {
        name: presenter.result_text(value, locale)
        if presenter is not None and isinstance(value, BoardState) else param(value, locale)
        for name, value in error.params.items()
    }
    message = text(error.key, locale, **params)
    if len(message) > MAX_CONTENT:
        message = message[: MAX_CONTENT - 1] + "…"
    return message


class Table:
    """Discord-side game flow. `client` sends messages outside interactions (deadlines)."""

    def __init__(
        self,
        client: discord.Client,
        games: GameService,
        challenges: ChallengeService,
        presenter: Presenter,
    ) -> None:
        self.client = client
        self.games = games
        self.challenges = challenges
        self.presenter = presenter
        self._background: set[asyncio.Task[None]] = set()

    # --- errors -------------------------------------------------------------------------

    def autocomplete_failed(self, interaction: Inter, error: BaseException) -> None:
        """Log a failed autocomplete with the command, user, channel and guild ids (the
        caller then answers it with no choices)."""
        command = interaction.command.qualified_name if interaction.command else None
        log.error("autocomplete failed: command=%s user=%s channel=%s guild=%s", command,
                  interaction.user.id, interaction.channel_id, interaction.guild_id,
                  exc_info=error)

    async def report_error(self, interaction: Inter, error: BaseException) -> None:
        """Answer a failed interaction: the player's mistake, or a generic apology (and a
        log line with the command, user and channel ids)."""
        original = error
        if isinstance(error, app_commands.CommandInvokeError):
            original = error.original
        locale = locale_of(interaction)
        if interaction.type is discord.InteractionType.autocomplete:
            self.autocomplete_failed(interaction, original)
            with contextlib.suppress(discord.HTTPException, discord.InteractionResponded):
                await interaction.response.autocomplete([])
            return
        if isinstance(original, PlayerError):
            message = error_text(original, locale, self.presenter)
            if original.key in _RETIRED and interaction.message is not None:
                self._later(self._strip_buttons(interaction.message))
        elif isinstance(original, app_commands.NoPrivateMessage):
            message = text(Msg.GUILD_ONLY, locale)
        else:
            command = interaction.command.qualified_name if interaction.command else None
            data: dict[str, Any] = dict(interaction.data or {})
            custom_id = data.get("custom_id")
            log.error(
                "interaction failed: command=%s custom_id=%s user=%s channel=%s guild=%s",
                command, custom_id, interaction.user.id, interaction.channel_id,
                interaction.guild_id, exc_info=original,
            )
            message = text(Msg.UNEXPECTED, locale)
        try:
            await Answer.of(interaction, watch=False).send(message, ephemeral=True)
        except discord.HTTPException:
            log.warning("could not answer interaction %s with an error message", interaction.id)

    # --- background edits -----------------------------------------------------------------

    def _later(self, coro: Any) -> None:
        task: asyncio.Task[None] = asyncio.create_task(coro, name="dama-background")
        self._background.add(task)
        task.add_done_callback(self._background.discard)

    async def drain(self) -> None:
        """Wait for the background edits (tests, shutdown)."""
        while self._background:
            await asyncio.gather(*list(self._background), return_exceptions=True)

    async def _strip_buttons(self, message: discord.Message | discord.PartialMessage) -> None:
        with contextlib.suppress(discord.HTTPException):
            await message.edit(view=None)

    def _retire_board(self, channel_id: int, message_id: int | None) -> None:
        if message_id is None:
            return
        channel = self.client.get_partial_messageable(channel_id)
        self._later(self._strip_buttons(channel.get_partial_message(message_id)))

    # --- announcing updates -------------------------------------------------------------

    async def _post_update(
        self, update: GameUpdate, locale: str | None, answer: Answer | None
    ) -> int | None:
        """Send `update` as an interaction answer (`answer`) or to its channel."""
        state = update.state
        if not update.shows_board:
            content = self.presenter.headline(update, locale)
            if answer is not None:
                await answer.send(content)
            else:
                channel = self.client.get_partial_messageable(state.channel_id)
                await channel.send(content, allowed_mentions=MENTIONS)
            return None
        board = await self.presenter.board_message(update, locale)
        people = state.white.user_id is not None and state.black.user_id is not None
        view = None if state.is_over else board_view(state.game_id, locale, draw=people)
        if answer is not None:
            message_id = await answer.send(board.content, embed=board.embed, file=board.file(),
                                           view=view)
        else:
            channel = self.client.get_partial_messageable(state.channel_id)
            sent = await channel.send(board.content, embed=board.embed, file=board.file(),
                                      view=view or discord.utils.MISSING,
                                      allowed_mentions=MENTIONS)
            message_id = sent.id
        if update.previous_board_message_id != message_id:
            self._retire_board(state.channel_id, update.previous_board_message_id)
        return message_id

    async def _post_safely(
        self, update: GameUpdate, locale: str | None, answer: Answer | None
    ) -> int | None:
        """`_post_update`, for a change already committed. If answering the interaction
        fails (e.g. Discord no longer knows it), the board goes to the channel instead; if
        the board cannot be shown at all (rendering), a text says what happened and that
        /board shows it, instead of an error claiming nothing changed. Failures are logged
        with the game, user and channel ids."""
        state = update.state
        targets: list[Answer | None] = [answer, None] if answer is not None else [None]
        for target in targets:
            try:
                return await self._post_update(update, locale, target)
            except Exception:
                log.exception("showing game %s failed after the change was saved: event=%s "
                              "user=%s channel=%s via=%s", state.game_id, update.event.value,
                              update.actor, state.channel_id,
                              "channel" if target is None else "interaction")
        note = "\n".join((self.presenter.headline(update, locale),
                          text(Msg.BOARD_NOT_SHOWN, locale)))
        for target in targets:
            try:
                if target is not None:
                    await target.send(note)
                else:
                    channel = self.client.get_partial_messageable(state.channel_id)
                    await channel.send(note, allowed_mentions=MENTIONS)
                return None
            except discord.HTTPException:
                log.warning("could not tell channel %s about game %s", state.channel_id,
                            state.game_id)
        return None

    def announcer(self, interaction: Inter) -> Announce:
        """The `announce` callback that answers `interaction` with the update (its board)."""
        announce: Announce = self._announcer(interaction)
        return announce

    def channel_of(self, interaction: Inter) -> int:
        """The interaction's channel id. Raises `PlayerError(GUILD_ONLY)` outside a server."""
        return self._channel(interaction)

    def _announcer(self, interaction: Inter) -> Any:
        answer = Answer.of(interaction)
        locale = locale_of(interaction)

        async def announce(update: GameUpdate) -> int | None:
            return await self._post_safely(update, locale, answer)

        return announce

    # --- deadline listener -----------------------------------------------------------------

    async def game_update(self, update: GameUpdate) -> int | None:
        return await self._post_safely(update, None, None)

    async def challenge_expired(self, challenge: Challenge) -> None:
        if challenge.message_id is None:
            return
        channel = self.client.get_partial_messageable(challenge.channel_id)
        message = channel.get_partial_message(challenge.message_id)
        with contextlib.suppress(discord.HTTPException):
            await message.edit(embed=self.presenter.challenge_embed(challenge, None), view=None)

    # --- challenges -----------------------------------------------------------------------

    async def challenge(
        self,
        interaction: Inter,
        opponent: discord.abc.User,
        variant: str,
        *,
        rated: bool,
        color: ColorChoice,
        move_time: MoveTime,
    ) -> None:
        channel_id = self._channel(interaction)
        made = await self.challenges.create(
            challenger=person(interaction.user), opponent=person(opponent),
            guild_id=interaction.guild_id, channel_id=channel_id, variant=variant,
            rated=rated, color=color, move_time=move_time,
        )
        locale = locale_of(interaction)
        message_id = await Answer.of(interaction).send(
            self.presenter.challenge_content(made),
            embed=self.presenter.challenge_embed(made, locale),
            view=challenge_view(made.id, locale),
        )
        if message_id is None:
            message_id = (await interaction.original_response()).id
        await self.challenges.set_message(made.id, message_id)

    async def accept(self, interaction: Inter, challenge_id: int) -> None:
        answer = Answer.of(interaction)
        locale = locale_of(interaction)

        async def announce(update: GameUpdate) -> int | None:
            challenge = await self.challenges.get(challenge_id)
            if challenge is not None:
                try:
                    await answer.update_message(
                        self.presenter.challenge_content(challenge),
                        embed=self.presenter.challenge_embed(challenge, locale), view=None,
                    )
                except discord.HTTPException:
                    # The game exists now: show it anyway (the board goes to the channel).
                    log.exception("updating challenge %s after its acceptance failed",
                                  challenge_id)
                    if interaction.message is not None:
                        self._later(self._strip_buttons(interaction.message))
            return await self._post_safely(update, locale, answer)

        await self.challenges.accept(challenge_id, interaction.user.id, announce=announce)

    async def _close_challenge(self, interaction: Inter, closed: Challenge) -> None:
        await Answer.of(interaction).update_message(
            self.presenter.challenge_content(closed),
            embed=self.presenter.challenge_embed(closed, locale_of(interaction)), view=None,
        )

    async def decline(self, interaction: Inter, challenge_id: int) -> None:
        closed = await self.challenges.decline(challenge_id, interaction.user.id)
        await self._close_challenge(interaction, closed)

    async def cancel(self, interaction: Inter, challenge_id: int) -> None:
        closed = await self.challenges.cancel(challenge_id, interaction.user.id)
        await self._close_challenge(interaction, closed)

    # --- games ------------------------------------------------------------------------------

    def _channel(self, interaction: Inter) -> int:
        if interaction.channel_id is None or interaction.guild_id is None:
            raise PlayerError(Msg.GUILD_ONLY)
        return interaction.channel_id

    def _pressed(self, interaction: Inter) -> int | None:
        return interaction.message.id if interaction.message is not None else None

    async def move(self, interaction: Inter, move_text: str) -> None:
        await self.games.play(self._channel(interaction), interaction.user.id, move_text,
                              announce=self._announcer(interaction))

    async def board(self, interaction: Inter) -> None:
        channel_id = self._channel(interaction)
        self.games.current(channel_id)  # NO_GAME_HERE before taking the lock
        async with self.games.locks.hold(channel_id):
            state = self.games.current(channel_id)
            update = GameUpdate(Event.MOVED, state, None, None, state.board_message_id)
            message_id = await self._post_update(update, locale_of(interaction),
                                                 Answer.of(interaction))
            if message_id is not None:
                await self.games.set_board_message_locked(state.game_id, message_id)

    async def resign(self, interaction: Inter, *, game_id: int | None = None) -> None:
        await self.games.resign(
            self._channel(interaction), interaction.user.id, game_id=game_id,
            message_id=self._pressed(interaction) if game_id is not None else None,
            announce=self._announcer(interaction),
        )

    async def draw(self, interaction: Inter, *, game_id: int | None = None) -> None:
        await self.games.draw(
            self._channel(interaction), interaction.user.id, game_id=game_id,
            message_id=self._pressed(interaction) if game_id is not None else None,
            announce=self._announcer(interaction),
        )

    async def abort(self, interaction: Inter) -> None:
        await self.games.abort(
            self._channel(interaction), interaction.user.id,
            may_manage=interaction.permissions.manage_messages,
            announce=self._announcer(interaction),
        )

    async def suggestions(
        self, interaction: Inter, typed: str
    ) -> list[app_commands.Choice[str]]:
        """The caller's moves for `/move`'s autocomplete, computed in a worker thread (the
        event loop stays free) within `SUGGEST_BUDGET` seconds; none if that is not enough
        (the thread finishes anyway and warms the notation cache for the next keystroke)."""
        if interaction.channel_id is None:
            return []
        source = self.games.suggestion_source(interaction.channel_id, interaction.user.id)
        if source is None:
            return []
        work = asyncio.ensure_future(asyncio.to_thread(suggest_moves, *source, typed))
        work.add_done_callback(_consume)
        try:
            found = await asyncio.wait_for(asyncio.shield(work), timeout=SUGGEST_BUDGET)
        except TimeoutError:
            log.warning("autocomplete took over %.1f s: user=%s channel=%s", SUGGEST_BUDGET,
                        interaction.user.id, interaction.channel_id)
            return []
        return [app_commands.Choice(name=c.name, value=c.value) for c in found]
