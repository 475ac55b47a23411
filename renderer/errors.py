"""The renderer's error."""

from __future__ import annotations


class RenderError(ValueError):
    """Bad input to a rendering function: an unknown variant, a move that is not legal in
    the position, a size out of range, a square off the board. The message says what is
    wrong and what to pass instead."""
