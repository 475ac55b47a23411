"""`PuzzleService` on a real database with a bank of one hand-made puzzle
(tests/support/puzzles.py): only the solution's move is accepted, the forced defence is
played, wrong answers may be retried, hints name the piece, reveals end the puzzle, and
the Glicko-2 ratings and streak are recorded once per attempt. A puzzle under way is
stored: a new `PuzzleService` over the same SQLite file (a restart, a second process)
continues it where the solver was and records the rated result once; starting it again
(Solve it pressed twice, `/puzzle`) keeps the hint, the wrong answer and the plies found;
a stored puzzle the bank no longer holds is ended with a message saying so."""

from __future__ import annotations

import math
import sqlite3
from collections.abc import AsyncIterator, Awaitable, Sequence
from contextlib import asynccontextmanager, closing
from dataclasses import replace
from datetime import date
from pathlib import Path

import pytest

from bot.messages import VARIANT_NAMES_IN_SENTENCE, Msg
from bot.services import PlayerError
from bot.services.games import MOVE_PROBLEMS
from bot.services.puzzles import PuzzleService, SolveOutcome, rate_attempt
from engine import Color, Position, get_variant, parse_square
from puzzles import Puzzle
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
    square, view = await service.hint(8, shot_puzzle().id)
    assert square == "c4" and len(view.marks) == 1
    reveal = await service.reveal(8, shot_puzzle().id)
    assert reveal.moves == ("c4-d5", "c6xe4", "f3xf7")
    assert reveal.result is not None and reveal.result.player.value.rating < 1500
    assert reveal.result.player.solved == 0


async def test_the_hints_mark_stays_after_a_wrong_answer(service: PuzzleService) -> None:
    await service.start(11, "italian")
    unhinted = await service.solve(11, "f3-e4")
    assert unhinted.outcome == SolveOutcome.WRONG and unhinted.view.marks == ()
    _, hinted = await service.hint(11, shot_puzzle().id)
    for _ in range(2):  # the first wrong answer after the hint, and another
        wrong = await service.solve(11, "b3-a4")
        assert wrong.outcome == SolveOutcome.WRONG
        assert wrong.view.marks == hinted.marks == (parse_square("c4"),)


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


@pytest.mark.parametrize("key", ["international", "brazilian", "russian", "english"])
async def test_a_variant_without_puzzles_is_refused_by_its_name(
    service: PuzzleService, key: str
) -> None:
    with pytest.raises(PlayerError) as caught:
        await service.start(5, key)
    assert caught.value.key is Msg.PUZZLE_NO_BANK
    assert caught.value.params["variant_in_sentence"] is VARIANT_NAMES_IN_SENTENCE[key]
    with pytest.raises(PlayerError) as caught:
        service.daily_puzzle(date(2026, 12, 6), key)
    assert caught.value.key is Msg.PUZZLE_NO_BANK
    assert caught.value.params["variant_in_sentence"] is VARIANT_NAMES_IN_SENTENCE[key]


async def test_a_servers_daily_puzzle_is_set_and_stopped(service: PuzzleService) -> None:
    setting = await service.set_daily(500, 600, "italian", 1001)
    assert (setting.guild_id, setting.channel_id, setting.variant) == (500, 600, "italian")
    assert await service.stop_daily(500)
    assert not await service.stop_daily(500)  # had none any more


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
    await service.hint(10, shot_puzzle().id)
    await service.hint(10, shot_puzzle().id)
    await service.solve(10, "c4-d5")
    answer = await service.solve(10, "f3xf7")
    assert answer.outcome == SolveOutcome.SOLVED and answer.result is not None
    assert answer.result.player.solved == 0 and answer.result.player.attempts == 1
    assert _attempts(tmp_path / "db.sqlite3") == [(0, 1, 0)]



async def test_a_reveal_is_stored_as_revealed(service: PuzzleService, tmp_path: Path) -> None:
    await service.start(11, "italian")
    await service.reveal(11, shot_puzzle().id)
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


USER = 7


