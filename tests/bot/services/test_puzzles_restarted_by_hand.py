"""Starting a puzzle again while it is under way (the daily post's Solve-it button pressed
a second time, or `/puzzle` with only that puzzle unseen) continues it as stored: the hint
taken, the wrong answer given and the plies found stay, so a hint cannot be shed by
starting over and the solve counted a rated win. Real SQLite file; bank: the hand-made
puzzle of tests/support/puzzles.py (1. c4-d5 c6xe4 2. f3xd5xf7)."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from bot.services.puzzles import PuzzleService, SolveOutcome
from storage import Storage
from tests.support.puzzles import shot_puzzle

USER = 7


async def test_pressing_solve_it_again_after_a_hint_keeps_the_hint(tmp_path: Path) -> None:
    storage = await Storage.open(tmp_path / "db.sqlite3")
    try:
        service = PuzzleService(storage.puzzles, banks={"italian": [shot_puzzle()]}, seed=1)
        puzzle_id = shot_puzzle().id
        await service.start_puzzle(USER, puzzle_id)
        await service.hint(USER)
        again = await service.start_puzzle(USER, puzzle_id)
        assert again.rated
        assert (await service.solve(USER, "c4-d5")).outcome == SolveOutcome.CORRECT
        solved = await service.solve(USER, "f3xd5xf7")
        assert solved.outcome == SolveOutcome.SOLVED
        # Hinted: a rated loss, as the hint said (not a win, no streak).
        assert solved.result is not None
        assert (solved.result.player.solved, solved.result.player.streak) == (0, 0)
    finally:
        await storage.close()


async def test_puzzle_again_mid_line_continues_where_the_solver_was(tmp_path: Path) -> None:
    storage = await Storage.open(tmp_path / "db.sqlite3")
    try:
        service = PuzzleService(storage.puzzles, banks={"italian": [shot_puzzle()]}, seed=1)
        await service.start(USER, "italian")
        found = await service.solve(USER, "c4-d5")
        # The bank's only unseen puzzle is the one under way: /puzzle shows it where the
        # solver is, not from its start (the first move found is not to be found again).
        view = await service.start(USER, "italian")
        assert view.position == found.view.position and view.found == 1
        assert (await service.solve(USER, "f3xd5xf7")).outcome == SolveOutcome.SOLVED
    finally:
        await storage.close()


async def test_a_hinted_puzzle_left_for_another_counts_as_a_loss(tmp_path: Path) -> None:
    # Left after a hint for another puzzle, then taken up again from the daily post: the
    # hint said a solve counts as a loss, so leaving records that loss (once), and the
    # puzzle met again is unrated, not a fresh rated attempt that wins with the hint known.
    first, second = shot_puzzle(), replace(shot_puzzle(), id="italian-0000000002")
    storage = await Storage.open(tmp_path / "db.sqlite3")
    try:
        service = PuzzleService(storage.puzzles, banks={"italian": [first, second]}, seed=1)
        await service.start_puzzle(USER, first.id)
        await service.hint(USER)
        other = await service.start_puzzle(USER, second.id)
        assert other.left == first.id and other.left_result is not None
        assert (other.left_result.player.attempts, other.left_result.player.solved) == (1, 0)
        back = await service.start_puzzle(USER, first.id)
        assert not back.rated and back.left is None
        await service.solve(USER, "c4-d5")
        solved = await service.solve(USER, "f3xd5xf7")
        assert solved.outcome == SolveOutcome.SOLVED and solved.result is None
        rating = await service.rating(USER, "italian")
        assert rating is not None and (rating.attempts, rating.solved) == (1, 0)
    finally:
        await storage.close()


async def test_an_untouched_puzzle_left_for_another_is_not_rated(tmp_path: Path) -> None:
    first, second = shot_puzzle(), replace(shot_puzzle(), id="italian-0000000002")
    storage = await Storage.open(tmp_path / "db.sqlite3")
    try:
        service = PuzzleService(storage.puzzles, banks={"italian": [first, second]}, seed=1)
        await service.start_puzzle(USER, first.id)
        other = await service.start_puzzle(USER, second.id)
        assert other.left is None and other.left_result is None
        assert await service.rating(USER, "italian") is None
        assert (await service.start_puzzle(USER, first.id)).rated
    finally:
        await storage.close()
