"""Animated GIFs: one move shown jump by jump, or a whole game move by move."""

from __future__ import annotations

from collections.abc import Sequence

from PIL import Image

from engine import (
    CaptureRemoval,
    Color,
    DamaError,
    Move,
    Position,
    Variant,
    apply_move,
    parse_move,
)
from renderer.board import check_numbers, move_scene
from renderer.encode import gif_bytes
from renderer.errors import RenderError
from renderer.layout import Layout, make_layout
from renderer.scene import Scene, draw_scene
from renderer.theme import DEFAULT_THEME, Theme
from renderer.validate import check_position, legal_route, resolve_variant

MIN_FRAME_MS = 20
"""Shortest frame duration accepted (GIF delays are in hundredths of a second; browsers
treat shorter delays as 100 ms)."""


def _check_duration(ms: int, what: str) -> int:
    if isinstance(ms, bool) or not isinstance(ms, int) or not MIN_FRAME_MS <= ms <= 60_000:
        raise RenderError(f"{what} must be a whole number of milliseconds in "
                          f"{MIN_FRAME_MS}..60000, not {ms!r}")
    return ms


def move_frames(position: Position, move: Move, variant: Variant,
                numbers: bool) -> list[Scene]:
    """The scenes of `move` (legal in `position`, as the engine records it) jump by jump.

    Frame 0 is `position` with the start square tinted. Then one frame per landing square:
    the piece there, the path so far drawn, and the pieces jumped so far either gone with a
    cross on their squares (variants that remove captured pieces at once) or still standing,
    faded and crossed (variants that remove them at the end of the move). The last
    frame is the position after the move (promotion included); for end-of-move removal it
    is one more frame, in which the jumped pieces disappear together.
    So a move has 1 + len(move.landings) frames, plus one for a capture in a variant that
    removes captured pieces at the end of the move.
    """
    mover = position.piece_at(move.start)
    assert mover is not None  # a legal move starts on a piece
    after = apply_move(position, move, variant)
    others = tuple((sq, p) for sq, p in position.pieces() if sq != move.start)
    scenes = [Scene(variant.geometry, tuple(position.pieces()), highlights=(move.start,),
                    numbers=numbers, turn=position.turn, a1_dark=variant.a1_dark)]
    immediate = variant.capture_removal is CaptureRemoval.IMMEDIATE
    for k in range(1, len(move.landings) + 1):
        path = move.path[: k + 1]
        taken = move.captured[:k]
        if k == len(move.landings) and (immediate or not move.captured):
            break  # the last landing shows the position after the move, below
        gone = set(taken)
        board = tuple((sq, p) for sq, p in others if sq not in gone)
        scenes.append(Scene(
            variant.geometry,
            (*board, (move.landings[k - 1], mover)),
            highlights=path,
            path=path,
            crosses=taken if immediate else (),
            taken=() if immediate else tuple((sq, p) for sq, p in others if sq in gone),
            numbers=numbers,
            turn=position.turn,
            a1_dark=variant.a1_dark,
        ))
    scenes.append(move_scene(after, variant, move, (), numbers))
    return scenes


def render_move_gif(
    position: Position,
    move: Move | str,
    variant: Variant | str,
    *,
    perspective: Color = Color.WHITE,
    size: int = 512,
    numbers: bool = False,
    frame_ms: int = 700,
    final_ms: int = 2000,
    theme: Theme = DEFAULT_THEME,
) -> bytes:
    """An animated GIF of `move` played in `position`, a capture shown jump by jump.

    Arguments:
      position: the position before the move.
      move: a legal move of `position` (a Move, or move text such as "d3xf5" read by the
        engine's `parse_move`). It is drawn along the route the engine records for it.
      variant, perspective, size, numbers, theme: as for `render_png`.
      frame_ms: how long each frame shows, in milliseconds; final_ms: the last frame.

    Frames (see `move_frames`): the position before, then one per landing square; the
    captured pieces leave at once (Turkish, Arab) or together in one more frame at the end
    (Moroccan, Italian).

    Returns GIF bytes (`size` x `size`, looping); the same arguments give the same bytes.
    Raises RenderError for a move that is not legal in the position and for every bad
    argument `render_png` rejects.
    """
    v = resolve_variant(variant)
    layout = make_layout(size, perspective, v.board_size)
    check_position(position, v)
    show_numbers = check_numbers(numbers, v)
    frame_ms = _check_duration(frame_ms, "frame_ms")
    final_ms = _check_duration(final_ms, "final_ms")
    legal = legal_route(position, _as_move(move, position, v), v)
    scenes = move_frames(position, legal, v, show_numbers)
    return _gif(scenes, layout, frame_ms, final_ms, theme)


def render_game_gif(
    start: Position,
    moves: Sequence[Move | str],
    variant: Variant | str,
    *,
    perspective: Color = Color.WHITE,
    size: int = 512,
    numbers: bool = False,
    frame_ms: int = 1000,
    final_ms: int = 4000,
    theme: Theme = DEFAULT_THEME,
) -> bytes:
    """An animated GIF of a game: the start position, then one frame after each move with
    that move's squares, path and captures marked; the last frame shows for `final_ms`.

    Arguments:
      start: the position the game starts from.
      moves: the moves in order, each legal in the position before it (Move values or
        move text read by the engine's `parse_move`).
      variant, perspective, size, numbers, theme: as for `render_png`.
      frame_ms, final_ms: frame durations in milliseconds.

    Returns GIF bytes with 1 + len(moves) frames. Raises RenderError naming the first move
    that is not legal, and for every bad argument `render_png` rejects.
    """
    v = resolve_variant(variant)
    layout = make_layout(size, perspective, v.board_size)
    check_position(start, v)
    show_numbers = check_numbers(numbers, v)
    frame_ms = _check_duration(frame_ms, "frame_ms")
    final_ms = _check_duration(final_ms, "final_ms")
    if isinstance(moves, str):
        raise RenderError("moves must be a sequence of moves, e.g. ['c3-d4', 'f6-e5']")
    scenes = [move_scene(start, v, None, (), show_numbers)]
    position = start
    for ply, item in enumerate(moves, start=1):
        try:
            legal = legal_route(position, _as_move(item, position, v), v)
        except RenderError as exc:
            raise RenderError(f"move {ply} of the game: {exc}") from exc
        position = apply_move(position, legal, v)
        scenes.append(move_scene(position, v, legal, (), show_numbers))
    return _gif(scenes, layout, frame_ms, final_ms, theme)


def _as_move(move: Move | str, position: Position, variant: Variant) -> Move:
    if isinstance(move, str):
        try:
            return parse_move(move, position, variant)
        except DamaError as exc:
            raise RenderError(str(exc)) from exc
    return move


def _gif(scenes: list[Scene], layout: Layout, frame_ms: int, final_ms: int,
         theme: Theme) -> bytes:
    frames: list[Image.Image] = [draw_scene(s, layout, theme) for s in scenes]
    durations = [frame_ms] * (len(frames) - 1) + [final_ms]
    return gif_bytes(frames, durations, theme)
