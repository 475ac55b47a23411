"""Finding and verifying puzzles: a position where the side to move (the solver) wins at
least a man by force, whose first move is the only one that does by a clear margin, with
the whole forced line verified. Every judgement counts material only (`puzzles.material`:
a man = 100, a king at the variant's king value), so a position the solver already
stood better in positionally is no puzzle unless a move wins material.

How a position becomes a puzzle (`verify_puzzle`), with `MiningSettings`' thresholds:

1. The solver has at least two legal moves (a forced move is no puzzle).
2. Every legal first move is scored by the material search at the verifying depth (the
   move, then every reply, quiet ones included, searched to the depth, then on through
   compulsory captures): its gain is the material after minus the material before. The
   best must gain at least `gain` (a man), and every other first move must gain at most
   the best's gain minus `margin` (a move within a man of the best refuses the puzzle).
3. The line: the solver's move, then the defence with the best material value for the
   defender (ties: the move generator's first), then the solver's next move, scored again
   the same way (the best move must still gain a man and be the only one within a man of
   its gain; a move that is the solver's only legal move needs no scoring), until the
   solver's gain is settled: the defender has no legal move (the game is won), or the
   line's captures won at least `gain` (the pieces the solver took minus the pieces it
   lost, each at its value) and the defender has no capture to take it back.
4. A crowning is never counted as a man: it is reported as its own theme
   (`Theme.CROWNING`), and the first move's gain must be a man beyond the value of the
   line's crownings (a king's value minus a man's each).
5. Depth: `verify_depth` plies, raised to the line's length plus two when the line is
   longer (the line is then built again at the new depth, until it fits), so the defender's
   quiet replies are searched two plies beyond the line's end. A line longer than
   `max_line` plies is refused.

Mining a game (`mine_game`): a material search of `scan_depth` plies at every position
flags those where the side to move can gain `gain`; only those are verified (the scan
only saves time: it never accepts a puzzle). Positions inside a puzzle already found in
the same game are skipped.

A node budget (`node_budget`, optional) bounds the work spent on one candidate: beyond it
the candidate is skipped (`Rejection.OVER_BUDGET`), never accepted, so every puzzle
accepted under a budget is one the unbudgeted verification accepts.
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
from typing import Any

from engine import Move, Position, Variant, format_move
from engine.evaluation import weights_for
from engine.movegen import play_unchecked
from puzzles.material import (
    WON_BOUND,
    MaterialSearch,
    OverBudget,
    captured_value,
    crowns,
    material,
)


@dataclass(frozen=True, slots=True)
class MiningSettings:
    """The thresholds of `verify_puzzle` and `mine_game` (see the module's docstring; units:
    a man = 100). `gain`: the material the puzzle must win; `margin`: how far below the
    best every other move must stay; `verify_depth`: the least depth of the verifying
    searches; `scan_depth`: the depth of the flagging search; `max_line`: the longest line
    in plies."""

    scan_depth: int = 3
    verify_depth: int = 6
    gain: int = 100
    margin: int = 100
    max_line: int = 9

    def to_json(self) -> dict[str, Any]:
        """The settings as a bank file records them."""
        return {"criterion": "material", **asdict(self)}


class MiningStopped(Exception):
    """Raised inside a verification when its `should_stop` answered True."""


class Rejection(enum.Enum):
    """Why a position is not a puzzle."""

    FORCED = "the side to move has a single legal move"
    NO_WIN = "no move wins a man by material"
    NOT_UNIQUE = "another move comes within a man of the best"
    NO_GAIN = "the line wins no man by capture (a crowning is not a man)"
    TOO_LONG = "the line is longer than the most plies allowed"
    OVER_BUDGET = "skipped: verifying it would cost more than the node budget"


class Theme(enum.Enum):
    """What a puzzle's line achieves: it wins material (every puzzle), it crowns a man
    along the way, or it leaves the defender without a legal move (the game is won)."""

    MATERIAL = "material"
    CROWNING = "crowning"
    WIN = "win"


@dataclass(frozen=True, slots=True)
class VerifiedLine:
    """A verified puzzle line: `moves` (solver first, then alternating), the first move's
    material gain `score` and the best other first move's `runner_up` (a man = 100; beyond
    `puzzles.material.WON_BOUND` a won game), the `depth` of the verifying searches, the
    number of legal first moves `choices` and the line's `themes`."""

    moves: tuple[Move, ...]
    score: int
    runner_up: int
    depth: int
    choices: int
    themes: tuple[Theme, ...] = (Theme.MATERIAL,)


