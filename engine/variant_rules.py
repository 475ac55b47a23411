"""The rule parameters of a variant: the frozen record `Variant` and the enums and draw
rules (`DrawLaw`, `EndgameRule`) its fields take.

The records themselves, and the registry the bot offers (`VARIANTS`, `get_variant`), are
in ``engine.variants``, which re-exports these names; the rules are restated in
``docs/RULES.md``.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass


class Geometry(enum.Enum):
    """How pieces move: along ranks and files on all 64 squares, or diagonally on 32."""

    ORTHOGONAL = "orthogonal"
    DIAGONAL = "diagonal"


class CaptureRemoval(enum.Enum):
    """When captured pieces leave the board."""

    IMMEDIATE = "immediate"  # the moment they are jumped (Turkish, Arab)
    END_OF_MOVE = "end_of_move"  # together when the move is over; they block until then


class CapturePrecedence(enum.Enum):
    """Which of the available captures a player may choose."""

    MAXIMUM = "maximum"  # the most pieces; equal counts: free choice
    ITALIAN_LADDER = "italian_ladder"  # most pieces, king over man, most kings, earliest king
    FREE_CHOICE = "free_choice"  # any capture, whatever it takes (Russian, English checkers)


class CrownedMidCapture(enum.Enum):
    """What a man does when it reaches the far rank in the middle of a capture."""

    CONTINUES_AS_MAN = "continues_as_man"  # crowned only if the move ends there
    MOVE_ENDS = "move_ends"  # crowned at once; the move ends
    CONTINUES_AS_KING = "continues_as_king"  # crowned at once; goes on capturing as a king


class Endgame(enum.Enum):
    """The material (and, for one, the place) an endgame count applies to
    (`EndgameRule`). A "lone king" is a side whose only piece is a king; "the other side"
    is its opponent. `engine.draw_rules.is_endgame` decides whether a position is one."""

    # A lone king against three pieces of which at least one is a king (FMJD 6.3).
    LONE_KING_AGAINST_THREE_WITH_A_KING = "lone_king_against_three_with_a_king"
    # A lone king against one or two pieces of which at least one is a king: two kings, a
    # king and a man, or a king (FMJD 6.4; Russian rules 7.2.8).
    LONE_KING_AGAINST_TWO_WITH_A_KING = "lone_king_against_two_with_a_king"
    # A lone king against three pieces or more, all kings (Russian rules 7.2.4).
    LONE_KING_AGAINST_THREE_KINGS_OR_MORE = "lone_king_against_three_kings_or_more"
    # A lone king standing on the long diagonal against three pieces of which at least
    # one is a king (Russian rules 7.2.7).
    LONE_KING_ON_LONG_DIAGONAL_AGAINST_THREE = "lone_king_on_long_diagonal_against_three"
    # Both sides have at least one king; `EndgameRule.pieces` says how many pieces in all
    # (Russian rules 7.2.6).
    KINGS_ON_BOTH_SIDES = "kings_on_both_sides"
    # Each side has one or two pieces, at least one of them a king, and at most one man is
    # on the board: two kings against two kings, against one, against a king and a man; a
    # king against a king, against a king and a man (the Brazilian rules' short endings).
    KINGS_EACH_AT_MOST_TWO_PIECES_ONE_MAN = "kings_each_at_most_two_pieces_one_man"


class CountFrom(enum.Enum):
    """Where an endgame count starts (`EndgameRule.count_from`)."""

    # The ply that made the position one of the rule's endgame; nothing resets the count
    # while every position since has stayed one (a man crowned or a piece captured inside
    # the same endgame goes on counting).
    ENDGAME_REACHED = "endgame_reached"
    # The last change of the balance of forces: the last capture or crowning (or the
    # game's start position), as long as the position is one of the rule's endgame.
    BALANCE_CHANGED = "balance_changed"


class MovesOf(enum.Enum):
    """Whose moves an endgame count counts (`EndgameRule.moves_of`)."""

    EACH = "each"  # each player has played `moves` moves: 2 x `moves` plies
    # The stronger side's `moves`-th move (the Russian rules' "his 15th move"): the side
    # that is not the lone king; when both sides are a lone king, whichever side makes
    # its `moves`-th move first.
    STRONGER = "stronger"


@dataclass(frozen=True, slots=True)
class EndgameRule:
    """One endgame count: the game is drawn when `moves` moves (of `moves_of`) have been
    played since `count_from` while the position is an `endgame` (docs/RULES.md, the draw
    sections of Family 3). `pieces`: the total numbers of pieces on the board the rule
    applies to (empty: any). `article`: where the rule is written (for example "FMJD 6.3").

    Raises ValueError when `moves` is below 1, or when a `BALANCE_CHANGED` count is given
    to the one endgame that depends on a square (the long diagonal), which can begin and
    end without a capture or a crowning.
    """

    endgame: Endgame
    moves: int
    moves_of: MovesOf
    count_from: CountFrom
    article: str
    pieces: tuple[int, ...] = ()

    def __post_init__(self) -> None:
        if self.moves < 1:
            raise ValueError(f"{self.article}: an endgame count of {self.moves} moves")
        if (self.count_from is CountFrom.BALANCE_CHANGED
                and self.endgame is Endgame.LONE_KING_ON_LONG_DIAGONAL_AGAINST_THREE):
            raise ValueError(f"{self.article}: the long diagonal's endgame counts from when "
                             "it is reached, not from the balance of forces")


@dataclass(frozen=True, slots=True)
class DrawLaw:
    """The automatic draw rules of a variant (docs/RULES.md, draw sections).

    `repetitions`: the same position with the same side to move this many times is a draw.
    `one_piece_each`: a draw as soon as each side has exactly one piece.
    `no_progress_plies`: a draw after this many consecutive plies with no capture and no
    man move (80 for Arab and the diagonal variants; 30 for Turkish, whose rule is 30 plies
    in which only kings moved and nothing was captured, which is the same count, and for
    Russian draughts, whose rule is 15 such moves by each side; 50 for the FMJD's 25
    moves by each side in International draughts, 40 for Brazilian's 20).
    `endgame_rules`: the counts by material of International, Brazilian and Russian
    draughts (the FMJD's 16- and 5-move endgames, Brazilian's 5-move endings, the Russian
    counts), judged by `engine.draw_rules`; none in the other variants.
    """

    repetitions: int
    one_piece_each: bool
    no_progress_plies: int
    endgame_rules: tuple[EndgameRule, ...] = ()


@dataclass(frozen=True, slots=True)
class Variant:
    """One variant's rule parameters. Find one with `get_variant`.

    Fields:
      key, name, aliases: registry key (lower case), display name, other accepted names.
      geometry: ORTHOGONAL (every square of the board) or DIAGONAL (its dark squares).
      board_size: squares per rank and file, 8 or 10 (International: `engine.squares10`).
      a1_dark: on the diagonal board, the near-left corner a1 is dark, so the dark squares
        are those where file + rank is even (Brazilian, Russian, English checkers, and
        always on the 10×10 board); False: a1 light, the board of Moroccan and Italian
        draughts. False for ORTHOGONAL.
      men_per_side: pieces each side starts with (and may have at most).
      man_sideways: men also step and capture left and right (orthogonal family).
      men_capture_backward: men also capture diagonally backward (Brazilian, International,
        Russian); they still step forward only.
      flying_kings: kings move and capture at any distance along a line.
      capture_removal: IMMEDIATE or END_OF_MOVE.
      no_reversal: no 180-degree turn between two consecutive jumps of one move.
      men_capture_kings: men may jump kings (False in Italian).
      capture_precedence: MAXIMUM, ITALIAN_LADDER or FREE_CHOICE.
      crowned_mid_capture: CONTINUES_AS_MAN, MOVE_ENDS or CONTINUES_AS_KING.
      draw_law: automatic draw rules.
      numeric_notation: the variant also reads and writes numeric squares (Italian and
        English checkers 1..32, International 1..50), numbered row by row from the leftmost
        dark square of Black's back rank as seen from White (a8 when a1 is light, b8 when
        a1 is dark, b10 on the 10×10 board: `engine.squares_board`).
      pdn_gametype: PDN GameType number, None where there is none.
      start_fen: the start position in FEN, algebraic squares (on the 10×10 board the
        FMJD's numbers, `engine.squares10`); its side to move is the side that moves first
        (Black in English checkers).

    Raises ValueError when the board is not 8×8 or 10×10, when a 10×10 board has a light
    a1 (the FMJD board has a dark a1: docs/RULES.md, "Family 3"), or when an orthogonal
    board has `a1_dark` (it uses every square, so the field means nothing there).
    """

    key: str
    name: str
    aliases: tuple[str, ...]
    geometry: Geometry
    board_size: int
    a1_dark: bool
    men_per_side: int
    man_sideways: bool
    men_capture_backward: bool
    flying_kings: bool
    capture_removal: CaptureRemoval
    no_reversal: bool
    men_capture_kings: bool
    capture_precedence: CapturePrecedence
    crowned_mid_capture: CrownedMidCapture
    draw_law: DrawLaw
    numeric_notation: bool
    pdn_gametype: int | None
    start_fen: str

    def __post_init__(self) -> None:
        if self.board_size not in (8, 10):
            raise ValueError(f"{self.key}: board_size {self.board_size} is neither 8 nor 10")
        if self.board_size == 10 and not (self.geometry is Geometry.DIAGONAL and self.a1_dark):
            raise ValueError(f"{self.key}: the 10×10 board is diagonal with a dark a1")
        if self.geometry is Geometry.ORTHOGONAL and self.a1_dark:
            raise ValueError(f"{self.key}: a1_dark is for the diagonal board only")

    def is_playable(self, sq: int) -> bool:
        """Whether square `sq` (0..63, 0..99 on the 10×10 board: `rank * board_size +
        file`) is used: every square for orthogonal boards, dark squares for diagonal boards
        (file + rank odd when a1 is light, even when a1 is dark)."""
        size = self.board_size
        if not 0 <= sq < size * size:
            return False
        if self.geometry is Geometry.ORTHOGONAL:
            return True
        return (sq % size + sq // size) % 2 == (0 if self.a1_dark else 1)

    @property
    def playable_mask(self) -> int:
        """Bitboard of the playable squares (bit `sq` set when `is_playable(sq)`)."""
        key = (self.geometry, self.board_size, self.a1_dark)
        mask = _PLAYABLE_MASKS.get(key)
        if mask is None:
            mask = sum(1 << sq for sq in range(self.board_size**2) if self.is_playable(sq))
            _PLAYABLE_MASKS[key] = mask
        return mask

    def __str__(self) -> str:
        return self.name


#: Playable masks by (geometry, board size, a1 dark), filled by `Variant.playable_mask`.
_PLAYABLE_MASKS: dict[tuple[Geometry, int, bool], int] = {}
