"""Turn notifications under load: 10,000 correspondence games with their notifications
due at once (bot.services.notifications over a real SQLite file).

Run with ``make bench`` or ``python benchmarks/notifications.py`` from the repository
root (about a minute on a 2-core machine).

10,000 games with a per-move time of a day, each owing its player to move a turn
notification, all due at the same moment; 7,000 players (1,000 of them with several
games waiting, so their message is a digest), every one of them with `/settings notify:
dm`; 1% of them with their direct messages closed (Discord answers 403, code 50007).
The service plans and sends them through an outlet that plays Discord's limits, as
documented (Discord developer docs, Topics > Rate Limits, "Global Rate Limit": a bot may
make 50 requests per second; a first message to a player costs two requests, opening the
DM with POST /users/@me/channels and sending, later ones one): a request beyond 50 in
the trailing second is answered 429 with the wait until the window has room. DM opening
has no documented limit of its own; Discord may quarantine bots that open many DMs
quickly, which is why the default pace (`DAMA_NOTIFY_PER_SECOND`, 5) stays far below.

The waiting is simulated: the service's clock is a fake one that its `sleep` moves
forward, so the drain time is the time Discord's limits and the pace impose, not this
machine's; the wall time is the service's own work (planning, claiming, settling: the
database). Half-way, the process is "killed" after it claimed a queue of messages and
before it sent them: a second service on the same database restores and finishes.
Checked: every notification settled once (sent, or dropped for the closed DMs), every
player with open DMs got each of their games exactly once, nothing sent twice, nothing
lost, and no request beyond Discord's limit went unanswered by a 429.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import sys
import tempfile
import time
from collections import Counter, deque
from dataclasses import dataclass, replace
from datetime import UTC, datetime, timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.services.notifications import (
    Delivery,
    Limits,
    NotificationService,
    Outcome,
    SendResult,
    TargetKind,
)
from bot.services.settings import PreferenceService
from storage import NewGame, NewNotification, NotificationKind, Seat, Storage

GAMES = 10_000
PLAYERS = 7_000
CLOSED_EVERY = 100
"""One player in this many has closed DMs."""
DISCORD_PER_SECOND = 50
"""Discord's global limit for a bot, requests per second (Topics > Rate Limits)."""
START = datetime(2026, 6, 1, 12, 0, tzinfo=UTC)
FIRST_PLAYER = 10**15
OPPONENT = 10**15 - 1


class SimClock:
    """The simulated time: read by the service, moved by its `sleep`."""

    def __init__(self, start: datetime) -> None:
        self.now = start

    def __call__(self) -> datetime:
        return self.now

    async def sleep(self, seconds: float) -> None:
        self.now += timedelta(seconds=seconds)


class DiscordAtItsLimits:
    """The outlet as Discord would answer it: 50 requests in any second, two for a
    player's first DM (opening it), 403 50007 for closed DMs; it records every message
    delivered, by player and game."""

    def __init__(self, clock: SimClock, closed: set[int]) -> None:
        self.clock = clock
        self.closed = closed
        self.window: deque[datetime] = deque()
        self.opened: set[int] = set()
        self.delivered: Counter[tuple[int, int]] = Counter()
        self.messages = 0
        self.answered_429 = 0
        self.peak = 0

    async def send(self, delivery: Delivery) -> SendResult:
        now = self.clock()
        while self.window and self.window[0] <= now - timedelta(seconds=1):
            self.window.popleft()
        cost = 1 if delivery.user_id in self.opened else 2
        if len(self.window) + cost > DISCORD_PER_SECOND:
            self.answered_429 += 1
            wait = (self.window[0] + timedelta(seconds=1) - now).total_seconds()
            return SendResult(Outcome.RATE_LIMITED, retry_after=max(wait, 0.001))
        self.window.extend([now] * cost)
        self.peak = max(self.peak, len(self.window))
        self.opened.add(delivery.user_id)
        if delivery.user_id in self.closed:
            return SendResult(Outcome.DMS_CLOSED)
        assert delivery.target is TargetKind.DM
        self.messages += 1
        for item in delivery.items:
            self.delivered[delivery.user_id, item.game_id] += 1
        return SendResult(Outcome.SENT)


@dataclass(frozen=True)
class Result:
    per_second: float
    drained: timedelta
    wall: float
    messages: int
    sent_twice: int
    lost: int
    answered_429: int
    peak: int
    dropped_closed: int


