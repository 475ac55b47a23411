"""The endgame counts in a live game and in the analysis (`engine.game.Game`,
`engine.analysis.review_position`), played with Brazilian draughts' moves, which the engine
generates on positions it can hold (8×8): Brazilian's own draw law, and International's
(`FMJD_8X8`, since International's 10×10 positions are not built yet). Russian's moves are
not generated yet: its counts are checked in tests/engine/test_draw_rules.py.

Expected plies from the sources (docs/RULES.md, "International draughts", "Brazilian
draughts"): *FMJD rules* 6.2, 25 moves each of kings only (50 plies); 6.3, a lone king
against three pieces with a king, 16 more moves each (32 plies); 6.4, against two kings, a
king and a man, or a king, 5 more moves each (10 plies). *Brazilian rules*: 20 moves of kings
only (40 plies); two kings against two, against one, against a king and a man, a king
against a king, against a king and a man: 5 moves (10 plies).
"""

from __future__ import annotations

import dataclasses

from engine import Color, Game, Outcome, Position, Termination, get_variant, legal_moves
from engine.analysis import review_position
from engine.movegen import play_unchecked
from engine.variants import Variant

BRAZILIAN = get_variant("brazilian")
FMJD_8X8 = dataclasses.replace(
    BRAZILIAN, key="fmjd-8x8", draw_law=get_variant("international").draw_law
)


def game(fen: str, variant: Variant = FMJD_8X8, *, enforce: bool = True) -> Game:
    return Game(variant, Position.from_fen(fen, variant), enforce_draw_rules=enforce)


def play_quiet(g: Game, plies: int) -> None:
    """Play `plies` king moves: the first legal one (in the generator's order) that
    captures nothing, leaves the opponent no capture and makes no position for a third
    time, so that only the count under test can end the game."""
    for _ in range(plies):
        assert g.outcome is None, (g.ply, g.outcome)
        here = g.position
        for move in g.legal_moves():
            if move.captured or not (1 << move.start) & here.kings(here.turn):
                continue
            after = play_unchecked(here, move, g.variant)
            if g.repetition_count(after) >= 2 or any(
                m.captured for m in legal_moves(after, g.variant)
            ):
                continue
            g.play(move)
            break
        else:
            raise AssertionError(f"no quiet king move at ply {g.ply}")


def test_three_pieces_against_a_lone_king_draw_after_sixteen_moves_each() -> None:
    g = game("W:WKa1,Kc1,Ke1:BKh6")
    play_quiet(g, 31)
    assert g.outcome is None and g.endgame_rule is None
    play_quiet(g, 1)
    assert g.outcome is not None and g.outcome.termination is Termination.ENDGAME_LIMIT
    assert g.outcome.winner is None
    assert g.endgame_rule is not None and g.endgame_rule.article == "FMJD 6.3"


def test_two_against_a_lone_king_draw_after_five_moves_each() -> None:
    g = game("B:WKa1,Kc1:BKh6")
    play_quiet(g, 9)
    assert g.outcome is None
    play_quiet(g, 1)
    assert g.outcome is not None and g.outcome.termination is Termination.ENDGAME_LIMIT
    assert g.endgame_rule is not None and g.endgame_rule.article == "FMJD 6.4"


def test_kings_only_draw_after_twenty_five_moves_each_outside_the_endgames() -> None:
    # Two kings each and a man: no lone king, so only 6.2 counts.
    g = game("W:WKa1,Kc1,h2:BKh6,Kb8")
    play_quiet(g, 49)
    assert g.outcome is None and g.no_progress_plies == 49
    play_quiet(g, 1)
    assert g.outcome is not None and g.outcome.termination is Termination.MOVE_LIMIT


def test_a_replay_notes_the_endgame_limit_once_and_plays_on() -> None:
    g = game("B:WKa1,Kc1:BKh6", enforce=False)
    play_quiet(g, 14)
    assert g.outcome is None
    assert g.draw_notes == [(10, Termination.ENDGAME_LIMIT)]


def test_the_analysis_scores_a_run_out_endgame_count_as_drawn() -> None:
    g = game("B:WKa1,Kc1:BKh6", enforce=False)
    play_quiet(g, 10)
    positions = g.positions()
    before = review_position(positions[9], FMJD_8X8, history=positions[:9],
                             no_progress_plies=9, nodes=500)
    assert before.best is not None
    after = review_position(positions[10], FMJD_8X8, history=positions[:10],
                            no_progress_plies=10, nodes=500)
    assert (after.score, after.best) == (0, None)


def test_a_win_on_the_last_counted_move_stands() -> None:
    # Two kings against one, Black first: White's 5th move is the count's 10th ply, the
    # one that would end 6.4's "five moves maximum", and it takes the lone king: a win.
    g = game("B:WKa1,Kc1:BKh6")
    for text in ("h6-f8", "c1-g5", "f8-d6", "a1-g7", "d6-b4", "g7-d4", "b4-e1", "d4-h8",
                 "e1-d2"):
        g.play(text)
    assert g.outcome is None
    g.play("g5xc1")
    assert g.outcome == Outcome(Termination.NO_PIECES, Color.WHITE)


def test_brazilian_kings_only_draw_after_twenty_moves_each() -> None:
    # Three kings against one: no short ending in Brazilian, only the 20 moves of kings
    # (where International's 16 each would have drawn at ply 32).
    g = game("W:WKa1,Kc1,Ke1:BKh6", BRAZILIAN)
    play_quiet(g, 39)
    assert g.outcome is None
    play_quiet(g, 1)
    assert g.outcome == Outcome(Termination.MOVE_LIMIT, None)


def test_brazilian_two_kings_against_two_draw_after_five_moves_each() -> None:
    g = game("W:WKa1,Kc1:BKh6,Kh8", BRAZILIAN)
    play_quiet(g, 9)
    assert g.outcome is None
    play_quiet(g, 1)
    assert g.outcome == Outcome(Termination.ENDGAME_LIMIT, None)
    assert g.endgame_rule == BRAZILIAN.draw_law.endgame_rules[0]
