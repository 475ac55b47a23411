"""An arena's pairing: the players free at a moment are paired by their rank in the
standings, avoiding an immediate rematch, with colours balanced as lichess balances them
(docs/RULES.md, "Tournaments", "Arena").

In: the entrants, the arena's rounds so far (each one pairing of free players), its
finished games, the free players with the moment each came free, the players who left
or paused, the time now, the end time, the `ArenaRules` and a seed (lichess draws lots
when two players' colour histories are equal; the seed makes that draw repeatable).
Out: the new `Round`, or None when no pairing is due. Pure: the same input gives the same
round.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import assert_never

from tournaments.arena_scores import ArenaGame, ArenaRules, standings
from tournaments.model import Colour, Entrant, Game, Round

#: lichess does not pair two players who both had this many games in a row with the
#: same colour, when another opponent is free (docs/RULES.md, "Arena").
MAX_COLOUR_STREAK = 3


@dataclass(frozen=True)
class ColourHistory:
    """A player's colours so far, as lichess keeps them: `streak` counts the games in a
    row with the last colour (positive for white, negative for black), `balance` the
    whites minus the blacks."""

    streak: int = 0
    balance: int = 0

    def add(self, colour: Colour) -> ColourHistory:
        match colour:
            case Colour.WHITE:
                return ColourHistory(max(self.streak, 0) + 1, self.balance + 1)
            case Colour.BLACK:
                return ColourHistory(min(self.streak, 0) - 1, self.balance - 1)
            case _:
                assert_never(colour)

    def could_play(self, other: ColourHistory) -> bool:
        """False when both players had `MAX_COLOUR_STREAK` games in a row with the same
        colour (one of them would get it once more)."""
        both_white = self.streak >= MAX_COLOUR_STREAK and other.streak >= MAX_COLOUR_STREAK
        both_black = self.streak <= -MAX_COLOUR_STREAK and other.streak <= -MAX_COLOUR_STREAK
        return not (both_white or both_black)


def colour_histories(rounds: Sequence[Round]) -> dict[int, ColourHistory]:
    """Each player's `ColourHistory` over every game paired in `rounds`, in round order
    (a forfeited game counts: the colour was given at the pairing)."""
    histories: dict[int, ColourHistory] = {}
    for round_ in sorted(rounds, key=lambda r: r.number):
        for game in round_.games:
            for player, colour in ((game.white, Colour.WHITE), (game.black, Colour.BLACK)):
                histories[player] = histories.get(player, ColourHistory()).add(colour)
    return histories


def last_opponents(rounds: Sequence[Round]) -> dict[int, int]:
    """Each player's opponent in the last round they were paired in."""
    last: dict[int, int] = {}
    for round_ in sorted(rounds, key=lambda r: r.number):
        for game in round_.games:
            last[game.white] = game.black
            last[game.black] = game.white
    return last


def white_first(first: ColourHistory, second: ColourHistory, draw: random.Random) -> bool:
    """True when the first player gets white: the one whose streak, then balance, is
    lower (more black) gets white; when both are equal, lots are drawn with `draw`."""
    if (first.streak, first.balance) != (second.streak, second.balance):
        return (first.streak, first.balance) < (second.streak, second.balance)
    return draw.random() < 0.5


def pairing_due(
    eligible: Sequence[int],
    free_since: Mapping[int, datetime],
    active: int,
    now: datetime,
    rules: ArenaRules,
) -> bool:
    """True when a pairing is to be made now: two players or more are free, and either
    every player still in the arena (`active` of them) is free, or one has waited
    `rules.pairing_wait` (so that more players come free meanwhile)."""
    if len(eligible) < 2:
        return False
    if len(eligible) >= active:
        return True
    return any(now - free_since[player] >= rules.pairing_wait for player in eligible)


def _rematch(first: int, second: int, last: Mapping[int, int]) -> bool:
    """True when `first` and `second` met in the last round either was paired in."""
    return last.get(first) == second or last.get(second) == first


