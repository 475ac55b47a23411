"""PDN: the syntax layer (tags, move tokens, comments, variations, results), tag names,
export, import, and the export/import round trip for every variant."""

from __future__ import annotations

import random

import pytest

from engine import (
    AmbiguousMoveError,
    Color,
    DamaError,
    Game,
    Move,
    Position,
    Variant,
    get_variant,
    parse_move,
    square_name,
)
from engine.pdn import (
    PdnError,
    PdnMoveError,
    PdnVariantError,
    export_pdn,
    read_pdn,
)
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


# --- import, export, round trip (need the engine's Game and notation) -------------------

# A short capture `from x to` that matches several legal moves, per variant: the position,
# the short text, and the captured squares of each matching move. Worked out by hand from
# docs/RULES.md and checked with the reference generator of tests/engine/oracles:
# - diagonal men (Italian, Moroccan): d3 takes c4 and c6 (via b5) or e4 and e6 (via f5),
#   both ending on d7;
# - a Moroccan flying king on b1 takes d3, c6 and then e6 or f7, ending on b5 both ways;
# - a Turkish/Arab flying king on f1 takes f3, then one of d5, c6, d7, then a4 and a2,
#   ending on a1 three ways (four pieces each, the maximum).
AMBIGUOUS: dict[str, tuple[str, str, list[set[str]]]] = {
    "italian": ("W:Wd3:Bc4,c6,e4,e6", "d3xd7", [{"c4", "c6"}, {"e4", "e6"}]),
    "moroccan": ("W:WKb1,h5:Bd3,c6,e6,f7", "b1xb5", [{"c6", "d3", "e6"}, {"c6", "d3", "f7"}]),
    "turkish": (
        "W:WKf1:Ba2,f3,a4,d5,c6,d7", "f1xa1",
        [{"a2", "a4", "d5", "f3"}, {"a2", "a4", "c6", "f3"}, {"a2", "a4", "d7", "f3"}],
    ),
}
AMBIGUOUS["arab"] = AMBIGUOUS["turkish"]
GAMETYPE = {"italian": "22", "turkish": "30"}  # PDN GameType numbers (FMJD PDN 3.0)
KEYS = ("turkish", "arab", "moroccan", "italian")


def _captured(move: Move) -> set[str]:
    return {square_name(sq) for sq in move.captured}


def _full(move: Move) -> str:
    return ("x" if move.captured else "-").join(square_name(sq) for sq in move.path)


def _random_game(key: str, plies: int, start: Position | None = None, seed: int = 7) -> Game:
    game = Game(get_variant(key), start)
    rng = random.Random(f"{key}-{seed}")
    while game.outcome is None and game.ply < plies:
        game.play(rng.choice(game.legal_moves()))
    return game


@pytest.mark.parametrize("key", sorted(AMBIGUOUS))
def test_ambiguous_positions_are_ambiguous(key: str) -> None:
    fen, short, captured = AMBIGUOUS[key]
    variant = get_variant(key)
    with pytest.raises(AmbiguousMoveError) as info:
        parse_move(short, Position.from_fen(fen, variant), variant)
    got = [_captured(m) for m in info.value.candidates]
    assert sorted(map(sorted, got)) == sorted(map(sorted, captured))


@pytest.mark.parametrize("key", KEYS)
def test_round_trip_from_the_start(key: str) -> None:
    variant = get_variant(key)
    game = _random_game(key, 60)
    if game.outcome is None:
        game.resign(Color.BLACK)
    tags = {
        "Event": "Club night", "Site": "Discord", "Date": "2026.11.30", "Round": "3",
        "White": "Ayşe", "Black": 'Omar "the rook" \\ B', "Annotator": "nobody",
    }
    text = export_pdn(game, tags)
    (back,) = read_pdn(text)
    assert back.variant is variant
    assert back.game.start == game.start
    assert back.game.moves == game.moves
    assert [m.path for m in back.game.moves] == [m.path for m in game.moves]
    expected = {None: PdnResult.DRAW, Color.WHITE: PdnResult.WHITE_WINS,
                Color.BLACK: PdnResult.BLACK_WINS}[game.outcome.winner if game.outcome else None]
    assert back.result is expected
    extra = {"GameType": GAMETYPE[key]} if key in GAMETYPE else {}
    assert dict(back.tags) == {**tags, **extra, "Variant": key, "Result": expected.token}
    assert back.warnings == ()
    assert "FEN" not in text
    assert all(len(line) <= 80 for line in text.splitlines())


