"""Storage speed: committed moves per second, leaderboard and rank times.

Run from the repository root: `python benchmarks/storage.py` (about a minute). Prints:

1. Moves appended per second, each append its own committed transaction (the bot commits
   every move before answering), on a database file in a temporary folder: one after the
   other, and from 200 games at once on one event loop; with `synchronous=NORMAL` (the
   default, `Durability.PROCESS_CRASH`) and `FULL` (`Durability.POWER_LOSS`).
2. With 100,000 players, each rated in all four variants (400,000 rating rows) and
   members of 20 guilds (guild 1 holds half of everyone): the median time of a top-10
   leaderboard, a deeper page, a ranked player's rank, and the number of ranked players,
   global and for two guilds, under the eligibility rule (10 rated games, deviation under
   110), over random players and variants.

Targets (docs/ARCHITECTURE.md, "Targets"): at least 2,000 committed moves/s; leaderboard and
rank under 5 ms.
"""

from __future__ import annotations

import asyncio
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from storage import Durability, Eligibility, NewGame, Rating, Seat, Storage

VARIANTS = ("turkish", "arab", "moroccan", "italian")
PLAYERS = 100_000
GUILDS = 20
RULE = Eligibility(min_games=10, max_deviation=110.0)


async def _moves_per_second(folder: Path, durability: Durability, concurrent: bool) -> float:
    path = folder / f"moves-{durability.name}-{concurrent}.sqlite3"
    storage = await Storage.open(path, durability=durability)
    try:
        games = 200
        moves_each = 25 if concurrent else 15
        ids = [
            (await storage.games.create(NewGame("turkish", channel, 1, Seat.human(channel + 1),
                                                Seat.human(channel + 10_000), "W:Wa2:Ba7"))).id
            for channel in range(games)
        ]

        async def play(game_id: int) -> None:
            for ply in range(1, moves_each + 1):
                await storage.games.append_move(game_id, ply=ply, text="d3-d4")

        start = time.perf_counter()
        if concurrent:
            await asyncio.gather(*(play(game_id) for game_id in ids))
        else:
            for game_id in ids:
                await play(game_id)
        elapsed = time.perf_counter() - start
        return games * moves_each / elapsed
    finally:
        await storage.close()


Seeded = dict[tuple[int | None, str], list[int]]
"""(guild or None, variant) -> the ranked players of that board, to pick users from."""


async def _seed(storage: Storage, rng: random.Random) -> Seeded:
    """Bulk-load players, ratings and guild memberships and build the rankings (setup, not
    measured). Returns who is ranked on which board."""
    ranked: Seeded = {}
    ratings = []
    last = datetime(2026, 1, 1, tzinfo=UTC)
    for user in range(1, PLAYERS + 1):
        for variant in VARIANTS:
            games = rng.randrange(0, 200)
            wins = rng.randrange(0, games + 1)
            deviation = max(45.0, min(500.0, 350.0 / (1 + games / 8) + rng.uniform(0, 40)))
            ratings.append(Rating(
                user_id=user, variant=variant, rating=rng.gauss(1500, 250),
                deviation=deviation, volatility=rng.uniform(0.05, 0.1), rated_games=games,
                wins=wins, losses=games - wins, draws=0,
                last_rated_at=last - timedelta(minutes=rng.randrange(10**6)),
            ))
            if RULE.admits(games, deviation):
                ranked.setdefault((None, variant), []).append(user)
    members = []
    ranked_sets = {variant: set(ranked[(None, variant)]) for variant in VARIANTS}
    for user in range(1, PLAYERS + 1):
        # Guild 1 is big (half of everyone); the others get one or two guilds each.
        guilds = {1} if user % 2 == 0 else set()
        guilds |= {rng.randrange(2, GUILDS + 1) for _ in range(rng.randrange(1, 3))}
        for guild in guilds:
            for variant in VARIANTS:
                members.append((guild, variant, user))
                if user in ranked_sets[variant]:
                    ranked.setdefault((guild, variant), []).append(user)
    await storage.ratings.import_ratings(
        ratings, guild_players=members,
        display_names={user: f"player{user}" for user in range(1, PLAYERS + 1)},
    )
    return ranked


async def _median_ms(action: Callable[[], Awaitable[object]], repeat: int = 300) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        await action()
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


async def _leaderboard_times(folder: Path) -> list[tuple[str, float]]:
    rng = random.Random(4)
    path = folder / "leaderboard.sqlite3"
    storage = await Storage.open(path, leaderboard=RULE)
    ranked = await _seed(storage, rng)
    await storage.close()  # PRAGMA optimize on close, as the bot does at every stop
    storage = await Storage.open(path, leaderboard=RULE)
    ratings = storage.ratings
    results: list[tuple[str, float]] = []
    try:
        for guild in (None, 1, 7):
            size = len(ranked[(guild, "turkish")])
            label = "global" if guild is None else f"guild {guild}"
            label += f" ({size:,} ranked)"

            async def top(guild: int | None = guild) -> object:
                return await ratings.leaderboard(rng.choice(VARIANTS), guild_id=guild, limit=10)

            async def page(guild: int | None = guild) -> object:
                return await ratings.leaderboard(rng.choice(VARIANTS), guild_id=guild,
                                                 limit=10, offset=1000)

            async def rank(guild: int | None = guild) -> object:
                variant = rng.choice(VARIANTS)
                found = await ratings.rank(rng.choice(ranked[(guild, variant)]), variant,
                                           guild_id=guild)
                assert found is not None
                return found

            async def count(guild: int | None = guild) -> object:
                return await ratings.count(rng.choice(VARIANTS), guild_id=guild)

            results += [
                (f"top 10, {label}", await _median_ms(top)),
                (f"rows 1001-1010, {label}", await _median_ms(page)),
                (f"rank of a ranked player, {label}", await _median_ms(rank)),
                (f"number of ranked players, {label}", await _median_ms(count)),
            ]
    finally:
        await storage.close()
    return results


async def main() -> None:
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        print("Committed moves per second (one transaction per move, file in", folder, ")")
        for durability in (Durability.PROCESS_CRASH, Durability.POWER_LOSS):
            for concurrent in (False, True):
                rate = await _moves_per_second(folder, durability, concurrent)
                how = "200 games at once" if concurrent else "one after another"
                print(f"  synchronous={durability.value:<6} {how:<18} {rate:8.0f} moves/s")
        print(f"Leaderboards: {PLAYERS:,} players rated in all {len(VARIANTS)} variants, "
              f"{GUILDS} guilds, rule {RULE}")
        for label, ms in await _leaderboard_times(folder):
            print(f"  {label:<50} median {ms:6.2f} ms")


if __name__ == "__main__":
    asyncio.run(main())
