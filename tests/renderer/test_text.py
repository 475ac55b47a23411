"""`renderer.render_text`: the text board for channels where no picture can be shown."""

from __future__ import annotations

import pytest

from engine import Color, Position, get_variant
from renderer import PieceLetters, RenderError, render_text


def test_italian_start_from_whites_side_with_the_federations_numbers() -> None:
    # Italian start (docs/RULES.md): Black's men on 1..12, White's on 21..32; the empty
    # middle ranks hold 13..20, numbered row by row from a8 = 1 (FID): b5 = 13, d5 = 14,
    # f5 = 15, h5 = 16, a4 = 17, c4 = 18, e4 = 19, g4 = 20. a1 is a light square.
    italian = get_variant("italian")
    assert render_text(Position.start(italian), italian, numbers=True).splitlines() == [
        "    a  b  c  d  e  f  g  h",
        " 8  b     b     b     b     8",
        " 7     b     b     b     b  7",
        " 6  b     b     b     b     6",
        " 5    13    14    15    16  5",
        " 4 17    18    19    20     4",
        " 3     w     w     w     w  3",
        " 2  w     w     w     w     2",
        " 1     w     w     w     w  1",
        "    a  b  c  d  e  f  g  h",
    ]


def test_black_side_turns_the_board_and_kings_are_capitals() -> None:
    italian = get_variant("italian")
    position = Position.from_fen("W:WKa8,h1:Bb7,Kf1", italian)
    lines = render_text(position, italian, perspective=Color.BLACK).splitlines()
    assert lines[0] == "    h  g  f  e  d  c  b  a"
    # Rank 1 from the h file: h1, (g1 light), f1, (e1), d1, (c1), b1, (a1).
    assert lines[1] == " 1  w     B     .     .     1"
    assert lines[8] == " 8     .     .     .     W  8"
    assert lines[7].endswith("b     7")


def test_numbers_only_on_a_diagonal_board() -> None:
    turkish = get_variant("turkish")
    with pytest.raises(RenderError, match="numbers"):
        render_text(Position.start(turkish), turkish, numbers=True)


def test_the_pieces_are_drawn_in_the_letters_given() -> None:
    turkish = get_variant("turkish")
    position = Position.from_fen("W:Wa3,Kb3:Bc7,Kd7", turkish)
    lines = render_text(position, turkish,
                        letters=PieceLetters("b", "s", "B", "S")).splitlines()
    assert lines[2] == " 7  .  .  s  S  .  .  .  .  7"
    assert lines[6] == " 3  b  B  .  .  .  .  .  .  3"


@pytest.mark.parametrize("letters", [
    PieceLetters("w", "w", "W", "B"), PieceLetters("ww", "b", "W", "B"),
    PieceLetters(" ", "b", "W", "B"), PieceLetters("", "b", "W", "B"),
])
def test_letters_that_would_misdraw_the_board_are_refused(letters: PieceLetters) -> None:
    turkish = get_variant("turkish")
    with pytest.raises(RenderError):
        render_text(Position.start(turkish), turkish, letters=letters)
