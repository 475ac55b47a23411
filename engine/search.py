"""The computer player's search: iterative deepening alpha-beta (negamax with principal
variation search) over the engine's bitboard move generator. No I/O.

`search(position, variant, ...)` returns a `SearchResult` (the move to play, its score for
the side to move in hundredths of a man, the depth completed, nodes, principal variation).

How it searches:
- Iterative deepening from depth 1, each iteration ordered by the previous one, until the
  depth limit, the time budget or the stop signal; the best move of the last completed
  iteration is returned (or of the current one when a better move was already proven).
- Transposition table keyed by Zobrist keys (`engine.search_keys`, fixed seed), storing
  depth, bound type, score and best move.
- Move ordering: the table's move, then captures of kings, killer moves (two per ply),
  crowning steps and the history heuristic.
- Capture extension: captures are compulsory, so when the side to move must capture the
  position is never scored statically: every capture is searched whatever the remaining
  depth (a quiescence search made of forced moves only). A position with a single legal
  move does not use up depth.
- Draws inside the search line: a position repeated on the line (or met in the game's
  history given by the caller) scores 0; so does one piece each where that rule draws
  (Turkish, Arab), and a line that reaches the variant's no-progress limit (plies with no
  capture and no man move, counted from the game's own count given by the caller). A side
  to move with no piece or no legal move loses (docs/RULES.md). The transposition table
  is neither read nor written where the no-progress limit is within reach of the remaining
  depth, so a score that depends on the count is never reused at another count. The
  endgame counts by material (`DrawLaw.endgame_rules`: International, Brazilian, Russian) are not
  searched: a line that outlasts one is valued as the evaluation sees it; `engine.game.
  Game` ends the game when the count runs out, and the analysis scores a position where
  one has run out as drawn (`engine.draw_rules`).
- Levels 1..5 (`LEVELS`): lower levels search shallower and pick at random (seeded) among
  the root moves that score within a margin of the best; level 5 plays its best move.

Results are reproducible: for the same position, variant, depth (no time budget), level and
seed the same move, score and principal variation come back.
"""

from __future__ import annotations

import random
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType
from typing import Protocol

from engine.evaluation import Evaluator
from engine.movegen import legal_moves, play_unchecked
from engine.movegen_core import generator
from engine.movegen_tables import tables
from engine.moves import Move
from engine.pieces import Color
from engine.position import Position
from engine.search_keys import BLACK_TO_MOVE, piece_keys, position_key
from engine.variants import Variant

MATE = 100_000  # score of a won position at the root; a win found at ply p scores MATE - p
MATE_BOUND = MATE - 1_000  # scores beyond this are wins or losses
INFINITY = MATE + 1
MAX_DEPTH = 40  # most iterations
MAX_PLY = 96  # deepest line, extensions included; deeper positions are scored statically
TT_ENTRIES = 1 << 20  # the table is emptied when it grows past this
POLL_MASK = 255  # the stop signal and the clock are read every 256 nodes

_EXACT, _LOWER, _UPPER = 0, 1, 2

MoveKey = tuple[int, int, int]  # (start, end, captured squares bitboard): move identity


class StopSignal(Protocol):
    """Anything with `is_set() -> bool`, such as `threading.Event`; the search stops soon
    after it reads True (it reads it every 256 nodes)."""

    def is_set(self) -> bool:
        """Whether the search should stop."""
        ...


@dataclass(frozen=True, slots=True)
class Level:
    """A playing strength. `number` 1..5; `max_depth`: most plies searched (before
    capture extensions); `time_budget`: default seconds per move; `margin`: the level plays
    a random one (seeded) of the root moves scoring within `margin` (a man = 100) of the
    best, 0 = always the best."""

    number: int
    max_depth: int
    time_budget: float
    margin: int


LEVELS: Mapping[int, Level] = MappingProxyType({
    1: Level(1, max_depth=1, time_budget=0.3, margin=150),
    2: Level(2, max_depth=2, time_budget=0.5, margin=90),
    3: Level(3, max_depth=3, time_budget=1.0, margin=35),
    4: Level(4, max_depth=4, time_budget=1.5, margin=12),
    5: Level(5, max_depth=MAX_DEPTH, time_budget=2.0, margin=0),
})


