"""Arena speed: the time the arena's pairing and standings take with 200 players.

Run from the repository root: `python benchmarks/arena.py [--players 200] [--minutes 60]`
(about a minute). A simulated arena (no clock waits: simulated time moves in ticks of
`TICK`): every player joins at the start; each game lasts a random 1 to 6 minutes and
ends in a win for either side or a draw (a few quick draws of fewer than 10 moves among
them); at each tick the arena is asked for its next pairing, as the bot asks whenever a
game ends or a player waits (`tournaments.arena_pairing.pair`: the standings, the
colour histories, the last opponents, the pairing of the free players), and after each
game's end the standings are computed (`tournaments.arena_scores.standings`), as the
bot does to post them. Prints, for each, the number of calls and their p50, p99 and
worst time, and the games played. No peer is named for the arena: lichess's pairing is
a Scala service that is not run here.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tournaments.arena_pairing import pair
from tournaments.arena_scores import ArenaGame, ArenaRules, standings
from tournaments.model import Entrant, Game, Outcome, Round

TICK = timedelta(seconds=2)
START = datetime(2026, 12, 6, 18, 0, tzinfo=UTC)
OUTCOMES = (Outcome.WHITE_WINS, Outcome.DRAW, Outcome.BLACK_WINS)


def percentile(values: list[float], q: float) -> float:
    """The `q` quantile (0-1) of `values`, nearest rank."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def report(name: str, seconds: list[float]) -> None:
    """One line: how many calls, p50, p99 and the worst, in milliseconds."""
    ms = [1000 * s for s in seconds]
    print(f"{name:<24} {len(ms):>6} calls  p50 {statistics.median(ms):8.2f} ms  "
          f"p99 {percentile(ms, 0.99):8.2f} ms  worst {max(ms):8.2f} ms")


def run(players: int, minutes: int, seed: int = 1) -> None:
    """Plays a simulated arena of `players` for `minutes` and prints the times."""
    rng = random.Random(seed)
    rules = ArenaRules()
    entrants = [Entrant(player=n, rating=rng.randint(1200, 2200), number=n)
                for n in range(1, players + 1)]
    end = START + timedelta(minutes=minutes)
    rounds: list[Round] = []
    finished: list[ArenaGame] = []
    free_since = {entrant.player: START for entrant in entrants}
    under_way: list[tuple[datetime, Game, int]] = []  # (ends at, game, moves)
    pairing: list[float] = []
    ranking: list[float] = []
    now = START
    while now < end:
        for ends_at, game, moves in [g for g in under_way if g[0] <= now]:
            under_way.remove((ends_at, game, moves))
            outcome = rng.choice(OUTCOMES)
            finished.append(ArenaGame(Game(game.round, game.board, game.white, game.black,
                                           outcome), ends_at, moves))
            free_since[game.white] = free_since[game.black] = ends_at
            started = time.perf_counter()
            standings(entrants, finished, rules, now)
            ranking.append(time.perf_counter() - started)
        started = time.perf_counter()
        new = pair(entrants, rounds, finished, free_since, frozenset(), now, end, rules, seed)
        pairing.append(time.perf_counter() - started)
        if new is not None:
            rounds.append(new)
            for game in new.games:
                del free_since[game.white], free_since[game.black]
                length = timedelta(seconds=rng.randint(60, 360))
                moves = rng.randint(5, 9) if rng.random() < 0.05 else rng.randint(20, 60)
                under_way.append((now + length, game, moves))
        now += TICK
    print(f"arena of {players} players, {minutes} simulated minutes: {len(finished)} games "
          f"finished, {len(rounds)} pairings made")
    report("pairing (each tick)", pairing)
    report("standings (each end)", ranking)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=200)
    parser.add_argument("--minutes", type=int, default=60)
    args = parser.parse_args()
    run(args.players, args.minutes)


if __name__ == "__main__":
    main()
