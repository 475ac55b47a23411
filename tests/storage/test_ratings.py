"""RatingRepository: ratings per variant, leaderboards (global and per guild), ranks, and
the eligibility rule."""

from __future__ import annotations

import random
from collections.abc import AsyncIterator, Callable
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
from tests.support.clock import FakeClock

Calculator = Callable[[Rating | None, Rating | None], tuple[RatingUpdate, RatingUpdate]]
EVERYONE = Eligibility(min_games=0, max_deviation=1000)


def fixed(white_after: float, black_after: float, deviation: float = 60.0) -> Calculator:
    """A calculator that sets both ratings to given values (the leaderboard is what's tested)."""

    def calculate(white: Rating | None, black: Rating | None) -> tuple[RatingUpdate, RatingUpdate]:
        start = RatingValue(1500, 500, 0.09)
        return (RatingUpdate(start, RatingValue(white_after, deviation, 0.06)),
                RatingUpdate(start, RatingValue(black_after, deviation, 0.06)))

    return calculate


_channels = iter(range(10**6))


async def play(storage: Storage, white: int, black: int, white_after: float,
               black_after: float, *, guild: int | None = 1, variant: str = "turkish",
               deviation: float = 60.0) -> None:
    game = await storage.games.create(NewGame(variant, next(_channels), guild,
                                              Seat.human(white), Seat.human(black),
                                              "W:Wa2:Ba7", rated=True))
    await storage.games.finish(game.id, result=GameResult.WHITE_WINS, termination="t",
                               rate=fixed(white_after, black_after, deviation))


@pytest.fixture
async def everyone(target: str, clock: FakeClock) -> AsyncIterator[Storage]:
    store = await Storage.open(target, clock=clock, leaderboard=EVERYONE)
    try:
        yield store
    finally:
        await store.close()


async def test_rating_per_variant(everyone: Storage) -> None:
    await play(everyone, 1, 2, 1600, 1400)
    await play(everyone, 1, 2, 1700, 1300, variant="italian")
    turkish = await everyone.ratings.get(1, "turkish")
    assert turkish is not None and turkish.rating == 1600 and turkish.variant == "turkish"
    assert [r.variant for r in await everyone.ratings.for_user(1)] == ["italian", "turkish"]
    assert await everyone.ratings.get(3, "turkish") is None


async def test_leaderboard_order_names_and_ranks(everyone: Storage) -> None:
    await everyone.players.upsert(1, "Ana")
    await play(everyone, 1, 2, 1800, 1200)
    await play(everyone, 3, 4, 1800, 1500)  # tied with 1: lower user id first
    board = await everyone.ratings.leaderboard("turkish")
    assert [(e.rank, e.rating.user_id) for e in board] == [(1, 1), (2, 3), (3, 4), (4, 2)]
    assert board[0].display_name == "Ana" and board[1].display_name is None
    page = await everyone.ratings.leaderboard("turkish", limit=2, offset=2)
    assert [(e.rank, e.rating.user_id) for e in page] == [(3, 4), (4, 2)]
    for entry in board:
        assert await everyone.ratings.rank(entry.rating.user_id, "turkish") == entry.rank
    assert await everyone.ratings.count("turkish") == 4
    assert await everyone.ratings.leaderboard("arab") == []
    assert await everyone.ratings.count("arab") == 0
    assert await everyone.ratings.rank(99, "turkish") is None
    with pytest.raises(ValueError):
        await everyone.ratings.leaderboard("turkish", limit=-1)


async def test_eligibility_rule(target: str, clock: FakeClock) -> None:
    rule = Eligibility(min_games=2, max_deviation=110)
    store = await Storage.open(target, clock=clock, leaderboard=rule)
    try:
        await play(store, 1, 2, 1900, 1100, deviation=50)  # 1 game each: not yet
        assert await store.ratings.leaderboard("turkish") == []
        await play(store, 1, 2, 1950, 1050, deviation=50)  # 2 games each
        await play(store, 3, 4, 2000, 1000, deviation=150)  # deviation too high
        await play(store, 3, 4, 2000, 1000, deviation=110)  # not strictly under 110
        board = await store.ratings.leaderboard("turkish")
        assert [e.rating.user_id for e in board] == [1, 2]
        assert await store.ratings.rank(3, "turkish") is None
        assert await store.ratings.rank(2, "turkish") == 2
        assert await store.ratings.count("turkish") == 2
        # Player 1 falls off the board when a game raises the deviation past the threshold.
        await play(store, 1, 5, 1960, 1500, deviation=120)
        assert [e.rating.user_id for e in await store.ratings.leaderboard("turkish")] == [2]
        assert await store.ratings.count("turkish") == 1
    finally:
        await store.close()


