"""Swiss rounds paired by the FIDE Dutch system (FIDE Handbook C.04.3, the rules in force
from 1 February 2026; docs/RULES.md, "Swiss").

`pair_swiss` is our interface; the pairing itself is `caissify_pairings`' Dutch engine,
checked round after round against bbpPairings (FIDE-endorsed) by tests/tournaments/
test_swiss.py. This module derives what the engine needs from the rounds so far, as the
engine's documentation and bbpPairings read a tournament:

- the score: the tournament's points (`tournaments.scores.SWISS`) on the pairing's scale,
  where a win is 1 as the FIDE rules count: a win (played or by forfeit) 1, a draw 1/2, a
  loss or a forfeit loss 0, the pairing-allocated bye a win's 1 (FIDE C.04.1 and
  docs/RULES.md), a round not paired (left or paused) 0;
- the colour history: the colours of the games played (a forfeit is not a game played);
- the float history: in a game played, a float down for the player who had more points
  before the round than the opponent, up for the other; in a round without a game played
  (a bye, a forfeit, a round not paired), a float down when the round scored more than a
  loss, none otherwise (C.04.3 A.4.b as bbpPairings reads it);
- the byes had: a player who had the pairing-allocated bye, or won by forfeit, does not get
  it again (FIDE C.04.1 d);
- the previous opponents: the games played (opponents of a forfeit may meet again).
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from caissify_pairings.engines.dutch import ColorPref, DutchEngine, DutchPlayer

from tournaments.dutch_matching import networkx_replaced
from tournaments.model import (
    Bye,
    ByeKind,
    Colour,
    Entrant,
    Game,
    Outcome,
    Round,
    check_entrants,
    check_rounds,
)
from tournaments.scores import SWISS


class NoLegalPairingError(ValueError):
    """No pairing of the round keeps the absolute criteria (FIDE C.04.3 C.1 to C.3: no
    two players meet twice, at most one pairing-allocated bye, and none to a player who
    had one): every pairing the players allow has been played, so the Swiss can go no
    further (a Swiss of more rounds than its players allow)."""


def _scaled(points: int) -> Fraction:
    """`points` of `scores.SWISS` on the pairing's scale, where a win is 1."""
    return Fraction(points, SWISS.win)


WIN = _scaled(SWISS.win)
LOSS = _scaled(SWISS.loss)
PAIRING_ALLOCATED_BYE = _scaled(SWISS.pairing_allocated_bye)
"""A pairing-allocated bye scores a win's points (FIDE C.04.1 c; docs/RULES.md, "Swiss")."""


@dataclass(frozen=True)
class _Record:
    """One round of one player, as the pairing reads it: the points scored, the colour of
    a game played, the opponent of a game played."""

    points: Fraction
    colour: Colour | None = None
    opponent: int | None = None
    forfeit_win: bool = False
    pairing_allocated_bye: bool = False


def game_points(outcome: Outcome, colour: Colour) -> Fraction:
    """The points `outcome` scores for the side `colour` on the pairing's scale: a win
    (played or by forfeit) 1, a draw 1/2, anything else 0 (`scores.SWISS`; FIDE C.04.1)."""
    return _scaled(SWISS.game_points(outcome, colour))


class _DutchEngine(DutchEngine):  # type: ignore[misc]
    """caissify_pairings 0.5.0's Dutch engine with the colour allocation of C.04.3 E read
    as bbpPairings reads it: "higher ranked" is by score, then pairing number (C.04.3
    A.2); the engine compares pairing numbers only, which gives the colour of a pair with
    different scores to the wrong player when E.4 or E.5 decides (tests/tournaments/
    test_swiss.py compares with bbpPairings). E.1 to E.3 are the engine's own. Its
    matchings are solved by `tournaments.matching`, not networkx
    (`tournaments.dutch_matching`): the same pairings, in seconds for 500 players where
    networkx did not finish a round in 11 minutes."""

    def _pair_iterative_mwm(self, all_players: list[DutchPlayer],
                            bye_candidates: set[int] | None = None
                            ) -> tuple[list[tuple[DutchPlayer, DutchPlayer]],
                                       list[DutchPlayer]]:
        with networkx_replaced():
            pairs: tuple[list[tuple[DutchPlayer, DutchPlayer]], list[DutchPlayer]] = (
                super()._pair_iterative_mwm(all_players, bye_candidates))
        return pairs

    def _assign_colors(self, p1: DutchPlayer, p2: DutchPlayer
                       ) -> tuple[DutchPlayer, DutchPlayer]:
        white, black = super()._assign_colors(p1, p2)
        if _decided_before_e4(p1, p2):
            return white, black
        higher, lower = sorted((p1, p2), key=lambda p: (-p.score, p.pairing_number))
        match higher.color_preference:
            case ColorPref.WHITE:
                return higher, lower
            case ColorPref.BLACK:
                return lower, higher
            case _:
                initial = (higher.pairing_number % 2 == 1) == (self.initial_color == "white")
                return (higher, lower) if initial else (lower, higher)


