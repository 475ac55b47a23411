"""A simple minimax opponent for `benchmarks/strength.py` that shares no code with `engine/`.

It searches with pydraughts' move generation (``import draughts``, the package of the test
extra, MIT licence): alpha-beta (negamax) on material only, iterative deepening until a
time budget runs out (CPU time by default), and captures searched to the end beyond the
depth (a quiescence search: in draughts a capture is compulsory, so a position with a
capture to play is not scored). Values, in tenths of a man: a man 10, a king 30 where
kings fly (International, Brazilian and Russian draughts) and 15 in English checkers (the
usual rule-of-thumb values of each game's literature). A side with no legal move has lost
(the rule of all four games, docs/RULES.md). It knows no draw rule: `engine.Game`, which
the benchmark plays its games on, ends them.

pydraughts 0.6.7 has no playing program of its own (its `draughts.engine` only drives
external engines over the Hub, DXP and CheckerBoard protocols, none of which builds here
without network), hence this opponent. Only the four games pydraughts implements and the
bot offers are played (`PYDRAUGHTS_NAMES`); its Turkish and Italian move lists have
known quirks (tests/engine/oracles/pydraughts_adapter.py).

Run alone (`python benchmarks/pydraughts_minimax.py [--budget S]`, about 10 s) it prints
how deep it searches and how many positions a CPU second it visits in each game, from the
start position and after 10, 20 and 30 seeded random plies.

Square numbers (read from draughts/convert.py, as the differential tests'
pydraughts adapter does): International uses the FMJD's 1..50 (1 = b10 ... 50 = i1),
English checkers its players' 1..32 (1 = b8 ... 32 = g1), Brazilian and Russian 1..32 from
White's side, row by row from the left (a1 = 1, g1 = 4, b2 = 5 ... h8 = 32). All four are
played on a board whose a1 is dark.
"""

from __future__ import annotations

import argparse
import math
import random
import sys
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from types import MappingProxyType

import draughts
from draughts.core.game import Game as PydraughtsGame

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine import Color, Game, Move, Position, Variant, get_variant

#: Our variant key -> pydraughts' name, for the games both implement.
PYDRAUGHTS_NAMES: Mapping[str, str] = MappingProxyType(
    {"international": "standard", "brazilian": "brazilian", "russian": "russian",
     "english": "english"}
)
MAN_VALUE = 10
#: A king's value in tenths of a man, per pydraughts name.
KING_VALUES: Mapping[str, int] = MappingProxyType(
    {"standard": 30, "brazilian": 30, "russian": 30, "english": 15}
)
_WIN = 1_000_000
_MAX_DEPTH = 60


class _OutOfTime(Exception):
    """The CPU budget ran out inside an iteration."""


def pydraughts_number(file: int, rank: int, pd_name: str) -> int:
    """pydraughts' number of the dark square at `file`, `rank` (0-based, a1 = 0, 0).

    Raises ValueError for a light square or one off the board of `pd_name`.
    """
    size = 10 if pd_name == "standard" else 8
    if not (0 <= file < size and 0 <= rank < size) or (file + rank) % 2:
        raise ValueError(f"({file}, {rank}) is not a dark square of pydraughts' {pd_name!r}")
    per_row = size // 2
    if pd_name in ("brazilian", "russian"):
        return rank * per_row + file // 2 + 1
    return (size - 1 - rank) * per_row + file // 2 + 1


def pydraughts_square(number: int, pd_name: str) -> tuple[int, int]:
    """(file, rank) of pydraughts' square `number` in `pd_name`; the inverse of
    `pydraughts_number`. Raises ValueError for a number off the board."""
    size = 10 if pd_name == "standard" else 8
    per_row = size // 2
    if not 1 <= number <= per_row * size:
        raise ValueError(f"{number} is not a square of pydraughts' {pd_name!r}")
    row, col = divmod(number - 1, per_row)
    rank = row if pd_name in ("brazilian", "russian") else size - 1 - row
    return col * 2 + rank % 2, rank


def pydraughts_fen(position: Position, variant: Variant) -> str:
    """`position` as a numeric FEN in pydraughts' numbering of `variant`.

    Raises KeyError when pydraughts does not play `variant` (`PYDRAUGHTS_NAMES`).
    """
    pd_name = PYDRAUGHTS_NAMES[variant.key]
    size = variant.board_size

    def side(color: Color) -> str:
        items = []
        for kings, board in ((False, position.men(color)), (True, position.kings(color))):
            for sq in range(size * size):
                if board >> sq & 1:
                    rank, file = divmod(sq, size)
                    items.append((pydraughts_number(file, rank, pd_name), kings))
        return ",".join(("K" if king else "") + str(n) for n, king in sorted(items))

    turn = "W" if position.turn is Color.WHITE else "B"
    return f"{turn}:W{side(Color.WHITE)}:B{side(Color.BLACK)}"