@pytest.mark.parametrize("key", KEYS)
def test_round_trip_from_a_fen_with_an_ambiguous_capture(key: str) -> None:
    fen, short, captured = AMBIGUOUS[key]
    variant = get_variant(key)
    start = Position.from_fen(fen, variant)
    game = Game(variant, start)
    # Play the last of the matching moves, so that "keep the first" would be wrong.
    matching = [m for m in game.legal_moves() if _captured(m) in captured
                and square_name(m.end) == short[-2:]]
    assert len(matching) == len(captured)
    game.play(matching[-1])
    rng = random.Random(key)
    while game.outcome is None and game.ply < 6:
        game.play(rng.choice(game.legal_moves()))
    if game.outcome is None:
        game.agree_draw()
    text = export_pdn(game, {"White": "A", "Black": "B"})
    assert _full(matching[-1]) in text  # the full path, since the short form is ambiguous
    (back,) = read_pdn(text)
    assert back.game.start == start
    assert Position.from_fen(back.tags["FEN"], variant) == start
    assert back.game.moves == game.moves
    assert _captured(back.game.moves[0]) == _captured(matching[-1])
    assert back.ambiguities == () and back.warnings == ()
    assert back.result is _result(game)


def _result(game: Game) -> PdnResult:
    assert game.outcome is not None
    return {None: PdnResult.DRAW, Color.WHITE: PdnResult.WHITE_WINS,
            Color.BLACK: PdnResult.BLACK_WINS}[game.outcome.winner]


def test_round_trip_black_to_move_and_numeric_italian() -> None:
    variant = get_variant("italian")
    start = Position.from_fen("B:W21,22,23,24,25:B9,10,11,12", variant)
    game = _random_game("italian", 7, start)
    text = export_pdn(game, {}, numeric=True)
    assert '[FEN "B:W' in text
    assert "\n1... " in text
    movetext = text.split("\n\n")[1]
    assert not any(c in movetext for c in "abcdefgh")
    (back,) = read_pdn(text)
    assert back.game.start == start
    assert back.game.moves == game.moves
    assert back.result is PdnResult.UNKNOWN


def test_export_exact_text() -> None:
    game = Game(get_variant("italian"))
    game.play("b3-a4")
    game.play("g6-f5")
    expected_tags = (
        '[Event "?"]\n[Site "?"]\n[Date "????.??.??"]\n[White "?"]\n[Black "?"]\n'
        '[Result "*"]\n[GameType "22"]\n[Variant "italian"]\n\n'
    )
    assert export_pdn(game) == expected_tags + "1. b3-a4 g6-f5 *\n"
    # docs/RULES.md: 21 = b3, 17 = a4, 12 = g6, 15 = f5.
    assert export_pdn(game, numeric=True) == expected_tags + "1. 21-17 12-15 *\n"
    arab = Game(get_variant("arab"))
    arab.play("a3-a4")
    text = export_pdn(arab, {"Result": "1-0"})
    assert "GameType" not in text and '[Variant "arab"]' in text
    assert text.endswith("\n\n1. a3-a4 1-0\n")


