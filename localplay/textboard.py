"""A small text picture of a position, for the terminal of the local play mode.

Rank 8 on top, files a-h left to right (White's side at the bottom, as in the engine's
coordinates: a1 = square 0). `w`/`b` are men, `W`/`B` kings, `.` an empty playable
square; the unused light squares of the diagonal variants are left blank. Italian boards
also show the numeric square numbers of their first and last playable square per rank, so
`22-18` style moves can be followed.
"""

from __future__ import annotations

from engine import Color, PieceKind, Position, Variant, square_to_number

_FILES = "abcdefgh"
_SYMBOLS = {
    (Color.WHITE, PieceKind.MAN): "w",
    (Color.WHITE, PieceKind.KING): "W",
    (Color.BLACK, PieceKind.MAN): "b",
    (Color.BLACK, PieceKind.KING): "B",
}


def text_board(position: Position, variant: Variant, *, over: bool = False) -> str:
    """The board as lines of text (see the module docstring), then whose turn it is, or
    that the game is over (`over`: a finished game has no side to move).

    Input: any position of `variant`. Output: 11 lines joined by newlines, no trailing one.
    """
    header = "    " + " ".join(_FILES)
    lines = [header]
    for rank in range(7, -1, -1):
        cells = []
        numbers: list[int] = []
        for file in range(8):
            square = rank * 8 + file
            if not variant.is_playable(square):
                cells.append(" ")
                continue
            if variant.numeric_notation:
                numbers.append(square_to_number(square))
            piece = position.piece_at(square)
            cells.append("." if piece is None else _SYMBOLS[(piece.color, piece.kind)])
        row = f" {rank + 1}  {' '.join(cells)}  {rank + 1}"
        if numbers:
            row += f"   {min(numbers):>2}-{max(numbers):<2}"
        lines.append(row.rstrip())
    lines.append(header)
    if over:
        lines.append("    w/b men, W/B kings; game over")
    else:
        turn = "White" if position.turn is Color.WHITE else "Black"
        lines.append(f"    w/b men, W/B kings; {turn} to move")
    return "\n".join(lines)