async def _setup(path: Path) -> tuple[dict[int, int], set[int]]:
    """The games, their owed notifications and the players' preferences; returns each
    game's player to move and the players with closed DMs."""
    storage = await Storage.open(path, clock=lambda: START)
    player_of: dict[int, int] = {}
    async with storage.db.transaction() as conn:
        for index in range(PLAYERS):
            await conn.execute(
                "INSERT INTO player_settings (user_id, name, value, updated_at) "
                "VALUES ($1, 'notify', 'dm', 0)", FIRST_PLAYER + index)
    owed: list[NewNotification] = []
    for index in range(GAMES):
        player = FIRST_PLAYER + index % PLAYERS
        game = await storage.games.create(NewGame(
            variant="turkish", channel_id=10**12 + index, guild_id=(index % 64) << 22,
            white=Seat.human(player), black=Seat.human(OPPONENT), start_fen="W:Wa2:Ba7",
            move_seconds=86400))
        player_of[game.id] = player
        owed.append(NewNotification(player, NotificationKind.TURN, game.id, 0,
                                    game.guild_id, START))
    await storage.notifications.owe(owed)
    await storage.close()
    closed = {FIRST_PLAYER + index for index in range(0, PLAYERS, CLOSED_EVERY)}
    return player_of, closed


async def _service(path: Path, clock: SimClock, outlet: DiscordAtItsLimits,
                   limits: Limits) -> tuple[Storage, NotificationService]:
    storage = await Storage.open(path, clock=clock)
    preferences = PreferenceService(storage.settings)
    return storage, NotificationService(storage.notifications, storage.games, preferences,
                                        outlet, clock=clock, limits=limits,
                                        sleep=clock.sleep)


async def run(per_second: float, folder: Path) -> Result:
    path = folder / f"notify-{per_second}.sqlite3"
    player_of, closed = await _setup(path)
    clock = SimClock(START)
    outlet = DiscordAtItsLimits(clock, closed)
    limits = replace(Limits(), per_second=per_second)
    began = time.perf_counter()
    storage, service = await _service(path, clock, outlet, limits)
    while outlet.messages < (PLAYERS - len(closed)) // 2:
        if await service.run_once() == 0:
            await clock.sleep(1.0)
    await service.fill()  # claimed and queued, then "killed" before sending them
    await storage.close()
    storage, service = await _service(path, clock, outlet, limits)
    while await storage.notifications.next_due() is not None:
        if await service.run_once() == 0:
            await clock.sleep(1.0)  # only rate-limited messages wait: let time pass
    wall = time.perf_counter() - began
    async with storage.db.read() as conn:
        unsettled = await conn.fetchval(
            "SELECT COUNT(*) FROM notifications_owed WHERE done_at IS NULL")
        dropped = await conn.fetchval(
            "SELECT COUNT(*) FROM notifications_owed WHERE outcome = 'dropped'")
    await storage.close()
    expected = {(player, game) for game, player in player_of.items() if player not in closed}
    lost = len(expected - set(outlet.delivered)) + int(unsettled)
    twice = sum(1 for count in outlet.delivered.values() if count > 1)
    closed_games = sum(1 for player in player_of.values() if player in closed)
    assert set(outlet.delivered) <= expected, "a message to a player with closed DMs"
    assert lost == 0, f"{lost} notifications lost"
    assert twice == 0, f"{twice} notifications sent twice"
    assert dropped == closed_games, f"{dropped} dropped, {closed_games} closed"
    assert outlet.peak <= DISCORD_PER_SECOND
    return Result(per_second, clock.now - START, wall, outlet.messages, twice, lost,
                  outlet.answered_429, outlet.peak, int(dropped))


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--per-second", type=float, nargs="*", default=[5.0, 25.0],
                        help="global paces to measure (messages per second)")
    args = parser.parse_args()
    # Each 429 and 403 is logged as a warning; the totals are printed instead.
    logging.getLogger("bot.services.notifications").setLevel(logging.ERROR)
    print(f"{GAMES:,} correspondence games, {PLAYERS:,} players (1 in {CLOSED_EVERY} with "
          f"closed DMs), all due at once; Discord's limit {DISCORD_PER_SECOND} requests/s")
    with tempfile.TemporaryDirectory() as folder:
        for per_second in args.per_second:
            result = await run(per_second, Path(folder))
            minutes = result.drained.total_seconds() / 60
            print(f"pace {per_second:g}/s: drained in {minutes:.1f} min (simulated), "
                  f"{result.wall:.1f} s of work; {result.messages:,} messages, "
                  f"{result.dropped_closed} dropped (closed DMs), sent twice "
                  f"{result.sent_twice}, lost {result.lost}, 429s {result.answered_429}, "
                  f"peak {result.peak} requests in a second")


if __name__ == "__main__":
    asyncio.run(main())