def _opponent_index(
    player: int,
    rest: Sequence[int],
    last: Mapping[int, int],
    histories: Mapping[int, ColourHistory],
) -> int:
    """The index in `rest` (in rank order) of `player`'s opponent: the first who is not
    an immediate rematch and whose colours allow the game; else the first who is not a
    rematch; else the first."""
    mine = histories.get(player, ColourHistory())
    for index, other in enumerate(rest):
        if not _rematch(player, other, last) and mine.could_play(
            histories.get(other, ColourHistory())
        ):
            return index
    for index, other in enumerate(rest):
        if not _rematch(player, other, last):
            return index
    return 0


def _undo_rematches(
    pairs: list[tuple[int, int]],
    last: Mapping[int, int],
    histories: Mapping[int, ColourHistory],
) -> None:
    """Replaces, in place, each pair that is an immediate rematch and the nearest pair
    above it by two pairs of the same four players with neither a rematch nor a colour
    clash, when there are such (the top-down pass leaves a rematch at the bottom when
    the last two left had just met, though players above were free)."""

    def allowed(first: int, second: int) -> bool:
        mine = histories.get(first, ColourHistory())
        return not _rematch(first, second, last) and mine.could_play(
            histories.get(second, ColourHistory())
        )

    for index, (third, fourth) in enumerate(pairs):
        if not _rematch(third, fourth, last):
            continue
        for above in range(index - 1, -1, -1):
            first, second = pairs[above]
            for swap in (((first, third), (second, fourth)), ((first, fourth), (second, third))):
                if all(allowed(*pair_) for pair_ in swap):
                    pairs[above], pairs[index] = swap
                    break
            else:
                continue
            break


def pair(
    entrants: Sequence[Entrant],
    rounds: Sequence[Round],
    games: Sequence[ArenaGame],
    free_since: Mapping[int, datetime],
    withdrawn: frozenset[int],
    now: datetime,
    end: datetime,
    rules: ArenaRules,
    seed: int,
) -> Round | None:
    """The next round of the arena, or None when no pairing is due: within
    `rules.pairings_closed_before_end` of `end` or after it (lichess closes pairings
    shortly before the end), or when `pairing_due` says to wait.

    `free_since` maps each free player (not in a game under way) to when they came free;
    players in `withdrawn` (left or paused) are paired no more but keep their scores.
    The free players are ranked as in the standings now (`standings` over `games`
    ended by `now`; before any game, by rating) and paired from the top: each with the
    next-ranked free player who is not their last opponent and not a colour clash
    (`ColourHistory.could_play`); a rematch this leaves at the bottom is undone with the
    nearest pair above that allows it (`_undo_rematches`), so an immediate rematch is
    made only when no such swap exists. With an odd
    count the lowest-ranked player left over waits for the next pairing (no bye, no
    points). Boards are numbered from 1 in that order. Raises ValueError when a free
    player is not an entrant.
    """
    players = {entrant.player for entrant in entrants}
    unknown = set(free_since) - players
    if unknown:
        raise ValueError(f"free players {sorted(unknown)} are not entrants")
    if now >= end - rules.pairings_closed_before_end:
        return None
    ranked = [row.player for row in standings(entrants, games, rules, now)]
    eligible = [p for p in ranked if p in free_since and p not in withdrawn]
    if not pairing_due(eligible, free_since, len(players - withdrawn), now, rules):
        return None
    number = max((round_.number for round_ in rounds), default=0) + 1
    histories = colour_histories(rounds)
    last = last_opponents(rounds)
    draw = random.Random(f"{seed}:{number}")
    pairs: list[tuple[int, int]] = []
    waiting = list(eligible)
    while len(waiting) >= 2:
        player = waiting.pop(0)
        pairs.append((player, waiting.pop(_opponent_index(player, waiting, last, histories))))
    _undo_rematches(pairs, last, histories)
    paired: list[Game] = []
    for player, opponent in pairs:
        mine = histories.get(player, ColourHistory())
        theirs = histories.get(opponent, ColourHistory())
        white, black = (player, opponent) if white_first(mine, theirs, draw) else (opponent, player)
        paired.append(Game(round=number, board=len(paired) + 1, white=white, black=black))
    return Round(number=number, games=tuple(paired))
