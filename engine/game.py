"""`Game`: a variant, a start position and the moves played, with every draw rule.

Outcomes are values: `Outcome(termination, winner)`, `winner` None for a draw. The rules
(docs/RULES.md): a side with no pieces, or no legal move on its turn, loses; threefold
repetition draws in every variant; Turkish and Arab draw at once when each side has one
piece; a run of plies with no capture and no man move draws (80 plies in Arab, Moroccan
and Italian; 30 in Turkish, "only kings moved and nothing was captured"; each variant's
own count: `DrawLaw.no_progress_plies`); the endgame counts by material of International,
Brazilian and Russian draughts draw when they run out (`engine.draw_rules`). A game
from a given position starts its counters at zero and its repetition history with that
position.
Resignation, agreed draws and time forfeits are recorded here too.
"""

from __future__ import annotations

import enum
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass

from engine import draw_rules
from engine.errors import GameOverError, IllegalMoveError, MoveProblem
from engine.movegen import legal_moves as _legal_moves
from engine.movegen import play_unchecked
from engine.moves import Move
from engine.notation import parse_move
from engine.pieces import Color
from engine.position import Position
from engine.squares_board import move_name
from engine.variants import EndgameRule, Variant, get_variant


class Termination(enum.Enum):
    """Why a game ended."""

    NO_PIECES = "no_pieces"  # the loser has no pieces left
    NO_LEGAL_MOVE = "no_legal_move"  # the loser cannot move on their turn
    REPETITION = "repetition"  # the same position, same side to move, the third time
    ONE_PIECE_EACH = "one_piece_each"  # Turkish, Arab: each side has exactly one piece
    MOVE_LIMIT = "move_limit"  # the no-progress (or Turkish kings-only) ply count ran out
    # An endgame count by material ran out (the FMJD's 16- and 5-move endgames, the Russian
    # counts: `engine.draw_rules`); International, Brazilian and Russian draughts only.
    ENDGAME_LIMIT = "endgame_limit"
    RESIGNATION = "resignation"
    AGREEMENT = "agreement"
    TIME_FORFEIT = "time_forfeit"


@dataclass(frozen=True, slots=True)
class Outcome:
    """How a game ended: the reason and the winner (None for a draw)."""

    termination: Termination
    winner: Color | None

    @property
    def is_draw(self) -> bool:
        """Whether the game was drawn."""
        return self.winner is None

    @property
    def result(self) -> str:
        """The PDN result token: ``1-0``, ``0-1`` or ``1/2-1/2``."""
        if self.winner is None:
            return "1/2-1/2"
        return "1-0" if self.winner is Color.WHITE else "0-1"


