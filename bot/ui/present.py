"""Turning service values into Discord messages: texts from the catalog, embeds, pictures.

Board pictures are rendered in a worker thread (`asyncio.to_thread`), never on the event
loop. Every text comes from `bot.messages` in the reader's locale.
"""

from __future__ import annotations

import asyncio
import enum
import functools
import io
import logging
from dataclasses import dataclass
from datetime import datetime, timedelta

import discord

from bot.messages import (
    Listing,
    Msg,
    OptionName,
    join_list,
    option_name,
    text,
    variant_in_sentence,
    variant_name,
)
from bot.messages.durations import duration_text
from bot.move_work import MoveWork
from bot.ratings import display_rating
from bot.services import (
    BoardState,
    ComputerRef,
    EndReason,
    GameUpdate,
    PlayerError,
    SeatView,
    UpdateKind,
    UserRef,
)
from bot.services.errors import ChannelRef, Quoted
from bot.services.game_words import END_REASONS, numeric_text
from bot.services.games.clock import left_of, time_control_text
from bot.services.settings import PreferenceService
from bot.ui.text_board import piece_letters
from engine import VARIANTS, Color, Position, Variant
from renderer import render_png, render_text
from storage import Challenge, ChallengeStatus, ColorChoice

log = logging.getLogger(__name__)

BOARD_FILE = "board.png"
MAX_CONTENT = 2000
"""Discord refuses message content longer than this (the answer would be lost)."""
EMBED_COLOUR = discord.Colour(0xB5651D)
ENDED_COLOUR = discord.Colour(0x607D8B)


class Permission(enum.Enum):
    """A channel permission a board message needs; its value is the message of its name
    as Discord's settings show it in the reader's language (`Msg.PERMISSION_*`)."""

    ATTACH_FILES = Msg.PERMISSION_ATTACH_FILES
    EMBED_LINKS = Msg.PERMISSION_EMBED_LINKS


def missing_for_board(permissions: discord.Permissions) -> tuple[Permission, ...]:
    """The permissions a board message needs (its picture and embed) that `permissions`
    (the bot's in the channel) lack."""
    missing: list[Permission] = []
    if not permissions.attach_files:
        missing.append(Permission.ATTACH_FILES)
    if not permissions.embed_links:
        missing.append(Permission.EMBED_LINKS)
    return tuple(missing)


@dataclass(frozen=True)
class Perspective:
    """How one reader sees a board: the side at the bottom of the picture (`side`), and
    whether Italian moves are written and the squares numbered in the federation's
    numeric notation (`numeric`, the default; docs/RULES.md, "Coordinates and
    notation"). Other variants are always algebraic, whatever `numeric` says."""

    side: Color = Color.WHITE
    numeric: bool = True

    def numbers(self, variant: Variant) -> bool:
        """Whether moves in `variant` are shown in numbers to this reader."""
        return self.numeric and variant.numeric_notation


WHITE_VIEW = Perspective()
"""The viewpoint of a reader nobody knows: White's side, Italian in numbers."""

def shown_move(move_text: str, variant: Variant, view: Perspective) -> str:
    """`move_text` (algebraic, as the services write it: a move, a line of moves separated
    by spaces, or a single square such as ``c4``) as `view`'s reader reads it."""
    return numeric_text(move_text, variant) if view.numbers(variant) else move_text


async def reader_view(preferences: PreferenceService | None, reader: int, *,
                      playing: Color | None, to_move: Color) -> Perspective:
    """How user `reader` sees a board or a move outside a game's own messages (an
    analysis, a puzzle): from their `/settings` board side, else the colour they play
    (`playing`, None when they do not), else `to_move`; Italian in their notation.
    `preferences` None, or failing to read (logged): the defaults, from `playing` or
    `to_move`, Italian in numbers."""
    fallback = Perspective(side=playing if playing is not None else to_move)
    if preferences is None:
        return fallback
    try:
        settings = await preferences.player(reader)
    except Exception:
        log.exception("reading the preferences of user %s failed: defaults used", reader)
        return fallback
    return Perspective(settings.side(playing, to_move), settings.numeric)


def mention(user_id: int) -> str:
    return f"<@{user_id}>"


def timestamp(moment: datetime, style: str = "R") -> str:
    """A Discord timestamp (shown in the reader's time zone; R = relative)."""
    return f"<t:{int(moment.timestamp())}:{style}>"


