"""The capture moves of one position as a graph of solved states, and the questions the
public layer asks of it: the legal moves, each move's canonical route, whether a route
wins, and which moves a player's squares name.

`Generator.solve_start` (engine.movegen_core) solves every state a capture can pass
through, with its best continuations under the capture precedence of docs/RULES.md. A jump
from a state is *winning* when its key (the jump followed by the best continuation of the
state it leads to) is the state's best key; a route wins, under docs/RULES.md, exactly when
it starts from a start with the best key and makes only winning jumps. Every walk here
follows jumps state by state and is memoised on states, or (`route`, `routes`) follows one
route per move, so its cost grows with the number of states and moves, never with the
number of routes.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field

from engine.movegen_core import Generator, Solved, StartSolution

#: A capture move as (start, end, captured bitboard): the move identity of docs/RULES.md.
MoveKey = tuple[int, int, int]
#: A state of the search: (memo key, landing bitboard, captured bitboard, direction of the
#: last jump or -1).
_State = tuple[int, int, int, int]
#: A jump from a landing square: (captured square, the state it leads to, its solution).
_Step = tuple[int, _State, Solved]


class WalkTooLong(Exception):
    """A walk over the states went past the budget its caller set."""


@dataclass(frozen=True, slots=True)
class CaptureGraph:
    """The captures of one position (side-relative), solved.

    starts: the solution of each piece that can capture, by ascending square; best: the
    best start key (the precedence is applied across starts by it); th_k: the opponent's
    kings (the Italian ladder reads them); c: the colour index of the side to move (0 White,
    1 Black); gen: the variant's generator.
    """

    gen: Generator
    starts: tuple[StartSolution, ...]
    best: int
    th_k: int
    c: int
    # Each state's landing squares and jumps, listed once for the walks that read them all
    # (`matching`, `stops_short`): writing a short form walks the same states many times.
    step_lists: dict[tuple[int, _State], list[tuple[int, list[_Step]]]] = field(
        default_factory=dict, compare=False, repr=False)

    @classmethod
    def solve(
        cls, gen: Generator, us_m: int, us_k: int, th_m: int, th_k: int, c: int
    ) -> CaptureGraph | None:
        """The solved captures of the side to move, or None when it has no capture."""
        th = th_m | th_k
        occ = us_m | us_k | th
        starts = gen.capture_starts(us_m, us_k, th_m, th, occ, gen.playable & ~occ, c)
        if not starts:
            return None
        solved: list[StartSolution] = []
        while starts:
            low = starts & -starts
            starts ^= low
            solved.append(gen.solve_start(low.bit_length() - 1, us_m, us_k, th_m, th_k, c))
        best = max(s.key for s in solved)
        return cls(gen, tuple(solved), best, th_k, c)

    # --- the legal moves ---------------------------------------------------------------

    def moves(self) -> list[MoveKey]:
        """The legal capture moves (start, end, captured bitboard), by ascending start, then
        by captured set in the order the search met it, then by ascending end."""
        out: list[MoveKey] = []
        for s in self.starts:
            if s.key == self.best:
                for cmf, ends in s.completions.items():
                    out.extend((s.start, sq, cmf) for sq in range(ends.bit_length())
                               if (ends >> sq) & 1)
        return out

    def best_count(self) -> int:
        """How many pieces the legal captures take (the most of them under free choice,
        where they may differ)."""
        return max(
            cm.bit_count() for s in self.starts if s.key == self.best for cm in s.completions
        )

    def _start(self, start: int) -> StartSolution | None:
        return next((s for s in self.starts if s.start == start), None)

    def states_from(self, start: int) -> int:
        """How many capture states the piece on `start` has (0: it has no capture): the
        most a walk from it (`matching`, `stops_short`) goes through."""
        s = self._start(start)
        return 0 if s is None else len(s.memo)

    def _steps(self, s: StartSolution, state: _State) -> Iterator[tuple[int, list[_Step]]]:
        """Each landing square of `state` (the start square for the start state), nearest
        first, with the jumps from it: (captured square, the state it leads to, that
        state's solution). Lazy, square by square: `route` stops at the first square with
        a winning way on."""
        mk, land, cm, last = state
        crowned = mk < 0  # a man crowned mid-capture, going on as a king
        for sq in self.gen.landing_order(mk, land):
            steps: list[_Step] = []
            for over, cmk, run, nl, ends in self.gen.jumps_from(
                sq, s.king, s.empty0, s.victims0, cm, last, self.c, crowned
            ):
                cm2 = cm | (1 << over)
                solved: Solved = (0, {cm2: run}) if ends else s.memo[cmk]
                steps.append((over, (cmk, run, cm2, nl), solved))
            yield sq, steps

    def _step_list(self, s: StartSolution, state: _State) -> list[tuple[int, list[_Step]]]:
        """`_steps(s, state)` in full, listed once per state and kept."""
        key = (s.start, state)
        found = self.step_lists.get(key)
        if found is None:
            found = self.step_lists[key] = list(self._steps(s, state))
        return found

    def _root(self, s: StartSolution) -> tuple[_State, int]:
        return (s.start << 3, 1 << s.start, 0, -1), s.memo[s.start << 3][0]

    def route(self, key: MoveKey) -> tuple[tuple[int, ...], tuple[int, ...]]:
        """The canonical route of legal capture `key`: (landings, captured in order) of its
        first winning route in the search's order (depth-first, directions in table order,
        nearest landing first). Raises KeyError when `key` is not a legal capture."""
        start, end, cmask = key
        s = self._start(start)
        if s is None or s.key != self.best or not (s.completions.get(cmask, 0) >> end) & 1:
            raise KeyError(key)
        landings: list[int] = []
        captured: list[int] = []
        state, state_key = self._root(s)
        first = True
        while state_key != 0:
            chosen = None
            for sq, steps in self._steps(s, state):
                for over, child, (ck, done) in steps:
                    if (done.get(cmask, 0) >> end) & 1 and self.gen.extend_key(
                        ck, over, self.th_k
                    ) == state_key:
                        chosen = (sq, over, child, ck)
                        break
                if chosen is not None:
                    break
            if chosen is None:  # pragma: no cover - the solution guarantees a way on
                raise AssertionError(f"no winning way on to {key}")
            sq, over, state, state_key = chosen
            if not first:
                landings.append(sq)
            captured.append(over)
            first = False
        landings.append(end)
        return tuple(landings), tuple(captured)

    def routes(self) -> dict[MoveKey, tuple[tuple[int, ...], tuple[int, ...]]]:
        """The canonical route of every legal capture, by move (the same as `route` of each,
        in one walk): the walks of `route` for all moves at once, shared while their first
        choices agree. `route` takes, at each state, the first jump in the search's order
        that is winning and has the move among its continuations; here the moves still
        unplaced at a state go, as a group, to the first such jump for each, so every move
        gets the route `route` gives it, and a state on the common prefix of many routes
        is read once instead of once per move."""
        out: dict[MoveKey, tuple[tuple[int, ...], tuple[int, ...]]] = {}
        for s in self.starts:
            if s.key != self.best:
                continue
            targets = [
                (end, cmf)
                for cmf, ends in s.completions.items()
                for end in range(ends.bit_length())
                if (ends >> end) & 1
            ]
            state, state_key = self._root(s)
            self._place(s, state, state_key, targets, (), (), True, out)
        return out

    def _place(
        self, s: StartSolution, state: _State, state_key: int, targets: list[tuple[int, int]],
        landings: tuple[int, ...], captured: tuple[int, ...], first: bool,
        out: dict[MoveKey, tuple[tuple[int, ...], tuple[int, ...]]],
    ) -> None:
        """Route the moves `targets` (end, captured bitboard) on from `state`, reached by
        `landings` and `captured` (see `routes`)."""
        if state_key == 0:
            for end, cmf in targets:
                out[(s.start, end, cmf)] = ((*landings, end), captured)
            return
        left = targets
        for sq, steps in self._steps(s, state):
            for over, child, (ck, done) in steps:
                if self.gen.extend_key(ck, over, self.th_k) != state_key:
                    continue
                mine = [t for t in left if (done.get(t[1], 0) >> t[0]) & 1]
                if not mine:
                    continue
                left = [t for t in left if not (done.get(t[1], 0) >> t[0]) & 1]
                self._place(
                    s, child, ck, mine, landings if first else (*landings, sq),
                    (*captured, over), False, out,
                )
                if not left:
                    return
        if left:  # pragma: no cover - the solution guarantees a way on
            raise AssertionError(f"no winning way on to {left}")

    def wins(self, start: int, landings: Sequence[int], captured: Sequence[int]) -> bool:
        """Whether the route from `start` through `landings`, capturing `captured` in that
        order, is a complete winning route (docs/RULES.md: a move keeps a surviving route)."""
        s = self._start(start)
        if s is None or s.key != self.best or len(landings) != len(captured) or not landings:
            return False
        state, state_key = self._root(s)
        here = start
        for land, over in zip(landings, captured, strict=True):
            steps = dict(self._steps(s, state)).get(here)
            step = next((st for st in steps or () if st[0] == over), None)
            if step is None:
                return False
            _, child, (ck, _) = step
            if self.gen.extend_key(ck, over, self.th_k) != state_key or not (child[1] >> land) & 1:
                return False
            state, state_key, here = child, ck, land
        return state_key == 0

    # --- moves named by squares ---------------------------------------------------------

    def matching(
        self, start: int, middle: Sequence[int], end: int, *, winning: bool = True,
        budget: int | None = None, exact: bool = False,
    ) -> list[MoveKey]:
        """The capture moves from `start` to `end` with a route that lands on the squares
        `middle` in that order before its last landing (other landings in between allowed;
        with `exact`, none: `middle` is every landing before the last): the moves that a
        player's text ``start x middle... x end`` can mean. With `winning` the winning
        routes only (the legal moves); without, every complete route before the capture
        precedence. Raises WalkTooLong after `budget` states (no limit: None)."""
        s = self._start(start)
        if s is None or (winning and s.key != self.best):
            return []
        found: dict[int, None] = {}
        seen: set[tuple[int, int]] = set()
        need = len(middle)

        def walk(state: _State, state_key: int, k: int, first: bool) -> None:
            if (state[0], k) in seen:
                return
            seen.add((state[0], k))
            if budget is not None and len(seen) > budget:
                raise WalkTooLong
            for sq, steps in self._step_list(s, state):
                if not steps and (state_key == 0 or not winning) and not first:
                    if sq == end and k == need:
                        found[state[2]] = None  # a route ends on sq
                    continue
                k2 = k + 1 if not first and k < need and sq == middle[k] else k
                if exact and not first and k2 == k:
                    continue  # a landing square that `middle` does not name
                for over, child, (ck, done) in steps:
                    if winning and (
                        self.gen.extend_key(ck, over, self.th_k) != state_key
                        or not any((ends >> end) & 1 for ends in done.values())
                    ):
                        continue  # not winning, or no winning way on ends on `end`
                    walk(child, ck, k2, False)

        walk(*self._root(s), 0, True)
        return [(start, end, cm) for cm in found]

    def stops_short(
        self, start: int, middle: Sequence[int], end: int, budget: int | None = None
    ) -> bool:
        """Whether some capture from `start`, landing on `middle` in order, lands on `end`
        and could jump again from there (a capture broken off before its end). Raises
        WalkTooLong after `budget` states (no limit: None)."""
        s = self._start(start)
        if s is None:
            return False
        seen: set[tuple[int, int]] = set()
        need = len(middle)

        def walk(state: _State, k: int, first: bool) -> bool:
            if (state[0], k) in seen:
                return False
            seen.add((state[0], k))
            if budget is not None and len(seen) > budget:
                raise WalkTooLong
            for sq, steps in self._step_list(s, state):
                if first or not steps:
                    k2 = k
                elif sq == end and k == need:
                    return True
                else:
                    k2 = k + 1 if k < need and sq == middle[k] else k
                if any(walk(child, k2, False) for _, child, _ in steps):
                    return True
            return False

        return walk(self._root(s)[0], 0, True)