def _step(search: MaterialSearch, position: Position, depth: int, start: int,
          settings: MiningSettings, should_stop: Callable[[], bool],
          ) -> tuple[Move, int, int] | Rejection:
    """The solver's move at `position`: the best move by material gain over `start` at
    `depth`, its gain and the best other's, or why there is none (no move gains `gain`;
    another is within `margin` of the best)."""
    if should_stop():
        raise MiningStopped
    (best, move), second = search.top_two(position, depth)
    best, second = (v if abs(v) >= WON_BOUND else v - start for v in (best, second))
    if best < settings.gain:
        return Rejection.NO_WIN
    if second > best - settings.margin:
        return Rejection.NOT_UNIQUE
    return move, best, second


def _build_line(search: MaterialSearch, position: Position, settings: MiningSettings,
                depth: int, should_stop: Callable[[], bool]) -> VerifiedLine | Rejection:
    variant = search.variant
    solver = position.turn
    start = material(position, variant, solver)
    pos = position
    line: list[Move] = []
    score = runner_up = 0
    won = 0  # the line's captures: the solver's minus the defender's
    crowned = 0  # the value the solver's crownings added
    themes = [Theme.MATERIAL]
    king_bonus = weights_for(variant).king - weights_for(variant).man
    while True:
        moves = search.moves(pos)
        if line and len(moves) == 1:
            move = moves[0]
        elif not line and len(moves) < 2:
            return Rejection.FORCED
        else:
            step = _step(search, pos, depth, start, settings, should_stop)
            if isinstance(step, Rejection):
                return step
            move, best, second = step
            if not line:
                score, runner_up = best, second
        won += captured_value(pos, variant, move)
        if crowns(pos, move, variant):
            crowned += king_bonus
            if Theme.CROWNING not in themes:
                themes.append(Theme.CROWNING)
        pos = play_unchecked(pos, move, variant)
        line.append(move)
        replies = search.moves(pos)
        if not replies:
            themes.append(Theme.WIN)
            break
        if won >= settings.gain and not any(r.is_capture for r in replies):
            break
        if len(line) >= settings.max_line:
            return Rejection.TOO_LONG
        if should_stop():
            raise MiningStopped
        reply = search.best_move(pos, depth - 1)
        won -= captured_value(pos, variant, reply)
        pos = play_unchecked(pos, reply, variant)
        line.append(reply)
    if Theme.WIN not in themes and score < WON_BOUND and score < settings.gain + crowned:
        return Rejection.NO_GAIN
    return VerifiedLine(tuple(line), score, runner_up, depth, len(search.moves(position)),
                        tuple(themes))


def verify_puzzle(
    position: Position, variant: Variant, settings: MiningSettings | None = None, *,
    should_stop: Callable[[], bool] = lambda: False, budget: int | None = None,
) -> VerifiedLine | Rejection:
    """Whether `position` is a puzzle for its side to move (see the module's docstring):
    the verified line, or why not. Raises `MiningStopped` when `should_stop` (asked before
    each scoring) answers True. `budget`: the most positions the verification may visit;
    beyond it the position is skipped (`Rejection.OVER_BUDGET`), never accepted."""
    settings = settings or MiningSettings()
    search = MaterialSearch(variant, budget)
    depth = settings.verify_depth
    try:
        for _ in range(settings.max_line):
            result = _build_line(search, position, settings, depth, should_stop)
            if isinstance(result, Rejection) or len(result.moves) + 2 <= depth:
                return result
            depth = len(result.moves) + 2
    except OverBudget:
        return Rejection.OVER_BUDGET
    return Rejection.TOO_LONG


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
        pos = play_unchecked(pos, m, variant)
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
    positions one candidate's verification may visit; a candidate beyond it is skipped,
    never accepted (its ply is appended to `skipped` when given)."""
    settings = settings or MiningSettings()
    scan = MaterialSearch(variant)
    found: list[Found] = []
    skip_until = -1
    for ply, pos in enumerate(positions):
        if should_stop():
            break
        if ply <= skip_until or len(scan.moves(pos)) < 2:
            continue
        flagged = scan.value(pos, settings.scan_depth)
        if flagged < WON_BOUND and flagged - material(pos, variant, pos.turn) < settings.gain:
            continue
        try:
            result = verify_puzzle(pos, variant, settings, should_stop=should_stop,
                                   budget=node_budget)
        except MiningStopped:
            break
        if result is Rejection.OVER_BUDGET and skipped is not None:
            skipped.append(ply)
        if isinstance(result, VerifiedLine):
            found.append(Found(pos, ply, result))
            skip_until = ply + len(result.moves)
    return found
