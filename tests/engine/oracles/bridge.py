"""The one boundary between the engine and the plain boards of the reference generators.

Square ints follow the engine's documented coordinates (``index = rank * size + file`` on the
``size`` × ``size`` board: a1 = 0, h8 = 63 on 8×8, j10 = 99 on 10×10); the conversion is
written out here rather than taken from the engine.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .board import Board, Identity, Route, board_size, coords, name, on_board, to_fen


def sq_name(index: int, size: int = 8) -> str:
    """The engine's square ``index`` on the ``size`` × ``size`` board -> "a1".."j10"."""
    if not 0 <= index < size * size:
        raise ValueError(f"square {index} is off the {size}×{size} board")
    return name(index % size, index // size)


def sq_index(square: str, size: int = 8) -> int:
    """ "a1".."j10" -> the engine's square index on the ``size`` × ``size`` board."""
    f, r = coords(square)
    if not on_board(f, r, size):
        raise ValueError(f"{square} is off the {size}×{size} board")
    return r * size + f


def engine_variant(key: str) -> Any:
    """The engine's record of ``key``, one of the bot's variants (`engine.get_variant`)."""
    import engine

    return engine.get_variant(key)


def engine_position(board: Mapping[str, str], side: str, variant: str) -> Any:
    import engine

    return engine.Position.from_fen(to_fen(board, side), engine_variant(variant))


def board_of(position: Any) -> tuple[Board, str]:
    """Engine Position -> plain board and side, read through ``pieces()`` and ``turn``."""
    import engine

    board: Board = {}
    for index, piece in position.pieces():
        letter = "w" if piece.color == engine.Color.WHITE else "b"
        king = piece.kind == engine.PieceKind.KING
        board[sq_name(index, position.board_size)] = letter.upper() if king else letter
    return board, "w" if position.turn == engine.Color.WHITE else "b"


def route_of(move: Any, size: int = 8) -> Route:
    """Engine Move -> (path, captured) with the square names of the ``size`` × ``size``
    board (a Move does not know its board)."""
    return (
        (sq_name(move.start, size), *(sq_name(s, size) for s in move.landings)),
        tuple(sq_name(s, size) for s in move.captured),
    )


def engine_routes(board: Mapping[str, str], side: str, variant: str) -> list[Route]:
    """The engine's legal moves, one route each, in the engine's order."""
    import engine

    position = engine_position(board, side, variant)
    size = board_size(variant)
    return [route_of(m, size) for m in engine.legal_moves(position, engine_variant(variant))]


def engine_moves(board: Mapping[str, str], side: str, variant: str) -> dict[Identity, Route]:
    """The engine's legal moves keyed by identity; raises AssertionError on a duplicate."""
    out: dict[Identity, Route] = {}
    for path, captured in engine_routes(board, side, variant):
        key = (path[0], path[-1], frozenset(captured))
        assert key not in out, f"engine lists one move twice: {out[key]} and {(path, captured)}"
        out[key] = (path, captured)
    return out
