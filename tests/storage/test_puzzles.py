"""Puzzle ratings, attempts and daily-puzzle settings on both backends (migration 0007):
one transaction per attempt, streaks, and a day's post claimed exactly once; the puzzle
under way (migration 0008): stored, stepped only from the revision stored, its rated
result recorded in the step's own transaction."""

from __future__ import annotations

import asyncio
from dataclasses import replace

import pytest

from storage import PuzzleSessionChangedError, Storage
from storage.models import PuzzleAttempt, RatingValue
from storage.repositories import PuzzleRatingCalculator, PuzzleRecording

START = RatingValue(1400.0, 300.0, 0.09)


def _calculator(
    seen: list[tuple[RatingValue | None, RatingValue, bool]],
) -> PuzzleRatingCalculator:
    """A calculator that records what it was given and moves both ratings by 10."""

    def calculate(player: RatingValue | None, puzzle: RatingValue, solved: bool
                  ) -> tuple[RatingValue, RatingValue, RatingValue]:
        seen.append((player, puzzle, solved))
        before = player or RatingValue(1500.0, 500.0, 0.09)
        sign = 1 if solved else -1
        return (before, RatingValue(before.rating + 10 * sign, 400.0, 0.09),
                RatingValue(puzzle.rating - 10 * sign, 290.0, 0.09))

    return calculate


async def test_attempts_move_ratings_and_streaks(storage: Storage) -> None:
    repo = storage.puzzles
    seen: list[tuple[RatingValue | None, RatingValue, bool]] = []
    calc = _calculator(seen)
    assert await repo.rating(1, "italian") is None
    first = await repo.record(PuzzleAttempt(1, "p1", "italian", True, False, False), START, calc)
    assert seen[0] == (None, START, True)
    assert first.player.value.rating == 1510.0 and first.player.streak == 1
    assert first.puzzle.value.rating == 1390.0 and first.puzzle_before == START
    await repo.record(PuzzleAttempt(1, "p2", "italian", True, False, False), START, calc)
    third = await repo.record(PuzzleAttempt(1, "p1x", "italian", False, True, False), START,
                              calc)
    assert seen[2][0] == RatingValue(1520.0, 400.0, 0.09)
    rating = await repo.rating(1, "italian")
    assert rating is not None and rating == third.player
    assert (rating.attempts, rating.solved, rating.streak, rating.best_streak) == (3, 2, 0, 2)
    # The puzzle's own rating is stored and used by the next solver.
    await repo.record(PuzzleAttempt(2, "p1", "italian", False, False, True), START, calc)
    assert seen[3][1] == RatingValue(1390.0, 290.0, 0.09)
    stats = await repo.stats("p1")
    assert stats is not None and (stats.attempts, stats.solved) == (2, 1)
    assert await repo.attempted(1, "italian") == {"p1", "p2", "p1x"}
    assert await repo.attempted(1, "turkish") == set()
    # Every attempted puzzle's rating of a variant at once (what /puzzle matches).
    ratings = await repo.puzzle_ratings("italian")
    assert ratings == {"p1": RatingValue(1400.0, 290.0, 0.09),
                       "p2": RatingValue(1390.0, 290.0, 0.09),
                       "p1x": RatingValue(1410.0, 290.0, 0.09)}
    assert await repo.puzzle_ratings("turkish") == {}


async def test_daily_settings_and_one_claim_per_day(storage: Storage) -> None:
    repo = storage.puzzles
    assert await repo.daily_all() == []
    setting = await repo.set_daily(10, 100, None, set_by=7)
    assert (setting.channel_id, setting.variant, setting.last_posted) == (100, None, None)
    assert await repo.claim_daily(10, "2026-12-01")
    assert not await repo.claim_daily(10, "2026-12-01")
    moved = await repo.set_daily(10, 101, "italian", set_by=7)
    assert moved.last_posted == "2026-12-01" and moved.channel_id == 101
    assert not await repo.claim_daily(10, "2026-12-01")
    assert await repo.claim_daily(10, "2026-12-02")
    assert await repo.clear_daily(10)
    assert not await repo.clear_daily(10)
    assert await repo.daily(10) is None


async def test_a_daily_puzzle_stopped_and_set_again_keeps_the_day_posted(
    storage: Storage,
) -> None:
    # Set, posted, stopped, set again the same UTC day: that day is not claimed a second
    # time (a day is never posted twice), the next one is.
    repo = storage.puzzles
    await repo.set_daily(10, 100, None, set_by=7)
    assert await repo.claim_daily(10, "2026-12-01")
    assert await repo.clear_daily(10)
    assert await repo.daily(10) is None and await repo.daily_all() == []
    assert not await repo.clear_daily(10)
    again = await repo.set_daily(10, 101, "italian", set_by=8)
    assert (again.channel_id, again.variant, again.last_posted) == (101, "italian",
                                                                     "2026-12-01")
    assert await repo.daily_all() == [again]
    assert not await repo.claim_daily(10, "2026-12-01")
    assert await repo.claim_daily(10, "2026-12-02")
    # Stopped before its first post: nothing to keep, and another server is untouched.
    await repo.set_daily(11, 110, None, set_by=7)
    assert await repo.clear_daily(11)
    fresh = await repo.set_daily(11, 110, None, set_by=7)
    assert fresh.last_posted is None and await repo.claim_daily(11, "2026-12-01")


