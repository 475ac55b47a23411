"""Puzzle verification and mining on hand-made positions whose answers were worked out by
hand (tests/support/puzzles.py), and the mining command on a PDN game."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from engine import Game, Position, Variant, format_move, get_variant, legal_moves
from engine.search import MATE_BOUND, search
from puzzles.bank import BankFile
from puzzles.cli import main, self_play_positions
from puzzles.mining import (
    MiningSettings,
    NodeBudget,
    Rejection,
    VerifiedLine,
    material,
    mine_game,
    move_texts,
    screen,
    verify_puzzle,
)
from tests.support.puzzles import SHOT, SHOT_BEFORE, SHOT_LINES, TWO_WINS

ITALIAN = get_variant("italian")


def test_the_hand_made_shot_is_a_puzzle_with_its_forced_line() -> None:
    position = Position.from_fen(SHOT, ITALIAN)
    result = verify_puzzle(position, ITALIAN)
    assert isinstance(result, VerifiedLine)
    assert move_texts(position, ITALIAN, result.moves) in SHOT_LINES
    assert result.depth > len(result.moves)  # verified deeper than the line
    assert result.score >= 100 and result.runner_up < 100


def test_a_position_with_two_winning_moves_is_rejected() -> None:
    position = Position.from_fen(TWO_WINS, ITALIAN)
    assert verify_puzzle(position, ITALIAN) is Rejection.NOT_UNIQUE


def test_the_start_position_is_no_puzzle() -> None:
    assert not isinstance(verify_puzzle(Position.start(ITALIAN), ITALIAN), VerifiedLine)


def test_a_node_budget_skips_a_costly_candidate_and_never_changes_an_accepted_line() -> None:
    position = Position.from_fen(SHOT, ITALIAN)
    full = verify_puzzle(position, ITALIAN)
    assert isinstance(full, VerifiedLine)
    # Too small a budget: the shot is skipped, not accepted on an unfinished search.
    assert verify_puzzle(position, ITALIAN, budget=50) is Rejection.OVER_BUDGET
    spent = NodeBudget(10**9)
    assert verify_puzzle(position, ITALIAN, budget=spent) == full
    assert spent.left is not None
    cost = 10**9 - spent.left
    # A little more than what it cost is enough (the search reads its budget every 256
    # nodes); any budget in between gives the same puzzle or a skip, never another answer.
    assert verify_puzzle(position, ITALIAN, budget=cost + 256) == full
    for budget in (cost // 8, cost // 4, cost // 2):
        assert verify_puzzle(position, ITALIAN, budget=budget) in (full, Rejection.OVER_BUDGET)


def test_mining_under_a_node_budget_skips_and_reports_the_costly_candidates() -> None:
    game = Game(ITALIAN, Position.from_fen(SHOT_BEFORE, ITALIAN), enforce_draw_rules=False)
    game.play("f7-e6")
    game.play("c4-d5")
    skipped: list[int] = []
    assert mine_game(game.positions(), ITALIAN, node_budget=50, skipped=skipped) == []
    assert 1 in skipped
    assert [f.ply for f in mine_game(game.positions(), ITALIAN, node_budget=10**9)] == [1]


def test_mining_a_game_finds_the_shot_it_walked_into() -> None:
    game = Game(ITALIAN, Position.from_fen(SHOT_BEFORE, ITALIAN), enforce_draw_rules=False)
    game.play("f7-e6")
    game.play("c4-d5")
    found = mine_game(game.positions(), ITALIAN)
    assert [f.ply for f in found] == [1]
    first = found[0]
    assert first.position == Position.from_fen(SHOT, ITALIAN)
    assert format_move(first.line.moves[0], first.position, ITALIAN) == "c4-d5"


def test_the_mining_command_mines_a_pdn_file_and_resumes(tmp_path: Path) -> None:
    pdn = tmp_path / "shot.pdn"
    pdn.write_text(
        f'[Event "test"]\n[White "A"]\n[Black "B"]\n[FEN "{SHOT_BEFORE}"]\n'
        '[Result "1-0"]\n\n1... f7-e6 2. c4-d5 1-0\n', encoding="utf-8")
    out = tmp_path / "bank.json"
    argv = ["mine", "--variant", "italian", "--pdn", str(pdn), "--out", str(out)]
    assert main(argv) == 0
    bank = BankFile.read(out, ITALIAN)
    [puzzle] = bank.puzzles
    assert puzzle.position() == Position.from_fen(SHOT, ITALIAN)
    assert puzzle.solution in SHOT_LINES
    assert (puzzle.source.kind, puzzle.source.name, puzzle.source.ply) == (
        "pdn", "shot.pdn#1", 1)
    assert bank.sources_done == ["pdn:shot.pdn#1"]
    assert 800 <= puzzle.rating <= 2300
    assert bank.settings["exact_scores"] is False  # the bank records how it was mined
    # Run again: the source is done, nothing is mined twice.
    assert main(argv) == 0
    assert len(json.loads(out.read_text(encoding="utf-8"))["puzzles"]) == 1
    # The reference way (every move scored exactly) mines the same bank.
    reference = tmp_path / "reference.json"
    assert main(["mine", "--variant", "italian", "--pdn", str(pdn), "--out", str(reference),
                 "--exact-scores"]) == 0
    again = BankFile.read(reference, ITALIAN)
    assert again.puzzles == bank.puzzles and again.settings["exact_scores"] is True


def test_the_mining_command_resumes_a_bank_mined_before_threshold_questions(
    tmp_path: Path
) -> None:
    # A bank file whose settings predate `exact_scores` (as the shipped banks began) is
    # resumed: its puzzles and sources are kept and the settings record the new way.
    pdn = tmp_path / "shot.pdn"
    pdn.write_text(
        f'[Event "test"]\n[FEN "{SHOT_BEFORE}"]\n[Result "1-0"]\n\n1... f7-e6 2. c4-d5 1-0\n',
        encoding="utf-8")
    out = tmp_path / "bank.json"
    old = MiningSettings().to_json()
    del old["exact_scores"]
    out.write_text(json.dumps({"variant": "italian", "settings": old,
                               "sources_done": ["self-play:level 2 seed 0"], "puzzles": []}),
                   encoding="utf-8")
    assert main(["mine", "--variant", "italian", "--pdn", str(pdn), "--out", str(out)]) == 0
    bank = BankFile.read(out, ITALIAN)
    assert bank.sources_done == ["self-play:level 2 seed 0", "pdn:shot.pdn#1"]
    assert len(bank.puzzles) == 1 and bank.settings["exact_scores"] is False


def test_the_mining_command_refuses_an_unknown_variant(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["mine", "--variant", "chess", "--out", str(tmp_path / "x.json")]) == 2
    assert "chess" in capsys.readouterr().err


def test_the_mining_command_refuses_a_pdn_game_of_another_variant(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # An Italian record (its GameType tag says so) mined for Moroccan: the reader replays
    # it as Italian, as its tags say, so its positions must not be mined by Moroccan rules
    # into the Moroccan bank. Refused before anything is mined, saying what to run.
    pdn = tmp_path / "italian.pdn"
    pdn.write_text(
        f'[Event "test"]\n[GameType "22"]\n[FEN "{SHOT_BEFORE}"]\n'
        '[Result "1-0"]\n\n1... f7-e6 2. c4-d5 1-0\n', encoding="utf-8")
    out = tmp_path / "bank.json"
    assert main(["mine", "--variant", "moroccan", "--pdn", str(pdn), "--out", str(out)]) == 2
    err = capsys.readouterr().err
    assert "italian.pdn" in err and "--variant italian" in err, err
    assert not out.exists()


EXACT = MiningSettings(exact_scores=True)  # the reference: every move scored exactly
BOUNDED = MiningSettings()  # the default: threshold questions (null-window searches)


def _flagged(variant: Variant, seeds: range) -> list[tuple[Position, list[Position]]]:
    """The positions of self-play games that mining's fast scan flags (as `mine_game`
    does), each with the game's earlier positions."""
    out = []
    for seed in seeds:
        game = self_play_positions(variant, 2, seed)
        for ply, pos in enumerate(game):
            if len(legal_moves(pos, variant)) < 2:
                continue
            quick = search(pos, variant, depth=BOUNDED.scan_depth, history=game[:ply]).score
            if quick >= MATE_BOUND or quick - material(pos, variant, pos.turn) >= BOUNDED.scan_gain:
                out.append((pos, game[:ply]))
    return out