def test_export_refuses_contradictions() -> None:
    game = Game(get_variant("turkish"))
    game.resign(Color.WHITE)
    assert '[Result "0-1"]' in export_pdn(game)
    with pytest.raises(PdnError, match="Result"):
        export_pdn(game, {"Result": "1-0"})
    with pytest.raises(PdnError, match="Variant"):
        export_pdn(game, {"Variant": "italian"})
    with pytest.raises(PdnError, match="GameType"):
        export_pdn(game, {"GameType": "22"})
    with pytest.raises(PdnError, match="numeric"):
        export_pdn(game, numeric=True)
    with pytest.raises(PdnError, match="tag name"):
        export_pdn(game, {"Bad Name": "x"})
    with pytest.raises(PdnError, match="Result"):
        export_pdn(Game(get_variant("turkish")), {"Result": "white won"})
    assert '[GameType "30"]' in export_pdn(game, {"GameType": "30", "Variant": "dama"})


# --- import: look-ahead over ambiguous captures -----------------------------------------


def test_ambiguous_capture_decided_by_the_next_move() -> None:
    head = '[Variant "italian"]\n[FEN "W:Wd3:Bc4,c6,e4,e6"]\n'
    (game,) = read_pdn(head + "1. d3xd7 c6-d5 *")  # c6 still there: d3 took e4 and e6
    assert _captured(game.game.moves[0]) == {"e4", "e6"}
    (game2,) = read_pdn(head + "1. d3xd7 e6-d5 *")
    assert _captured(game2.game.moves[0]) == {"c4", "c6"}
    for pdn in (game, game2):
        assert pdn.warnings == ()
        (amb,) = pdn.ambiguities
        assert amb.resolved and amb.ply == 0 and amb.number == 1 and amb.color is Color.WHITE
        assert len(amb.candidates) == 2 and amb.possible == (amb.chosen,)
        assert amb.text == "d3xd7"


def test_numeric_record_with_italian_tags_decided_by_the_next_move() -> None:
    # docs/RULES.md numbering: d3 = 22, d7 = 6, c6 = 10, d5 = 14, c4 = 18, e4 = 19, e6 = 11.
    text = (
        '[Bianco "A"]\r\n[Nero "B"]\r\n[Risultato "1-0"]\r\n[GameType "22"]\r\n'
        '[FEN "W:W22:B10,11,18,19"]\r\n\r\n1. 22x6 {takes two} 10-14 $3 (1... 11-14) 1-0\r\n'
    )
    (game,) = read_pdn(text)
    assert game.variant.key == "italian"
    assert _captured(game.game.moves[0]) == {"e4", "e6"}
    assert game.tags["White"] == "A" and game.tags["Black"] == "B"
    assert game.result is PdnResult.WHITE_WINS and game.warnings == ()


def test_ambiguity_the_record_does_not_decide_is_a_warning() -> None:
    (game,) = read_pdn('[Variant "italian"]\n[FEN "W:Wd3:Bc4,c6,e4,e6"]\n1. d3xd7 *')
    (amb,) = game.ambiguities
    assert not amb.resolved
    assert amb.chosen == amb.candidates[0] == game.game.moves[0]
    (warning,) = game.warnings
    assert "move 1 (white)" in warning and "'d3xd7'" in warning
    assert "d3xb5xd7" in warning and "d3xf5xd7" in warning


def test_turkish_ambiguity_narrowed_over_two_moves() -> None:
    head = '[GameType "30"]\n[FEN "W:WKf1:Ba2,f3,a4,d5,c6,d7"]\n'
    # d5-d4 rules out taking d5; d7-d6 then rules out taking d7: f1 took c6.
    (game,) = read_pdn(head + "1. f1xa1 d5-d4 2. a1-a2 d7-d6 *")
    assert game.variant.key == "turkish"
    assert _captured(game.game.moves[0]) == {"a2", "a4", "c6", "f3"}
    assert game.warnings == () and game.ambiguities[0].resolved
    (partial,) = read_pdn(head + "1. f1xa1 d5-d4 *")
    (amb,) = partial.ambiguities
    assert len(amb.candidates) == 3
    assert sorted(sorted(_captured(m)) for m in amb.possible) == [
        ["a2", "a4", "c6", "f3"], ["a2", "a4", "d7", "f3"],
    ]
    (warning,) = partial.warnings
    assert "leaves" in warning


