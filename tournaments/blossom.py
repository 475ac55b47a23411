"""The state and the stages of Edmonds' primal-dual blossom algorithm for a maximum-weight
matching (J. Edmonds, "Maximum matching and a polyhedron with 0,1-vertices", 1965), in the
O(n^3) form of Z. Galil ("Efficient algorithms for finding maximum matching in graphs",
ACM Computing Surveys 18(1), 1986) with the data structures of Joris van Rantwijk's
description of it (`mwmatching.py`, 2008: edge endpoints numbered 2k and 2k + 1, blossoms
numbered after the vertices, the least-slack edge kept per vertex and per blossom), over
Python integers of any width. Written for this project; `tournaments.matching` sets the
weights and keeps the state from one solution to the next.

Two changes from the textbook's stages let a solution start from a previous one, both
allowed by the linear programme's optimality conditions (complementary slackness, as
Galil states them): a vertex's dual may reach zero while it is not a tree's root (the
tree's path from the root to it is then flipped, so that the exposed vertex is the one
whose dual is zero), and a tree may reach an exposed vertex whose dual is zero (an
augmenting path). A stage's roots are the exposed vertices whose dual is above zero; the
matching is optimal when there are none.
"""

from __future__ import annotations

_FREE, _OUTER, _INNER = 0, 1, 2
"""The labels: a vertex or blossom not in a tree, an S-vertex (outer, at an even distance
from its root) and a T-vertex (inner)."""
_BREADCRUMB = 4


