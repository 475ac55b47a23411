"""The records of the variants of docs/RULES.md's "Family 3" (diagonal, a1 dark):
Brazilian draughts, International draughts, Russian draughts and English checkers, with
their draw laws.

The bot offers them with the other four: they are in `engine.VARIANTS` and found by
`engine.get_variant` (which reads their aliases too). `A1_DARK_VARIANTS` maps the four
keys to their records, in `VARIANTS`' order: the records of `VARIANTS` whose board has a
dark a1 (`Variant.a1_dark`).

Their rule parameters are those of `engine.variant_rules.Variant`. The move generator of
`engine.movegen_core` plays the four (Russian and English checkers with free choice of
capture, `CapturePrecedence.FREE_CHOICE`, and Russian with
`CrownedMidCapture.CONTINUES_AS_KING`); the reference generators of the tests
(tests/engine/oracles/) play them too, International on its own 10x10 reference.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from engine.variant_rules import (
    CapturePrecedence,
    CaptureRemoval,
    CountFrom,
    CrownedMidCapture,
    DrawLaw,
    Endgame,
    EndgameRule,
    Geometry,
    MovesOf,
    Variant,
)

#: The 12 men each of the 8x8 diagonal board whose near-left corner a1 is dark.
_A1_DARK_WHITE = "a1,c1,e1,g1,b2,d2,f2,h2,a3,c3,e3,g3"
_A1_DARK_BLACK = "b6,d6,f6,h6,a7,c7,e7,g7,b8,d8,f8,h8"

#: The start of Brazilian and Russian draughts (White moves first).
_A1_DARK_START = f"W:W{_A1_DARK_WHITE}:B{_A1_DARK_BLACK}"

#: The FMJD's draw rules (*FMJD rules*, article 6), International's: threefold repetition
#: (6.1); 25 moves by each player of kings only, without a man moving or a capture (6.2: 50
#: plies); a lone king against three pieces with a king, 16 more moves each (6.3); against
#: two kings, a king and a man, or a king, 5 more moves each (6.4).
FMJD_DRAW_LAW = DrawLaw(
    repetitions=3,
    one_piece_each=False,
    no_progress_plies=50,
    endgame_rules=(
        EndgameRule(Endgame.LONE_KING_AGAINST_THREE_WITH_A_KING, 16, MovesOf.EACH,
                    CountFrom.ENDGAME_REACHED, "FMJD 6.3"),
        EndgameRule(Endgame.LONE_KING_AGAINST_TWO_WITH_A_KING, 5, MovesOf.EACH,
                    CountFrom.ENDGAME_REACHED, "FMJD 6.4"),
    ),
)

#: The draw rules of Brazilian draughts (*Brazilian rules* 18 and 19): threefold repetition
#: (the FMJD's 6.1); 20 moves by each player of kings only, without a capture or a man
#: moving (18: 40 plies); the endings of two kings against two kings, against one king,
#: against a king and a man, of a king against a king, against a king and a man: 5 moves
#: by each player (19).
BRAZILIAN_DRAW_LAW = DrawLaw(
    repetitions=3,
    one_piece_each=False,
    no_progress_plies=40,
    endgame_rules=(
        EndgameRule(Endgame.KINGS_EACH_AT_MOST_TWO_PIECES_ONE_MAN, 5, MovesOf.EACH,
                    CountFrom.ENDGAME_REACHED, "Brazilian rules 19"),
    ),
)

#: The draw rules of Russian draughts (*FMJD-64 rules*, 7.2.3 to 7.2.8): threefold
#: repetition (7.2.3); 15 moves by each player of kings only, without a man moving or a
#: capture (7.2.5: 30 plies); three kings or more against a lone king, the stronger side's
#: 15th move counted from the balance of forces (7.2.4); kings on both sides and the
#: balance unchanged, 30 moves in endings of 4 and 5 pieces, 60 in endings of 6 and 7
#: (7.2.6); three pieces with a king against a lone king on the long diagonal, the stronger
#: side's 5th move (7.2.7); two kings, a king and a man, or a king against a lone king, the
#: stronger side's 5th move (7.2.8).
RUSSIAN_DRAW_LAW = DrawLaw(
    repetitions=3,
    one_piece_each=False,
    no_progress_plies=30,
    endgame_rules=(
        EndgameRule(Endgame.LONE_KING_AGAINST_THREE_KINGS_OR_MORE, 15, MovesOf.STRONGER,
                    CountFrom.BALANCE_CHANGED, "FMJD-64 7.2.4"),
        EndgameRule(Endgame.KINGS_ON_BOTH_SIDES, 30, MovesOf.EACH,
                    CountFrom.BALANCE_CHANGED, "FMJD-64 7.2.6", pieces=(4, 5)),
        EndgameRule(Endgame.KINGS_ON_BOTH_SIDES, 60, MovesOf.EACH,
                    CountFrom.BALANCE_CHANGED, "FMJD-64 7.2.6", pieces=(6, 7)),
        EndgameRule(Endgame.LONE_KING_ON_LONG_DIAGONAL_AGAINST_THREE, 5, MovesOf.STRONGER,
                    CountFrom.ENDGAME_REACHED, "FMJD-64 7.2.7"),
        EndgameRule(Endgame.LONE_KING_AGAINST_TWO_WITH_A_KING, 5, MovesOf.STRONGER,
                    CountFrom.ENDGAME_REACHED, "FMJD-64 7.2.8"),
    ),
)

# Brazilian draughts: the FMJD's International rules on the 8x8 board with a dark a1, with
# the Brazilian rules' own draws (docs/RULES.md, "Brazilian draughts").
BRAZILIAN = Variant(
    key="brazilian",
    name="Brazilian draughts",
    aliases=("brazilian-draughts", "damas-brasileiras", "br"),
    geometry=Geometry.DIAGONAL,
    board_size=8,
    a1_dark=True,
    men_per_side=12,
    man_sideways=False,
    men_capture_backward=True,
    flying_kings=True,
    capture_removal=CaptureRemoval.END_OF_MOVE,
    no_reversal=False,
    men_capture_kings=True,
    capture_precedence=CapturePrecedence.MAXIMUM,
    crowned_mid_capture=CrownedMidCapture.CONTINUES_AS_MAN,
    draw_law=BRAZILIAN_DRAW_LAW,
    numeric_notation=False,
    pdn_gametype=26,
    start_fen=_A1_DARK_START,
)

# International draughts (FMJD) on the 10x10 board: Brazilian's rules with 20 men each.
# Its start is written with the FMJD's square numbers 1..50 (`engine.squares10`), which
# its notation uses (`32-28`, `28x19`).
INTERNATIONAL = Variant(
    key="international",
    name="International draughts",
    aliases=("international-draughts", "fmjd", "polish-draughts", "int"),
    geometry=Geometry.DIAGONAL,
    board_size=10,
    a1_dark=True,
    men_per_side=20,
    man_sideways=False,
    men_capture_backward=True,
    flying_kings=True,
    capture_removal=CaptureRemoval.END_OF_MOVE,
    no_reversal=False,
    men_capture_kings=True,
    capture_precedence=CapturePrecedence.MAXIMUM,
    crowned_mid_capture=CrownedMidCapture.CONTINUES_AS_MAN,
    draw_law=FMJD_DRAW_LAW,
    numeric_notation=True,
    pdn_gametype=20,
    start_fen="W:W31-50:B1-20",
)

RUSSIAN = Variant(
    key="russian",
    name="Russian draughts",
    aliases=("russian-draughts", "shashki", "ru"),
    geometry=Geometry.DIAGONAL,
    board_size=8,
    a1_dark=True,
    men_per_side=12,
    man_sideways=False,
    men_capture_backward=True,
    flying_kings=True,
    capture_removal=CaptureRemoval.END_OF_MOVE,
    no_reversal=False,
    men_capture_kings=True,
    capture_precedence=CapturePrecedence.FREE_CHOICE,
    crowned_mid_capture=CrownedMidCapture.CONTINUES_AS_KING,
    draw_law=RUSSIAN_DRAW_LAW,
    numeric_notation=False,
    pdn_gametype=25,
    start_fen=_A1_DARK_START,
)

ENGLISH = Variant(
    key="english",
    name="English checkers",
    aliases=("english-checkers", "english-draughts", "checkers", "american-checkers", "en"),
    geometry=Geometry.DIAGONAL,
    board_size=8,
    a1_dark=True,
    men_per_side=12,
    man_sideways=False,
    men_capture_backward=False,
    flying_kings=False,
    capture_removal=CaptureRemoval.END_OF_MOVE,
    no_reversal=False,
    men_capture_kings=True,
    capture_precedence=CapturePrecedence.FREE_CHOICE,
    crowned_mid_capture=CrownedMidCapture.MOVE_ENDS,
    # Threefold repetition and the 40-move rule (40 moves by each side, 80 plies, without
    # a capture or a man move: docs/RULES.md, "English checkers", reads the federations'
    # count this way).
    draw_law=DrawLaw(repetitions=3, one_piece_each=False, no_progress_plies=80),
    numeric_notation=True,
    pdn_gametype=21,
    start_fen=f"B:W{_A1_DARK_WHITE}:B{_A1_DARK_BLACK}",
)

#: The four variants of docs/RULES.md's "Family 3" by key, in `engine.VARIANTS`' order.
A1_DARK_VARIANTS: Mapping[str, Variant] = MappingProxyType(
    {v.key: v for v in (INTERNATIONAL, BRAZILIAN, RUSSIAN, ENGLISH)}
)
