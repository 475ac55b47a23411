"""The puzzle bank: one JSON file per variant under `puzzles/data/`, written by the mining
command and read by the bot.

File shape (`puzzles/data/<variant key>.json`)::

    {"variant": "italian", "settings": {...mining settings...},
     "sources_done": ["pdn:<file>#<game>", "self-play:<level>:<seed>", ...],
     "puzzles": [{"id": ..., "fen": ..., "solution": ["c3xe5", ...], ...}, ...]}

`sources_done` lets an interrupted or extended run carry on where it stopped (the command
appends, it never mines a source twice).
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from engine import VARIANTS, Move, Position, Variant, get_variant, parse_move
from engine.movegen import play_unchecked

DATA = Path(__file__).resolve().parent / "data"


@dataclass(frozen=True, slots=True)
class PuzzleSource:
    """Where a puzzle was found. `kind`: "pdn" (a recorded game) or "self-play" (a game the
    computer played against itself). `name`: the PDN file name and game number, or the
    self-play level and seed. `ply`: the puzzle's position is the one after this many
    plies of that game. `detail`: free text (the players and event of a recorded game)."""

    kind: str
    name: str
    ply: int
    detail: str = ""


@dataclass(frozen=True, slots=True)
class Puzzle:
    """One puzzle.

    id: stable identifier (variant key and a hash of the position). fen: the position
    (the engine's FEN), the solver is the side to move. solution: the forced line in full
    move text, the solver's moves at even indexes and the forced defence at odd ones.
    rating: the puzzle's initial rating (Glicko-2 scale). score: the search's value of the
    first move for the solver (a man = 100; beyond 99000 a forced win). runner_up: the
    value of the best other first move. verify_depth: the depth of the search that
    verified every solver move (deeper than the line). source: where it was found.
    themes: what the line achieves (`puzzles.mining.Theme` values: "material", and
    "crowning" when the solver crowns a man on the way, "win" when the defender is left
    without a move). score and runner_up are material gains counted by
    `puzzles.material` (kings at the variant's value) for banks mined or filtered by the
    material criterion (the bank's settings say `"criterion": "material"`).
    """

    id: str
    variant: str
    fen: str
    solution: tuple[str, ...]
    rating: int
    score: int
    runner_up: int
    verify_depth: int
    source: PuzzleSource
    themes: tuple[str, ...] = ("material",)

    @property
    def solver_moves(self) -> int:
        """How many moves the solver has to find."""
        return (len(self.solution) + 1) // 2

    def position(self) -> Position:
        """The puzzle's start position."""
        return Position.from_fen(self.fen, get_variant(self.variant))

    def line(self) -> list[tuple[Position, Move]]:
        """Each position of the solution with the move played from it."""
        variant = get_variant(self.variant)
        pos = self.position()
        out: list[tuple[Position, Move]] = []
        for text in self.solution:
            move = parse_move(text, pos, variant)
            out.append((pos, move))
            pos = play_unchecked(pos, move, variant)
        return out

    def to_json(self) -> dict[str, Any]:
        """The puzzle as the bank file stores it."""
        return {
            "id": self.id, "fen": self.fen, "solution": list(self.solution),
            "rating": self.rating, "score": self.score, "runner_up": self.runner_up,
            "verify_depth": self.verify_depth, "themes": list(self.themes),
            "source": {"kind": self.source.kind, "name": self.source.name,
                       "ply": self.source.ply, "detail": self.source.detail},
        }

    @classmethod
    def from_json(cls, variant: str, data: Mapping[str, Any]) -> Puzzle:
        """A puzzle read from a bank file's entry; raises KeyError or ValueError when an
        entry lacks a field or holds a wrong type."""
        src = data["source"]
        return cls(
            id=str(data["id"]), variant=variant, fen=str(data["fen"]),
            solution=tuple(str(m) for m in data["solution"]), rating=int(data["rating"]),
            score=int(data["score"]), runner_up=int(data["runner_up"]),
            verify_depth=int(data["verify_depth"]),
            source=PuzzleSource(str(src["kind"]), str(src["name"]), int(src["ply"]),
                                str(src.get("detail", ""))),
            themes=tuple(str(t) for t in data.get("themes", ("material",))),
        )


def _mirror_files(bb: int, size: int) -> int:
    """`bb` reflected left-right on the `size` × `size` board (file f to file size-1-f)."""
    out = 0
    while bb:
        low = bb & -bb
        sq = low.bit_length() - 1
        file = sq % size
        out |= 1 << (sq - file + size - 1 - file)
        bb ^= low
    return out


def images(position: Position) -> frozenset[Position]:
    """`position` and its mirror images, on its own board (8×8 or 10×10): turned 180
    degrees with the colours swapped (the same position seen by the other side), reflected
    left-right, and both. Two puzzles whose positions share an image are the same puzzle,
    across the variants too (docs/PUZZLES.md).

    Reflected left-right, the orthogonal board is itself; on a diagonal board (of even
    size) the pieces land on the other colour of squares: no position of the same
    variant, but the same picture mirrored on a board of the other corner colour (a
    Russian position, a1 dark, reflected is a position of Moroccan or Italian draughts,
    a1 light: `Variant.a1_dark`). Positions on boards of different sizes never match."""
    size = position.board_size
    mirrored = Position(_mirror_files(position.white_men, size),
                        _mirror_files(position.white_kings, size),
                        _mirror_files(position.black_men, size),
                        _mirror_files(position.black_kings, size), position.turn, size)
    return frozenset({position, position.flipped(), mirrored, mirrored.flipped()})


def puzzle_id(variant: Variant, fen: str) -> str:
    """A stable id for the puzzle at `fen`: the variant's key and 10 hex digits of a hash."""
    digest = hashlib.sha256(f"{variant.key}|{fen}".encode()).hexdigest()[:10]
    return f"{variant.key}-{digest}"


@dataclass(slots=True)
class BankFile:
    """A bank file being mined: its puzzles and the sources already mined."""

    variant: str
    puzzles: list[Puzzle]
    sources_done: list[str]
    settings: dict[str, Any]

    @classmethod
    def read(cls, path: Path, variant: Variant) -> BankFile:
        """The bank at `path`, or an empty one when the file does not exist. Raises
        ValueError when the file is for another variant."""
        if not path.exists():
            return cls(variant.key, [], [], {})
        data = json.loads(path.read_text(encoding="utf-8"))
        if data.get("variant") != variant.key:
            raise ValueError(f"{path} holds {data.get('variant')!r} puzzles, not {variant.key}")
        return cls(
            variant.key, [Puzzle.from_json(variant.key, p) for p in data["puzzles"]],
            [str(s) for s in data.get("sources_done", [])], dict(data.get("settings", {})),
        )

    def write(self, path: Path) -> None:
        """Write the bank to `path` atomically (a temporary file, then a rename)."""
        data = {
            "variant": self.variant, "settings": self.settings,
            "sources_done": self.sources_done,
            "puzzles": [p.to_json() for p in self.puzzles],
        }
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(path.suffix + ".tmp")
        tmp.write_text(json.dumps(data, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
        os.replace(tmp, path)


def bank_path(variant: Variant) -> Path:
    """Where the shipped bank of `variant` lives."""
    return DATA / f"{variant.key}.json"


@lru_cache(maxsize=8)
def load_bank(variant_key: str) -> tuple[Puzzle, ...]:
    """The shipped puzzles of the variant keyed `variant_key` (empty when none were mined).
    Raises UnknownVariantError for an unknown key."""
    variant = get_variant(variant_key)
    return tuple(BankFile.read(bank_path(variant), variant).puzzles)


def taken_elsewhere(variant: Variant, *, earlier_only: bool) -> frozenset[Position]:
    """Every image (`images`) of the puzzles in the shipped banks of the other variants,
    or only of the variants listed before `variant` in `engine.VARIANTS` when
    `earlier_only` (the order in which banks claim a position shared between them)."""
    out: set[Position] = set()
    for key in VARIANTS:
        if key == variant.key:
            if earlier_only:
                break
            continue
        for puzzle in load_bank(key):
            out |= images(puzzle.position())
    return frozenset(out)


def by_id(puzzles: Sequence[Puzzle]) -> dict[str, Puzzle]:
    """The puzzles keyed by id."""
    return {p.id: p for p in puzzles}