def clock_text(left: timedelta) -> str:
    """A clock's time as clocks show it: "4:05", "1:02:03" (whole seconds, rounded down;
    never below 0:00)."""
    seconds = max(int(left.total_seconds()), 0)
    hours, rest = divmod(seconds, 3600)
    minutes, seconds = divmod(rest, 60)
    if hours:
        return f"{hours}:{minutes:02d}:{seconds:02d}"
    return f"{minutes}:{seconds:02d}"


def color_name(color: Color, locale: str | None) -> str:
    return text(Msg.COLOR_WHITE if color is Color.WHITE else Msg.COLOR_BLACK, locale)


_STATUSES = {
    ChallengeStatus.PENDING: Msg.STATUS_PENDING,
    ChallengeStatus.ACCEPTED: Msg.STATUS_ACCEPTED,
    ChallengeStatus.DECLINED: Msg.STATUS_DECLINED,
    ChallengeStatus.CANCELLED: Msg.STATUS_CANCELLED,
    ChallengeStatus.EXPIRED: Msg.STATUS_EXPIRED,
}

_COLOR_CHOICES = {
    ColorChoice.WHITE: Msg.COLOR_WHITE,
    ColorChoice.BLACK: Msg.COLOR_BLACK,
    ColorChoice.RANDOM: Msg.COLOR_RANDOM,
}


def challenge_link(challenge: Challenge) -> str:
    """A link to a challenge's message (its channel when the message id is unknown)."""
    if challenge.message_id is None:
        return f"<#{challenge.channel_id}>"
    guild = challenge.guild_id if challenge.guild_id is not None else "@me"
    return f"https://discord.com/channels/{guild}/{challenge.channel_id}/{challenge.message_id}"


def param(value: object, locale: str | None) -> str:
    """A message parameter as text: users as mentions, colours and statuses by name,
    durations in words (`duration_text`), moments as relative Discord timestamps, a
    `Listing` joined as `locale`'s language joins a list (`join_list`), an `OptionName` as
    the reader's client names the option, a player's `Quoted` words with their markup and
    mentions escaped."""
    if isinstance(value, UserRef):
        return mention(value.user_id)
    if isinstance(value, ChannelRef):
        return f"<#{value.channel_id}>"
    if isinstance(value, Quoted):
        return discord.utils.escape_mentions(discord.utils.escape_markdown(value.text))
    if isinstance(value, ComputerRef):
        return text(Msg.COMPUTER, locale, level=value.level)
    if isinstance(value, Color):
        return color_name(value, locale)
    if isinstance(value, Msg):
        return text(value, locale)
    if isinstance(value, ChallengeStatus):
        return text(_STATUSES[value], locale)
    if isinstance(value, ColorChoice):
        return text(_COLOR_CHOICES[value], locale)
    if isinstance(value, timedelta):
        return duration_text(value, locale)
    if isinstance(value, datetime):
        return timestamp(value)
    if isinstance(value, Challenge):
        return challenge_link(value)
    if isinstance(value, Listing):
        return join_list((param(item, locale) for item in value.items), locale,
                         value.conjunction)
    if isinstance(value, OptionName):
        return option_name(value.key, locale)
    return str(value)


def player_name(seat: SeatView, locale: str | None) -> str:
    if seat.user_id is not None:
        return mention(seat.user_id)
    return text(Msg.COMPUTER, locale, level=seat.seat.computer_level)


def rating_text(seat: SeatView) -> str:
    if seat.user_id is None:
        return "-"
    if seat.rating is None:
        return "1500?"
    return display_rating(seat.rating.rating, seat.rating.deviation)


def render_board(
    position: Position,
    variant: Variant,
    *,
    last_move: object = None,
    before: Position | None = None,
    size: int = 512,
    view: Perspective = WHITE_VIEW,
    show_turn: bool = True,
) -> bytes:
    """The board PNG (blocking; call through `board_png`), drawn from `view`'s side, with
    the Italian square numbers when `view` reads Italian in numbers; the side to move is
    marked unless `show_turn` is False (a finished game has none)."""
    from engine import Move

    move = last_move if isinstance(last_move, Move) else None
    return render_png(position, variant, last_move=move, before=before if move else None,
                      size=size, perspective=view.side, numbers=view.numbers(variant),
                      show_turn=show_turn)


@dataclass(frozen=True)
class BoardMessage:
    """A board message ready to send: text above the embed, the embed, the PNG."""

    content: str
    embed: discord.Embed
    png: bytes

    def file(self) -> discord.File:
        """A fresh `discord.File` (a File can be sent only once)."""
        return discord.File(io.BytesIO(self.png), filename=BOARD_FILE)


