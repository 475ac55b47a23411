"""Plain-board helpers shared by the reference generators: squares, FEN, rotation, identity.

A square name is ``"a1"``..``"h8"`` on the 8×8 board and ``"a1"``..``"j10"`` on the 10×10
board of International draughts (file a.. left to right from White's side, rank 1.. away
from White). Internally a square is ``(file, rank)``, both from 0. The board's size is the
variant's (`board_size`: 10 for International, 8 for the others, docs/RULES.md "Family 3");
functions that depend on it take it (``size``, 8 unless given).
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Mapping

Board = dict[str, str]
Route = tuple[tuple[str, ...], tuple[str, ...]]  # (start + landings, captured in order)
Identity = tuple[str, str, frozenset[str]]  # (start, end, set of captured squares)

FILES = "abcdefghij"
ORTHOGONAL_VARIANTS = frozenset({"turkish", "arab"})
DIAGONAL_VARIANTS = frozenset(
    {"moroccan", "italian", "brazilian", "russian", "english", "international"}
)
#: The variants whose near-left corner a1 is dark (file + rank even is dark): docs/RULES.md's
#: "Family 3", the records of the engine's `VARIANTS` with `a1_dark`
#: (`engine.A1_DARK_VARIANTS`), in its order.
A1_DARK_KEYS = ("international", "brazilian", "russian", "english")
#: Those of the 8×8 board (the reference plays International on the 10×10 board:
#: `TEN_BY_TEN_VARIANTS`).
A1_DARK_8X8_KEYS = ("brazilian", "russian", "english")
#: The variants of the 10×10 board (docs/RULES.md, "Family 3": International draughts).
TEN_BY_TEN_VARIANTS = ("international",)
#: Every variant the engine defines and the bot offers, in the order of `engine.VARIANTS`.
VARIANT_KEYS = ("turkish", "arab", "moroccan", "italian", *A1_DARK_KEYS)


def board_size(variant: str) -> int:
    """The side of ``variant``'s board: 10 for International draughts, 8 for the others."""
    return 10 if variant in TEN_BY_TEN_VARIANTS else 8


def name(f: int, r: int) -> str:
    """(file 0..9, rank 0..9) -> "a1".."j10"."""
    return FILES[f] + str(r + 1)


@functools.cache
def coords(sq: str) -> tuple[int, int]:
    """ "a1".."j10" -> (file 0..9, rank 0..9); raises ValueError for anything else (whether
    the square is on a given variant's board is `is_playable`'s question)."""
    rank = sq[1:]
    if not 2 <= len(sq) <= 3 or sq[0] not in FILES or not rank.isdigit() or rank[0] == "0":
        raise ValueError(f"not a square: {sq!r}")
    if not 1 <= int(rank) <= 10:
        raise ValueError(f"not a square: {sq!r}")
    return FILES.index(sq[0]), int(rank) - 1


def on_board(f: int, r: int, size: int = 8) -> bool:
    return 0 <= f < size and 0 <= r < size


def is_dark(sq: str) -> bool:
    """Playable square of the diagonal board: file number + rank number odd (a=1, rank 1=1)."""
    f, r = coords(sq)
    return (f + 1 + r + 1) % 2 == 1


@functools.cache
def is_playable(sq: str, variant: str) -> bool:
    """Whether ``sq`` is used in ``variant``: on its board (`board_size`), every square of
    the orthogonal board; the dark squares of the diagonal board, a1 light (Moroccan,
    Italian) or a1 dark (Brazilian, Russian, English, and International on 10×10)."""
    if not on_board(*coords(sq), board_size(variant)):
        return False
    if variant not in DIAGONAL_VARIANTS:
        return True
    return is_dark(sq) != (variant in A1_DARK_KEYS)


def playable_squares(variant: str) -> list[str]:
    """The squares ``variant`` uses, rank by rank from a1 (a new list each call)."""
    return list(_playable(variant))


@functools.cache
def _playable(variant: str) -> tuple[str, ...]:
    size = board_size(variant)
    squares = [name(f, r) for r in range(size) for f in range(size)]
    return tuple(s for s in squares if is_playable(s, variant))


def color_of(piece: str) -> str:
    return piece.lower()


def is_king(piece: str) -> bool:
    return piece.isupper()


def opponent(side: str) -> str:
    return "b" if side == "w" else "w"


def crowning_rank(side: str, size: int = 8) -> int:
    """0-based rank on which a man of this side is crowned on the ``size`` × ``size`` board."""
    return size - 1 if side == "w" else 0


def forward(side: str) -> int:
    return 1 if side == "w" else -1


# --- Italian numeric squares (docs/RULES.md: 1 = a8, 2 = c8, ..., 32 = h1) ---------------------


def italian_number(sq: str) -> int:
    f, r = coords(sq)
    if not is_dark(sq):
        raise ValueError(f"{sq} is not a playable square")
    row = 7 - r  # 0 for rank 8
    return row * 4 + f // 2 + 1


