"""The colours and proportions of the board pictures.

Colours are 8-bit sRGB triples. Proportions are fractions of one square's side, so a
picture looks the same at every size.

The choices, and why:

- The frame is dark walnut with a warm light inner bevel: it reads as a wooden board on
  Discord's light theme (white) and stays distinct from the cool grey of its dark theme
  (#313338) by hue and by the light bevel line around the playing area.
- White's pieces are ivory and Black's near-black, so the sides differ by lightness
  (about 0.85 against 0.02 relative luminance), not by hue: readable for every kind of
  colour blindness and in greyscale. Each disc has a dark outline, a bevelled rim and a
  soft drop shadow, which separate it from any square colour.
- Kings carry a gold crown outlined in dark brown and a gold ring: shape as well as
  colour, unmistakable at 256 px.
- Last-move highlights are a warm yellow tint; the move's path is a deep blue line with an
  arrowhead, the hue farthest from the wooden board; captured squares get a red cross
  with a light outline, which reads by shape where red does not.
"""

from __future__ import annotations

from dataclasses import dataclass

RGB = tuple[int, int, int]


@dataclass(frozen=True, slots=True)
class Theme:
    """Every colour and proportion the renderer uses (see the module docstring)."""

    # Frame and coordinates.
    frame: RGB = (46, 33, 24)
    frame_bevel: RGB = (122, 92, 64)
    coordinate_text: RGB = (236, 222, 196)
    # Diagonal board (Moroccan, Italian): light and dark squares.
    light_square: RGB = (238, 218, 182)
    dark_square: RGB = (161, 108, 70)
    # Orthogonal board (Turkish, Arab): one colour with grid lines.
    plain_square: RGB = (214, 173, 117)
    grid_line: RGB = (92, 62, 38)
    # Italian numbers written on the playable squares.
    number_on_dark: RGB = (246, 232, 206)
    number_on_plain: RGB = (72, 48, 30)
    # Last move.
    highlight: RGB = (255, 214, 58)
    highlight_alpha: float = 0.50
    path: RGB = (30, 96, 200)
    path_alpha: float = 0.82
    capture_cross: RGB = (214, 40, 32)
    capture_cross_outline: RGB = (255, 246, 230)
    # Marked squares (for example the legal destinations of a piece).
    mark: RGB = (22, 70, 150)
    mark_alpha: float = 0.62
    # Pieces: (outline, rim, face, face highlight, groove) per side.
    white_outline: RGB = (58, 44, 32)
    white_rim: RGB = (204, 190, 164)
    white_face: RGB = (244, 236, 218)
    white_face_light: RGB = (255, 252, 244)
    white_groove: RGB = (196, 181, 154)
    black_outline: RGB = (8, 7, 6)
    black_rim: RGB = (78, 72, 66)
    black_face: RGB = (34, 31, 29)
    black_face_light: RGB = (66, 61, 57)
    black_groove: RGB = (86, 80, 74)
    crown: RGB = (240, 188, 52)
    crown_light: RGB = (255, 226, 120)
    crown_outline: RGB = (74, 46, 12)
    # Proportions, as fractions of a square's side.
    piece_radius: float = 0.41
    shadow_offset: float = 0.045
    shadow_blur: float = 0.05
    shadow_alpha: float = 0.55
    path_width: float = 0.13
    mark_radius: float = 0.15

    def ghost_alpha(self) -> float:
        """Opacity of a captured piece still on the board mid-move in a GIF frame."""
        return 0.55


DEFAULT_THEME = Theme()
