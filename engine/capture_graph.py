"""The capture moves of one position as a graph of solved states, and the questions the
public layer asks of it: the legal moves, each move's canonical route, whether a route
wins, and which moves a player's squares name.

`Generator.solve_start` (engine.movegen_core) solves every state a capture can pass
through, with its best continuations under the capture precedence of docs/RULES.md. A jump
from a state is *winning* when its key (the jump followed by the best continuation of the
state it leads to) is the state's best key; a route wins, under docs/RULES.md, exactly when
it starts from a start with the best key and makes only winning jumps. Every walk here
follows jumps state by state and is memoised on states, so its cost grows with the number
of states, never with the number of routes.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from engine.movegen_core import Generator, Solved, StartSolution

#: A capture move as (start, end, captured bitboard): the move identity of docs/RULES.md.
MoveKey = tuple[int, int, int]


@dataclass(frozen=True, slots=True)
class CaptureGraph:
    """The captures of one position (side-relative), solved.

    starts: the solution of each piece that can capture, by ascending square; best: the
    best start key (the precedence is applied across starts by it); th_k: the opponent's
    kings (the Italian ladder reads them).
    """

    gen: Generator
    starts: tuple[StartSolution, ...]
    best: int
    th_k: int
    c: int

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
        """The legal capture moves, by ascending start, then in the order their first
        winning route is met."""
        return [
            (s.start, comp & 63, comp >> 6)
            for s in self.starts
            if s.key == self.best
            for comp in s.completions
        ]

    def best_count(self) -> int:
        """How many pieces the legal captures take."""
        winner = next(s for s in self.starts if s.key == self.best)
        return (next(iter(winner.completions)) >> 6).bit_count()

    def _start(self, start: int) -> StartSolution | None:
        return next((s for s in self.starts if s.start == start), None)

    def _children(
        self, s: StartSolution, sq: int, cm: int, last: int
    ) -> list[tuple[int, int, int, int, Solved]]:
        """The jumps from a state: (captured square, landing, new captured bitboard, memo key
        of the state it leads to or -1 where the move ends, that state's solution)."""
        out: list[tuple[int, int, int, int, Solved]] = []
        for over, land, nl, ends in self.gen.jumps(
            sq, s.king, s.empty0, s.victims0, cm, last, self.c
        ):
            cm2 = cm | (1 << over)
            if ends:
                out.append((over, land, cm2, -1, (0, {(cm2 << 6) | land: None})))
            else:
                mk = (cm2 << 9) | (land << 3) | (nl + 1)
                out.append((over, land, cm2, mk, s.memo[mk]))
        return out

    def route(self, key: MoveKey) -> tuple[tuple[int, ...], tuple[int, ...]]:
        """The canonical route of legal capture `key`: (landings, captured in order) of its
        first winning route in the search's order (depth-first, directions in table order,
        nearest landing first). Raises KeyError when `key` is not a legal capture."""
        start, end, cmask = key
        s = self._start(start)
        target = (cmask << 6) | end
        if s is None or s.key != self.best or target not in s.completions:
            raise KeyError(key)
        landings: list[int] = []
        captured: list[int] = []
        sq, cm, last = start, 0, -1
        state_key = s.memo[start << 3][0]
        while cm != cmask or sq != end:
            for over, land, cm2, mk, (ck, done) in self._children(s, sq, cm, last):
                if target in done and self.gen.extend_key(ck, over, self.th_k) == state_key:
                    landings.append(land)
                    captured.append(over)
                    sq, cm, state_key = land, cm2, ck
                    last = (mk & 7) - 1 if mk >= 0 else -1
                    break
            else:  # pragma: no cover - the solution guarantees a way on
                raise AssertionError(f"no winning way on to {key} from square {sq}")
        return tuple(landings), tuple(captured)

    def wins(self, start: int, landings: Sequence[int], captured: Sequence[int]) -> bool:
        """Whether the route from `start` through `landings`, capturing `captured` in that
        order, is a complete winning route (docs/RULES.md: a move keeps a surviving route)."""
        s = self._start(start)
        if s is None or s.key != self.best or len(landings) != len(captured) or not landings:
            return False
        sq, cm, last = start, 0, -1
        state_key = s.memo[start << 3][0]
        for land, over in zip(landings, captured, strict=True):
            if state_key == 0:
                return False  # the route goes on after the capture has ended
            step = next(
                (ch for ch in self._children(s, sq, cm, last) if ch[0] == over and ch[1] == land),
                None,
            )
            if step is None:
                return False
            _, _, cm2, mk, (ck, _) = step
            if self.gen.extend_key(ck, over, self.th_k) != state_key:
                return False
            sq, cm, state_key, last = land, cm2, ck, (mk & 7) - 1
        return state_key == 0

    # --- moves named by squares ---------------------------------------------------------

    def matching(
        self, start: int, middle: Sequence[int], end: int, *, winning: bool = True
    ) -> list[MoveKey]:
        """The capture moves from `start` to `end` with a route that lands on the squares
        `middle` in that order before its last landing (other landings in between allowed):
        the moves that a player's text ``start x middle... x end`` can mean. With `winning`
        the winning routes only (the legal moves); without, every complete route before
        the capture precedence. In the order of `moves`."""
        s = self._start(start)
        if s is None or (winning and s.key != self.best):
            return []
        found: dict[int, None] = {}
        seen: set[tuple[int, int]] = set()
        need = len(middle)

        def walk(sq: int, cm: int, last: int, k: int, state_key: int, first: bool) -> None:
            mk = (cm << 9) | (sq << 3) | (last + 1)
            if (mk, k) in seen:
                return
            seen.add((mk, k))
            if not first and k < need and sq == middle[k]:
                k += 1
            for over, land, cm2, cmk, (ck, _) in self._children(s, sq, cm, last):
                if winning and self.gen.extend_key(ck, over, self.th_k) != state_key:
                    continue
                if ck == 0:  # the capture ends on `land`
                    if land == end and k == need:
                        found[(cm2 << 6) | land] = None
                    continue
                walk(land, cm2, (cmk & 7) - 1, k, ck, False)

        walk(start, 0, -1, 0, s.memo[start << 3][0], True)
        return [(start, comp & 63, comp >> 6) for comp in found]

    def stops_short(self, start: int, middle: Sequence[int], end: int) -> bool:
        """Whether some capture from `start`, landing on `middle` in order, lands on `end`
        and could jump again from there (a capture broken off before its end)."""
        s = self._start(start)
        if s is None:
            return False
        seen: set[tuple[int, int]] = set()
        need = len(middle)

        def walk(sq: int, cm: int, last: int, k: int, first: bool) -> bool:
            mk = (cm << 9) | (sq << 3) | (last + 1)
            if (mk, k) in seen:
                return False
            seen.add((mk, k))
            children = self._children(s, sq, cm, last)
            if not first and children and sq == end and k == need:
                return True
            if not first and k < need and sq == middle[k]:
                k += 1
            return any(
                walk(land, cm2, (cmk & 7) - 1, k, False)
                for _, land, cm2, cmk, (ck, _) in children
                if ck != 0
            )

        return walk(start, 0, -1, 0, True)
