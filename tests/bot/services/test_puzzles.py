"""`PuzzleService` on a real database with a bank of one hand-made puzzle
(tests/support/puzzles.py): only the solution's move is accepted, the forced defence is
played, wrong answers may be retried, hints name the piece, reveals end the puzzle, and
the Glicko-2 ratings and streak are recorded once per attempt."""

from __future__ import annotations

import sqlite3
from collections.abc import AsyncIterator
from contextlib import closing
from dataclasses import replace
from datetime import date
from pathlib import Path

import pytest

from bot.messages import Msg
from bot.services import PlayerError
from bot.services.games import MOVE_PROBLEMS
from bot.services.puzzles import PuzzleService, SolveOutcome, rate_attempt
from engine import Color, Position, get_variant
from storage import Storage
from storage.models import PuzzleAttempt, RatingValue
from tests.support.puzzles import SHOT, shot_puzzle

ITALIAN = get_variant("italian")


@pytest.fixture
async def service(tmp_path: Path) -> AsyncIterator[PuzzleService]:
    storage = await Storage.open(tmp_path / "db.sqlite3")
    try:
        yield PuzzleService(storage.puzzles, banks={"italian": [shot_puzzle()]}, seed=1)
    finally:
        await storage.close()


async def test_only_the_solution_is_accepted_and_the_defence_is_played(
    service: PuzzleService,
) -> None:
    view = await service.start(5, "italian")
    assert view.position == Position.from_fen(SHOT, ITALIAN)
    assert view.solver is Color.WHITE and (view.found, view.total) == (0, 2)
    for wrong in ("b3-a4", "f3-e4", "c4-b5"):
        answer = await service.solve(5, wrong)
        assert answer.outcome == SolveOutcome.WRONG
        assert answer.view.position == view.position  # nothing played
    answer = await service.solve(5, "c4-d5")
    assert answer.outcome == SolveOutcome.CORRECT and answer.defence == "c6xe4"
    assert answer.view.found == 1
    answer = await service.solve(5, "f3xf7")
    assert answer.outcome == SolveOutcome.SOLVED
    assert answer.view.position.count(Color.BLACK) == 3
    # The first wrong answer was the rated result: a loss, recorded once.
    assert answer.result is None
    rating = await service.rating(5, "italian")
    assert rating is not None and (rating.attempts, rating.solved, rating.streak) == (1, 0, 0)
    with pytest.raises(PlayerError) as caught:
        await service.solve(5, "a2-b3")
    assert caught.value.key is Msg.PUZZLE_NONE


async def test_a_clean_solve_wins_rating_and_streak(service: PuzzleService) -> None:
    await service.start(6, None)
    await service.solve(6, "c4-d5")
    answer = await service.solve(6, "f3xd5xf7")
    assert answer.outcome == SolveOutcome.SOLVED and answer.result is not None
    expected = rate_attempt(None, RatingValue(1200.0, 300.0, 0.09), True)
    assert answer.result.player.value == expected[1]
    assert answer.result.puzzle.value == expected[2]
    assert answer.result.player.value.rating > 1500 and answer.result.player.streak == 1
    # Met again (the only puzzle): given, not rated.
    again = await service.start(6, "italian")
    assert not again.rated


async def test_an_illegal_answer_is_refused_and_changes_nothing(service: PuzzleService) -> None:
    await service.start(7, "italian")
    with pytest.raises(PlayerError) as caught:
        await service.solve(7, "c4-c5")
    assert caught.value.key in {*MOVE_PROBLEMS.values(), Msg.MOVE_NOT_LEGAL}
    assert (await service.solve(7, "c4-d5")).outcome == SolveOutcome.CORRECT


async def test_hint_names_the_piece_and_reveal_ends_with_a_loss(service: PuzzleService) -> None:
    await service.start(8, "italian")
    square, view = await service.hint(8)
    assert square == "c4" and len(view.marks) == 1
    reveal = await service.reveal(8)
    assert reveal.moves == ("c4-d5", "c6xe4", "f3xf7")
    assert reveal.result is not None and reveal.result.player.value.rating < 1500
    assert reveal.result.player.solved == 0


async def test_autocomplete_lists_the_puzzle_positions_moves(service: PuzzleService) -> None:
    assert await service.suggestions(9, "") == []
    await service.start(9, "italian")
    names = {c.value for c in await service.suggestions(9, "c4")}
    assert names == {"c4-b5", "c4-d5"}


async def test_unknown_or_empty_variants_are_refused(service: PuzzleService) -> None:
    with pytest.raises(PlayerError) as caught:
        await service.start(5, "turkish")
    assert caught.value.key is Msg.PUZZLE_NO_BANK
    with pytest.raises(PlayerError) as caught:
        await service.start(5, "chess")
    assert caught.value.key is Msg.UNKNOWN_VARIANT


def test_the_daily_puzzle_is_the_same_all_day(service: PuzzleService) -> None:
    day = date(2026, 12, 1)
    assert service.daily_puzzle(day) == service.daily_puzzle(day, "italian") == shot_puzzle()


