"""Games ending at the same moment in two processes (here: two threads, each with its own
event loop and its own `Storage`, so its own connections, as two bot processes would
have). Two games of one player are both rated, one after the other: no lost update, and
the leaderboard counts stay exact. Two resignations of one game end it once: one is
applied, the other refused, the ratings moved once. Runs on both backends; on PostgreSQL
the database keeps the two transactions apart (the rankings' row lock,
`storage.ratings.lock_rankings`; the game's row lock, `storage.sql.lock_row`), nothing in
the process does."""

from __future__ import annotations

import asyncio
import contextlib
import threading
import time

from storage import (
    Eligibility,
    GameNotActiveError,
    GameRecord,
    GameResult,
    NewGame,
    Rating,
    RatingCalculator,
    RatingUpdate,
    RatingValue,
    Seat,
    Storage,
)

EVERYONE = Eligibility(min_games=0, max_deviation=1000)
START_RATING = RatingValue(1500.0, 300.0, 0.06)
GAIN = 10.0


def winner_gains(
    first: threading.Barrier,
) -> tuple[RatingCalculator, list[float]]:
    """A rating calculator: White (the shared player) gains GAIN points over the rating it
    is given, Black loses as much. It records the ratings it was given and waits at
    `first` (both games inside their transactions at once, where the database allows it)
    then sleeps, to widen the window in which a lost update would happen."""
    seen: list[float] = []

    def rate(white: Rating | None, black: Rating | None) -> tuple[RatingUpdate, RatingUpdate]:
        before = START_RATING if white is None else white.value
        seen.append(before.rating)
        # A broken barrier: the other transaction waits for ours (the database serialised
        # them).
        with contextlib.suppress(threading.BrokenBarrierError):
            first.wait(timeout=1)
        time.sleep(0.2)
        other = START_RATING if black is None else black.value
        return (
            RatingUpdate(before, RatingValue(before.rating + GAIN, 300.0, 0.06)),
            RatingUpdate(other, RatingValue(other.rating - GAIN, 300.0, 0.06)),
        )

    return rate, seen


def _finish_in_thread(target: str, game_id: int, rate: RatingCalculator, start: threading.Barrier,
                      errors: list[BaseException],
                      result: GameResult = GameResult.WHITE_WINS,
                      ended: list[GameRecord] | None = None) -> None:
    async def run() -> None:
        storage = await Storage.open(target, leaderboard=EVERYONE)
        try:
            start.wait(timeout=10)
            record = await storage.games.finish(game_id, result=result,
                                                termination="resignation", rate=rate)
            if ended is not None:
                ended.append(record)
        finally:
            await storage.close()

    try:
        asyncio.run(run())
    except BaseException as error:
        errors.append(error)


async def test_two_games_of_one_player_end_at_once(target: str) -> None:
    setup = await Storage.open(target, leaderboard=EVERYONE)
    try:
        games = [
            await setup.games.create(NewGame("turkish", channel, 7, Seat.human(1),
                                             Seat.human(opponent), "W:Wa2:Ba7", rated=True))
            for channel, opponent in ((100, 2), (101, 3))
        ]
    finally:
        await setup.close()
    start, inside = threading.Barrier(2), threading.Barrier(2)
    rate, seen = winner_gains(inside)
    errors: list[BaseException] = []
    threads = [
        threading.Thread(target=_finish_in_thread,
                         args=(target, game.id, rate, start, errors))
        for game in games
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert not errors, errors
    # The second end read the rating the first wrote.
    assert sorted(seen) == [1500.0, 1500.0 + GAIN]
    check = await Storage.open(target, leaderboard=EVERYONE)
    try:
        shared = await check.ratings.get(1, "turkish")
        assert shared is not None
        assert (shared.rating, shared.rated_games, shared.wins) == (1500.0 + 2 * GAIN, 2, 2)
        ended = [await check.games.get(game.id) for game in games]
        befores = sorted(game.white_rating.rating_before for game in ended
                         if game is not None and game.white_rating is not None)
        assert befores == [1500.0, 1500.0 + GAIN]
        # Leaderboards: three players on the global board and on the guild's, ranked in
        # order, the counts equal to a scan under the same rule given per call.
        for guild in (None, 7):
            board = await check.ratings.leaderboard("turkish", guild_id=guild)
            assert [entry.rating.user_id for entry in board] == [1, 2, 3]
            assert await check.ratings.count("turkish", guild_id=guild) == 3
            scan = Eligibility(min_games=0, max_deviation=999)
            assert await check.ratings.count("turkish", guild_id=guild, eligibility=scan) == 3
            assert [await check.ratings.rank(user, "turkish", guild_id=guild)
                    for user in (1, 2, 3)] == [1, 2, 3]
    finally:
        await check.close()


async def test_two_resignations_of_one_game_end_it_once(target: str) -> None:
    # White and Black resign at the same moment, in two processes. The first resignation
    # holds its transaction open for a while (its rating calculator sleeps), so the second
    # reads the game while the first has not committed: only the game's row lock makes
    # the second wait and then find the game over.
    setup = await Storage.open(target, leaderboard=EVERYONE)
    try:
        game = await setup.games.create(NewGame("turkish", 100, 7, Seat.human(1),
                                                Seat.human(2), "W:Wa2:Ba7", rated=True))
    finally:
        await setup.close()
    calls: list[tuple[float, float]] = []

    def rate(white: Rating | None, black: Rating | None) -> tuple[RatingUpdate, RatingUpdate]:
        before = (START_RATING if white is None else white.value,
                  START_RATING if black is None else black.value)
        calls.append((before[0].rating, before[1].rating))
        time.sleep(0.5)
        return (RatingUpdate(before[0], RatingValue(before[0].rating + GAIN, 300.0, 0.06)),
                RatingUpdate(before[1], RatingValue(before[1].rating - GAIN, 300.0, 0.06)))

    start = threading.Barrier(2)
    errors: list[BaseException] = []
    ended: list[GameRecord] = []
    threads = [
        threading.Thread(target=_finish_in_thread,
                         args=(target, game.id, rate, start, errors, result, ended))
        for result in (GameResult.BLACK_WINS, GameResult.WHITE_WINS)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert len(ended) == 1, f"{len(ended)} resignations applied"
    assert [type(error) for error in errors] == [GameNotActiveError]
    assert calls == [(1500.0, 1500.0)]
    check = await Storage.open(target, leaderboard=EVERYONE)
    try:
        stored = await check.games.get(game.id)
        assert stored is not None and stored.result == ended[0].result
        for user in (1, 2):
            rating = await check.ratings.get(user, "turkish")
            assert rating is not None and rating.rated_games == 1
    finally:
        await check.close()
