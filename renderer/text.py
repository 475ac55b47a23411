"""`render_text`: one position as a small monospaced text board, for where a picture
cannot be shown (a channel that denies the bot Attach Files or Embed Links).

`w`/`b` are White's and Black's men, `W`/`B` their kings (`PieceLetters`: a caller writes
them in its reader's language), `.` an empty playable square; the unused light squares of
the diagonal variants are blank. Files and ranks are written around the board; with
`numbers` (Italian; International's 1..50), each empty playable square shows its number
(`renderer.scene.square_number`) instead of `.` (the picture's `numbers` option writes it
on every dark square, in the corner of an empty one and on the face of a piece).
"""

from __future__ import annotations

from dataclasses import dataclass

from engine import Color, Geometry, PieceKind, Position, Variant
from renderer.board import check_numbers
from renderer.errors import RenderError
from renderer.scene import square_number
from renderer.validate import check_position, resolve_variant

_FILES = "abcdefghij"


@dataclass(frozen=True)
class PieceLetters:
    """The characters the text board draws the pieces with: White's and Black's men and
    kings. Each is one character that a monospaced font shows one cell wide (a letter),
    so the columns stay aligned."""

    white_man: str = "w"
    black_man: str = "b"
    white_king: str = "W"
    black_king: str = "B"

    def of(self, color: Color, kind: PieceKind) -> str:
        """The character of a piece of `color` and `kind`."""
        if color is Color.WHITE:
            return self.white_man if kind is PieceKind.MAN else self.white_king
        return self.black_man if kind is PieceKind.MAN else self.black_king

    def check(self) -> None:
        """Raises RenderError unless every letter is one character and the four differ."""
        letters = (self.white_man, self.black_man, self.white_king, self.black_king)
        if any(len(letter) != 1 or letter.isspace() for letter in letters):
            raise RenderError(f"piece letters must be one visible character each: {letters}")
        if len(set(letters)) != 4:
            raise RenderError(f"piece letters must differ: {letters}")


ENGLISH_LETTERS = PieceLetters()
"""w, b, W, B: White's and Black's men and kings."""


def render_text(position: Position, variant: Variant | str, *,
                perspective: Color = Color.WHITE, numbers: bool = False,
                letters: PieceLetters = ENGLISH_LETTERS) -> str:
    """The board of `position` as text (no trailing newline): a file line, the ranks (8,
    or 10 on the 10 x 10 board), a file line; 10 or 12 lines. `perspective`: the side at
    the bottom (Color.BLACK turns the board: rank 1 on top, the last file on the left).
    `numbers`: write the square number on each empty playable square (diagonal boards
    only). `letters`: the pieces' characters. Each square is three characters wide.

    Raises RenderError for an unknown variant name, a position with pieces on squares
    the variant does not use, numbers on an orthogonal board, or letters that are not
    four different single characters.
    """
    letters.check()
    v = resolve_variant(variant)
    check_position(position, v)
    show_numbers = check_numbers(numbers, v)
    flipped = perspective is Color.BLACK
    n = v.board_size
    width = len(str(n))
    files = range(n - 1, -1, -1) if flipped else range(n)
    ranks = range(n) if flipped else range(n - 1, -1, -1)
    header = " " * (width + 2) + "".join(f" {_FILES[f]} " for f in files)
    lines = [header]
    for rank in ranks:
        cells: list[str] = []
        for file in files:
            square = rank * n + file
            if v.geometry is Geometry.DIAGONAL and not v.is_playable(square):
                cells.append("   ")
                continue
            piece = position.piece_at(square)
            if piece is not None:
                cells.append(f" {letters.of(piece.color, piece.kind)} ")
            elif show_numbers:
                cells.append(f"{square_number(square, n, v.a1_dark):>2} ")
            else:
                cells.append(" . ")
        lines.append(f" {rank + 1:>{width}} {''.join(cells)} {rank + 1}")
    lines.append(header)
    return "\n".join(line.rstrip() for line in lines)