# --- import: errors and variant resolution ----------------------------------------------


def test_illegal_move_names_game_move_and_text() -> None:
    text = '[Variant "italian"]\n1. 21-17 *\n\n[Variant "italian"]\n1. 21-17 12-15\n2. 21-17 *'
    with pytest.raises(PdnMoveError) as info:
        read_pdn(text)
    error = info.value
    assert (error.game_index, error.number, error.color, error.text) == (2, 2, Color.WHITE,
                                                                          "21-17")
    assert error.ply == 2 and error.line == 6
    assert isinstance(error, DamaError)
    assert "game 2" in str(error) and "move 2" in str(error) and "'21-17'" in str(error)


def test_malformed_move_is_an_error_too() -> None:
    with pytest.raises(PdnMoveError, match="'hello'"):
        read_pdn("1. 21-17 hello *", variant="italian")


def test_variant_comes_from_tags_else_the_argument() -> None:
    with pytest.raises(PdnVariantError, match="variant"):
        read_pdn("1. 21-17 *")
    (game,) = read_pdn("1. 21-17 *", variant="italian")
    assert game.variant.key == "italian" and game.warnings == ()
    (tagged,) = read_pdn('[GameType "30"]\n1. a3-a4 *', variant="italian")
    assert tagged.variant.key == "turkish"
    assert any("italian" in w for w in tagged.warnings)
    (arab,) = read_pdn('[GameType "30"]\n[Variant "Arab-Dama"]\n1. a3-a4 *')
    assert arab.variant.key == "arab" and len(arab.warnings) == 1
    with pytest.raises(PdnVariantError, match="GameType"):
        read_pdn('[GameType "40"]\n1. 32-28 *')
    with pytest.raises(PdnVariantError, match="contradicts"):
        read_pdn('[GameType "30"]\n[Variant "italian"]\n*')
    with pytest.raises(PdnVariantError, match="unknown variant"):
        read_pdn('[Variant "chess"]\n*')
    (long_form,) = read_pdn('[GameType "22,W,8,8,N2,0"]\n1. 21-17 *')
    assert long_form.variant.key == "italian"


def test_bad_fen_tag_is_an_error() -> None:
    with pytest.raises(PdnError, match="FEN"):
        read_pdn('[Variant "italian"]\n[FEN "W:Wa1:Bh8"]\n*')


def test_results_from_token_and_tag() -> None:
    (game,) = read_pdn('[Variant "turkish"]\n[Result "0-1"]\n1. a3-a4 2-0')
    assert game.result is PdnResult.WHITE_WINS and game.tags["Result"] == "1-0"
    assert len(game.warnings) == 1 and "0-1" in game.warnings[0]
    (tag_only,) = read_pdn('[Variant "turkish"]\n[Result "1/2-1/2"]\n1. a3-a4\n')
    assert tag_only.result is PdnResult.DRAW
    (none,) = read_pdn('[Variant "turkish"]\n1. a3-a4\n')
    assert none.result is PdnResult.UNKNOWN and none.tags["Result"] == "*"


def test_several_games_and_empty_text() -> None:
    assert read_pdn("") == []
    games = read_pdn("1. 21-17 1-0\n1. 22-18 0-1\n*\n", variant="italian")
    assert [g.index for g in games] == [1, 2, 3]
    assert [g.game.ply for g in games] == [1, 1, 0]
    assert [g.result for g in games] == [PdnResult.WHITE_WINS, PdnResult.BLACK_WINS,
                                         PdnResult.UNKNOWN]


