"""The Italian capture ladder (docs/RULES.md, Italian): a position for every pair of its
steps that can choose differently, with the exact legal moves written by hand from the
ladder. Each case is checked against the engine (as given and turned 180 degrees with the
colours swapped) and shown to tell its two steps apart: with them swapped, the independent
reference ladder (tests/engine/oracles/ladder.py) gives another move set, so an engine
with those steps swapped fails here.

The ladder: 1 the most pieces; 2 a king's capture over a man's; 3 the most kings; 4 the
capture that meets a king earliest (captured kings' positions compared in turn). Steps 2
and 3, and 2 and 4, never disagree: an Italian man never captures a king, so a man's
capture has no king for steps 3 or 4 to prefer.
"""

from __future__ import annotations

import pytest

from .oracles.board import parse_fen
from .oracles.ladder import legal_under, swapped
from .oracles.rulecases import RuleCase, check_engine, describe, expected_identities

ITALIAN = ("italian",)

#: (the two steps the case tells apart, the case)
CASES = [
    (
        (1, 2),
        RuleCase(
            "step 1 before step 2: the man's capture of two (d3, d5) beats the king's capture "
            "of one (g4), though a king's capture comes first on step 2",
            ITALIAN,
            "W:Wc2,Kh3:Bd3,d5,g4",
            ("c2xe4xc6",),
        ),
    ),
    (
        (1, 3),
        RuleCase(
            "step 1 before step 3: three men (b3, b5, b7) beat two kings (d3, f5)",
            ITALIAN,
            "W:WKc2:Bb3,Kd3,b5,Kf5,b7",
            ("c2xa4xc6xa8",),
        ),
    ),
    (
        (1, 4),
        RuleCase(
            "step 1 before step 4: two men (b3, b5) beat one king taken at once (d3)",
            ITALIAN,
            "W:WKc2:Bb3,Kd3,b5",
            ("c2xa4xc6",),
        ),
    ),
    (
        (3, 4),
        RuleCase(
            "step 3 before step 4: man then two kings (b3, Kb5, Kb7) beats king then two men "
            "(Kd3, f5, f7), though the latter meets a king earlier",
            ITALIAN,
            "W:WKc2:Bb3,Kd3,Kb5,f5,Kb7,f7",
            ("c2xa4xc6xa8",),
        ),
    ),
    (
        (1, 4),
        RuleCase(
            "step 4 only among the most pieces: three pieces meeting a king last (b3, b5, Kb7) "
            "beat one piece that is a king met at once (Kd3)",
            ITALIAN,
            "W:WKc2:Bb3,Kd3,b5,Kb7",
            ("c2xa4xc6xa8",),
        ),
    ),
]

PARAMS = [
    pytest.param(pair, case if not turned else case.rotated(), id=f"{i}-steps{pair}-{tag}")
    for i, (pair, case) in enumerate(CASES)
    for turned, tag in ((False, "white"), (True, "black"))
]


@pytest.mark.parametrize(("pair", "case"), PARAMS)
def test_ladder_case(pair: tuple[int, int], case: RuleCase) -> None:
    check_engine(case, "italian")
    board, side = parse_fen(case.fen)
    expected = expected_identities(case, "italian")
    assert legal_under(board, side) == expected, case.rule
    other = legal_under(board, side, swapped(*pair))
    assert other != expected, (
        f"{case.rule}: steps {pair} swapped give the same moves {describe(other)}"
    )
