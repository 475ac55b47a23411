"""The bot's services wired on a real SQLite file, as `bot.client.DamaBot` wires them, and a
way to start a game directly in storage."""

from __future__ import annotations

import random
from dataclasses import dataclass
from datetime import timedelta
from pathlib import Path
from typing import Protocol

import engine
from bot.services import ChallengeService, GameRules, GameService, StatsService
from bot.services.computer_games import ComputerGames, SeatMover
from bot.services.games import AbsentPlayerMover
from storage import Eligibility, GameRecord, NewGame, Seat, Storage
from tests.support.clock import FakeClock

ALICE, BOB, CAROL = 1001, 1002, 1003
GUILD, CHANNEL, THREAD = 500, 600, 601


@dataclass
class Services:
    storage: Storage
    games: GameService
    challenges: ChallengeService
    stats: StatsService
    clock: FakeClock

    async def close(self) -> None:
        """Close the database (idempotent: a test may close early to restart)."""
        await self.storage.close()


async def build_services(
    path: Path,
    clock: FakeClock,
    *,
    mover: AbsentPlayerMover | None = None,
    rules: GameRules | None = None,
    seed: int = 1,
) -> Services:
    """Open (or reopen) the database at `path` and build the services, restored.

    Tests take services from the `open_services` fixture, which closes them whatever the
    test's outcome; a database left open keeps its worker thread alive and pytest hangs."""
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



class OpenServices(Protocol):
    """What the `open_services` fixture gives: opens (or reopens, after a close) the
    services on `path` (default: `db.sqlite3` in the test's folder) with `clock` (default:
    a new `FakeClock`); every database it opened is closed when the test ends."""

    async def __call__(
        self,
        path: Path | None = None,
        clock: FakeClock | None = None,
        *,
        mover: AbsentPlayerMover | None = None,
        rules: GameRules | None = None,
        seed: int = 1,
    ) -> Services: ...


class OpenComputerGames(Protocol):
    """What the `open_computer_games` fixture gives: the `/play` service on `services`,
    asking `mover` for the computer's moves (default clock: the real one); every service it
    made is closed (its searches cancelled) when the test ends, passed or failed."""

    def __call__(
        self,
        services: Services,
        mover: SeatMover,
        *,
        clock: FakeClock | None = None,
        rng: random.Random | None = None,
    ) -> ComputerGames: ...
