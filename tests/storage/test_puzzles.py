"""Puzzle ratings, attempts and daily-puzzle settings on both backends (migration 0007):
one transaction per attempt, streaks, and a day's post claimed exactly once."""

from __future__ import annotations

from storage import Storage
from storage.models import PuzzleAttempt, RatingValue
from storage.repositories import PuzzleRatingCalculator

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
