"""Test data for tournaments: the published ChessKid crosstable ("What is a tie-break?",
support.chesskid.com/en/articles/8863009), a double round robin of three players
scored 1, 1/2, 0: Bob 3 points, Sonneborn-Berger 4.5; Mary 1.5, 3.75; John 1.5, 2.25."""

from __future__ import annotations

from tournaments.model import Entrant, Game, Outcome, Round
from tournaments.round_robin import round_robin_schedule

BOB, MARY, JOHN = 1, 2, 3


def chesskid_crosstable() -> list[Round]:
    """The crosstable's results on our own double round-robin schedule (each round has
    one game and one rest round): Bob and Mary win one each, Bob beats John twice,
    John beats Mary once and draws once."""
    entrants = [Entrant(BOB, 1600, 1), Entrant(MARY, 1500, 2), Entrant(JOHN, 1400, 3)]
    schedule = round_robin_schedule(entrants, cycles=2)
    wins: dict[frozenset[int], list[int | None]] = {
        frozenset((BOB, MARY)): [BOB, MARY],
        frozenset((BOB, JOHN)): [BOB, BOB],
        frozenset((MARY, JOHN)): [JOHN, None],
    }
    played: list[Round] = []
    for round_ in schedule:
        (game,) = round_.games
        winner = wins[frozenset((game.white, game.black))].pop(0)
        outcome = (
            Outcome.DRAW
            if winner is None
            else Outcome.WHITE_WINS
            if winner == game.white
            else Outcome.BLACK_WINS
        )
        played.append(
            Round(
                round_.number, (Game(game.round, 1, game.white, game.black, outcome),), round_.byes
            )
        )
    return played