def _compare(variant: Variant, seeds: range, cap: int) -> list[VerifiedLine | Rejection]:
    """Screen and verify every flagged position both ways: the threshold questions must
    give the exact scoring's answer (the screen's, and the verification's whenever the
    exact verification finishes within `cap` nodes: the whole line, its scores and depth
    alike). Returns the exact verifications compared."""
    compared: list[VerifiedLine | Rejection] = []
    for pos, history in _flagged(variant, seeds):
        screened = screen(pos, variant, EXACT, history)
        assert screen(pos, variant, BOUNDED, history) == screened, pos.to_fen(variant)
        if not screened:
            continue
        expected = verify_puzzle(pos, variant, EXACT, history, budget=cap)
        if expected is Rejection.OVER_BUDGET:
            continue
        assert verify_puzzle(pos, variant, BOUNDED, history) == expected, pos.to_fen(variant)
        compared.append(expected)
    return compared


def test_the_hand_made_positions_are_decided_alike_by_exact_scores() -> None:
    position = Position.from_fen(SHOT, ITALIAN)
    assert verify_puzzle(position, ITALIAN, EXACT) == verify_puzzle(position, ITALIAN)
    two = Position.from_fen(TWO_WINS, ITALIAN)
    assert verify_puzzle(two, ITALIAN, EXACT) is Rejection.NOT_UNIQUE


def test_threshold_questions_decide_italian_self_play_as_exact_scores_do() -> None:
    compared = _compare(ITALIAN, range(0, 8), 2_000_000)
    # Enough of each outcome that a wrong threshold would show.
    assert sum(isinstance(r, VerifiedLine) for r in compared) >= 2
    assert Rejection.NOT_UNIQUE in compared and Rejection.NO_WIN in compared


@pytest.mark.slow
@pytest.mark.parametrize(("key", "seeds"), [("turkish", range(67, 70)),
                                            ("arab", range(100060, 100064))])
def test_threshold_questions_decide_orthogonal_self_play_as_exact_scores_do(
    key: str, seeds: range
) -> None:
    compared = _compare(get_variant(key), seeds, 1_000_000)
    assert any(isinstance(r, VerifiedLine) for r in compared)
    assert any(isinstance(r, Rejection) for r in compared)