def rating_kind(state: BoardState) -> Msg:
    """The game's kind for its title: CASUAL; RATED; NOT_RATED for a rated game that ended
    without a rating change (aborted, or ended early: docs/RULES.md, "Early results")."""
    ending = state.ending
    if not state.rated:
        return Msg.CASUAL
    if ending is not None and (ending.result is None or ending.unrated_early):
        return Msg.NOT_RATED
    return Msg.RATED


class Presenter:
    """Builds the messages of the bot. `board_size`: picture side in pixels."""

    def __init__(self, *, board_size: int = 512,
                 inactivity_limit: timedelta = timedelta(days=3),
                 move_work: MoveWork | None = None) -> None:
        self.board_size = board_size
        self.inactivity_limit = inactivity_limit
        self.move_work = move_work
        """Where a board with its last move is drawn when the position before has very
        many capture states (`bot.move_work`; checking the move lists its moves). None:
        always in a worker thread."""

    async def board_png(self, state: BoardState, view: Perspective = WHITE_VIEW) -> bytes:
        before = state.before
        if self.move_work is not None and before is not None and state.last_move is not None:
            return await self.move_work.run(
                [(before, state.variant)], functools.partial(
                    render_board, last_move=state.last_move, before=before,
                    size=self.board_size, view=view, show_turn=not state.is_over,
                ), state.position, state.variant,
            )
        return await asyncio.to_thread(
            render_board, state.position, state.variant, last_move=state.last_move,
            before=before, size=self.board_size, view=view,
            show_turn=not state.is_over,
        )

    async def warm(self) -> None:
        """Render each variant's start once, so the renderer's caches (board backgrounds,
        piece sprites) are built before the first player waits for a board."""
        for variant in VARIANTS.values():
            await self.start_png(variant)

    async def start_file(self, variant: Variant) -> discord.File:
        """The variant's start position as a board picture file (/rules)."""
        return discord.File(io.BytesIO(await self.start_png(variant)), filename=BOARD_FILE)

    async def start_png(self, variant: Variant) -> bytes:
        return await asyncio.to_thread(
            render_board, Position.start(variant), variant, size=self.board_size
        )

    # --- texts ------------------------------------------------------------------------

    def result_text(self, state: BoardState, locale: str | None) -> str:
        ending = state.ending
        if ending is None:
            return ""
        loser = ending.loser
        reason = text(
            END_REASONS[ending.reason].sentence, locale,
            loser=player_name(state.seat(loser), locale) if loser is not None else "",
            limit=duration_text(self.inactivity_limit, locale),
            user=mention(ending.by_user) if ending.by_user is not None else "",
        )
        if ending.reason is EndReason.ABORTED or ending.result is None:
            return text(Msg.RESULT_ABORTED, locale, reason=reason)
        if ending.winner is None:
            result = text(Msg.RESULT_DRAW, locale, reason=reason)
        else:
            result = text(
                Msg.RESULT_WIN, locale,
                winner=player_name(state.seat(ending.winner), locale),
                score=ending.result.value, reason=reason,
            )
        if ending.unrated_early:
            result += " " + text(Msg.RESULT_UNRATED_EARLY, locale)
        return result

    def turn_text(self, state: BoardState, locale: str | None) -> str:
        """Whose turn it is; a computer seat to move "is thinking" (its move follows)."""
        key = Msg.BOARD_THINKING if state.to_move.user_id is None else Msg.BOARD_TURN
        return text(key, locale, player=player_name(state.to_move, locale),
                    color=color_name(state.turn, locale))

    def headline(self, update: GameUpdate, locale: str | None,
                 view: Perspective = WHITE_VIEW) -> str:
        """The text above the board: what happened (the move as `view` reads it), and
        whose turn it is (a mention, so the player is notified)."""
        state = update.state
        move_text = (None if update.move_text is None
                     else shown_move(update.move_text, state.variant, view))
        parts: list[str] = []
        if update.kind is UpdateKind.STARTED:
            parts.append(text(Msg.GAME_STARTED, locale, white=player_name(state.white, locale),
                              black=player_name(state.black, locale)))
        elif move_text is not None:
            # After a move the side to move is the other one, game over or not.
            mover = state.seat(state.position.turn.opponent)
            if update.absent_moves is not None:  # the computer moved for an absent player
                count, limit = update.absent_moves
                parts.append(text(Msg.COMPUTER_MOVED, locale, player=player_name(mover, locale),
                                  move=move_text, count=count, limit=limit))
            else:
                parts.append(text(Msg.MOVE_PLAYED, locale, player=player_name(mover, locale),
                                  move=move_text))
        if update.kind is UpdateKind.DRAW_OFFERED:
            offerer = state.seat(state.draw_offer_by or state.turn)
            opponent = state.seat(offerer.color.opponent)
            parts.append(text(Msg.DRAW_OFFERED, locale, player=player_name(offerer, locale),
                              opponent=player_name(opponent, locale)))
        elif state.is_over:
            parts.append(self.result_text(state, locale))
        else:
            parts.append(self.turn_text(state, locale))
        return "\n".join(parts)

    def board_embed(self, state: BoardState, locale: str | None,
                    view: Perspective = WHITE_VIEW) -> discord.Embed:
        kind = text(rating_kind(state), locale)
        embed = discord.Embed(
            title=text(Msg.BOARD_TITLE, locale, variant=variant_name(state.variant.key, locale),
                       game_id=state.game_id, kind=kind),
            colour=ENDED_COLOUR if state.is_over else EMBED_COLOUR,
        )
        lines: list[str] = []
        if state.is_over:
            lines.append(self.result_text(state, locale))
        else:
            lines.append(self.turn_text(state, locale))
            if state.draw_offer_by is not None:
                offerer = state.seat(state.draw_offer_by)
                lines.append(text(Msg.BOARD_DRAW_OFFER, locale,
                                  player=player_name(offerer, locale),
                                  opponent=player_name(state.seat(offerer.color.opponent),
                                                       locale)))
            if state.deadline is not None and state.to_move.user_id is not None:
                # Without a time per move or clocks, the deadline is the inactivity limit,
                # which loses the game (docs/RULES.md, "Project-wide game rules", Time).
                timed = state.move_seconds is not None or state.time_control is not None
                deadline = Msg.BOARD_DEADLINE if timed else Msg.BOARD_DEADLINE_INACTIVITY
                lines.append(text(deadline, locale,
                                  player=player_name(state.to_move, locale),
                                  when=timestamp(state.deadline)))
        embed.description = "\n".join(lines)
        for seat in (state.white, state.black):
            embed.add_field(
                name=color_name(seat.color, locale),
                value=text(Msg.BOARD_PLAYER, locale, player=player_name(seat, locale),
                           rating=rating_text(seat)),
            )
        embed.add_field(name=text(Msg.BOARD_MOVE, locale), value=str(state.move_number))
        embed.add_field(
            name=text(Msg.BOARD_LAST_MOVE, locale),
            value=(shown_move(state.last_move_text, state.variant, view)
                   if state.last_move_text else text(Msg.BOARD_NO_MOVE_YET, locale)),
        )
        if state.move_seconds is not None:
            embed.add_field(name=text(Msg.BOARD_MOVE_TIME, locale),
                            value=duration_text(timedelta(seconds=state.move_seconds),
                                                 locale))
        if state.time_control is not None and state.clock is not None and not state.is_over:
            embed.add_field(
                name=text(Msg.BOARD_CLOCKS, locale,
                          control=time_control_text(state.time_control)),
                value="\n".join(self.clock_lines(state, locale)), inline=False,
            )
        changes = [
            text(Msg.RATING_CHANGE_LINE, locale, player=player_name(seat, locale),
                 before=round(seat.change.rating_before), after=round(seat.change.rating_after),
                 delta=f"{round(seat.change.delta):+d}")
            for seat in (state.white, state.black) if seat.change is not None
        ]
        if changes:
            embed.add_field(name=text(Msg.BOARD_RATING_CHANGES, locale),
                            value="\n".join(changes), inline=False)
        embed.set_image(url=f"attachment://{BOARD_FILE}")
        return embed

    def clock_lines(self, state: BoardState, locale: str | None) -> list[str]:
        """The players' clocks of an active game with clocks, White's first: each one's
        time as of the last step; the running one (the player to move) also with the
        moment it runs out as a Discord relative timestamp, which the client counts down
        without the message being edited (docs/PLAYING.md, "Clocks")."""
        clock = state.clock
        if clock is None:
            return []
        lines = []
        for seat in (state.white, state.black):
            left = left_of(clock, seat.color)
            if left is None:
                continue
            player = player_name(seat, locale)
            if seat.color is state.turn and clock.deadline is not None:
                lines.append(text(Msg.BOARD_CLOCK_RUNNING, locale, player=player,
                                  left=clock_text(left), when=timestamp(clock.deadline)))
            else:
                lines.append(text(Msg.BOARD_CLOCK, locale, player=player,
                                  left=clock_text(left)))
        return lines

    async def board_message(self, update: GameUpdate, locale: str | None,
                            view: Perspective = WHITE_VIEW) -> BoardMessage:
        """The board message of `update` as `view`'s reader sees it (side, notation)."""
        png = await self.board_png(update.state, view)
        return BoardMessage(self.headline(update, locale, view),
                            self.board_embed(update.state, locale, view), png)

    def text_board(self, update: GameUpdate, locale: str | None, view: Perspective,
                   missing: tuple[Permission, ...]) -> str:
        """The board of `update` as a text message, for a channel that denies the bot the
        `missing` permissions (no picture or embed can be shown there): the headline, which
        permission is missing, and the board drawn as text (`renderer.render_text`) from
        `view`'s side, its pieces in the reader's letters (`piece_letters`), which the note
        explains. Cut to what Discord accepts."""
        state = update.state
        letters = piece_letters(locale)
        board = render_text(state.position, state.variant, perspective=view.side,
                            numbers=view.numbers(state.variant), letters=letters)
        legend = {"white_man": letters.white_man, "black_man": letters.black_man,
                  "white_king": letters.white_king, "black_king": letters.black_king}
        names = [text(permission.value, locale) for permission in missing]
        if len(names) == 1:
            note = text(Msg.TEXT_BOARD_MISSING, locale, permission=names[0], **legend)
        else:
            note = text(Msg.TEXT_BOARD_MISSING_BOTH, locale, first=names[0], second=names[1],
                        **legend)
        message = f"{self.headline(update, locale, view)}\n{note}\n```\n{board}\n```"
        return message[:MAX_CONTENT]

    # --- challenges -------------------------------------------------------------------

    def challenge_embed(self, challenge: Challenge, locale: str | None) -> discord.Embed:

        variant = variant_name(challenge.variant, locale)
        color = {
            ColorChoice.WHITE: Msg.COLOR_WHITE,
            ColorChoice.BLACK: Msg.COLOR_BLACK,
            ColorChoice.RANDOM: Msg.COLOR_RANDOM,
        }[challenge.color]
        move_time = (
            duration_text(timedelta(seconds=challenge.move_seconds), locale)
            if challenge.move_seconds else text(Msg.NO_MOVE_TIME, locale)
        )
        opponent = mention(challenge.challenged_id) if challenge.challenged_id else "?"
        body = text(
            Msg.CHALLENGE_BODY, locale, challenger=mention(challenge.challenger_id),
            opponent=opponent, kind=text(Msg.RATED if challenge.rated else Msg.CASUAL, locale),
            variant_in_sentence=variant_in_sentence(challenge.variant, locale),
            color=text(color, locale), move_time=move_time,
        )
        status_line = {
            ChallengeStatus.PENDING: text(Msg.CHALLENGE_EXPIRES, locale, opponent=opponent,
                                          when=timestamp(challenge.expires_at)),
            ChallengeStatus.ACCEPTED: text(Msg.CHALLENGE_ACCEPTED, locale, opponent=opponent),
            ChallengeStatus.DECLINED: text(Msg.CHALLENGE_DECLINED, locale, opponent=opponent),
            ChallengeStatus.CANCELLED: text(Msg.CHALLENGE_CANCELLED, locale,
                                            challenger=mention(challenge.challenger_id)),
            ChallengeStatus.EXPIRED: text(Msg.CHALLENGE_EXPIRED, locale),
        }[challenge.status]
        if challenge.time_control is not None:
            body += "\n" + text(Msg.CHALLENGE_CLOCK, locale,
                                control=time_control_text(challenge.time_control))
        pending = challenge.status is ChallengeStatus.PENDING
        return discord.Embed(
            title=text(Msg.CHALLENGE_TITLE, locale, variant=variant),
            description=f"{body}\n\n{status_line}",
            colour=EMBED_COLOUR if pending else ENDED_COLOUR,
        )

    def error_text(self, error: PlayerError, locale: str | None) -> str:
        """A refusal's text in `locale`, cut to what Discord accepts (a long list of
        ambiguous candidates must not make the answer fail). A finished game's
        `BoardState` parameter becomes its result text."""
        key = error.key
        params = {
            name: self.result_text(value, locale) if isinstance(value, BoardState)
            else param(value, locale)
            for name, value in error.params.items()
        }
        message = text(key, locale, **params)
        if len(message) > MAX_CONTENT:
            message = message[: MAX_CONTENT - 1] + "…"
        return message

    def challenge_content(self, challenge: Challenge) -> str:
        """The mention that notifies the challenged player."""
        return mention(challenge.challenged_id) if challenge.challenged_id else ""
