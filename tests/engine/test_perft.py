"""Perft from the start positions against published tables, and agreement of the fast
perft/search path with the public move list.

Sources (docs/RULES.md "Move identity"):
- Italian: rhalbersma/dctl, test/src/algo/traversal/initial/board_08x08.cpp (after the
  damforum perft thread): 7, 49, 302, 1469, 7361, 36473, 177532, 828783.
- Turkish: Mazyod/kish, src/perft.rs: 8, 64, 708, 7538, 85090, 931312 (kish counts capture
  routes, which equals our move identity up to depth 6). Arab has the same moves.
- Moroccan: equal to Spanish draughts (dctl, same file) up to depth 10, because the
  Spanish king tiebreak first matters deeper: ..., 3860866, 17743464.
- Brazilian: rhalbersma/dctl, the same
  file (https://github.com/rhalbersma/dctl, test/src/algo/traversal/initial/board_08x08.cpp),
  its "drop duplicates" row, which is our move identity: 7, 49, 302, 1469, 7473, 37628,
  187302, 907830, 4431766; first published on the shashki.com "Standard validation
  generator moves" thread and by Rein Halbersma in "Perft for all recognized draughts
  variants" (https://damforum.nl/bb3/viewtopic.php?f=53&t=2822), to depth 7.
- International (10×10): rhalbersma/dctl, test/src/algo/traversal/initial/board_10x10.cpp
  (https://github.com/rhalbersma/dctl), its "drop duplicates" row: 9, 81, 658, 4265, 27117,
  167140, 1049442, 6483961 (the row that keeps duplicate captures has 6483971 at depth 8),
  after the FMJD forum "Perft" thread (https://damforum.nl/bb3/viewtopic.php?f=53&t=2308)
  and the shashki.com "Standard validation generator moves" thread.
- Russian draughts: rhalbersma/dctl, board_08x08.cpp above, its "drop duplicates"
  row: 7, 49, 302, 1469, 7482, 37986, 190146, 929899 (929905 at depth 8 when duplicate
  captures are kept), first derived in the shashki.com "Standard validation generator
  moves" thread (http://shashki.com/PNphpBB2-viewtopic-t-627-start-126.html).
- English checkers: OEIS A133046 (https://oeis.org/A133046): 7, 49, 302, 1469,
  7361, 36768, 179740, 845931, the same in dctl's file (its two rows first differ at
  depth 12, past these).
"""

from __future__ import annotations

import random

import pytest

from engine import (
    VARIANTS,
    Color,
    Position,
    PositionError,
    Variant,
    get_variant,
    legal_moves,
    perft,
)
from engine.movegen import play_unchecked, side_relative
from engine.movegen_core import generator
from engine.squares10 import fmjd_bitboard
from engine.variants import INTERNATIONAL

ITALIAN = (7, 49, 302, 1469, 7361, 36473, 177532, 828783)
TURKISH = (8, 64, 708, 7538, 85090, 931312)
SPANISH = (7, 49, 302, 1469, 7361, 36473, 177532, 828783, 3860866, 17743464)

BRAZILIAN = (7, 49, 302, 1469, 7473, 37628, 187302, 907830, 4431766)
RUSSIAN = (7, 49, 302, 1469, 7482, 37986, 190146, 929899)
ENGLISH = (7, 49, 302, 1469, 7361, 36768, 179740, 845931)

TABLES = {
    "italian": ITALIAN,
    "turkish": TURKISH,
    "arab": TURKISH,
    "moroccan": SPANISH,
    "brazilian": BRAZILIAN,
    "russian": RUSSIAN,
    "english": ENGLISH,
}
FAST_DEPTH = {
    "italian": 7, "turkish": 5, "arab": 5, "moroccan": 7, "brazilian": 7, "russian": 6,
    "english": 6,
}


FAST = [
    (key, depth, TABLES[key][depth - 1])
    for key in TABLES
    for depth in range(1, FAST_DEPTH[key] + 1)
]
SLOW = [
    (key, depth, TABLES[key][depth - 1])
    for key in TABLES
    for depth in range(FAST_DEPTH[key] + 1, len(TABLES[key]) + 1)
]


@pytest.mark.parametrize(("key", "depth", "expected"), FAST)
def test_start_perft(key: str, depth: int, expected: int) -> None:
    variant = get_variant(key)
    assert perft(Position.start(variant), variant, depth) == expected


@pytest.mark.slow
@pytest.mark.parametrize(("key", "depth", "expected"), SLOW)
def test_start_perft_deep(key: str, depth: int, expected: int) -> None:
    variant = get_variant(key)
    assert perft(Position.start(variant), variant, depth) == expected


INTERNATIONAL_TABLE = (9, 81, 658, 4265, 27117, 167140, 1049442, 6483961)
INTERNATIONAL_FAST_DEPTH = 6