class Blossoms:
    """The algorithm's state (Van Rantwijk's arrays): edge slots k with endpoints 2k (the
    first vertex) and 2k + 1 (the second), a slot's weight -1 once its edge is removed
    (never tight: every dual stays at zero or above); vertices 0 .. n - 1 and blossoms
    n .. 2n - 1; `mate[v]` the endpoint v is matched to, -1 when exposed; `dual[v]` twice
    the vertex's dual, `dual[b]` the blossom's (an edge's doubled slack adds twice it)."""

    def __init__(self, vertices: int) -> None:
        n = self.n = vertices
        self.shift = 0
        self.endpoint: list[int] = []
        self.weight: list[int] = []
        self.neighbours: list[list[int]] = [[] for _ in range(n)]
        self.mate = [-1] * n
        self.dual = [0] * (2 * n)
        self.label = [_FREE] * (2 * n)
        self.label_end = [-1] * (2 * n)
        self.allowed: list[int] = []
        self.stage = 0
        """An edge is allowed (tight, or kept usable) in this stage when `allowed[k]` is
        `stage`: a new stage needs no clearing."""
        self.queue: list[int] = []
        self.reset_blossoms()

    def reset_blossoms(self) -> None:
        """No blossoms: every vertex its own top blossom."""
        n = self.n
        self.in_blossom = list(range(n))
        self.parent = [-1] * (2 * n)
        self.children: list[list[int]] = [[] for _ in range(2 * n)]
        self.ends: list[list[int]] = [[] for _ in range(2 * n)]
        self.base = list(range(n)) + [-1] * n
        self.best_edge = [-1] * (2 * n)
        self.best_edges: list[list[int] | None] = [None] * (2 * n)
        self.unused = list(range(n, 2 * n))
        self.dual[n:] = [0] * n

    def slack(self, k: int) -> int:
        """Twice the edge's slack: its ends' duals less twice its weight."""
        return self.dual[self.endpoint[2 * k]] + self.dual[self.endpoint[2 * k + 1]] - (
            2 * self.weight[k])

    def partners(self) -> list[int]:
        """Each vertex's partner in the matching, -1 for an exposed one."""
        return [-1 if p == -1 else self.endpoint[p] for p in self.mate]

    def leaves(self, b: int) -> list[int]:
        """The vertices in blossom `b` (a vertex's: itself)."""
        if b < self.n:
            return [b]
        found: list[int] = []
        stack = [b]
        while stack:
            top = stack.pop()
            if top < self.n:
                found.append(top)
            else:
                stack.extend(self.children[top])
        return found

    def double(self) -> None:
        """Doubles every weight and dual: the same problem, with halves now integers."""
        self.shift += 1
        self.weight = [2 * weight for weight in self.weight]
        self.dual = [2 * dual for dual in self.dual]

    # -- the stages -------------------------------------------------------------------

    def run_stages(self) -> None:
        """Runs stages until no exposed vertex has a dual above zero."""
        n = self.n
        while True:
            self.label = [_FREE] * (2 * n)
            self.label_end = [-1] * (2 * n)
            self.best_edge = [-1] * (2 * n)
            self.best_edges[n:] = [None] * n
            self.stage += 1
            self.allowed.extend([0] * (len(self.weight) - len(self.allowed)))
            self.queue = []
            roots = [v for v in range(n) if self.mate[v] == -1 and self.dual[v] > 0
                     and self.label[self.in_blossom[v]] == _FREE]
            if not roots:
                return
            for v in roots:
                if self.label[self.in_blossom[v]] == _FREE:
                    self.assign_label(v, _OUTER, -1)
            while not self.scan() and self.change_duals():
                pass
            for b in range(n, 2 * n):
                if (self.parent[b] == -1 and self.base[b] >= 0
                        and self.label[b] == _OUTER and self.dual[b] == 0):
                    self.expand(b, end_of_stage=True)

    def scan(self) -> bool:
        """Grows the trees along the allowed edges from the queued S-vertices; True when
        the matching was augmented."""
        endpoint, in_blossom, label, allowed = (self.endpoint, self.in_blossom, self.label,
                                                self.allowed)
        stage = self.stage
        dual, weight, best_edge, mate = self.dual, self.weight, self.best_edge, self.mate
        while self.queue:
            v = self.queue.pop()
            dual_v = dual[v]
            for p in self.neighbours[v]:
                k = p >> 1
                w = endpoint[p]
                bv, bw = in_blossom[v], in_blossom[w]
                if bv == bw:
                    continue
                slack = 0
                if allowed[k] != stage:
                    slack = dual_v + dual[w] - 2 * weight[k]
                    if slack <= 0:
                        allowed[k] = stage
                if allowed[k] == stage:
                    if label[bw] == _FREE:
                        if mate[self.base[bw]] == -1:
                            self.augment(k)
                            return True
                        self.assign_label(w, _INNER, p ^ 1)
                    elif label[bw] == _OUTER:
                        base = self.scan_blossom(v, w)
                        if base < 0:
                            self.augment(k)
                            return True
                        self.add_blossom(base, k)
                    elif label[w] == _FREE:
                        label[w] = _INNER
                        self.label_end[w] = p ^ 1
                else:
                    target = bv if label[bw] == _OUTER else w if label[w] == _FREE else -1
                    if target != -1:
                        best = best_edge[target]
                        if best == -1 or slack < (dual[endpoint[2 * best]] + dual[
                                endpoint[2 * best + 1]] - 2 * weight[best]):
                            best_edge[target] = k
        return False

    def change_duals(self) -> bool:
        """Changes the duals by the largest step that keeps them feasible and acts on the
        edge, vertex or blossom that stopped it. False when the stage ends."""
        n, label, in_blossom, parent = self.n, self.label, self.in_blossom, self.parent
        while True:
            kind, delta, target = 1, -1, -1
            for v in range(n):
                if label[in_blossom[v]] == _OUTER and (target == -1 or self.dual[v] < delta):
                    kind, delta, target = 1, self.dual[v], v
            for v in range(n):
                if label[in_blossom[v]] == _FREE and self.best_edge[v] != -1:
                    slack = self.slack(self.best_edge[v])
                    if slack < delta:
                        kind, delta, target = 2, slack, self.best_edge[v]
            odd = False
            for b in range(2 * n):
                if parent[b] == -1 and label[b] == _OUTER and self.best_edge[b] != -1:
                    slack = self.slack(self.best_edge[b])
                    if slack // 2 < delta:
                        odd = odd or slack % 2 == 1
                        kind, delta, target = 3, slack // 2, self.best_edge[b]
            if not odd:
                break
            self.double()
        for b in range(n, 2 * n):
            if (self.base[b] >= 0 and parent[b] == -1 and label[b] == _INNER
                    and self.dual[b] < delta):
                kind, delta, target = 4, self.dual[b], b
        self.shift_duals(delta)
        match kind:
            case 1:
                if self.mate[target] != -1 or self.label_end[in_blossom[target]] != -1:
                    self.augment_from(target, -1)
                return False
            case 2:
                self.allowed[target] = self.stage
                i, j = self.endpoint[2 * target], self.endpoint[2 * target + 1]
                self.queue.append(i if label[in_blossom[i]] == _OUTER else j)
            case 3:
                self.allowed[target] = self.stage
                self.queue.append(self.endpoint[2 * target])
            case _:
                self.expand(target, end_of_stage=False)
        return True

    def shift_duals(self, delta: int) -> None:
        """Outer vertices' duals down by `delta`, inner ones' up, top-level blossoms' the
        other way (their edges' slacks change as `change_duals` computed)."""
        n, label, in_blossom, dual = self.n, self.label, self.in_blossom, self.dual
        for v in range(n):
            if label[in_blossom[v]] == _OUTER:
                dual[v] -= delta
            elif label[in_blossom[v]] == _INNER:
                dual[v] += delta
        for b in range(n, 2 * n):
            if self.base[b] >= 0 and self.parent[b] == -1:
                if label[b] == _OUTER:
                    dual[b] += delta
                elif label[b] == _INNER:
                    dual[b] -= delta

    # -- trees and blossoms -------------------------------------------------------------

    def assign_label(self, w: int, kind: int, p: int) -> None:
        """Labels `w`'s top blossom `kind`, reached through endpoint `p`; an inner
        blossom's mate becomes outer."""
        while True:
            b = self.in_blossom[w]
            self.label[w] = self.label[b] = kind
            self.label_end[w] = self.label_end[b] = p
            self.best_edge[w] = self.best_edge[b] = -1
            if kind == _OUTER:
                self.queue.extend(self.leaves(b))
                return
            base_mate = self.mate[self.base[b]]
            w, kind, p = self.endpoint[base_mate], _OUTER, base_mate ^ 1

    def scan_blossom(self, v: int, w: int) -> int:
        """The base of the blossom the edge v-w closes, or -1 when v and w are in
        different trees (an augmenting path)."""
        path: list[int] = []
        base = -1
        while v != -1 or w != -1:
            b = self.in_blossom[v]
            if self.label[b] & _BREADCRUMB:
                base = self.base[b]
                break
            path.append(b)
            self.label[b] = _OUTER | _BREADCRUMB
            if self.label_end[b] == -1:
                v = -1
            else:
                v = self.endpoint[self.label_end[b]]
                v = self.endpoint[self.label_end[self.in_blossom[v]]]
            if w != -1:
                v, w = w, v
        for b in path:
            self.label[b] = _OUTER
        return base

    def add_blossom(self, base: int, k: int) -> None:
        """Makes the cycle closed by edge k, through `base`, a new outer blossom."""
        v, w = self.endpoint[2 * k], self.endpoint[2 * k + 1]
        bb, bv, bw = self.in_blossom[base], self.in_blossom[v], self.in_blossom[w]
        b = self.unused.pop()
        self.base[b], self.parent[b], self.parent[bb] = base, -1, b
        path: list[int] = []
        ends: list[int] = []
        while bv != bb:
            self.parent[bv] = b
            path.append(bv)
            ends.append(self.label_end[bv])
            bv = self.in_blossom[self.endpoint[self.label_end[bv]]]
        path.append(bb)
        path.reverse()
        ends.reverse()
        ends.append(2 * k)
        while bw != bb:
            self.parent[bw] = b
            path.append(bw)
            ends.append(self.label_end[bw] ^ 1)
            bw = self.in_blossom[self.endpoint[self.label_end[bw]]]
        self.children[b], self.ends[b] = path, ends
        self.label[b], self.label_end[b], self.dual[b] = _OUTER, self.label_end[bb], 0
        for leaf in self.leaves(b):
            if self.label[self.in_blossom[leaf]] == _INNER:
                self.queue.append(leaf)
            self.in_blossom[leaf] = b
        self.collect_best_edges(b, path)

    def collect_best_edges(self, b: int, path: list[int]) -> None:
        """The new blossom's least-slack edge to each other outer blossom."""
        best_to: dict[int, int] = {}
        for sub in path:
            known = self.best_edges[sub]
            lists = ([[p >> 1 for p in self.neighbours[leaf]] for leaf in self.leaves(sub)]
                     if known is None else [known])
            for edges in lists:
                for k in edges:
                    i, j = self.endpoint[2 * k], self.endpoint[2 * k + 1]
                    if self.in_blossom[j] == b:
                        i, j = j, i
                    bj = self.in_blossom[j]
                    if bj != b and self.label[bj] == _OUTER and (
                            bj not in best_to or self.slack(k) < self.slack(best_to[bj])):
                        best_to[bj] = k
            self.best_edges[sub] = None
            self.best_edge[sub] = -1
        self.best_edges[b] = list(best_to.values())
        self.best_edge[b] = min(best_to.values(), key=self.slack, default=-1)

    def expand(self, b: int, *, end_of_stage: bool) -> None:
        """Dissolves blossom `b` into its sub-blossoms (those of dual zero too at the end
        of a stage); an inner blossom's sub-blossoms are labelled again."""
        for sub in self.children[b]:
            self.parent[sub] = -1
            if sub < self.n:
                self.in_blossom[sub] = sub
            elif end_of_stage and self.dual[sub] == 0:
                self.expand(sub, end_of_stage=True)
            else:
                for leaf in self.leaves(sub):
                    self.in_blossom[leaf] = sub
        if not end_of_stage and self.label[b] == _INNER:
            self.relabel_expanded(b)
        self.label[b] = self.label_end[b] = -1
        self.children[b], self.ends[b] = [], []
        self.base[b] = -1
        self.best_edges[b] = None
        self.best_edge[b] = -1
        self.unused.append(b)

    def relabel_expanded(self, b: int) -> None:
        """Labels the sub-blossoms of the inner blossom `b` just expanded: the path from
        its entry to its base alternates inner and outer; the others are free, or inner
        when reachable."""
        endpoint, children, ends = self.endpoint, self.children[b], self.ends[b]
        entry = self.in_blossom[endpoint[self.label_end[b] ^ 1]]
        j = children.index(entry)
        step, trick = (1, 0) if j & 1 else (-1, 1)
        if j & 1:
            j -= len(children)
        p = self.label_end[b]
        while j != 0:
            self.label[endpoint[p ^ 1]] = _FREE
            self.label[endpoint[ends[j - trick] ^ trick ^ 1]] = _FREE
            self.assign_label(endpoint[p ^ 1], _INNER, p)
            self.allowed[ends[j - trick] >> 1] = self.stage
            j += step
            p = ends[j - trick] ^ trick
            self.allowed[p >> 1] = self.stage
            j += step
        sub = children[j]
        self.label[endpoint[p ^ 1]] = self.label[sub] = _INNER
        self.label_end[endpoint[p ^ 1]] = self.label_end[sub] = p
        self.best_edge[sub] = -1
        j += step
        while children[j] != entry:
            sub = children[j]
            j += step
            if self.label[sub] == _OUTER:
                continue
            reached = [leaf for leaf in self.leaves(sub) if self.label[leaf] != _FREE]
            if reached:
                leaf = reached[0]
                self.label[leaf] = _FREE
                self.label[endpoint[self.mate[self.base[sub]]]] = _FREE
                self.assign_label(leaf, _INNER, self.label_end[leaf])

    def rotate(self, b: int, v: int) -> None:
        """Swaps the matched and unmatched edges on blossom `b`'s even path from its base
        to vertex `v`, which becomes its base."""
        t = v
        while self.parent[t] != b:
            t = self.parent[t]
        if t >= self.n:
            self.rotate(t, v)
        children, ends = self.children[b], self.ends[b]
        i = j = children.index(t)
        step, trick = (1, 0) if i & 1 else (-1, 1)
        if i & 1:
            j -= len(children)
        while j != 0:
            j += step
            t = children[j]
            p = ends[j - trick] ^ trick
            if t >= self.n:
                self.rotate(t, self.endpoint[p])
            j += step
            t = children[j]
            if t >= self.n:
                self.rotate(t, self.endpoint[p ^ 1])
            self.mate[self.endpoint[p]] = p ^ 1
            self.mate[self.endpoint[p ^ 1]] = p
        self.children[b] = children[i:] + children[:i]
        self.ends[b] = ends[i:] + ends[:i]
        self.base[b] = self.base[self.children[b][0]]

    def augment(self, k: int) -> None:
        """Augments along edge k and the tree paths from its ends to their roots."""
        self.augment_from(self.endpoint[2 * k], 2 * k + 1)
        self.augment_from(self.endpoint[2 * k + 1], 2 * k)

    def augment_from(self, s: int, p: int) -> None:
        """Matches vertex `s` through endpoint `p` (-1: leaves it exposed) and flips the
        tree path from `s` up to its root."""
        endpoint, in_blossom, label_end = self.endpoint, self.in_blossom, self.label_end
        while True:
            bs = in_blossom[s]
            if bs >= self.n:
                self.rotate(bs, s)
            self.mate[s] = p
            if label_end[bs] == -1:
                return
            bt = in_blossom[endpoint[label_end[bs]]]
            s, j = endpoint[label_end[bt]], endpoint[label_end[bt] ^ 1]
            if bt >= self.n:
                self.rotate(bt, j)
            self.mate[j] = label_end[bt]
            p = label_end[bt] ^ 1

    def fold(self, b: int) -> int:
        """Dissolves the top-level blossom `b`, its dual moved into its vertices (an edge
        inside it stays exactly as tight, an edge leaving it gains slack) and its
        sub-blossoms made top-level. Returns its base, whose matched edge (if any) leads
        out of it and is no longer tight."""
        dual = self.dual
        for leaf in self.leaves(b):
            dual[leaf] += dual[b]
        for sub in self.children[b]:
            self.parent[sub] = -1
            for leaf in self.leaves(sub):
                self.in_blossom[leaf] = sub
        base = self.base[b]
        self.children[b], self.ends[b] = [], []
        self.base[b], self.dual[b], self.best_edges[b] = -1, 0, None
        self.unused.append(b)
        return base

    def separate(self, i: int, j: int, loose: list[int]) -> None:
        """Folds the blossoms holding both i and j, the bases' edges added to `loose`."""
        while self.in_blossom[i] == self.in_blossom[j] >= self.n:
            loose.append(self.fold(self.in_blossom[i]))

    def isolate(self, v: int, loose: list[int]) -> None:
        """Folds the blossoms holding v, the bases' edges added to `loose`."""
        while self.in_blossom[v] != v:
            loose.append(self.fold(self.in_blossom[v]))