async def test_pressing_solve_it_again_after_a_hint_keeps_the_hint(tmp_path: Path) -> None:
    storage = await Storage.open(tmp_path / "db.sqlite3")
    try:
        service = PuzzleService(storage.puzzles, banks={"italian": [shot_puzzle()]}, seed=1)
        puzzle_id = shot_puzzle().id
        await service.start_puzzle(USER, puzzle_id)
        await service.hint(USER, puzzle_id)
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
        await service.hint(USER, first.id)
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


SOLVER = 5



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
        view = await first.start(SOLVER, "italian")
        assert view.rated
        answer = await first.solve(SOLVER, "c4-d5")
        assert answer.outcome == SolveOutcome.CORRECT and answer.defence == "c6xe4"
        after_defence = answer.view.position
    async with bot_process(db) as second:
        # Autocomplete offers the moves of the position after 1. c4-d5 c6xe4: the capture
        # is compulsory, and f3 has one.
        assert {c.value for c in await second.suggestions(SOLVER, "f3")} == {"f3xf7"}
        # The first move again is no longer legal (c4 is empty): refused, nothing rated.
        key = await _refused(second.solve(SOLVER, "c4-d5"))
        assert key in {*MOVE_PROBLEMS.values(), Msg.MOVE_NOT_LEGAL}
        assert await second.rating(SOLVER, "italian") is None
        # The hint names the piece of the solution's next move.
        square, hinted = await second.hint(SOLVER, shot_puzzle().id)
        assert square == "f3" and hinted.position == after_defence and hinted.found == 1
    async with bot_process(db) as third:
        answer = await third.solve(SOLVER, "f3xf7")
        assert answer.outcome == SolveOutcome.SOLVED
        assert answer.view.position.count(Color.BLACK) == 3
        # The hint before the restart counts: a hinted solve is a rated loss.
        assert answer.result is not None and answer.result.player.solved == 0
        assert answer.result.player.attempts == 1
        assert await _refused(third.solve(SOLVER, "a2-b3")) is Msg.PUZZLE_NONE
    async with bot_process(db) as fourth:
        # Answered once more after the result was stored (the answer lost with a crash):
        # the puzzle is over, nothing more is recorded.
        assert await _refused(fourth.solve(SOLVER, "f3xf7")) is Msg.PUZZLE_NONE
        assert await fourth.suggestions(SOLVER, "") == []
        rating = await fourth.rating(SOLVER, "italian")
        assert rating is not None and (rating.attempts, rating.solved) == (1, 0)


async def test_a_wrong_answer_before_a_restart_stays_the_rated_result(tmp_path: Path) -> None:
    db = tmp_path / "db.sqlite3"
    async with bot_process(db) as first:
        await first.start(SOLVER, "italian")
        wrong = await first.solve(SOLVER, "f3-e4")
        assert wrong.outcome == SolveOutcome.WRONG and wrong.result is not None
        assert wrong.view.position == Position.from_fen(SHOT, ITALIAN)
    async with bot_process(db) as second:
        again = await second.solve(SOLVER, "b3-a4")
        assert again.outcome == SolveOutcome.WRONG and again.result is None
        assert (await second.solve(SOLVER, "c4-d5")).outcome == SolveOutcome.CORRECT
    async with bot_process(db) as third:
        solved = await third.solve(SOLVER, "f3xd5xf7")
        assert solved.outcome == SolveOutcome.SOLVED and solved.result is None
        rating = await third.rating(SOLVER, "italian")
        assert rating is not None and (rating.attempts, rating.solved, rating.streak) == (1, 0, 0)


async def test_a_clean_solve_across_a_restart_is_a_win(tmp_path: Path) -> None:
    db = tmp_path / "db.sqlite3"
    async with bot_process(db) as first:
        await first.start(SOLVER, "italian")
        await first.solve(SOLVER, "c4-d5")
    async with bot_process(db) as second:
        solved = await second.solve(SOLVER, "f3xf7")
        assert solved.result is not None
        assert (solved.result.player.solved, solved.result.player.streak) == (1, 1)


