"""Checks of the renderer's inputs. Each failure raises RenderError with a message that
says what was wrong and what to pass instead."""

from __future__ import annotations

from collections.abc import Iterable

from engine import (
    Color,
    DamaError,
    Geometry,
    Move,
    Position,
    Variant,
    apply_move,
    get_variant,
    legal_moves,
    parse_square,
    square_name,
)
from renderer.errors import RenderError


def resolve_variant(variant: Variant | str) -> Variant:
    """`variant` itself, or the variant named by the string (key or alias, any case).

    Raises RenderError listing the valid names for an unknown name or a wrong type.
    """
    if isinstance(variant, Variant):
        return variant
    if isinstance(variant, str):
        try:
            return get_variant(variant)
        except DamaError as exc:
            raise RenderError(str(exc)) from exc
    raise RenderError(
        f"variant must be a Variant or a variant name such as 'italian', not {variant!r}"
    )


def check_position(position: Position, variant: Variant) -> None:
    """Raises RenderError unless `position` is a Position whose pieces all stand on
    squares `variant` uses."""
    if not isinstance(position, Position):
        raise RenderError(
            f"position must be an engine Position (e.g. Position.from_fen(text, variant)), "
            f"not {type(position).__name__}"
        )
    for sq, _ in position.pieces():
        if not variant.is_playable(sq):
            raise RenderError(
                f"the position has a piece on {square_name(sq)}, a light square, which "
                f"{variant.name} does not use: pieces stand on the dark squares"
            )


def check_square(sq: int | str, what: str) -> int:
    """The square 0..63 given as an int or a name ("d4"). Raises RenderError otherwise."""
    if isinstance(sq, str):
        try:
            return parse_square(sq)
        except ValueError as exc:
            raise RenderError(f"{what}: {exc}") from exc
    if isinstance(sq, bool) or not isinstance(sq, int) or not 0 <= sq < 64:
        raise RenderError(f"{what}: {sq!r} is not a square; give 0..63 (a1 = 0) or a name")
    return sq


def check_marks(marks: Iterable[int | str]) -> tuple[int, ...]:
    """The marked squares as ints, in the given order without repeats."""
    if isinstance(marks, (str, int)):
        raise RenderError("marks must be a collection of squares, e.g. ('d4', 'f4')")
    return tuple(dict.fromkeys(check_square(sq, "marks") for sq in marks))


def _leg_ok(a: int, b: int, geometry: Geometry) -> bool:
    df, dr = (b & 7) - (a & 7), (b >> 3) - (a >> 3)
    if a == b:
        return False
    if geometry is Geometry.ORTHOGONAL:
        return df == 0 or dr == 0
    return abs(df) == abs(dr)


def _between(a: int, b: int, sq: int) -> bool:
    """Whether `sq` lies strictly between `a` and `b` on their straight line."""
    af, ar, bf, br = a & 7, a >> 3, b & 7, b >> 3
    sf, sr = sq & 7, sq >> 3
    steps = max(abs(bf - af), abs(br - ar))
    df, dr = (bf - af) // steps, (br - ar) // steps
    return any((af + i * df, ar + i * dr) == (sf, sr) for i in range(1, steps))


def check_move_shape(move: Move, variant: Variant) -> None:
    """Raises RenderError unless `move` is a Move whose legs run along the variant's lines
    (ranks and files, or diagonals) over playable squares, and whose captured squares lie
    on those legs."""
    if not isinstance(move, Move):
        raise RenderError(f"a move must be an engine Move, not {type(move).__name__}")
    for sq in (*move.path, *move.captured):
        if not variant.is_playable(sq):
            raise RenderError(
                f"move {move} uses {square_name(sq)}, a square {variant.name} does not use"
            )
    legs = list(zip(move.path, move.path[1:], strict=False))
    lines = "ranks and files" if variant.geometry is Geometry.ORTHOGONAL else "diagonals"
    for a, b in legs:
        if not _leg_ok(a, b, variant.geometry):
            raise RenderError(
                f"move {move} goes from {square_name(a)} to {square_name(b)}, which is not "
                f"along the {lines} of {variant.name}"
            )
    if move.captured and len(move.captured) != len(legs):
        raise RenderError(f"move {move} captures {len(move.captured)} pieces in "
                          f"{len(legs)} jumps; a capture takes one piece per jump")
    if not move.captured and len(legs) != 1:
        raise RenderError(f"move {move} has several legs but captures nothing")
    for (a, b), sq in zip(legs, move.captured, strict=False):
        if not _between(a, b, sq):
            raise RenderError(
                f"move {move}: the piece on {square_name(sq)} is not on the jump "
                f"{square_name(a)}x{square_name(b)}"
            )


def check_last_move(position: Position, move: Move, variant: Variant) -> None:
    """Raises RenderError unless `move` can be the move that led to `position`: a move of
    the right shape (see `check_move_shape`), the side not to move now has a piece on its
    end square, its start square is empty (unless the piece came back to it) and so are
    the squares of the pieces it captured (unless the piece ended there)."""
    check_move_shape(move, variant)
    mover = position.turn.opponent
    piece = position.piece_at(move.end)
    if piece is None or piece.color is not mover:
        raise RenderError(
            f"last move {move} does not fit the position: {_side(mover)} has no piece on "
            f"{square_name(move.end)}; pass the position after the move"
        )
    if move.start != move.end and position.piece_at(move.start) is not None:
        raise RenderError(
            f"last move {move} does not fit the position: {square_name(move.start)} is "
            f"not empty; pass the position after the move"
        )
    for sq in move.captured:
        if sq != move.end and position.piece_at(sq) is not None:
            raise RenderError(
                f"last move {move} does not fit the position: the captured piece on "
                f"{square_name(sq)} is still there; pass the position after the move"
            )


def legal_route(position: Position, move: Move, variant: Variant) -> Move:
    """The legal move of `position` equal to `move` (same start, end and captured set), as
    the engine records it (its route is the one drawn).

    Raises RenderError naming the move and listing up to eight legal moves otherwise.
    """
    if not isinstance(move, Move):
        raise RenderError(f"a move must be an engine Move, not {type(move).__name__}")
    moves = legal_moves(position, variant)
    for legal in moves:
        if legal == move:
            return legal
    listed = ", ".join(str(m) for m in moves[:8]) + (", ..." if len(moves) > 8 else "")
    raise RenderError(
        f"move {move} is not legal for {_side(position.turn)} in this {variant.name} "
        f"position; legal moves: {listed or 'none'}"
    )


def check_follows(before: Position, move: Move, after: Position, variant: Variant) -> None:
    """Raises RenderError unless `move` is legal in `before` and leads to `after`."""
    legal = legal_route(before, move, variant)
    if apply_move(before, legal, variant) != after:
        raise RenderError(
            f"last move {move} played in the given previous position does not lead to the "
            f"position shown"
        )


def _side(color: Color) -> str:
    return "White" if color is Color.WHITE else "Black"
