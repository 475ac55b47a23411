"""Reviewing a finished game: the search's value of every position, each ply judged by
how much of the mover's winning chances it lost, and an accuracy per player. No I/O.

Two steps, so the searches can run where the caller likes (the bot runs them one by one
in the computer's worker processes):

1. `review_position(position, variant, history=..., no_progress_plies=..., nodes=...)`
   searches one position of the game with a fixed node budget and returns a
   `PositionReview` (its value for the side to move, the best move and its line). The
   search sees the game's earlier positions and its no-progress count, so a line that
   repeats or reaches the variant's no-progress limit scores as a draw. A position where
   an endgame count of the variant has run out (`engine.draw_rules`, counted along the
   game's positions) is drawn already; the search itself does not read those counts.
2. `analyse(variant, start, moves, reviews)` turns the reviews of the start position
   and of the position after every ply into a `GameAnalysis`.

How a ply is judged (the method lichess documents for chess, adapted to draughts; see
docs/PLAYING.md, "Analysis"):

- Winning chances of a value v (a man = 100) for the side it is counted for:
  ``2 / (1 + exp(-K * v)) - 1``, from -1 (lost) to 1 (won). Lichess uses
  K = 0.00368208 per centipawn; a man is a far larger share of the material in draughts
  (one of 12 or 16 men) than a pawn in chess (one of about 39 pawns' worth), so K is
  three times lichess's: `WINNING_CHANCES_K` = 0.011, which makes one man up worth
  about half the winning chances (0.5) and two men up 0.8.
- A ply loses ``chances(before) - chances(after)`` for the side that played it
  (before: the position's value; after: the value after the move played, both from the
  mover's side), at least 0. It is an inaccuracy from 0.1, a mistake from 0.2 and a
  blunder from 0.3: lichess's thresholds (lila, modules/analyse Advice.scala,
  ``winningChanceJudgements``). Letting the opponent win a man from an even position
  loses 0.5: a blunder, as every draughts player would call it.
- A ply with a single legal move is not judged (the mover had no choice), nor a ply where
  the move played is the search's own best move, nor a ply played from a position the
  rules already drew (a record that plays on past a draw rule: nothing was left to lose).
- Accuracy of a ply (lichess.org/page/accuracy): with win% = 50 + 50 * chances,
  ``103.1668 * exp(-0.04354 * (win%before - win%after)) - 3.1669``, kept within 0..100.
  A player's accuracy is the mean of their judged plies' accuracies.
"""

from __future__ import annotations

import enum
import json
import math
from collections.abc import Sequence
from dataclasses import dataclass

from engine.draw_rules import counts_along, endgame_limit
from engine.movegen import legal_moves, play_unchecked
from engine.moves import Move
from engine.notation import format_move, parse_move
from engine.pieces import Color
from engine.position import Position
from engine.search import MATE, MATE_BOUND, MAX_DEPTH, StopSignal, search
from engine.variants import Variant, get_variant

DEFAULT_NODES = 30_000
"""Positions searched per position of the game by default: a fixed budget, so the
analysis is the same on any machine (about a quarter of a second of CPU per position here; see
`benchmarks/analysis.py`)."""

WINNING_CHANCES_K = 0.011
"""Slope of the winning-chances curve per hundredth of a man (see the module docstring)."""

INACCURACY = 0.1
MISTAKE = 0.2
BLUNDER = 0.3
"""Winning chances lost (on the -1..1 scale) from which a ply is an inaccuracy, a mistake,
a blunder: lichess's thresholds."""

GRAPH_LIMIT = 1_000
"""Values beyond this many hundredths of a man (ten men) are drawn at the graph's edge."""


class Judgement(enum.Enum):
    """How bad a ply was, by winning chances lost."""

    INACCURACY = "inaccuracy"
    MISTAKE = "mistake"
    BLUNDER = "blunder"


@dataclass(frozen=True, slots=True)
class PositionReview:
    """The search's view of one position of the game.

    score: its value for the side to move (a man = 100; beyond +-(MATE - 1000) a forced
    win or loss). best: the best move in full notation, None when the side to move has no
    legal move or the rules already draw the position (nothing to choose). line: the
    expected line from it, full notation. forced: the side to move had a single legal
    move. nodes: positions searched.
    """

    score: int
    best: str | None
    line: tuple[str, ...]
    forced: bool
    nodes: int


