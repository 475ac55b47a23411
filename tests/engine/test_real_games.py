"""Real games: the 27 games of the 69th Italian Absolute Championship (2005), rounds 1-3
(tests/data/README.md), replayed through the PDN importer with legal moves only.

Expected figures come from the file itself (its Risultato tags, its move text counted with a
plain regular expression) and from the independent reference generator in
tests/engine/oracles (written from docs/RULES.md, sharing no code with the engine), never from
the engine's own output.
"""

from __future__ import annotations

import collections
import re
from pathlib import Path

import pytest

from engine import Color, Move, square_name
from engine.pdn import PdnGame, PdnResult, read_pdn
from tests.engine.oracles import reference as oracle
from tests.engine.oracles.board import italian_square, parse_fen, to_fen

DATA = Path(__file__).parent.parent / "data" / "italian-assoluto-2005-rounds-1-3.pdn"

# The Risultato tag of each game, in file order (read off the file).
RECORDED = [
    "1-0", "1/2-1/2", "1/2-1/2", "0-1", "1/2-1/2", "1/2-1/2", "0-1", "1-0", "0-1",
    "1/2-1/2", "1/2-1/2", "1/2-1/2", "1-0", "0-1", "1/2-1/2", "0-1", "1-0", "0-1",
    "1-0", "0-1", "1/2-1/2", "0-1", "1/2-1/2", "1/2-1/2", "1-0", "1/2-1/2", "0-1",
]

# Game 25 (Giocatore 01 - Giocatore 06, round 3) shuffles kings and men back and forth near
# its end: the same position with the same side to move occurs a third time at its ply 101
# (move 51, White: 26-22). Italian draws by threefold repetition (docs/RULES.md); the record plays
# on, and the replay reports that (docs/RULES.md: "reports (but does not stop at) a draw rule that
# the record played past"). Found with the reference generator, see
# test_repetition_in_game_25_is_real.
REPETITION_GAME = 25
REPETITION_PLY = 101  # 1-based: the position after this ply is the third occurrence


@pytest.fixture(scope="module")
def games() -> list[PdnGame]:
    return read_pdn(DATA.read_text(encoding="utf-8"), variant="italian")


def _chunks() -> list[str]:
    """The move text of each game, by plain text handling independent of engine.pdn_syntax."""
    text = DATA.read_text(encoding="utf-8")
    parts = re.split(r"\[Dati ", text)[1:]
    chunks = []
    for part in parts:
        body = part[part.rindex("]") + 1:]
        body = re.sub(r"\{[^}]*\}", " ", body)
        body = re.sub(r"1/2-1/2|\b1-0\b|\b0-1\b", " ", body)
        chunks.append(body)
    return chunks


def _plies_in_file() -> list[int]:
    return [len(re.findall(r"\b\d{1,2}[-x]\d{1,2}\b", chunk)) for chunk in _chunks()]


def test_every_game_is_read_with_its_recorded_result(games: list[PdnGame]) -> None:
    assert len(games) == 27
    assert [g.result.token for g in games] == RECORDED
    assert collections.Counter(g.result for g in games) == {
        PdnResult.WHITE_WINS: 6, PdnResult.BLACK_WINS: 9, PdnResult.DRAW: 12,
    }
    assert all(g.variant.key == "italian" for g in games)
    assert [g.tags["Result"] for g in games] == RECORDED
    assert games[0].tags["White"] == "Giocatore 01"
    assert games[0].tags["Black"] == "Giocatore 02"
    assert games[0].tags["Event"] == "69° ASSOLUTO 1° TURNO"
    assert games[0].tags["Date"] == "2005.??.??"
    assert games[26].tags["Event"] == "69° ASSOLUTO 3° TURNO"


def test_every_move_is_played(games: list[PdnGame]) -> None:
    expected = _plies_in_file()
    assert sum(expected) == 1752
    assert [g.game.ply for g in games] == expected
    assert [len(g.game.moves) for g in games] == expected


def test_no_game_is_over_by_rule(games: list[PdnGame]) -> None:
    # Every game ends by resignation or agreement: the side to move still has a legal move
    # (checked against the reference generator below), so the rules decided nothing.
    assert [g.game.outcome for g in games] == [None] * 27


def _oracle_identity(move: Move) -> tuple[str, str, frozenset[str]]:
    return (square_name(move.start), square_name(move.end),
            frozenset(square_name(sq) for sq in move.captured))


def test_moves_are_legal_by_the_reference_generator(games: list[PdnGame]) -> None:
    for pdn in games:
        board, side = parse_fen(oracle.START_FENS["italian"])
        for ply, move in enumerate(pdn.game.moves):
            legal = oracle.legal_moves(board, side, "italian")
            key = _oracle_identity(move)
            assert key in legal, f"game {pdn.index}, ply {ply + 1}: {move} is not legal"
            board, side = oracle.apply_route(board, side, legal[key][0], "italian")
        assert oracle.legal_moves(board, side, "italian"), f"game {pdn.index} ends blocked"
        assert parse_fen(pdn.game.position.to_fen(pdn.variant)) == (board, side)
        assert (pdn.game.position.turn is Color.WHITE) == (side == "w")


def test_no_capture_in_the_file_is_ambiguous(games: list[PdnGame]) -> None:
    # With the reference generator: no start-end text of the file matches two legal moves,
    # so the importer must have nothing to warn about beyond the draw rule of game 25.
    for chunk, pdn in zip(_chunks(), games, strict=True):
        board, side = parse_fen(oracle.START_FENS["italian"])
        for text in re.findall(r"\b(\d{1,2})([-x])(\d{1,2})\b", chunk):
            a, sep, b = italian_square(int(text[0])), text[1], italian_square(int(text[2]))
            legal = oracle.legal_moves(board, side, "italian")
            matching = [k for k in legal if k[0] == a and k[1] == b and bool(k[2]) == (sep == "x")]
            assert len(matching) == 1, (pdn.index, text, matching)
            board, side = oracle.apply_route(board, side, legal[matching[0]][0], "italian")
    assert all(g.ambiguities == () for g in games)


def test_repetition_in_game_25_is_real() -> None:
    text = _chunks()[REPETITION_GAME - 1]
    board, side = parse_fen(oracle.START_FENS["italian"])
    seen = collections.Counter([to_fen(board, side)])
    third = None
    for ply, (a, _sep, b) in enumerate(re.findall(r"\b(\d{1,2})([-x])(\d{1,2})\b", text), 1):
        start, end = italian_square(int(a)), italian_square(int(b))
        legal = oracle.legal_moves(board, side, "italian")
        (key,) = [k for k in legal if k[0] == start and k[1] == end]
        board, side = oracle.apply_route(board, side, legal[key][0], "italian")
        seen[to_fen(board, side)] += 1
        if third is None and seen[to_fen(board, side)] == 3:
            third = ply
    assert third == REPETITION_PLY


def test_warnings_are_exactly_the_real_ones(games: list[PdnGame]) -> None:
    noted = {g.index: g.warnings for g in games if g.warnings}
    assert set(noted) == {REPETITION_GAME}
    (warning,) = noted[REPETITION_GAME]
    assert "repetition" in warning
    assert "move 51" in warning
