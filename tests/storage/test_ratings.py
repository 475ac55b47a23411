"""RatingRepository: ratings per variant, leaderboards (global and per guild), ranks."""

from __future__ import annotations

import random
from datetime import timedelta

import pytest

from storage import (
    Eligibility,
    GameResult,
    NewGame,
    Rating,
    RatingUpdate,
    RatingValue,
    Seat,
    Storage,
)
from tests.storage.conftest import START, FakeClock


def fixed(white_after: float, black_after: float, deviation: float = 60.0):  # type: ignore[no-untyped-def]
    """A calculator that sets both ratings to given values (the leaderboard is what's tested)."""

    def calculate(white: Rating | None, black: Rating | None) -> tuple[RatingUpdate, RatingUpdate]:
        start = RatingValue(1500, 500, 0.09)
        return (RatingUpdate(start, RatingValue(white_after, deviation, 0.06)),
                RatingUpdate(start, RatingValue(black_after, deviation, 0.06)))

    return calculate


async def play(storage: Storage, white: int, black: int, white_after: float,
               black_after: float, *, guild: int | None = 1, variant: str = "turkish",
               deviation: float = 60.0, channel: int = 1) -> None:
    game = await storage.games.create(NewGame(variant, channel, guild, Seat.human(white),
                                              Seat.human(black), "W:Wa2:Ba7", rated=True))
    await storage.games.finish(game.id, result=GameResult.WHITE_WINS, termination="t",
                               rate=fixed(white_after, black_after, deviation))


EVERYONE = Eligibility(min_games=0, max_deviation=1000)


async def test_rating_per_variant(storage: Storage) -> None:
    await play(storage, 1, 2, 1600, 1400)
    await play(storage, 1, 2, 1700, 1300, variant="italian")
    turkish = await storage.ratings.get(1, "turkish")
    assert turkish is not None and turkish.rating == 1600 and turkish.variant == "turkish"
    assert [r.variant for r in await storage.ratings.for_user(1)] == ["italian", "turkish"]
    assert await storage.ratings.get(3, "turkish") is None


async def test_leaderboard_order_names_and_ranks(storage: Storage) -> None:
    await storage.players.upsert(1, "Ana")
    await play(storage, 1, 2, 1800, 1200)
    await play(storage, 3, 4, 1800, 1500)  # ties 1: lower user id first
    board = await storage.ratings.leaderboard("turkish", eligibility=EVERYONE)
    assert [(e.rank, e.rating.user_id) for e in board] == [(1, 1), (2, 3), (3, 4), (4, 2)]
    assert board[0].display_name == "Ana" and board[1].display_name is None
    page = await storage.ratings.leaderboard("turkish", eligibility=EVERYONE, limit=2, offset=2)
    assert [(e.rank, e.rating.user_id) for e in page] == [(3, 4), (4, 2)]
    for entry in board:
        assert await storage.ratings.rank(entry.rating.user_id, "turkish",
                                          eligibility=EVERYONE) == entry.rank
    assert await storage.ratings.count("turkish", eligibility=EVERYONE) == 4
    assert await storage.ratings.leaderboard("arab", eligibility=EVERYONE) == []
    assert await storage.ratings.rank(99, "turkish", eligibility=EVERYONE) is None


async def test_eligibility_rule(storage: Storage, clock: FakeClock) -> None:
    await play(storage, 1, 2, 1900, 1100, deviation=50)  # 1 game each
    await play(storage, 1, 2, 1950, 1050, deviation=50)  # 2 games each
    await play(storage, 3, 4, 2000, 1000, deviation=150)  # provisional-ish
    rule = Eligibility(min_games=2, max_deviation=110)
    board = await storage.ratings.leaderboard("turkish", eligibility=rule)
    assert [e.rating.user_id for e in board] == [1, 2]
    assert await storage.ratings.rank(3, "turkish", eligibility=rule) is None
    assert await storage.ratings.rank(2, "turkish", eligibility=rule) == 2
    assert await storage.ratings.count("turkish", eligibility=rule) == 2
    strict = Eligibility(min_games=3, max_deviation=110)
    assert await storage.ratings.leaderboard("turkish", eligibility=strict) == []
    # Deviation strictly under the threshold.
    assert await storage.ratings.count("turkish", eligibility=Eligibility(0, 50)) == 0
    # Recent activity.
    clock.advance(timedelta(days=30))
    await play(storage, 5, 6, 1500, 1500, deviation=50)
    recent = Eligibility(min_games=0, max_deviation=110,
                         active_since=START + timedelta(days=29))
    assert [e.rating.user_id for e in
            await storage.ratings.leaderboard("turkish", eligibility=recent)] == [5, 6]
    with pytest.raises(ValueError):
        await storage.ratings.leaderboard("turkish", eligibility=Eligibility(-1, 100))


