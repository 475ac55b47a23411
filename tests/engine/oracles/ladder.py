"""The Italian capture ladder of docs/RULES.md with its steps in any order, on the reference
generator's routes: to count how often the steps disagree in a set of positions, and so
whether the positions can tell a correct ladder from one with two steps swapped.

Steps: 1 the most pieces captured; 2 a capture by a king over one by a man; 3 the most
kings captured; 4 the capture that meets a king earliest (the positions of the captured
kings in the sequence compared in turn, the first king captured earlier wins).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from . import diagonal
from .board import Identity, Route, is_king, merge

TRUE_ORDER = (1, 2, 3, 4)


def _step(board: Mapping[str, str], route: Route, step: int) -> tuple[int, ...]:
    """The route's value on one step, smaller is better."""
    path, captured = route
    if step == 1:
        return (-len(captured),)
    if step == 2:
        return (0 if is_king(board[path[0]]) else 1,)
    kings = tuple(i for i, sq in enumerate(captured) if is_king(board[sq]))
    if step == 3:
        return (-len(kings),)
    # step 4: compared position by position, earlier wins; a sequence that has no further
    # king meets it later than one that has (only matters when step 3 comes after step 4)
    return kings + (99,) * (12 - len(kings))


def legal_under(
    board: Mapping[str, str], side: str, order: Sequence[int] = TRUE_ORDER
) -> set[Identity]:
    """The Italian legal capture moves with the ladder's steps applied in `order` (the
    ladder of docs/RULES.md is (1, 2, 3, 4)); empty when there is no capture."""
    routes = diagonal.all_capture_routes(board, "italian", side)
    if not routes:
        return set()

    def rank(route: Route) -> tuple[tuple[int, ...], ...]:
        return tuple(_step(board, route, step) for step in order)

    best = min(rank(r) for r in routes)
    return set(merge(r for r in routes if rank(r) == best))


def swapped(i: int, j: int) -> tuple[int, ...]:
    """The ladder with steps `i` and `j` swapped."""
    order = list(TRUE_ORDER)
    a, b = order.index(i), order.index(j)
    order[a], order[b] = order[b], order[a]
    return tuple(order)
