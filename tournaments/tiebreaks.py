"""Tie-breaks: Buchholz Cut 1, Sonneborn-Berger and direct encounter, after the FIDE
Tie-Break Regulations (FIDE Handbook C.07, the 2023 edition; docs/RULES.md,
"Tournaments", "Tie-breaks and standings"), as FIDE's Technical Commission's own
TieBreakServer computes them.

Unplayed rounds (a forfeit, a bye, a round the player was not in):
- a participant's own unplayed round counts as a game against a dummy opponent whose
  score is the participant's own ("a game against oneself");
- a *voluntarily unplayed round* (a forfeit lost, a round not paired or missed) is the
  first contribution Cut 1 drops; a pairing-allocated bye and a win by forfeit are not
  voluntary;
- an opponent's score, as it enters Buchholz and Sonneborn-Berger, is their real score,
  except that the voluntarily unplayed rounds without an opponent after their last
  round played (a withdrawal) count as draws; a forfeit lost keeps its points.
In a round robin (`ScoreSystem.round_robin`), as TieBreakServer's default for one
("treat unplayed games as played"), a forfeit counts as a game against its opponent and
a round without an opponent (the rest round, a round not paired) counts for nothing.
A game under way is left out, and so is the round it is in for the players it misses.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Iterator, Mapping
from dataclasses import dataclass
from fractions import Fraction

from tournaments.model import ByeKind, Colour, Round, check_rounds
from tournaments.scores import ScoreSystem, total_scores


@dataclass(frozen=True)
class RoundRecord:
    """What one round gave a player for the tie-breaks: the `opponent` (None when the
    round was not played over the board: a forfeit, a bye, a round missed), the
    `points` scored, whether the round was `voluntary`ly unplayed, and whether it was a
    `forfeit` (a paired game not played, which has an opponent in the pairing)."""

    round: int
    opponent: int | None
    points: int
    voluntary: bool = False
    forfeit: bool = False


def _game_records(round_: Round, system: ScoreSystem) -> Iterator[tuple[int, RoundRecord]]:
    for game in round_.games:
        if game.outcome is None:
            continue
        for colour, player in ((Colour.WHITE, game.white), (Colour.BLACK, game.black)):
            points = system.game_points(game.outcome, colour)
            if game.outcome.played or system.round_robin:
                yield player, RoundRecord(round_.number, game.opponent_of(player), points)
            else:
                voluntary = points < system.win
                yield player, RoundRecord(round_.number, None, points, voluntary, forfeit=True)


def round_records(
    players: Iterable[int], rounds: Iterable[Round], system: ScoreSystem
) -> dict[int, list[RoundRecord]]:
    """Each player's rounds that count for the tie-breaks, in round order: finished
    games, byes (a round not paired is voluntary), and, in a round whose games are all
    finished, a voluntary unplayed round for a player it does not name. In a round robin
    a forfeit is a game against its opponent and a round without one is left out.
    Raises ValueError when a round names a player not in `players`, and as
    `check_rounds` does."""
    rounds = tuple(rounds)
    check_rounds(rounds)
    records: dict[int, list[RoundRecord]] = {player: [] for player in players}
    for round_ in sorted(rounds, key=lambda r: r.number):
        named = {p for game in round_.games for p in (game.white, game.black)}
        named.update(bye.player for bye in round_.byes)
        unknown = named - records.keys()
        if unknown:
            raise ValueError(f"player {min(unknown)} is not an entrant")
        for player, record in _game_records(round_, system):
            records[player].append(record)
        for bye in () if system.round_robin else round_.byes:
            voluntary = bye.kind is ByeKind.NOT_PAIRED
            points = system.bye_points(bye.kind)
            records[bye.player].append(RoundRecord(round_.number, None, points, voluntary))
        if round_.finished and not system.round_robin:
            for player in records.keys() - named:
                records[player].append(RoundRecord(round_.number, None, 0, True))
    for rows in records.values():
        rows.sort(key=lambda r: r.round)
    return records


def adjusted_scores(
    records: Mapping[int, list[RoundRecord]], system: ScoreSystem
) -> dict[int, int]:
    """Each player's score as it enters an opponent's Buchholz or Sonneborn-Berger: the
    points of every round, but a draw for each voluntarily unplayed round without an
    opponent (not a forfeit, which keeps its points) after the last round that was not
    voluntarily unplayed (FIDE C.07, 2023, 16.3.2, as its TieBreakServer computes it)."""
    adjusted: dict[int, int] = {}
    for player, rows in records.items():
        last = max((r.round for r in rows if not r.voluntary), default=0)
        adjusted[player] = sum(
            system.draw if r.voluntary and not r.forfeit and r.round > last else r.points
            for r in rows
        )
    return adjusted


def _contributions(
    player: int,
    records: Mapping[int, list[RoundRecord]],
    scores: Mapping[int, int],
    adjusted: Mapping[int, int],
) -> list[tuple[bool, int, int]]:
    """(voluntary, opponent's score, points) per round: the dummy of an unplayed round
    has the player's own score."""
    return [
        (r.voluntary, scores[player] if r.opponent is None else adjusted[r.opponent], r.points)
        for r in records[player]
    ]


@dataclass(frozen=True)
class TieBreakInputs:
    """What Buchholz and Sonneborn-Berger both read, computed once: each player's
    `scores`, their `records` (`round_records`) and the `adjusted` scores their
    opponents bring (`adjusted_scores`)."""

    scores: Mapping[int, int]
    records: Mapping[int, list[RoundRecord]]
    adjusted: Mapping[int, int]


def tie_break_inputs(
    players: Collection[int], rounds: Iterable[Round], system: ScoreSystem
) -> TieBreakInputs:
    """The `TieBreakInputs` of `players` after `rounds`. Raises ValueError when a round
    names a player not in `players`, and as `check_rounds` does."""
    rounds = tuple(rounds)
    records = round_records(players, rounds, system)
    return TieBreakInputs(total_scores(players, rounds, system), records,
                          adjusted_scores(records, system))


def buchholz_cut_1(
    players: Collection[int], rounds: Iterable[Round], system: ScoreSystem,
    inputs: TieBreakInputs | None = None,
) -> dict[int, int]:
    """Each player's Buchholz Cut 1: the sum of the opponents' scores (unplayed rounds
    as the module states), less the least significant one, a voluntarily unplayed
    round's cut first (FIDE C.07, 2023: Buchholz, Cut-1, article 14.6 on cutting
    unplayed rounds first). A player
    with no round counted has 0. `inputs`, when given, are `tie_break_inputs` of the same
    arguments. Raises ValueError when a round names a player not in `players`."""
    inputs = inputs or tie_break_inputs(players, rounds, system)
    result: dict[int, int] = {}
    for player in players:
        parts = _contributions(player, inputs.records, inputs.scores, inputs.adjusted)
        values = [value for _, value, _ in parts]
        voluntary = [value for is_voluntary, value, _ in parts if is_voluntary]
        if values:
            values.remove(min(voluntary) if voluntary else min(values))
        result[player] = sum(values)
    return result


def sonneborn_berger(
    players: Collection[int], rounds: Iterable[Round], system: ScoreSystem,
    inputs: TieBreakInputs | None = None,
) -> dict[int, Fraction]:
    """Each player's Sonneborn-Berger: the sum, over their rounds, of the opponent's
    score times the share of a win the player scored (a win's whole, half for a draw,
    nothing for a loss), in the tournament's points (FIDE C.07, 2023: Sonneborn-Berger;
    unplayed rounds as the module states). `inputs`, when given, are `tie_break_inputs`
    of the same arguments. Raises ValueError when a round names a player not in
    `players`."""
    inputs = inputs or tie_break_inputs(players, rounds, system)
    return {
        player: sum(
            (
                Fraction(value * points, system.win)
                for _, value, points in _contributions(
                    player, inputs.records, inputs.scores, inputs.adjusted)
            ),
            Fraction(0),
        )
        for player in players
    }


def direct_encounter(
    tied: Collection[int], rounds: Iterable[Round], system: ScoreSystem
) -> dict[int, int] | None:
    """The points each of the `tied` players scored in the games played among them
    (both games of a double round robin; a forfeit is not a game played, but in a round
    robin it counts as one, as the module states), when every
    two of them have played each other; None when some two have not, and the tie-break
    does not apply (FIDE C.07, 2023: direct encounter, among all the tied
    participants). A single player scores 0."""
    points = dict.fromkeys(tied, 0)
    met: set[frozenset[int]] = set()
    for round_ in rounds:
        for game in round_.games:
            if game.outcome is None or not (game.outcome.played or system.round_robin):
                continue
            if game.white not in points or game.black not in points:
                continue
            met.add(frozenset((game.white, game.black)))
            points[game.white] += system.game_points(game.outcome, Colour.WHITE)
            points[game.black] += system.game_points(game.outcome, Colour.BLACK)
    pairs = {frozenset((a, b)) for a in points for b in points if a != b}
    return points if pairs <= met else None
