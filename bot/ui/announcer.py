"""`GameAnnouncer`: shows what the services report, as interaction answers or channel
messages.

The services call an `Announce` callback inside the channel's lock after a change is
committed, and record the board message id it returns (`GameService._announce`). This
module makes those callbacks: `answering(interaction)` answers the interaction with the
update (its board), and `announce` posts an update to its channel (the computer's moves
and deadlines, which no interaction asked for). Every text and embed comes from the
`Presenter`. The board that an update replaces loses its buttons.

A game in an INTERACTIONS place (docs/ARCHITECTURE.md, "Places") is never posted to its
channel: the bot is no member there. Its boards carry a move select, and an update no
interaction asked for is shown through the game's most recent interaction while its token
lasts (`bot.ui.tokens.GameTokens`), else owed to the next one (`BoardOwed`).

It is also the scheduler's `DeadlineListener` (`announce`, `challenge_expired`) and the
computer's turns' `announce`. It never
takes a lock: ordering is the services' job.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable, Coroutine
from datetime import timedelta
from typing import Any

import discord

from bot.faults import FaultPoint, reach
from bot.messages import Msg, text
from bot.messages.durations import duration_text
from bot.services import (
    Announce,
    BoardState,
    ChallengePost,
    GameUpdate,
    UpdateKind,
)
from bot.services.games import BoardOwed, ResignQuestion
from bot.services.settings import PreferenceService
from bot.services.web_access import WebLinks
from bot.ui.answer import MENTIONS, Answer
from bot.ui.board_components import board_components
from bot.ui.buttons import (
    accept_draw_view,
    challenge_view,
    resign_question_view,
)
from bot.ui.languages import channel_language, guild_language
from bot.ui.owed_boards import (
    OWED_LOOKBACK,
    board_nonce,
    board_ply,
    is_offer_text,
    is_step_board,
)
from bot.ui.present import (
    MAX_CONTENT,
    Permission,
    Perspective,
    Presenter,
    missing_for_board,
    param,
)
from bot.ui.reading import channel_locale_of, locale_of, place_of
from bot.ui.tokens import GameTokens
from bot.ui.web_links import game_page
from storage import Challenge, PlaceKind

log = logging.getLogger(__name__)

Inter = discord.Interaction[Any]

ChallengeLookup = Callable[[], Awaitable[Challenge | None]]
"""Reads a challenge as it is now (None: it is gone)."""


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
        self.tokens = GameTokens()
        """The interactions of the games in INTERACTIONS places, and their owed boards."""
        self.links: WebLinks | None = None
        """The web face's links: each board's "Game page" button (None: no buttons)."""

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

    def _retire_board(self, state: BoardState, message_id: int | None) -> None:
        """Take the buttons off `state`'s game's board `message_id` (None: none), in the
        background. In an INTERACTIONS place only while the token of the interaction that
        sent it lasts: after that a press on them is answered "out of date"."""
        if message_id is None:
            return
        if state.place is PlaceKind.INTERACTIONS:
            answer = self.tokens.of_board(message_id)
            if answer is not None:
                self.later(self._edit_through(answer, message_id, None))
            return
        channel = self.client.get_partial_messageable(state.channel_id)
        self.later(self.strip_buttons(channel.get_partial_message(message_id)))

    async def _edit_through(self, answer: Answer, message_id: int,
                            view: discord.ui.View | None) -> None:
        """Set the components of message `message_id`, which `answer`'s interaction sent
        or edited, through that interaction's token; failures are ignored."""
        reach(FaultPoint.BUTTONS_REMOVE)
        with contextlib.suppress(discord.HTTPException):
            await answer.interaction.followup.edit_message(message_id, view=view)
        reach(FaultPoint.BUTTONS_REMOVED)

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
        message_id = state.board_message_id
        if message_id is None or state.is_over:
            return
        answer = (self.tokens.of_board(message_id)
                  if state.place is PlaceKind.INTERACTIONS else None)
        if state.place is PlaceKind.INTERACTIONS and answer is None:
            return  # its token ran out: the offer's own text carries Accept draw
        message = self.client.get_partial_messageable(state.channel_id).get_partial_message(
            message_id)

        async def relabel() -> None:
            view = await board_components(state, locale, await self.viewpoint(state),
                                        self.presenter.move_work, await self._page(state))
            if answer is not None:
                await self._edit_through(answer, message_id, view)
                return
            with contextlib.suppress(discord.HTTPException):
                await message.edit(view=view)

        self.later(relabel())

    def show_pages(self, links: WebLinks) -> None:
        """Put the "Game page" link button of `links` under every board from now on (the
        client calls it once the web face's secret is read, `bot.client`)."""
        self.links = links

    async def _page(self, state: BoardState) -> str | None:
        """The URL of `state`'s game page, None when it has none."""
        return await game_page(self.links, state.game_id, state.guild_id)

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
            state = update.state
            if state.place is PlaceKind.INTERACTIONS:
                self.tokens.remember(state.game_id, state.channel_id, answer)
                owed = self.tokens.take_owed(state.game_id)
                if owed is not None and update.kind is not UpdateKind.SHOWN:
                    # The board owed to this interaction first (a /board shows it anyway).
                    await self._show_past(owed, locale, answer)
            return await self._post_safely(update, locale, answer, reader=reader)

        return announce

    def moving_in_place(self, interaction: Inter) -> Announce:
        """The `Announce` callback of a move picked in a board's move select: the new
        board replaces the pressed one (an UPDATE_MESSAGE answer, which needs no channel
        access), in the channel's language; returns the pressed message's id. Another
        update (no board), or an edit that fails, is answered as by `answering`."""
        answer = Answer.of(interaction)
        locale = channel_locale_of(interaction)
        answering = self.answering(interaction)
        pressed = interaction.message

        async def announce(update: GameUpdate) -> int | None:
            state = update.state
            if pressed is None or not update.shows_board:
                return await answering(update)
            self.tokens.take_owed(state.game_id)  # older than the pressed board in play
            view = await self.viewpoint(state)
            try:
                content, picture, buttons = await self._board_parts(update, locale, answer,
                                                                    view)
                reach(FaultPoint.BOARD_POST)
                await answer.update_message(content, view=buttons, **picture)
                reach(FaultPoint.BOARD_POSTED)
            except Exception:
                log.exception("game %s: editing board %s in place failed; answered with a "
                              "new board", state.game_id, pressed.id)
                return await answering(update)
            if state.place is PlaceKind.INTERACTIONS:
                self.tokens.remember(state.game_id, state.channel_id, answer, pressed.id)
            if update.kind is not UpdateKind.SHOWN:
                self._retire_board(state, self._offers.pop(state.game_id, None))
            return pressed.id

        return announce

    async def announce(self, update: GameUpdate) -> int | None:
        """Post `update` to its channel (no interaction asked for it); returns the board
        message id (None without a board). In an INTERACTIONS place it is sent through
        the game's most recent interaction while that can still send a message; else it
        is owed to the next one: raises `BoardOwed`."""
        state = update.state
        if state.place is PlaceKind.INTERACTIONS:
            answer = self.tokens.latest(state.game_id)
            if answer is None:
                self.tokens.owe(update)
                raise BoardOwed
            return await self._post_safely(update, channel_locale_of(answer.interaction),
                                           answer)
        locale = await self._channel_locale(state.channel_id)
        return await self._post_safely(update, locale, None)

    async def _show_past(self, update: GameUpdate, locale: str | None,
                         answer: Answer) -> None:
        """Show an owed step's board through `answer`, without components (a later
        board follows); a failure is logged."""
        view = await self.viewpoint(update.state)
        try:
            missing = self._missing(answer, update.state.channel_id)
            if missing:
                await answer.send(self.presenter.text_board(update, locale, view,
                                                            missing)[:MAX_CONTENT])
                return
            board = await self.presenter.board_message(update, locale, view)
            await answer.send(board.content, embed=board.embed, file=board.file())
        except Exception:
            log.exception("game %s: showing its owed board of ply %s failed",
                          update.state.game_id, update.state.ply)

    async def computer_delayed(self, channel_id: int, wait: timedelta) -> None:
        """Tell the channel that the computer is busy and will move there in about `wait`
        (the computer's turns' `delayed` callback): through the game's most recent
        interaction in an INTERACTIONS place (not at all when it can send no more).
        Raises discord.HTTPException when the message cannot be sent (the caller logs
        it)."""
        answer = self.tokens.latest_in(channel_id)
        if answer is not None:
            locale = channel_locale_of(answer.interaction)
            await answer.send(text(Msg.COMPUTER_DELAYED, locale,
                                   wait=duration_text(wait, locale)))
            return
        if self.tokens.answers_only(channel_id):
            return
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
            self._retire_board(update.state, update.previous_board_message_id)
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
                if state.place is PlaceKind.INTERACTIONS:
                    self.tokens.remember(state.game_id, state.channel_id, answer, offer)
            else:
                channel = self.client.get_partial_messageable(state.channel_id)
                offer = (await channel.send(content, view=buttons,
                                            allowed_mentions=MENTIONS)).id
            reach(FaultPoint.BOARD_POSTED)
            if offer is not None:
                self._offers[state.game_id] = offer
            self._relabel_board(state, locale)
            return None
        content, picture, buttons = await self._board_parts(update, locale, answer, view)
        reach(FaultPoint.BOARD_POST)
        if answer is not None:
            message_id = await answer.send(content, view=buttons, **picture)
            if state.place is PlaceKind.INTERACTIONS:
                self.tokens.remember(state.game_id, state.channel_id, answer, message_id)
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
            self._retire_board(state, update.previous_board_message_id)
        if update.kind is not UpdateKind.SHOWN:
            # A new step: the draw offer's text, drawn for an earlier ply, is out of date
            # (the offer, while it stands, is accepted on this board).
            self._retire_board(state, self._offers.pop(state.game_id, None))
        return message_id

    async def _board_parts(
        self, update: GameUpdate, locale: str | None, answer: Answer | None,
        view: Perspective,
    ) -> tuple[str, dict[str, Any], discord.ui.View]:
        """The content, picture (embed and file; none where the bot lacks Attach Files or
        Embed Links: the board as text, saying why) and components of `update`'s board."""
        state = update.state
        buttons = await board_components(state, locale, view, self.presenter.move_work,
                                         await self._page(state))
        missing = self._missing(answer, state.channel_id)
        if missing:
            return self.presenter.text_board(update, locale, view, missing), {}, buttons
        board = await self.presenter.board_message(update, locale, view)
        return board.content, {"embed": board.embed, "file": board.file()}, buttons

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
        if state.place is PlaceKind.INTERACTIONS:
            targets = [answer] if answer is not None else []  # never the channel there
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
        if state.place is PlaceKind.INTERACTIONS and update.shows_board:
            self.tokens.owe(update)  # shown with the game's next interaction
            raise BoardOwed
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
            if place_of(interaction) is PlaceKind.INTERACTIONS:
                self.tokens.remember_message(challenge.channel_id, message_id,
                                             Answer.of(interaction, watch=False))
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
        """Show an expired challenge as such on its message (the scheduler's listener): in
        an INTERACTIONS place through the token of the interaction that posted it, while
        that lasts (else the message stays; its buttons answer that it is closed). A
        challenge without a server is in such a place (a DM or group DM between users: the
        bot's own DM takes none, `bot.ui.reading.challenge_place_of`), known so after a
        restart too. In the channel's language (the server's; in a DM, as the interaction
        that posted it)."""
        if challenge.message_id is None:
            return
        answer = self.tokens.of_board(challenge.message_id)
        if answer is not None:
            embed = self.presenter.challenge_embed(challenge,
                                                   channel_locale_of(answer.interaction))
            with contextlib.suppress(discord.HTTPException):
                await answer.interaction.followup.edit_message(challenge.message_id,
                                                               embed=embed, view=None)
            return
        if challenge.guild_id is None or self.tokens.answers_only(challenge.channel_id):
            return
        embed = self.presenter.challenge_embed(
            challenge, await guild_language(self.client, self.settings, challenge.guild_id))
        channel = self.client.get_partial_messageable(challenge.channel_id)
        message = channel.get_partial_message(challenge.message_id)
        with contextlib.suppress(discord.HTTPException):
            await message.edit(embed=embed, view=None)
