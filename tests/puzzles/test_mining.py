"""Puzzle verification and mining on hand-made positions whose answers were worked out by
hand (tests/support/puzzles.py), and the mining command on a PDN game."""

from __future__ import annotations

import itertools
import json
from dataclasses import replace
from pathlib import Path

import pytest

from engine import Game, Position, format_move, get_variant
from puzzles.bank import BankFile, images
from puzzles.cli import FIRST_SEED, SEED_BLOCK, main
from puzzles.mining import (
    MiningSettings,
    Rejection,
    Theme,
    VerifiedLine,
    mine_game,
    move_texts,
    verify_puzzle,
)
from tests.engine.oracles.board import rotate_notation
from tests.support.puzzles import SHOT, SHOT_BEFORE, SHOT_LINES, TWO_WINS, shot_puzzle

ITALIAN = get_variant("italian")
SHOT_LINES_FIRST = sorted(SHOT_LINES)[0]

# Positions the former criterion accepted (it counted positional terms as gain when the
# solver already stood better, and searched the defence only along its own line); by
# material, each first move wins no man, or another move comes within a man of it, or the
# man it wins is only a crowning.
UNSOUND = [
    ("turkish", "W:Wf2,a3,b3,d3,e3,h3,d4,h4,f5:Bc4,e5,g5,h5,g6,h6,a7,d7", ("d4xb4",)),
    ("arab", "W:We2,f2,g2,d3,e3,Kb6,Kb8:Bc4,a6,c6,Ka5", ("b6xd6",)),
    ("italian", "W:WKe4,Ke6,Kg8:Ba2,e2,Kc4", ("e4-d3", "e2-d1", "d3xb5")),
    ("italian", "W:Wh3,c4,b5,d5,h5,a6:Bd3,b7,f7,c8,Kg4", ("b5-c6", "d3-c2", "c6xa8")),
    ("italian", "W:Wb7,Kd7,Kh7:Bb3,c4,b5,Kd5", ("d7-c6", "b3-c2", "c6xe4")),
]
# White to move: d7-c6 wins a man by material (100) and b7-a8 crowns (an Italian king is
# worth 165, engine/evaluation.py: a gain of 65): another move within a man of the best.
WITHIN_A_MAN = "W:Wb7,Kd7,Kh7:Bb3,c4,b5,Kd5"
# White to move: b5-c6, d3-c2, c6xa8 takes b7 and crowns, but Black's c2 crowns next: by
# material the first move gains 100 in all, not a man beyond its own crowning (65).
ONLY_WITH_A_CROWNING = "W:Wh3,c4,b5,d5,h5,a6:Bd3,b7,f7,c8,Kg4"
# White to move (from Italian self-play): f3-e4! gives a man (a6xc4 must take b5), then
# e4xg6xe8 takes f5 and f7 and crowns on e8: a man won beyond the crowning.
CROWNS_ON_THE_WAY = "W:Wf1,h1,e2,g2,d3,f3,h3,a4,b5:Bb3,f5,h5,a6,e6,b7,d7,f7,h7,a8"


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
    assert verify_puzzle(position, ITALIAN, budget=10**9) == full
    # Any budget in between gives the same puzzle or a skip, never another answer.
    for budget in (200, 2_000, 20_000):
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
    assert bank.settings["criterion"] == "material"  # the bank records how it was mined
    assert puzzle.themes == ("material",)
    # Run again: the source is done, nothing is mined twice.
    assert main(argv) == 0
    assert len(json.loads(out.read_text(encoding="utf-8"))["puzzles"]) == 1


# White to move in International draughts (found by mining the 2003 world championship,
# game 5, after ply 92): h6xf4 is the only move that wins a man.
INTERNATIONAL_SHOT = "W:We1,b2,e3,d4,j4,h6,a7:Bg5,c7,g7,b8,d8,j8,c9,f10"


def test_the_mining_command_mines_a_10x10_game_and_not_its_mirror_image(
    tmp_path: Path,
) -> None:
    international = get_variant("international")
    shot = Position.from_fen(INTERNATIONAL_SHOT, international)
    turned = shot.flipped()  # the same position seen from Black's side
    pdn = tmp_path / "shots.pdn"
    pdn.write_text("".join(
        f'[GameType "20"]\n[FEN "{p.to_fen(international)}"]\n[Result "*"]\n\n*\n\n'
        for p in (shot, turned)), encoding="utf-8")
    out = tmp_path / "bank.json"
    argv = ["mine", "--variant", "international", "--pdn", str(pdn), "--out", str(out)]
    assert main(argv) == 0
    bank = BankFile.read(out, international)
    assert [(p.position(), p.solution[0]) for p in bank.puzzles] == [(shot, "h6xf4")]
    assert bank.sources_done == ["pdn:shots.pdn#1", "pdn:shots.pdn#2"]


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


