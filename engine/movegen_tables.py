"""Precomputed board tables for move generation, one set per geometry and board size.

Directions are numbered 0..3 so that the reverse of direction d is (d + 2) % 4:
orthogonal N(+8), E(+1), S(-8), W(-1); diagonal NE(+9), SE(-7), SW(-9), NW(+7) on the 8×8
board, NE(+11), SE(-9), SW(-11), NW(+9) on the 10×10 one. Square indices are
`rank * size + file`: on 8×8 those of `engine.squares` (a1 = 0, h8 = 63), on 10×10 those of
`engine.squares10` (a1 = 0, j10 = 99).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from engine.variants import Geometry

FULL = (1 << 64) - 1
RANK_1 = 0xFF
RANK_8 = 0xFF << 56

_STEPS = {
    Geometry.ORTHOGONAL: ((0, 1), (1, 0), (0, -1), (-1, 0)),  # (dfile, drank): N E S W
    Geometry.DIAGONAL: ((1, 1), (1, -1), (-1, -1), (-1, 1)),  # NE SE SW NW
}


@dataclass(frozen=True, slots=True)
class Tables:
    """Direction tables of one geometry.

    size: squares per rank and file (8 or 10); full: every square of the board as a
    bitboard; first_rank / last_rank: White's near rank and far rank as bitboards.
    deltas[d]: square index change of one step in direction d.
    drank[d]: rank change of one step (+1 away from White, -1 toward White, 0 sideways).
    nxt[d][sq]: the square one step from sq in direction d, or -1 off the board.
    rays[d][sq]: the squares from sq in direction d to the edge, nearest first (sq excluded).
    ray_masks[d][sq]: those squares as a bitboard.
    src1[d] / src2[d]: bitboards of the squares from which one / two steps in d stay on
    the board.
    """

    size: int
    full: int
    first_rank: int
    last_rank: int
    deltas: tuple[int, ...]
    drank: tuple[int, ...]
    nxt: tuple[tuple[int, ...], ...]
    rays: tuple[tuple[tuple[int, ...], ...], ...]
    ray_masks: tuple[tuple[int, ...], ...]
    src1: tuple[int, ...]
    src2: tuple[int, ...]


@cache
def tables(geometry: Geometry, size: int = 8) -> Tables:
    """The direction tables of `geometry` on a `size` × `size` board (computed once)."""
    steps = _STEPS[geometry]
    nxt: list[tuple[int, ...]] = []
    rays: list[tuple[tuple[int, ...], ...]] = []
    masks: list[tuple[int, ...]] = []
    src1: list[int] = []
    src2: list[int] = []
    for df, dr in steps:
        n_row: list[int] = []
        r_row: list[tuple[int, ...]] = []
        m_row: list[int] = []
        s1 = s2 = 0
        for sq in range(size * size):
            r, f = divmod(sq, size)
            ray: list[int] = []
            ff, rr = f + df, r + dr
            while 0 <= ff < size and 0 <= rr < size:
                ray.append(rr * size + ff)
                ff, rr = ff + df, rr + dr
            n_row.append(ray[0] if ray else -1)
            r_row.append(tuple(ray))
            m_row.append(sum(1 << s for s in ray))
            if len(ray) >= 1:
                s1 |= 1 << sq
            if len(ray) >= 2:
                s2 |= 1 << sq
        nxt.append(tuple(n_row))
        rays.append(tuple(r_row))
        masks.append(tuple(m_row))
        src1.append(s1)
        src2.append(s2)
    rank = (1 << size) - 1
    return Tables(
        size=size,
        full=(1 << (size * size)) - 1,
        first_rank=rank,
        last_rank=rank << (size * (size - 1)),
        deltas=tuple(dr * size + df for df, dr in steps),
        drank=tuple(dr for _, dr in steps),
        nxt=tuple(nxt),
        rays=tuple(rays),
        ray_masks=tuple(masks),
        src1=tuple(src1),
        src2=tuple(src2),
    )
