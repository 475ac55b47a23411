"""An arena's scores and standings, by lichess's arena rules (docs/RULES.md,
"Tournaments", "Arena").

In: the entrants, the arena's finished games (`ArenaGame`: a `Game` with its end time and
its length in moves) in the order they ended, the arena's `ArenaRules` and its end time.
Out: each player's `ArenaSheet` (the points of each game, in order, and the streak state)
and the standings (`ArenaStanding` rows, ranked). Pure functions: no storage, no clock.
"""

from __future__ import annotations

import enum
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import assert_never

from tournaments.model import Entrant, Game, check_entrants

#: lichess's performance: each game counts the opponent's rating plus this for a win,
#: minus it for a loss (docs/RULES.md, "Arena").
PERFORMANCE_SPREAD = 500


@dataclass(frozen=True)
class ArenaRules:
    """The settings of an arena's scoring and pairing (docs/RULES.md, "Arena").

    `streaks`: lichess's "Arena streaks" option (on by default): after two wins in a row,
    wins and draws count double until a game is not won. `quick_draw_moves`: a draw in
    fewer moves than this scores nothing for either player (lichess: 10). `long_game_moves`:
    a draw of at least this many moves is never nullified by the draw-streak rule (lichess:
    30 in standard chess). `pairing_wait`: how long a free player waits before a pairing is
    made, so that more players come free (docs/RULES.md, "Arena", a decision).
    `pairings_closed_before_end`: no new pairing in this last stretch of the arena (lichess:
    half the initial clock time, at least 30 seconds, at most 2 minutes; see
    `pairings_closed_before_end`).
    """

    streaks: bool = True
    quick_draw_moves: int = 10
    long_game_moves: int = 30
    pairing_wait: timedelta = timedelta(seconds=10)
    pairings_closed_before_end: timedelta = timedelta(seconds=30)


def pairings_closed_before_end(initial_time: timedelta) -> timedelta:
    """lichess's last stretch of an arena without new pairings, for games of
    `initial_time` on the clock: half of it, at least 30 seconds, at most 2 minutes."""
    return max(timedelta(seconds=30), min(initial_time / 2, timedelta(minutes=2)))


@dataclass(frozen=True)
class ArenaGame:
    """A finished arena game: the `Game` (its outcome set), when it ended, and how many
    moves it lasted (a move is one turn of each side; None when unknown, which counts as
    a long game). Raises ValueError when the game has no outcome or `moves` is negative."""

    game: Game
    ended_at: datetime
    moves: int | None = None

    def __post_init__(self) -> None:
        if self.game.outcome is None:
            raise ValueError("an arena game in the scores must have its outcome")
        if self.moves is not None and self.moves < 0:
            raise ValueError("moves cannot be negative")


class Result(enum.Enum):
    """One game's result for one player, as the score sheet sees it. A quick draw (fewer
    moves than `ArenaRules.quick_draw_moves`) is neither a draw nor a loss: it scores
    nothing and breaks a streak."""

    WIN = "win"
    DRAW = "draw"
    QUICK_DRAW = "quick draw"
    LOSS = "loss"


@dataclass(frozen=True)
class ArenaSheet:
    """A player's score sheet: `results` and `points` per game in the order the games
    ended; `on_fire` is True when the last two results are wins (the next win or draw
    counts double, when streaks are on)."""

    player: int
    results: tuple[Result, ...] = ()
    points: tuple[int, ...] = ()

    @property
    def score(self) -> int:
        return sum(self.points)

    @property
    def on_fire(self) -> bool:
        return len(self.results) >= 2 and self.results[-1] is self.results[-2] is Result.WIN

    def _in_draw_streak(self) -> bool:
        """True when the last result that is not a loss is a draw (of any length): then
        a short draw scores nothing (lichess's draw-streak rule)."""
        for result in reversed(self.results):
            match result:
                case Result.LOSS:
                    continue
                case Result.DRAW | Result.QUICK_DRAW:
                    return True
                case Result.WIN:
                    return False
                case _:
                    assert_never(result)
        return False

    def add(self, result: Result, moves: int | None, rules: ArenaRules) -> ArenaSheet:
        """The sheet after one more game of `result` lasting `moves` moves."""
        double = rules.streaks and self.on_fire
        match result:
            case Result.WIN:
                points = 4 if double else 2
            case Result.DRAW:
                long_game = moves is None or moves >= rules.long_game_moves
                if double:
                    points = 2
                elif not long_game and self._in_draw_streak():
                    points = 0
                else:
                    points = 1
            case Result.QUICK_DRAW | Result.LOSS:
                points = 0
            case _:
                assert_never(result)
        return ArenaSheet(self.player, (*self.results, result), (*self.points, points))