async def test_an_ambiguous_answer_lists_the_candidates_as_a_games_move_does(
    tmp_path: Path,
) -> None:
    # The position of tests/bot/services/test_games.py's ambiguous capture: d3 takes c4
    # and e4 and reaches d7 either way. The candidates are numbered as the federation
    # does (d3 = 22, b5 = 13, f5 = 15, d7 = 6; docs/RULES.md), the letters beside, as for
    # /move, whatever the solver reads.
    puzzle = replace(shot_puzzle(("d3xb5xd7",)), fen="W:Wd3,h1:Bc4,c6,e4,e6")
    storage = await Storage.open(tmp_path / "db.sqlite3")
    try:
        service = PuzzleService(storage.puzzles, banks={"italian": [puzzle]}, seed=1)
        await service.start(10, "italian")
        with pytest.raises(PlayerError) as caught:
            await service.solve(10, "d3xd7")
        assert caught.value.key is Msg.MOVE_AMBIGUOUS
        assert caught.value.params["candidates"] == "22x13x6 (d3xb5xd7), 22x15x6 (d3xf5xd7)"
        assert (await service.solve(10, "d3xb5xd7")).outcome == SolveOutcome.SOLVED
    finally:
        await storage.close()


async def test_autocomplete_labels_follow_the_notation_asked(service: PuzzleService) -> None:
    # c4 = 18, b5 = 13, d5 = 14 (docs/RULES.md); the value is always the algebraic form.
    await service.start(11, "italian")
    numbered = {(c.name, c.value) for c in await service.suggestions(11, "c4")}
    assert numbered == {("18-13 (c4-b5)", "c4-b5"), ("18-14 (c4-d5)", "c4-d5")}
    lettered = {(c.name, c.value) for c in await service.suggestions(11, "18", numeric=False)}
    assert lettered == {("c4-b5 (18-13)", "c4-b5"), ("c4-d5 (18-14)", "c4-d5")}


def _attempts(path: Path) -> list[tuple[int, int, int]]:
    """(solved, hinted, revealed) of every stored attempt, oldest first."""
    with closing(sqlite3.connect(path)) as conn:
        return list(conn.execute(
            "SELECT solved, hinted, revealed FROM puzzle_attempts ORDER BY rowid"))



async def test_a_hinted_solve_is_stored_as_hinted_not_revealed(
    service: PuzzleService, tmp_path: Path,
) -> None:
    # Hinted twice, then solved: a loss (the hint), with nothing revealed.
    await service.start(10, "italian")
    await service.hint(10)
    await service.hint(10)
    await service.solve(10, "c4-d5")
    answer = await service.solve(10, "f3xf7")
    assert answer.outcome == SolveOutcome.SOLVED and answer.result is not None
    assert answer.result.player.solved == 0 and answer.result.player.attempts == 1
    assert _attempts(tmp_path / "db.sqlite3") == [(0, 1, 0)]



async def test_a_reveal_is_stored_as_revealed(service: PuzzleService, tmp_path: Path) -> None:
    await service.start(11, "italian")
    await service.reveal(11)
    assert _attempts(tmp_path / "db.sqlite3") == [(0, 0, 1)]



async def _rate_puzzle(storage: Storage, puzzle_id: str, rating: float) -> None:
    """Give puzzle `puzzle_id` the stored rating `rating`, as solvers' attempts would (one
    attempt by someone else, through the repository)."""
    def calculate(player: RatingValue | None, puzzle: RatingValue,
                  solved: bool) -> tuple[RatingValue, RatingValue, RatingValue]:
        start = RatingValue(1500.0, 350.0, 0.06)
        return start, start, RatingValue(rating, 80.0, 0.06)

    await storage.puzzles.record(
        PuzzleAttempt(99, puzzle_id, "italian", False, False, False),
        RatingValue(1200.0, 300.0, 0.09), calculate)



async def test_the_puzzles_own_rating_is_shown_and_chooses(tmp_path: Path) -> None:
    # Each puzzle is rated (Glicko-2, as lichess rates puzzles): once solvers have moved
    # it, its stored rating is the one shown and the one /puzzle matches to the player.
    # Twelve puzzles with a bank rating of 2200 and one of 2300 that solvers brought down
    # to 1500: a new player (1500) is given the latter among the nearest.
    others = [replace(shot_puzzle(), id=f"italian-00000001{i:02d}", rating=2200)
              for i in range(12)]
    easy = replace(shot_puzzle(), id="italian-0000000999", rating=2300)
    storage = await Storage.open(tmp_path / "db.sqlite3")
    try:
        await _rate_puzzle(storage, easy.id, 1500.0)
        service = PuzzleService(storage.puzzles, banks={"italian": [*others, easy]}, seed=3)
        given = set()
        for user in range(1000, 1200):
            view = await service.start(user, "italian")
            given.add(view.puzzle.id)
            if view.puzzle.id == easy.id:
                assert view.rating == 1500
            else:
                assert view.rating == 2200
        assert easy.id in given
    finally:
        await storage.close()