def get_level(level: int) -> Level:
    """The `Level` numbered `level`; raises ValueError unless it is 1..5."""
    found = LEVELS.get(level) if isinstance(level, int) else None
    if found is None:
        raise ValueError(f"level must be a whole number from 1 to 5, not {level!r}")
    return found


@dataclass(frozen=True, slots=True)
class SearchResult:
    """What the search found.

    move: the move to play (None only when the side to move has no legal move).
    score: the value of the position for the side to move (a man = 100; beyond
    +-MATE_BOUND a forced win/loss). depth: the last depth searched completely (0 when
    stopped before the first). nodes: positions visited. pv: the expected line, starting
    with `move` (empty when there is no move). elapsed: seconds spent. stopped: True when
    the time budget or the stop signal ended the search before its depth limit.
    candidates: how many root moves the level chose among (1 at level 5).
    """

    move: Move | None
    score: int
    depth: int
    nodes: int
    pv: tuple[Move, ...]
    elapsed: float
    stopped: bool
    candidates: int


class _Stopped(Exception):
    """Raised inside the search to unwind it when time is up or the stop signal is set."""


def _side_relative(p: Position) -> tuple[int, int, int, int, int]:
    if p.turn is Color.WHITE:
        return p.white_men, p.white_kings, p.black_men, p.black_kings, 0
    return p.black_men, p.black_kings, p.white_men, p.white_kings, 1


def _key(move: Move) -> MoveKey:
    cm = 0
    for sq in move.captured:
        cm |= 1 << sq
    return (move.start, move.end, cm)