def result_of(player: int, finished: ArenaGame, rules: ArenaRules) -> Result:
    """`player`'s result in `finished`. A forfeit scores as a win for the player who
    moved and a loss for the one who did not (lichess: failing to make a first move
    forfeits the game to the opponent); a double forfeit is a loss for both. Raises
    ValueError when `player` did not play in the game."""
    game = finished.game
    colour = game.colour_of(player)
    assert game.outcome is not None
    winner = game.outcome.winner()
    if winner is None:
        if not game.outcome.played:
            return Result.LOSS
        if finished.moves is not None and finished.moves < rules.quick_draw_moves:
            return Result.QUICK_DRAW
        return Result.DRAW
    return Result.WIN if winner is colour else Result.LOSS


def counted(games: Iterable[ArenaGame], end: datetime) -> list[ArenaGame]:
    """The games that count: those that ended at or before `end` (lichess: games in
    progress when the countdown reaches zero must be finished but do not count)."""
    return [finished for finished in games if finished.ended_at <= end]


def sheets(
    entrants: Sequence[Entrant],
    games: Sequence[ArenaGame],
    rules: ArenaRules,
    end: datetime,
) -> dict[int, ArenaSheet]:
    """Each entrant's sheet from `games` (in the order they ended) that count by `end`.
    Raises ValueError when a game has a player who is not an entrant."""
    by_player = {entrant.player: ArenaSheet(entrant.player) for entrant in entrants}
    for finished in sorted(counted(games, end), key=lambda g: g.ended_at):
        for player in (finished.game.white, finished.game.black):
            if player not in by_player:
                raise ValueError(f"player {player} is not an entrant")
            result = result_of(player, finished, rules)
            by_player[player] = by_player[player].add(result, finished.moves, rules)
    return by_player


@dataclass(frozen=True)
class ArenaStanding:
    """One row of an arena's standings: `rank` from 1; `performance` is lichess's
    performance rating over the games played (None before any); `on_fire` the streak
    state (always False in an arena without streaks); `points` each game's points in
    order."""

    rank: int
    player: int
    score: int
    performance: int | None
    games: int
    wins: int
    on_fire: bool
    points: tuple[int, ...]


def performances(games: Iterable[ArenaGame], ratings: Mapping[int, int]) -> dict[int, int]:
    """Each player's performance rating over the played games among `games`: the mean of
    the opponent's rating plus `PERFORMANCE_SPREAD` for a win, minus it for a loss, plus
    nothing for a draw (lichess's arena performance); forfeits are not games played. A
    player with no game played has no entry. One pass over the games."""
    totals: dict[int, int] = {}
    counts: dict[int, int] = {}
    for finished in games:
        game = finished.game
        assert game.outcome is not None
        if not game.outcome.played:
            continue
        winner = game.outcome.winner()
        for player in (game.white, game.black):
            spread = (
                0
                if winner is None
                else (PERFORMANCE_SPREAD if winner is game.colour_of(player)
                      else -PERFORMANCE_SPREAD)
            )
            totals[player] = totals.get(player, 0) + ratings[game.opponent_of(player)] + spread
            counts[player] = counts.get(player, 0) + 1
    return {player: round(total / counts[player]) for player, total in totals.items()}


def performance(player: int, games: Sequence[ArenaGame], ratings: dict[int, int]) -> int | None:
    """`player`'s performance rating over the played games among `games`
    (`performances`); None when no game was played."""
    return performances(games, ratings).get(player)


def standings(
    entrants: Sequence[Entrant],
    games: Sequence[ArenaGame],
    rules: ArenaRules,
    end: datetime,
) -> tuple[ArenaStanding, ...]:
    """The standings from `games` that count by `end`: by score, then performance (the
    rating for a player with no game played yet, as lichess ranks), then pairing number,
    so the order is total. Ranks are 1, 2, 3 ... with no shared rank. Raises ValueError
    as `sheets` does, and when two entrants share a player id or a pairing number."""
    check_entrants(entrants)
    by_player = sheets(entrants, games, rules, end)
    ratings = {entrant.player: entrant.rating for entrant in entrants}
    performed = performances(counted(games, end), ratings)
    rows = []
    for entrant in entrants:
        sheet = by_player[entrant.player]
        rows.append((entrant, sheet, performed.get(entrant.player)))

    def key(row: tuple[Entrant, ArenaSheet, int | None]) -> tuple[int, int, int]:
        entrant, sheet, perf = row
        return (-sheet.score, -(entrant.rating if perf is None else perf), entrant.number)

    rows.sort(key=key)
    return tuple(
        ArenaStanding(
            rank=index,
            player=entrant.player,
            score=sheet.score,
            performance=perf,
            games=len(sheet.results),
            wins=sheet.results.count(Result.WIN),
            on_fire=rules.streaks and sheet.on_fire,
            points=sheet.points,
        )
        for index, (entrant, sheet, perf) in enumerate(rows, start=1)
    )