def _decided_before_e4(p1: DutchPlayer, p2: DutchPlayer) -> bool:
    """True when C.04.3 E.1, E.2 or E.3 allocates the pair's colours, as the engine
    applies them."""
    pref1, pref2 = p1.color_preference, p2.color_preference
    if ColorPref.NONE not in (pref1, pref2) and pref1 != pref2:
        return True
    strength1, strength2 = p1.preference_strength, p2.preference_strength
    if strength1 != strength2 and (p1 if strength1 > strength2 else p2).color_preference in (
            ColorPref.WHITE, ColorPref.BLACK):
        return True
    if strength1 == strength2 and strength1 > 0 and pref1 == pref2 and (
            p1.color_diff != p2.color_diff):
        return True
    return any(c1 != c2 for c1, c2 in zip(reversed(p1.color_hist), reversed(p2.color_hist),
                                          strict=False))


def _records(rounds: Sequence[Round]) -> dict[int, dict[int, _Record]]:
    """Each player's record per round number (rounds where the player does not appear are
    absent). Raises ValueError when a game of `rounds` has no outcome."""
    records: dict[int, dict[int, _Record]] = {}
    for round_ in rounds:
        for game in round_.games:
            if game.outcome is None:
                raise ValueError(f"round {round_.number} is not finished")
            for player in (game.white, game.black):
                colour = game.colour_of(player)
                points = game_points(game.outcome, colour)
                played = game.outcome.played
                records.setdefault(player, {})[round_.number] = _Record(
                    points=points,
                    colour=colour if played else None,
                    opponent=game.opponent_of(player) if played else None,
                    forfeit_win=not played and points == WIN,
                )
        for bye in round_.byes:
            allocated = bye.kind is ByeKind.PAIRING_ALLOCATED
            records.setdefault(bye.player, {})[round_.number] = _Record(
                points=PAIRING_ALLOCATED_BYE if allocated else LOSS,
                pairing_allocated_bye=allocated,
            )
    return records


def _engine_player(entrant: Entrant, history: dict[int, _Record],
                   scores: dict[int, list[Fraction]], number_of: dict[int, int],
                   before: int) -> dict[str, Any]:
    """The engine's description of `entrant` before round `before`. `scores[player][r]` is
    the player's score after round r (index 0: before round 1)."""
    colours: list[str] = []
    floats: list[str] = []
    byes = forfeit_wins = 0
    for number in range(1, before):
        record = history.get(number)
        if record is None:
            continue
        if record.opponent is None:
            floats.append("down" if record.points > LOSS else "none")
        else:
            own, theirs = scores[entrant.player][number - 1], scores[record.opponent][number - 1]
            floats.append("down" if own > theirs else "up" if own < theirs else "none")
        if record.colour is not None:
            colours.append(record.colour.value)
        byes += record.pairing_allocated_bye
        forfeit_wins += record.forfeit_win
    return {
        "id": number_of[entrant.player],
        "name": str(entrant.player),
        "score": float(scores[entrant.player][before - 1]),
        "rating": entrant.rating,
        "starting_number": entrant.number,
        "color_hist": colours,
        "float_history": floats,
        "bye_count": byes,
        "forfeit_win_count": forfeit_wins,
    }