class _Searcher:
    """One search: the tables (transposition, killers, history) and counters."""

    def __init__(
        self,
        variant: Variant,
        stop: StopSignal | None,
        deadline: float | None,
        history: Sequence[Position],
        max_nodes: int | None = None,
    ) -> None:
        g = generator(variant)
        self.gen = g
        self.capture_starts = g.capture_starts
        self.capture_keys = g.capture_keys
        self.quiet_moves = g.quiet_moves
        self.playable = variant.playable_mask
        self.evaluate = Evaluator(variant)
        self.one_each = variant.draw_law.one_piece_each
        self.np_limit = variant.draw_law.no_progress_plies
        self.max_nodes = max_nodes
        self.stop = stop
        self.deadline = deadline
        self.nodes = 0
        self.tt: dict[int, tuple[int, int, int, MoveKey | None]] = {}
        self.killers: list[list[MoveKey | None]] = [[None, None] for _ in range(MAX_PLY + 2)]
        # History scores by (start << 7) | end: squares 0..99 on the 10×10 board.
        self.history = [0] * (1 << 14)
        self.path: set[int] = {position_key(p) for p in history}
        board = tables(variant.geometry, variant.board_size)
        self.promo = (board.last_rank, board.first_rank)
        self.piece_keys = piece_keys(variant.board_size)
        # a man capturing one of these is crowned wherever its move ends (Russian)
        self.crowned_by_capture = g.crowned_by_capture

    def poll(self) -> None:
        if self.stop is not None and self.stop.is_set():
            raise _Stopped
        if self.deadline is not None and time.monotonic() >= self.deadline:
            raise _Stopped
        if self.max_nodes is not None and self.nodes >= self.max_nodes:
            raise _Stopped

    def child(
        self, um: int, uk: int, tm: int, tk: int, c: int, h: int, mv: MoveKey
    ) -> tuple[int, int, int, int, int]:
        """(their men, their kings, our men, our kings, key) after our move `mv`."""
        frm, to, cm = mv
        fb = 1 << frm
        tb = 1 << to
        zm, zk = self.piece_keys[c]
        h ^= BLACK_TO_MOVE
        if um & fb:
            if tb & self.promo[c] or cm & self.crowned_by_capture[c]:
                um, uk = um ^ fb, uk | tb
                h ^= zm[frm] ^ zk[to]
            else:
                um ^= fb ^ tb
                h ^= zm[frm] ^ zm[to]
        else:
            uk ^= fb ^ tb
            h ^= zk[frm] ^ zk[to]
        if cm:
            ozm, ozk = self.piece_keys[c ^ 1]
            x = tm & cm
            while x:
                low = x & -x
                x ^= low
                h ^= ozm[low.bit_length() - 1]
            x = tk & cm
            while x:
                low = x & -x
                x ^= low
                h ^= ozk[low.bit_length() - 1]
            tm &= ~cm
            tk &= ~cm
        return tm, tk, um, uk, h

    # Kept whole for speed (the search's inner loop: a function call costs in CPython);
    # benchmarks/strength.py measures it.
    def node(
        self, um: int, uk: int, tm: int, tk: int, c: int, h: int,
        depth: int, alpha: int, beta: int, ply: int, np: int = 0,
    ) -> int:
        """Negamax value of the position for the side to move (us), within (alpha, beta);
        `np`: plies with no capture and no man move before this position."""
        self.nodes += 1
        if not self.nodes & POLL_MASK:
            self.poll()
        us = um | uk
        if not us:
            return ply - MATE
        if h in self.path:
            return 0
        if self.one_each and us.bit_count() == 1 and (tm | tk).bit_count() == 1:
            return 0
        if np >= self.np_limit:
            return 0
        if ply >= MAX_PLY:
            return self.evaluate(um, uk, tm, tk, c)
        th = tm | tk
        occ = us | th
        starts = self.capture_starts(um, uk, tm, th, occ, self.playable & ~occ, c)
        quiet = not starts
        if starts:
            solved = self.gen.states_solved
            moves = self.capture_keys(um, uk, tm, tk, c, starts)
            if self.gen.states_solved != solved:
                # A capture with very many routes, solved over states: it may have taken
                # tens of milliseconds, so read the clock now, not 256 nodes later.
                self.poll()
        else:
            if depth <= 0:
                if us.bit_count() <= 4 and not self.quiet_moves(um, uk, tm, tk, c):
                    return ply - MATE
                return self.evaluate(um, uk, tm, tk, c)
            moves = [(f, t, 0) for f, t in self.quiet_moves(um, uk, tm, tk, c)]
            if not moves:
                return ply - MATE
        tt_move: MoveKey | None = None
        use_tt = np + depth + 2 < self.np_limit
        entry = self.tt.get(h) if use_tt else None
        if entry is not None:
            e_depth, e_flag, e_score, tt_move = entry
            if e_depth >= depth:
                if e_score > MATE_BOUND:
                    e_score -= ply
                elif e_score < -MATE_BOUND:
                    e_score += ply
                if (
                    e_flag == _EXACT
                    or (e_flag == _LOWER and e_score >= beta)
                    or (e_flag == _UPPER and e_score <= alpha)
                ):
                    return e_score
        n = len(moves)
        if n > 1:
            if quiet:
                killers = self.killers[ply]
                hist = self.history
                promo = self.promo[c]
                moves.sort(
                    key=lambda m: (
                        m == tt_move,
                        m in killers,
                        bool((um >> m[0]) & 1 and (promo >> m[1]) & 1),
                        hist[(m[0] << 7) | m[1]],
                    ),
                    reverse=True,
                )
            else:
                moves.sort(key=lambda m: (m == tt_move, (m[2] & tk).bit_count()), reverse=True)
        new_depth = depth if n == 1 else depth - 1
        ply1 = ply + 1
        c1 = c ^ 1
        node = self.node
        child = self.child
        best = -INFINITY
        best_move: MoveKey | None = None
        a = alpha
        self.path.add(h)
        try:
            for i, mv in enumerate(moves):
                a_m, a_k, b_m, b_k, nh = child(um, uk, tm, tk, c, h, mv)
                np1 = 0 if mv[2] or (um >> mv[0]) & 1 else np + 1
                if i == 0:
                    score = -node(a_m, a_k, b_m, b_k, c1, nh, new_depth, -beta, -a, ply1, np1)
                else:
                    score = -node(a_m, a_k, b_m, b_k, c1, nh, new_depth, -a - 1, -a, ply1,
                                  np1)
                    if a < score < beta:
                        score = -node(a_m, a_k, b_m, b_k, c1, nh, new_depth, -beta, -a,
                                      ply1, np1)
                if score > best:
                    best = score
                    best_move = mv
                    if score > a:
                        a = score
                        if a >= beta:
                            if quiet:
                                killers = self.killers[ply]
                                if killers[0] != mv:
                                    killers[1] = killers[0]
                                    killers[0] = mv
                                self.history[(mv[0] << 7) | mv[1]] += depth * depth
                            break
        finally:
            self.path.discard(h)
        flag = _LOWER if best >= beta else (_EXACT if best > alpha else _UPPER)
        stored = best
        if stored > MATE_BOUND:
            stored += ply
        elif stored < -MATE_BOUND:
            stored -= ply
        if use_tt:
            if len(self.tt) >= TT_ENTRIES:
                self.tt.clear()
            self.tt[h] = (depth, flag, stored, best_move)
        return best


