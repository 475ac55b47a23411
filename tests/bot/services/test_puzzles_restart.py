"""A puzzle under way is stored (migration 0008): a new `PuzzleService` over the same
SQLite file, as after a restart or in a second process, continues it exactly where the
solver was, accepts only the next move of the solution, and records the rated result
once; a stored puzzle the bank no longer holds as it was given is ended with a message
saying so. Bank: the hand-made puzzle of tests/support/puzzles.py (1. c4-d5 c6xe4
2. f3xd5xf7)."""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Sequence
from contextlib import asynccontextmanager
from dataclasses import replace
from pathlib import Path

import pytest

from bot.messages import Msg
from bot.services import PlayerError
from bot.services.games import MOVE_PROBLEMS
from bot.services.puzzles import PuzzleService, SolveOutcome
from engine import Color, Position, get_variant
from puzzles import Puzzle
from storage import Storage
from tests.support.puzzles import SHOT, shot_puzzle

ITALIAN = get_variant("italian")
USER = 5



@asynccontextmanager
async def bot_process(path: Path, bank: Sequence[Puzzle] | None = None
                      ) -> AsyncIterator[PuzzleService]:
    """One run of the bot's puzzle service over the database file `path`: opened, then
    closed (a restart is the next `bot_process`)."""
    storage = await Storage.open(path)
    try:
        yield PuzzleService(storage.puzzles,
                            banks={"italian": list(bank or [shot_puzzle()])}, seed=1)
    finally:
        await storage.close()


async def _refused(call: Awaitable[object]) -> Msg:
    with pytest.raises(PlayerError) as caught:
        await call
    return caught.value.key


async def test_a_restart_continues_the_puzzle_and_rates_it_once(tmp_path: Path) -> None:
    db = tmp_path / "db.sqlite3"
    async with bot_process(db) as first:
        view = await first.start(USER, "italian")
        assert view.rated
        answer = await first.solve(USER, "c4-d5")
        assert answer.outcome == SolveOutcome.CORRECT and answer.defence == "c6xe4"
        after_defence = answer.view.position
    async with bot_process(db) as second:
        # Autocomplete offers the moves of the position after 1. c4-d5 c6xe4: the capture
        # is compulsory, and f3 has one.
        assert {c.value for c in await second.suggestions(USER, "f3")} == {"f3xf7"}
        # The first move again is no longer legal (c4 is empty): refused, nothing rated.
        key = await _refused(second.solve(USER, "c4-d5"))
        assert key in {*MOVE_PROBLEMS.values(), Msg.MOVE_NOT_LEGAL}
        assert await second.rating(USER, "italian") is None
        # The hint names the piece of the solution's next move.
        square, hinted = await second.hint(USER)
        assert square == "f3" and hinted.position == after_defence and hinted.found == 1
    async with bot_process(db) as third:
        answer = await third.solve(USER, "f3xf7")
        assert answer.outcome == SolveOutcome.SOLVED
        assert answer.view.position.count(Color.BLACK) == 3
        # The hint before the restart counts: a hinted solve is a rated loss.
        assert answer.result is not None and answer.result.player.solved == 0
        assert answer.result.player.attempts == 1
        assert await _refused(third.solve(USER, "a2-b3")) is Msg.PUZZLE_NONE
    async with bot_process(db) as fourth:
        # Answered once more after the result was stored (the answer lost with a crash):
        # the puzzle is over, nothing more is recorded.
        assert await _refused(fourth.solve(USER, "f3xf7")) is Msg.PUZZLE_NONE
        assert await fourth.suggestions(USER, "") == []
        rating = await fourth.rating(USER, "italian")
        assert rating is not None and (rating.attempts, rating.solved) == (1, 0)


async def test_a_wrong_answer_before_a_restart_stays_the_rated_result(tmp_path: Path) -> None:
    db = tmp_path / "db.sqlite3"
    async with bot_process(db) as first:
        await first.start(USER, "italian")
        wrong = await first.solve(USER, "f3-e4")
        assert wrong.outcome == SolveOutcome.WRONG and wrong.result is not None
        assert wrong.view.position == Position.from_fen(SHOT, ITALIAN)
    async with bot_process(db) as second:
        again = await second.solve(USER, "b3-a4")
        assert again.outcome == SolveOutcome.WRONG and again.result is None
        assert (await second.solve(USER, "c4-d5")).outcome == SolveOutcome.CORRECT
    async with bot_process(db) as third:
        solved = await third.solve(USER, "f3xd5xf7")
        assert solved.outcome == SolveOutcome.SOLVED and solved.result is None
        rating = await third.rating(USER, "italian")
        assert rating is not None and (rating.attempts, rating.solved, rating.streak) == (1, 0, 0)


async def test_a_clean_solve_across_a_restart_is_a_win(tmp_path: Path) -> None:
    db = tmp_path / "db.sqlite3"
    async with bot_process(db) as first:
        await first.start(USER, "italian")
        await first.solve(USER, "c4-d5")
    async with bot_process(db) as second:
        solved = await second.solve(USER, "f3xf7")
        assert solved.result is not None
        assert (solved.result.player.solved, solved.result.player.streak) == (1, 1)


async def test_a_reveal_after_a_restart_shows_the_rest_and_ends_it(tmp_path: Path) -> None:
    db = tmp_path / "db.sqlite3"
    async with bot_process(db) as first:
        await first.start(USER, "italian")
        await first.solve(USER, "c4-d5")
    async with bot_process(db) as second:
        reveal = await second.reveal(USER)
        assert reveal.moves == ("f3xf7",)
        assert reveal.result is not None and reveal.result.player.solved == 0
        assert await _refused(second.reveal(USER)) is Msg.PUZZLE_NONE


async def test_two_processes_serve_one_solver(tmp_path: Path) -> None:
    """Two services over one database at once (two shards or machines): each step of one
    is seen by the other."""
    db = tmp_path / "db.sqlite3"
    async with bot_process(db) as one, bot_process(db) as other:
        await one.start(USER, "italian")
        assert (await other.solve(USER, "c4-d5")).outcome == SolveOutcome.CORRECT
        solved = await one.solve(USER, "f3xf7")
        assert solved.outcome == SolveOutcome.SOLVED and solved.result is not None
        assert await _refused(other.hint(USER)) is Msg.PUZZLE_NONE


@pytest.mark.parametrize("changed", [
    replace(shot_puzzle(), id="italian-0000000002"),           # the puzzle is gone
    shot_puzzle(("c4-d5", "e6xc4", "b3xd5xb7")),               # same id, another line
], ids=["removed", "line-changed"])
async def test_a_puzzle_the_bank_lost_is_ended_with_a_message(
    tmp_path: Path, changed: Puzzle
) -> None:
    db = tmp_path / "db.sqlite3"
    async with bot_process(db) as first:
        await first.start(USER, "italian")
        await first.solve(USER, "c4-d5")
    async with bot_process(db, [changed]) as regenerated:
        assert await regenerated.suggestions(USER, "") == []  # /solve will say why
        with pytest.raises(PlayerError) as caught:
            await regenerated.solve(USER, "f3xf7")
        assert caught.value.key is Msg.PUZZLE_GONE
        assert caught.value.params["puzzle"] == shot_puzzle().id
        # Ended: nothing under way, nothing rated; a new puzzle can be started.
        assert await _refused(regenerated.hint(USER)) is Msg.PUZZLE_NONE
        assert await regenerated.rating(USER, "italian") is None
        assert (await regenerated.start(USER, "italian")).puzzle == changed