def test_look_ahead_is_bounded_and_says_so(monkeypatch: pytest.MonkeyPatch) -> None:
    import engine.pdn

    head = '[GameType "30"]\n[FEN "W:WKf1:Ba2,f3,a4,d5,c6,d7"]\n'
    monkeypatch.setattr(engine.pdn, "MAX_LINES", 2)
    (game,) = read_pdn(head + "1. f1xa1 d5-d4 2. a1-a2 d7-d6 *")
    # Of the three readings of f1xa1 only two were followed; the right one was among them.
    assert _captured(game.game.moves[0]) == {"a2", "a4", "c6", "f3"}
    (warning,) = game.warnings
    assert "only the first 2" in warning and "move 1 (white)" in warning


def test_draw_rules_played_past_are_reported() -> None:
    # Italian short kings shuffle: the start position comes back after plies 4 and 8.
    (game,) = read_pdn(
        '[Variant "italian"]\n[FEN "W:WKa2:BKh7"]\n'
        "1. a2-b3 h7-g8 2. b3-a2 g8-h7 3. a2-b3 h7-g8 4. b3-a2 g8-h7 5. a2-b3 *"
    )
    assert game.game.ply == 9 and game.game.outcome is None
    (warning,) = game.warnings
    assert warning.startswith("move 4 (black, ply 8) draws by threefold repetition")
    assert "1 more time" in warning
    # Turkish: one piece each is a draw at once, here from the start.
    (turkish,) = read_pdn('[Variant "turkish"]\n[FEN "W:WKa1:Bh8"]\n1. a1-a2 h8-h7 *')
    (note,) = turkish.warnings
    assert note.startswith("the start position is already drawn by one piece each")
    assert turkish.game.ply == 2


def test_result_contradicting_the_rules_is_reported() -> None:
    # Black's last man is taken: White wins by rule, but the record says 0-1.
    (game,) = read_pdn('[Variant "italian"]\n[FEN "W:Wd3:Bc4"]\n1. d3xb5 0-1')
    assert game.game.outcome is not None and game.game.outcome.winner is Color.WHITE
    assert game.result is PdnResult.BLACK_WINS
    (warning,) = game.warnings
    assert "0-1" in warning and "1-0" in warning


# --- the a1-dark variants: International (20), English (21), Russian (25), Brazilian (26) ---

INTERNATIONAL = get_variant("international")
BRAZILIAN = get_variant("brazilian")
RUSSIAN = get_variant("russian")
ENGLISH = get_variant("english")


def _played_out(variant: Variant, seed: int, start: Position | None = None) -> Game:
    rng = random.Random(seed)
    game = Game(variant, start)
    while not game.is_over:
        game.play(rng.choice(game.legal_moves()))
    return game


def test_international_round_trip_writes_gametype_20_and_fmjd_numbers() -> None:
    game = _played_out(INTERNATIONAL, 3)
    text = export_pdn(game, {"Event": "test"})
    assert '[GameType "20"]' in text and '[Variant "international"]' in text
    # Numbers, as the FMJD writes them: no file letter in the move text.
    assert not any(c in text.split("\n\n", 1)[1] for c in "abcdefghij")
    (back,) = read_pdn(text)
    assert back.variant is INTERNATIONAL and back.warnings == ()
    assert back.game.moves == game.moves and back.game.position == game.position
    algebraic = export_pdn(game, numeric=False)
    (again,) = read_pdn(algebraic)
    assert again.game.moves == game.moves


def test_international_fen_tag_is_numeric_and_reads_back() -> None:
    start = Position.from_fen("W:W28,33,K45:B12,18,19", INTERNATIONAL)
    game = _played_out(INTERNATIONAL, 1, start)
    text = export_pdn(game)
    assert '[FEN "W:W28,33,K45:B12,18,19"]' in text
    (back,) = read_pdn(text)
    assert back.game.start == start and back.game.moves == game.moves


