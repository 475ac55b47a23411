"""Games as the bot stored them, read back from its SQLite database (read only).

The local mode draws its text boards from here, and the end-to-end tests compare what the
bot stored with what the engine says. The bot process writes the database; this side only
reads it (a second SQLite connection, which WAL allows while the bot writes).
"""

from __future__ import annotations

import asyncio
import os
from dataclasses import dataclass
from types import TracebackType

import engine
from engine import Position, get_variant
from storage import Database, GameRecord, MoveRecord
from storage.games import SqliteGameRepository


@dataclass(frozen=True)
class StoredGame:
    """A stored game: the database record, its moves, and the engine game they replay to
    (drawn by the engine's automatic rules exactly as the bot's own replay is)."""

    record: GameRecord
    moves: tuple[MoveRecord, ...]
    game: engine.Game

    @property
    def position(self) -> Position:
        """The position after the last stored move."""
        return self.game.position


class StoredGames:
    """Read games from the bot's database at `path` (opened on first use)."""

    def __init__(self, path: str | os.PathLike[str]) -> None:
        self.path = os.fspath(path)
        self._db: Database | None = None
        self._opening = asyncio.Lock()  # several loads may start at once

    async def _repository(self) -> SqliteGameRepository:
        async with self._opening:
            if self._db is None:
                self._db = await Database.open(self.path, verify=False)
        return SqliteGameRepository(self._db)

    async def load(self, game_id: int) -> StoredGame:
        """Game `game_id` with its moves replayed. Raises `storage.GameNotFoundError` when
        there is no such game, `engine.DamaError` when a stored move does not replay."""
        record, moves = await (await self._repository()).load(game_id)
        variant = get_variant(record.variant)
        game = engine.Game(variant, Position.from_fen(record.start_fen, variant))
        for move in moves:
            game.play(move.text)
        return StoredGame(record, tuple(moves), game)

    async def close(self) -> None:
        """Close the connection (if it was opened)."""
        if self._db is not None:
            await self._db.close()
            self._db = None

    async def __aenter__(self) -> StoredGames:
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        await self.close()
