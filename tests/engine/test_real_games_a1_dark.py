"""Real games of three a1-dark variants (docs/RULES.md, "Family 3") replayed through the PDN
importer with legal moves only: 23 games of International draughts (WK 2003), 43 of English
checkers (1841-1849) and 34 of Russian draughts (the 10th USSR Championship);
tests/data/README.md.

Expected figures come from the files themselves (their tags and their move text counted
with plain regular expressions) and from generators that share no code with the engine:
the reference generator of tests/engine/oracles for the two 8×8 variants, pydraughts
(0.6.7, its "standard" variant with the FMJD's square numbers) for International.
"""

from __future__ import annotations

import re
from pathlib import Path

import draughts
import pytest

from engine import Color, Move, square_name
from engine.pdn import PdnGame, PdnResult, read_pdn
from engine.squares10 import fmjd_number
from tests.engine.oracles import reference as oracle
from tests.engine.oracles.board import english_square, parse_fen

DATA = Path(__file__).parent.parent / "data"
INTERNATIONAL = DATA / "international-wk2003-rounds-1-3.pdn"
ENGLISH = DATA / "english-oca-1841-1849.pdn"
RUSSIAN = DATA / "russian-ussr-championship-x-games-1-34.pdn"

_RESULT = re.compile(r"1/2-1/2|\b1-0\b|\b0-1\b|\*")
_RESULT_TAG = re.compile(r'^\[Result "([^"]*)"\]', re.MULTILINE)
_NUMERIC_MOVE = re.compile(r"\b\d{1,2}(?:[-x]\d{1,2})+\b")
_RUSSIAN_MOVE = re.compile(r"\b[a-h][1-8](?:[-:][a-h][1-8])+\b")


def _games_text(path: Path) -> list[str]:
    """Each game of the file (tags and moves), split before its first tag line."""
    text = path.read_text(encoding="utf-8")
    return [g for g in re.split(r"\n(?=\[)(?<!\]\n)", "\n" + text) if g.strip()]


def _move_texts(game: str) -> str:
    """The move text of one game: tag lines, comments and results removed."""
    body = "\n".join(line for line in game.splitlines() if not line.startswith("["))
    body = re.sub(r"\{[^}]*\}", " ", body)
    return _RESULT.sub(" ", body)