async def test_a_session_is_stored_stepped_and_ended(storage: Storage) -> None:
    repo = storage.puzzles
    assert await repo.session(3) is None
    line = ("c4-d5", "c6xe4", "f3xd5xf7")
    started = await repo.start_session(3, "p1", "italian", line, rated=True)
    assert (started.user_id, started.puzzle_id, started.variant) == (3, "p1", "italian")
    assert (started.solution, started.plies) == (line, 0)
    assert started.rated and not started.failed and not started.hinted
    assert await repo.session(3) == started
    stepped, result = await repo.step_session(replace(started, plies=2, hinted=True))
    assert result is None and stepped is not None
    assert (stepped.plies, stepped.hinted, stepped.revision) == (2, True, started.revision + 1)
    assert await repo.session(3) == stepped
    # A step computed from the older revision is refused and writes nothing.
    with pytest.raises(PuzzleSessionChangedError):
        await repo.step_session(replace(started, plies=1))
    assert await repo.session(3) == stepped
    seen: list[tuple[RatingValue | None, RatingValue, bool]] = []
    recording = PuzzleRecording(PuzzleAttempt(3, "p1", "italian", False, True, False), START,
                                _calculator(seen))
    gone, result = await repo.step_session(replace(stepped, plies=3), finished=True,
                                           recording=recording)
    assert gone is None and result is not None and result.player.attempts == 1
    assert await repo.session(3) is None
    # Ended: the same step again records nothing more.
    with pytest.raises(PuzzleSessionChangedError):
        await repo.step_session(replace(stepped, plies=3), finished=True, recording=recording)
    rating = await repo.rating(3, "italian")
    assert rating is not None and rating.attempts == 1 and len(seen) == 1


async def test_a_new_puzzle_replaces_the_one_under_way(storage: Storage) -> None:
    repo = storage.puzzles
    first = await repo.start_session(4, "p1", "italian", ("a", "b", "c"), rated=True)
    moved, _ = await repo.step_session(replace(first, plies=2, failed=True))
    assert moved is not None
    again = await repo.start_session(4, "p1", "italian", ("a", "b", "c"), rated=False)
    assert (again.plies, again.failed, again.rated) == (0, False, False)
    assert again.revision not in (first.revision, moved.revision)
    with pytest.raises(PuzzleSessionChangedError):
        await repo.step_session(replace(moved, plies=3))
    assert await repo.session(4) == again


async def test_a_recording_that_fails_leaves_the_session_as_it_was(storage: Storage) -> None:
    repo = storage.puzzles
    started = await repo.start_session(5, "p1", "italian", ("a", "b", "c"), rated=True)

    def broken(player: RatingValue | None, puzzle: RatingValue, solved: bool
               ) -> tuple[RatingValue, RatingValue, RatingValue]:
        raise RuntimeError("the process died here")

    recording = PuzzleRecording(PuzzleAttempt(5, "p1", "italian", False, False, False),
                                START, broken)
    with pytest.raises(RuntimeError):
        await repo.step_session(replace(started, failed=True), recording=recording)
    assert await repo.session(5) == started
    assert await repo.rating(5, "italian") is None


async def test_two_processes_stepping_one_session_at_once_store_one_step(target: str) -> None:
    """Two `Storage` objects on one database (as two processes) each step the same read of
    a session, recording a rated result: one step and one result are stored, the other is
    refused with nothing written."""
    first, second = await Storage.open(target), await Storage.open(target)
    try:
        read = await first.puzzles.start_session(6, "p1", "italian", ("a", "b", "c"),
                                                 rated=True)
        seen: list[tuple[RatingValue | None, RatingValue, bool]] = []
        recording = PuzzleRecording(PuzzleAttempt(6, "p1", "italian", False, False, False),
                                    START, _calculator(seen))
        outcomes = await asyncio.gather(
            *(store.puzzles.step_session(replace(read, failed=True), recording=recording)
              for store in (first, second) for _ in range(3)),
            return_exceptions=True)
        stored = [o for o in outcomes if not isinstance(o, BaseException)]
        refused = [o for o in outcomes if isinstance(o, PuzzleSessionChangedError)]
        assert len(stored) == 1 and len(refused) == 5, outcomes
        rating = await second.puzzles.rating(6, "italian")
        assert rating is not None and rating.attempts == 1
        session = await second.puzzles.session(6)
        assert session is not None and session.failed
        assert session.revision == read.revision + 1
    finally:
        await first.close()
        await second.close()
