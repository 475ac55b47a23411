"""The values every format shares: who plays (`Entrant`), what was paired in each round
(`Game`, `Bye`, `Round`) and how each game ended (`Outcome`). Plain frozen values; the
rules that read them are in the other modules (docs/RULES.md, "Tournaments")."""

from __future__ import annotations

import enum
from collections.abc import Iterable
from dataclasses import dataclass


class Format(enum.Enum):
    """A tournament's format (docs/RULES.md, "Tournaments")."""

    ARENA = "arena"
    SWISS = "swiss"
    ROUND_ROBIN = "round robin"


class Colour(enum.Enum):
    """The side a player had in a game. White moves first in every variant's tournament
    records, as in the games' own records (docs/RULES.md, "Coordinates and notation")."""

    WHITE = "white"
    BLACK = "black"

    @property
    def other(self) -> Colour:
        return Colour.BLACK if self is Colour.WHITE else Colour.WHITE


class Outcome(enum.Enum):
    """How a paired game ended. A forfeit is a game not played (a player never moved, or
    was removed before the game began): it scores like a win or a loss but is not a game
    played for pairing and tie-breaks (docs/RULES.md, "Tournaments"). The TRF codes of
    each side follow FIDE's TRF format."""

    WHITE_WINS = "1-0"
    DRAW = "1/2-1/2"
    BLACK_WINS = "0-1"
    WHITE_WINS_BY_FORFEIT = "+/-"
    BLACK_WINS_BY_FORFEIT = "-/+"
    DOUBLE_FORFEIT = "-/-"

    @property
    def played(self) -> bool:
        """True when the game was played (not a forfeit)."""
        return self in (Outcome.WHITE_WINS, Outcome.DRAW, Outcome.BLACK_WINS)

    def winner(self) -> Colour | None:
        """The side that scores the win, None for a draw or a double forfeit."""
        if self in (Outcome.WHITE_WINS, Outcome.WHITE_WINS_BY_FORFEIT):
            return Colour.WHITE
        if self in (Outcome.BLACK_WINS, Outcome.BLACK_WINS_BY_FORFEIT):
            return Colour.BLACK
        return None


class ByeKind(enum.Enum):
    """A round a player was in the tournament but had no opponent: the pairing-allocated
    bye of an odd count (TRF code U), or not paired at all because they had left or were
    paused (TRF code Z, zero points)."""

    PAIRING_ALLOCATED = "U"
    NOT_PAIRED = "Z"


@dataclass(frozen=True)
class Entrant:
    """A player of the tournament: `player` is the player's id (the Discord user id),
    `rating` the rating when the tournament started, `number` the pairing number (1 for
    the highest rating; docs/RULES.md, "Tournaments")."""

    player: int
    rating: int
    number: int


def check_entrants(entrants: Iterable[Entrant]) -> None:
    """Raises ValueError when two entrants have the same player id or the same pairing
    number: a player is entered once, and a pairing number names one player."""
    players: set[int] = set()
    numbers: set[int] = set()
    for entrant in entrants:
        if entrant.player in players:
            raise ValueError(f"player {entrant.player} is listed twice among the entrants")
        if entrant.number in numbers:
            raise ValueError(f"pairing number {entrant.number} is listed twice among the entrants")
        players.add(entrant.player)
        numbers.add(entrant.number)


@dataclass(frozen=True)
class Game:
    """One game of a round: `board` counts from 1; `outcome` is None while the game is
    under way. Raises ValueError when `white` and `black` are the same player."""

    round: int
    board: int
    white: int
    black: int
    outcome: Outcome | None = None

    def __post_init__(self) -> None:
        if self.white == self.black:
            raise ValueError(f"player {self.white} cannot play themselves")

    def colour_of(self, player: int) -> Colour:
        """The side `player` had. Raises ValueError when `player` is neither."""
        if player == self.white:
            return Colour.WHITE
        if player == self.black:
            return Colour.BLACK
        raise ValueError(f"player {player} is not in this game")

    def opponent_of(self, player: int) -> int:
        """The other player. Raises ValueError when `player` is neither."""
        return self.black if self.colour_of(player) is Colour.WHITE else self.white


@dataclass(frozen=True)
class Bye:
    """A player with no opponent in a round (`ByeKind`)."""

    round: int
    player: int
    kind: ByeKind


@dataclass(frozen=True)
class Round:
    """One round's games and byes, numbered from 1. In an arena, a round is one pairing
    of the players free at that moment."""

    number: int
    games: tuple[Game, ...]
    byes: tuple[Bye, ...] = ()

    @property
    def finished(self) -> bool:
        """True when every game has its outcome."""
        return all(game.outcome is not None for game in self.games)


def check_rounds(rounds: Iterable[Round]) -> None:
    """Raises ValueError when two rounds have the same number, a round holds a game or
    bye of another round, or a player is named twice in one round (in two games, or in a
    game and a bye): each round is given once, and a player has one game or one bye in
    it."""
    numbers: set[int] = set()
    for round_ in rounds:
        if round_.number in numbers:
            raise ValueError(f"round {round_.number} is given twice")
        numbers.add(round_.number)
        filed = {game.round for game in round_.games} | {bye.round for bye in round_.byes}
        misfiled = sorted(filed - {round_.number})
        if misfiled:
            raise ValueError(
                f"a game or bye of round {misfiled[0]} is filed under round {round_.number}"
            )
        named: set[int] = set()
        players = [p for game in round_.games for p in (game.white, game.black)]
        for player in (*players, *(bye.player for bye in round_.byes)):
            if player in named:
                raise ValueError(f"player {player} is named twice in round {round_.number}")
            named.add(player)