@pytest.mark.parametrize(("key", "fen", "old_line"), UNSOUND)
def test_positions_winning_no_man_by_material_are_no_puzzles(
    key: str, fen: str, old_line: tuple[str, ...]
) -> None:
    variant = get_variant(key)
    result = verify_puzzle(Position.from_fen(fen, variant), variant)
    assert isinstance(result, Rejection), (fen, old_line, result)


def test_a_move_within_a_man_of_the_best_refuses_the_puzzle() -> None:
    position = Position.from_fen(WITHIN_A_MAN, ITALIAN)
    assert verify_puzzle(position, ITALIAN) is Rejection.NOT_UNIQUE


def test_a_crowning_is_not_counted_as_a_man() -> None:
    position = Position.from_fen(ONLY_WITH_A_CROWNING, ITALIAN)
    assert verify_puzzle(position, ITALIAN) is Rejection.NO_GAIN


def test_a_line_that_crowns_reports_the_crowning_as_its_own_theme() -> None:
    position = Position.from_fen(CROWNS_ON_THE_WAY, ITALIAN)
    result = verify_puzzle(position, ITALIAN)
    assert isinstance(result, VerifiedLine), result
    assert result.themes == (Theme.MATERIAL, Theme.CROWNING)
    # The crowning is not what makes the man: the first move gains a man beyond it.
    assert result.score >= MiningSettings().gain + 65


def test_the_defenders_quiet_replies_are_searched_two_plies_past_the_line() -> None:
    position = Position.from_fen(SHOT, ITALIAN)
    result = verify_puzzle(position, ITALIAN, MiningSettings(verify_depth=2))
    assert isinstance(result, VerifiedLine)
    assert result.depth == len(result.moves) + 2


def test_self_play_seeds_are_each_variants_own(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    blocks = sorted((first, first + SEED_BLOCK) for first in FIRST_SEED.values())
    assert all(a[1] <= b[0] for a, b in itertools.pairwise(blocks))
    # Italian and Moroccan share their start position: a Moroccan seed is refused for
    # Italian, whose own seeds are the default.
    out = tmp_path / "bank.json"
    moroccan_seed = str(FIRST_SEED["moroccan"])
    assert main(["mine", "--variant", "italian", "--self-play", "1", "--first-seed",
                 moroccan_seed, "--out", str(out)]) == 2
    assert "300000..399999" in capsys.readouterr().err
    assert not out.exists()
    assert main(["mine", "--variant", "italian", "--self-play", "1", "--out", str(out)]) == 0
    assert BankFile.read(out, ITALIAN).sources_done == ["self-play:level 2 seed 300000"]


def test_the_filter_keeps_the_sound_puzzles_and_drops_the_others(tmp_path: Path) -> None:
    out = tmp_path / "bank.json"
    unsound = replace(shot_puzzle(), id="italian-0000000002", fen=WITHIN_A_MAN,
                      solution=("d7-c6", "b3-c2", "c6xe4"))
    BankFile("italian", [shot_puzzle(), unsound], ["pdn:hand-made.pdn#1"], {}).write(out)
    assert main(["filter", "--variant", "italian", "--out", str(out)]) == 0
    bank = BankFile.read(out, ITALIAN)
    [kept] = bank.puzzles
    assert kept.id == shot_puzzle().id and kept.solution in SHOT_LINES
    assert kept.themes == ("material",) and kept.score >= 100
    assert bank.settings["criterion"] == "material"
    assert bank.sources_done == ["pdn:hand-made.pdn#1"]


def test_the_filter_keeps_one_of_a_position_and_its_mirror_image(tmp_path: Path) -> None:
    # The shot seen from the other side (turned round, colours swapped) is as sound a
    # puzzle, and the same one: the filter keeps the first it meets.
    mirrored = Position.from_fen(SHOT, ITALIAN).flipped()
    twin = replace(shot_puzzle(), id="italian-0000000003", fen=mirrored.to_fen(ITALIAN),
                   solution=tuple(rotate_notation(m) for m in SHOT_LINES_FIRST))
    assert isinstance(verify_puzzle(mirrored, ITALIAN), VerifiedLine)
    out = tmp_path / "bank.json"
    BankFile("italian", [twin, shot_puzzle()], [], {}).write(out)
    assert main(["filter", "--variant", "italian", "--out", str(out)]) == 0
    assert [p.id for p in BankFile.read(out, ITALIAN).puzzles] == [twin.id]


def test_a_position_and_its_mirror_images_are_one_puzzle() -> None:
    turkish = get_variant("turkish")
    position = Position.from_fen("W:Wa3,b3:Bf6", turkish)
    assert images(position) == {
        position,
        Position.from_fen("B:Wc3:Bg6,h6", turkish),
        Position.from_fen("W:Wg3,h3:Bc6", turkish),
        Position.from_fen("B:Wf3:Ba6,b6", turkish),
    }