async def test_a_reveal_after_a_restart_shows_the_rest_and_ends_it(tmp_path: Path) -> None:
    db = tmp_path / "db.sqlite3"
    async with bot_process(db) as first:
        await first.start(SOLVER, "italian")
        await first.solve(SOLVER, "c4-d5")
    async with bot_process(db) as second:
        reveal = await second.reveal(SOLVER, shot_puzzle().id)
        assert reveal.moves == ("f3xf7",)
        assert reveal.result is not None and reveal.result.player.solved == 0
        assert await _refused(second.reveal(SOLVER, shot_puzzle().id)) is Msg.PUZZLE_NONE


async def test_two_processes_serve_one_solver(tmp_path: Path) -> None:
    """Two services over one database at once (two shards or machines): each step of one
    is seen by the other."""
    db = tmp_path / "db.sqlite3"
    async with bot_process(db) as one, bot_process(db) as other:
        await one.start(SOLVER, "italian")
        assert (await other.solve(SOLVER, "c4-d5")).outcome == SolveOutcome.CORRECT
        solved = await one.solve(SOLVER, "f3xf7")
        assert solved.outcome == SolveOutcome.SOLVED and solved.result is not None
        assert await _refused(other.hint(SOLVER, shot_puzzle().id)) is Msg.PUZZLE_NONE


@pytest.mark.parametrize("changed", [
    replace(shot_puzzle(), id="italian-0000000002"),           # the puzzle is gone
    shot_puzzle(("c4-d5", "e6xc4", "b3xd5xb7")),               # same id, another line
], ids=["removed", "line-changed"])
async def test_a_puzzle_the_bank_lost_is_ended_with_a_message(
    tmp_path: Path, changed: Puzzle
) -> None:
    db = tmp_path / "db.sqlite3"
    async with bot_process(db) as first:
        await first.start(SOLVER, "italian")
        await first.solve(SOLVER, "c4-d5")
    async with bot_process(db, [changed]) as regenerated:
        assert await regenerated.suggestions(SOLVER, "") == []  # /solve will say why
        with pytest.raises(PlayerError) as caught:
            await regenerated.solve(SOLVER, "f3xf7")
        assert caught.value.key is Msg.PUZZLE_GONE
        assert caught.value.params["puzzle"] == shot_puzzle().id
        # Ended: nothing under way, nothing rated; a new puzzle can be started.
        assert await _refused(regenerated.hint(SOLVER, shot_puzzle().id)) is Msg.PUZZLE_NONE
        assert await regenerated.rating(SOLVER, "italian") is None
        assert (await regenerated.start(SOLVER, "italian")).puzzle == changed


# --- The puzzle's own rating, by Glicko-2's own numbers --------------------------------------
#
# Written here from Glickman's paper ("Example of the Glicko-2 system", Boston University,
# 2013, steps 1 to 8), independently of `bot.ratings`: the solver and the puzzle play one
# game, a rating period of its own with no time passing in it (lichess's
# `skipDeviationIncrease`, docs/PUZZLES.md, "Ratings"), tau 0.75, epsilon 0.000001.

_SCALE = 173.7178  # step 2
_TAU = 0.75
_EPSILON = 0.000001