class _Searcher:
    """Negamax alpha-beta over one pydraughts game, stopped by a deadline on its clock."""

    def __init__(
        self, game: PydraughtsGame, king_value: int, clock: Callable[[], float], deadline: float
    ) -> None:
        self.game = game
        self.king_value = king_value
        self.clock = clock
        self.deadline = deadline
        self.nodes = 0

    def material(self) -> int:
        """Material of the side to move minus its opponent's."""
        me = self.game.whose_turn()
        total = 0
        for piece in self.game.board.searcher.get_pieces_in_play():
            value = self.king_value if piece.king else MAN_VALUE
            total += value if piece.player == me else -value
        return total

    def negamax(self, depth: int, alpha: int, beta: int, ply: int) -> int:
        self.nodes += 1
        if self.clock() >= self.deadline:  # cheap beside a pydraughts node (~1 ms or more)
            raise _OutOfTime
        moves, captures = self.game.legal_moves()
        if not moves:
            return -_WIN + ply
        capturing = captures[0][0] is not None
        if depth <= 0 and not capturing:
            return self.material()
        for move in moves:
            self.game.push(move)
            try:
                value = -self.negamax(depth - 1, -beta, -alpha, ply + 1)
            finally:
                self.game.pop()
            if value > alpha:
                alpha = value
                if alpha >= beta:
                    break
        return alpha

    def root(self, depth: int, order: list[int]) -> tuple[int, int]:
        """(index of the best root move, its value) searched to `depth`, in `order`."""
        moves, _ = self.game.legal_moves()
        best, alpha = order[0], -_WIN - 1
        for index in order:
            self.game.push(moves[index])
            try:
                value = -self.negamax(depth - 1, -_WIN - 1, -alpha, 1)
            finally:
                self.game.pop()
            if value > alpha:
                best, alpha = index, value
        return best, alpha


@dataclass(frozen=True)
class MinimaxChoice:
    """The minimax's answer: `move`, one of the engine's legal moves; `depth`, the last
    depth searched completely (0 when there was one legal move, played without search);
    `nodes`, the positions it visited."""

    move: Move
    depth: int
    nodes: int  # positions visited (0 without search)


def choose_move(
    position: Position,
    variant: Variant,
    legal: Sequence[Move],
    budget: float,
    *,
    clock: Callable[[], float] = time.process_time,
) -> MinimaxChoice:
    """The minimax's move in `position` (side to move), one of `legal` (the engine's legal
    moves there, the same move identity: start, end and the set of captured squares).

    A single legal move is played at once. Otherwise searches depth 1, 2, ... until
    `budget` seconds of `clock` (by default this process's CPU time) have passed and
    plays the best move of the last completed depth (depth 1 is always completed; the
    earlier best first, ties to the first move found).

    Raises KeyError when pydraughts does not play `variant` and ValueError when `legal` is
    empty; RuntimeError when pydraughts' chosen move is none of `legal` (the two move
    generators disagree, which the differential tests rule out).
    """
    if not legal:
        raise ValueError("no legal move to choose from")
    if len(legal) == 1:
        return MinimaxChoice(legal[0], 0, 0)
    pd_name = PYDRAUGHTS_NAMES[variant.key]
    fen = pydraughts_fen(position, variant)
    board = draughts.Board(pd_name, fen=fen)
    deadline = clock() + budget
    searcher = _Searcher(board._game, KING_VALUES[pd_name], clock, deadline)
    count = len(board._game.legal_moves()[0])
    order = list(range(count))
    best = 0
    depth = 1
    while True:
        try:
            best, value = searcher.root(depth, order)
        except _OutOfTime:
            if depth > 1:
                depth -= 1
                break
            searcher.deadline = math.inf  # finish depth 1 whatever it costs
            continue
        out_of_time = clock() >= deadline
        if out_of_time or abs(value) > _WIN // 2 or depth >= _MAX_DEPTH:
            break
        order = [best, *(i for i in range(count) if i != best)]
        depth += 1
    # A fresh board: pydraughts' moves in its board numbering, in the same order.
    board_moves, taken = draughts.Board(pd_name, fen=fen)._legal_moves_board()
    move = _engine_move(board_moves[best], taken[best], variant, legal)
    return MinimaxChoice(move, depth, searcher.nodes)


def _engine_move(
    steps: list[list[int]], taken: list[int | None], variant: Variant, legal: Sequence[Move]
) -> Move:
    pd_name = PYDRAUGHTS_NAMES[variant.key]
    size = variant.board_size

    def index(number: int) -> int:
        file, rank = pydraughts_square(number, pd_name)
        return rank * size + file

    start, end = index(steps[0][0]), index(steps[-1][1])
    captured = frozenset(index(n) for n in taken if n is not None)
    for move in legal:
        if move.identity == (start, end, captured):
            return move
    raise RuntimeError(
        f"pydraughts' move {steps} (captures {taken}) is not legal in the engine's {variant.key}"
    )


def main(argv: list[str] | None = None) -> None:
    """Print the minimax's depth and positions per CPU second in each game it plays."""
    parser = argparse.ArgumentParser(description="The minimax opponent's depth and speed.")
    parser.add_argument("--budget", type=float, default=0.1, help="CPU seconds per move")
    args = parser.parse_args(argv)
    version = getattr(draughts, "__version__", "?")
    print(f"Minimax over pydraughts {version}, {args.budget:g} CPU s per move; the start "
          "position and 10, 20, 30 seeded random plies in")
    print("| variant       | depths completed | positions per CPU s |")
    print("|---------------|------------------|--------------------:|")
    for key in PYDRAUGHTS_NAMES:
        variant = get_variant(key)
        rng = random.Random(f"minimax/{key}")
        game = Game(variant)
        depths: list[int] = []
        nodes, cpu = 0, 0.0
        for _ in range(4):
            if game.outcome is None and len(game.legal_moves()) > 1:
                t0 = time.process_time()
                choice = choose_move(game.position, variant, game.legal_moves(), args.budget)
                cpu += time.process_time() - t0
                depths.append(choice.depth)
                nodes += choice.nodes
            for _ in range(10):
                if game.outcome is None:
                    game.play(rng.choice(game.legal_moves()))
        rate = nodes / cpu if cpu else 0.0
        print(f"| {key:13} | {', '.join(map(str, depths)):16} | {rate:19,.0f} |")


if __name__ == "__main__":
    main()