def _result_tags(path: Path) -> list[str]:
    return _RESULT_TAG.findall(path.read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def international() -> list[PdnGame]:
    return read_pdn(INTERNATIONAL.read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def english() -> list[PdnGame]:
    return read_pdn(ENGLISH.read_text(encoding="utf-8"), variant="english",
                    result_first=Color.BLACK)


@pytest.fixture(scope="module")
def russian() -> list[PdnGame]:
    return read_pdn(RUSSIAN.read_text(encoding="utf-8"), variant="russian")


# --- International draughts -----------------------------------------------------------


def test_international_games_and_plies_are_those_of_the_file(
    international: list[PdnGame],
) -> None:
    chunks = _games_text(INTERNATIONAL)
    plies = [len(_NUMERIC_MOVE.findall(_move_texts(c))) for c in chunks]
    assert len(chunks) == len(international) == 23
    assert sum(plies) == 2381
    assert [g.game.ply for g in international] == plies
    assert all(g.variant.key == "international" for g in international)
    assert [g.result.token for g in international] == _result_tags(INTERNATIONAL)
    assert all(g.warnings == () and g.ambiguities == () for g in international)


@pytest.mark.slow
def test_international_moves_are_legal_by_pydraughts(international: list[PdnGame]) -> None:
    # Slow suite (35 s: pydraughts is slow on 10×10). Every start-end text of the file
    # names exactly one of pydraughts' moves (start, end, captured squares), and the
    # engine played that move.
    for chunk, pdn in zip(_games_text(INTERNATIONAL), international, strict=True):
        board = draughts.Board("standard")
        texts = _NUMERIC_MOVE.findall(_move_texts(chunk))
        for ply, (text, move) in enumerate(zip(texts, pdn.game.moves, strict=True)):
            squares = [int(s) for s in re.split(r"[-x]", text)]
            routes, captures = board._legal_moves_board()
            found = {
                (r[0][0], r[-1][1], frozenset(c for c in cap if c is not None)): r
                for r, cap in zip(routes, captures, strict=True)
                if r[0][0] == squares[0] and r[-1][1] == squares[-1]
            }
            assert len(found) == 1, (pdn.index, ply + 1, text, sorted(found))
            (start, end, taken), route = next(iter(found.items()))
            assert _fmjd(move) == (start, end, taken), (pdn.index, ply + 1, text)
            board.push(draughts.Move(board, board_move=route))


def _fmjd(move: Move) -> tuple[int, int, frozenset[int]]:
    return (fmjd_number(move.start), fmjd_number(move.end),
            frozenset(fmjd_number(sq) for sq in move.captured))


# --- the two 8×8 variants, against the reference generator ------------------------------


def _identity(move: Move) -> tuple[str, str, frozenset[str]]:
    return (square_name(move.start), square_name(move.end),
            frozenset(square_name(sq) for sq in move.captured))


def _replay_with_the_reference(
    texts: list[tuple[str, str]], games: list[PdnGame], variant: str
) -> list[tuple[dict[str, str], str]]:
    """Play each game's (start, end) squares through the reference generator, checking
    that exactly one legal move matches each and that the engine played it; the final
    board and side of each game."""
    finals = []
    for (chunk, squares), pdn in zip(texts, games, strict=True):
        board, side = parse_fen(oracle.START_FENS[variant])
        plies = squares_of(chunk, squares)
        assert len(plies) == len(pdn.game.moves)
        for ply, ((start, end, capture), move) in enumerate(
            zip(plies, pdn.game.moves, strict=True)
        ):
            legal = oracle.legal_moves(board, side, variant)
            matching = [k for k in legal if k[0] == start and k[1] == end
                        and bool(k[2]) == capture]
            assert len(matching) == 1, (pdn.index, ply + 1, start, end, matching)
            assert _identity(move) == matching[0], (pdn.index, ply + 1)
            board, side = oracle.apply_route(board, side, legal[matching[0]][0], variant)
        assert parse_fen(pdn.game.position.to_fen(pdn.variant)) == (board, side)
        finals.append((board, side))
    return finals


def squares_of(chunk: str, kind: str) -> list[tuple[str, str, bool]]:
    """(start, end, is a capture) of each move of a game's text: numeric English squares
    (`11-15`, `26x17x10x1`) or algebraic Russian ones (`c3-d4`, `d4:g5`)."""
    if kind == "english":
        out = []
        for text in _NUMERIC_MOVE.findall(_move_texts(chunk)):
            numbers = [int(s) for s in re.split(r"[-x]", text)]
            out.append((english_square(numbers[0]), english_square(numbers[-1]), "x" in text))
        return out
    return [(t[:2], t[-2:], ":" in t) for t in _RUSSIAN_MOVE.findall(_move_texts(chunk))]


# --- English checkers -------------------------------------------------------------------


def test_english_games_and_plies_are_those_of_the_file(english: list[PdnGame]) -> None:
    chunks = _games_text(ENGLISH)
    plies = [len(_NUMERIC_MOVE.findall(_move_texts(c))) for c in chunks]
    assert len(chunks) == len(english) == 43
    assert sum(plies) == 2280
    assert [g.game.ply for g in english] == plies
    assert all(g.variant.key == "english" for g in english)
    assert all(g.game.start.turn is Color.BLACK for g in english)
    assert all(g.warnings == () and g.ambiguities == () for g in english)


def test_english_results_are_read_black_first(english: list[PdnGame]) -> None:
    # The file writes Black's score first (tests/data/README.md): its `1-0` is a win for
    # Black, read as PdnResult.BLACK_WINS and given back White first.
    black_first = {"1-0": PdnResult.BLACK_WINS, "0-1": PdnResult.WHITE_WINS,
                   "1/2-1/2": PdnResult.DRAW, "*": PdnResult.UNKNOWN}
    assert [g.result for g in english] == [black_first[t] for t in _result_tags(ENGLISH)]
    assert all(g.tags["Result"] == g.result.token for g in english)
    # Read so, the winner made the last move of 18 of the 20 decided games; read White
    # first, 2 of them.
    decided = [g for g in english if g.result in (PdnResult.WHITE_WINS, PdnResult.BLACK_WINS)]
    last_mover = [g.game.position.turn.opponent for g in decided]
    winners = [Color.WHITE if g.result is PdnResult.WHITE_WINS else Color.BLACK
               for g in decided]
    assert len(decided) == 20
    assert sum(w is m for w, m in zip(winners, last_mover, strict=True)) == 18


def test_english_results_read_white_first_by_default() -> None:
    games = read_pdn(ENGLISH.read_text(encoding="utf-8"), variant="english")
    assert [g.result.token for g in games] == _result_tags(ENGLISH)


def test_english_moves_are_legal_by_the_reference_generator(english: list[PdnGame]) -> None:
    chunks = [(c, "english") for c in _games_text(ENGLISH)]
    finals = _replay_with_the_reference(chunks, english, "english")
    _check_ends(finals, english, "english")


# --- Russian draughts -------------------------------------------------------------------


def test_russian_games_and_plies_are_those_of_the_file(russian: list[PdnGame]) -> None:
    chunks = _games_text(RUSSIAN)
    plies = [len(_RUSSIAN_MOVE.findall(_move_texts(c))) for c in chunks]
    assert len(chunks) == len(russian) == 34
    assert sum(plies) == 1950
    assert [g.game.ply for g in russian] == plies
    assert all(g.variant.key == "russian" for g in russian)
    assert [g.result.token for g in russian] == _result_tags(RUSSIAN)
    assert all(g.ambiguities == () for g in russian)


def test_russian_fen_tags_are_read_with_a_warning_for_their_numbers(
    russian: list[PdnGame],
) -> None:
    # Each game's FEN is the start position written in numbers with a final dot
    # (`W:W29,...:B...,4.`): the dot is read (PDN 3.0's FEN grammar ends `DOT?`), the
    # numbers too, with the one warning saying how.
    fens = re.findall(r'^\[FEN "([^"]*)"\]', RUSSIAN.read_text(encoding="utf-8"), re.M)
    assert len(fens) == 34 and all(f.endswith(".") for f in fens)
    for pdn in russian:
        assert pdn.game.start == pdn.game.positions()[0]
        assert parse_fen(pdn.game.start.to_fen(pdn.variant)) == parse_fen(
            oracle.START_FENS["russian"])
        (warning,) = pdn.warnings
        assert "numbers" in warning and "English checkers" in warning


def test_russian_moves_are_legal_by_the_reference_generator(russian: list[PdnGame]) -> None:
    chunks = [(c, "russian") for c in _games_text(RUSSIAN)]
    finals = _replay_with_the_reference(chunks, russian, "russian")
    _check_ends(finals, russian, "russian")


def test_russian_man_crowned_mid_capture_ends_a_king() -> None:
    # Game 34, move 27 (White): `d4:g5`, by d4-b6-d8-g5: crowned on d8, the man goes on
    # as a king and stands on g5 a king (docs/RULES.md, "Russian draughts").
    chunk = _games_text(RUSSIAN)[33]
    plies = squares_of(chunk, "russian")
    assert plies[52] == ("d4", "g5", True)
    assert re.search(r"\b27\. d4:g5\b", chunk)
    (pdn,) = read_pdn(chunk, variant="russian")
    move = pdn.game.moves[52]
    before, after = pdn.game.positions()[52], pdn.game.positions()[53]
    assert [square_name(sq) for sq in move.path][:3] == ["d4", "b6", "d8"]
    assert square_name(move.end) == "g5"
    assert len(move.captured) == 3
    assert before.turn is Color.WHITE
    assert before.white_men >> move.start & 1
    assert after.white_kings >> move.end & 1
    assert not after.white_men >> move.end & 1


def _check_ends(
    finals: list[tuple[dict[str, str], str]], games: list[PdnGame], variant: str
) -> None:
    """Where a game ended on the board (the side to move has no legal move), the engine
    says so and the recorded result is that side's loss; elsewhere the engine leaves the
    game open, as the records end by resignation or agreement."""
    ended = 0
    for (board, side), pdn in zip(finals, games, strict=True):
        if oracle.legal_moves(board, side, variant):
            assert pdn.game.outcome is None, pdn.index
            continue
        ended += 1
        loser = PdnResult.WHITE_WINS if side == "b" else PdnResult.BLACK_WINS
        assert pdn.game.outcome is not None and pdn.result is loser, pdn.index
    assert ended == sum(g.game.outcome is not None for g in games)
