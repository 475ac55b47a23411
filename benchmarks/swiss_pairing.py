"""Swiss pairing speed: the time `tournaments.swiss.pair_swiss` takes per round.

Run from the repository root: `python benchmarks/swiss_pairing.py [players ...]` (default
50, 200 and 500 players, 11 rounds each: a few minutes on the loaded 2-core machine,
most of it the 500 players). Each field is a Swiss of 11 rounds with random results
(white wins, draws, black wins alike); prints each round's time, the mean and the worst
round's, and, when bbpPairings is at /work/wt/_bbp/bbpPairings.exe (a local build, never
part of the repository), its `-p` time on the same rounds (from the TRF our writer makes),
the ratio, and in how many rounds the pairings were identical; without it, says so and
times ours alone.
"""

from __future__ import annotations

import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tournaments.model import Entrant, Game, Outcome, Round
from tournaments.swiss import pair_swiss
from tournaments.trf import tournament_to_trf, write_trf

ROUNDS = 11
FIELDS = (50, 200, 500)
BBP = Path("/work/wt/_bbp/bbpPairings.exe")
OUTCOMES = (Outcome.WHITE_WINS, Outcome.DRAW, Outcome.BLACK_WINS)


def _bbp_pairs(entrants: list[Entrant], rounds: list[Round],
               folder: Path) -> tuple[float, set[tuple[int, int]]]:
    """bbpPairings' time to pair the round after `rounds` (process start included), and
    its pairs (white, black; black 0 for the pairing-allocated bye)."""
    trf = folder / "swiss.trf"
    trf.write_text(write_trf(tournament_to_trf("benchmark", entrants, rounds, ROUNDS)))
    start = time.perf_counter()
    subprocess.run([str(BBP), "--dutch", str(trf), "-p", str(folder / "pairs.txt")],
                   check=True, capture_output=True)
    seconds = time.perf_counter() - start
    lines = (folder / "pairs.txt").read_text().split("\n")[1:]
    pairs = {(int(line.split()[0]), int(line.split()[1])) for line in lines if line.strip()}
    return seconds, pairs


def run(players: int, seed: int = 1) -> None:
    """Plays a Swiss of `players` players and prints the pairing times."""
    rng = random.Random(seed)
    entrants = [Entrant(player=number, rating=2400 - 3 * number, number=number)
                for number in range(1, players + 1)]
    rounds: list[Round] = []
    ours: list[float] = []
    theirs: list[float] = []
    same = 0
    with tempfile.TemporaryDirectory() as folder:
        for number in range(1, ROUNDS + 1):
            expected: set[tuple[int, int]] = set()
            if BBP.exists():
                seconds, expected = _bbp_pairs(entrants, rounds, Path(folder))
                theirs.append(seconds)
            start = time.perf_counter()
            paired = pair_swiss(entrants, rounds, number, ROUNDS)
            ours.append(time.perf_counter() - start)
            got = {(game.white, game.black) for game in paired.games}
            same += got | {(bye.player, 0) for bye in paired.byes} == expected
            games = tuple(Game(game.round, game.board, game.white, game.black,
                               rng.choice(OUTCOMES)) for game in paired.games)
            rounds.append(Round(number, games, paired.byes))
    worst = max(range(ROUNDS), key=lambda index: ours[index])
    print(f"{players} players, {ROUNDS} rounds: pair_swiss per round "
          + ", ".join(f"{seconds:.2f}" for seconds in ours) + " s")
    print(f"  mean "
          f"{statistics.fmean(ours):.2f} s a round, worst round {worst + 1} "
          f"{ours[worst]:.2f} s, all rounds {sum(ours):.1f} s")
    if theirs:
        print(f"  bbpPairings -p: mean {statistics.fmean(theirs) * 1000:.0f} ms a round, "
              f"worst {max(theirs) * 1000:.0f} ms; pair_swiss / bbpPairings "
              f"{sum(ours) / sum(theirs):.0f}x; identical pairings in {same} of {ROUNDS} rounds")
    else:
        print(f"  bbpPairings not found at {BBP}: no comparison")


def main() -> None:
    fields = [int(arg) for arg in sys.argv[1:]] or list(FIELDS)
    for players in fields:
        run(players)


if __name__ == "__main__":
    main()
