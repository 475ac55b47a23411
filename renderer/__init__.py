"""Board pictures (PNG boards, GIF replays) and tournament standings drawn with Pillow.

Imports the engine, nothing of Discord. The public API is what `__all__` names;
docs/ENGINE.md ("Board pictures") describes it. Rendering is pure CPU work (a few
milliseconds for a 512 px board, see benchmarks/render.py); async callers should run it in
a worker thread.
"""

from renderer.animation import render_game_gif, render_move_gif
from renderer.board import render_image, render_png, warm_up
from renderer.errors import RenderError
from renderer.layout import MAX_SIZE, MIN_SIZE
from renderer.standings import (
    CellResult,
    RoundCell,
    StandingsHeadings,
    StandingsRow,
    StandingsTable,
    TextDirection,
)
from renderer.standings_draw import render_standings_png
from renderer.text import PieceLetters, render_text
from renderer.theme import DEFAULT_THEME, Theme

__all__ = [
    "DEFAULT_THEME",
    "MAX_SIZE",
    "MIN_SIZE",
    "CellResult",
    "PieceLetters",
    "RenderError",
    "RoundCell",
    "StandingsHeadings",
    "StandingsRow",
    "StandingsTable",
    "TextDirection",
    "Theme",
    "render_game_gif",
    "render_image",
    "render_move_gif",
    "render_png",
    "render_standings_png",
    "render_text",
    "warm_up",
]
