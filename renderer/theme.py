"""The colours and proportions of the board pictures.

Colours are 8-bit sRGB triples whose components are multiples of 4: the fixed-palette
mapping (renderer.encode) looks colours up at 6 bits per channel, and such colours come
out of it unchanged, so flat areas keep exactly the colour named here. Proportions are
fractions of one square's side, so a picture looks the same at every size.

The choices, and why:

- The frame is dark walnut with a warm light inner bevel: it reads as a wooden board on
  Discord's light theme (white) and stays distinct from the cool grey of its dark theme
  (#313338) by hue and by the light bevel line around the playing area.
- White's pieces are ivory and Black's near-black, so the sides differ by lightness
  (relative luminance 0.84 against 0.014, a contrast ratio of 14), not by hue: readable
  for every kind of colour blindness and in greyscale. Each disc has a dark outline, a
  bevelled rim and a soft drop shadow, which separate it from any square colour.
- Kings carry a gold crown outlined in dark brown and a gold ring: shape as well as
  colour, unmistakable at 256 px.
- Last-move highlights are a warm yellow tint; the move's path is a deep blue line with an
  arrowhead, the hue farthest from the wooden board; captured squares get a red cross
  with a light outline, which reads by shape where red does not. A move shown before the
  last one (a puzzle's solving move, under the defence that answered it) is a thinner
  teal arrow, drawn beneath the last move's.
"""

from __future__ import annotations

from dataclasses import dataclass

RGB = tuple[int, int, int]


@dataclass(frozen=True, slots=True)
class Theme:
    """Every colour and proportion the renderer uses (see the module docstring)."""

    # Frame and coordinates.
    frame: RGB = (48, 32, 24)
    frame_bevel: RGB = (120, 92, 64)
    coordinate_text: RGB = (236, 224, 196)
    # Diagonal board (Moroccan, Italian): light and dark squares.
    light_square: RGB = (240, 216, 184)
    dark_square: RGB = (160, 108, 72)
    # Orthogonal board (Turkish, Arab): one colour with grid lines.
    plain_square: RGB = (216, 172, 116)
    grid_line: RGB = (92, 64, 40)
    # Italian numbers written on the playable squares.
    number_on_dark: RGB = (248, 232, 208)
    # Last move.
    highlight: RGB = (252, 216, 56)
    highlight_alpha: float = 0.50
    path: RGB = (32, 96, 200)
    path_alpha: float = 0.82
    # The move before the last one (a puzzle's solving move under the defence's): teal,
    # set apart from the last move's blue by hue and by a thinner, lighter line.
    earlier_path: RGB = (20, 156, 136)
    earlier_path_alpha: float = 0.72
    capture_cross: RGB = (216, 40, 32)
    capture_cross_outline: RGB = (252, 248, 232)
    # Marked squares (for example the legal destinations of a piece).
    mark: RGB = (24, 84, 180)
    mark_alpha: float = 0.80
    # Pieces: (outline, rim, face, face highlight, groove) per side.
    white_outline: RGB = (56, 44, 32)
    white_rim: RGB = (204, 192, 164)
    white_face: RGB = (244, 236, 216)
    white_face_light: RGB = (252, 252, 244)
    white_groove: RGB = (196, 180, 152)
    black_outline: RGB = (8, 8, 8)
    black_rim: RGB = (80, 72, 64)
    black_face: RGB = (32, 32, 28)
    black_face_light: RGB = (64, 60, 56)
    black_groove: RGB = (88, 80, 72)
    crown: RGB = (240, 188, 52)
    crown_light: RGB = (252, 224, 120)
    crown_outline: RGB = (72, 48, 12)
    # Proportions, as fractions of a square's side.
    piece_radius: float = 0.41
    shadow_offset: float = 0.045
    shadow_blur: float = 0.05
    shadow_alpha: float = 0.55
    path_width: float = 0.13
    mark_radius: float = 0.16


DEFAULT_THEME = Theme()
