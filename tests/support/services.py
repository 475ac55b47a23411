"""Shared fakes for the bot tests: a settable clock, service wiring on a real SQLite file."""

from __future__ import annotations

import random
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path

import engine
from bot.services import ChallengeService, GameRules, GameService, StatsService
from bot.services.games import AbsentPlayerMover
from storage import Eligibility, GameRecord, NewGame, Seat, Storage

ALICE, BOB, CAROL = 1001, 1002, 1003
GUILD, CHANNEL, THREAD = 500, 600, 601


class FakeClock:
    """A clock the test moves by hand (aware UTC)."""

    def __init__(self, start: datetime | None = None) -> None:
        self.now = start or datetime(2026, 1, 1, 12, 0, tzinfo=UTC)

    def __call__(self) -> datetime:
        return self.now

    def advance(self, delta: timedelta) -> None:
        self.now += delta


@dataclass
class Services:
    storage: Storage
    games: GameService
    challenges: ChallengeService
    stats: StatsService
    clock: FakeClock


async def build_services(
    path: Path,
    clock: FakeClock,
    *,
    mover: AbsentPlayerMover | None = None,
    rules: GameRules | None = None,
    seed: int = 1,
) -> Services:
    """Open (or reopen) the database at `path` and build the services, restored."""
    storage = await Storage.open(path, clock=clock)
    games = GameService(storage, rules=rules or GameRules(), clock=clock, mover=mover)
    challenges = ChallengeService(
        storage, games, expiry=timedelta(minutes=10), clock=clock, rng=random.Random(seed)
    )
    stats = StatsService(storage, games, eligibility=Eligibility(min_games=1, max_deviation=500))
    await games.restore()
    return Services(storage, games, challenges, stats, clock)


async def start_game(
    services: Services,
    variant: str,
    fen: str | None = None,
    *,
    white: int = ALICE,
    black: int = BOB,
    channel: int = CHANNEL,
    rated: bool = True,
    move_seconds: int | None = None,
) -> GameRecord:
    """Create an active game directly in storage (from `fen`, default the start) and hand
    it to the game service."""
    v = engine.get_variant(variant)
    start = fen if fen is not None else engine.Position.start(v).to_fen(v)
    deadline = (
        None if move_seconds is None else services.clock() + timedelta(seconds=move_seconds)
    )
    record = await services.storage.games.create(
        NewGame(variant=v.key, channel_id=channel, guild_id=GUILD, white=Seat.human(white),
                black=Seat.human(black), start_fen=start, rated=rated,
                move_seconds=move_seconds, deadline=deadline)
    )
    await services.games.adopt(record)
    return record
