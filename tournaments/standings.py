"""Standings after any number of rounds (docs/RULES.md, "Tournaments", "Tie-breaks and
standings"): ordered by score, then Buchholz Cut 1, then Sonneborn-Berger, then direct
encounter among the players still tied on all of those; a rank is shared when the score
and every tie-break are equal. Each row carries the player's round-by-round results."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction

from tournaments.model import ByeKind, Colour, Entrant, Outcome, Round, check_entrants
from tournaments.scores import ScoreSystem
from tournaments.tiebreaks import (
    buchholz_cut_1,
    direct_encounter,
    sonneborn_berger,
    tie_break_inputs,
)


@dataclass(frozen=True)
class RoundResult:
    """One round of a player's standings row: a game (`opponent`, `colour`, `outcome`,
    None while under way) or a bye (`bye`), and the `points` it scored."""

    round: int
    points: int
    opponent: int | None = None
    colour: Colour | None = None
    outcome: Outcome | None = None
    bye: ByeKind | None = None


@dataclass(frozen=True)
class Standing:
    """A row of the standings: `rank` (shared by equal rows), the player, their pairing
    `number`, `score`, the tie-breaks (`direct_encounter` None when it does not apply to
    the player's tie) and the `results` of each round they were in."""

    rank: int
    player: int
    number: int
    score: int
    buchholz_cut_1: int
    sonneborn_berger: Fraction
    direct_encounter: int | None
    results: tuple[RoundResult, ...]


def _results_by_player(
    rounds: Iterable[Round], system: ScoreSystem
) -> dict[int, list[RoundResult]]:
    """Every player's rounds (paired or a bye), in round order, in one pass."""
    results: dict[int, list[RoundResult]] = {}
    for round_ in sorted(rounds, key=lambda r: r.number):
        for game in round_.games:
            for player in (game.white, game.black):
                colour = game.colour_of(player)
                points = 0 if game.outcome is None else system.game_points(game.outcome, colour)
                results.setdefault(player, []).append(
                    RoundResult(
                        round_.number, points, game.opponent_of(player), colour, game.outcome
                    )
                )
        for bye in round_.byes:
            results.setdefault(bye.player, []).append(
                RoundResult(round_.number, system.bye_points(bye.kind), bye=bye.kind)
            )
    return results


def round_results(
    player: int, rounds: Iterable[Round], system: ScoreSystem
) -> tuple[RoundResult, ...]:
    """The rounds `player` was paired in or had a bye, in round order."""
    return tuple(_results_by_player(rounds, system).get(player, ()))


def standings(
    entrants: Sequence[Entrant], rounds: Iterable[Round], system: ScoreSystem
) -> tuple[Standing, ...]:
    """The standings of `entrants` after `rounds` (finished games count; a game under way
    shows in the results without points). Players equal on score, Buchholz Cut 1,
    Sonneborn-Berger and direct encounter share a rank and are listed by pairing number.
    Raises ValueError when a round names a player who is not an entrant, or when two
    entrants share a player id or a pairing number."""
    check_entrants(entrants)
    rounds = tuple(rounds)
    players = [entrant.player for entrant in entrants]
    numbers = {entrant.player: entrant.number for entrant in entrants}
    inputs = tie_break_inputs(players, rounds, system)
    results = _results_by_player(rounds, system)
    scores = inputs.scores
    buchholz = buchholz_cut_1(players, rounds, system, inputs)
    berger = sonneborn_berger(players, rounds, system, inputs)

    def key(player: int) -> tuple[int, int, Fraction]:
        return (scores[player], buchholz[player], berger[player])

    encounter: dict[int, int | None] = dict.fromkeys(players)
    groups: dict[tuple[int, int, Fraction], list[int]] = {}
    for player in players:
        groups.setdefault(key(player), []).append(player)
    for group in groups.values():
        if len(group) > 1:
            points = direct_encounter(group, rounds, system)
            if points is not None:
                encounter.update(points)

    def full_key(player: int) -> tuple[int, int, Fraction, int]:
        value = encounter[player]
        return (*key(player), -1 if value is None else value)

    ordered = sorted(players, key=lambda p: (tuple(-v for v in full_key(p)), numbers[p]))
    rows: list[Standing] = []
    for index, player in enumerate(ordered):
        shared = index and full_key(ordered[index - 1]) == full_key(player)
        rank = rows[-1].rank if shared else index + 1
        rows.append(
            Standing(
                rank=rank,
                player=player,
                number=numbers[player],
                score=scores[player],
                buchholz_cut_1=buchholz[player],
                sonneborn_berger=berger[player],
                direct_encounter=encounter[player],
                results=tuple(results.get(player, ())),
            )
        )
    return tuple(rows)
