"""`Position`: the pieces on the board and the side to move, with its FEN text form.

FEN (PDN style): ``W:Wa2,b2,Kd4:Ba7,Kh8`` - the side to move (`W`/`B`), then White's
pieces, then Black's (either order); `K` marks a king. Squares are algebraic for every
variant (a1..h8, a1..j10 on the 10×10 board); variants with numeric notation also read
numeric squares and ranges (Italian and English checkers 1..32, ``W:W21-32:B1-12``;
International 1..50, the FMJD's ``W:W31-50:B1-20``) and write them on request
(``to_fen(variant, numeric=True)``). Squares and numbers: `engine.squares_board`.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING

from engine.errors import PositionError, quoted
from engine.pieces import Color, Piece, PieceKind
from engine.squares import iter_bits
from engine.squares_board import name_on, number_of, numeric_squares, parse_square_on, square_of

if TYPE_CHECKING:
    from engine.variants import Variant

#: Every square of the board, by board size.
_FULL = {8: (1 << 64) - 1, 10: (1 << 100) - 1}
_FULL_8 = _FULL[8]
#: White's near rank and far rank, by board size (a man is crowned on its far rank).
_RANK_1 = {8: 0xFF, 10: 0x3FF}
_RANK_LAST = {8: 0xFF << 56, 10: 0x3FF << 90}
#: Most characters of a FEN repeated in an error message (a full board is about 140).
_FEN_QUOTE_LIMIT = 160

_WHITE_MAN = Piece(Color.WHITE, PieceKind.MAN)
_WHITE_KING = Piece(Color.WHITE, PieceKind.KING)
_BLACK_MAN = Piece(Color.BLACK, PieceKind.MAN)
_BLACK_KING = Piece(Color.BLACK, PieceKind.KING)

_TOKEN = re.compile(r"^(K?)(?:([a-j]\d{1,2})|(\d{1,2})(?:-(\d{1,2}))?)$", re.IGNORECASE)


@dataclass(frozen=True, slots=True)
class Position:
    """Pieces and side to move. Immutable and hashable (for repetition counting).

    Four bitboards (bit i = square i: a1 = 0 .. h8 = 63 on the 8×8 board, a1 = 0 .. j10 =
    99 on the 10×10 one, `rank * board_size + file`), `turn`, the side to move, and
    `board_size` (8 or 10, the variant's `Variant.board_size`; positions on different
    boards are never equal). The constructor checks only that the board size is 8 or 10 and
    that the bitboards fit the board and do not overlap (raises PositionError); variant
    rules (playable squares, piece counts) are checked by `from_fen`.
    """

    white_men: int
    white_kings: int
    black_men: int
    black_kings: int
    turn: Color
    board_size: int = 8

    def __post_init__(self) -> None:
        wm, wk, bm, bk = self.white_men, self.white_kings, self.black_men, self.black_kings
        full = _FULL_8 if self.board_size == 8 else _FULL.get(self.board_size)
        if full is None:
            raise PositionError(f"board size {self.board_size} is neither 8 nor 10")
        if (wm | wk | bm | bk) & ~full or min(wm, wk, bm, bk) < 0:
            last = self.board_size * self.board_size - 1
            raise PositionError(f"a bitboard has bits outside squares 0..{last}")
        if wm & wk or wm & bm or wm & bk or wk & bm or wk & bk or bm & bk:
            raise PositionError("two pieces stand on the same square")

    # --- construction -------------------------------------------------------------------

    @classmethod
    def start(cls, variant: Variant) -> Position:
        """The start position of `variant` (White to move)."""
        return _start(variant)

    @classmethod
    def from_fen(cls, text: str, variant: Variant) -> Position:
        """The position written as FEN `text` for `variant`.

        Accepts ``W:Wa2,b2,Kd4:Ba7,Kh8`` (any case, spaces ignored, an optional trailing
        `.`; squares of the variant's board, a1..j10 on 10×10), an empty piece list
        (``B:W:Bd4``), and for numeric variants (Italian, English checkers, International)
        also numeric squares and ranges (``W:W21-32:B1-12``, ``W:W31-50:B1-20``). The
        position gets the variant's `board_size`.

        Raises PositionError naming the problem: no side to move, unknown tokens, numeric
        squares in a non-numeric variant, pieces on light squares of a diagonal board, a man
        on its own crowning rank, a square listed twice, more pieces than the variant's
        `men_per_side`.
        """
        shown = quoted(text.strip(), _FEN_QUOTE_LIMIT)
        text = "".join(text.split()).rstrip(".")
        if text.startswith('"') and text.endswith('"') and len(text) >= 2:
            text = text[1:-1]
        parts = text.split(":")
        if not parts or parts[0].upper() not in ("W", "B"):
            raise PositionError(
                f"FEN {shown} must start with the side to move, W or B, "
                "as in W:Wa2,b2,Kd4:Ba7,Kh8"
            )
        turn = Color.WHITE if parts[0].upper() == "W" else Color.BLACK
        boards = {Color.WHITE: [0, 0], Color.BLACK: [0, 0]}
        seen_sides: set[Color] = set()
        owner: dict[int, str] = {}
        size = variant.board_size
        for part in parts[1:]:
            if not part:
                continue
            side_letter = part[0].upper()
            if side_letter not in ("W", "B"):
                raise PositionError(
                    f"unknown token {quoted(part)} in FEN {shown}: each piece list starts with "
                    "W or B, as in W:Wa2,b2,Kd4:Ba7,Kh8"
                )
            color = Color.WHITE if side_letter == "W" else Color.BLACK
            side_name = color.value.capitalize()
            if color in seen_sides:
                raise PositionError(f"{side_name}'s pieces are listed twice in FEN {shown}")
            seen_sides.add(color)
            for token in part[1:].split(","):
                if not token:
                    continue
                for sq, is_king in _read_token(token, variant, side_name):
                    name = name_on(sq, size)
                    if sq in owner:
                        raise PositionError(f"square {name} is listed twice in FEN {shown}")
                    owner[sq] = side_name
                    if not variant.is_playable(sq):
                        raise PositionError(
                            f"{name} is a light square: pieces in {variant.name} stand on "
                            f"dark squares only ({dark_squares_hint(variant)})"
                        )
                    crowning = _RANK_LAST[size] if color is Color.WHITE else _RANK_1[size]
                    if not is_king and (1 << sq) & crowning:
                        raise PositionError(
                            f"the {color.value} man on {name} stands on its own crowning "
                            f"rank: write it as a king (K{name})"
                        )
                    boards[color][1 if is_king else 0] |= 1 << sq
        for color, (men, kings) in boards.items():
            count = (men | kings).bit_count()
            if count > variant.men_per_side:
                raise PositionError(
                    f"{color.value.capitalize()} has {count} pieces; {variant.name} allows "
                    f"at most {variant.men_per_side}"
                )
        return cls(
            boards[Color.WHITE][0], boards[Color.WHITE][1],
            boards[Color.BLACK][0], boards[Color.BLACK][1], turn, size,
        )

    # --- output ---------------------------------------------------------------------------

    def to_fen(self, variant: Variant, *, numeric: bool = False) -> str:
        """This position as FEN, e.g. ``W:Wa2,b2,Kd4:Ba7,Kh8``.

        Each side lists its men, then its kings, each in ascending order (algebraic: square
        index; numeric: number). `numeric=True` writes numeric squares (``W:W21,22,K5:B1,2``;
        International: ``W:W31,32,...,50:B1,...,20``) and raises PositionError for a variant
        without numeric notation or a variant on another board than the position's.
        """
        if numeric and not variant.numeric_notation:
            raise PositionError(f"{variant.name} has no numeric notation; use algebraic squares")
        size = self.board_size
        if variant.board_size != size:
            raise PositionError(
                f"this position is on a {size}×{size} board; {variant.name} is played on "
                f"{variant.board_size}×{variant.board_size}"
            )

        def names(bb: int) -> list[str]:
            if numeric:
                numbers = (number_of(sq, variant) for sq in iter_bits(bb))
                return [str(n) for n in sorted(numbers)]
            return [name_on(sq, size) for sq in iter_bits(bb)]

        sections = []
        for letter, men, kings in (
            ("W", self.white_men, self.white_kings),
            ("B", self.black_men, self.black_kings),
        ):
            items = names(men) + ["K" + n for n in names(kings)]
            sections.append(letter + ",".join(items))
        return f"{self.turn.letter}:{sections[0]}:{sections[1]}"

    def __str__(self) -> str:
        size = self.board_size
        width = len(str(size))
        rows = []
        for rank in range(size - 1, -1, -1):
            row = []
            for file in range(size):
                piece = self.piece_at(rank * size + file)
                row.append("." if piece is None else _SYMBOL[piece])
            rows.append(f"{rank + 1:>{width}} {' '.join(row)}")
        rows.append(" " * (width + 1) + " ".join("abcdefghij"[:size]))
        return "\n".join(rows)

    # --- queries --------------------------------------------------------------------------

    def piece_at(self, sq: int) -> Piece | None:
        """The piece on square `sq` (0..63; 0..99 on the 10×10 board), or None when it is
        empty."""
        bit = 1 << sq
        if self.white_men & bit:
            return _WHITE_MAN
        if self.white_kings & bit:
            return _WHITE_KING
        if self.black_men & bit:
            return _BLACK_MAN
        if self.black_kings & bit:
            return _BLACK_KING
        return None

    def pieces(self) -> Iterator[tuple[int, Piece]]:
        """Every (square, piece) on the board, in ascending square order."""
        occupied = self.occupied
        for sq in iter_bits(occupied):
            piece = self.piece_at(sq)
            assert piece is not None
            yield sq, piece

    @property
    def occupied(self) -> int:
        """Bitboard of every occupied square."""
        return self.white_men | self.white_kings | self.black_men | self.black_kings

    def men(self, color: Color) -> int:
        """Bitboard of `color`'s men."""
        return self.white_men if color is Color.WHITE else self.black_men

    def kings(self, color: Color) -> int:
        """Bitboard of `color`'s kings."""
        return self.white_kings if color is Color.WHITE else self.black_kings

    def occupied_by(self, color: Color) -> int:
        """Bitboard of every square holding a piece of `color`."""
        return self.men(color) | self.kings(color)

    def count(self, color: Color) -> int:
        """How many pieces `color` has."""
        return self.occupied_by(color).bit_count()

    def with_turn(self, turn: Color) -> Position:
        """The same pieces with `turn` to move."""
        return Position(
            self.white_men, self.white_kings, self.black_men, self.black_kings, turn,
            self.board_size,
        )

    def flipped(self) -> Position:
        """The position turned 180 degrees with the colours swapped (a mirror test helper):
        a white man on a2 becomes a black man on h7 (j9 on the 10×10 board), and the other
        side is to move."""
        last = self.board_size * self.board_size - 1
        return Position(
            _rotate(self.black_men, last), _rotate(self.black_kings, last),
            _rotate(self.white_men, last), _rotate(self.white_kings, last),
            self.turn.opponent, self.board_size,
        )


_SYMBOL = {_WHITE_MAN: "w", _WHITE_KING: "W", _BLACK_MAN: "b", _BLACK_KING: "B"}


def dark_squares_hint(variant: Variant) -> str:
    """Where the dark squares of `variant`'s diagonal board are, for error messages:
    "a1 is light, b1 and a2 are dark", or the reverse when `variant.a1_dark`."""
    if variant.a1_dark:
        return "a1 is dark, b1 and a2 are light"
    return "a1 is light, b1 and a2 are dark"


def _rotate(bb: int, last: int) -> int:
    out = 0
    for sq in iter_bits(bb):
        out |= 1 << (last - sq)
    return out


def _read_token(token: str, variant: Variant, side_name: str) -> list[tuple[int, bool]]:
    size = variant.board_size
    count = numeric_squares(variant)
    corner = name_on(size * size - 1, size)
    match = _TOKEN.match(token)
    if match is None:
        hint = (
            f"squares 1-{count} or a1-{corner}" if variant.numeric_notation
            else "squares such as a2"
        )
        raise PositionError(
            f"unknown token {quoted(token)} in {side_name}'s pieces: use {hint}, "
            "with K before a king (Kd4)"
        )
    is_king = bool(match.group(1))
    if match.group(2):
        try:
            return [(parse_square_on(match.group(2), size), is_king)]
        except ValueError:
            raise PositionError(
                f"unknown token {quoted(token)} in {side_name}'s pieces: the squares of "
                f"{variant.name} run from a1 to {corner}"
            ) from None
    if not variant.numeric_notation:
        raise PositionError(
            f"numeric square {quoted(token)} in {side_name}'s pieces: {variant.name} uses "
            "algebraic squares such as a2 (numeric squares are for Italian, English "
            "checkers and International draughts)"
        )
    first = int(match.group(3))
    last = int(match.group(4)) if match.group(4) else first
    if not (1 <= first <= count and 1 <= last <= count) or last < first:
        raise PositionError(
            f"unknown token {quoted(token)} in {side_name}'s pieces: "
            f"numeric squares run from 1 to {count}"
        )
    return [(square_of(n, variant), is_king) for n in range(first, last + 1)]


@cache
def _start(variant: Variant) -> Position:
    return Position.from_fen(variant.start_fen, variant)

