"""Precomputed board tables for move generation, one set per geometry.

Directions are numbered 0..3 so that the reverse of direction d is (d + 2) % 4:
orthogonal N(+8), E(+1), S(-8), W(-1); diagonal NE(+9), SE(-7), SW(-9), NW(+7).
Square indices follow `engine.squares` (a1 = 0, h8 = 63).
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

    deltas[d]: square index change of one step in direction d.
    drank[d]: rank change of one step (+1 away from White, -1 toward White, 0 sideways).
    nxt[d][sq]: the square one step from sq in direction d, or -1 off the board.
    rays[d][sq]: the squares from sq in direction d to the edge, nearest first (sq excluded).
    ray_masks[d][sq]: those squares as a bitboard.
    src1[d] / src2[d]: bitboards of the squares from which one / two steps in d stay on
    the board.
    """

    deltas: tuple[int, ...]
    drank: tuple[int, ...]
    nxt: tuple[tuple[int, ...], ...]
    rays: tuple[tuple[tuple[int, ...], ...], ...]
    ray_masks: tuple[tuple[int, ...], ...]
    src1: tuple[int, ...]
    src2: tuple[int, ...]


@cache
def tables(geometry: Geometry) -> Tables:
    """The direction tables of `geometry` (computed once)."""
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
        for sq in range(64):
            f, r = sq & 7, sq >> 3
            ray: list[int] = []
            ff, rr = f + df, r + dr
            while 0 <= ff < 8 and 0 <= rr < 8:
                ray.append(rr * 8 + ff)
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
    return Tables(
        deltas=tuple(dr * 8 + df for df, dr in steps),
        drank=tuple(dr for _, dr in steps),
        nxt=tuple(nxt),
        rays=tuple(rays),
        ray_masks=tuple(masks),
        src1=tuple(src1),
        src2=tuple(src2),
    )