def review_position(
    position: Position,
    variant: Variant,
    *,
    history: Sequence[Position] = (),
    no_progress_plies: int = 0,
    nodes: int = DEFAULT_NODES,
    stop: StopSignal | None = None,
) -> PositionReview:
    """Search `position` (the game's earlier positions in `history`, oldest first; its
    no-progress count in `no_progress_plies`) with about `nodes` positions and return its
    `PositionReview`. A position with one legal move is valued by searching the position
    after it. A position the rules already draw (no-progress limit reached, one piece
    each where that draws, a third occurrence, an endgame count run out along `history`
    and `position`: `engine.draw_rules`) scores 0, with no best move. stop: ends
    the search early (`engine.search.StopSignal`), with the best line found so far.

    Raises ValueError for a negative node budget or no-progress count.
    """
    law = variant.draw_law
    moves = legal_moves(position, variant)
    if not moves:
        return PositionReview(-MATE, None, (), False, 0)
    if (
        no_progress_plies >= law.no_progress_plies
        or (law.one_piece_each and position.count(Color.WHITE) == 1
            and position.count(Color.BLACK) == 1)
        or sum(1 for p in history if p == position) + 1 >= law.repetitions
        or _endgame_drawn(position, variant, history)
    ):
        # Drawn by the rules already (a record may play on): nothing to choose.
        return PositionReview(0, None, (), len(moves) == 1, 0)
    if len(moves) == 1:
        move = moves[0]
        after = play_unchecked(position, move, variant)
        progress = bool(move.captured) or bool(
            (1 << move.start) & (position.white_men | position.black_men)
        )
        child = review_position(
            after, variant, history=(*history, position),
            no_progress_plies=0 if progress else no_progress_plies + 1, nodes=nodes,
            stop=stop,
        )
        first = _full(move, position, variant)
        return PositionReview(_one_ply_earlier(child.score), first, (first, *child.line), True,
                              child.nodes)
    result = search(
        position, variant, depth=MAX_DEPTH, history=history,
        no_progress_plies=no_progress_plies, max_nodes=nodes, stop=stop,
    )
    assert result.move is not None
    line = []
    here = position
    for move in result.pv:
        line.append(_full(move, here, variant))
        here = play_unchecked(here, move, variant)
    return PositionReview(result.score, line[0], tuple(line), False, result.nodes)


def _one_ply_earlier(score: int) -> int:
    """The value for the side to move of a position whose single move leads to a position
    valued `score` (for the other side): negated, and a forced win or loss one ply further
    away (the search scores a win found at ply p as MATE - p)."""
    mine = -score
    if mine > MATE_BOUND:
        return mine - 1
    if mine < -MATE_BOUND:
        return mine + 1
    return mine


def _full(move: Move, position: Position, variant: Variant) -> str:
    return format_move(move, position, variant, full=True)


def winning_chances(score: int) -> float:
    """The winning chances (-1..1) of a value `score` (a man = 100) for its side."""
    x = max(-2_000, min(2_000, score))
    return 2.0 / (1.0 + math.exp(-WINNING_CHANCES_K * x)) - 1.0


def ply_accuracy(chances_before: float, chances_after: float) -> float:
    """Lichess's accuracy of a move (0..100) from the mover's winning chances before and
    after it (lichess.org/page/accuracy)."""
    drop = 50.0 * (chances_before - chances_after)
    return max(0.0, min(100.0, 103.1668 * math.exp(-0.04354 * drop) - 3.1669))


def judge(loss: float) -> Judgement | None:
    """The judgement of a ply that lost `loss` winning chances (None below 0.1)."""
    if loss >= BLUNDER:
        return Judgement.BLUNDER
    if loss >= MISTAKE:
        return Judgement.MISTAKE
    if loss >= INACCURACY:
        return Judgement.INACCURACY
    return None


@dataclass(frozen=True, slots=True)
class PlyAnalysis:
    """One ply of the game, reviewed.

    ply: 1 for the first move. color: who played it. move: the move as written in the
    game's notation (short form). before, after: the values of the positions before and
    after it, from White's side (a man = 100). forced: it was the only legal move (not
    judged). loss: winning chances the mover lost (0 when not judged). accuracy: 0..100,
    None when not judged. judgement: None for a good (or unjudged) ply. better: the
    search's best move in the game's notation, None when the move played was it. line: the
    line from the better move (game's notation), empty when there is none.
    """

    ply: int
    color: Color
    move: str
    before: int
    after: int
    forced: bool
    loss: float
    accuracy: float | None
    judgement: Judgement | None
    better: str | None
    line: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class PlayerSummary:
    """One player's figures: judged plies, the count of each judgement and the accuracy
    (mean of the judged plies' accuracies, None when no ply was judged)."""

    color: Color
    judged: int
    inaccuracies: int
    mistakes: int
    blunders: int
    accuracy: float | None