async def test_guild_leaderboard(storage: Storage) -> None:
    await play(storage, 1, 2, 1800, 1200, guild=10)
    await play(storage, 3, 4, 1700, 1300, guild=20)
    await play(storage, 1, 3, 1810, 1690, guild=20, channel=2)
    await play(storage, 5, 6, 1500, 1500, guild=None, channel=3)  # a DM game: no guild
    ten = await storage.ratings.leaderboard("turkish", eligibility=EVERYONE, guild_id=10)
    assert [e.rating.user_id for e in ten] == [1, 2]
    twenty = await storage.ratings.leaderboard("turkish", eligibility=EVERYONE, guild_id=20)
    assert [e.rating.user_id for e in twenty] == [1, 3, 4]
    assert await storage.ratings.rank(4, "turkish", eligibility=EVERYONE, guild_id=20) == 3
    assert await storage.ratings.rank(2, "turkish", eligibility=EVERYONE, guild_id=20) is None
    assert await storage.ratings.count("turkish", eligibility=EVERYONE, guild_id=10) == 2
    # A rated game of another variant in the guild does not put one on this board.
    await play(storage, 7, 8, 1600, 1400, guild=10, variant="italian", channel=4)
    ten = await storage.ratings.leaderboard("turkish", eligibility=EVERYONE, guild_id=10)
    assert [e.rating.user_id for e in ten] == [1, 2]


async def test_rank_agrees_with_leaderboard_on_random_data(storage: Storage) -> None:
    rng = random.Random(7)
    db = storage.db
    async with db.transaction() as conn:
        for user in range(1, 301):
            await conn.execute("INSERT INTO players (user_id, created_at, updated_at) "
                               "VALUES ($1, 0, 0)", user)
            for variant in ("turkish", "italian"):
                games = rng.randrange(0, 30)
                await conn.execute(
                    "INSERT INTO ratings (user_id, variant, rating, deviation, volatility, "
                    "rated_games, wins, losses, draws, last_rated_at) "
                    "VALUES ($1, $2, $3, $4, 0.06, $5, $5, 0, 0, 0)",
                    user, variant, float(rng.choice(range(1200, 1300, 5))),
                    rng.uniform(45, 200), games)
                if rng.random() < 0.4:
                    await conn.execute("INSERT INTO guild_rated_players VALUES (5, $1, $2, 0)",
                                       variant, user)
    rule = Eligibility(min_games=10, max_deviation=110)
    for guild in (None, 5):
        board = await storage.ratings.leaderboard("turkish", eligibility=rule, guild_id=guild,
                                                  limit=1000)
        # Independent order: sort the eligible rows in Python.
        async with db.read() as conn:
            rows = await conn.fetch(
                "SELECT user_id, rating FROM ratings WHERE variant = 'turkish' "
                "AND rated_games >= 10 AND deviation < 110"
                + (" AND user_id IN (SELECT user_id FROM guild_rated_players "
                   "WHERE variant = 'turkish')" if guild else ""))
        expected = sorted(rows, key=lambda row: (-row["rating"], row["user_id"]))
        assert [e.rating.user_id for e in board] == [row["user_id"] for row in expected]
        assert await storage.ratings.count("turkish", eligibility=rule,
                                           guild_id=guild) == len(expected)
        for entry in board:
            assert await storage.ratings.rank(entry.rating.user_id, "turkish", eligibility=rule,
                                              guild_id=guild) == entry.rank
