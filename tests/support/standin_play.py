"""Playing through the stand-in as people do: challenge, accept, moves as slash commands."""

from __future__ import annotations

from collections.abc import Callable

from engine import Move, Position, Variant, format_move
from localplay.render import game_id_of
from localplay.server import LocalDiscord
from standin import (
    ChannelInfo,
    EventKind,
    InteractionResult,
    MessageEvent,
    MessageRecord,
    StandIn,
    UserInfo,
)
from tests.support.local_discord import ANSWER_TIMEOUT

PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


def posted_since(standin: StandIn, channel: ChannelInfo, since: int) -> list[MessageRecord]:
    """The messages created in `channel` after event mark `since` (`StandIn.event_count`),
    each as it was first shown, in the order they were shown; ephemeral ones left out.

    First shown, not first created: an answer the bot deferred (bot.ui.answer: after 2 s
    without an answer, as on a loaded machine) is created as Discord's "thinking" message
    and shown by the edit that gives it its content, picture included. A message still
    "thinking", or deleted before it showed anything, is left out."""
    created: set[int] = set()
    shown: dict[int, MessageRecord] = {}
    for event in standin.events[since:]:
        message = event.message
        if message.channel_id != channel.id or message.ephemeral:
            continue
        if event.kind is EventKind.CREATE:
            created.add(message.id)
        if (event.kind is not EventKind.DELETE and message.id in created
                and message.id not in shown and not message.loading):
            shown[message.id] = message
    return list(shown.values())


def boards_since(standin: StandIn, channel: ChannelInfo, since: int,
                 game_id: int | None = None) -> list[MessageRecord]:
    """The board messages (a picture and a game id; with `game_id`, that game's) among
    `posted_since(standin, channel, since)`."""
    return [message for message in posted_since(standin, channel, since)
            if message.attachments and game_id_of(message) is not None
            and (game_id is None or game_id_of(message) == game_id)]


def becomes_board(standin: StandIn, channel: ChannelInfo, since: int
                  ) -> Callable[[MessageEvent], bool]:
    """A `wait_for_message` predicate: a message created in `channel` after event mark
    `since` is a board now, created as one or (a deferred answer) edited into one."""

    def is_board(event: MessageEvent) -> bool:
        message = event.message
        if (event.kind is EventKind.DELETE or message.channel_id != channel.id
                or not message.attachments or game_id_of(message) is None):
            return False
        return event.kind is EventKind.CREATE or any(
            earlier.kind is EventKind.CREATE and earlier.message.id == message.id
            for earlier in standin.events[since:])

    return is_board


async def wait_board(local: LocalDiscord, channel: ChannelInfo, *, since: int) -> MessageRecord:
    """The first board message (a picture and a game id) posted in `channel` after event
    mark `since`, as it was when it became a board (`becomes_board`)."""
    event = await local.standin.wait_for_message(
        becomes_board(local.standin, channel, since), since=since, timeout=ANSWER_TIMEOUT)
    return event.message


async def start_game(
    local: LocalDiscord,
    channel: ChannelInfo,
    white: UserInfo,
    black: UserInfo,
    variant: Variant,
    *,
    rated: bool = True,
    clock: str | None = None,
) -> tuple[int, MessageRecord]:
    """`white` challenges `black` (asking for White; with `clock`, that clock option),
    `black` presses Accept; returns the game id and the first board message."""
    standin = local.standin
    mark = standin.event_count
    options: dict[str, object] = {"opponent": black, "variant": variant.key, "color": "white",
                                  "rated": rated}
    if clock is not None:
        options["clock"] = clock
    challenge = await standin.slash(white, channel, "challenge", options,
                                    timeout=ANSWER_TIMEOUT)
    assert not challenge.ephemeral, challenge.reply.text()
    accepted = await standin.press(black, challenge.reply, "Accept", timeout=ANSWER_TIMEOUT)
    assert not accepted.ephemeral, accepted.reply.text()
    board = await wait_board(local, channel, since=mark)
    game_id = game_id_of(board)
    assert game_id is not None
    return game_id, board


def move_text(move: Move, position: Position, variant: Variant) -> str:
    """The move as a player types it (Italian numeric squares for Italian)."""
    return format_move(move, position, variant, numeric=variant.numeric_notation)


async def play_move(
    local: LocalDiscord, user: UserInfo, channel: ChannelInfo, text: str
) -> InteractionResult:
    """`/move move:<text>`; asserts it was accepted (a public answer with a board)."""
    answer = await local.standin.slash(user, channel, "move", {"move": text},
                                       timeout=ANSWER_TIMEOUT)
    assert not answer.ephemeral, f"/move {text} by {user.name}: {answer.reply.text()}"
    assert answer.reply.attachments, f"/move {text}: no board picture"
    return answer


async def resign(
    local: LocalDiscord, user: UserInfo, channel: ChannelInfo, *,
    timeout: float = ANSWER_TIMEOUT,
) -> InteractionResult:
    """`/resign`, then the private question's Resign (the answer of that press)."""
    question = await local.standin.slash(user, channel, "resign", {}, timeout=timeout)
    assert question.ephemeral, f"/resign by {user.name}: {question.reply.text()}"
    return await local.standin.press(user, question.reply, "Resign", timeout=timeout)
