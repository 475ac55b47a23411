"""Shared fakes for the bot tests: a settable clock, a collector of announcements, service
wiring on a real SQLite file (wired as `bot.client.DamaBot.setup_hook` does)."""

from __future__ import annotations

import random
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path

import engine
from bot.services import (
    ChallengeService,
    EventBus,
    GameRules,
    GameService,
    GameUpdate,
    StatsService,
)
from bot.services.computer_turns import ComputerTurns, MoveChooser, Strength
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


class Announcements:
    """An `Announce` callback that collects what would be posted to the channel; each
    board gets the next message id."""

    def __init__(self) -> None:
        self.updates: list[GameUpdate] = []
        self.next_id = 9000

    async def __call__(self, update: GameUpdate) -> int | None:
        self.updates.append(update)
        self.next_id += 1
        return self.next_id


@dataclass
class Services:
    storage: Storage
    games: GameService
    challenges: ChallengeService
    stats: StatsService
    clock: FakeClock
    announced: Announcements
    """What the computer's turns announced (its moves are told to the channel)."""
    turns: ComputerTurns | None = None
    """The computer's turns (None: built without a move chooser)."""

    async def computer_idle(self) -> None:
        """Wait until the computer has played (or dropped) every turn it started."""
        if self.turns is not None:
            await self.turns.idle()

    async def run_deadlines(self) -> list[GameUpdate]:
        """Run the due deadlines and let the computer play the turns they hand it; every
        update they caused (games ended by a deadline, then the computer's moves)."""
        before = len(self.announced.updates)
        ended = await self.games.run_deadlines()
        await self.computer_idle()
        return ended + self.announced.updates[before:]


async def build_services(
    path: Path,
    clock: FakeClock,
    *,
    chooser: MoveChooser | None = None,
    absent: Strength | None = None,
    seat_budget: float | None = 0.05,
    rules: GameRules | None = None,
    seed: int = 1,
) -> Services:
    """Open (or reopen) the database at `path` and build the services, restored. With a
    `chooser`, the computer plays its turns (`ComputerTurns`, listening before the
    restore, as in the bot); for absent players at `absent` (default level 1, 0.05 s)."""
    storage = await Storage.open(path, clock=clock)
    events = EventBus()
    games = GameService(storage, rules=rules or GameRules(), clock=clock, events=events)
    announced = Announcements()
    turns = None
    if chooser is not None:
        turns = ComputerTurns(games, chooser, announce=announced,
                              absent=absent if absent is not None else Strength(1, 0.05),
                              seat_budget=seat_budget)
        turns.listen(events)
    challenges = ChallengeService(
        storage, games, expiry=timedelta(minutes=10), clock=clock, rng=random.Random(seed)
    )
    stats = StatsService(storage, games, eligibility=Eligibility(min_games=1, max_deviation=500))
    await games.restore()
    return Services(storage, games, challenges, stats, clock, announced, turns)


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
