"""`bot.services.replay`: a stored game (record and moves, from a real SQLite file) back
into the engine's game, the one replay the bot and local play share."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.services.replay import last_move_text, replay_game
from engine import Color, IllegalMoveError, Piece, PieceKind, Position, get_variant, parse_square
from storage import GameRecord, NewGame, Seat, Storage

TURKISH = get_variant("turkish")


@pytest.fixture
async def storage(tmp_path: Path) -> AsyncIterator[Storage]:
    store = await Storage.open(tmp_path / "bot.sqlite3")
    try:
        yield store
    finally:
        await store.close()


async def _stored(storage: Storage, moves: list[str]) -> GameRecord:
    record = await storage.games.create(NewGame(
        variant="turkish", channel_id=5, guild_id=1, white=Seat.human(7), black=Seat.human(8),
        start_fen=Position.start(TURKISH).to_fen(TURKISH),
    ))
    for ply, text in enumerate(moves, start=1):
        await storage.games.append_move(record.id, ply=ply, text=text)
    return record


async def test_the_stored_moves_make_the_position(storage: Storage) -> None:
    # Turkish draughts (docs/RULES.md): men step straight forward; a capture is compulsory
    # and goes on while it can, and a man ending its move on the last rank is crowned. After
    # d3-d4 d6-d5, White's man takes d5 and then d7, landing on d8 as a king.
    record = await _stored(storage, ["d3-d4", "d6-d5", "d4xd6xd8"])
    game = replay_game(*await storage.games.load(record.id))
    position = game.position
    assert game.ply == 3 and game.variant is TURKISH
    assert position.piece_at(parse_square("d8")) == Piece(Color.WHITE, PieceKind.KING)
    for emptied in ("d3", "d4", "d5", "d6", "d7"):
        assert position.piece_at(parse_square(emptied)) is None, emptied
    # the shortest form naming it among the legal moves: its only capture, start and end
    assert last_move_text(game) == "d4xd8"


async def test_a_game_without_moves_is_its_start(storage: Storage) -> None:
    record = await _stored(storage, [])
    game = replay_game(*await storage.games.load(record.id))
    assert game.position == Position.start(TURKISH) and last_move_text(game) is None


async def test_a_stored_move_the_rules_forbid_is_refused(storage: Storage) -> None:
    # White must capture d5 (captures are compulsory, docs/RULES.md): a quiet move is illegal.
    record = await _stored(storage, ["d3-d4", "d6-d5", "a3-a4"])
    with pytest.raises(IllegalMoveError):
        replay_game(*await storage.games.load(record.id))