# Kept whole for speed (the root's iterative deepening around `_Searcher.node`, its
# locals shared by the move loop: a function call costs in CPython); benchmarks/strength.py
# measures it.
def search(
    position: Position,
    variant: Variant,
    *,
    depth: int | None = None,
    time_budget: float | None = None,
    stop: StopSignal | None = None,
    seed: int = 0,
    level: int = 5,
    history: Sequence[Position] = (),
    no_progress_plies: int = 0,
    max_nodes: int | None = None,
    window: tuple[int, int] | None = None,
) -> SearchResult:
    """Choose a move for the side to move of `position` in `variant`.

    depth: most plies to search (iterations 1..depth; captures are always searched to the
    end beyond it); default: the level's `max_depth`. time_budget: seconds of thinking;
    default: the level's `time_budget` when `depth` is not given, no limit when it is. The
    search stops at the budget or when `stop.is_set()` (read every 256 nodes) and returns
    the best move found so far: a legal move whenever one exists, even when stopped before
    the first iteration (then the best move by a one-ply static look, depth 0). seed: the
    random choice of levels 1..4. level: 1..5 (`LEVELS`). history: the game's earlier
    positions (oldest first, not including `position`), so that the search scores a return
    to one of them as a draw by repetition. no_progress_plies: the game's count of plies
    with no capture and no man move before `position` (`Game.no_progress_plies`), so that
    a line reaching the variant's limit scores as a draw. max_nodes: stop after about this
    many positions (read every 256 nodes), a budget that gives the same answer on any
    machine (the analysis's; see `engine.analysis`). window: (low, high), low < high, to
    ask only where the position's value lies against that window (a bounded, "null
    window" search when high = low + 1, far cheaper than an exact score): every iteration's
    root is searched within it, and the score is then fail-soft, as alpha-beta's: a score
    at most `low` means the value is at most that score, a score at least `high` that it
    is at least that score, a score in between is the value. Without a window (the
    default) the search is exactly the search without this argument.

    Raises ValueError for a level outside 1..5, a depth below 1, a negative budget or node
    count, a negative no-progress count, or a window that is empty or given below level 5
    (the lower levels' random choice needs exact scores).
    Deterministic for the same arguments when no time budget or stop cuts the search.
    """
    lvl = get_level(level)
    if depth is not None and depth < 1:
        raise ValueError(f"search depth must be 1 or more, not {depth}")
    if time_budget is not None and time_budget < 0:
        raise ValueError(f"time budget must be 0 seconds or more, not {time_budget}")
    if max_nodes is not None and max_nodes < 0:
        raise ValueError(f"node budget must be 0 or more, not {max_nodes}")
    if no_progress_plies < 0:
        raise ValueError(f"no-progress count must be 0 or more, not {no_progress_plies}")
    if window is not None and (window[0] >= window[1] or lvl.margin):
        raise ValueError(f"a search window needs low < high and level 5, not {window!r} "
                         f"at level {lvl.number}")
    low, high = (-INFINITY, INFINITY) if window is None else window
    if depth is None:
        max_depth = lvl.max_depth
        if time_budget is None:
            time_budget = lvl.time_budget
    else:
        max_depth = min(depth, MAX_DEPTH)
    started = time.monotonic()
    deadline = None if time_budget is None else started + time_budget
    root_moves = legal_moves(position, variant)
    searcher = _Searcher(variant, stop, deadline, history, max_nodes)
    if not root_moves:
        return SearchResult(None, -MATE, 0, 0, (), time.monotonic() - started, False, 0)
    um, uk, tm, tk, c = _side_relative(position)
    root_hash = position_key(position)
    if len(root_moves) == 1:
        move = root_moves[0]
        return SearchResult(
            move, searcher.evaluate(um, uk, tm, tk, c), 0, 0, (move,),
            time.monotonic() - started, False, 1,
        )
    keys = [_key(m) for m in root_moves]
    children = [searcher.child(um, uk, tm, tk, c, root_hash, k) for k in keys]
    child_np = [0 if k[2] or (um >> k[0]) & 1 else no_progress_plies + 1 for k in keys]
    c1 = c ^ 1
    margin = lvl.margin

    # Depth 0: a static one-ply look, the answer when stopped before depth 1 completes.
    static = [-searcher.evaluate(a, b, e, f, c1) for a, b, e, f, _ in children]
    order = sorted(range(len(root_moves)), key=lambda i: -static[i])
    best_i, best_score, done_depth = order[0], static[order[0]], 0
    chosen = [order[0]]
    last_scores: dict[int, int] = {}
    stopped = False
    rng = random.Random(seed)
    searcher.path.add(root_hash)
    for d in range(1, max_depth + 1):
        scores: dict[int, int] = {}
        exact: set[int] = set()
        it_best = -INFINITY
        it_best_i = order[0]
        try:
            searcher.poll()
            for n, i in enumerate(order):
                a_m, a_k, b_m, b_k, nh = children[i]
                if n == 0:
                    s = -searcher.node(a_m, a_k, b_m, b_k, c1, nh, d - 1, -high,
                                       -low, 1, child_np[i])
                    exact.add(i)
                else:
                    alpha = max(it_best - margin - 1 if margin else it_best, low)
                    if alpha >= high:
                        break  # the window's high end is reached: the value is above it
                    s = -searcher.node(a_m, a_k, b_m, b_k, c1, nh, d - 1, -alpha - 1,
                                       -alpha, 1, child_np[i])
                    if alpha < s < high:
                        s = -searcher.node(a_m, a_k, b_m, b_k, c1, nh, d - 1, -high,
                                           -alpha, 1, child_np[i])
                        exact.add(i)
                scores[i] = s
                if s > it_best:
                    it_best, it_best_i = s, i
        except _Stopped:
            stopped = True
            if not margin and scores and it_best_i != best_i and it_best > scores.get(
                best_i, -INFINITY
            ):
                best_i, best_score = it_best_i, it_best
                chosen = [best_i]
            break
        best_i, best_score, done_depth = it_best_i, it_best, d
        last_scores = scores
        chosen = [i for i in order if i in exact and scores[i] >= it_best - margin]
        if not margin:
            chosen = [best_i]
        # Next iteration: the best first, then by score (failed-low moves keep their bound).
        order.sort(key=lambda i: -scores.get(i, -INFINITY))
        if abs(best_score) > MATE_BOUND:
            break
        if deadline is not None and time.monotonic() - started > 0.45 * (deadline - started):
            stopped = d < max_depth
            break
    pick = rng.choice(chosen) if len(chosen) > 1 else best_i
    move = root_moves[pick]
    score = best_score if pick == best_i else last_scores.get(pick, best_score)
    pv = _principal_variation(position, variant, move, searcher, done_depth)
    return SearchResult(
        move, score, done_depth, searcher.nodes, pv, time.monotonic() - started, stopped,
        len(chosen),
    )


def _principal_variation(
    position: Position, variant: Variant, move: Move, searcher: _Searcher, depth: int
) -> tuple[Move, ...]:
    """`move`, then the transposition table's best moves from the positions that follow,
    as long as they are legal, at most `depth` moves in all."""
    pv = [move]
    pos = play_unchecked(position, move, variant)
    seen = {position_key(position)}
    while len(pv) < depth:
        h = position_key(pos)
        if h in seen:
            break
        seen.add(h)
        entry = searcher.tt.get(h)
        if entry is None or entry[3] is None:
            break
        found = next((m for m in legal_moves(pos, variant) if _key(m) == entry[3]), None)
        if found is None:
            break
        pv.append(found)
        pos = play_unchecked(pos, found, variant)
    return tuple(pv)