def _glicko2_period(rating: float, deviation: float, volatility: float,
                    games: Sequence[tuple[float, float, float]], *, tau: float = _TAU,
                    elapsed: float = 0.0) -> tuple[float, float, float]:
    """A player's (rating, deviation, volatility) after one rating period of `games`, each
    (opponent's rating, opponent's deviation, score), with `elapsed` periods in step 6."""
    # Step 2.
    mu, phi = (rating - 1500.0) / _SCALE, deviation / _SCALE
    opponents = [((r - 1500.0) / _SCALE, rd / _SCALE, s) for r, rd, s in games]
    # Step 3 (v) and step 4 (the sum in delta).
    v_inverse = gain = 0.0
    for mu_j, phi_j, score in opponents:
        g = 1.0 / math.sqrt(1.0 + 3.0 * phi_j ** 2 / math.pi ** 2)
        expected = 1.0 / (1.0 + math.exp(-g * (mu - mu_j)))
        v_inverse += g ** 2 * expected * (1.0 - expected)
        gain += g * (score - expected)
    v = 1.0 / v_inverse
    delta = v * gain
    # Step 5 (the Illinois algorithm).
    a = math.log(volatility ** 2)

    def f(x: float) -> float:
        return (math.exp(x) * (delta ** 2 - phi ** 2 - v - math.exp(x))
                / (2.0 * (phi ** 2 + v + math.exp(x)) ** 2) - (x - a) / tau ** 2)

    low = a
    if delta ** 2 > phi ** 2 + v:
        high = math.log(delta ** 2 - phi ** 2 - v)
    else:
        k = 1
        while f(a - k * tau) < 0:
            k += 1
        high = a - k * tau
    f_low, f_high = f(low), f(high)
    while abs(high - low) > _EPSILON:
        c = low + (low - high) * f_low / (f_high - f_low)
        f_c = f(c)
        if f_c * f_high <= 0:
            low, f_low = high, f_high
        else:
            f_low /= 2.0
        high, f_high = c, f_c
    sigma = math.exp(low / 2.0)
    # Step 6.
    phi_star = math.sqrt(phi ** 2 + elapsed * sigma ** 2)
    # Step 7.
    phi_new = 1.0 / math.sqrt(1.0 / phi_star ** 2 + 1.0 / v)
    mu_new = mu + phi_new ** 2 * gain
    # Step 8.
    return 1500.0 + _SCALE * mu_new, _SCALE * phi_new, sigma


def test_the_independent_glicko2_computation_gives_the_papers_example() -> None:
    # The paper's worked example: 1500 (RD 200, volatility 0.06) beats 1400 (RD 30), loses
    # to 1550 (RD 100) and 1700 (RD 300), tau 0.5, one period: 1464.06, RD 151.52,
    # volatility 0.05999.
    rating, deviation, volatility = _glicko2_period(
        1500.0, 200.0, 0.06, [(1400.0, 30.0, 1.0), (1550.0, 100.0, 0.0),
                              (1700.0, 300.0, 0.0)], tau=0.5, elapsed=1.0)
    assert rating == pytest.approx(1464.06, abs=0.01)
    assert deviation == pytest.approx(151.52, abs=0.01)
    assert volatility == pytest.approx(0.05999, abs=0.00001)


@pytest.mark.parametrize("solved", [True, False], ids=["solved", "failed"])
async def test_a_solved_puzzles_rating_goes_down_and_a_failed_ones_up_by_glicko2(
    service: PuzzleService, tmp_path: Path, solved: bool,
) -> None:
    # A new solver (1500, deviation 500, volatility 0.09) meets the shot puzzle (its bank
    # rating 1200, deviation PUZZLE_START_DEVIATION 300, volatility 0.09). The puzzle is
    # the solver's opponent: it scores 0 when solved, 1 when failed.
    await service.start(11, "italian")
    if solved:
        await service.solve(11, "c4-d5")
        answer = await service.solve(11, "f3xd5xf7")
        assert answer.outcome == SolveOutcome.SOLVED
    else:
        answer = await service.solve(11, "b3-a4")
        assert answer.outcome == SolveOutcome.WRONG
    puzzle_expected = _glicko2_period(1200.0, 300.0, 0.09,
                                      [(1500.0, 500.0, 0.0 if solved else 1.0)])
    solver_expected = _glicko2_period(1500.0, 500.0, 0.09,
                                      [(1200.0, 300.0, 1.0 if solved else 0.0)])
    storage = await Storage.open(tmp_path / "db.sqlite3")
    try:
        stats = await storage.puzzles.stats(shot_puzzle().id)
        solver = await storage.puzzles.rating(11, "italian")
    finally:
        await storage.close()
    assert stats is not None and solver is not None
    stored = stats.value
    assert (stored.rating, stored.deviation, stored.volatility) == pytest.approx(
        puzzle_expected, abs=1e-4)
    assert (solver.value.rating, solver.value.deviation, solver.value.volatility) == (
        pytest.approx(solver_expected, abs=1e-4))
    if solved:
        assert stored.rating < 1200.0 and solver.value.rating > 1500.0
    else:
        assert stored.rating > 1200.0 and solver.value.rating < 1500.0
