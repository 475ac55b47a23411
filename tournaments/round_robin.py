"""Round-robin pairings by the FIDE Berger tables (FIDE Handbook C.05, Annex 1, "Berger
Tables for Round-Robin Tournaments"; docs/RULES.md, "Tournaments", "Round robin").

For an even count n the table has n - 1 rounds. In round r the player numbered n plays
the player numbered (r + 1) / 2 with Black when r is odd and the player numbered
n / 2 + r / 2 with White when r is even; the other players stand on a circle 1 .. n - 1
whose head (the player facing n) moves on by n / 2 each round, and the k-th player after
the head has White against the k-th before it. This generates the published tables
exactly (tests/tournaments/test_round_robin.py checks it against them). An odd count
plays with a dummy numbered n + 1: whoever the table pairs with it has the bye.

A double round robin plays the table twice, the second cycle with colours reversed; in
the first cycle the last two rounds are played in reverse order, as Annex 1 recommends,
"to avoid three consecutive games with the same colour"."""

from __future__ import annotations

from collections.abc import Sequence

from tournaments.model import Bye, ByeKind, Entrant, Game, Round, check_entrants

MIN_PLAYERS = 2


def rounds_per_cycle(count: int) -> int:
    """The rounds of one cycle for `count` players: count - 1 when even, count when odd
    (the dummy makes it even). Raises ValueError below 2 players."""
    if count < MIN_PLAYERS:
        raise ValueError(f"a round robin needs at least {MIN_PLAYERS} players, not {count}")
    return count + count % 2 - 1


def berger_round(count: int, table_round: int) -> tuple[tuple[int, int], ...]:
    """The pairs (White's number, Black's number) of round `table_round` of the Berger
    table for `count` players, in the table's order; for an odd count the dummy's number
    is count + 1. Raises ValueError below 2 players or for a round outside the table."""
    rounds = rounds_per_cycle(count)
    if not 1 <= table_round <= rounds:
        raise ValueError(f"round {table_round} is not in the table's rounds 1 to {rounds}")
    size = rounds + 1
    circle = size - 1
    head = (table_round - 1) * (size // 2) % circle + 1
    pairs = [(head, size)] if table_round % 2 else [(size, head)]
    for step in range(1, size // 2):
        white = (head - 1 + step) % circle + 1
        black = (head - 1 - step) % circle + 1
        pairs.append((white, black))
    return tuple(pairs)


def _table_round(round_number: int, rounds: int, cycles: int) -> tuple[int, bool]:
    """The table's round that `round_number` plays and whether colours are reversed."""
    if not 1 <= round_number <= rounds * cycles:
        raise ValueError(
            f"round {round_number} is not in the tournament's rounds 1 to {rounds * cycles}"
        )
    if round_number > rounds:
        return round_number - rounds, True
    if cycles == 2 and rounds >= 3 and round_number >= rounds - 1:
        return (rounds - 1 if round_number == rounds else rounds), False
    return round_number, False


def _by_number(entrants: Sequence[Entrant]) -> dict[int, Entrant]:
    check_entrants(entrants)
    numbers = sorted(entrant.number for entrant in entrants)
    if numbers != list(range(1, len(entrants) + 1)):
        raise ValueError(f"pairing numbers must be 1 to {len(entrants)}, not {numbers}")
    return {entrant.number: entrant for entrant in entrants}


def round_robin_round(entrants: Sequence[Entrant], round_number: int, cycles: int = 1) -> Round:
    """Round `round_number` (from 1) of a single (`cycles` 1) or double (`cycles` 2)
    round robin between `entrants`, paired by their `Entrant.number` on the Berger table:
    games on boards from 1 in the table's order, the dummy's opponent given a
    pairing-allocated bye. Raises ValueError below 2 players, when the numbers are not
    1 to n, when a player is entered twice, when `cycles` is not 1 or 2, or when the
    round is not in the tournament."""
    if cycles not in (1, 2):
        raise ValueError(f"a round robin has 1 or 2 cycles, not {cycles}")
    rounds = rounds_per_cycle(len(entrants))
    by_number = _by_number(entrants)
    table_round, reversed_colours = _table_round(round_number, rounds, cycles)
    games: list[Game] = []
    byes: list[Bye] = []
    for white, black in berger_round(len(entrants), table_round):
        if reversed_colours:
            white, black = black, white
        if white not in by_number or black not in by_number:
            player = by_number[min(white, black)].player
            byes.append(Bye(round_number, player, ByeKind.PAIRING_ALLOCATED))
            continue
        games.append(
            Game(
                round=round_number,
                board=len(games) + 1,
                white=by_number[white].player,
                black=by_number[black].player,
            )
        )
    return Round(round_number, tuple(games), tuple(byes))


def round_robin_schedule(entrants: Sequence[Entrant], cycles: int = 1) -> tuple[Round, ...]:
    """Every round of the round robin, as `round_robin_round` gives each; the same
    errors."""
    rounds = rounds_per_cycle(len(entrants))
    return tuple(
        round_robin_round(entrants, number, cycles) for number in range(1, rounds * cycles + 1)
    )
