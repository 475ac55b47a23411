"""Finding and verifying puzzles: a position where the side to move (the solver) has a
winning shot, whose first move is the only one that wins by a clear margin, with the whole
forced line verified by the engine's search.

How a position becomes a puzzle (`verify_puzzle`), with `MiningSettings`' thresholds
(units: a man = 100, the evaluation's scale, `engine.evaluation`):

1. The solver has at least two legal moves (a forced move is no puzzle).
2. Every legal first move is scored by a full-strength search of `verify_depth` plies
   (each move, then the search of the reply at `verify_depth - 1`). The best must score at
   least `win` (the solver ends clearly ahead, or wins the game), every other move at most
   `best - margin` and below `win`: exactly one move wins, by a clear margin.
3. The line: the solver's move, then the defence the full search chooses, then the
   solver's next move, verified again the same way (the best move must still win and be
   the only one that does; a move that is the solver's only legal move needs no search),
   until the solver's gain is settled: the defender has no legal move (the game is won),
   or the solver is at least `gain` ahead of the material they had at the start and the
   defender has no capture to take it back. A line longer than `max_line` plies is
   refused; every search that verified it is deeper than the line (`verify_depth` is
   raised to the line's length plus two when needed, and the first move re-checked).

How the scores are asked: a puzzle step needs only threshold answers for the moves that
are not the best ("is this move above `min(best - margin, win - 1)`?"), so by default each
step (and the screen below) asks them as threshold questions (`_lone_best`): the winning
move is searched with an open window above `win - 1` (exact when it wins), every other by
a null-window search (`engine.search.search`'s `window`), far cheaper than its exact score;
the first move's runner-up is scored exactly once the line is verified. The answer is the
same as scoring every move exactly (`MiningSettings.exact_scores`, kept as the reference:
the test `tests/puzzles/test_mining.py` compares both on every flagged position of
self-play games).

Mining a game (`mine_game`): a fast search (`scan_depth` plies) at every position flags
those where the side to move gains `scan_gain` over the present material; then every first
move is scored at `screen_depth` plies (`screen`), and only positions where one move leads
the others by half the margin and wins are verified (the screen only saves time: it never
accepts a puzzle). Positions inside a puzzle already found in the same game are skipped.

A node budget (`node_budget`, optional) bounds the work spent on one candidate position
(its screen and its verification together): every search is given what is left of it,
and a search that the budget stops, or a budget spent, skips the candidate
(`Rejection.OVER_BUDGET`). The budget never accepts anything: a search it did not stop
is the same search as without it (`engine.search.search`'s `max_nodes` only stops), so
every puzzle accepted under a budget is one the unbudgeted verification accepts; a
budget only loses the candidates that cost more (in the orthogonal variants, positions
with flying kings whose verification can take a minute).
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, replace
from typing import Any

from engine import Color, Move, Position, Variant, format_move, legal_moves
from engine.evaluation import weights_for
from engine.movegen import play_unchecked
from engine.search import INFINITY, MATE, MATE_BOUND, SearchResult, search


@dataclass(frozen=True, slots=True)
class MiningSettings:
    """The thresholds of `verify_puzzle` and `mine_game` (see the module's docstring).
    `exact_scores`: score every move exactly (the reference way, slower) instead of asking
    threshold questions; the same puzzles either way."""

    scan_depth: int = 2
    scan_gain: int = 80
    screen_depth: int = 4
    verify_depth: int = 6
    win: int = 100
    margin: int = 100
    gain: int = 100
    max_line: int = 9
    exact_scores: bool = False

    def to_json(self) -> dict[str, Any]:
        """The settings as a bank file records them."""
        return asdict(self)


class MiningStopped(Exception):
    """Raised inside a verification when its `should_stop` answered True."""


class OverBudget(Exception):
    """Raised inside a screen or verification when the candidate's node budget ran out."""


class NodeBudget:
    """The nodes one candidate may still cost (`None`: no limit). `search` runs
    `engine.search.search` with what is left as its `max_nodes` and raises `OverBudget`
    when the budget stopped it: a result is only ever one of a complete search."""

    def __init__(self, nodes: int | None = None) -> None:
        self.left = nodes

    def search(self, position: Position, variant: Variant, depth: int,
               history: Sequence[Position],
               window: tuple[int, int] | None = None) -> SearchResult:
        if self.left is None:
            return search(position, variant, depth=depth, history=history, window=window)
        if self.left <= 0:
            raise OverBudget
        result = search(position, variant, depth=depth, history=history, max_nodes=self.left,
                        window=window)
        self.left -= result.nodes
        if result.stopped:
            raise OverBudget
        return result


UNLIMITED = NodeBudget()


class Rejection(enum.Enum):
    """Why a position is not a puzzle."""

    FORCED = "the side to move has a single legal move"
    NO_WIN = "no move wins by the margin"
    NOT_UNIQUE = "more than one move wins"
    NO_GAIN = "the line wins no material"
    TOO_LONG = "the line is longer than the most plies allowed"
    OVER_BUDGET = "skipped: verifying it would cost more than the node budget"


@dataclass(frozen=True, slots=True)
class VerifiedLine:
    """A verified puzzle line: `moves` (solver first, then alternating), the first move's
    `score`, the best other first move's `runner_up`, the `depth` of the verifying searches
    and the number of legal first moves `choices`."""

    moves: tuple[Move, ...]
    score: int
    runner_up: int
    depth: int
    choices: int


def material(position: Position, variant: Variant, color: Color) -> int:
    """`color`'s material minus the other side's (a man = 100, a king the evaluation's
    king value for `variant`)."""
    w = weights_for(variant)
    other = color.opponent
    mine = position.men(color).bit_count() * w.man + position.kings(color).bit_count() * w.king
    theirs = position.men(other).bit_count() * w.man + position.kings(other).bit_count() * w.king
    return mine - theirs


def value(position: Position, variant: Variant, depth: int, history: Sequence[Position],
          budget: NodeBudget = UNLIMITED, window: tuple[int, int] | None = None) -> int:
    """The search's value of `position` for its side to move at `depth` plies. Unlike a bare
    `engine.search.search`, a position with a single legal move is searched through (the
    move is played and the next position valued), not scored statically. `window` (low,
    high): a bounded search (`engine.search.search`'s `window`), the answer fail-soft: at
    most `low` means the value is at most that, at least `high` at least that. Raises
    `OverBudget` when `budget` runs out."""
    chain = list(history)
    sign = 1
    pos = position
    for _ in range(64):
        moves = legal_moves(pos, variant)
        if not moves:
            return sign * (-MATE)
        if len(moves) > 1:
            if variant.draw_law.one_piece_each and _one_each(pos):
                return 0
            w = None if window is None else (
                window if sign == 1 else (-window[1], -window[0]))
            return sign * budget.search(pos, variant, max(1, depth), chain, w).score
        chain.append(pos)
        pos = play_unchecked(pos, moves[0])
        sign = -sign
    return 0


def _above(position: Position, move: Move, variant: Variant, depth: int,
           chain: Sequence[Position], threshold: int, budget: NodeBudget) -> bool:
    """Whether `move`'s value for the side to move of `position` (the reply searched at
    `depth - 1`, as `score_moves` scores it) is above `threshold`: one null-window search
    of the reply (is the reply's value at most `-threshold - 1`?)."""
    reply = -threshold - 1
    return value(play_unchecked(position, move), variant, depth - 1, chain, budget,
                 (reply, reply + 1)) <= reply


def _one_each(pos: Position) -> bool:
    return pos.count(Color.WHITE) == 1 and pos.count(Color.BLACK) == 1


def score_moves(
    position: Position, variant: Variant, depth: int, history: Sequence[Position],
    budget: NodeBudget = UNLIMITED,
) -> list[tuple[int, Move]]:
    """Every legal move of `position` with its value for the side to move (each move, then
    the reply searched at `depth - 1`), best first (ties in the move generator's order)."""
    chain = [*history, position]
    scored = [
        (-value(play_unchecked(position, m), variant, depth - 1, chain, budget), i, m)
        for i, m in enumerate(legal_moves(position, variant))
    ]
    scored.sort(key=lambda t: (-t[0], t[1]))
    return [(s, m) for s, _, m in scored]


def _rank(
    position: Position, variant: Variant, depth: int, history: Sequence[Position], win: int,
    should_stop: Callable[[], bool], budget: NodeBudget = UNLIMITED,
) -> list[tuple[int, Move]] | None:
    """`score_moves` at `depth`, best first, or None as soon as two moves score `win` or
    more (no puzzle step then, whatever the other scores: see `_build_line`). The moves are
    searched in the order of a 2-ply look, so a second winning move is usually met early;
    the answer is the same as scoring every move."""
    chain = [*history, position]
    rough = score_moves(position, variant, min(2, depth), history, budget)
    scored: list[tuple[int, int, Move]] = []
    winners = 0
    for i, (_, m) in enumerate(rough):
        if should_stop():
            raise MiningStopped
        value_ = -value(play_unchecked(position, m), variant, depth - 1, chain, budget)
        scored.append((value_, i, m))
        if value_ >= win:
            winners += 1
            if winners >= 2:
                return None
    scored.sort(key=lambda t: (-t[0], t[1]))
    return [(v, m) for v, _, m in scored]


def _settled(pos: Position, variant: Variant, solver: Color, start: int, gain: int) -> bool:
    """After a solver move: the defender has no legal move, or the solver is `gain` ahead
    of the starting material and the defender has no capture."""
    replies = legal_moves(pos, variant)
    if not replies:
        return True
    if any(m.is_capture for m in replies):
        return False
    return material(pos, variant, solver) - start >= gain


def _exact_step(
    position: Position, variant: Variant, settings: MiningSettings, depth: int,
    history: Sequence[Position], should_stop: Callable[[], bool], budget: NodeBudget,
) -> tuple[Move, int, int] | Rejection:
    """One puzzle step scored the reference way: every move's exact value (`_rank`); the
    winning move, its value and the best other move's value, or why there is none."""
    ranked = _rank(position, variant, depth, history, settings.win, should_stop, budget)
    if ranked is None:
        return Rejection.NOT_UNIQUE
    (s1, m), (s2, _) = ranked[0], ranked[1]
    if s1 < settings.win:
        return Rejection.NO_WIN
    if s1 - s2 < settings.margin:
        return Rejection.NOT_UNIQUE
    return m, s1, s2


def _lone_best(
    position: Position, variant: Variant, depth: int, history: Sequence[Position],
    win: int, cap: Callable[[int], int], should_stop: Callable[[], bool], budget: NodeBudget,
) -> tuple[Move, int] | Rejection:
    """Whether one move of `position` scores at least `win` with every other at most
    `cap(its score)` (each move scored as `score_moves` scores it at `depth`), asked as
    threshold questions rather than by scoring every move: the same answer, far cheaper.
    `cap` must not decrease as its argument grows.

    The moves go in the order of a 2-ply look. Until a winning move is met, each is
    searched with the window (win - 1, +inf): exact when it wins, a cheap bound when not.
    After it, each other move is asked by a null-window search whether it is above
    `cap(best so far)`; one that is ends it when the best so far must stay the best
    (`cap` of any score is below it), else it is scored exactly (the new best if above the
    old, which then counts as a runner-up; else a runner-up). At the end every runner-up
    scored must be at most `cap(best)`, the others were asked against a lower cap; and
    when `cap(best)` is below `win - 1` the moves before the first winner (known only to
    be below `win`) are asked against it too, unless the bound their search gave (an
    alpha-beta search fails soft) is already at most `cap(best)`. Returns the best move and
    its score, or `Rejection.NO_WIN` / `NOT_UNIQUE`."""
    after = [*history, position]
    order = [m for _, m in score_moves(position, variant, min(2, depth), history, budget)]
    best: Move | None = None
    first_winner = len(order)
    s1 = 0
    second = -INFINITY  # the best score of the other moves scored exactly
    bounds: list[int] = []  # what the moves before the first winner score at most
    for i, m in enumerate(order):
        if should_stop():
            raise MiningStopped
        child = play_unchecked(position, m)
        if best is None:
            u = -value(child, variant, depth - 1, after, budget, (-INFINITY, 1 - win))
            if u >= win:
                best, s1, first_winner = m, u, i
            else:
                bounds.append(u)  # fail-soft: the move scores at most u
        elif _above(position, m, variant, depth, after, cap(s1), budget):
            if cap(INFINITY) < s1:
                return Rejection.NOT_UNIQUE  # the best so far stays the best: this breaks it
            u = -value(child, variant, depth - 1, after, budget, (-INFINITY, -cap(s1)))
            if u > s1:
                best, s1, u = m, u, s1
            second = max(second, u)
            if second > cap(INFINITY):
                return Rejection.NOT_UNIQUE
    if best is None:
        return Rejection.NO_WIN
    if second > cap(s1):
        return Rejection.NOT_UNIQUE
    if cap(s1) < win - 1:
        for m, bound in zip(order[:first_winner], bounds, strict=True):
            if should_stop():
                raise MiningStopped
            if bound > cap(s1) and _above(position, m, variant, depth, after, cap(s1),
                                          budget):
                return Rejection.NOT_UNIQUE
    return best, s1


def _bounded_step(
    position: Position, variant: Variant, settings: MiningSettings, depth: int,
    history: Sequence[Position], should_stop: Callable[[], bool], budget: NodeBudget,
) -> tuple[Move, int] | Rejection:
    """One puzzle step decided by threshold questions (`_lone_best`), the same decision as
    `_exact_step`: one move scoring at least `win`, every other at most
    `min(its score - margin, win - 1)`. Returns the winning move and its value, or why
    there is none."""
    win, margin = settings.win, settings.margin
    return _lone_best(position, variant, depth, history, win,
                      lambda s: min(s - margin, win - 1), should_stop, budget)


def screen(
    position: Position, variant: Variant, settings: MiningSettings,
    history: Sequence[Position], budget: NodeBudget = UNLIMITED,
) -> bool:
    """Whether a flagged position goes on to the verification (`mine_game`): at
    `screen_depth` plies the best move scores at least `win` and every other less than
    the best minus half the margin. Scored exactly (`score_moves`) with
    `settings.exact_scores`, else by threshold questions (`_lone_best`), the same answer.
    Raises `OverBudget` when `budget` runs out."""
    win, half = settings.win, settings.margin // 2
    if settings.exact_scores:
        scored = score_moves(position, variant, settings.screen_depth, history, budget)
        return scored[0][0] >= win and scored[1][0] < scored[0][0] - half
    return not isinstance(_lone_best(position, variant, settings.screen_depth, history, win,
                                     lambda s: s - half - 1, lambda: False, budget),
                          Rejection)


def _runner_up(
    position: Position, variant: Variant, depth: int, history: Sequence[Position],
    best: Move, budget: NodeBudget,
) -> int:
    """The exact value of the best move other than `best` (as `score_moves` scores them),
    found as alpha-beta finds a maximum: in the order of a 2-ply look, the first other move
    scored, each next one asked whether it is above the best so far and scored only when it
    is."""
    after = [*history, position]
    rough = score_moves(position, variant, min(2, depth), history, budget)
    others = [m for _, m in rough if m != best]
    top = -value(play_unchecked(position, others[0]), variant, depth - 1, after, budget)
    for m in others[1:]:
        if _above(position, m, variant, depth, after, top, budget):
            top = max(top, -value(play_unchecked(position, m), variant, depth - 1, after,
                                  budget))
    return top


def _build_line(
    position: Position, variant: Variant, settings: MiningSettings, depth: int,
    history: Sequence[Position], should_stop: Callable[[], bool] = lambda: False,
    budget: NodeBudget = UNLIMITED,
) -> VerifiedLine | Rejection:
    solver = position.turn
    start = material(position, variant, solver)
    chain = list(history)
    pos = position
    line: list[Move] = []
    score = runner_up = 0
    choices = 0
    while True:
        moves = legal_moves(pos, variant)
        if line and len(moves) == 1:
            m = moves[0]
        elif not line and len(moves) < 2:
            return Rejection.FORCED
        else:
            if settings.exact_scores:
                exact = _exact_step(pos, variant, settings, depth, chain, should_stop, budget)
                if isinstance(exact, Rejection):
                    return exact
                m, s1, s2 = exact
            else:
                bounded = _bounded_step(pos, variant, settings, depth, chain, should_stop,
                                        budget)
                if isinstance(bounded, Rejection):
                    return bounded
                m, s1 = bounded
                s2 = 0  # the bounded steps leave the runner-up to `verify_puzzle`
            if not line:
                score, runner_up, choices = s1, s2, len(moves)
        chain.append(pos)
        pos = play_unchecked(pos, m)
        line.append(m)
        if _settled(pos, variant, solver, start, settings.gain):
            break
        if len(line) >= settings.max_line:
            return Rejection.TOO_LONG
        replies = legal_moves(pos, variant)
        reply = replies[0] if len(replies) == 1 else budget.search(
            pos, variant, depth, chain).move
        assert reply is not None
        chain.append(pos)
        pos = play_unchecked(pos, reply)
        line.append(reply)
    if legal_moves(pos, variant) and material(pos, variant, solver) - start < settings.gain:
        return Rejection.NO_GAIN
    return VerifiedLine(tuple(line), score, runner_up, depth, choices)


def verify_puzzle(
    position: Position, variant: Variant, settings: MiningSettings | None = None,
    history: Sequence[Position] = (), *, should_stop: Callable[[], bool] = lambda: False,
    budget: NodeBudget | int | None = None,
) -> VerifiedLine | Rejection:
    """Whether `position` is a puzzle for its side to move (see the module's docstring):
    the verified line, or why not. `history`: the game's earlier positions (oldest first),
    so that a return to one of them counts as a draw. Raises `MiningStopped` when
    `should_stop` (asked before each move's search) answers True. `budget`: the nodes the
    verification may cost (a number or a `NodeBudget` shared with a screen); beyond it the
    position is skipped (`Rejection.OVER_BUDGET`), never accepted."""
    settings = settings or MiningSettings()
    if not isinstance(budget, NodeBudget):
        budget = NodeBudget(budget)
    try:
        result = _build_line(position, variant, settings, settings.verify_depth, history,
                             should_stop, budget)
        if isinstance(result, VerifiedLine) and len(result.moves) + 2 > result.depth:
            result = _build_line(position, variant, settings, len(result.moves) + 2,
                                 history, should_stop, budget)
        if isinstance(result, VerifiedLine) and not settings.exact_scores:
            result = replace(result, runner_up=_runner_up(
                position, variant, result.depth, history, result.moves[0], budget))
    except OverBudget:
        return Rejection.OVER_BUDGET
    return result


def initial_rating(line: VerifiedLine) -> int:
    """A starting estimate of a puzzle's rating (Glicko-2 scale, 1500 = average): 1100, plus
    250 per solver move after the first, plus 15 per legal first move beyond two (more
    choices hide the shot better), within 800..2300. Players' results then move it
    (`bot.services.puzzles`)."""
    solver_moves = (len(line.moves) + 1) // 2
    rating = 1100 + 250 * (solver_moves - 1) + 15 * max(0, line.choices - 2)
    return max(800, min(2300, rating))


def move_texts(position: Position, variant: Variant, moves: Sequence[Move]) -> tuple[str, ...]:
    """`moves` played from `position` in full move text."""
    out: list[str] = []
    pos = position
    for m in moves:
        out.append(format_move(m, pos, variant, full=True))
        pos = play_unchecked(pos, m)
    return tuple(out)


@dataclass(frozen=True, slots=True)
class Found:
    """A puzzle found in a game: the position, the plies before it, and its line."""

    position: Position
    ply: int
    line: VerifiedLine


def mine_game(
    positions: Sequence[Position], variant: Variant, settings: MiningSettings | None = None,
    *, should_stop: Callable[[], bool] = lambda: False, node_budget: int | None = None,
    skipped: list[int] | None = None,
) -> list[Found]:
    """The puzzles in a game given as its positions (start first). `should_stop` is asked
    before each position and each verifying search; when it answers True the game's mining
    ends early (the caller does not count the game as mined). `node_budget`: the most
    nodes one candidate's screen and verification may cost; a candidate beyond it is
    skipped, never accepted (its ply is appended to `skipped` when given)."""
    settings = settings or MiningSettings()
    found: list[Found] = []
    skip_until = -1
    for ply, pos in enumerate(positions):
        if should_stop():
            break
        if ply <= skip_until:
            continue
        moves = legal_moves(pos, variant)
        if len(moves) < 2:
            continue
        history = positions[:ply]
        quick = search(pos, variant, depth=settings.scan_depth, history=history).score
        if quick < MATE_BOUND and quick - material(pos, variant, pos.turn) < settings.scan_gain:
            continue
        budget = NodeBudget(node_budget)
        try:
            screened: bool | None = screen(pos, variant, settings, history, budget)
        except OverBudget:
            screened = None
        if screened is False:
            continue
        try:
            result = (Rejection.OVER_BUDGET if screened is None else verify_puzzle(
                pos, variant, settings, history, should_stop=should_stop, budget=budget))
        except MiningStopped:
            break
        if result is Rejection.OVER_BUDGET and skipped is not None:
            skipped.append(ply)
        if isinstance(result, VerifiedLine):
            found.append(Found(pos, ply, result))
            skip_until = ply + len(result.moves)
    return found
