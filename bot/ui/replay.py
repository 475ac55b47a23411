"""A game's replay as an animated GIF for Discord (`/export format:GIF` and the Replay
button of a finished game's board): the picture, drawn off the event loop and kept within
Discord's upload limit, and the text that comes with it.

The picture is `renderer.render_game_gif`: the start position, then one frame after each
move with its squares, path and captures marked, `FRAME_MS` a move and `FINAL_MS` on the
final position, drawn from the reader's side (`bot.ui.present.Perspective`).

Size: Discord refuses an upload over `UPLOAD_LIMIT` (its documentation, "Uploading
Files": the default file upload limit is 10 MiB; a bot has no boost or Nitro raising it).
A move costs about 6.7 KB at 512 px and 1.9 KB at 160 px (measured on random games of
every variant; each frame after the first stores only the rectangle that changed), so a
game of about 1,500 plies still fits at `REPLAY_SIZES[0]`; a longer one is drawn again at
the next smaller size until it fits, and one that does not fit even at the smallest is
refused with REPLAY_TOO_LONG (about 5,000 plies, far past any game the draw rules let
run). Drawing takes about a second per 100 plies at 512 px.
"""

from __future__ import annotations

import asyncio
import functools
import io

import discord

from bot.messages import Msg, join_list, text, variant_name
from bot.move_work import MoveWork
from bot.services.errors import PlayerError
from bot.services.settings import PreferenceService
from bot.services.stats import GameReplay
from bot.ui.present import WHITE_VIEW, Perspective, reader_view
from engine import Color, Move, Position, Variant
from renderer import render_game_gif

UPLOAD_LIMIT = 10 * 1024 * 1024
"""Bytes Discord accepts in one upload from a bot (docs: Reference, "Uploading Files":
"the default file upload limit is 10 MiB")."""

REPLAY_SIZES = (512, 384, 256, 160)
"""Picture sides tried in turn, in pixels, until the GIF fits `UPLOAD_LIMIT`
(512: the board's usual size; 160: `renderer.MIN_SIZE`)."""

FRAME_MS = 1000
"""How long each move shows, in milliseconds."""

FINAL_MS = 5000
"""How long the final position shows before the replay starts again."""


class ReplayTooLarge(Exception):
    """No size of `REPLAY_SIZES` brings the replay within the limit."""


def replay_gif(start: Position, moves: tuple[Move, ...], variant: Variant, *,
               view: Perspective = WHITE_VIEW, limit: int = UPLOAD_LIMIT) -> bytes:
    """The game's GIF (blocking: call it through `replay_file`) at the largest of
    `REPLAY_SIZES` whose bytes are at most `limit`, drawn from `view`'s side with the
    Italian square numbers when `view` reads them. Raises `ReplayTooLarge` when none
    fits, and `renderer.RenderError` for a move that is not legal in its position."""
    for size in REPLAY_SIZES:
        data = render_game_gif(start, moves, variant, perspective=view.side, size=size,
                               numbers=view.numbers(variant), frame_ms=FRAME_MS,
                               final_ms=FINAL_MS)
        if len(data) <= limit:
            return data
    raise ReplayTooLarge(f"{len(moves)} plies do not fit {limit} bytes at any size")


def replay_filename(replay: GameReplay) -> str:
    """`dama-<variant>-<game>.gif`, as the PDN's `dama-<variant>-<game>.pdn`."""
    return f"dama-{replay.variant.key}-{replay.game_id}.gif"


async def replay_file(replay: GameReplay, view: Perspective, move_work: MoveWork | None, *,
                      limit: int = UPLOAD_LIMIT) -> discord.File:
    """The replay's GIF as a file to send, drawn off the event loop as boards are: in a
    worker thread, or in the move work's process when one of the game's positions has
    very many capture states (`bot.move_work`; replaying the moves lists them). None:
    always in a worker thread. Raises `PlayerError(REPLAY_TOO_LONG)` when no size fits
    `limit` (Discord's upload limit)."""
    draw = functools.partial(replay_gif, view=view, limit=limit)
    args = (replay.start, replay.moves, replay.variant)
    try:
        if move_work is None:
            data = await asyncio.to_thread(draw, *args)
        else:
            positions = [(position, replay.variant) for position in replay.positions]
            data = await move_work.run(positions, draw, *args)
    except ReplayTooLarge:
        raise PlayerError(Msg.REPLAY_TOO_LONG, game_id=replay.game_id) from None
    return discord.File(io.BytesIO(data), filename=replay_filename(replay))


async def replay_view(replay: GameReplay, preferences: PreferenceService | None,
                      reader: int) -> Perspective:
    """How user `reader` sees the replay (`bot.ui.present.reader_view`): from their
    `/settings` board side, else the colour they played, else White's side; Italian in
    their notation. `preferences` None: the defaults."""
    return await reader_view(preferences, reader, playing=replay.color_of(reader),
                             to_move=Color.WHITE)


def replay_text(replay: GameReplay, locale: str | None) -> str:
    """The text above the replay: which game it is, and, when the bot chose it, how, and
    the caller's other games in progress (as `bot.ui.info.export_message`)."""
    content = text(Msg.REPLAY_DONE, locale, game_id=replay.game_id,
                   variant=variant_name(replay.variant.key, locale), plies=len(replay.moves))
    if replay.chosen is not None:
        content += " " + text(replay.chosen, locale)
    if replay.in_progress:
        content += "\n" + text(Msg.EXPORT_OTHERS, locale, count=len(replay.in_progress),
                                games=join_list((f"#{i}" for i in replay.in_progress),
                                                locale))
    return content
