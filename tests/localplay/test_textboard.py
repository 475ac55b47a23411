"""`localplay.textboard`: a position as a text board for the terminal."""

from __future__ import annotations

from engine import Position, get_variant
from localplay.textboard import text_board


def test_turkish_start_board() -> None:
    variant = get_variant("turkish")
    lines = text_board(Position.start(variant), variant).splitlines()
    # Turkish start (docs/RULES.md): 16 men each on ranks 2-3 (White) and 6-7 (Black).
    assert lines[0].split() == list("abcdefgh")
    assert lines[1].split() == ["8", *"........", "8"]
    assert lines[2].split() == ["7", *"bbbbbbbb", "7"]
    assert lines[6].split() == ["3", *"wwwwwwww", "3"]
    assert "White to move" in lines[-1]


def test_a_finished_game_shows_no_side_to_move() -> None:
    variant = get_variant("turkish")
    lines = text_board(Position.start(variant), variant, over=True).splitlines()
    assert "to move" not in lines[-1] and "game over" in lines[-1]


def test_italian_board_leaves_light_squares_blank_and_numbers_ranks() -> None:
    variant = get_variant("italian")
    lines = text_board(Position.start(variant), variant).splitlines()
    # Rank 8: the dark squares a8, c8, e8, g8 hold Black men 1-4 (square 1 = a8).
    assert lines[1].startswith(" 8  b   b   b   b")
    assert lines[1].endswith("1-4")
    assert lines[8].endswith("29-32")
    assert sum(line.count("w") for line in lines[1:9]) == 12


def test_kings_are_capitals() -> None:
    variant = get_variant("turkish")
    position = Position.from_fen("W:WKa1,b2:BKh8,g7", variant)
    lines = text_board(position, variant).splitlines()
    assert lines[8].split()[1] == "W" and lines[7].split()[2] == "w"
    assert lines[1].split()[8] == "B" and lines[2].split()[7] == "b"