@dataclass(frozen=True, slots=True)
class GameAnalysis:
    """A reviewed game: `variant` (key), `evaluations` (the value of the start position and
    of the position after each ply, from White's side: one point per ply and the start),
    `plies` (one `PlyAnalysis` per ply), `white` and `black` (`PlayerSummary`)."""

    variant: str
    evaluations: tuple[int, ...]
    plies: tuple[PlyAnalysis, ...]
    white: PlayerSummary
    black: PlayerSummary

    def summary(self, color: Color) -> PlayerSummary:
        """The summary of `color`."""
        return self.white if color is Color.WHITE else self.black

    def judged(self) -> tuple[PlyAnalysis, ...]:
        """The inaccuracies, mistakes and blunders, in game order."""
        return tuple(p for p in self.plies if p.judgement is not None)

    def to_json(self) -> str:
        """The analysis as JSON text (read back with `GameAnalysis.from_json`)."""
        return json.dumps({
            "variant": self.variant,
            "evaluations": list(self.evaluations),
            "plies": [
                [p.ply, p.color.value, p.move, p.before, p.after, p.forced, p.loss,
                 p.accuracy, None if p.judgement is None else p.judgement.value,
                 p.better, list(p.line)]
                for p in self.plies
            ],
        }, separators=(",", ":"))

    @classmethod
    def from_json(cls, text: str) -> GameAnalysis:
        """Read `to_json`'s text. Raises ValueError (json.JSONDecodeError among them) or
        KeyError for text it did not write."""
        data = json.loads(text)
        plies = tuple(
            PlyAnalysis(
                int(ply), Color(color), str(move), int(before), int(after), bool(forced),
                float(loss), None if accuracy is None else float(accuracy),
                None if judgement is None else Judgement(judgement),
                None if better is None else str(better), tuple(str(m) for m in line),
            )
            for (ply, color, move, before, after, forced, loss, accuracy, judgement,
                 better, line) in data["plies"]
        )
        return _assemble(str(data["variant"]), tuple(int(e) for e in data["evaluations"]),
                         plies)


def _summarise(color: Color, plies: Sequence[PlyAnalysis]) -> PlayerSummary:
    mine = [p for p in plies if p.color is color and p.accuracy is not None]
    counts = {j: sum(1 for p in mine if p.judgement is j) for j in Judgement}
    accuracy = sum(p.accuracy or 0.0 for p in mine) / len(mine) if mine else None
    return PlayerSummary(color, len(mine), counts[Judgement.INACCURACY],
                         counts[Judgement.MISTAKE], counts[Judgement.BLUNDER], accuracy)


def _assemble(
    variant: str, evaluations: tuple[int, ...], plies: tuple[PlyAnalysis, ...]
) -> GameAnalysis:
    return GameAnalysis(variant, evaluations, plies, _summarise(Color.WHITE, plies),
                        _summarise(Color.BLACK, plies))


def analyse(
    variant: Variant,
    start: Position,
    moves: Sequence[Move],
    reviews: Sequence[PositionReview],
) -> GameAnalysis:
    """The analysis of the game from `start` with `moves`, given the `PositionReview` of
    the start and of the position after each move (len(moves) + 1 reviews).

    Raises ValueError when the number of reviews does not match, or a review's best move
    is not legal in its position.
    """
    if len(reviews) != len(moves) + 1:
        raise ValueError(
            f"an analysis needs {len(moves) + 1} position reviews, not {len(reviews)}"
        )
    positions = [start]
    for move in moves:
        positions.append(play_unchecked(positions[-1], move, variant))
    evaluations = tuple(
        r.score if p.turn is Color.WHITE else -r.score
        for p, r in zip(positions, reviews, strict=True)
    )
    plies = []
    for i, move in enumerate(moves):
        position = positions[i]
        mover = position.turn
        review = reviews[i]
        before = review.score
        after = -reviews[i + 1].score
        played = _full(move, position, variant)
        sign = 1 if mover is Color.WHITE else -1
        judged = not review.forced and review.best is not None and review.best != played
        if review.forced or review.best is None:
            loss, accuracy, judgement = 0.0, None, None
        else:
            c_before, c_after = winning_chances(before), winning_chances(after)
            loss = max(0.0, c_before - c_after) if judged else 0.0
            accuracy = ply_accuracy(c_before, c_before - loss)
            judgement = judge(loss) if judged else None
        better = line = None
        if judged and review.best is not None:
            line = _written(review.line, position, variant)
            better = line[0]
        plies.append(PlyAnalysis(
            i + 1, mover, format_move(move, position, variant), sign * before,
            sign * after, review.forced, loss, accuracy, judgement, better,
            tuple(line or ()),
        ))
    return _assemble(variant.key, evaluations, tuple(plies))


