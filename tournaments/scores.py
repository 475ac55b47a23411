"""Points for each outcome and each bye in Swiss and round-robin tournaments
(docs/RULES.md, "Tournaments", "Scores"): the draughts world's win 2, draw 1, loss 0.

A forfeit scores like the result it gives (a win by forfeit is a win's points, a loss by
forfeit nothing) but is not a game played. A pairing-allocated bye in a Swiss is worth a
win (FFJD, "Organiser un tournoi": the "exempt" scores 2 points); a player not paired
(left, paused) scores nothing. In a round robin the dummy's opponent has a rest round:
every player has exactly one, so it scores nothing and counts for no tie-break."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import assert_never

from tournaments.model import ByeKind, Colour, Format, Outcome, Round, check_rounds


@dataclass(frozen=True)
class ScoreSystem:
    """The points of a tournament: `win`, `draw`, `loss` for a game (forfeits score as
    the win or loss they give), `pairing_allocated_bye` for a bye of an odd count, and
    `round_robin`: True for a round robin, where a pairing-allocated bye is the rest round
    of an odd count, not a round for the tie-breaks, and the tie-breaks count a forfeit
    as a game against its opponent (docs/RULES.md, "Scores", "Tie-breaks and
    standings")."""

    win: int = 2
    draw: int = 1
    loss: int = 0
    pairing_allocated_bye: int = 2
    round_robin: bool = False

    def game_points(self, outcome: Outcome, colour: Colour) -> int:
        """The points the side `colour` scores for `outcome`: a win (played or by
        forfeit) is `win`, a draw `draw`, a loss (played or by forfeit) and a double
        forfeit `loss`."""
        match outcome:
            case Outcome.DRAW:
                return self.draw
            case Outcome.DOUBLE_FORFEIT:
                return self.loss
            case (
                Outcome.WHITE_WINS
                | Outcome.BLACK_WINS
                | Outcome.WHITE_WINS_BY_FORFEIT
                | Outcome.BLACK_WINS_BY_FORFEIT
            ):
                return self.win if outcome.winner() is colour else self.loss
            case _:
                assert_never(outcome)

    def bye_points(self, kind: ByeKind) -> int:
        """The points of a bye: `pairing_allocated_bye` for a bye of an odd count,
        nothing for a player not paired."""
        match kind:
            case ByeKind.PAIRING_ALLOCATED:
                return self.pairing_allocated_bye
            case ByeKind.NOT_PAIRED:
                return 0
            case _:
                assert_never(kind)


SWISS = ScoreSystem()
"""Win 2, draw 1, loss 0, a pairing-allocated bye a win's 2 points."""

ROUND_ROBIN = ScoreSystem(pairing_allocated_bye=0, round_robin=True)
"""Win 2, draw 1, loss 0; the rest round of an odd count scores nothing."""


def score_system(format: Format) -> ScoreSystem:
    """The points of a Swiss or round-robin tournament. Raises ValueError for an arena,
    whose streak scoring is the arena's own (docs/RULES.md, "Tournaments")."""
    match format:
        case Format.SWISS:
            return SWISS
        case Format.ROUND_ROBIN:
            return ROUND_ROBIN
        case Format.ARENA:
            raise ValueError("an arena scores its games by its own streak rules")
        case _:
            assert_never(format)


def total_scores(
    players: Iterable[int], rounds: Iterable[Round], system: ScoreSystem
) -> dict[int, int]:
    """Each player's score: the points of their finished games and their byes in
    `rounds` (a game without its outcome scores nothing yet). Every player of `players`
    is in the result; a player met in `rounds` but not in `players` raises ValueError, and
    so do a round given twice and a player named twice in a round (`check_rounds`)."""
    rounds = tuple(rounds)
    check_rounds(rounds)
    scores = dict.fromkeys(players, 0)

    def add(player: int, points: int) -> None:
        if player not in scores:
            raise ValueError(f"player {player} is not an entrant")
        scores[player] += points

    for round_ in rounds:
        for game in round_.games:
            if game.outcome is not None:
                add(game.white, system.game_points(game.outcome, Colour.WHITE))
                add(game.black, system.game_points(game.outcome, Colour.BLACK))
        for bye in round_.byes:
            add(bye.player, system.bye_points(bye.kind))
    return scores
