"""The engine's former move generator, kept as a second oracle and as the "before" of the
benchmarks: it lists every complete capture route by depth-first search, applies the
capture precedence (maximum capture, the Italian ladder) to the routes, then merges them
under the move identity. Its cost grows with the number of routes, which is why the engine
replaced it by a search over states (`engine.movegen_core`); its results must be the same.

It reads the engine's direction tables and variant records, nothing else of the engine.
"""

from __future__ import annotations

from engine.movegen_tables import RANK_1, RANK_8, tables
from engine.variants import CapturePrecedence, CaptureRemoval, CrownedMidCapture, Variant

#: (start, landings, captured in order, captured bitboard, by a king)
LegacyRoute = tuple[int, tuple[int, ...], tuple[int, ...], int, bool]


class LegacyGenerator:
    """Capture routes of one variant, listed one by one."""

    def __init__(self, variant: Variant) -> None:
        t = tables(variant.geometry)
        self.playable = variant.playable_mask
        self.nxt = t.nxt
        self.rays = t.rays
        self.flying = variant.flying_kings
        self.immediate = variant.capture_removal is CaptureRemoval.IMMEDIATE
        self.men_capture_kings = variant.men_capture_kings
        self.ladder = variant.capture_precedence is CapturePrecedence.ITALIAN_LADDER
        self.stop_on_crown = variant.crowned_mid_capture is CrownedMidCapture.MOVE_ENDS
        self.promo = (RANK_8, RANK_1)
        man_dirs = tuple(
            tuple(
                d for d in range(4)
                if t.drank[d] == forward or (variant.man_sideways and t.drank[d] == 0)
            )
            for forward in (1, -1)
        )

        def allowed(dirs: tuple[int, ...]) -> tuple[tuple[int, ...], ...]:
            rows = [dirs]
            for last in range(4):
                rev = (last + 2) % 4
                rows.append(tuple(d for d in dirs if not (variant.no_reversal and d == rev)))
            return tuple(rows)

        if variant.men_capture_backward:
            man_dirs = ((0, 1, 2, 3), (0, 1, 2, 3))
        self.allowed = tuple(
            (allowed(man_dirs[c]), allowed((0, 1, 2, 3))) for c in (0, 1)
        )

    def capture_routes(
        self, us_m: int, us_k: int, th_m: int, th_k: int, c: int
    ) -> list[LegacyRoute]:
        """Every complete capture route, before any precedence rule, in ascending start
        square and depth-first order."""
        th = th_m | th_k
        empty0 = self.playable & ~(us_m | us_k | th)
        out: list[LegacyRoute] = []
        man_victims = th if self.men_capture_kings else th_m
        pieces = us_m | us_k
        while pieces:
            low = pieces & -pieces
            pieces ^= low
            s = low.bit_length() - 1
            if us_m & low:
                self._dfs(s, s, False, empty0 | low, man_victims, -1, (), (), 0, c, out)
            else:
                self._dfs(s, s, True, empty0 | low, th, -1, (), (), 0, c, out)
        return out

    def _dfs(
        self, start: int, sq: int, king: bool, empty: int, victims: int, last: int,
        landings: tuple[int, ...], captured: tuple[int, ...], capmask: int, c: int,
        out: list[LegacyRoute],
    ) -> None:
        found = False
        if king and self.flying:
            for d in self.allowed[c][1][last + 1]:
                ray = self.rays[d][sq]
                n = len(ray)
                i = 0
                while i < n and (empty >> ray[i]) & 1:
                    i += 1
                if i >= n - 1 or not (victims >> ray[i]) & 1:
                    continue
                over = ray[i]
                ob = 1 << over
                e2 = empty | ob if self.immediate else empty
                j = i + 1
                while j < n and (e2 >> ray[j]) & 1:
                    found = True
                    self._dfs(start, ray[j], True, e2, victims ^ ob, d, (*landings, ray[j]),
                              (*captured, over), capmask | ob, c, out)
                    j += 1
        else:
            for d in self.allowed[c][1 if king else 0][last + 1]:
                over = self.nxt[d][sq]
                if over < 0 or not (victims >> over) & 1:
                    continue
                land = self.nxt[d][over]
                if land < 0 or not (empty >> land) & 1:
                    continue
                found = True
                ob = 1 << over
                if not king and self.stop_on_crown and (self.promo[c] >> land) & 1:
                    out.append((start, (*landings, land), (*captured, over), capmask | ob, king))
                    continue
                self._dfs(start, land, king, empty | ob if self.immediate else empty,
                          victims ^ ob, d, (*landings, land), (*captured, over), capmask | ob,
                          c, out)
        if not found and captured:
            out.append((start, landings, captured, capmask, king))

    def select(self, routes: list[LegacyRoute], th_k: int) -> list[LegacyRoute]:
        """The routes allowed by the capture precedence: maximum capture, or the Italian
        ladder (most pieces, king over man, most kings, earliest kings in turn)."""
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

        def kings(r: LegacyRoute) -> tuple[int, tuple[int, ...]]:
            found = tuple(-i for i, s in enumerate(r[2]) if (th_k >> s) & 1)
            return (len(found), found)

        ranks = [kings(r) for r in routes]
        top = max(ranks)
        return [r for r, k in zip(routes, ranks, strict=True) if k == top]

    def legal_captures(
        self, us_m: int, us_k: int, th_m: int, th_k: int, c: int
    ) -> dict[tuple[int, int, int], list[LegacyRoute]]:
        """The legal capture moves keyed by (start, end, captured bitboard), each with its
        surviving routes in route order; empty when there is no capture."""
        moves: dict[tuple[int, int, int], list[LegacyRoute]] = {}
        for r in self.select(self.capture_routes(us_m, us_k, th_m, th_k, c), th_k):
            moves.setdefault((r[0], r[1][-1], r[3]), []).append(r)
        return moves