def test_brazilian_round_trip_writes_gametype_26_and_algebraic_squares() -> None:
    game = _played_out(BRAZILIAN, 3)
    text = export_pdn(game)
    assert '[GameType "26"]' in text and "1. " in text
    assert text.split("\n\n", 1)[1].startswith("1. ") and "-" in text
    (back,) = read_pdn(text)
    assert back.variant is BRAZILIAN and back.game.moves == game.moves
    with pytest.raises(PdnError, match="no numeric notation"):
        export_pdn(game, numeric=True)


def test_the_fmjd_gametype_forms_name_the_a1_dark_variants() -> None:
    (long_form,) = read_pdn('[GameType "20,W,10,10,N2,0"]\n1. 32-28 19-23 2. 28x19 *')
    assert long_form.variant is INTERNATIONAL and long_form.game.ply == 3
    (brazilian,) = read_pdn('[GameType "26,W,8,8,A0,0"]\n1. c3-d4 f6-e5 2. d4xf6 *')
    assert brazilian.variant is BRAZILIAN and brazilian.game.ply == 3
    (named,) = read_pdn('[Variant "international"]\n1. 32-28 *')
    assert named.variant is INTERNATIONAL
    (given,) = read_pdn("1. c3-d4 *", variant="brazilian")
    assert given.variant is BRAZILIAN


#: The first game of the 2003 World Championship as the PDN standard's repository records it
#: (wiegerw/pdn, games/succeed/wk2003.pdn: Ndjofang - Heusdens, round 1, GameType 20).
WK2003_GAME_1 = """[Event "WK 2003"]
[Date "2003.05.23"]
[Site "Zwartewaterland, Netherlands"]
[White "Ndjofang, J.M."]
[Black "Heusdens, R."]
[Result "1/2-1/2"]
[Round "1"]
[GameType "20"]

1. 32-28 17-22 2. 28x17 12x21 3. 31-26 7-12 4. 26x17 12x21
5. 36-31 19-23 6. 34-29 23x34 7. 39x30 20-24 8. 30x19 14x23
9. 37-32 21-27 10. 31x22 18x27 11. 32x21 16x27 12. 41-37 10-14
13. 46-41 11-17 14. 33-29 23x34 15. 40x29 6-11 16. 35-30 14-20
17. 45-40 20-24 18. 30x19 13x33 19. 38x29 5-10 20. 42-38 10-14
21. 44-39 8-12 22. 40-34 14-19 23. 50-44 2-7 24. 48-42 19-23
25. 29x18 12x23 26. 39-33 7-12 27. 33-28 23x32 28. 37x28 9-13
29. 44-39 3-9 30. 38-33 9-14 31. 34-30 17-21 32. 33-29 21-26
33. 43-38 1-7 34. 41-37 11-17 35. 39-34 7-11 36. 30-24 11-16
37. 34-30 27-31 38. 28-23 16-21 39. 30-25 12-18 40. 23x12 17x8
1/2-1/2
"""


def test_a_real_international_record_replays_with_its_result() -> None:
    (game,) = read_pdn(WK2003_GAME_1)
    assert game.variant is INTERNATIONAL and game.warnings == ()
    assert game.result is PdnResult.DRAW and game.game.ply == 80
    assert game.tags["White"] == "Ndjofang, J.M."
    exported = export_pdn(game.game, dict(game.tags))
    assert "40. 23x12 17x8" in exported and '[GameType "20"]' in exported
    (again,) = read_pdn(exported)
    assert again.game.moves == game.game.moves


def test_russian_round_trip_writes_gametype_25_and_colon_captures() -> None:
    # The FMJD's table: `25,W,8,8,A0,0`, captures separated by `:` (c3:e5).
    game = _played_out(RUSSIAN, 5)
    text = export_pdn(game)
    body = text.split("\n\n", 1)[1]
    assert '[GameType "25"]' in text and '[Variant "russian"]' in text
    assert any(m.captured for m in game.moves)
    assert ":" in body and "x" not in body
    (back,) = read_pdn(text)
    assert back.variant is RUSSIAN and back.warnings == ()
    assert back.game.moves == game.moves and back.game.position == game.position


