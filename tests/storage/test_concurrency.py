"""Concurrency, on both backends: 200 games appending moves at once from one event loop
lose nothing (and on SQLite never see "database is locked"); two `Storage` objects on one
database (two connections or pools, as two processes would have) write at once and each
waits its turn where it must."""

from __future__ import annotations

import asyncio

from storage import Database, NewGame, Seat, Storage

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


async def test_200_games_concurrently(target: str) -> None:
    storage = await Storage.open(target)
    try:
        game_ids = await _create(storage, range(GAMES))
        results = await asyncio.gather(*(_play(storage, g, MOVES) for g in game_ids),
                                       return_exceptions=True)
        errors = [r for r in results if isinstance(r, BaseException)]
        assert not errors, errors[:3]
        await _check(storage, game_ids, MOVES)
        if isinstance(storage.db, Database):
            assert await storage.db.integrity_check() == ["ok"]
    finally:
        await storage.close()


async def test_two_connections_share_the_database(target: str) -> None:
    """Two `Storage` objects write the same database at once: on SQLite the busy timeout
    makes each wait for the other's lock; on PostgreSQL they write side by side. None
    fails."""
    first = await Storage.open(target)
    second = await Storage.open(target)
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


async def test_one_channel_gets_one_game_when_two_processes_race(target: str) -> None:
    """Two `Storage` objects start a game in the same channel at the same moment: one
    game is created, the other is refused as ChannelBusyError (on PostgreSQL by the
    unique index, as the two transactions do not see each other)."""
    from storage import ChannelBusyError

    first = await Storage.open(target)
    second = await Storage.open(target)
    try:
        for channel in range(20):
            game = NewGame("turkish", channel, 1, Seat.human(1), Seat.human(2), "W:Wa2:Ba7")
            results = await asyncio.gather(first.games.create(game), second.games.create(game),
                                           return_exceptions=True)
            created = [r for r in results if not isinstance(r, BaseException)]
            refused = [r for r in results if isinstance(r, BaseException)]
            assert len(created) == 1, results
            assert [type(r) for r in refused] == [ChannelBusyError], refused
    finally:
        await first.close()
        await second.close()
