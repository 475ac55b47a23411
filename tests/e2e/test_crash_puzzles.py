"""Puzzles across a kill (docs/ARCHITECTURE.md, "Crash points"; docs/PUZZLES.md, "A
puzzle under way survives a restart"): the real bot process, with the shipped Italian
bank, SIGKILLs itself at `puzzle-committed`, right after a step of the solver's puzzle
was stored and before the solver was answered. After the restart the solver's next
`/solve` continues the puzzle from the stored step, and the rated result is recorded
exactly once: when the killed step was the first wrong answer (a loss), and when it was
the move that solved it (a win). The stand-in, a real SQLite file."""

from __future__ import annotations

import re
from pathlib import Path

from bot.faults import FaultPoint
from engine import format_move, get_variant, legal_moves, parse_move
from puzzles import Puzzle, load_bank
from standin import UserInfo, shown_text
from tests.support.crash_points import CrashHarness, local_discord, query
from tests.support.local_discord import ANSWER_TIMEOUT

VARIANT = get_variant("italian")


async def _given(harness: CrashHarness, solver: UserInfo) -> Puzzle:
    """`/puzzle variant:italian` by `solver`: the puzzle given."""
    bank = {p.id: p for p in load_bank("italian")}
    started = await harness.standin.slash(solver, harness.local.channel, "puzzle",
                                          {"variant": "italian"}, timeout=ANSWER_TIMEOUT)
    found = re.search(r"Puzzle (\S+) \(", started.reply.text())
    assert found is not None, started.reply.text()
    return bank[found.group(1)]


async def _solve(harness: CrashHarness, solver: UserInfo, move: str) -> str | None:
    """`/solve move:<move>`: the answer's text, None when the bot died before answering."""
    answer = await harness.interact(harness.standin.slash(
        solver, harness.local.channel, "solve", {"move": move}, timeout=ANSWER_TIMEOUT))
    return None if answer is None else answer.reply.text()


def _attempts(harness: CrashHarness, solver: UserInfo) -> list[tuple[object, ...]]:
    """The solver's stored attempts (puzzle id, solved) and rating record (attempts,
    solved)."""
    return [*query(harness.database, "SELECT puzzle_id, solved FROM puzzle_attempts "
                   "WHERE user_id = ?", solver.id),
            *query(harness.database, "SELECT attempts, solved FROM puzzle_ratings "
                   "WHERE user_id = ?", solver.id)]


async def _run(tmp_path: Path, scenario: str) -> None:
    async with local_discord(tmp_path) as local:
        harness = CrashHarness(local)
        try:
            if scenario == "wrong":
                await _killed_at_the_first_wrong_answer(harness)
            else:
                await _killed_at_the_solving_move(harness)
        finally:  # shown by pytest only when the test failed
            print(local.process.log_tail(60))
    log = (tmp_path / "bot.log").read_text(encoding="utf-8", errors="replace")
    assert "Traceback" not in log, log[-4000:]


async def test_a_wrong_answer_stored_at_a_kill_is_rated_once_and_the_puzzle_goes_on(
    tmp_path: Path,
) -> None:
    await _run(tmp_path, "wrong")


async def test_a_solve_stored_at_a_kill_is_rated_once_as_a_win(tmp_path: Path) -> None:
    await _run(tmp_path, "solved")


async def _killed_at_the_first_wrong_answer(harness: CrashHarness) -> None:
    alice = harness.standin.user("alice")
    await harness.restart(FaultPoint.PUZZLE_COMMITTED)
    puzzle = await _given(harness, alice)
    position = puzzle.position()
    expected = parse_move(puzzle.solution[0], position, VARIANT)
    wrong = next(m for m in legal_moves(position, VARIANT) if m != expected)
    assert await _solve(harness, alice, format_move(wrong, position, VARIANT)) is None
    await harness.wait_death()
    assert _attempts(harness, alice) == [(puzzle.id, 0), (1, 0)]

    await harness.restart(None)
    # The puzzle goes on where it was: the solution's moves are accepted, one by one.
    for index in range(0, len(puzzle.solution), 2):
        told = await _solve(harness, alice, puzzle.solution[index])
        assert told is not None
        last = index + 1 >= len(puzzle.solution)
        assert ("solved" if last else "is right") in told, told
    # The loss stored with the killed step is the only result.
    assert _attempts(harness, alice) == [(puzzle.id, 0), (1, 0)]
    assert query(harness.database, "SELECT COUNT(*) FROM puzzle_sessions") == [(0,)]


async def _killed_at_the_solving_move(harness: CrashHarness) -> None:
    alice = harness.standin.user("alice")
    puzzle = await _given(harness, alice)
    # Restarted between steps (the puzzle given, nothing answered), armed so that the
    # solver's last move, the n-th step, is the one killed after its commit.
    solver_moves = puzzle.solution[0::2]
    await harness.restart(FaultPoint.PUZZLE_COMMITTED, times=len(solver_moves))
    for move in solver_moves[:-1]:
        told = await _solve(harness, alice, move)
        assert told is not None and "is right" in told, told
    assert await _solve(harness, alice, solver_moves[-1]) is None
    await harness.wait_death()
    assert _attempts(harness, alice) == [(puzzle.id, 1), (1, 1)]

    await harness.restart(None)
    told = await _solve(harness, alice, solver_moves[-1])
    assert told is not None, told
    assert shown_text(told) == "You have no puzzle under way. Start one with /puzzle.", told
    assert _attempts(harness, alice) == [(puzzle.id, 1), (1, 1)]
