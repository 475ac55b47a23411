"""Concurrency: 200 games appending moves at once from one event loop lose nothing and never
see "database is locked"; a second connection to the same file waits its turn."""

from __future__ import annotations

import asyncio
from pathlib import Path

from storage import NewGame, Seat, Storage

GAMES = 200
MOVES = 12


async def _play(storage: Storage, game_id: int, moves: int) -> None:
    for ply in range(1, moves + 1):
        await storage.games.append_move(game_id, ply=ply, text=f"g{game_id}p{ply}")
        if ply % 4 == 0:
            await storage.games.load(game_id)  # readers interleaved with the writers
            await asyncio.sleep(0)


async def _check(storage: Storage, game_ids: list[int], moves: int) -> None:
    for game_id in game_ids:
        game, records = await storage.games.load(game_id)
        assert game.ply_count == moves
        assert [(m.ply, m.text) for m in records] == [
            (ply, f"g{game_id}p{ply}") for ply in range(1, moves + 1)]


async def _create(storage: Storage, channels: range) -> list[int]:
    return [
        (await storage.games.create(NewGame("moroccan", channel, 1, Seat.human(channel),
                                            Seat.computer(1), "W:Wa2:Ba7"))).id
        for channel in channels
    ]


async def test_200_games_concurrently(tmp_path: Path) -> None:
    storage = await Storage.open(tmp_path / "dama.sqlite3")
    try:
        game_ids = await _create(storage, range(GAMES))
        results = await asyncio.gather(*(_play(storage, g, MOVES) for g in game_ids),
                                       return_exceptions=True)
        errors = [r for r in results if isinstance(r, BaseException)]
        assert not errors, errors[:3]
        await _check(storage, game_ids, MOVES)
        assert await storage.db.integrity_check() == ["ok"]
    finally:
        await storage.close()


async def test_two_connections_share_the_file(tmp_path: Path) -> None:
    """Two `Storage` objects (two connections, as two processes would have) write the same
    file at once: the busy timeout makes each wait for the other's lock, none fails."""
    path = tmp_path / "dama.sqlite3"
    first = await Storage.open(path)
    second = await Storage.open(path)
    try:
        ids_first = await _create(first, range(0, 50))
        ids_second = await _create(second, range(50, 100))
        results = await asyncio.gather(
            *(_play(first, g, 6) for g in ids_first),
            *(_play(second, g, 6) for g in ids_second),
            return_exceptions=True,
        )
        errors = [r for r in results if isinstance(r, BaseException)]
        assert not errors, errors[:3]
        await _check(first, ids_first + ids_second, 6)
    finally:
        await first.close()
        await second.close()
