"""The bot's services wired on a real SQLite file, as `bot.client.DamaBot.setup_hook`
wires them (one event bus; with a move chooser, the computer's turns listening before the
restore), a collector of announcements, and a way to start a game (`start_game`)."""

from __future__ import annotations

import random
from dataclasses import dataclass
from datetime import timedelta
from pathlib import Path
from typing import Protocol

import engine
from bot.services import (
    ChallengeService,
    EventBus,
    GameRules,
    GameService,
    GameStart,
    GameUpdate,
    StatsService,
)
from bot.services.computer_turns import ComputerTurns, MoveChooser, Strength
from bot.services.shards import EVERY_SHARD, ShardScope
from storage import ColorChoice, Eligibility, GameRecord, Seat, Storage
from tests.support.clock import FakeClock

ALICE, BOB, CAROL = 1001, 1002, 1003
GUILD, CHANNEL, THREAD = 500, 600, 601


class Announcements:
    """An `Announce` callback that collects what would be posted to the channel; each
    board gets the next message id. `delayed` collects the notices that the computer's
    move will come later (channel id, estimated wait)."""

    def __init__(self) -> None:
        self.updates: list[GameUpdate] = []
        self.delays: list[tuple[int, timedelta]] = []
        self.next_id = 9000

    async def delayed(self, channel_id: int, wait: timedelta) -> None:
        self.delays.append((channel_id, wait))

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

    async def close(self) -> None:
        """Stop the computer's turns, then close the database (idempotent: a test may
        close early to restart)."""
        if self.turns is not None:
            await self.turns.close()
        await self.games.move_work.close()
        await self.storage.close()


async def build_services(
    path: Path,
    clock: FakeClock,
    *,
    chooser: MoveChooser | None = None,
    absent: Strength | None = None,
    seat_budget: float | None = 0.05,
    rules: GameRules | None = None,
    seed: int = 1,
    scope: ShardScope = EVERY_SHARD,
) -> Services:
    """Open (or reopen) the database at `path` and build the services, restored. With a
    `chooser`, the computer plays its turns (`ComputerTurns`, listening before the
    restore, as in the bot): a computer seat's with `seat_budget` seconds, an absent
    player's at `absent` (default level 1, 0.05 s). `scope`: the shards whose guilds'
    games these services own (default every shard).

    Tests take services from the `open_services` fixture, which closes them whatever the
    test's outcome; a database left open keeps its worker thread alive and pytest hangs."""
    storage = await Storage.open(path, clock=clock)
    events = EventBus()
    games = GameService(storage, rules=rules or GameRules(), clock=clock, events=events,
                        scope=scope)
    announced = Announcements()
    turns = None
    if chooser is not None:
        turns = ComputerTurns(games, chooser, announce=announced, delayed=announced.delayed,
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
    white: int | Seat = ALICE,
    black: int | Seat = BOB,
    channel: int = CHANNEL,
    guild: int | None = GUILD,
    rated: bool = True,
    move_seconds: int | None = None,
) -> GameRecord:
    """Start a game through the game service (`GameService.start`, as the bot does): from
    `fen` (default: the variant's start), `white` and `black` each a person's user id or a
    seat (`Seat.computer(level)`); returns its stored record."""
    first, second = (seat if isinstance(seat, Seat) else Seat.human(seat)
                     for seat in (white, black))
    update = await services.games.start(GameStart(
        channel_id=channel, guild_id=guild, variant=engine.get_variant(variant).key,
        first=first, second=second, color=ColorChoice.WHITE, rated=rated,
        move_seconds=move_seconds, start_fen=fen,
    ))
    record = await services.storage.games.get(update.state.game_id)
    assert record is not None
    return record


class OpenServices(Protocol):
    """What the `open_services` fixture gives: opens (or reopens, after a close) the
    services on `path` (default: `db.sqlite3` in the test's folder) with `clock` (default:
    a new `FakeClock`), as `build_services`; every service it opened is closed (the
    computer's turns stopped, the database closed) when the test ends."""

    async def __call__(
        self,
        path: Path | None = None,
        clock: FakeClock | None = None,
        *,
        chooser: MoveChooser | None = None,
        absent: Strength | None = None,
        seat_budget: float | None = 0.05,
        rules: GameRules | None = None,
        seed: int = 1,
        scope: ShardScope = EVERY_SHARD,
    ) -> Services: ...