async def test_changing_the_rule_recomputes_rankings(target: str, clock: FakeClock) -> None:
    store = await Storage.open(target, clock=clock, leaderboard=EVERYONE)
    await play(store, 1, 2, 1900, 1100, deviation=50)
    await play(store, 3, 4, 1800, 1200, deviation=200)
    await play(store, 3, 5, 1810, 1300, deviation=200)
    assert await store.ratings.count("turkish") == 5
    await store.close()
    strict = await Storage.open(target, clock=clock,
                                leaderboard=Eligibility(min_games=1, max_deviation=100))
    try:
        assert [e.rating.user_id for e in await strict.ratings.leaderboard("turkish")] == [1, 2]
        assert await strict.ratings.count("turkish") == 2
        assert await strict.ratings.rank(2, "turkish") == 2
        assert await strict.ratings.rank(3, "turkish") is None
    finally:
        await strict.close()


def test_rule_values_checked() -> None:
    with pytest.raises(ValueError):
        Eligibility(min_games=-1)
    with pytest.raises(ValueError):
        Eligibility(max_deviation=0)


async def test_guild_leaderboard(everyone: Storage) -> None:
    await play(everyone, 1, 2, 1800, 1200, guild=10)
    await play(everyone, 3, 4, 1700, 1300, guild=20)
    await play(everyone, 1, 3, 1810, 1690, guild=20)
    await play(everyone, 5, 6, 1500, 1500, guild=None)  # a game outside any guild
    ten = await everyone.ratings.leaderboard("turkish", guild_id=10)
    assert [e.rating.user_id for e in ten] == [1, 2]
    twenty = await everyone.ratings.leaderboard("turkish", guild_id=20)
    assert [e.rating.user_id for e in twenty] == [1, 3, 4]
    assert await everyone.ratings.rank(4, "turkish", guild_id=20) == 3
    assert await everyone.ratings.rank(1, "turkish", guild_id=10) == 1
    assert await everyone.ratings.rank(2, "turkish", guild_id=20) is None
    assert await everyone.ratings.count("turkish", guild_id=10) == 2
    assert await everyone.ratings.count("turkish", guild_id=20) == 3
    assert await everyone.ratings.count("turkish") == 6
    # A rated game of another variant in the guild does not put one on this board.
    await play(everyone, 7, 8, 1600, 1400, guild=10, variant="italian")
    ten = await everyone.ratings.leaderboard("turkish", guild_id=10)
    assert [e.rating.user_id for e in ten] == [1, 2]


async def _bucket_rows(storage: Storage) -> list[tuple[int, str, int, int]]:
    async with storage.db.read() as conn:
        rows = await conn.fetch("SELECT guild_id, variant, bucket, players FROM rank_buckets "
                                "WHERE players > 0 ORDER BY guild_id, variant, bucket")
    return [(int(row[0]), str(row[1]), int(row[2]), int(row[3])) for row in rows]


async def test_ranks_agree_with_an_independent_ordering(target: str, clock: FakeClock) -> None:
    """Random rated games in two guilds; every board, count and rank is checked against a
    plain Python model of the same games, and the incrementally kept bucket counts against
    a rebuild from scratch."""
    rule = Eligibility(min_games=2, max_deviation=100)
    store = await Storage.open(target, clock=clock, leaderboard=rule)
    rng = random.Random(11)
    model: dict[int, dict[str, float]] = {}
    members: dict[int, set[int]] = {7: set(), 8: set()}
    try:
        for _ in range(150):
            white, black = rng.sample(range(1, 31), 2)
            guild = rng.choice([7, 8, None])
            # Ratings with ties and fractional parts, deviations around the threshold.
            values = [rng.choice([1500.0, 1500.5, 1499.25, 1620.0]) + rng.randrange(-3, 4)
                      for _ in range(2)]
            deviations = rng.choice([60.0, 99.9, 100.0, 130.0])
            await play(store, white, black, values[0], values[1], guild=guild,
                       deviation=deviations)
            clock.advance(timedelta(seconds=1))
            for user, value in ((white, values[0]), (black, values[1])):
                entry = model.setdefault(user, {"games": 0})
                entry["games"] += 1
                entry["rating"], entry["deviation"] = value, deviations
                if guild is not None:
                    members[guild].add(user)
        for guild in (None, 7, 8):
            expected = sorted(
                (user for user, entry in model.items()
                 if entry["games"] >= 2 and entry["deviation"] < 100
                 and (guild is None or user in members[guild])),
                key=lambda user: (-model[user]["rating"], user),
            )
            board = await store.ratings.leaderboard("turkish", guild_id=guild, limit=100)
            assert [e.rating.user_id for e in board] == expected
            assert await store.ratings.count("turkish", guild_id=guild) == len(expected)
            for user in model:
                want = expected.index(user) + 1 if user in expected else None
                assert await store.ratings.rank(user, "turkish", guild_id=guild) == want
        incremental = await _bucket_rows(store)
        await store.rebuild_rankings()
        assert await _bucket_rows(store) == incremental
    finally:
        await store.close()


