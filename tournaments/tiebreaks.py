"""Tie-breaks: Buchholz Cut 1, Sonneborn-Berger and direct encounter, after the FIDE
Tie-Break Regulations (FIDE Handbook C.07, the 2023 edition; docs/RULES.md,
"Tournaments", "Tie-breaks and standings").

Unplayed rounds (a forfeit, a bye, a round not paired), as those regulations treat them:
- a participant's own unplayed round counts as a game against a dummy opponent whose
  score is the participant's own ("a game against oneself");
- an opponent's score, as it enters Buchholz and Sonneborn-Berger, counts each of the
  opponent's unplayed rounds as a draw whatever it scored;
- Cut 1 drops the least significant contribution, and an unplayed round's contribution
  is the first one cut.
A round robin's rest round (`ScoreSystem.rest_round`) is not a round for any of them.
Only finished games count: a game under way is left out."""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping
from dataclasses import dataclass
from fractions import Fraction

from tournaments.model import Colour, Round
from tournaments.scores import ScoreSystem, total_scores


@dataclass(frozen=True)
class RoundRecord:
    """What one round gave a player for the tie-breaks: the `opponent` (None when the
    round was not played over the board: a forfeit, a bye), the `points` scored."""

    round: int
    opponent: int | None
    points: int


def round_records(
    players: Iterable[int], rounds: Iterable[Round], system: ScoreSystem
) -> dict[int, list[RoundRecord]]:
    """Each player's rounds that count for the tie-breaks, in round order: finished
    games (a forfeit with no opponent) and byes, the rest rounds of a round robin left
    out."""
    records: dict[int, list[RoundRecord]] = {player: [] for player in players}
    for round_ in sorted(rounds, key=lambda r: r.number):
        for game in round_.games:
            if game.outcome is None:
                continue
            for colour, player in ((Colour.WHITE, game.white), (Colour.BLACK, game.black)):
                opponent = game.opponent_of(player) if game.outcome.played else None
                points = system.game_points(game.outcome, colour)
                records[player].append(RoundRecord(round_.number, opponent, points))
        if system.rest_round:
            continue
        for bye in round_.byes:
            records[bye.player].append(
                RoundRecord(round_.number, None, system.bye_points(bye.kind))
            )
    return records


def adjusted_scores(
    records: Mapping[int, list[RoundRecord]], system: ScoreSystem
) -> dict[int, int]:
    """Each player's score as it enters an opponent's Buchholz or Sonneborn-Berger: the
    points of the games played, and a draw for each unplayed round."""
    return {
        player: sum(r.points if r.opponent is not None else system.draw for r in rows)
        for player, rows in records.items()
    }


def _contributions(
    player: int,
    records: Mapping[int, list[RoundRecord]],
    scores: Mapping[int, int],
    adjusted: Mapping[int, int],
) -> list[tuple[bool, int, int]]:
    """(unplayed, opponent's score, points) per round: the dummy of an unplayed round
    has the player's own score."""
    return [
        (True, scores[player], r.points)
        if r.opponent is None
        else (False, adjusted[r.opponent], r.points)
        for r in records[player]
    ]


def buchholz_cut_1(
    players: Collection[int], rounds: Iterable[Round], system: ScoreSystem
) -> dict[int, int]:
    """Each player's Buchholz Cut 1: the sum of the opponents' scores (unplayed rounds
    as the module states), less the least significant one, an unplayed round's cut
    first (FIDE C.07, 2023: Buchholz, its Cut-1 modifier, unplayed rounds). A player
    with no round counted has 0. Raises ValueError when a round names a player not in
    `players`."""
    rounds = tuple(rounds)
    scores = total_scores(players, rounds, system)
    records = round_records(players, rounds, system)
    adjusted = adjusted_scores(records, system)
    result: dict[int, int] = {}
    for player in players:
        parts = _contributions(player, records, scores, adjusted)
        values = [value for _, value, _ in parts]
        unplayed = [value for is_unplayed, value, _ in parts if is_unplayed]
        if values:
            values.remove(min(unplayed) if unplayed else min(values))
        result[player] = sum(values)
    return result


def sonneborn_berger(
    players: Collection[int], rounds: Iterable[Round], system: ScoreSystem
) -> dict[int, Fraction]:
    """Each player's Sonneborn-Berger: the sum, over their rounds, of the opponent's
    score times the share of a win the player scored (a win's whole, half for a draw,
    nothing for a loss), in the tournament's points (FIDE C.07, 2023: Sonneborn-Berger;
    unplayed rounds as the module states). Raises ValueError when a round names a
    player not in `players`."""
    rounds = tuple(rounds)
    scores = total_scores(players, rounds, system)
    records = round_records(players, rounds, system)
    adjusted = adjusted_scores(records, system)
    return {
        player: sum(
            (
                Fraction(value * points, system.win)
                for _, value, points in _contributions(player, records, scores, adjusted)
            ),
            Fraction(0),
        )
        for player in players
    }


def direct_encounter(
    tied: Collection[int], rounds: Iterable[Round], system: ScoreSystem
) -> dict[int, int] | None:
    """The points each of the `tied` players scored in the finished games among them
    (both games of a double round robin; a forfeit scores as it gives), when every two
    of them have met; None when some two have not, and the tie-break does not apply
    (FIDE C.07, 2023: direct encounter, among all the tied participants). A single
    player scores 0."""
    points = dict.fromkeys(tied, 0)
    met: set[frozenset[int]] = set()
    for round_ in rounds:
        for game in round_.games:
            if game.outcome is None or game.white not in points or game.black not in points:
                continue
            met.add(frozenset((game.white, game.black)))
            points[game.white] += system.game_points(game.outcome, Colour.WHITE)
            points[game.black] += system.game_points(game.outcome, Colour.BLACK)
    pairs = {frozenset((a, b)) for a in points for b in points if a != b}
    return points if pairs <= met else None
