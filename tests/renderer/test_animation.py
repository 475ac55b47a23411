"""render_move_gif and render_game_gif: frame counts, frame contents, durations.

The expected frames follow the removal rules of docs/RULES.md: Turkish and Arab remove a
captured piece the moment it is jumped, Moroccan and Italian all together when the move is
over. A move GIF has the position before, one frame per landing square, and for
end-of-move removal one more frame in which the jumped pieces disappear.
"""

from __future__ import annotations

import pytest
from PIL import Image

from engine import Color, Position, apply_move, get_variant, parse_move
from renderer import DEFAULT_THEME, RenderError, render_game_gif, render_move_gif, render_png
from tests.renderer.pixels import Grid, blend, decode, near, pixel, read_square, rgb

T = DEFAULT_THEME
PLAIN = (T.plain_square, blend(T.plain_square, T.highlight, T.highlight_alpha))
DARK = (T.dark_square, blend(T.dark_square, T.highlight, T.highlight_alpha))

TURKISH_FEN = "W:Wd3,Ka1,h2:Bd4,c5,b6,e7,f8,d7"
ITALIAN_FEN = "B:Wd1,a2,g2,h3,c4,g4,Ke4:Ba6,b7,d7,f7,a8,Kb3"


def frames(data: bytes) -> list[tuple[Image.Image, int]]:
    im = decode(data)
    out = []
    for i in range(getattr(im, "n_frames", 1)):
        im.seek(i)
        out.append((rgb(im), im.info["duration"]))
    return out


def test_turkish_capture_one_frame_per_jump_pieces_leave_at_once() -> None:
    v = get_variant("turkish")
    before = Position.from_fen(TURKISH_FEN, v)
    move = parse_move("d3xd5xb5xb7", before, v)
    shots = frames(render_move_gif(before, move, v))
    assert len(shots) == 1 + 3  # before + three landings (the last is the final position)
    g = Grid.of(512)
    first, second, third, last = (im for im, _ in shots)
    assert read_square(first, g, "d3", PLAIN) == "white man"
    assert read_square(first, g, "d4", PLAIN) == "black man"
    # After the first jump the man stands on d5 and d4 is already empty.
    assert read_square(second, g, "d5", PLAIN) == "white man"
    assert near(pixel(second, g.at("d3", 0.3, 0.75)), PLAIN[1])
    assert read_square(second, g, "c5", PLAIN) == "black man"
    assert read_square(third, g, "b5", PLAIN) == "white man"
    assert read_square(last, g, "b7", PLAIN) == "white man"
    for name in ("d4", "c5", "b6"):
        centre = pixel(last, g.at(name, 0.2, 0.2))
        assert centre == T.plain_square, name
    durations = [d for _, d in shots]
    assert durations[-1] > durations[0]


def test_italian_capture_pieces_leave_together_at_the_end() -> None:
    v = get_variant("italian")
    before = Position.from_fen(ITALIAN_FEN, v)
    move = parse_move("b3xd5xf3xh1", before, v)
    shots = frames(render_move_gif(before, move, v))
    assert len(shots) == 1 + 3 + 1  # before, three landings, removal
    g = Grid.of(512)
    ims = [im for im, _ in shots]

    def empty_at(im: Image.Image, name: str) -> bool:
        return pixel(im, g.at(name, 0.5, 0.75)) in DARK

    # After the first jump, c4 is still occupied (the captured man waits, crossed).
    assert not empty_at(ims[1], "c4")
    assert not empty_at(ims[3], "c4") and not empty_at(ims[3], "e4")
    assert not empty_at(ims[3], "g2")
    # In the last frame all three leave together; the king stands on h1.
    for name in ("c4", "e4", "g2"):
        assert empty_at(ims[4], name), name
    assert read_square(ims[4], g, "h1", DARK) == "black king"
    assert read_square(ims[0], g, "b3", DARK) == "black king"


def test_quiet_move_has_two_frames() -> None:
    v = get_variant("moroccan")
    start = Position.start(v)
    move = parse_move("d3-c4", start, v)
    assert len(frames(render_move_gif(start, move, v, size=200))) == 2


def test_move_given_as_text_and_black_perspective() -> None:
    v = get_variant("arab")
    before = Position.from_fen(TURKISH_FEN, v)
    data = render_move_gif(before, "d3xb7", v, perspective=Color.BLACK, size=256)
    im = decode(data)
    assert im.size == (256, 256)
    assert getattr(im, "n_frames", 1) == 4


def test_game_gif_has_start_plus_one_frame_per_move_and_a_long_last_frame() -> None:
    v = get_variant("italian")
    start = Position.start(v)
    texts = ["22-18", "11-14", "18x11", "7x14", "21-17"]  # 22 = d3, 18 = c4, 11 = e6
    shots = frames(render_game_gif(start, texts, v, size=200, frame_ms=500, final_ms=3000))
    assert len(shots) == 1 + len(texts)
    assert [d for _, d in shots] == [500] * len(texts) + [3000]
    # The last frame shows the position after the moves.
    position = start
    for text in texts:
        position = apply_move(position, parse_move(text, position, v), v)
    g = Grid.of(200)
    last = shots[-1][0]
    for name in ("d3", "c4", "e6", "d5", "f7", "a4", "h3"):
        expected = position.piece_at(_sq(name))
        seen = read_square(last, g, name, DARK)
        assert seen == (f"{expected.color.value} {expected.kind.value}" if expected
                        else "empty"), name


def _sq(name: str) -> int:
    return (int(name[1]) - 1) * 8 + ord(name[0]) - ord("a")


def test_gif_bytes_are_deterministic() -> None:
    v = get_variant("turkish")
    before = Position.from_fen(TURKISH_FEN, v)
    move = parse_move("d3xb7", before, v)
    assert render_move_gif(before, move, v, size=200) == render_move_gif(before, move, v,
                                                                         size=200)


def test_illegal_move_in_gif_is_refused() -> None:
    v = get_variant("turkish")
    before = Position.from_fen(TURKISH_FEN, v)
    quiet = parse_move("h2-h3", Position.from_fen("W:Wh2:Ba8", v), v)  # legal elsewhere only
    with pytest.raises(RenderError, match="not legal"):
        render_move_gif(before, quiet, v)
    with pytest.raises(RenderError):
        render_move_gif(before, "h2-h3", v)  # a capture is compulsory


def test_illegal_move_in_game_names_its_number() -> None:
    v = get_variant("italian")
    with pytest.raises(RenderError, match="move 2 "):
        render_game_gif(Position.start(v), ["21-17", "21-17"], v)
    with pytest.raises(RenderError, match="sequence"):
        render_game_gif(Position.start(v), "21-17", v)


def test_bad_durations_are_refused() -> None:
    v = get_variant("italian")
    with pytest.raises(RenderError, match="frame_ms"):
        render_game_gif(Position.start(v), [], v, frame_ms=0)


def test_last_frame_is_the_board_after_the_move() -> None:
    """Frames are stored as transparent-padded differences; decoded, the last one must
    equal the PNG of the position after the move with the move marked."""
    for key, fen, text in (("turkish", TURKISH_FEN, "d3xd5xb5xb7"),
                           ("italian", ITALIAN_FEN, "b3xd5xf3xh1")):
        v = get_variant(key)
        before = Position.from_fen(fen, v)
        move = parse_move(text, before, v)
        after = apply_move(before, move, v)
        last = frames(render_move_gif(before, move, v, size=256))[-1][0]
        png = rgb(decode(render_png(after, v, last_move=move, size=256)))
        assert last.tobytes() == png.tobytes(), key