@pytest.mark.parametrize("walk_limit", [0, 10**9])
async def test_deep_pages_match_the_full_board(
    target: str, clock: FakeClock, monkeypatch: pytest.MonkeyPatch, walk_limit: int
) -> None:
    """Pages far down a board equal the same slice of the whole board, globally, in a big
    and a small guild and in one of low-rated players, whether they start from their
    rating bucket (walk limit 0) or walk the index."""
    import storage.ratings

    monkeypatch.setattr(storage.ratings, "_WALK_LIMIT", walk_limit)
    store = await Storage.open(target, clock=clock, leaderboard=EVERYONE)
    rng = random.Random(5)
    try:
        ratings, members = [], []
        for user in range(1, 1201):
            rating = rng.choice([1500.0, 1500.5, 1501.0]) + rng.randrange(-40, 40)
            ratings.append(Rating(user, "arab", rating, 60.0, 0.06, 1, 1, 0, 0, None))
            for guild, share in ((3, 0.8), (4, 0.05)):
                if rng.random() < share:
                    members.append((guild, "arab", user))
            if rating < 1475:  # guild 5: only players near the bottom of the board
                members.append((5, "arab", user))
        await store.ratings.import_ratings(ratings, guild_players=members)
        scopes: tuple[int | None, ...] = (None, 3, 4, 5)
        for scope in scopes:
            whole = await store.ratings.leaderboard("arab", guild_id=scope, limit=5000)
            assert len(whole) == await store.ratings.count("arab", guild_id=scope)
            assert [e.rank for e in whole] == list(range(1, len(whole) + 1))
            for offset in (0, 99, 100, 101, 250, 517, 900, len(whole) - 3, len(whole) + 5):
                page = await store.ratings.leaderboard("arab", guild_id=scope, limit=7,
                                                       offset=offset)
                assert page == whole[offset:offset + 7], (scope, offset)
    finally:
        await store.close()


async def test_another_rule_per_call_scans_exactly(target: str, clock: FakeClock) -> None:
    """A rule given per call that differs from the database's gives the boards that rule
    defines (slower path); the database's own rule given explicitly takes the fast path."""
    store = await Storage.open(target, clock=clock, leaderboard=Eligibility(2, 100))
    try:
        await play(store, 1, 2, 1900, 1100, deviation=50, guild=3)
        await play(store, 3, 4, 1800, 1200, deviation=150, guild=3)
        await play(store, 1, 3, 1910, 1810, deviation=90, guild=None)
        assert [e.rating.user_id for e in await store.ratings.leaderboard("turkish")] == [1, 3]
        other = Eligibility(1, 200)
        board = await store.ratings.leaderboard("turkish", eligibility=other)
        assert [(e.rank, e.rating.user_id) for e in board] == [(1, 1), (2, 3), (3, 4), (4, 2)]
        assert await store.ratings.count("turkish", eligibility=other) == 4
        assert await store.ratings.rank(4, "turkish", eligibility=other) == 3
        assert await store.ratings.rank(2, "turkish", eligibility=Eligibility(1, 60)) == 1
        assert await store.ratings.rank(2, "turkish", eligibility=Eligibility(1, 40)) is None
        guild = await store.ratings.leaderboard("turkish", guild_id=3, eligibility=other,
                                                offset=1)
        assert [(e.rank, e.rating.user_id) for e in guild] == [(2, 3), (3, 4), (4, 2)]
        assert await store.ratings.count("turkish", guild_id=3, eligibility=other) == 4
        assert await store.ratings.rank(1, "turkish", guild_id=3, eligibility=other) == 1
        same = Eligibility(2, 100)
        assert await store.ratings.leaderboard("turkish", eligibility=same) == (
            await store.ratings.leaderboard("turkish"))
        assert await store.ratings.rank(1, "turkish", eligibility=same) == 1
    finally:
        await store.close()


async def test_import_ratings(target: str, clock: FakeClock) -> None:
    store = await Storage.open(target, clock=clock, leaderboard=Eligibility(2, 100))
    try:
        await play(store, 1, 2, 1600, 1400, deviation=50)  # one game each: not ranked yet
        imported = [
            Rating(1, "turkish", 1700.0, 60.0, 0.06, 12, 6, 5, 1, clock.now),  # replaces
            Rating(3, "turkish", 1650.5, 80.0, 0.07, 3, 3, 0, 0, None),
            Rating(4, "turkish", 1900.0, 150.0, 0.07, 30, 20, 10, 0, None),  # not eligible
        ]
        await store.ratings.import_ratings(imported, guild_players=[(9, "turkish", 3)],
                                           display_names={3: "Cem"})
        assert await store.ratings.get(1, "turkish") == imported[0]
        board = await store.ratings.leaderboard("turkish")
        assert [(e.rating.user_id, e.display_name) for e in board] == [(1, None), (3, "Cem")]
        assert await store.ratings.rank(3, "turkish") == 2
        assert [e.rating.user_id for e in
                await store.ratings.leaderboard("turkish", guild_id=9)] == [3]
        assert await store.ratings.count("turkish", guild_id=9) == 1
        with pytest.raises(ValueError, match="add up"):
            await store.ratings.import_ratings(
                [Rating(5, "turkish", 1500.0, 60.0, 0.06, 3, 1, 1, 0, None)])
        with pytest.raises(ValueError, match="impossible"):
            await store.ratings.import_ratings(
                [Rating(5, "turkish", 1500.0, -1.0, 0.06, 0, 0, 0, 0, None)])
        assert await store.ratings.get(5, "turkish") is None
    finally:
        await store.close()
