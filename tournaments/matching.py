"""Maximum-weight matching in a general graph, exact over Python integers of any width,
and incremental: solved again after some weights changed, it starts from the previous
optimum instead of from nothing.

The algorithm is Edmonds' blossom method (`tournaments.blossom`, which cites its sources);
networkx's `max_weight_matching` is the same algorithm over graph views, solved from
nothing at each call. tests/tournaments/test_matching.py compares the two on random
graphs.

Between solutions the matching, the duals and the blossoms are kept. A blossom holding
both ends of a changed edge, or a vertex whose dual must rise, is folded (its dual moved
into its vertices: every edge stays feasible, an edge inside exactly as tight). A changed
weight keeps the duals feasible by raising one end's dual; a matched edge that is no
longer tight lowers its ends' duals where their other edges allow, and is unmatched
otherwise. The exposed vertices whose dual is above zero are the next stages' roots: a few
per change, where a solution from nothing has every vertex a root.

Maximum cardinality is asked for by adding to every weight a constant larger than any
matching's total weight (so one more edge outweighs any choice of fewer: the usual
reduction); the duals are doubled (a vertex's `dual` is twice its dual value), and all
numbers are doubled again whenever a halving would leave a fraction, so every value stays
an integer.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from tournaments.blossom import Blossoms

Edge = tuple[int, int]


class Matching(Blossoms):
    """An exact maximum-weight matching over the vertices 0 .. `vertices` - 1, solved again
    from its last optimum by `solve` when the weights change.

    `max_cardinality`: when True, the matching has the most edges possible and, among such
    matchings, the most weight (networkx's `maxcardinality`)."""

    def __init__(self, vertices: int, *, max_cardinality: bool = True) -> None:
        if vertices < 0:
            raise ValueError("the number of vertices is negative")
        super().__init__(vertices)
        self.max_cardinality = max_cardinality
        self._weights: dict[Edge, int] = {}
        self._slot: dict[Edge, int] = {}
        self._offset = -1

    def solve(self, weights: Mapping[Edge, int], *, copy: bool = True) -> list[int]:
        """The maximum-weight matching for `weights` ({(i, j): weight}, i < j, each weight
        above zero; edges absent have none): each vertex's partner, -1 for an exposed one.
        `copy=False` (for a caller that builds a new mapping each time) keeps `weights`
        itself until the next call compares with it: it must not change meanwhile.

        Raises ValueError when an edge has a weight below one, joins a vertex to itself,
        is not written with i < j, or names a vertex outside 0 .. n - 1."""
        if copy or not isinstance(weights, dict):
            weights = dict(weights)
        changed = None if self._offset < 0 else self._changed(weights)
        if changed is None:
            self._check(weights.items())
            self._start(weights)
        else:
            previous = self._weights
            added = sum(1 for edge, _ in changed if edge not in previous)
            removed = ([edge for edge in previous if edge not in weights]
                       if len(previous) + added > len(weights) else [])
            self._update(changed, removed)
        self._weights = weights
        if len(self.weight) > 2 * len(weights) + self.n:
            self._build(weights, self._slot)
        self.run_stages()
        return self.partners()

    def _changed(self, weights: dict[Edge, int]) -> list[tuple[Edge, int]] | None:
        """The edges whose weight differs from the last call's, with their new weights;
        None when a new weight is too large for the constant added for maximum
        cardinality (all is then solved from nothing). Raises ValueError as `solve`."""
        previous = self._weights
        changed = [(edge, weight) for edge, weight in weights.items()
                   if previous.get(edge) != weight]
        self._check(changed)
        top = max((weight for _, weight in changed), default=0)
        if self.max_cardinality and top * (self.n // 2 + 1) >= self._offset:
            return None
        return changed

    def _start(self, weights: dict[Edge, int]) -> None:
        """Forgets the last solution: no edge matched, no blossom, every dual zero (the
        update then raises each to its heaviest edge)."""
        bound = max(weights.values(), default=0) * (self.n // 2 + 1)
        self._offset = 1 << (bound.bit_length() + 1) if self.max_cardinality else 0
        self.shift = 0
        self.mate = [-1] * self.n
        self.reset_blossoms()
        self._build(weights, {})
        self.dual[:self.n] = [0] * self.n
        self._update(weights.items(), ())

    def _check(self, items: Iterable[tuple[Edge, int]]) -> None:
        """Raises ValueError for an edge `solve` refuses."""
        for (i, j), weight in items:
            if not 0 <= i < j < self.n:
                raise ValueError(f"edge {(i, j)} is not i < j within 0..{self.n - 1}")
            if weight < 1:
                raise ValueError(f"edge {(i, j)} has weight {weight}, below 1")

    def _internal(self, weight: int) -> int:
        """`weight` as the algorithm uses it: plus the constant for maximum cardinality,
        times the scale the doublings reached."""
        return (weight + self._offset) << self.shift

    def _build(self, weights: Mapping[Edge, int], old: Mapping[Edge, int]) -> None:
        """Edge slots for `weights` only (the removed edges' slots dropped), keeping the
        matching; `old` gives the edges' present slots."""
        partner, internal = self.partners(), self.weight
        old_edges = dict(zip(self._slot.values(), self._slot.keys(), strict=True))
        self.endpoint, self.weight, self._slot = [], [], {}
        self.neighbours = [[] for _ in range(self.n)]
        for edge in weights:
            self._add_slot(edge, internal[old[edge]] if edge in old else -1)
        self.mate = [-1] * self.n
        for i, j in enumerate(partner):
            if i < j:
                k = self._slot[(i, j)]
                self.mate[i], self.mate[j] = 2 * k + 1, 2 * k
        for b in range(self.n, 2 * self.n):
            self.ends[b] = [2 * self._slot[old_edges[p >> 1]] + (p & 1) for p in self.ends[b]]

    def _add_slot(self, edge: Edge, internal: int) -> int:
        """A new slot for `edge`, of weight `internal`: its number."""
        k = self._slot[edge] = len(self.weight)
        self.endpoint += edge
        self.weight.append(internal)
        self.neighbours[edge[0]].append(2 * k + 1)
        self.neighbours[edge[1]].append(2 * k)
        return k

    def _unmatch(self, v: int) -> None:
        """Unmatches `v` and its partner, if it has one."""
        p = self.mate[v]
        if p != -1:
            self.mate[self.endpoint[p]] = self.mate[v] = -1

    def _update(self, changed: Iterable[tuple[Edge, int]], removed: Iterable[Edge]) -> None:
        """Sets the new weights, keeping the last solution where they allow. A blossom
        holding both ends of a changed edge is folded (`fold`); an edge made infeasible
        raises one end's dual (an exposed end's when it has one, its blossoms folded
        first); then each matched edge no longer tight lowers its ends' duals as far as
        their other edges allow, and is unmatched when that is not enough."""
        mate, dual, weight, slot = self.mate, self.dual, self.weight, self._slot
        loose: list[int] = []
        for edge in removed:
            i, j = edge
            k = slot[edge]
            self.separate(i, j, loose)
            weight[k] = -1
            if mate[i] == 2 * k + 1:
                self._unmatch(i)
        for edge, external in changed:
            i, j = edge
            internal = self._internal(external)
            k = slot.get(edge, -1)
            if k == -1:
                k = self._add_slot(edge, internal)
            self.separate(i, j, loose)
            weight[k] = internal
            deficit = 2 * internal - dual[i] - dual[j]
            if deficit > 0:
                end = j if mate[i] != -1 and mate[j] == -1 else i
                self.isolate(end, loose)
                dual[end] += deficit
                loose.append(end)
            elif deficit < 0 and mate[i] == 2 * k + 1:
                loose.append(i)
        for v in loose:
            p = mate[v]
            if p == -1:
                continue
            u = self.endpoint[p]
            excess = self.slack(p >> 1) if self.in_blossom[v] != self.in_blossom[u] else 0
            if excess and not (self.in_blossom[v] == v and self.in_blossom[u] == u
                               and self._lower(v, u, excess)):
                self._unmatch(v)

    def _lower(self, v: int, u: int, excess: int) -> bool:
        """Lowers the duals of v and u, matched together, by `excess` in all if their
        other edges stay feasible and the duals at zero or above; False (nothing changed)
        when they cannot."""
        rooms = []
        for end, other in ((v, u), (u, v)):
            room = self.dual[end]
            for p in self.neighbours[end]:
                if self.endpoint[p] != other:
                    room = min(room, self.slack(p >> 1))
            rooms.append(room)
        if rooms[0] + rooms[1] < excess:
            return False
        first = min(rooms[0], excess)
        self.dual[v] -= first
        self.dual[u] -= excess - first
        return True


def max_weight_matching(edges: Iterable[tuple[int, int, int]], *,
                        max_cardinality: bool = False) -> set[Edge]:
    """The maximum-weight matching of the graph whose edges are `edges` (i, j, weight;
    vertices any integers >= 0, weights integers above zero) as a set of (i, j), i < j.
    Raises ValueError as `Matching.solve` does."""
    weights: dict[Edge, int] = {}
    for i, j, weight in edges:
        weights[(min(i, j), max(i, j))] = weight
    vertices = max((j for _, j in weights), default=-1) + 1
    partner = Matching(vertices, max_cardinality=max_cardinality).solve(weights)
    return {(i, j) for i, j in enumerate(partner) if i < j}
