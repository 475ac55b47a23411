"""The matchings of caissify_pairings' Dutch engine, solved by `tournaments.matching`
instead of networkx.

caissify_pairings 0.5.0 pairs a round by a series of maximum-weight matchings over the
whole field (`DutchEngine._pair_iterative_mwm`, as bbpPairings' `computeMatching` does):
it builds a `networkx.Graph` of its edge weights (integers of 180 to 255 bits) and calls
`networkx.max_weight_matching(graph, maxcardinality=True)`, some hundreds of times a round
for a large field, each call between two changing the weights of a few players only.
networkx solves each from nothing, in pure Python over graph views (round 2 of a
500-player Swiss did not finish in 11 minutes); `tournaments.matching.Matching` solves
the same problem exactly and starts each call from the previous optimum.

The engine imports networkx inside that method, so `networkx_replaced` puts a module of
the same two names (`Graph`, `max_weight_matching`) in `sys.modules` while it runs: an
import of networkx meanwhile gets it. Nothing else in this project uses networkx; a lock
keeps one pairing at a time inside the replacement.
"""

from __future__ import annotations

import sys
import threading
import types
from collections.abc import Iterator
from contextlib import contextmanager

from tournaments.matching import Edge, Matching

_LOCK = threading.Lock()


class Graph:
    """The part of `networkx.Graph` the engine uses: numbered vertices and edges with a
    `weight`."""

    def __init__(self) -> None:
        self.vertices = 0
        self.weights: dict[Edge, int] = {}

    def add_node(self, vertex: int) -> None:
        self.vertices = max(self.vertices, vertex + 1)

    def add_edge(self, u: int, v: int, weight: int) -> None:
        if u > v:
            u, v = v, u
        if v >= self.vertices:
            self.vertices = v + 1
        self.weights[(u, v)] = weight


class _Matchings:
    """`max_weight_matching` as networkx names it, one incremental `Matching` kept per
    graph size and kind, so that each call starts from the previous one's optimum."""

    def __init__(self) -> None:
        self._kept: dict[tuple[int, bool], Matching] = {}

    def max_weight_matching(self, graph: Graph, maxcardinality: bool = False,
                            weight: str = "weight") -> set[Edge]:
        """networkx's `max_weight_matching(G, maxcardinality)`: the matched pairs.
        Raises ValueError when `weight` is not "weight" (the engine's only name)."""
        if weight != "weight":
            raise ValueError(f"edge attribute {weight!r} is not supported")
        key = (graph.vertices, maxcardinality)
        matching = self._kept.get(key)
        if matching is None:
            matching = self._kept[key] = Matching(graph.vertices,
                                                  max_cardinality=maxcardinality)
        partner = matching.solve(graph.weights, copy=False)
        return {(i, j) for i, j in enumerate(partner) if i < j}


@contextmanager
def networkx_replaced() -> Iterator[None]:
    """While open, `import networkx` gives a module whose `Graph` and
    `max_weight_matching` are the ones above, with fresh matchings; one at a time."""
    with _LOCK:
        module = types.ModuleType("networkx", "tournaments.dutch_matching's stand-in")
        matchings = _Matchings()
        module.__dict__.update(Graph=Graph,
                               max_weight_matching=matchings.max_weight_matching)
        saved = sys.modules.get("networkx")
        sys.modules["networkx"] = module
        try:
            yield
        finally:
            if saved is None:
                del sys.modules["networkx"]
            else:
                sys.modules["networkx"] = saved
