"""Two bot processes (two `PuzzleService`s, each with its own `Storage`) serving one
solver on one real PostgreSQL database (tests/support/postgres.py): the last move sent to
both at once is rated once, and a hinted puzzle left in both at once (two new puzzles
asked at the same moment) records its loss once. Bank: two copies of the hand-made puzzle
of tests/support/puzzles.py (1. c4-d5 c6xe4 2. f3xd5xf7)."""

from __future__ import annotations

import asyncio
from dataclasses import replace

from bot.messages import Msg
from bot.services import PlayerError
from bot.services.puzzles import PuzzleService, SolveOutcome
from storage import Storage
from tests.support.postgres import PostgresServer
from tests.support.puzzles import shot_puzzle

USER = 9
FIRST, SECOND = shot_puzzle(), replace(shot_puzzle(), id="italian-0000000002")


async def test_two_processes_rate_the_last_move_once(postgres_server: PostgresServer) -> None:
    url = postgres_server.new_database()
    stores = [await Storage.open(url), await Storage.open(url)]
    try:
        one, two = (PuzzleService(s.puzzles, banks={"italian": [FIRST, SECOND]}, seed=1)
                    for s in stores)
        await one.start_puzzle(USER, FIRST.id)
        assert (await two.solve(USER, "c4-d5")).outcome == SolveOutcome.CORRECT
        outcomes = await asyncio.gather(one.solve(USER, "f3xd5xf7"),
                                        two.solve(USER, "f3xd5xf7"), return_exceptions=True)
        solved = [o for o in outcomes if not isinstance(o, BaseException)]
        refused = [o.key for o in outcomes if isinstance(o, PlayerError)]
        assert len(solved) == 1 and solved[0].outcome == SolveOutcome.SOLVED, outcomes
        assert refused in ([Msg.PUZZLE_CHANGED], [Msg.PUZZLE_NONE]), outcomes
        rating = await one.rating(USER, "italian")
        assert rating is not None and (rating.attempts, rating.solved, rating.streak) == (1, 1, 1)
    finally:
        for s in stores:
            await s.close()
        postgres_server.drop_database(url)


async def test_a_hinted_puzzle_left_in_two_processes_at_once_is_rated_once(
    postgres_server: PostgresServer,
) -> None:
    url = postgres_server.new_database()
    stores = [await Storage.open(url), await Storage.open(url)]
    try:
        one, two = (PuzzleService(s.puzzles, banks={"italian": [FIRST, SECOND]}, seed=1)
                    for s in stores)
        await one.start_puzzle(USER, FIRST.id)
        await two.hint(USER, FIRST.id)
        outcomes = await asyncio.gather(one.start_puzzle(USER, SECOND.id),
                                        two.start_puzzle(USER, SECOND.id),
                                        return_exceptions=True)
        views = [o for o in outcomes if not isinstance(o, BaseException)]
        assert views and all(not isinstance(o, BaseException) or isinstance(o, PlayerError)
                             for o in outcomes), outcomes
        assert sum(v.left == FIRST.id for v in views) == 1
        rating = await one.rating(USER, "italian")
        assert rating is not None and (rating.attempts, rating.solved) == (1, 0)
        stored = await stores[0].puzzles.session(USER)
        assert stored is not None and stored.puzzle_id == SECOND.id and not stored.hinted
    finally:
        for s in stores:
            await s.close()
        postgres_server.drop_database(url)
