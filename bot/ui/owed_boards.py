"""Finding a board Discord already has before an owed board is posted again at start-up
(`GameAnnouncer.announce_owed`; docs/ARCHITECTURE.md, "Recovery at start-up"): the
board's message nonce, and how a message of the channel's history is recognised as the
board or the draw offer of a step."""

from __future__ import annotations

import re

import discord

from bot.services import BoardState
from bot.ui.present import ENDED_COLOUR


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
