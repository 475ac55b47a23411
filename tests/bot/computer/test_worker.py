"""The worker side of the computer player (bot.computer.worker), run in this process: the
jobs' answers, and a set stop flag ending a search long before its budget."""

from __future__ import annotations

import multiprocessing

import pytest

from bot.computer import worker
from engine import GameOverError, Position, get_variant, legal_moves, parse_move

LONG = 120.0  # seconds: a budget that only a stop ends in time


def test_think_answers_a_legal_move_in_full_notation_with_its_budget() -> None:
    variant = get_variant("italian")
    fen = "W:Wd3:Bc4,c6,e4,e6"  # two captures: d3xb5xd7 and d3xf5xd7
    move = worker.think(fen, "italian", 5, 5.0, -1, 0, ())
    assert move.move in {"d3xb5xd7", "d3xf5xd7"}
    position = Position.from_fen(fen, variant)
    assert parse_move(move.move, position, variant) in legal_moves(position, variant)
    assert move.budget == 5.0


def test_think_refuses_a_position_without_a_legal_move() -> None:
    with pytest.raises(GameOverError):
        worker.think("B:Wb1,d1:Bc2", "italian", 1, 1.0, -1, 0, ())


def test_a_set_stop_flag_ends_the_search_with_a_move(monkeypatch: pytest.MonkeyPatch) -> None:
    flags = multiprocessing.RawArray("b", 2)
    flags[1] = 1
    monkeypatch.setattr(worker, "_FLAGS", flags)
    variant = get_variant("turkish")
    start = Position.start(variant)
    move = worker.think(start.to_fen(variant), "turkish", 5, LONG, 1, 0, ())
    assert move.stopped
    assert move.elapsed < LONG / 10
    assert parse_move(move.move, start, variant) in legal_moves(start, variant)


def test_a_stopped_review_still_names_a_best_move(monkeypatch: pytest.MonkeyPatch) -> None:
    flags = multiprocessing.RawArray("b", 1)
    flags[0] = 1
    monkeypatch.setattr(worker, "_FLAGS", flags)
    variant = get_variant("italian")
    start = Position.start(variant)
    reviewed = worker.review(start.to_fen(variant), "italian", (), 0, 10**9, 0)
    assert reviewed.best is not None
    assert parse_move(reviewed.best, start, variant) in legal_moves(start, variant)



def test_a_worker_whose_bot_is_already_gone_ends_at_once() -> None:
    # A worker given the id of a bot process that died while the worker was still starting
    # (its parent is now another process) ends within a check instead of waiting for
    # work forever. The "bot" here: a process that has already ended.
    import subprocess
    import sys

    bot = subprocess.Popen([sys.executable, "-c", "pass"])
    bot.wait()
    script = ("import time; from bot.computer.worker import watch_parent; "
              f"watch_parent({bot.pid}); time.sleep(60)")
    worker_ = subprocess.Popen([sys.executable, "-c", script])
    try:
        assert worker_.wait(timeout=30) == 0
    finally:
        worker_.kill()