class Game:
    """A game in progress or finished.

    `Game(variant, start=None, *, enforce_draw_rules=True)`: `start` defaults to the
    variant's start position. With `enforce_draw_rules=False` (replaying a record) every
    move is still checked for legality and wins (no pieces, no legal move) still end the
    game, but a draw rule the record plays past is noted in `draw_notes` as
    ``(ply, Termination)`` instead of ending it.

    Attributes: `variant`, `start`, `position` (current), `moves` (tuple of the moves
    played), `ply` (number of moves played), `outcome` (None while the game goes on),
    `draw_notes`, `draw_counts` (the counts of the draw rules, `engine.draw_rules.
    DrawCounts`), `no_progress_plies` (its count of plies with no capture and no man move),
    `endgame_rule` (the endgame rule whose count has run out at the current position, None
    when none has).
    """

    def __init__(
        self,
        variant: Variant,
        start: Position | None = None,
        *,
        enforce_draw_rules: bool = True,
    ) -> None:
        self.variant = variant
        self.start = Position.start(variant) if start is None else start
        self.enforce_draw_rules = enforce_draw_rules
        self.position = self.start
        self.outcome: Outcome | None = None
        self.draw_notes: list[tuple[int, Termination]] = []
        self.draw_counts = draw_rules.start_counts(self.start, variant)
        self.endgame_rule: EndgameRule | None = None
        self._moves: list[Move] = []
        self._positions: list[Position] = [self.start]
        self._seen: Counter[Position] = Counter({self.start: 1})
        self._legal: list[Move] = _legal_moves(self.start, variant)
        self._one_each = self._one_piece_each(self.start)
        self._judge(initial=True)

    @classmethod
    def replay(cls, variant: Variant | str, start_fen: str, moves: Iterable[str]) -> Game:
        """The game that `moves` (move texts, in ply order, as `parse_move` reads them) make
        from `start_fen` in `variant`, with the draw rules enforced as in play
        (docs/RULES.md), so a game the rules ended stands ended. `variant`: a Variant, or
        a name: a key or alias of the bot's variants (`engine.get_variant`).

        This is how a stored game becomes a game again (the bot loading a game, local play
        and the tests reading what the bot stored). Raises `UnknownVariantError` for a
        variant name the engine does not know, `PositionError` for a bad FEN,
        `MalformedMoveError`, `IllegalMoveError` or `AmbiguousMoveError` for a move that
        does not replay, `GameOverError` for a move after the game ended.
        """
        rules = get_variant(variant) if isinstance(variant, str) else variant
        game = cls(rules, Position.from_fen(start_fen, rules))
        for text in moves:
            game.play(text)
        return game

    # --- state ------------------------------------------------------------------------

    @property
    def moves(self) -> tuple[Move, ...]:
        """The moves played, in order."""
        return tuple(self._moves)

    @property
    def no_progress_plies(self) -> int:
        """Plies since the last capture or man move (`DrawCounts.no_progress_plies`)."""
        return self.draw_counts.no_progress_plies

    @property
    def ply(self) -> int:
        """How many moves (plies) have been played."""
        return len(self._moves)

    @property
    def is_over(self) -> bool:
        """Whether the game has ended."""
        return self.outcome is not None

    def positions(self) -> list[Position]:
        """The start position, then the position after each ply."""
        return list(self._positions)

    def repetition_count(self, position: Position | None = None) -> int:
        """How many times `position` (default: the current one) has occurred in this game."""
        return self._seen[self.position if position is None else position]

    def legal_moves(self) -> list[Move]:
        """The legal moves of the side to move; empty once the game is over."""
        return [] if self.outcome is not None else list(self._legal)

    # --- playing ----------------------------------------------------------------------

    def play(self, move: Move | str) -> Move:
        """Play `move` (a Move, or move text as `parse_move` reads it) and return the move
        played (its canonical route).

        Raises GameOverError when the game has ended; MalformedMoveError, IllegalMoveError
        or AmbiguousMoveError for text or a move that cannot be played here.
        """
        if self.outcome is not None:
            raise GameOverError(f"the game is over ({_describe(self.outcome)}); no more moves")
        if isinstance(move, str):
            chosen = parse_move(move, self.position, self.variant)
        else:
            found = next((m for m in self._legal if m == move), None)
            if found is None:
                # Re-read the move's full text to say why it is illegal.
                shown = move_name(move, self.position.board_size)
                chosen = parse_move(shown, self.position, self.variant)
                if chosen != move:
                    raise IllegalMoveError(
                        f"{shown} is not a legal move in this position", MoveProblem.NOT_LEGAL,
                        {"move": shown},
                    )
            else:
                chosen = found
        self._advance(chosen)
        return chosen

    def _advance(self, move: Move) -> None:
        new = play_unchecked(self.position, move, self.variant)
        self.draw_counts = draw_rules.after_ply(self.draw_counts, self.position, new,
                                                self.variant)
        self.position = new
        self._moves.append(move)
        self._positions.append(new)
        self._seen[new] += 1
        self._legal = _legal_moves(new, self.variant)
        self._judge(initial=False)

    def _one_piece_each(self, position: Position) -> bool:
        return (
            self.variant.draw_law.one_piece_each
            and position.count(Color.WHITE) == 1
            and position.count(Color.BLACK) == 1
        )

    def _judge(self, *, initial: bool) -> None:
        """Decide the outcome after a ply (or at the start) in docs/RULES.md order: a side to
        move without pieces loses (and at the start, a side to move whose opponent has no
        pieces wins: "Win: the opponent has no pieces"); one piece each draws (Turkish,
        Arab); a side to move without a legal move loses; then repetition, the
        no-progress count and the endgame counts (a count is noted once, when it runs
        out)."""
        pos = self.position
        to_move = pos.turn
        if pos.count(to_move) == 0:
            self.outcome = Outcome(Termination.NO_PIECES, to_move.opponent)
            return
        if initial and pos.count(to_move.opponent) == 0:
            self.outcome = Outcome(Termination.NO_PIECES, to_move)
            return
        law = self.variant.draw_law
        was_one_each = self._one_each
        self._one_each = self._one_piece_each(pos)
        if self._one_each and (initial or not was_one_each) and self._draw(
            Termination.ONE_PIECE_EACH
        ):
            return
        if not self._legal:
            self.outcome = Outcome(Termination.NO_LEGAL_MOVE, to_move.opponent)
            return
        if self._seen[pos] == law.repetitions and self._draw(Termination.REPETITION):
            return
        if self.no_progress_plies == law.no_progress_plies and self._draw(
            Termination.MOVE_LIMIT
        ):
            return
        rule = draw_rules.endgame_limit(pos, self.draw_counts, self.variant)
        newly = rule is not None and rule != self.endgame_rule
        self.endgame_rule = rule
        if newly:
            self._draw(Termination.ENDGAME_LIMIT)

    def _draw(self, termination: Termination) -> bool:
        """End the game drawn (enforcing) or note the rule (replaying); True if it ended."""
        if self.enforce_draw_rules:
            self.outcome = Outcome(termination, None)
            return True
        self.draw_notes.append((self.ply, termination))
        return False

    # --- results without a move ---------------------------------------------------------

    def resign(self, color: Color) -> Outcome:
        """`color` resigns; the opponent wins. Raises GameOverError if the game is over."""
        return self._finish(Outcome(Termination.RESIGNATION, color.opponent))

    def agree_draw(self) -> Outcome:
        """Both players agree to a draw. Raises GameOverError if the game is over."""
        return self._finish(Outcome(Termination.AGREEMENT, None))

    def forfeit_on_time(self, color: Color) -> Outcome:
        """`color` loses on time; the opponent wins. Raises GameOverError if the game is
        over."""
        return self._finish(Outcome(Termination.TIME_FORFEIT, color.opponent))

    def _finish(self, outcome: Outcome) -> Outcome:
        if self.outcome is not None:
            raise GameOverError(f"the game is already over ({_describe(self.outcome)})")
        self.outcome = outcome
        return outcome


def _describe(outcome: Outcome) -> str:
    reason = outcome.termination.value.replace("_", " ")
    if outcome.winner is None:
        return f"drawn by {reason}"
    return f"{outcome.winner.value.capitalize()} won by {reason}"
