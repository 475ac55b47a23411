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
)
from engine.squares_board import move_name, name_on, parse_square_on
from renderer.errors import RenderError


def resolve_variant(variant: Variant | str) -> Variant:
    """`variant` itself, or the variant named by the string (a key or alias of
    `engine.VARIANTS`, any case: "italian", "international", "checkers").

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
    """Raises RenderError unless `position` is a Position on `variant`'s board whose pieces
    all stand on squares `variant` uses."""
    if not isinstance(position, Position):
        raise RenderError(
            f"position must be an engine Position (e.g. Position.from_fen(text, variant)), "
            f"not {type(position).__name__}"
        )
    n = variant.board_size
    if position.board_size != n:
        raise RenderError(
            f"the position is on a {position.board_size}x{position.board_size} board; "
            f"{variant.name} is played on {n}x{n}: read it with Position.from_fen(text, "
            f"variant)"
        )
    for sq, _ in position.pieces():
        if not variant.is_playable(sq):
            raise RenderError(
                f"the position has a piece on {name_on(sq, n)}, a light square, which "
                f"{variant.name} does not use: pieces stand on the dark squares"
            )


def check_square(sq: int | str, what: str, board_size: int = 8) -> int:
    """The square of the `board_size` board (0..63, or 0..99 on 10 x 10) given as an int
    or a name ("d4"). Raises RenderError otherwise."""
    last = board_size * board_size - 1
    if isinstance(sq, str):
        try:
            return parse_square_on(sq, board_size)
        except ValueError as exc:
            raise RenderError(f"{what}: {exc}") from exc
    if isinstance(sq, bool) or not isinstance(sq, int) or not 0 <= sq <= last:
        raise RenderError(f"{what}: {sq!r} is not a square; give 0..{last} (a1 = 0) or a name")
    return sq


def check_marks(marks: Iterable[int | str], variant: Variant) -> tuple[int, ...]:
    """The marked squares of `variant`'s board as ints, in the given order without
    repeats."""
    if isinstance(marks, (str, int)):
        raise RenderError("marks must be a collection of squares, e.g. ('d4', 'f4')")
    return tuple(dict.fromkeys(check_square(sq, "marks", variant.board_size) for sq in marks))


def _leg_ok(a: int, b: int, geometry: Geometry, n: int) -> bool:
    df, dr = b % n - a % n, b // n - a // n
    if a == b:
        return False
    if geometry is Geometry.ORTHOGONAL:
        return df == 0 or dr == 0
    return abs(df) == abs(dr)


def _between(a: int, b: int, sq: int, n: int) -> bool:
    """Whether `sq` lies strictly between `a` and `b` on their straight line (board of
    `n` x `n` squares)."""
    af, ar, bf, br = a % n, a // n, b % n, b // n
    sf, sr = sq % n, sq // n
    steps = max(abs(bf - af), abs(br - ar))
    df, dr = (bf - af) // steps, (br - ar) // steps
    return any((af + i * df, ar + i * dr) == (sf, sr) for i in range(1, steps))


def check_move_shape(move: Move, variant: Variant) -> None:
    """Raises RenderError unless `move` is a Move whose legs run along the variant's lines
    (ranks and files, or diagonals) over playable squares, and whose captured squares lie
    on those legs."""
    if not isinstance(move, Move):
        raise RenderError(f"a move must be an engine Move, not {type(move).__name__}")
    n = variant.board_size

    def name(sq: int) -> str:
        return name_on(sq, n)

    for sq in (*move.path, *move.captured):
        if not variant.is_playable(sq):
            shown = name(sq) if 0 <= sq < n * n else str(sq)
            raise RenderError(
                f"move {_shown(move, n)} uses {shown}, a square {variant.name} does not use"
            )
    text = move_name(move, n)
    legs = list(zip(move.path, move.path[1:], strict=False))
    lines = "ranks and files" if variant.geometry is Geometry.ORTHOGONAL else "diagonals"
    for a, b in legs:
        if not _leg_ok(a, b, variant.geometry, n):
            raise RenderError(
                f"move {text} goes from {name(a)} to {name(b)}, which is not "
                f"along the {lines} of {variant.name}"
            )
    if move.captured and len(move.captured) != len(legs):
        raise RenderError(f"move {text} captures {len(move.captured)} pieces in "
                          f"{len(legs)} jumps; a capture takes one piece per jump")
    if not move.captured and len(legs) != 1:
        raise RenderError(f"move {text} has several legs but captures nothing")
    for (a, b), sq in zip(legs, move.captured, strict=False):
        if not _between(a, b, sq, n):
            raise RenderError(
                f"move {text}: the piece on {name(sq)} is not on the jump "
                f"{name(a)}x{name(b)}"
            )


def check_last_move(position: Position, move: Move, variant: Variant) -> None:
    """Raises RenderError unless `move` can be the move that led to `position`: a move of
    the right shape (see `check_move_shape`), the side not to move now has a piece on its
    end square, its start square is empty (unless the piece came back to it) and so are
    the squares of the pieces it captured (unless the piece ended there)."""
    check_move_shape(move, variant)
    text = move_name(move, variant.board_size)
    mover = position.turn.opponent
    piece = position.piece_at(move.end)
    if piece is None or piece.color is not mover:
        raise RenderError(
            f"last move {text} does not fit the position: {_side(mover)} has no piece on "
            f"{name_on(move.end, variant.board_size)}; pass the position after the move"
        )
    if move.start != move.end and position.piece_at(move.start) is not None:
        raise RenderError(
            f"last move {text} does not fit the position: "
            f"{name_on(move.start, variant.board_size)} is not empty; pass the position after "
            f"the move"
        )
    for sq in move.captured:
        if sq != move.end and position.piece_at(sq) is not None:
            raise RenderError(
                f"last move {text} does not fit the position: the captured piece on "
                f"{name_on(sq, variant.board_size)} is still there; pass the position after "
                f"the move"
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
    n = variant.board_size
    listed = ", ".join(move_name(m, n) for m in moves[:8]) + (", ..." if len(moves) > 8 else "")
    raise RenderError(
        f"move {_shown(move, n)} is not legal for {_side(position.turn)} in this {variant.name} "
        f"position; legal moves: {listed or 'none'}"
    )


def check_follows(before: Position, move: Move, after: Position, variant: Variant) -> None:
    """Raises RenderError unless `move` is legal in `before` and leads to `after`."""
    legal = legal_route(before, move, variant)
    if apply_move(before, legal, variant) != after:
        raise RenderError(
            f"last move {move_name(move, variant.board_size)} played in the given previous "
            f"position does not lead to the position shown"
        )


def _shown(move: Move, n: int) -> str:
    """`move` named on the `n` x `n` board, or as the engine prints it when a square is off
    that board."""
    try:
        return move_name(move, n)
    except ValueError:
        return str(move)


def _side(color: Color) -> str:
    return "White" if color is Color.WHITE else "Black"