def test_english_round_trip_writes_gametype_21_and_numbers_black_first() -> None:
    # The FMJD's table: `21,B,8,8,N1,0`: numbers 1..32, Black first (`1. 11-15`, say).
    game = _played_out(ENGLISH, 5)
    text = export_pdn(game)
    body = text.split("\n\n", 1)[1]
    assert '[GameType "21"]' in text and '[Variant "english"]' in text
    assert body.startswith("1. ") and not any(c in body for c in "abcdefgh")
    assert "FEN" not in text
    (back,) = read_pdn(text)
    assert back.variant is ENGLISH and back.game.start.turn is Color.BLACK
    assert back.game.moves == game.moves and back.warnings == ()
    assert game.outcome is not None
    winner = game.outcome.winner
    # White first, as PDN reads results: `1-0` is White's win in GameType 21 too.
    assert back.result is {Color.WHITE: PdnResult.WHITE_WINS, None: PdnResult.DRAW,
                           Color.BLACK: PdnResult.BLACK_WINS}[winner]
    assert body.rstrip().endswith(back.result.token)


def test_gametypes_21_and_25_name_english_and_russian() -> None:
    (english,) = read_pdn('[GameType "21,B,8,8,N1,0"]\n1. 11-15 22-18 2. 15x22 *')
    assert english.variant is ENGLISH and english.game.ply == 3
    (russian,) = read_pdn('[GameType "25"]\n1. c3-d4 f6-e5 2. d4:f6 *')
    assert russian.variant is RUSSIAN and russian.game.ply == 3


def test_results_are_read_white_first_unless_told() -> None:
    # PDN 3.0 takes its Result tag from PGN (`1-0`: White wins), in every GameType.
    text = '[GameType "21"]\n[Result "1-0"]\n1. 11-15 1-0'
    (standard,) = read_pdn(text)
    assert standard.result is PdnResult.WHITE_WINS
    (black_first,) = read_pdn(text, result_first=Color.BLACK)
    assert black_first.result is PdnResult.BLACK_WINS
    assert black_first.tags["Result"] == "0-1" and black_first.warnings == ()
    (draw,) = read_pdn('[GameType "21"]\n1. 11-15 1/2-1/2', result_first=Color.BLACK)
    assert draw.result is PdnResult.DRAW


def test_a_fen_tag_ending_with_a_dot_is_read() -> None:
    # PDN 3.0's FEN grammar ends with `DOT?`; only writers must leave the dot out.
    (game,) = read_pdn('[GameType "26"]\n[FEN "W:Wc3:Bf6."]\n1. c3-d4 *')
    assert game.game.start == Position.from_fen("W:Wc3:Bf6", BRAZILIAN)
    assert game.warnings == ()


def test_a_russian_fen_in_numbers_is_read_with_the_boards_numbers_and_a_warning() -> None:
    # Russian's GameType (25) has algebraic squares; a FEN written in numbers is read with
    # English checkers' numbers (the same board: 1 = b8, 29 = a1, 32 = g1).
    (game,) = read_pdn('[FEN "W:W29,K22:B5."]\n1. a1-b2 *', variant="russian")
    assert game.game.start == Position.from_fen("W:Wa1,Kc3:Ba7", RUSSIAN)
    (warning,) = game.warnings
    assert "numbers" in warning and "English checkers" in warning
    with pytest.raises(PdnError, match="FEN tag"):
        read_pdn('[FEN "W:W29:B5"]\n1. a2-a3 *', variant="turkish")


def test_a_game_without_its_variant_names_every_variant_pdn_reads() -> None:
    with pytest.raises(PdnVariantError, match="russian, english"):
        read_pdn("1. c3-d4 *")
