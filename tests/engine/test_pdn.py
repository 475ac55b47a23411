"""PDN: the syntax layer (tags, move tokens, comments, variations, results), tag names,
export, import, and the export/import round trip for every variant."""

from __future__ import annotations

import pytest

from engine.errors import DamaError
from engine.pdn_syntax import PdnSyntaxError, split_games
from engine.pdn_tags import PdnResult, format_tag, normalize_tags, standard_tag_name

# --- syntax -----------------------------------------------------------------------------


def _texts(game_moves: tuple[object, ...]) -> list[str]:
    return [m.text for m in game_moves]  # type: ignore[attr-defined]


def test_tags_moves_and_result_are_split_out() -> None:
    text = '[Event "Club"]\n[White "A \\"Ace\\" B"]\n\n1. d3-d4 e6-e5 2. d4xd6 1-0\n'
    (game,) = split_games(text)
    assert game.tags == (("Event", "Club"), ("White", 'A "Ace" B'))
    assert _texts(game.moves) == ["d3-d4", "e6-e5", "d4xd6"]
    assert [m.number for m in game.moves] == [1, None, 2]
    assert game.result_token == "1-0"
    assert game.index == 1 and game.line == 1


def test_comments_variations_nags_and_marks_are_skipped() -> None:
    text = (
        "1. 21-17 {a comment\nover two lines (with a paren} 12-15! ; rest of line 9-13\n"
        "2. 23-19 (2. 22-18 {x} (2. 24-20 9-13) 10-14) $14 11-14?! 3...  10-13 *"
    )
    (game,) = split_games(text)
    assert _texts(game.moves) == ["21-17", "12-15", "23-19", "11-14", "10-13"]
    assert game.moves[-1].number == 3
    assert game.result_token == "*"


def test_move_number_glued_to_the_move() -> None:
    (game,) = split_games("1.21-17 12-15 2...10-14 0-2")
    assert _texts(game.moves) == ["21-17", "12-15", "10-14"]
    assert [m.number for m in game.moves] == [1, None, 2]
    assert game.result_token == "0-2"


@pytest.mark.parametrize("token", ["1-0", "0-1", "1/2-1/2", "*", "2-0", "0-2", "1-1", "0-0"])
def test_every_result_token_ends_a_game(token: str) -> None:
    games = split_games(f"1. 21-17 {token} 1. 22-18 *")
    assert [g.result_token for g in games] == [token, "*"]
    assert [_texts(g.moves) for g in games] == [["21-17"], ["22-18"]]


def test_crlf_cr_and_bom_and_line_numbers() -> None:
    text = '\ufeff[Event "x"]\r\n\r\n1. 21-17\r12-15\r\n2. 23-19 1/2-1/2\r\n'
    (game,) = split_games(text)
    assert [(m.text, m.line) for m in game.moves] == [("21-17", 3), ("12-15", 4), ("23-19", 5)]
    assert game.tags == (("Event", "x"),)


def test_tags_after_move_text_start_the_next_game() -> None:
    text = '[Event "one"]\n1. 21-17 12-15\n[Event "two"]\n1. 22-18\n'
    games = split_games(text)
    assert [g.tags for g in games] == [(("Event", "one"),), (("Event", "two"),)]
    assert [g.result_token for g in games] == [None, None]
    assert [g.index for g in games] == [1, 2]
    assert [g.line for g in games] == [1, 3]


def test_escape_lines_and_empty_text() -> None:
    assert split_games("") == []
    assert split_games("  {only a comment}\n; and another\n") == []
    (game,) = split_games("% a PGN escape line [not a tag\n1. 21-17 *")
    assert _texts(game.moves) == ["21-17"]


def test_game_without_moves_keeps_its_tags() -> None:
    (game,) = split_games('[White "A"]\n[Result "*"]\n*\n')
    assert game.moves == ()
    assert game.tags == (("White", "A"), ("Result", "*"))


@pytest.mark.parametrize(
    ("text", "line"),
    [
        ("1. 21-17\n{never closed", 2),
        ("1. 21-17\n\n(2. 22-18 {x} 9-13", 3),
        ("1. 21-17 ) 12-15", 1),
        ('[Event "x"]\n[Site unquoted]\n', 2),
        ("1. 21-17 } *", 1),
    ],
)
def test_broken_structure_raises_with_the_line(text: str, line: int) -> None:
    with pytest.raises(PdnSyntaxError) as info:
        split_games(text)
    assert info.value.line == line
    assert f"line {line}" in str(info.value)
    assert isinstance(info.value, DamaError) and isinstance(info.value, ValueError)


# --- tags and results -------------------------------------------------------------------


def test_italian_tag_names_map_to_standard_ones() -> None:
    pairs = [
        ("Dati", "69° ASSOLUTO 1° TURNO"), ("Anno", "2005"), ("Bianco", "Rossi"),
        ("Nero", "Bianchi"), ("Risultato", "1-0"), ("Apertura", "0028"),
    ]
    tags, warnings = normalize_tags(pairs)
    assert tags == {
        "Event": "69° ASSOLUTO 1° TURNO", "Date": "2005.??.??", "White": "Rossi",
        "Black": "Bianchi", "Result": "1-0", "Opening": "0028",
    }
    assert warnings == []


def test_tag_name_case_and_clashes() -> None:
    assert standard_tag_name("gametype") == "GameType"
    assert standard_tag_name("WHITE") == "White"
    assert standard_tag_name("Custom") == "Custom"
    tags, warnings = normalize_tags(
        [("Event", "A"), ("Torneo", "B"), ("White", "x"), ("White", "y"), ("White", "x")]
    )
    assert tags == {"Event": "A", "Torneo": "B", "White": "x"}
    assert len(warnings) == 1 and "White" in warnings[0] and "'y'" in warnings[0]


@pytest.mark.parametrize(
    ("token", "result"),
    [
        ("1-0", PdnResult.WHITE_WINS), ("2-0", PdnResult.WHITE_WINS),
        ("0-1", PdnResult.BLACK_WINS), ("0-2", PdnResult.BLACK_WINS),
        ("1/2-1/2", PdnResult.DRAW), ("1-1", PdnResult.DRAW), ("½-½", PdnResult.DRAW),
        ("*", PdnResult.UNKNOWN), ("0-0", PdnResult.UNKNOWN), (" 1-0 ", PdnResult.WHITE_WINS),
        ("1-2", None), ("draw", None),
    ],
)
def test_result_tokens(token: str, result: PdnResult | None) -> None:
    assert PdnResult.from_token(token) is result


def test_format_tag_escapes_and_refuses_bad_names() -> None:
    assert format_tag("White", 'A "B" \\ C') == '[White "A \\"B\\" \\\\ C"]'
    assert format_tag("Event", "two\nlines") == '[Event "two lines"]'
    with pytest.raises(ValueError, match="tag name"):
        format_tag("Bad Name", "x")
    # What format_tag writes, split_games reads back unchanged.
    (game,) = split_games(format_tag("White", 'A "B" \\ C') + "\n*")
    assert game.tags == (("White", 'A "B" \\ C'),)