def international_start_perft(depth: int) -> int:
    """Perft of the International start through `engine.perft` and `Position.start`."""
    return perft(Position.start(INTERNATIONAL), INTERNATIONAL, depth)


def test_international_start_position_is_the_fmjd_setup() -> None:
    start = Position.start(INTERNATIONAL)
    assert start.board_size == 10 and start.turn is Color.WHITE
    assert start.white_men == fmjd_bitboard(range(31, 51)) and not start.white_kings
    assert start.black_men == fmjd_bitboard(range(1, 21)) and not start.black_kings


def test_international_perft_through_the_public_api_equals_the_generators() -> None:
    white, black = fmjd_bitboard(range(31, 51)), fmjd_bitboard(range(1, 21))
    for depth in (1, 2, 3):
        assert international_start_perft(depth) == generator(INTERNATIONAL).perft(
            white, 0, black, 0, 0, depth
        )


@pytest.mark.parametrize(
    ("depth", "expected"),
    list(enumerate(INTERNATIONAL_TABLE[:INTERNATIONAL_FAST_DEPTH], start=1)),
)
def test_international_start_perft(depth: int, expected: int) -> None:
    assert international_start_perft(depth) == expected


@pytest.mark.slow
@pytest.mark.parametrize(
    ("depth", "expected"),
    list(enumerate(INTERNATIONAL_TABLE, start=1))[INTERNATIONAL_FAST_DEPTH:],
)
def test_international_start_perft_deep(depth: int, expected: int) -> None:
    assert international_start_perft(depth) == expected


def test_perft_depth_zero_and_negative() -> None:
    variant = get_variant("italian")
    assert perft(Position.start(variant), variant, 0) == 1
    with pytest.raises(ValueError):
        perft(Position.start(variant), variant, -1)


def test_a_side_without_moves_adds_nothing() -> None:
    variant = get_variant("italian")
    blocked = Position.from_fen("B:Wb1,h3:Ba2", variant)
    assert legal_moves(blocked, variant) == []
    assert perft(blocked, variant, 1) == 0
    assert perft(blocked, variant, 3) == 0


def random_position(variant: Variant, rng: random.Random) -> Position:
    """A random legal position: up to the variant's piece count per side, kings included,
    no man on its own crowning rank, pieces on playable squares only."""
    squares = [sq for sq in range(64) if variant.is_playable(sq)]
    rng.shuffle(squares)
    boards = [0, 0, 0, 0]  # white men, white kings, black men, black kings
    for side in (0, 1):
        for _ in range(rng.randint(1, variant.men_per_side // 2 + 2)):
            sq = squares.pop()
            crowning = sq >> 3 == (7 if side == 0 else 0)
            king = crowning or rng.random() < 0.3
            boards[side * 2 + (1 if king else 0)] |= 1 << sq
    turn = Color.WHITE if rng.random() < 0.5 else Color.BLACK
    return Position(boards[0], boards[1], boards[2], boards[3], turn)


def positions_for(variant: Variant, seed: int, count: int) -> list[Position]:
    rng = random.Random(seed)
    out = [random_position(variant, rng) for _ in range(count)]
    # and positions of random games from the start
    for _ in range(count // 20):
        p = Position.start(variant)
        for _ in range(rng.randint(10, 120)):
            moves = legal_moves(p, variant)
            if not moves:
                break
            p = play_unchecked(p, rng.choice(moves), variant)
            out.append(p)
    return out


@pytest.mark.parametrize(
    "variant",
    [v for v in VARIANTS.values() if v.board_size == 8],
    ids=lambda v: v.key,
)
def test_fast_path_agrees_with_the_move_list(variant: Variant) -> None:
    # The perft/search path (move keys, bulk counts, successor positions) and the public
    # route-keeping path are two implementations of the same rules; they must agree.
    g = generator(variant)
    for p in positions_for(variant, seed=2026, count=600):
        moves = legal_moves(p, variant)
        state = side_relative(p)
        assert g.count_moves(*state) == len(moves)
        assert g.count_moves_reference(*state) == len(moves)
        assert len(set(moves)) == len(moves)
        children = g.children(*state)
        assert len(children) == len(moves)
        after = [play_unchecked(p, m, variant) for m in moves]
        expected = set()
        for q in after:
            them = side_relative(q)
            expected.add(them[:4])
        assert set(children) == expected
        if moves and moves[0].is_capture:
            keys = set(g.capture_keys(*state))
            assert keys == {
                (m.start, m.end, sum(1 << s for s in m.captured)) for m in moves
            }


def test_a_position_of_another_board_is_refused() -> None:
    italian = get_variant("italian")
    with pytest.raises(PositionError, match="10×10"):
        legal_moves(Position.start(italian), INTERNATIONAL)
    with pytest.raises(PositionError, match="8×8"):
        perft(Position.start(INTERNATIONAL), italian, 1)
