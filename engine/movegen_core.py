"""The move generator: bitboards as Python ints, parameterised by a `Variant` record.

Internals use raw ints for speed. A side-relative state is four bitboards
``(us_men, us_kings, them_men, them_kings)`` plus ``c``, the colour index of the side to
move (0 White, 1 Black). A *move key* is ``(start, end, captured_mask)``, the move
identity of docs/RULES.md ("Coordinates and notation"). Captures are found by a search
over states with memoisation (`Generator.solve_piece`), so their cost grows with the
number of states a capture can pass through, not with the number of routes, which can be
hundreds of thousands where the legal moves are a few dozen. The perft and search hot path
(`Generator.capture_keys`) follows routes one by one while a piece has few of them, which
is quicker there, and solves the piece over states past `ROUTE_BUDGET` routes.

This module is kept whole, with its long inner loops (`Generator.solve_piece`,
`solve_forward`, `_routes`), for speed: they share the generator's tables as locals and a
function call costs in CPython; benchmarks/movegen.py and benchmarks/perft.py measure it.

Every rule difference is read from the variant's parameters (docs/RULES.md):
- man directions: forward (rank away from the owner), plus sideways when `man_sideways`;
  men capture backwards too when `men_capture_backward`;
- kings: any distance along a line when `flying_kings`, else one square;
- captured pieces: removed at once (`IMMEDIATE`: later jumps may cross their squares) or
  at the end of the move (`END_OF_MOVE`: they block and cannot be jumped twice);
- `no_reversal`: no 180-degree turn between consecutive jumps;
- `men_capture_kings`;
- `crowned_mid_capture`: a man reaching the far rank mid-capture goes on as a man, or the
  move ends there, or it is crowned and goes on as a (flying) king;
- `capture_precedence`: maximum capture, or the Italian ladder; a move is legal when one
  of its routes wins under it. Or free choice: every complete capture is legal, and a
  flying king that can go on from some landing square of a jump lands only where it goes
  on (docs/RULES.md, "Russian draughts": a capture is played to its end).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from typing import Any, assert_never

from engine.movegen_tables import Tables, tables
from engine.variants import CapturePrecedence, CaptureRemoval, CrownedMidCapture, Variant

MoveKey = tuple[int, int, int]
State = tuple[int, int, int, int]
#: A solved capture state: its best continuation key and its completions, {captured
#: bitboard: bitboard of end squares} (see `Generator.solve_piece`).
Solved = tuple[int, dict[int, int]]


#: Most capture routes of one piece that `Generator.capture_keys` follows one by one before
#: it solves that piece by the search over states instead.
ROUTE_BUDGET = 64


class _TooManyRoutes(Exception):
    """A piece has more capture routes than ROUTE_BUDGET."""


@dataclass(frozen=True, slots=True)
class StartSolution:
    """The capture search of one piece of the side to move.

    start: its square; king: whether it is a king; empty0: the empty squares before the
    move, its own start square included; victims0: the pieces it may capture; key: its best
    capture's key compared across starts (`Generator.start_key`, -1: no capture);
    completions: its best captures, {captured bitboard: bitboard of end squares}; memo:
    every state the search solved, by memo key (see `Generator.solve_piece`).
    """

    start: int
    king: bool
    empty0: int
    victims0: int
    key: int
    completions: dict[int, int]
    memo: dict[int, Solved]


class Generator:
    """Move generation for one variant. Get one with `generator(variant)`."""

    def __init__(self, variant: Variant) -> None:
        """Raises NotImplementedError for the rule parameters it does not read yet (see
        `unsupported_rules`)."""
        missing = unsupported_rules(variant)
        if missing:
            raise NotImplementedError(
                f"the move generator does not yet play {variant.name}: {', '.join(missing)}"
            )
        t = tables(variant.geometry, variant.board_size)
        self.full = t.full
        self.squares = t.size * t.size
        self.variant = variant
        self.playable = variant.playable_mask
        self.deltas = t.deltas
        self.nxt = t.nxt
        self.rays = t.rays
        self.ray_masks = t.ray_masks
        # dest[d]: the squares a step in direction d can reach (the bit fills' edge mask)
        self.dest = tuple(
            sum(1 << n for n in t.nxt[d] if n >= 0) for d in range(4)
        )
        self.src1 = t.src1
        self.src2 = t.src2
        self.flying = variant.flying_kings
        self.immediate = variant.capture_removal is CaptureRemoval.IMMEDIATE
        self.men_capture_kings = variant.men_capture_kings
        self.ladder = variant.capture_precedence is CapturePrecedence.ITALIAN_LADDER
        # Free choice: every complete capture is legal, so every jump's key is 1 (a state
        # with a way on) and a complete state's is 0: nothing is compared, all is kept.
        self.free = variant.capture_precedence is CapturePrecedence.FREE_CHOICE
        self.no_reversal = variant.no_reversal
        # one more piece, as `_routes` keys (0 under free choice: every route is kept)
        self.key_step = 1 << 41 if self.ladder else 0 if self.free else 1
        # How many pieces `capture_keys` has solved over states (past ROUTE_BUDGET routes):
        # the search reads the clock when this moves, such captures being slow.
        self.states_solved = 0
        self.stop_on_crown = variant.crowned_mid_capture is CrownedMidCapture.MOVE_ENDS
        self.promo = (t.last_rank, t.first_rank)
        crowns_mid = variant.crowned_mid_capture is CrownedMidCapture.CONTINUES_AS_KING
        # A man crowned mid-capture goes on as a flying king (Russian): its states from
        # there on have memo keys complemented (negative), see `solve_piece`.
        self.crown_fly = crowns_mid and variant.flying_kings
        # crowned_by_capture[c]: the squares whose capture by a man of colour c crowns it
        # whatever its end square, under CONTINUES_AS_KING: the rank before its far rank
        # (a man jumps a piece there only to or from the far rank, and a man is never on
        # the far rank uncrowned). Empty under the other rules.
        self.crowned_by_capture = (
            (t.last_rank >> t.size, t.first_rank << t.size) if crowns_mid else (0, 0)
        )
        self._directions(variant, t)
        self.counters = (self._compile_counter(0), self._compile_counter(1))

    def _directions(self, variant: Variant, t: Tables) -> None:
        """The directions each piece steps and jumps in, per colour (`man_dirs`,
        `man_jump_dirs`, `king_dirs`, `allowed`) and their (delta, src1, src2) triples
        (`man_steps`, `man_jumps`, `king_steps`), from the variant's rules and the board's
        tables `t`."""
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
        # The directions men capture in: their step directions, or every direction where
        # men also capture backwards (`men_capture_backward`).
        self.man_jump_dirs = (
            (king_dirs, king_dirs) if variant.men_capture_backward else self.man_dirs
        )
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
            (allowed(self.man_jump_dirs[0]), allowed(king_dirs)),
            (allowed(self.man_jump_dirs[1]), allowed(king_dirs)),
        )
        # man steps per colour: (delta, src1, src2)
        self.man_steps = tuple(
            tuple((t.deltas[d], t.src1[d], t.src2[d]) for d in self.man_dirs[c]) for c in (0, 1)
        )
        # man jumps per colour: (delta, src1, src2)
        self.man_jumps = tuple(
            tuple((t.deltas[d], t.src1[d], t.src2[d]) for d in self.man_jump_dirs[c])
            for c in (0, 1)
        )
        self.king_steps = tuple((t.deltas[d], t.src1[d], t.src2[d]) for d in king_dirs)

    # --- captures ---------------------------------------------------------------------

    def capture_starts(
        self, us_m: int, us_k: int, th_m: int, th: int, occ: int, empty: int, c: int
    ) -> int:
        """Bitboard of the pieces of the side to move that can make a first jump.

        `th` is every enemy piece, `occ` every piece, `empty` the empty playable squares.
        """
        starts = 0
        if us_m:
            mv = th if self.men_capture_kings else th_m
            for delta, _, s2 in self.man_jumps[c]:
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

    # A capture is found by a depth-first search over *states*, not routes, memoised on
    # states so that routes meeting in one state are followed from there once. A state is
    # what the moving piece knows after a jump: the captured bitboard, the direction of
    # the jump, and the squares it may land on. For a man or a short king that is one
    # square; for a flying king it is the run of empty squares beyond the piece it jumped,
    # taken as one state (every square of the run sees the same board), so a run of five
    # landing squares costs one state, not five. With the start square and the position,
    # a state fixes the board (captured pieces gone at once, or still there and blocking)
    # and so every way the capture can go on.
    #
    # Each state yields its best continuation key and its *completions*: the captures its
    # best continuations end with, as {captured bitboard: bitboard of end squares}, in the
    # order the search first meets each captured set (depth-first, directions in table
    # order, nearest landing first).
    #
    # The key orders captures by the capture precedence of docs/RULES.md. Maximum
    # capture: the number of pieces. Italian ladder: the number of pieces (bits 40 and
    # up), the number of kings (bits 32-39), and a bit for each jump that takes a king,
    # the first jump at bit 31 (bits 0-31): between two sequences with the same number of
    # kings, the one whose captured kings come earlier, compared king by king, has the
    # larger bits (step 4). Step 2 (a king's capture over a man's) is constant along a
    # route and put in where starts are compared (`start_key`). A route that wins over
    # all routes is best at every state on it (its rest is a best continuation there), so
    # keeping only the best continuations of each state loses no legal move and keeps no
    # illegal one. Free choice: every jump's key is 1 and a complete state's 0, so every
    # continuation is kept (`keyed`); a run of landing squares where some square goes on
    # keeps only the squares that go on, which is the landing rule of a flying king under
    # free choice (under the other precedences those squares lose anyway).
    #
    # Memo keys: captured bitboard << 10 | anchor << 3 | direction + 1, the anchor being the
    # jumped piece for a flying king (its landing run follows from it), the landing square
    # otherwise (with the direction only where `no_reversal` makes it matter); the start
    # state has key start << 3 (no capture yet). The anchor takes 7 bits (squares up to 99
    # on the 10×10 board). A man crowned mid-capture that goes on as a flying king
    # (`crown_fly`, Russian) enters a state keyed by the complement (~) of the key its
    # landing would have as a man, and every state after it is complemented too: negative
    # keys are the crowned piece's, which moves as a king (`mk < 0` in `node`), and never
    # meet a man's state with the same captured set.
    #
    # The bit fills reach 7 squares past a landing square (steps of 1, 2, 4), enough on
    # both boards: a victim is at most 8 squares away, with its landing square 9 away on a
    # 10-square diagonal, the longest there is.

    # Kept whole for speed (an inner loop of move generation: a function call costs in
    # CPython); benchmarks/movegen.py and benchmarks/perft.py measure it.
    def solve_piece(
        self,
        start: int,
        king: bool,
        empty0: int,
        victims0: int,
        th_k: int,
        c: int,
        memo: dict[int, Solved] | None = None,
    ) -> Solved:
        """The best continuation key and completions of the piece on `start` (a king or not),
        `empty0` being the empty squares before the move with `start` among them and
        `victims0` the pieces it may capture. Key -1 and no completion when it has no
        capture. With `memo`, every state solved is left there; without, states after a
        single capture (which only one route reaches) are not memoised."""
        keep_all = memo is not None
        if memo is None:
            memo = {}
        immediate = self.immediate
        ladder = self.ladder
        no_rev = self.no_reversal
        allowed = self.allowed[c][1 if king else 0]
        flying = king and self.flying
        deltas = self.deltas
        dest = self.dest
        ray_masks = self.ray_masks
        nxt = self.nxt
        promo = self.promo[c]
        stop = not king and self.stop_on_crown
        crown = not king and self.crown_fly
        # the far-rank squares where a man's jump ends the move or crowns it mid-capture
        crowning = promo if stop or crown else 0
        keyed = ladder or self.free
        # per direction: (delta, the squares a step that way can reach, ray masks, next)
        fly = tuple((deltas[e], dest[e], ray_masks[e], nxt[e]) for e in range(4))

        # Kept whole for speed (an inner loop of move generation: a function call costs in
        # CPython); benchmarks/movegen.py and benchmarks/perft.py measure it.
        def node(mk: int, land: int, cm: int, last: int) -> Solved:
            shared = keep_all or cm & (cm - 1)
            if shared:
                got = memo.get(mk)
                if got is not None:
                    return got
            empty = empty0 | cm if immediate else empty0
            victims = victims0 & ~cm
            best = -1
            parts: list[dict[int, int]] = []
            if flying or mk < 0:
                # a king, or a man crowned mid-capture going on as a flying king (its
                # states' keys complemented: `neg` turns the next states' keys the same way)
                neg = -1 if mk < 0 else 0
                single = not land & (land - 1)
                for e in allowed[last + 1]:
                    delta, edge, rays_e, nxt_e = fly[e]
                    if single or e == last:
                        # One square to look from: the landing square, or for the straight
                        # way on the far end of the run (every square of the run sees the
                        # same next piece that way).
                        if single:
                            m = rays_e[land.bit_length() - 1] & ~empty
                            if not m:
                                continue
                            b = (m & -m).bit_length() - 1 if delta > 0 else m.bit_length() - 1
                        else:
                            far = land.bit_length() - 1 if delta > 0 else (
                                (land & -land).bit_length() - 1
                            )
                            b = nxt_e[far]
                            if b < 0:
                                continue
                        beyond = nxt_e[b]
                        if beyond < 0 or not (victims >> b) & 1 or not (empty >> beyond) & 1:
                            continue
                        hit = 1 << b
                    elif delta > 0:
                        # Every square of the run at once: fill along e through empty
                        # squares (steps of 1, 2, 4), then the pieces just beyond the fill
                        # that are victims with an empty square behind them.
                        entry = empty & edge
                        g = land | (entry & (land << delta))
                        pro = entry & (entry << delta)
                        g |= pro & (g << (delta << 1))
                        pro &= pro << (delta << 1)
                        g |= pro & (g << (delta << 2))
                        hit = (g << delta) & edge & victims & (entry >> delta)
                    else:
                        d = -delta
                        entry = empty & edge
                        g = land | (entry & (land >> d))
                        pro = entry & (entry >> d)
                        g |= pro & (g >> (d << 1))
                        pro &= pro >> (d << 1)
                        g |= pro & (g >> (d << 2))
                        hit = (g >> d) & edge & victims & (entry << d)
                    while hit:
                        vb = hit & -hit
                        hit ^= vb
                        v = vb.bit_length() - 1
                        cm2 = cm | vb
                        ray = rays_e[v]
                        m = ray & ~(empty | vb if immediate else empty)
                        if m:
                            b = (m & -m).bit_length() - 1 if delta > 0 else m.bit_length() - 1
                            run = ray ^ rays_e[b] ^ (1 << b)
                        else:
                            run = ray
                        ck2 = ((cm2 << 10) | (v << 3) | (e + 1)) ^ neg
                        got = memo.get(ck2) if shared else None
                        ck, cd = got if got is not None else node(ck2, run, cm2, e)
                        if not keyed:
                            k = ck + 1
                        elif ladder:
                            isk = (th_k >> v) & 1
                            k = (((ck >> 32) + 256 + isk) << 32) | ((ck & 0xFFFFFFFF) >> 1) | (
                                isk << 31
                            )
                        else:
                            k = 1
                        if k > best:
                            best = k
                            parts = [cd]
                        elif k == best:
                            parts.append(cd)
            else:
                sq = land.bit_length() - 1
                for e in allowed[last + 1]:
                    row = nxt[e]
                    over = row[sq]
                    if over < 0 or not (victims >> over) & 1:
                        continue
                    to = row[over]
                    if to < 0 or not (empty >> to) & 1:
                        continue
                    cm2 = cm | (1 << over)
                    if (crowning >> to) & 1:
                        if stop:
                            ck, cd = 0, {cm2: 1 << to}
                        else:  # crowned: on as a flying king, from a complemented key
                            tag = e + 1 if no_rev else 0
                            ck, cd = node(
                                ~((cm2 << 10) | (to << 3) | tag), 1 << to, cm2,
                                e if no_rev else -1,
                            )
                    elif no_rev:
                        ck, cd = node((cm2 << 10) | (to << 3) | (e + 1), 1 << to, cm2, e)
                    else:
                        ck, cd = node((cm2 << 10) | (to << 3), 1 << to, cm2, -1)
                    if not keyed:
                        k = ck + 1
                    elif ladder:
                        isk = (th_k >> over) & 1
                        k = (((ck >> 32) + 256 + isk) << 32) | ((ck & 0xFFFFFFFF) >> 1) | (
                            isk << 31
                        )
                    else:
                        k = 1
                    if k > best:
                        best = k
                        parts = [cd]
                    elif k == best:
                        parts.append(cd)
            if not parts:
                res: Solved = (0, {cm: land}) if cm else (-1, {})
            elif len(parts) == 1:
                res = (best, parts[0])
            else:
                merged = dict(parts[0])
                for part in parts[1:]:
                    for cmf, ends in part.items():
                        merged[cmf] = merged.get(cmf, 0) | ends
                res = (best, merged)
            if shared:
                memo[mk] = res
            return res

        return node(start << 3, 1 << start, 0, -1)

    # Kept whole for speed (an inner loop of move generation: a function call costs in
    # CPython); benchmarks/movegen.py and benchmarks/perft.py measure it.
    def solve_forward(
        self, start: int, king: bool, empty0: int, victims0: int, c: int
    ) -> Solved:
        """`solve_piece` for maximum capture (not the Italian ladder), without routes: the
        number of pieces of the piece's longest captures and their completions, {captured
        bitboard: bitboard of end squares}; -1 and none when it cannot capture.

        A search forward, one captured piece at a time, over (captured set, direction of
        the last jump) with every square the piece may stand on there as one bitboard:
        with the captured set the board is known (the pieces gone at once or still
        blocking), and the direction matters only where `no_reversal` forbids turning
        back, so states reached by different routes (another order of captures, another
        piece taken last) merge. The squares are moved a whole direction at a time (the
        same bit fills as `solve_piece`). The longest captures are those of the last
        layer reached (every state there is complete) and the crowned men's stops
        (`MOVE_ENDS`) that reach it. About twice as fast as `solve_piece` where states are
        many (it keeps no memo and builds no completions per state), for perft and the
        search (`capture_keys`). Not for free choice (it keeps only the longest) nor for a
        man crowned mid-capture going on as a king (`crown_fly`): `solve_piece` there."""
        immediate = self.immediate
        allowed = self.allowed[c][1 if king else 0]
        flying = king and self.flying
        no_rev = self.no_reversal
        deltas = self.deltas
        dest = self.dest
        ray_masks = self.ray_masks
        src2 = self.src2
        promo = self.promo[c]
        stop = not king and self.stop_on_crown
        cur: dict[int, int] = {0: 1 << start}  # captured << 3 | last direction + 1
        stopped: dict[int, int] = {}  # men's captures ended by crowning, this layer
        count = 0
        while True:
            nxt: dict[int, int] = {}
            ends: dict[int, int] = {}
            get = nxt.get
            for key, land in cur.items():
                cm = key >> 3
                last = (key & 7) - 1
                empty = empty0 | cm if immediate else empty0
                victims = victims0 & ~cm
                for e in allowed[last + 1]:
                    delta = deltas[e]
                    tag = e + 1 if no_rev else 0
                    if flying:
                        edge = dest[e]
                        rays_e = ray_masks[e]
                        entry = empty & edge
                        if delta > 0:
                            g = land | (entry & (land << delta))
                            pro = entry & (entry << delta)
                            g |= pro & (g << (delta << 1))
                            pro &= pro << (delta << 1)
                            g |= pro & (g << (delta << 2))
                            hit = (g << delta) & edge & victims & (entry >> delta)
                        else:
                            d = -delta
                            g = land | (entry & (land >> d))
                            pro = entry & (entry >> d)
                            g |= pro & (g >> (d << 1))
                            pro &= pro >> (d << 1)
                            g |= pro & (g >> (d << 2))
                            hit = (g >> d) & edge & victims & (entry << d)
                        while hit:
                            vb = hit & -hit
                            hit ^= vb
                            ray = rays_e[vb.bit_length() - 1]
                            m = ray & ~empty
                            if m:
                                b = (m & -m).bit_length() - 1 if delta > 0 else m.bit_length() - 1
                                run = ray ^ rays_e[b] ^ (1 << b)
                            else:
                                run = ray
                            nk = ((cm | vb) << 3) | tag
                            nxt[nk] = get(nk, 0) | run
                        continue
                    if delta > 0:
                        to = ((land & src2[e] & (victims >> delta)) << (delta << 1)) & empty
                    else:
                        d = -delta
                        to = ((land & src2[e] & (victims << d)) >> (d << 1)) & empty
                    while to:
                        tb = to & -to
                        to ^= tb
                        cm2 = cm | (tb >> delta if delta > 0 else tb << -delta)
                        if stop and tb & promo:
                            ends[cm2] = ends.get(cm2, 0) | tb
                            continue
                        nk = (cm2 << 3) | tag
                        nxt[nk] = get(nk, 0) | tb
            if not nxt and not ends:
                if count == 0:
                    return -1, {}
                done: dict[int, int] = {}
                for key, land in cur.items():
                    done[key >> 3] = done.get(key >> 3, 0) | land
                for cm, land in stopped.items():
                    done[cm] = done.get(cm, 0) | land
                return count, done
            count += 1
            if not nxt:
                return count, ends
            cur, stopped = nxt, ends

    def solve_start(
        self, s: int, us_m: int, us_k: int, th_m: int, th_k: int, c: int
    ) -> StartSolution:
        """The capture search of the piece on `s` (which must belong to the side to move):
        its `StartSolution` (key -1 and no completion when it cannot capture)."""
        th = th_m | th_k
        low = 1 << s
        empty0 = (self.playable & ~(us_m | us_k | th)) | low
        king = not us_m & low
        victims0 = th if king or self.men_capture_kings else th_m
        memo: dict[int, Solved] = {}
        key, done = self.solve_piece(s, king, empty0, victims0, th_k, c, memo)
        return StartSolution(s, king, empty0, victims0, self.start_key(key, king), done, memo)

    def start_key(self, key: int, king: bool) -> int:
        """The key of a start's best capture compared across starts: the continuation key,
        with the Italian ladder's step 2 (a king's capture over a man's) put in at bit 40,
        between the number of pieces and the number of kings."""
        if key < 0 or not self.ladder:
            return key
        return ((key >> 40) << 41) | (int(king) << 40) | (key & ((1 << 40) - 1))

    def capture_keys(
        self, us_m: int, us_k: int, th_m: int, th_k: int, c: int, starts: int = -1
    ) -> list[MoveKey]:
        """The distinct legal capture moves as (start, end, captured_mask), by ascending
        start square (the order within one start is the search's and carries no meaning).
        `starts`: the result of `capture_starts` when the caller has it. Empty when there
        is no capture.

        The perft and search hot path. Each piece's captures are first followed route by
        route (`_routes`), which is quickest where they are few, as they nearly always are;
        past `ROUTE_BUDGET` routes that piece is solved by the search over states
        (`solve_piece`) instead, whose cost does not grow with the routes. The capture
        precedence of docs/RULES.md is applied across pieces by their keys.
        """
        th = th_m | th_k
        occ = us_m | us_k | th
        empty0 = self.playable & ~occ
        if starts < 0:
            starts = self.capture_starts(us_m, us_k, th_m, th, occ, empty0, c)
        man_victims = th if self.men_capture_kings else th_m
        routes = self._routes
        ladder = self.ladder
        out: list[tuple[int, int, int, int]] = []
        while starts:
            low = starts & -starts
            starts ^= low
            s = low.bit_length() - 1
            king = not us_m & low
            victims = th if king else man_victims
            base = len(out)
            try:
                routes(s, s, king, empty0 | low, victims, th_k, -1, 0,
                       (int(king) << 40) if ladder else 0, c, out, base + ROUTE_BUDGET)
            except _TooManyRoutes:
                del out[base:]
                self.states_solved += 1
                if ladder:
                    k, done = self.solve_piece(s, king, empty0 | low, victims, th_k, c)
                    k = self.start_key(k, king)
                elif self.free:
                    # every complete capture, keyed 0 as `_routes` keys them
                    done = self.solve_piece(s, king, empty0 | low, victims, th_k, c)[1]
                    k = 0
                elif self.crown_fly:
                    k, done = self.solve_piece(s, king, empty0 | low, victims, th_k, c)
                else:
                    k, done = self.solve_forward(s, king, empty0 | low, victims, c)
                for cmf, bits in done.items():
                    out.extend((s, sq, cmf, k) for sq in range(self.squares) if (bits >> sq) & 1)
        if len(out) < 2:
            return [(r[0], r[1], r[2]) for r in out]
        best = max(r[3] for r in out)
        return list(dict.fromkeys((r[0], r[1], r[2]) for r in out if r[3] == best))

    # Kept whole for speed (an inner loop of move generation: a function call costs in
    # CPython); benchmarks/movegen.py and benchmarks/perft.py measure it.
    def _routes(
        self,
        start: int,
        sq: int,
        king: bool,
        empty: int,
        victims: int,
        th_k: int,
        last: int,
        cm: int,
        key: int,
        c: int,
        out: list[tuple[int, int, int, int]],
        limit: int,
    ) -> bool:
        """Append (start, end square, captured bitboard, key) for each complete capture route
        on from square `sq`, `cm` being captured so far and `key` the key so far as
        `start_key` writes it (the count; for the Italian ladder count << 41 | by a king
        << 40 | kings << 32 | one bit per king taken, the first jump at bit 31; 0 under
        free choice). Returns whether the piece jumps on from `sq` (False: the route ends
        there and was appended). Raises _TooManyRoutes when `out` would grow past `limit`.

        A flying king that can go on from some landing square of a jump lands only where
        it goes on (docs/RULES.md, "Russian draughts": a capture is played to its end);
        under maximum capture and the ladder the routes that stop there lose anyway, so
        only free choice drops them here."""
        found = False
        immediate = self.immediate
        # The key grows by `step` per piece; under the ladder a king taken also counts one
        # king (bit 32) and sets its jump's bit (31 minus the number of pieces so far).
        step = self.key_step
        kings = th_k if self.ladder else 0
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
                cm2 = cm | ob
                if (kings >> over) & 1:
                    k2 = key + step + (1 << 32) + (1 << (31 - (key >> 41)))
                else:
                    k2 = key + step
                j = i + 1
                if self.free:
                    stops: list[int] = []  # where this jump's routes end at once
                    goes_on = False
                    while j < ln:
                        land = ray[j]
                        if not (e2 >> land) & 1:
                            break
                        found = True
                        n0 = len(out)
                        if self._routes(
                            start, land, True, e2, v2, th_k, d, cm2, k2, c, out, limit
                        ):
                            goes_on = True
                        else:
                            stops.append(n0)
                        j += 1
                    if goes_on:
                        for n0 in reversed(stops):
                            del out[n0]
                    continue
                while j < ln:
                    land = ray[j]
                    if not (e2 >> land) & 1:
                        break
                    found = True
                    self._routes(start, land, True, e2, v2, th_k, d, cm2, k2, c, out, limit)
                    j += 1
        else:
            nxt = self.nxt
            stop = not king and self.stop_on_crown
            crown = not king and self.crown_fly
            crowning = self.promo[c] if stop or crown else 0
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
                if (kings >> over) & 1:
                    k2 = key + step + (1 << 32) + (1 << (31 - (key >> 41)))
                else:
                    k2 = key + step
                if (crowning >> land) & 1:
                    if stop:
                        out.append((start, land, cm | ob, k2))
                        continue
                    # crowned: goes on as a flying king (its victims: the man's, which
                    # `unsupported_rules` requires to be every enemy piece)
                    self._routes(
                        start, land, True, empty | ob if immediate else empty, victims ^ ob,
                        th_k, d, cm | ob, k2, c, out, limit,
                    )
                    continue
                self._routes(
                    start, land, king, empty | ob if immediate else empty, victims ^ ob, th_k,
                    d, cm | ob, k2, c, out, limit,
                )
        if not found and cm:
            if len(out) >= limit:
                raise _TooManyRoutes
            out.append((start, sq, cm, key))
        return found

    def landing_order(self, mk: int, land: int) -> list[int]:
        """The squares of the landing bitboard `land` of the state with memo key `mk`,
        nearest to the jumped piece first (the search's order)."""
        if land & (land - 1) == 0:
            return [land.bit_length() - 1]
        if mk < 0:  # a crowned man's state (see `solve_piece`)
            mk = ~mk
        v, e = (mk >> 3) & 127, (mk & 7) - 1
        return [sq for sq in self.rays[e][v] if (land >> sq) & 1]

    def jumps_from(
        self, sq: int, king: bool, empty0: int, victims0: int, cm: int, last: int, c: int,
        crowned: bool = False,
    ) -> list[tuple[int, int, int, int, bool]]:
        """The jumps from square `sq` of a state with captured bitboard `cm` entered by a
        jump in direction `last` (-1: the start), in the search's order, each as (captured
        square, memo key of the state it leads to, that state's landing bitboard, its
        direction, whether the move ends there: a man crowned where that ends the move).
        `crowned`: the state is a man's crowned mid-capture, going on as a flying king
        (its memo key, and those of the states after it, complemented). The same steps as
        `solve_piece`, for the callers that walk the solved states."""
        empty = empty0 | cm if self.immediate else empty0
        victims = victims0 & ~cm
        out: list[tuple[int, int, int, int, bool]] = []
        neg = -1 if crowned else 0
        if (king or crowned) and self.flying:
            for e in self.allowed[c][1][last + 1]:
                ray = self.rays[e][sq]
                n = len(ray)
                i = 0
                while i < n and (empty >> ray[i]) & 1:
                    i += 1
                if i >= n - 1 or not (victims >> ray[i]) & 1:
                    continue
                v = ray[i]
                vb = 1 << v
                e2 = empty | vb if self.immediate else empty
                run = 0
                j = i + 1
                while j < n and (e2 >> ray[j]) & 1:
                    run |= 1 << ray[j]
                    j += 1
                if run:
                    mk = (((cm | vb) << 10) | (v << 3) | (e + 1)) ^ neg
                    out.append((v, mk, run, e, False))
        else:
            stop = not king and self.stop_on_crown
            crown = not king and self.crown_fly
            for e in self.allowed[c][1 if king else 0][last + 1]:
                over = self.nxt[e][sq]
                if over < 0 or not (victims >> over) & 1:
                    continue
                to = self.nxt[e][over]
                if to < 0 or not (empty >> to) & 1:
                    continue
                cm2 = cm | (1 << over)
                far = bool((self.promo[c] >> to) & 1)
                ends = stop and far
                mk = (cm2 << 10) | (to << 3) | (e + 1 if self.no_reversal else 0)
                if crown and far:
                    mk = ~mk
                out.append((over, mk, 1 << to, e if self.no_reversal else -1, ends))
        return out

    def extend_key(self, child_key: int, over: int, th_k: int) -> int:
        """The continuation key of a jump over `over` followed by a continuation of key
        `child_key` (see `solve_piece`): under free choice always 1."""
        if self.free:
            return 1
        if not self.ladder:
            return child_key + 1
        isk = (th_k >> over) & 1
        return (((child_key >> 32) + 256 + isk) << 32) | ((child_key & 0xFFFFFFFF) >> 1) | (
            isk << 31
        )

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
            steps = self.man_jumps[c]
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
                # a man crowned mid-capture may go on as a flying king: the full search
                further = (self.ladder and self.men_capture_kings) or bool(
                    self.crown_fly and landed & self.promo[c]
                )
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
        jumps = self.man_jumps[c]
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
        for delta, _, s2 in jumps:
            code += [
                f"    j = us_m & {s2} & {toward(mv, delta, 1)} & {toward('empty', delta, 2)}",
                "    if j:",
                "        jumps += j.bit_count()",
                f"        landed |= {away('j', delta, 2)}",
            ]
        code.append("    if jumps:")
        if self.stop_on_crown:
            code.append(f"        landed &= {self.full & ~self.promo[c]}")
        if self.crown_fly:
            code += [
                f"        if landed & {self.promo[c]}:",
                f"            return len(capture_keys(us_m, us_k, th_m, th_k, {c}))",
            ]
        if self.ladder and self.men_capture_kings:
            code.append(f"        return len(capture_keys(us_m, us_k, th_m, th_k, {c}))")
        else:
            further = " or ".join(
                f"(landed & {s2} & {toward(mv, delta, 1)} & {toward('empty', delta, 2)})"
                for delta, _, s2 in jumps
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
            crowns = self.crowned_by_capture[c]
            for frm, to, cm in self.capture_keys(us_m, us_k, th_m, th_k, c, starts):
                fb = 1 << frm
                tb = 1 << to
                if us_m & fb:
                    if tb & promo or cm & crowns:
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


def unsupported_rules(variant: Variant) -> tuple[str, ...]:
    """The rule parameters of `variant` that this generator does not read yet, by field
    name (empty when it plays the variant). It plays every combination but one that no
    variant has: a man crowned mid-capture going on as a king (`CONTINUES_AS_KING`) where
    men do not capture backward or do not capture kings; it takes the crowned piece's
    directions and victims to be the man's, which Russian draughts' are (docs/RULES.md,
    "Family 3")."""
    missing: list[str] = []
    match variant.crowned_mid_capture:
        case CrownedMidCapture.CONTINUES_AS_MAN | CrownedMidCapture.MOVE_ENDS:
            pass
        case CrownedMidCapture.CONTINUES_AS_KING:
            if not (variant.men_capture_backward and variant.men_capture_kings):
                missing.append("crowned_mid_capture")
        case _ as unknown:
            assert_never(unknown)
    return tuple(missing)


@cache
def generator(variant: Variant) -> Generator:
    """The move generator of `variant` (built once per variant).

    Raises NotImplementedError for a variant whose rules it does not read yet.
    """
    return Generator(variant)

