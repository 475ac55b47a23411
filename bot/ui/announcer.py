"""`GameAnnouncer`: shows what the services report, as interaction answers or channel
messages.

The services call an `Announce` callback inside the channel's lock after a change is
committed, and record the board message id it returns (`GameService._announce`). This
module makes those callbacks: `answering(interaction)` answers the interaction with the
update (its board), and `announce` posts an update to its channel (the computer's moves
and deadlines, which no interaction asked for). Every text and embed comes from the
`Presenter`. The board that an update replaces loses its buttons.

It is also the scheduler's `DeadlineListener` (`announce`, `challenge_expired`) and the
computer's turns' `announce`. It never
takes a lock: ordering is the services' job.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import re
from collections.abc import Awaitable, Callable, Coroutine
from datetime import timedelta
from typing import Any

import discord

from bot.faults import FaultPoint, reach
from bot.messages import Msg, text
from bot.services import Announce, BoardState, ChallengePost, GameUpdate, UpdateKind
from bot.services.games import ResignQuestion
from bot.services.settings import PreferenceService
from bot.ui.analysis import AnalyzeButton
from bot.ui.answer import MENTIONS, Answer
from bot.ui.buttons import (
    accept_draw_view,
    board_view,
    challenge_view,
    finished_view,
    resign_question_view,
)
from bot.ui.languages import channel_language
from bot.ui.present import (
    ENDED_COLOUR,
    MAX_CONTENT,
    Permission,
    Perspective,
    Presenter,
    duration_text,
    missing_for_board,
    param,
)
from bot.ui.reading import channel_locale_of, locale_of
from storage import Challenge

log = logging.getLogger(__name__)

Inter = discord.Interaction[Any]

ChallengeLookup = Callable[[], Awaitable[Challenge | None]]
"""Reads a challenge as it is now (None: it is gone)."""


def board_nonce(state: BoardState) -> str:
    """The Discord message nonce of the board of `state`'s step: the same for every
    attempt to post that board (one per game, ply, status and standing draw offer), at
    most 25 characters (Discord's limit), so `enforce_nonce` lets Discord return a board
    it already has."""
    offer = "" if state.draw_offer_by is None else state.draw_offer_by.value[0]
    nonce = f"dama{state.game_id}.{state.ply}.{state.status.value[0]}{offer}"
    if len(nonce) > 25:
        raise ValueError(f"board nonce {nonce!r} is longer than Discord's 25 characters")
    return nonce


OWED_LOOKBACK = 25
"""How many of a channel's newest messages are searched for an owed board Discord already
has (`GameAnnouncer.announce_owed`)."""

_BOARD_BUTTON = re.compile(r"^dama:[a-z]+:(?P<game>[0-9]+):(?P<ply>[0-9]+)$")


def board_ply(message: discord.Message, game_id: int) -> int | None:
    """The ply that `message`'s buttons were drawn for in game `game_id` (None: no such
    buttons)."""
    for row in message.components:
        for child in getattr(row, "children", ()):
            match = _BOARD_BUTTON.match(getattr(child, "custom_id", None) or "")
            if match and int(match["game"]) == game_id:
                return int(match["ply"])
    return None


def is_step_board(message: discord.Message, state: BoardState, bot_id: int,
                  previous: int | None) -> bool:
    """Whether `message` is the board of `state`'s step, posted by the bot (`bot_id`)
    after the game's previous board (`previous`, None: unknown): for an active game, a
    board whose buttons name the game and this ply; for an ended one, a board of the game
    in the ended colour (only its final board has it) newer than `previous`.
    Language-independent: ids, ply, colour, the `#<id>` of the title."""
    if message.author.id != bot_id or (previous is not None and message.id <= previous):
        return False
    if not state.is_over:
        return board_ply(message, state.game_id) == state.ply
    return any(
        embed.colour == ENDED_COLOUR and re.search(rf"#{state.game_id}\b", embed.title or "")
        for embed in message.embeds
    )


def is_offer_text(message: discord.Message, state: BoardState) -> bool:
    """Whether `message` (the bot's, newer than the game's board) is the text that told
    `state`'s standing draw offer: no embed, no file, the offerer mentioned. At one ply a
    game has at most one offer (a second is refused, a move ends it), so no other text of
    the bot newer than that ply's board names the offerer."""
    offerer = None if state.draw_offer_by is None else state.seat(state.draw_offer_by).user_id
    return (offerer is not None and not message.embeds and not message.attachments
            and f"<@{offerer}>" in message.content)