def _written(line: Sequence[str], position: Position, variant: Variant) -> list[str]:
    """`line` (full notation from `position`) in the game's short notation; stops at the
    first move that does not read (it never should)."""
    out = []
    for text in line:
        try:
            move = parse_move(text, position, variant)
        except ValueError:
            break
        out.append(format_move(move, position, variant))
        position = play_unchecked(position, move, variant)
    return out


def _endgame_drawn(position: Position, variant: Variant, history: Sequence[Position]) -> bool:
    """Whether an endgame count of `variant` has run out at `position`, counted along the
    game's positions (`history`, then `position`)."""
    if not variant.draw_law.endgame_rules:
        return False
    counts = counts_along((*history, position), variant)
    return endgame_limit(position, counts, variant) is not None


@dataclass(frozen=True, slots=True)
class ReviewTask:
    """What `review_position` needs for one position of a game: the position, the game's
    earlier positions (oldest first) and its no-progress count there."""

    position: Position
    history: tuple[Position, ...]
    no_progress_plies: int


def review_tasks(variant: Variant, start: Position, moves: Sequence[Move]) -> list[ReviewTask]:
    """The `ReviewTask` of the start position and of the position after each of `moves`
    in `variant` (len(moves) + 1 tasks), counting plies with no capture and no man move as
    `engine.Game` does. The moves are not checked: give a game's legal moves."""
    tasks = [ReviewTask(start, (), 0)]
    position, count = start, 0
    for move in moves:
        man = bool((1 << move.start) & (position.white_men | position.black_men))
        count = 0 if move.captured or man else count + 1
        history = (*tasks[-1].history, position)
        position = play_unchecked(position, move, variant)
        tasks.append(ReviewTask(position, history, count))
    return tasks


def analyse_here(
    variant: Variant, start: Position, moves: Sequence[Move], *, nodes: int = DEFAULT_NODES
) -> GameAnalysis:
    """The whole analysis in this process, one position after the other (for tests, the
    benchmark and tools; the bot spreads the positions over its worker processes)."""
    reviews = [
        review_position(t.position, variant, history=t.history,
                        no_progress_plies=t.no_progress_plies, nodes=nodes)
        for t in review_tasks(variant, start, moves)
    ]
    return analyse(variant, start, moves, reviews)


def eval_text(score: int) -> str:
    """A value from White's side as PDN comments write it: men with two decimals
    (``+1.25``), or ``#N`` / ``#-N`` for a forced win in N plies for White / Black, and
    ``#0`` after the game's last move whoever won, as lichess writes it (its mate count is
    a whole number, and 0 has no sign; python-chess reads ``#0`` as "the side to move has
    lost"): never ``#-0``."""
    if abs(score) > MATE - 1_000:
        plies = MATE - abs(score)
        return f"#{plies}" if score > 0 or plies == 0 else f"#-{plies}"
    return f"{score / 100:+.2f}"


def pdn_comments(
    analysis: GameAnalysis,
    positions: Sequence[Position] = (),
    *,
    numeric: bool = False,
) -> dict[int, str]:
    """The analysis as PDN comments by ply (for `engine.pdn.export_pdn(comments=...)`):
    every ply's value after it as ``[%eval +0.35]`` (the lichess convention, in men), and
    for a judged ply its judgement, the better move and its line. `numeric` (Italian,
    English checkers, International): the better move and line in the variant's square
    numbers (`engine.squares_board`: 1..50 on the 10×10 board), read again from
    `positions` (the game's `Game.positions()`), as the PDN's moves are.

    The variant is found by its key (`engine.get_variant`). Raises UnknownVariantError
    when the analysis names none of the bot's variants."""
    variant = get_variant(analysis.variant)
    comments = {}
    for ply in analysis.plies:
        words = [f"[%eval {eval_text(ply.after)}]"]
        if ply.judgement is not None:
            line = list(ply.line)
            if numeric and len(positions) >= ply.ply:
                line = _numbered(line, positions[ply.ply - 1], variant)
            words.append(f"{ply.judgement.value}; better {line[0] if line else ply.better}:")
            words.append(" ".join(line))
        comments[ply.ply] = " ".join(words)
    return comments


def _numbered(line: Sequence[str], position: Position, variant: Variant) -> list[str]:
    """`line` (the game's notation from `position`) in the variant's square numbers."""
    out = []
    for text in line:
        try:
            move = parse_move(text, position, variant)
        except ValueError:
            break
        out.append(format_move(move, position, variant, numeric=True))
        position = play_unchecked(position, move, variant)
    return out
