"""A game's replay as a GIF (`bot/ui/replay.py`): within Discord's upload limit for a long
game, smaller when it must be, refused when nothing fits, drawn from the reader's side
and off the event loop."""

from __future__ import annotations

import io
import random

import pytest
from PIL import Image

from bot.messages import Msg
from bot.move_work import MoveWork
from bot.services import PlayerError
from bot.services.stats import GameReplay
from bot.ui.present import Perspective
from bot.ui.replay import (
    FINAL_MS,
    FRAME_MS,
    REPLAY_SIZES,
    UPLOAD_LIMIT,
    ReplayTooLarge,
    replay_file,
    replay_gif,
)
from engine import Color, Move, PieceKind, Position, Variant, apply_move, get_variant, legal_moves
from renderer import render_game_gif

LONG_GAME = 160
"""Plies of the long game: past the 150 the longest real games reach."""


def _long_game(plies: int = LONG_GAME) -> tuple[Variant, Position, tuple[Move, ...]]:
    """An Italian game of `plies` legal moves: random play that moves a king whenever it
    can (kings shuffle, so the game lasts), from the first seed whose game lasts that
    long."""
    variant = get_variant("italian")
    for seed in range(500):
        rng = random.Random(seed)
        position = Position.start(variant)
        moves: list[Move] = []
        while len(moves) < plies:
            found = legal_moves(position, variant)
            if not found:
                break
            kings = [m for m in found
                     if (piece := position.piece_at(m.start)) and piece.kind is PieceKind.KING]
            move = rng.choice(kings or found)
            moves.append(move)
            position = apply_move(position, move, variant)
        if len(moves) == plies:
            return variant, Position.start(variant), tuple(moves)
    raise AssertionError("no seed gave a game that long")


def _frames(data: bytes) -> tuple[int, tuple[int, int]]:
    with Image.open(io.BytesIO(data)) as picture:
        return int(getattr(picture, "n_frames", 1)), picture.size


def _replay(variant: Variant, start: Position, moves: tuple[Move, ...]) -> GameReplay:
    positions = [start]
    for move in moves:
        positions.append(apply_move(positions[-1], move, variant))
    return GameReplay(7, variant, start, moves, tuple(positions), white=1, black=2)


@pytest.fixture(scope="module")
def long_game() -> tuple[Variant, Position, tuple[Move, ...]]:
    return _long_game()


def test_a_long_game_fits_discords_upload_limit_at_full_size(
    long_game: tuple[Variant, Position, tuple[Move, ...]],
) -> None:
    variant, start, moves = long_game
    data = replay_gif(start, moves, variant)
    assert data.startswith(b"GIF89a")
    assert _frames(data) == (LONG_GAME + 1, (REPLAY_SIZES[0], REPLAY_SIZES[0]))
    assert len(data) <= UPLOAD_LIMIT
    # Room to spare: at this game's cost a move, a game of 1,000 plies fits too.
    assert len(data) / LONG_GAME * 1000 <= UPLOAD_LIMIT


def test_a_replay_over_the_limit_is_drawn_smaller_until_it_fits(
    long_game: tuple[Variant, Position, tuple[Move, ...]],
) -> None:
    variant, start, moves = long_game
    full = replay_gif(start, moves[:40], variant)
    limit = len(full) - 1
    smaller = replay_gif(start, moves[:40], variant, limit=limit)
    frames, (width, height) = _frames(smaller)
    assert len(smaller) <= limit and frames == 41
    assert width == height == REPLAY_SIZES[1]


def test_a_replay_that_fits_at_no_size_is_refused(
    long_game: tuple[Variant, Position, tuple[Move, ...]],
) -> None:
    variant, start, moves = long_game
    with pytest.raises(ReplayTooLarge):
        replay_gif(start, moves[:10], variant, limit=1000)


async def test_a_replay_too_large_for_any_size_is_told_to_the_player(
    long_game: tuple[Variant, Position, tuple[Move, ...]],
) -> None:
    variant, start, moves = long_game
    with pytest.raises(PlayerError) as refused:
        await replay_file(_replay(variant, start, moves[:10]), Perspective(), None, limit=1000)
    assert refused.value.key is Msg.REPLAY_TOO_LONG
    assert refused.value.params == {"game_id": 7}


def test_the_replay_is_drawn_from_the_readers_side(
    long_game: tuple[Variant, Position, tuple[Move, ...]],
) -> None:
    variant, start, moves = long_game
    white = replay_gif(start, moves[:6], variant, view=Perspective(Color.WHITE))
    black = replay_gif(start, moves[:6], variant, view=Perspective(Color.BLACK, numeric=False))
    assert white != black
    assert black == render_game_gif(start, moves[:6], variant, perspective=Color.BLACK,
                                    numbers=False, frame_ms=FRAME_MS, final_ms=FINAL_MS)
    assert white == render_game_gif(start, moves[:6], variant, perspective=Color.WHITE,
                                    numbers=True, frame_ms=FRAME_MS, final_ms=FINAL_MS)


async def test_a_replay_with_a_heavy_position_is_drawn_in_the_move_work_process(
    long_game: tuple[Variant, Position, tuple[Move, ...]],
) -> None:
    variant, start, moves = long_game
    replay = _replay(variant, start, moves[:30])
    assert any(legal_moves(p, variant)[0].captured for p in replay.positions[:-1])
    work = MoveWork(budget=0)  # every position with a capture counts as heavy
    try:
        file = await replay_file(replay, Perspective(), work)
        assert work.in_process_calls == 1
        assert file.filename == "dama-italian-7.gif"
        assert file.fp.read() == replay_gif(start, moves[:30], variant)
    finally:
        await work.close()
    light = MoveWork()
    try:
        await replay_file(replay, Perspective(), light)
        assert light.in_process_calls == 0
    finally:
        await light.close()
