"""The move generator: bitboards as Python ints, parameterised by a `Variant` record.

Internals use raw ints for speed. A side-relative state is four bitboards
``(us_men, us_kings, them_men, them_kings)`` plus ``c``, the colour index of the side to
move (0 White, 1 Black). A capture *route* is a tuple
``(start, landings, captured, captured_mask, by_king)``; a *move key* is
``(start, end, captured_mask)``, the move identity of RULES.md.

Every rule difference is read from the variant's parameters (RULES.md):
- man directions: forward (rank away from the owner), plus sideways when `man_sideways`;
- kings: any distance along a line when `flying_kings`, else one square;
- captured pieces: removed at once (`IMMEDIATE`: later jumps may cross their squares) or
  at the end of the move (`END_OF_MOVE`: they block and cannot be jumped twice);
- `no_reversal`: no 180-degree turn between consecutive jumps;
- `men_capture_kings`;
- `crowned_mid_capture`: a man reaching the far rank mid-capture goes on as a man, or the
  move ends there;
- `capture_precedence`: maximum capture, or the Italian ladder applied to routes before
  routes with the same identity are merged.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from typing import Any

from engine.movegen_tables import FULL, RANK_1, RANK_8, tables
from engine.variants import CapturePrecedence, CaptureRemoval, CrownedMidCapture, Variant

Route = tuple[int, tuple[int, ...], tuple[int, ...], int, bool]
MoveKey = tuple[int, int, int]
State = tuple[int, int, int, int]


class Generator:
    """Move generation for one variant. Get one with `generator(variant)`."""

    def __init__(self, variant: Variant) -> None:
        t = tables(variant.geometry)
        self.variant = variant
        self.playable = variant.playable_mask
        self.deltas = t.deltas
        self.nxt = t.nxt
        self.rays = t.rays
        self.ray_masks = t.ray_masks
        self.src1 = t.src1
        self.src2 = t.src2
        self.flying = variant.flying_kings
        self.immediate = variant.capture_removal is CaptureRemoval.IMMEDIATE
        self.men_capture_kings = variant.men_capture_kings
        self.ladder = variant.capture_precedence is CapturePrecedence.ITALIAN_LADDER
        self.stop_on_crown = variant.crowned_mid_capture is CrownedMidCapture.MOVE_ENDS
        self.promo = (RANK_8, RANK_1)
        king_dirs = (0, 1, 2, 3)
        man_dirs: list[tuple[int, ...]] = []
        for forward in (1, -1):
            man_dirs.append(
                tuple(
                    d
                    for d in range(4)
                    if t.drank[d] == forward or (variant.man_sideways and t.drank[d] == 0)
                )
            )
        self.man_dirs = (man_dirs[0], man_dirs[1])
        self.king_dirs = king_dirs

        # allowed[c][king][last + 1]: the directions a piece may jump in after a jump in
        # direction `last` (-1: first jump).
        def allowed(dirs: tuple[int, ...]) -> tuple[tuple[int, ...], ...]:
            rows = [dirs]
            for last in range(4):
                rev = (last + 2) % 4
                rows.append(tuple(d for d in dirs if not (variant.no_reversal and d == rev)))
            return tuple(rows)

        self.allowed = (
            (allowed(self.man_dirs[0]), allowed(king_dirs)),
            (allowed(self.man_dirs[1]), allowed(king_dirs)),
        )
        # man steps per colour: (delta, src1, src2)
        self.man_steps = tuple(
            tuple((t.deltas[d], t.src1[d], t.src2[d]) for d in self.man_dirs[c]) for c in (0, 1)
        )
        self.king_steps = tuple((t.deltas[d], t.src1[d], t.src2[d]) for d in king_dirs)
        self.counters = (self._compile_counter(0), self._compile_counter(1))

    # --- captures ---------------------------------------------------------------------

    def has_capture(self, us_m: int, us_k: int, th_m: int, th_k: int, c: int) -> bool:
        """Whether the side to move has any capture."""
        th = th_m | th_k
        occ = us_m | us_k | th
        return bool(self.capture_starts(us_m, us_k, th_m, th, occ, self.playable & ~occ, c))

    def capture_starts(
        self, us_m: int, us_k: int, th_m: int, th: int, occ: int, empty: int, c: int
    ) -> int:
        """Bitboard of the pieces of the side to move that can make a first jump.

        `th` is every enemy piece, `occ` every piece, `empty` the empty playable squares.
        """
        starts = 0
        if us_m:
            mv = th if self.men_capture_kings else th_m
            for delta, _, s2 in self.man_steps[c]:
                if delta > 0:
                    starts |= us_m & s2 & (mv >> delta) & (empty >> (delta + delta))
                else:
                    starts |= us_m & s2 & (mv << -delta) & (empty << -(delta + delta))
        if us_k:
            if self.flying:
                ray_masks = self.ray_masks
                deltas = self.deltas
                nxt = self.nxt
                kings = us_k
                while kings:
                    low = kings & -kings
                    kings ^= low
                    k = low.bit_length() - 1
                    for d in (0, 1, 2, 3):
                        m = ray_masks[d][k] & occ
                        if not m:
                            continue
                        b = (m & -m).bit_length() - 1 if deltas[d] > 0 else m.bit_length() - 1
                        if (th >> b) & 1:
                            n = nxt[d][b]
                            if n >= 0 and (empty >> n) & 1:
                                starts |= low
                                break
            else:
                for delta, _, s2 in self.king_steps:
                    if delta > 0:
                        starts |= us_k & s2 & (th >> delta) & (empty >> (delta + delta))
                    else:
                        starts |= us_k & s2 & (th << -delta) & (empty << -(delta + delta))
        return starts

    def capture_routes(
        self, us_m: int, us_k: int, th_m: int, th_k: int, c: int, starts: int = -1
    ) -> list[Route]:
        """Every complete capture route of the side to move, before any precedence rule.

        A route is complete when it cannot be extended (a started capture is played to its
        end). Routes are listed piece by piece in ascending start square.
        """
        th = th_m | th_k
        occ = us_m | us_k | th
        empty0 = self.playable & ~occ
        out: list[Route] = []
        dfs = self._dfs
        man_victims = th if self.men_capture_kings else th_m
        # Only pieces with a first jump can start a route.
        pieces = starts if starts >= 0 else self.capture_starts(
            us_m, us_k, th_m, th, occ, empty0, c
        )
        while pieces:
            low = pieces & -pieces
            pieces ^= low
            s = low.bit_length() - 1
            if us_m & low:
                dfs(s, s, False, empty0 | low, man_victims, -1, (), (), 0, c, out)
            else:
                dfs(s, s, True, empty0 | low, th, -1, (), (), 0, c, out)
        return out

    def _dfs(
        self,
        start: int,
        sq: int,
        king: bool,
        empty: int,
        victims: int,
        last: int,
        landings: tuple[int, ...],
        captured: tuple[int, ...],
        capmask: int,
        c: int,
        out: list[Route],
    ) -> None:
        found = False
        immediate = self.immediate
        if king and self.flying:
            rays = self.rays
            for d in self.allowed[c][1][last + 1]:
                ray = rays[d][sq]
                n = len(ray)
                i = 0
                while i < n and (empty >> ray[i]) & 1:
                    i += 1
                if i >= n - 1:
                    continue
                over = ray[i]
                if not (victims >> over) & 1:
                    continue
                ob = 1 << over
                e2 = empty | ob if immediate else empty
                v2 = victims ^ ob
                cm2 = capmask | ob
                cap2 = (*captured, over)
                j = i + 1
                while j < n:
                    land = ray[j]
                    if not (e2 >> land) & 1:
                        break
                    found = True
                    self._dfs(start, land, True, e2, v2, d, (*landings, land), cap2, cm2, c, out)
                    j += 1
        else:
            nxt = self.nxt
            promo = self.promo[c]
            stop = not king and self.stop_on_crown
            for d in self.allowed[c][1 if king else 0][last + 1]:
                row = nxt[d]
                over = row[sq]
                if over < 0 or not (victims >> over) & 1:
                    continue
                land = row[over]
                if land < 0 or not (empty >> land) & 1:
                    continue
                found = True
                ob = 1 << over
                if stop and (promo >> land) & 1:
                    out.append((start, (*landings, land), (*captured, over), capmask | ob, king))
                    continue
                self._dfs(
                    start, land, king, empty | ob if immediate else empty, victims ^ ob, d,
                    (*landings, land), (*captured, over), capmask | ob, c, out,
                )
        if not found and captured:
            out.append((start, landings, captured, capmask, king))

    def select(self, routes: list[Route], th_k: int) -> list[Route]:
        """The routes allowed by the capture precedence (maximum capture, or the Italian
        ladder: most pieces, king over man, most kings, earliest kings in turn)."""
        if len(routes) < 2:
            return routes
        best = max(len(r[2]) for r in routes)
        routes = [r for r in routes if len(r[2]) == best]
        if not self.ladder or len(routes) < 2:
            return routes
        if any(r[4] for r in routes):
            routes = [r for r in routes if r[4]]
        if not th_k:
            return routes

        def kings(r: Route) -> tuple[int, tuple[int, ...]]:
            found = tuple(-i for i, s in enumerate(r[2]) if (th_k >> s) & 1)
            return (len(found), found)

        ranks = [kings(r) for r in routes]
        top = max(ranks)
        return [r for r, k in zip(routes, ranks, strict=True) if k == top]

    def capture_keys(
        self, us_m: int, us_k: int, th_m: int, th_k: int, c: int, starts: int = -1
    ) -> list[MoveKey]:
        """The distinct legal capture moves as (start, end, captured_mask). `starts`: the
        result of `capture_starts` when the caller has it.

        Same rules as `capture_routes` + `select`, by a leaner search that keeps no paths
        (the perft and search hot path).
        """
        th = th_m | th_k
        occ = us_m | us_k | th
        empty0 = self.playable & ~occ
        if starts < 0:
            starts = self.capture_starts(us_m, us_k, th_m, th, occ, empty0, c)
        out: list[tuple[int, int, int, int, bool, tuple[int, ...]]] = []
        dfs = self._dfs_keys
        man_victims = th if self.men_capture_kings else th_m
        while starts:
            low = starts & -starts
            starts ^= low
            s = low.bit_length() - 1
            if us_m & low:
                dfs(s, s, False, empty0 | low, man_victims, th_k, -1, 0, 0, (), c, out)
            else:
                dfs(s, s, True, empty0 | low, th, th_k, -1, 0, 0, (), c, out)
        if len(out) > 1:
            best = max(r[3] for r in out)
            out = [r for r in out if r[3] == best]
            if self.ladder and len(out) > 1:
                if any(r[4] for r in out):
                    out = [r for r in out if r[4]]
                if th_k and len(out) > 1:
                    top = max((len(r[5]), r[5]) for r in out)
                    out = [r for r in out if (len(r[5]), r[5]) == top]
        return list(dict.fromkeys((r[0], r[1], r[2]) for r in out))

    def _dfs_keys(
        self,
        start: int,
        sq: int,
        king: bool,
        empty: int,
        victims: int,
        th_k: int,
        last: int,
        capmask: int,
        n: int,
        kings_at: tuple[int, ...],
        c: int,
        out: list[tuple[int, int, int, int, bool, tuple[int, ...]]],
    ) -> None:
        # Mirror of _dfs recording (start, end, captured_mask, count, by_king, kings_at),
        # kings_at = minus the jump index of each king captured, in order.
        found = False
        immediate = self.immediate
        n1 = n + 1
        if king and self.flying:
            rays = self.rays
            for d in self.allowed[c][1][last + 1]:
                ray = rays[d][sq]
                ln = len(ray)
                i = 0
                while i < ln and (empty >> ray[i]) & 1:
                    i += 1
                if i >= ln - 1:
                    continue
                over = ray[i]
                if not (victims >> over) & 1:
                    continue
                ob = 1 << over
                e2 = empty | ob if immediate else empty
                v2 = victims ^ ob
                cm2 = capmask | ob
                k2 = (*kings_at, -n) if (th_k >> over) & 1 else kings_at
                j = i + 1
                while j < ln:
                    land = ray[j]
                    if not (e2 >> land) & 1:
                        break
                    found = True
                    self._dfs_keys(start, land, True, e2, v2, th_k, d, cm2, n1, k2, c, out)
                    j += 1
        else:
            nxt = self.nxt
            promo = self.promo[c]
            stop = not king and self.stop_on_crown
            for d in self.allowed[c][1 if king else 0][last + 1]:
                row = nxt[d]
                over = row[sq]
                if over < 0 or not (victims >> over) & 1:
                    continue
                land = row[over]
                if land < 0 or not (empty >> land) & 1:
                    continue
                found = True
                ob = 1 << over
                k2 = (*kings_at, -n) if (th_k >> over) & 1 else kings_at
                if stop and (promo >> land) & 1:
                    out.append((start, land, capmask | ob, n1, king, k2))
                    continue
                self._dfs_keys(
                    start, land, king, empty | ob if immediate else empty, victims ^ ob, th_k,
                    d, capmask | ob, n1, k2, c, out,
                )
        if not found and n:
            out.append((start, sq, capmask, n, king, kings_at))

    # --- quiet moves ------------------------------------------------------------------

    def quiet_moves(
        self, us_m: int, us_k: int, th_m: int, th_k: int, c: int
    ) -> list[tuple[int, int]]:
        """Every quiet move (start, end) of the side to move, ignoring compulsory capture."""
        occ = us_m | us_k | th_m | th_k
        empty = self.playable & ~occ
        out: list[tuple[int, int]] = []
        for delta, s1, _ in self.man_steps[c]:
            tg = ((us_m & s1) << delta) & empty if delta > 0 else ((us_m & s1) >> -delta) & empty
            while tg:
                low = tg & -tg
                tg ^= low
                to = low.bit_length() - 1
                out.append((to - delta, to))
        kings = us_k
        rays = self.rays
        nxt = self.nxt
        while kings:
            low = kings & -kings
            kings ^= low
            k = low.bit_length() - 1
            for d in (0, 1, 2, 3):
                if self.flying:
                    for to in rays[d][k]:
                        if not (empty >> to) & 1:
                            break
                        out.append((k, to))
                else:
                    to = nxt[d][k]
                    if to >= 0 and (empty >> to) & 1:
                        out.append((k, to))
        out.sort()
        return out

    # --- perft and successors -----------------------------------------------------------

    def count_moves(self, us_m: int, us_k: int, th_m: int, th_k: int, c: int) -> int:
        """The number of legal moves (under the move identity) of the side to move.

        Runs the counter compiled for this variant and colour (`_compile_counter`); the
        same computation written generically is `count_moves_reference`.
        """
        return self.counters[c](us_m, us_k, th_m, th_k)

    def count_moves_reference(
        self, us_m: int, us_k: int, th_m: int, th_k: int, c: int
    ) -> int:
        """`count_moves` written with loops over the variant's directions (the readable
        reference the compiled counters are checked against)."""
        th = th_m | th_k
        occ = us_m | us_k | th
        empty = self.playable & ~occ
        if us_k:
            starts = self.capture_starts(0, us_k, th_m, th, occ, empty, c)
            if starts:
                return len(self.capture_keys(us_m, us_k, th_m, th_k, c))
        if us_m:
            # Men's first jumps: one move per (man, direction) unless some landing square
            # allows a further jump (then the full search decides). The further-jump test
            # may report jumps that are not there (it ignores no-reversal and removal),
            # never the reverse, so a quick answer is always exact.
            mv = th if self.men_capture_kings else th_m
            jumps = 0
            landed = 0
            steps = self.man_steps[c]
            for delta, _, s2 in steps:
                if delta > 0:
                    j = us_m & s2 & (mv >> delta) & (empty >> (delta + delta))
                    if j:
                        jumps += j.bit_count()
                        landed |= j << (delta + delta)
                else:
                    j = us_m & s2 & (mv << -delta) & (empty << -(delta + delta))
                    if j:
                        jumps += j.bit_count()
                        landed |= j >> -(delta + delta)
            if jumps:
                if self.stop_on_crown:
                    landed &= ~self.promo[c]
                further = self.ladder and self.men_capture_kings
                if landed and not further:
                    for delta, _, s2 in steps:
                        if delta > 0:
                            if landed & s2 & (mv >> delta) & (empty >> (delta + delta)):
                                further = True
                                break
                        elif landed & s2 & (mv << -delta) & (empty << -(delta + delta)):
                            further = True
                            break
                if further:
                    return len(self.capture_keys(us_m, us_k, th_m, th_k, c))
                return jumps
        n = 0
        if us_m:
            for delta, s1, _ in self.man_steps[c]:
                if delta > 0:
                    n += (((us_m & s1) << delta) & empty).bit_count()
                else:
                    n += (((us_m & s1) >> -delta) & empty).bit_count()
        if us_k:
            n += self.king_quiet_count(us_k, occ, empty)
        return n

    def king_quiet_count(self, us_k: int, occ: int, empty: int) -> int:
        """How many quiet moves the kings `us_k` have (`occ`: every piece, `empty`: the
        empty playable squares)."""
        n = 0
        if self.flying:
            ray_masks = self.ray_masks
            rays = self.rays
            deltas = self.deltas
            kings = us_k
            while kings:
                low = kings & -kings
                kings ^= low
                k = low.bit_length() - 1
                for d in (0, 1, 2, 3):
                    m = ray_masks[d][k] & occ
                    if not m:
                        n += len(rays[d][k])
                    elif deltas[d] > 0:
                        n += ((m & -m).bit_length() - 1 - k) // deltas[d] - 1
                    else:
                        n += (m.bit_length() - 1 - k) // deltas[d] - 1
        else:
            for delta, s1, _ in self.king_steps:
                if delta > 0:
                    n += (((us_k & s1) << delta) & empty).bit_count()
                else:
                    n += (((us_k & s1) >> -delta) & empty).bit_count()
        return n

    def _compile_counter(self, c: int) -> Callable[[int, int, int, int], int]:
        """`count_moves` for colour `c` with this variant's directions and masks written in
        as constants: the bulk count at the last ply of perft is the engine's hottest code,
        and a loop over a direction table costs Python more than the work it does. Built
        from the same parameters as the rest of the generator."""
        mv = "th" if self.men_capture_kings else "th_m"
        steps = self.man_steps[c]

        def toward(x: str, delta: int, times: int) -> str:
            # bring square s + times*delta onto s
            shift = delta * times
            return f"({x} >> {shift})" if shift > 0 else f"({x} << {-shift})"

        def away(x: str, delta: int, times: int) -> str:
            shift = delta * times
            return f"({x} << {shift})" if shift > 0 else f"({x} >> {-shift})"

        code = [
            "def count(us_m, us_k, th_m, th_k):",
            "    th = th_m | th_k",
            "    occ = us_m | us_k | th",
            f"    empty = {self.playable} & ~occ",
            f"    if us_k and capture_starts(0, us_k, th_m, th, occ, empty, {c}):",
            f"        return len(capture_keys(us_m, us_k, th_m, th_k, {c}))",
            "    jumps = 0",
            "    landed = 0",
        ]
        for delta, _, s2 in steps:
            code += [
                f"    j = us_m & {s2} & {toward(mv, delta, 1)} & {toward('empty', delta, 2)}",
                "    if j:",
                "        jumps += j.bit_count()",
                f"        landed |= {away('j', delta, 2)}",
            ]
        code.append("    if jumps:")
        if self.stop_on_crown:
            code.append(f"        landed &= {FULL & ~self.promo[c]}")
        if self.ladder and self.men_capture_kings:
            code.append(f"        return len(capture_keys(us_m, us_k, th_m, th_k, {c}))")
        else:
            further = " or ".join(
                f"(landed & {s2} & {toward(mv, delta, 1)} & {toward('empty', delta, 2)})"
                for delta, _, s2 in steps
            )
            code += [
                f"        if {further}:",
                f"            return len(capture_keys(us_m, us_k, th_m, th_k, {c}))",
                "        return jumps",
            ]
        quiet = " + ".join(
            f"({away(f'(us_m & {s1})', delta, 1)} & empty).bit_count()" for delta, s1, _ in steps
        )
        code += [
            f"    n = {quiet}",
            "    if us_k:",
            "        n += king_quiet_count(us_k, occ, empty)",
            "    return n",
        ]
        namespace: dict[str, Any] = {
            "capture_starts": self.capture_starts,
            "capture_keys": self.capture_keys,
            "king_quiet_count": self.king_quiet_count,
        }
        exec("\n".join(code), namespace)  # the source is built above from ints only
        counter: Callable[[int, int, int, int], int] = namespace["count"]
        return counter

    def children(self, us_m: int, us_k: int, th_m: int, th_k: int, c: int) -> list[State]:
        """The positions after each legal move, side-relative for the opponent:
        (their men, their kings, our men, our kings) with the colour index flipped."""
        out: list[State] = []
        promo = self.promo[c]
        occ = us_m | us_k | th_m | th_k
        empty = self.playable & ~occ
        starts = self.capture_starts(us_m, us_k, th_m, th_m | th_k, occ, empty, c)
        if starts:
            for frm, to, cm in self.capture_keys(us_m, us_k, th_m, th_k, c, starts):
                fb = 1 << frm
                tb = 1 << to
                if us_m & fb:
                    if tb & promo:
                        out.append((th_m & ~cm, th_k & ~cm, us_m ^ fb, us_k | tb))
                    else:
                        out.append((th_m & ~cm, th_k & ~cm, (us_m ^ fb) | tb, us_k))
                else:
                    out.append((th_m & ~cm, th_k & ~cm, us_m, (us_k ^ fb) | tb))
            return out
        if us_m:
            for delta, s1, _ in self.man_steps[c]:
                if delta > 0:
                    tg = ((us_m & s1) << delta) & empty
                    while tg:
                        tb = tg & -tg
                        tg ^= tb
                        fb = tb >> delta
                        if tb & promo:
                            out.append((th_m, th_k, us_m ^ fb, us_k | tb))
                        else:
                            out.append((th_m, th_k, us_m ^ fb ^ tb, us_k))
                else:
                    tg = ((us_m & s1) >> -delta) & empty
                    while tg:
                        tb = tg & -tg
                        tg ^= tb
                        fb = tb << -delta
                        if tb & promo:
                            out.append((th_m, th_k, us_m ^ fb, us_k | tb))
                        else:
                            out.append((th_m, th_k, us_m ^ fb ^ tb, us_k))
        if us_k:
            rays = self.rays
            flying = self.flying
            kings = us_k
            while kings:
                fb = kings & -kings
                kings ^= fb
                k = fb.bit_length() - 1
                rest = us_k ^ fb
                for d in (0, 1, 2, 3):
                    for to in rays[d][k]:
                        if not (empty >> to) & 1:
                            break
                        out.append((th_m, th_k, us_m, rest | (1 << to)))
                        if not flying:
                            break
        return out

    def perft(self, us_m: int, us_k: int, th_m: int, th_k: int, c: int, depth: int) -> int:
        """Leaf count at `depth` plies (bulk counting at the last ply); depth >= 1."""
        if depth == 1:
            return self.count_moves(us_m, us_k, th_m, th_k, c)
        total = 0
        c2 = c ^ 1
        if depth == 2:
            count = self.count_moves
            for a, b, e, f in self.children(us_m, us_k, th_m, th_k, c):
                total += count(a, b, e, f, c2)
            return total
        d2 = depth - 1
        perft = self.perft
        for a, b, e, f in self.children(us_m, us_k, th_m, th_k, c):
            total += perft(a, b, e, f, c2, d2)
        return total


@cache
def generator(variant: Variant) -> Generator:
    """The move generator of `variant` (built once per variant)."""
    return Generator(variant)

