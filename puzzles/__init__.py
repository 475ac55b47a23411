"""Puzzles: positions where the side to move has a winning shot, mined from games and
verified by the engine's search, and the banks of them shipped with the project
(`puzzles/data/<variant>.json`); `python -m puzzles mine ...` is the mining command
(docs/PUZZLES.md). Imports the engine and the standard library only.
"""

from puzzles.bank import Puzzle, PuzzleSource, load_bank
from puzzles.mining import MiningSettings, Rejection, verify_puzzle

__all__ = ["MiningSettings", "Puzzle", "PuzzleSource", "Rejection", "load_bank", "verify_puzzle"]