class GameAnnouncer:
    """Posts updates and challenges. `client` sends messages outside interactions;
    `settings` gives each reader's board side and notation (None: the defaults)."""

    def __init__(self, client: discord.Client, presenter: Presenter,
                 settings: PreferenceService | None = None) -> None:
        self.client = client
        self.presenter = presenter
        self.settings = settings
        self._background: set[asyncio.Task[None]] = set()
        self._offers: dict[int, int] = {}
        """Each game's standing draw offer text (its message id), whose Accept draw acts
        only at the ply it was offered at: the next step's board takes it away."""

    async def viewpoint(self, state: BoardState, reader: int | None = None) -> Perspective:
        """How the board of `state` is drawn and written for `reader` (a user id): from
        their preferred side, else the side they play, else the side to move; Italian in
        their notation. `reader` None: a board meant for both players, drawn for the
        player who must answer it (the person to move; against the computer, the person).
        A failure to read the preferences is logged and the defaults are used."""
        if reader is None:
            seat = state.to_move if state.to_move.user_id is not None else state.seat(
                state.turn.opponent)
            reader = seat.user_id
        if reader is None or self.settings is None:
            return Perspective(side=state.turn)
        try:
            preferences = await self.settings.player(reader)
        except Exception:
            log.exception("reading the preferences of user %s failed: defaults used", reader)
            return Perspective(side=state.turn)
        playing = next((seat.color for seat in (state.white, state.black)
                        if seat.user_id == reader), None)
        return Perspective(preferences.side(playing, state.turn), preferences.numeric)

    # --- background edits -----------------------------------------------------------------

    def later(self, coro: Coroutine[Any, Any, None]) -> None:
        """Run `coro` in the background (an edit nobody waits for); `drain` waits."""
        task: asyncio.Task[None] = asyncio.create_task(coro, name="dama-background")
        self._background.add(task)
        task.add_done_callback(self._background.discard)

    async def drain(self) -> None:
        """Wait for the background edits (tests, shutdown)."""
        while self._background:
            await asyncio.gather(*list(self._background), return_exceptions=True)

    async def strip_buttons(self, message: discord.Message | discord.PartialMessage) -> None:
        """Remove a message's buttons (it is out of date); failures are ignored."""
        reach(FaultPoint.BUTTONS_REMOVE)
        with contextlib.suppress(discord.HTTPException):
            await message.edit(view=None)
        reach(FaultPoint.BUTTONS_REMOVED)

    def _retire_board(self, channel_id: int, message_id: int | None) -> None:
        if message_id is None:
            return
        channel = self.client.get_partial_messageable(channel_id)
        self.later(self.strip_buttons(channel.get_partial_message(message_id)))

    def _missing(self, answer: Answer | None, channel_id: int) -> tuple[Permission, ...]:
        """The permissions a board picture needs that the bot lacks where it is going: the
        interaction's `app_permissions` for an answer; for a channel post, the bot's
        permissions in the cached channel (none missing when it is not cached)."""
        if answer is not None:
            return missing_for_board(answer.interaction.app_permissions)
        channel = self.client.get_channel(channel_id)
        if isinstance(channel, discord.abc.GuildChannel) and channel.guild.me is not None:
            return missing_for_board(channel.permissions_for(channel.guild.me))
        return ()

    def _relabel_board(self, state: BoardState, locale: str | None) -> None:
        """Redraw the buttons of `state`'s board (a draw was offered: Accept draw)."""
        if state.board_message_id is None or state.is_over:
            return
        people = state.white.user_id is not None and state.black.user_id is not None
        view = board_view(state.game_id, state.ply, locale, draw=people,
                          draw_offered=state.draw_offer_by is not None)
        message = self.client.get_partial_messageable(state.channel_id).get_partial_message(
            state.board_message_id)

        async def relabel() -> None:
            with contextlib.suppress(discord.HTTPException):
                await message.edit(view=view)

        self.later(relabel())

    # --- game updates ----------------------------------------------------------------------

    async def _channel_locale(self, channel_id: int) -> str:
        """The language of a post to `channel_id` no interaction asked for."""
        return await channel_language(self.client, self.settings, channel_id)

    def answering(self, interaction: Inter) -> Announce:
        """The `Announce` callback that answers `interaction` with the update, in the
        channel's language: a board or a game's news is for everyone there."""
        answer = Answer.of(interaction)
        locale = channel_locale_of(interaction)

        async def announce(update: GameUpdate) -> int | None:
            # A board shown again (/board) is the caller's; any other is for both players.
            reader = interaction.user.id if update.kind is UpdateKind.SHOWN else None
            return await self._post_safely(update, locale, answer, reader=reader)

        return announce

    async def announce(self, update: GameUpdate) -> int | None:
        """Post `update` to its channel (no interaction asked for it); returns the board
        message id (None without a board)."""
        locale = await self._channel_locale(update.state.channel_id)
        return await self._post_safely(update, locale, None)

    async def computer_delayed(self, channel_id: int, wait: timedelta) -> None:
        """Tell the channel that the computer is busy and will move there in about `wait`
        (the computer's turns' `delayed` callback). Raises discord.HTTPException when the
        message cannot be sent (the caller logs it)."""
        channel = self.client.get_partial_messageable(channel_id)
        locale = await self._channel_locale(channel_id)
        await channel.send(text(Msg.COMPUTER_DELAYED, locale, wait=duration_text(wait, locale)),
                           allowed_mentions=MENTIONS)

    async def announce_owed(self, update: GameUpdate) -> int | None:
        """Post the board of a step stored before a restart but never shown (start-up,
        `GameService.post_owed_boards`) to its channel, after a line saying so, with the
        step's `board_nonce` and `enforce_nonce`: if Discord received this board before
        (its message id was never recorded) it returns that message instead of creating
        another, within its nonce window. Before that, the channel's newest messages are
        searched for this step's board (`is_step_board`): an interaction answer carries no
        nonce, so a board that answered the step's interaction just before the crash is
        found there and its id returned, nothing posted. Returns the board message id."""
        found = await self._posted_board(update)
        if found is None:
            locale = await self._channel_locale(update.state.channel_id)
            return await self._post_safely(update, locale, None, owed=True)
        log.info("game %s: the step of ply %s was already shown (message %s)",
                 update.state.game_id, update.state.ply, found.id)
        if is_offer_text(found, update.state):
            # Told by its text: the board of this ply stays the game's board.
            return update.previous_board_message_id
        if update.previous_board_message_id != found.id:
            self._retire_board(update.state.channel_id, update.previous_board_message_id)
        return found.id

    async def _posted_board(self, update: GameUpdate) -> discord.Message | None:
        """`update`'s step board among the channel's `OWED_LOOKBACK` newest messages, or
        the text of its draw offer when the step was that offer (the game's board, among
        them, shows the same ply: no move came since), or None (also when the history
        cannot be read: the board is then posted, at least once rather than at most once)."""
        state = update.state
        if not update.shows_board or self.client.user is None:
            return None
        channel = self.client.get_partial_messageable(state.channel_id)
        previous = update.previous_board_message_id
        try:
            recent = [m async for m in channel.history(limit=OWED_LOOKBACK)]
        except Exception as error:  # a failed search never keeps the board from being posted
            log.warning("game %s: channel %s's history cannot be read (%r); its owed board "
                        "is posted", state.game_id, state.channel_id, error)
            return None
        offer_step = any(m.id == previous and board_ply(m, state.game_id) == state.ply
                         for m in recent)
        for message in recent:  # newest first
            if is_step_board(message, state, self.client.user.id, previous):
                return message
            if (offer_step and message.author.id == self.client.user.id
                    and (previous is None or message.id > previous)
                    and is_offer_text(message, state)):
                return message
        return None

    async def _post_update(
        self, update: GameUpdate, locale: str | None, answer: Answer | None,
        owed: bool = False, view: Perspective | None = None,
    ) -> int | None:
        """Send `update` as an interaction answer (`answer`) or to its channel (`owed`: an
        owed board, after the restart line, with its nonce), drawn and written for `view`."""
        state = update.state
        view = view or Perspective(side=state.turn)
        prefix = text(Msg.AFTER_RESTART, locale) + "\n" if owed else ""
        if not update.shows_board:
            # A draw offer: the text carries Accept draw, and the board's draw button is
            # relabelled Accept draw (both act only at this ply).
            content = prefix + self.presenter.headline(update, locale, view)
            buttons = accept_draw_view(state.game_id, state.ply, locale)
            reach(FaultPoint.BOARD_POST)
            if answer is not None:
                offer = await answer.send(content, view=buttons)
            else:
                channel = self.client.get_partial_messageable(state.channel_id)
                offer = (await channel.send(content, view=buttons,
                                            allowed_mentions=MENTIONS)).id
            reach(FaultPoint.BOARD_POSTED)
            if offer is not None:
                self._offers[state.game_id] = offer
            self._relabel_board(state, locale)
            return None
        people = state.white.user_id is not None and state.black.user_id is not None
        buttons = (finished_view(state.game_id, locale) if state.is_over
                   else board_view(state.game_id, state.ply, locale, draw=people,
                                   draw_offered=state.draw_offer_by is not None))
        if state.is_over and state.ply > 0:
            buttons.add_item(AnalyzeButton(state.game_id, locale))
        missing = self._missing(answer, state.channel_id)
        picture: dict[str, Any]
        if missing:
            # No picture or embed can be shown here: the board as text, saying why.
            content = self.presenter.text_board(update, locale, view, missing)
            picture = {}
        else:
            board = await self.presenter.board_message(update, locale, view)
            content = board.content
            picture = {"embed": board.embed, "file": board.file()}
        reach(FaultPoint.BOARD_POST)
        if answer is not None:
            message_id = await answer.send(content, view=buttons, **picture)
        else:
            channel = self.client.get_partial_messageable(state.channel_id)
            # discord.py sends `enforce_nonce` with every nonce; without one it picks a
            # random nonce itself.
            nonce: dict[str, Any] = {"nonce": board_nonce(state)} if owed else {}
            sent = await channel.send((prefix + content)[:MAX_CONTENT],
                                      view=buttons or discord.utils.MISSING,
                                      allowed_mentions=MENTIONS, **picture, **nonce)
            message_id = sent.id
        reach(FaultPoint.BOARD_POSTED)
        if update.previous_board_message_id != message_id:
            self._retire_board(state.channel_id, update.previous_board_message_id)
        if update.kind is not UpdateKind.SHOWN:
            # A new step: the draw offer's text, drawn for an earlier ply, is out of date
            # (the offer, while it stands, is accepted on this board).
            self._retire_board(state.channel_id, self._offers.pop(state.game_id, None))
        return message_id

    async def _post_safely(
        self, update: GameUpdate, locale: str | None, answer: Answer | None,
        owed: bool = False, reader: int | None = None,
    ) -> int | None:
        """`_post_update`, for a change already committed. If answering the interaction
        fails (e.g. Discord no longer knows it), the board goes to the channel instead; if
        the board cannot be shown at all (rendering), a text says what happened and that
        /board shows it, instead of an error claiming nothing changed. Failures are logged
        with the game, user and channel ids."""
        state = update.state
        view = await self.viewpoint(state, reader)
        targets: list[Answer | None] = [answer, None] if answer is not None else [None]
        for target in targets:
            try:
                return await self._post_update(update, locale, target, owed, view)
            except Exception:
                log.exception("showing game %s failed after the change was saved: event=%s "
                              "user=%s channel=%s via=%s", state.game_id, update.kind.value,
                              update.actor, state.channel_id,
                              "channel" if target is None else "interaction")
        note = "\n".join((self.presenter.headline(update, locale, view),
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

    async def stale_board(self, interaction: Inter, current: BoardState, note: str) -> None:
        """Answer a press on an out-of-date board privately with `note` and the game's
        current board (picture and embed, no buttons; as text where the bot lacks Attach
        Files or Embed Links). Raises what rendering or sending raises
        (`discord.HTTPException`...)."""
        locale = locale_of(interaction)
        shown = GameUpdate(UpdateKind.SHOWN, current, None, None, None)
        view = await self.viewpoint(current, interaction.user.id)
        answer = Answer.of(interaction, watch=False)
        missing = missing_for_board(interaction.app_permissions)
        if missing:
            board_text = self.presenter.text_board(shown, locale, view, missing)
            await answer.send(f"{note}\n{board_text}"[:MAX_CONTENT], ephemeral=True)
            return
        board = await self.presenter.board_message(shown, locale, view)
        await answer.send(note, embed=board.embed, file=board.file(), ephemeral=True)

    # --- the resign question ----------------------------------------------------------------

    async def ask_resign(self, interaction: Inter, question: ResignQuestion, asked: int) -> None:
        """Ask the resigner privately "Resign game #7 against @bob?" with Resign and Keep
        playing (the question was asked at `asked`, Unix seconds). Raises what sending
        raises (`discord.HTTPException`)."""
        locale = locale_of(interaction)
        content = text(Msg.RESIGN_QUESTION, locale, game_id=question.game_id,
                       opponent=param(question.opponent, locale))
        await Answer.of(interaction).send(
            content, view=resign_question_view(question.game_id, question.ply, asked,
                                               interaction.user.id, locale),
            ephemeral=True,
        )

    async def resign_kept(self, interaction: Inter, game_id: int) -> None:
        """Close the resign question (the pressed message): the player plays on. The
        question is always private; a press on a message that is not (a forged
        `custom_id` on a board) is answered privately and changes no message."""
        note = text(Msg.RESIGN_KEPT, locale_of(interaction), game_id=game_id)
        message = interaction.message
        if message is None or not message.flags.ephemeral:
            await Answer.of(interaction).send(note, ephemeral=True)
            return
        await Answer.of(interaction).update_message(note, view=None)

    # --- challenges ------------------------------------------------------------------------

    def posting_challenge(self, interaction: Inter) -> ChallengePost:
        """The callback that answers `interaction` with a new challenge (its embed and
        buttons, in the channel's language) and returns the message id."""
        locale = channel_locale_of(interaction)

        async def post(challenge: Challenge) -> int | None:
            message_id = await Answer.of(interaction).send(
                self.presenter.challenge_content(challenge),
                embed=self.presenter.challenge_embed(challenge, locale),
                view=challenge_view(challenge.id, locale),
            )
            if message_id is None:
                message_id = (await interaction.original_response()).id
            return message_id

        return post

    async def close_challenge(self, interaction: Inter, closed: Challenge) -> None:
        """Show a challenge's final state on its message (the pressed one), buttons gone.
        Raises `discord.HTTPException` when the message cannot be edited."""
        await Answer.of(interaction).update_message(
            self.presenter.challenge_content(closed),
            embed=self.presenter.challenge_embed(closed, channel_locale_of(interaction)),
            view=None,
        )

    def accepting(self, interaction: Inter, closed: ChallengeLookup) -> Announce:
        """The `Announce` callback of an accepted challenge: the challenge message shows
        it accepted (`closed()` reads it), then the first board answers `interaction`."""
        game_answer = self.answering(interaction)

        async def announce(update: GameUpdate) -> int | None:
            challenge = await closed()
            if challenge is not None:
                try:
                    reach(FaultPoint.CHALLENGE_EDIT)
                    await self.close_challenge(interaction, challenge)
                    reach(FaultPoint.CHALLENGE_EDITED)
                except discord.HTTPException:
                    # The game exists now: show it anyway (the board goes to the channel).
                    log.exception("updating challenge %s after its acceptance failed",
                                  challenge.id)
                    if interaction.message is not None:
                        self.later(self.strip_buttons(interaction.message))
            return await game_answer(update)

        return announce

    async def challenge_expired(self, challenge: Challenge) -> None:
        """Show an expired challenge as such on its message (the scheduler's listener)."""
        if challenge.message_id is None:
            return
        channel = self.client.get_partial_messageable(challenge.channel_id)
        message = channel.get_partial_message(challenge.message_id)
        with contextlib.suppress(discord.HTTPException):
            await message.edit(embed=self.presenter.challenge_embed(challenge, None), view=None)