def pair_swiss(entrants: Collection[Entrant], rounds: Sequence[Round], round_number: int,
               total_rounds: int, absent: Collection[int] = (),
               initial_colour: Colour = Colour.WHITE) -> Round:
    """Pair round `round_number` of a Swiss of `total_rounds` rounds by the FIDE Dutch
    system (FIDE Handbook C.04.3; docs/RULES.md, "Swiss").

    `entrants`: the players, with their pairing numbers; `rounds`: the rounds so far
    (1 .. round_number - 1, finished); `absent`: the players not to pair this round (left
    or paused: each gets a `ByeKind.NOT_PAIRED` bye); `initial_colour`: the colour of
    pairing number 1's side on board 1 in round 1 (C.04.3 E.5).

    Returns the round's `Round`: its games with colours and boards (board 1 the top
    pairing), the pairing-allocated bye when the count is odd (at most one; a player has
    it at most once), and the not-paired byes.

    Raises ValueError when `round_number` is not the round after `rounds`, is beyond
    `total_rounds`, a round of `rounds` is not finished, `absent` names a player who is
    not an entrant, and as `check_entrants` and `check_rounds` do (an entrant listed
    twice; a round given twice, a misfiled game or bye, a player twice in a round); the
    engine's own errors propagate. Raises `NoLegalPairingError` when no pairing keeps
    the absolute criteria (the engine then leaves several players, or one who had the bye,
    unpaired, or pairs two players again).
    """
    check_entrants(entrants)
    check_rounds(rounds)
    if [round_.number for round_ in rounds] != list(range(1, round_number)):
        raise ValueError(f"round {round_number} does not follow the rounds given")
    if not 1 <= round_number <= total_rounds:
        raise ValueError(f"round {round_number} is not in 1..{total_rounds}")
    number_of = {entrant.player: entrant.number for entrant in entrants}
    if not set(absent) <= number_of.keys():
        raise ValueError("an absent player is not an entrant")
    player_of = {number: player for player, number in number_of.items()}
    records = _records(rounds)
    scores: dict[int, list[Fraction]] = {}
    for player in number_of:
        running = [Fraction(0)]
        for number in range(1, round_number):
            record = records.get(player, {}).get(number)
            running.append(running[-1] + (record.points if record else LOSS))
        scores[player] = running
    previous = {
        (min(number_of[player], number_of[record.opponent]),
         max(number_of[player], number_of[record.opponent]))
        for player, history in records.items() for record in history.values()
        if record.opponent is not None
    }
    present = [entrant for entrant in entrants if entrant.player not in absent]
    players = [_engine_player(entrant, records.get(entrant.player, {}), scores, number_of,
                              round_number)
               for entrant in sorted(present, key=lambda entrant: entrant.number)]
    pairings: list[dict[str, Any]] = _DutchEngine(
        players=players, previous_pairings=previous, round_number=round_number,
        total_rounds=total_rounds, initial_color=initial_colour.value,
    ).generate_pairings() if players else []
    games: list[Game] = []
    byes: list[Bye] = []
    for pairing in sorted(pairings, key=lambda pairing: int(pairing["table"])):
        white = player_of[int(pairing["white_id"])]
        if pairing.get("bye") or pairing.get("black_id") is None:
            byes.append(Bye(round_number, white, ByeKind.PAIRING_ALLOCATED))
        else:
            games.append(Game(round_number, len(games) + 1, white,
                              player_of[int(pairing["black_id"])]))
    _check_legal(games, byes, previous, number_of, records, round_number)
    byes.extend(Bye(round_number, player, ByeKind.NOT_PAIRED)
                for player in sorted(absent, key=lambda player: number_of[player]))
    return Round(round_number, tuple(games), tuple(byes))


def _check_legal(games: Sequence[Game], byes: Sequence[Bye], previous: set[tuple[int, int]],
                 number_of: dict[int, int], records: dict[int, dict[int, _Record]],
                 round_number: int) -> None:
    """Raise `NoLegalPairingError` when the engine's round breaks an absolute criterion
    (FIDE C.04.3 C.1 to C.3): a rematch, more than one pairing-allocated bye, or the bye
    to a player who had one (or won by forfeit: FIDE C.04.1 d)."""
    rematches = [game for game in games
                 if (min(number_of[game.white], number_of[game.black]),
                     max(number_of[game.white], number_of[game.black])) in previous]
    again = [bye.player for bye in byes if any(
        record.pairing_allocated_bye or record.forfeit_win
        for record in records.get(bye.player, {}).values())]
    if rematches or len(byes) > 1 or again:
        raise NoLegalPairingError(f"round {round_number} has no legal pairing")
