"""Board pictures (PNG boards, GIF replays) drawn with Pillow.

Imports the engine, nothing of Discord. The public API:

- `render_png(position, variant, *, perspective, last_move, before, marks, size, numbers)`
  -> PNG bytes of one position;
- `render_move_gif(position, move, variant, ...)` -> GIF bytes of one move, jump by jump;
- `render_game_gif(start, moves, variant, ...)` -> GIF bytes of a whole game;
- `render_image(...)`: as `render_png`, returning the Pillow image;
- `render_text(position, variant, *, perspective, numbers)` -> a monospaced text board, for
  where no picture can be shown;
- `warm_up(sizes)`: build the caches ahead of the first picture (under a second);
- `RenderError` (a ValueError): bad input, with a message saying what to pass;
- `Theme`, `DEFAULT_THEME`: colours and proportions; `MIN_SIZE`, `MAX_SIZE`.

Rendering is pure CPU work (a few milliseconds for a 512 px board, see
benchmarks/render.py); async callers should run it in a worker thread.
"""

from renderer.animation import render_game_gif, render_move_gif
from renderer.board import render_image, render_png, warm_up
from renderer.errors import RenderError
from renderer.layout import MAX_SIZE, MIN_SIZE
from renderer.text import render_text
from renderer.theme import DEFAULT_THEME, Theme

__all__ = [
    "DEFAULT_THEME",
    "MAX_SIZE",
    "MIN_SIZE",
    "RenderError",
    "Theme",
    "render_game_gif",
    "render_image",
    "render_move_gif",
    "render_png",
    "render_text",
    "warm_up",
]
