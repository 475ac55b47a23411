"""Reviewing a finished game (engine.analysis): a planted blunder in each variant, forced
plies, the graph's points, the thresholds and the formulas.

Each planted blunder is a position built by hand around the shots of the search's tests
(tests/engine/test_search.py): the blunder lets the opponent's shot take two pieces for
one. The better move is checked by an independent brute-force material count over the
public API (`legal_moves`/`apply_move`, no search code: tests/support/material.py).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path

import pytest

from engine import (
    Color,
    Game,
    Position,
    apply_move,
    format_move,
    get_variant,
    legal_moves,
)
from engine.analysis import (
    BLUNDER,
    INACCURACY,
    MISTAKE,
    GameAnalysis,
    Judgement,
    analyse,
    analyse_here,
    eval_text,
    judge,
    pdn_comments,
    ply_accuracy,
    review_position,
    review_tasks,
    winning_chances,
)
from engine.search import MATE, search
from tests.support.material import brute_force


@dataclass(frozen=True)
class Planted:
    variant: str
    fen: str  # the blunderer to move
    blunder: str
    shot: tuple[str, ...]  # the opponent's shot after it: offer, forced capture, recapture


PLANTED = [
    # Turkish: c7-c6 puts a man on c6 for the king sweep of test_search.py (e4-e5 e6xe4,
    # then the king flies e1-e6-b6-b8 over three men).
    Planted("turkish", "B:We4,Ke1:Be6,b7,c7,g7,h7", "c7-c6",
            ("e4-e5", "e6xe4", "e1xe6xb6xb8")),
    # Arab: d6-e6 gives the breakthrough of test_search.py (e4-e5 e6xe4, d4 runs over
    # e4, f5 and f7 to f8 and is crowned).
    Planted("arab", "B:Wc4,d4,e4,d5:Bf5,d6,a7,b7,f7,h7", "d6-e6",
            ("e4-e5", "e6xe4", "d4xf4xf6xf8")),
    # Italian: g6-f5 gives the ladder shot of test_search.py (c4-d5, the king must take
    # e6xc4, and d3 takes king and man).
    Planted("italian", "B:We2,c4,Kd3:Bc6,g6,Ke6", "g6-f5",
            ("c4-d5", "e6xc4", "d3xb5xd7")),
    # Moroccan: d3-e4 walks into the two for one of test_search.py seen from White
    # (e6-d5, c4xe6 is forced, f7 takes back two: f7xd5xf3).
    Planted("moroccan", "W:Wb1,d1,a2,d3,c4,a6:Bc6,e6,f7,g8", "d3-e4",
            ("e6-d5", "c4xe6", "f7xd5xf3")),
]


def _game(p: Planted) -> Game:
    variant = get_variant(p.variant)
    game = Game(variant, Position.from_fen(p.fen, variant))
    for text in (p.blunder, *p.shot):
        game.play(text)
    return game


def _best_moves(position: Position, variant_key: str) -> set[str]:
    """The moves that keep the most material three plies on (independent brute force)."""
    variant = get_variant(variant_key)
    values = {format_move(m, position, variant): -brute_force(apply_move(position, m, variant),
                                                              variant, 4)
              for m in legal_moves(position, variant)}
    top = max(values.values())
    return {m for m, v in values.items() if v == top}


@pytest.fixture(scope="module", params=PLANTED, ids=lambda p: p.variant)
def planted(request: pytest.FixtureRequest) -> tuple[Planted, GameAnalysis]:
    p: Planted = request.param
    game = _game(p)
    return p, analyse_here(game.variant, game.start, game.moves, nodes=20_000)


def test_planted_blunder_is_a_blunder_with_the_right_better_move(
    planted: tuple[Planted, GameAnalysis],
) -> None:
    p, analysis = planted
    first = analysis.plies[0]
    assert first.move == p.blunder
    assert first.judgement is Judgement.BLUNDER
    assert first.loss >= BLUNDER
    best = _best_moves(Position.from_fen(p.fen, get_variant(p.variant)), p.variant)
    assert p.blunder not in best
    assert first.better in best
    assert first.line and first.line[0] == first.better
    mover = analysis.summary(first.color)
    assert mover.blunders >= 1
    assert mover.accuracy is not None and mover.accuracy < 50


def test_the_shot_is_not_a_mistake_and_the_forced_capture_is_not_judged(
    planted: tuple[Planted, GameAnalysis],
) -> None:
    p, analysis = planted
    offer, forced = analysis.plies[1], analysis.plies[2]
    assert offer.move == p.shot[0] and offer.judgement is None
    assert forced.forced and forced.judgement is None and forced.accuracy is None
    assert forced.loss == 0.0


def test_the_graph_has_one_point_per_ply(planted: tuple[Planted, GameAnalysis]) -> None:
    _, analysis = planted
    assert len(analysis.evaluations) == len(analysis.plies) + 1
    assert [p.ply for p in analysis.plies] == list(range(1, len(analysis.plies) + 1))
    # Each ply's values are the graph's points around it.
    for ply in analysis.plies:
        assert analysis.evaluations[ply.ply - 1] == ply.before
        assert analysis.evaluations[ply.ply] == ply.after


def test_analysis_survives_json(planted: tuple[Planted, GameAnalysis]) -> None:
    _, analysis = planted
    assert GameAnalysis.from_json(analysis.to_json()) == analysis


def test_forced_plies_are_skipped_in_the_counts() -> None:
    # Italian: White's only move is the compulsory capture c2xe4 of the man on d3.
    variant = get_variant("italian")
    start = Position.from_fen("W:Wc2:Bd3,g8", variant)
    game = Game(variant, start)
    assert len(game.legal_moves()) == 1
    game.play(game.legal_moves()[0])
    analysis = analyse_here(variant, start, game.moves, nodes=2_000)
    assert analysis.plies[0].forced
    assert analysis.white.judged == 0 and analysis.white.accuracy is None


def test_search_sees_the_no_progress_count() -> None:
    # Italian: White two kings against one black king far away, no capture possible.
    # Materially White is far ahead; one ply short of the 80-ply limit, every White move
    # is a king move, so the game is drawn after it.
    variant = get_variant("italian")
    position = Position.from_fen("W:WKb1,Kd1:BKg8", variant)
    fresh = search(position, variant, depth=4)
    assert fresh.score > 100
    limit = variant.draw_law.no_progress_plies
    late = search(position, variant, depth=4, no_progress_plies=limit - 1)
    assert late.score == 0
    review = review_position(position, variant, no_progress_plies=limit, nodes=1_000)
    assert review.score == 0


def test_review_tasks_count_no_progress_like_the_game() -> None:
    variant = get_variant("italian")
    game = Game(variant, Position.from_fen("W:WKb1,Kd1:BKg8,c6", variant))
    for text in ("b1-a2", "g8-h7", "a2-b3", "c6-b5"):
        game.play(text)
    tasks = review_tasks(variant, game.start, game.moves)
    assert [t.no_progress_plies for t in tasks] == [0, 1, 2, 3, 0]
    assert [len(t.history) for t in tasks] == [0, 1, 2, 3, 4]


def test_review_tasks_keep_a_russian_man_crowned_mid_capture_a_king() -> None:
    # b6xd8xf6: crowned on d8, the man goes on as a king and ends on f6 a king
    # (docs/RULES.md, "Russian draughts"); the review and the analysis see that king.
    variant = get_variant("russian")
    game = Game(variant, Position.from_fen("W:Wb6,a1:Bc7,e7,h4", variant))
    game.play("b6xd8xf6")
    tasks = review_tasks(variant, game.start, game.moves)
    assert tasks[1].position == game.position
    assert tasks[1].position.to_fen(variant) == "B:Wa1,Kf6:Bh4"
    analysis = analyse_here(variant, game.start, game.moves, nodes=2_000)
    assert analysis.evaluations[1] == review_position(
        game.position, variant, history=(game.start,), nodes=2_000).score * -1


def test_thresholds_and_formulas() -> None:
    # lichess Advice.scala: 0.1, 0.2, 0.3 of winning chances.
    assert (INACCURACY, MISTAKE, BLUNDER) == (0.1, 0.2, 0.3)
    assert judge(0.09) is None
    assert judge(0.1) is Judgement.INACCURACY
    assert judge(0.25) is Judgement.MISTAKE
    assert judge(0.5) is Judgement.BLUNDER
    # A man up is about half the winning chances; two men 0.8 (see the docstring).
    assert winning_chances(100) == pytest.approx(0.5, abs=0.01)
    assert winning_chances(-200) == pytest.approx(-0.8, abs=0.01)
    assert winning_chances(0) == 0
    # lichess.org/page/accuracy: no loss is 100 (clamped), 10 win% lost is 103.1668 *
    # e^-0.4354 - 3.1669.
    assert ply_accuracy(0.3, 0.3) == pytest.approx(103.1668 - 3.1669)
    assert ply_accuracy(0.2, 0.0) == pytest.approx(103.1668 * math.exp(-0.4354) - 3.1669)


def test_analyse_needs_one_review_per_position() -> None:
    variant = get_variant("italian")
    with pytest.raises(ValueError, match="2 position reviews"):
        analyse(variant, Position.start(variant), [legal_moves(Position.start(variant),
                                                               variant)[0]], [])


def test_colors_of_plies_alternate(planted: tuple[Planted, GameAnalysis]) -> None:
    p, analysis = planted
    first = Position.from_fen(p.fen, get_variant(p.variant)).turn
    assert analysis.plies[0].color is first
    assert analysis.plies[1].color is first.opponent
    assert first in (Color.WHITE, Color.BLACK)


def test_pdn_comments_read_back(planted: tuple[Planted, GameAnalysis]) -> None:
    from engine.pdn import export_pdn, read_pdn

    p, analysis = planted
    game = _game(p)
    comments = pdn_comments(analysis)
    assert set(comments) == set(range(1, len(game.moves) + 1))
    assert comments[1].startswith("[%eval ") and f"blunder; better {analysis.plies[0].better}" \
        in comments[1]
    text = export_pdn(game, comments=comments)
    assert "{[%eval" in text and "blunder; better" in text
    [read] = read_pdn(text)
    assert read.game.moves == game.moves


def test_pdn_comments_in_italian_numbers() -> None:
    from engine.analysis import pdn_comments

    italian = next(p for p in PLANTED if p.variant == "italian")
    game = _game(italian)
    analysis = analyse_here(game.variant, game.start, game.moves, nodes=20_000)
    comment = pdn_comments(analysis, game.positions(), numeric=True)[1]
    # e6-d5 in the federation's numbers (docs/RULES.md: rows from a8 = 1; rank 6 is
    # a6 = 9, c6 = 10, e6 = 11, g6 = 12; rank 5 is b5 = 13, d5 = 14): 11-14.
    assert "blunder; better 11-14:" in comment, comment


def _fmjd_number(name: str) -> int:
    """The FMJD number of a dark square of the 10×10 board, written out from docs/RULES.md
    (International: squares 1..50 row by row from Black's side, 1 = b10, 46 = a1)."""
    file, rank = "abcdefghij".index(name[0]), int(name[1:])
    return (10 - rank) * 5 + file // 2 + 1


def _in_fmjd_numbers(move: str) -> str:
    sep = "x" if "x" in move else "-"
    return sep.join(str(_fmjd_number(sq)) for sq in move.split(sep))


def test_pdn_comments_of_an_international_game_in_fmjd_numbers() -> None:
    # b4-c5 hands Black the man (d6xb4); any other move keeps the material even. The
    # 10×10 board's squares: the better move and its line in the FMJD's numbers.
    from engine.variants import INTERNATIONAL

    position = Position.from_fen("W:Wb4,g3,h2:Bd6,f8,g9", INTERNATIONAL)
    game = Game(INTERNATIONAL, position)
    game.play("b4-c5")
    analysis = analyse_here(INTERNATIONAL, game.start, game.moves, nodes=20_000)
    [ply] = analysis.plies
    assert ply.judgement is Judgement.BLUNDER
    assert ply.better is not None and ply.better != "b4-c5"
    comment = pdn_comments(analysis, game.positions(), numeric=True)[1]
    numbered = [_in_fmjd_numbers(move) for move in ply.line]
    assert f"blunder; better {numbered[0]}: {' '.join(numbered)}" in comment, comment
    assert pdn_comments(analysis)[1].endswith(" ".join(ply.line))


def test_a_forced_move_counts_its_ply_in_a_forced_win() -> None:
    # White's man a2 must take Black's last man (a2xc4): a win in one ply, scored MATE - 1
    # as the search scores a win found at ply 1 (engine/search.py, MATE), and written #1,
    # whether the winning capture is forced or one of two.
    variant = get_variant("italian")
    forced = review_position(Position.from_fen("W:Wa2:Bb3", variant), variant, nodes=2_000)
    chosen = review_position(Position.from_fen("W:Wa2,c2:Bb3", variant), variant,
                             nodes=2_000)
    assert forced.forced and not chosen.forced
    assert forced.score == chosen.score == MATE - 1
    assert eval_text(forced.score) == "#1"
    # Two forced plies: Black's lone man h5 can only go to g4, where White's f3 must take
    # it: Black loses in two plies, MATE - 2 against Black.
    lost = review_position(Position.from_fen("B:Wf3:Bh5", variant), variant, nodes=2_000)
    assert lost.forced and lost.line == ("h5-g4", "f3xh5")
    assert lost.score == -(MATE - 2)


@pytest.mark.parametrize(("fen", "last"), [("W:Wa2:Bb3", "#0"), ("B:Wf3:Bg4", "#0")])
def test_a_game_won_on_its_last_move_ends_with_mate_zero_for_either_winner(
    fen: str, last: str
) -> None:
    # The last move takes the loser's last man (White's a2xc4, Black's g4xe2): the game is
    # over, and the PDN comment after it is [%eval #0] whoever won, as lichess writes a
    # game-ending move (its mate count is a whole number: 0 has no sign) and python-chess
    # reads it (#0: the side to move is lost). Never "#-0".
    variant = get_variant("italian")
    start = Position.from_fen(fen, variant)
    game = Game(variant, start)
    [move] = game.legal_moves()
    game.play(move)
    analysis = analyse_here(variant, start, game.moves, nodes=2_000)
    assert pdn_comments(analysis)[1] == f"[%eval {last}]"
    assert eval_text(MATE) == eval_text(-MATE) == "#0"
    assert (eval_text(MATE - 3), eval_text(-(MATE - 3))) == ("#3", "#-3")


def test_a_record_played_past_a_draw_rule_is_analysed() -> None:
    # Game 25 of the Italian championship record (tests/data) repeats a position a third
    # time at ply 101 and plays on (the record is what the players did). The plies played
    # from a position the rules already drew are not judged (nothing was left to lose),
    # and the analysis of the whole record finishes.
    from engine.pdn import read_pdn

    text = (Path(__file__).parents[1] / "data" / "italian-assoluto-2005-rounds-1-3.pdn"
            ).read_text(encoding="utf-8")
    record = read_pdn(text, variant="italian")[24]
    drawn_at = [ply for ply, _ in record.game.draw_notes]
    assert drawn_at == [101, 102]
    game = record.game
    analysis = analyse_here(game.variant, game.start, game.moves, nodes=300)
    assert len(analysis.evaluations) == len(game.moves) + 1
    for ply in drawn_at:  # the ply played from the position after ply 101, 102
        after_draw = analysis.plies[ply]
        assert after_draw.judgement is None and after_draw.accuracy is None
        assert after_draw.better is None and analysis.evaluations[ply] == 0


# Italian game 1 of tests/data (the 2005 championship record), ply 44: Black's king f1-e2,
# judged a blunder. An independent material search (tests/puzzles/oracle.py, its own move
# generator) 12 plies deep: b7-c6 keeps the material as it is (-35 for Black: four men
# and a king against six men), while after f1-e2 White crowns (a4-b5 e2-d1 c4-d5 d1-c2
# b5-c6 f7-e6 d5xf7 b7xd5 h5-g6 c2-b1 f7-e8: -100), a crowning worse, the Italian king's
# 165 less the man's 100 (`puzzles.material`'s search agrees 14 and 16 plies deep). On
# the analysis's scale that material loss is itself a blunder: the judgement stands by
# material, not only by the engine's positional terms (its own loss at the default
# budget, 92, is larger; docs/PLAYING.md, "Analysis").
CHAMPIONSHIP_PLY_44 = "B:Wa2,h3,a4,c4,h5,a6:Bf5,b7,f7,c8,Kf1"
MATERIAL_BEFORE, MATERIAL_AFTER_F1_E2 = -35, -100


def _championship_game_1() -> Game:
    from engine.pdn import read_pdn

    text = (Path(__file__).parents[1] / "data" / "italian-assoluto-2005-rounds-1-3.pdn"
            ).read_text(encoding="utf-8")
    return read_pdn(text, variant="italian")[0].game


def test_conceding_a_crowning_from_a_level_position_is_a_blunder_by_material() -> None:
    from engine.evaluation import weights_for

    weights = weights_for(get_variant("italian"))
    italian_king_less_a_man = weights.king - weights.man
    assert italian_king_less_a_man == MATERIAL_BEFORE - MATERIAL_AFTER_F1_E2
    loss = winning_chances(MATERIAL_BEFORE) - winning_chances(MATERIAL_AFTER_F1_E2)
    assert judge(loss) is Judgement.BLUNDER, loss
    # From level material it is a blunder too.
    assert judge(winning_chances(0) - winning_chances(-italian_king_less_a_man)) \
        is Judgement.BLUNDER


def test_the_championship_ply_that_concedes_a_crowning_is_judged_a_blunder() -> None:
    game = _championship_game_1()
    variant = game.variant
    tasks = review_tasks(variant, game.start, game.moves)
    before, after = tasks[43], tasks[44]
    assert before.position.to_fen(variant) == CHAMPIONSHIP_PLY_44
    move = game.moves[43]
    assert format_move(move, before.position, variant) == "f1-e2"
    reviews = [review_position(t.position, variant, history=t.history,
                               no_progress_plies=t.no_progress_plies)
               for t in (before, after)]
    [ply] = analyse(variant, before.position, [move], reviews).plies
    assert ply.judgement is Judgement.BLUNDER
    assert ply.better == "b7-c6"


@pytest.mark.slow
def test_an_independent_material_search_finds_f1_e2_a_crowning_worse_than_b7_c6() -> None:
    from tests.engine.oracles.board import parse_fen, route_text
    from tests.puzzles.oracle import Judge

    oracle = Judge("italian")
    board, side = parse_fen(CHAMPIONSHIP_PLY_44)
    assert oracle.material(board, side) == MATERIAL_BEFORE
    values = {route_text(child[0][0]): oracle.after(child, 12)
              for child in oracle.children(board, side)
              if route_text(child[0][0]) in ("b7-c6", "f1-e2")}
    assert values == {"b7-c6": MATERIAL_BEFORE, "f1-e2": MATERIAL_AFTER_F1_E2}
