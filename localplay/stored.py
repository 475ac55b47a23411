"""Games as the bot stored them, read back from its SQLite database (read only).

The local mode draws its text boards from here, and names the players the bot stored whom
this run has not seen (a game of an earlier run); the end-to-end tests compare what the
bot stored with what the engine says. The bot process writes the database; this side only
reads it, through storage's public API (`Storage.open(..., read_only=True)`: a second,
read-only SQLite connection, which WAL allows while the bot writes), and replays each game
with the engine's `Game.replay`, the replay the bot itself uses.
"""

from __future__ import annotations

import asyncio
import os
from dataclasses import dataclass
from types import TracebackType

import engine
from engine import Position
from storage import GameRecord, MoveRecord, Storage


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
    """Read games from the bot's database at `path` (opened read-only on first use, so the
    bot must have created it by then)."""

    def __init__(self, path: str | os.PathLike[str]) -> None:
        self.path = os.fspath(path)
        self._storage: Storage | None = None
        self._opening = asyncio.Lock()  # several loads may start at once

    async def _open(self) -> Storage:
        async with self._opening:
            if self._storage is None:
                self._storage = await Storage.open(self.path, verify=False, read_only=True)
        return self._storage

    async def load(self, game_id: int) -> StoredGame:
        """Game `game_id` with its moves replayed. Raises `storage.GameNotFoundError` when
        there is no such game, `engine.DamaError` when a stored move does not replay,
        `storage.StorageError` when the database cannot be read (see `Storage.open`)."""
        record, moves = await (await self._open()).games.load(game_id)
        game = engine.Game.replay(record.variant, record.start_fen, (m.text for m in moves))
        return StoredGame(record, tuple(moves), game)

    async def active_for(self, user_id: int) -> list[GameRecord]:
        """The user's games under way, oldest first. Raises `storage.StorageError` when
        the database cannot be read."""
        return await (await self._open()).games.active_for_user(user_id)

    async def player_name(self, user_id: int) -> str | None:
        """The name the bot last stored for the user (None: none stored, or no such
        user). Raises `storage.StorageError` when the database cannot be read."""
        player = await (await self._open()).players.get(user_id)
        return None if player is None else player.display_name

    async def close(self) -> None:
        """Close the connection (if it was opened)."""
        if self._storage is not None:
            await self._storage.close()
            self._storage = None

    async def __aenter__(self) -> StoredGames:
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        await self.close()
