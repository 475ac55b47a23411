"""Puzzles: positions where the side to move wins at least a man by force, mined from games
and verified by material (`puzzles.material`), and the bank of them shipped with the
project.

`puzzles.mining` finds and verifies puzzles; `puzzles.material` is the material-only
search it judges by; `puzzles.bank` reads and writes the bank
(`puzzles/data/<variant>.json`); `python -m puzzles mine ...` is the mining command and
`python -m puzzles filter ...` verifies a bank again (docs/PUZZLES.md). Imports the
engine and the standard library only.
"""

from puzzles.bank import Puzzle, PuzzleSource, load_bank
from puzzles.mining import MiningSettings, Rejection, Theme, verify_puzzle

__all__ = ["MiningSettings", "Puzzle", "PuzzleSource", "Rejection", "Theme", "load_bank",
           "verify_puzzle"]