def italian_square(number: int) -> str:
    for f in range(8):
        for r in range(8):
            s = name(f, r)
            if is_dark(s) and italian_number(s) == number:
                return s
    raise ValueError(f"no Italian square {number}")


# --- English checkers numeric squares (docs/RULES.md: 1 = b8, 4 = h8, 5 = a7, 32 = g1) -----


def english_number(sq: str) -> int:
    """The square number 1..32 of English checkers: from Black's back rank, row by row, each
    row from the left as seen from White (the a1-dark board: 1 = b8, 29 = a1, 32 = g1)."""
    f, r = coords(sq)
    if not is_playable(sq, "english"):
        raise ValueError(f"{sq} is not a playable square of English checkers")
    return (7 - r) * 4 + f // 2 + 1


def english_square(number: int) -> str:
    for s in playable_squares("english"):
        if english_number(s) == number:
            return s
    raise ValueError(f"no English checkers square {number}")


# --- International (FMJD) numeric squares (docs/RULES.md: 1 = b10, 5 = j10, 46 = a1, 50 = i1) --


def fmjd_number(sq: str) -> int:
    """The FMJD number 1..50 of a dark square of the 10×10 board: from Black's back rank,
    row by row, each row from the left as seen from White."""
    f, r = coords(sq)
    if not is_playable(sq, "international"):
        raise ValueError(f"{sq} is not a playable square of the 10×10 board")
    return (9 - r) * 5 + f // 2 + 1


def fmjd_square(number: int) -> str:
    """The square of FMJD number ``number`` (the inverse of `fmjd_number`); raises
    ValueError outside 1..50."""
    square = _fmjd_squares().get(number)
    if square is None:
        raise ValueError(f"no square {number} on the 10×10 board")
    return square


@functools.cache
def _fmjd_squares() -> dict[int, str]:
    return {fmjd_number(s): s for s in _playable("international")}


# --- FEN: "W:Wa2,b2,Kd4:Ba7,Kh8" ------------------------------------------------------------


def parse_fen(text: str) -> tuple[Board, str]:
    """Parse the algebraic FEN form (side, White's pieces, Black's pieces) into a plain board."""
    parts = text.strip().split(":")
    if len(parts) != 3 or parts[0] not in ("W", "B"):
        raise ValueError(f"bad FEN {text!r}")
    side = parts[0].lower()
    board: Board = {}
    for part in parts[1:]:
        colour = part[0].lower()
        if colour not in ("w", "b"):
            raise ValueError(f"bad FEN {text!r}")
        for token in filter(None, part[1:].split(",")):
            king = token.startswith("K")
            sq = token[1:] if king else token
            coords(sq)
            if sq in board:
                raise ValueError(f"square {sq} twice in {text!r}")
            board[sq] = colour.upper() if king else colour
    return board, side


def _sort_key(sq: str) -> tuple[int, int]:
    f, r = coords(sq)
    return r, f


def to_fen(board: Mapping[str, str], side: str) -> str:
    def part(colour: str) -> str:
        squares = sorted((s for s, p in board.items() if color_of(p) == colour), key=_sort_key)
        return ",".join(("K" + s) if is_king(board[s]) else s for s in squares)

    return f"{side.upper()}:W{part('w')}:B{part('b')}"


# --- rotation by 180 degrees with colours swapped --------------------------------------------


def rotate_square(sq: str, size: int = 8) -> str:
    f, r = coords(sq)
    return name(size - 1 - f, size - 1 - r)


def swap_piece(piece: str) -> str:
    return {"w": "b", "b": "w", "W": "B", "B": "W"}[piece]


def rotate_board(board: Mapping[str, str], side: str, size: int = 8) -> tuple[Board, str]:
    """Turn the board 180 degrees and swap the colours (the same game seen from the other side)."""
    return {rotate_square(s, size): swap_piece(p) for s, p in board.items()}, opponent(side)


def rotate_fen(fen: str, size: int = 8) -> str:
    board, side = parse_fen(fen)
    return to_fen(*rotate_board(board, side, size))


def rotate_notation(move: str, size: int = 8) -> str:
    """Rotate a move written in full notation ("d3xd5xf5", "d3-d4")."""
    sep = "x" if "x" in move else "-"
    return sep.join(rotate_square(s, size) for s in move.split(sep))


# --- move identity (docs/RULES.md) ----------------------------------------------------------------


def identity(route: Route) -> Identity:
    path, captured = route
    return path[0], path[-1], frozenset(captured)


def merge(routes: Iterable[Route]) -> dict[Identity, list[Route]]:
    """Group routes under the move identity: same start, same end, same set of captured."""
    moves: dict[Identity, list[Route]] = {}
    for route in routes:
        moves.setdefault(identity(route), []).append(route)
    return moves


def route_text(route: Route) -> str:
    path, captured = route
    return ("x" if captured else "-").join(path)
