"""Tournaments under load: the bot's moves beside an arena, and the arena's own work.

Run with ``make bench`` or ``python benchmarks/tournaments.py [--seconds 60] [--rate 50]
[--minutes 60]`` from the repository root (about 3.5 minutes). Everything goes through the
services as the bot composes them (`bot.composition.compose`, a real SQLite file per run,
no computer); the posts go to a collecting outlet (no Discord here), the boards are drawn
as benchmarks/bot.py draws them (512 px PNG, in a worker thread).

1. Moves beside a tournament, two open-loop runs of `--seconds` each, moves arriving at
   random (Poisson, `--rate` per second in all) in random games under way, as
   benchmarks/bot.py does; one arrival in 10 ends its game instead (a resignation,
   or a draw offered and accepted):
   - *ordinary*: 600 ordinary games (an ended one is started again in its channel);
   - *tournament*: 500 ordinary games beside an arena of 200 players, so 100 arena games
     under way; an arena game's end advances the arena (`GameEnded`), and its scheduler's
     tick (every `POLL`, here our own loop calling `TournamentService.tick`, as the
     scheduler does) pairs the players who came free, opens each pairing's thread, starts
     its game and posts the pairing, all during the measurement.
   Per-move latency (p50, p99, max), the event loop's lag (a 10 ms ticker), the time of
   each tick, and the real time from an arena game's end until its players' next game's
   thread is opened. The ratio tournament / ordinary is what the tournament costs.
2. The arena alone through the service, on a fake clock (no waits): 200 players for
   `--minutes` simulated minutes, the clock moving by `POLL`; each game ends 1 to 6
   simulated minutes after it started (no moves: a resignation either way or a draw);
   each end waits for the advance it starts (`GameEnded` -> advance), then each tick is
   run. Prints the time of each (p50, p99, max, and how they grow with the arena's
   pairings so far) and the simulated time from a game's end until its players are paired
   again (the arena's pairing wait, `ArenaRules.pairing_wait`, and the tick); once a
   simulated minute, the time of reading the arena's rounds (what each step of an advance
   reads) and of `/tournament standings`.

As the bot does at start-up, the renderer is warmed, the heap frozen (`freeze_heap`) and
the GIL's switch interval shortened (`share_the_interpreter`) before measuring.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, timedelta
from itertools import count
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import engine
from benchmarks.bot import LagMonitor, percentile
from bot.client import freeze_heap, share_the_interpreter
from bot.composition import Core, Outlets, Services, compose
from bot.config import Config
from bot.services import GameStart, GameUpdate, PlayerError
from bot.services.tournaments import Post, TournamentSettings, TournamentView
from bot.services.tournaments.scheduler import POLL
from bot.ui.present import Presenter
from puzzles import Puzzle
from storage import Challenge, ColorChoice, Seat
from storage.models import DailyPuzzleSetting
from tournaments.model import Format

VARIANTS = ("turkish", "arab", "moroccan", "italian")
GAMES = 600
"""Games under way in each run of the first measurement."""
ARENA_PLAYERS = 200
ORDINARY_GUILD, ARENA_GUILD = 1, 2
ORGANISER = 99
FIRST_PLAYER = 100_001
"""The arena's players are FIRST_PLAYER, FIRST_PLAYER + 1, ..."""
END_SHARE = 0.1
"""The share of arrivals that end their game (a resignation or a draw) instead of moving."""
START = datetime(2026, 12, 6, 18, 0, tzinfo=UTC)


class FakeClock:
    """The second measurement's clock, moved by hand (as the tests' `FakeClock`)."""

    def __init__(self, now: datetime) -> None:
        self.now = now

    def __call__(self) -> datetime:
        return self.now


class Announcer:
    """The games' posts: each board drawn as the bot draws it, then given the next
    message id (`bot.composition.Announcer`, `DailyPuzzlePoster`)."""

    def __init__(self, core: Core) -> None:
        self.presenter = Presenter(board_size=512, move_work=core.move_work)
        self.draw = True
        self._ids = count(1)

    async def announce(self, update: GameUpdate) -> int | None:
        if self.draw and update.shows_board:
            await self.presenter.board_png(update.state)
        return next(self._ids)

    async def computer_delayed(self, channel_id: int, wait: timedelta) -> None:
        pass

    async def challenge_expired(self, challenge: Challenge) -> None:
        pass

    async def post_daily(self, setting: DailyPuzzleSetting, puzzle: Puzzle, day: date) -> None:
        pass

    async def drain(self) -> None:
        pass


@dataclass
class Outlet:
    """The tournaments' threads and posts (`TournamentOutlet`), collected: each gets the
    next id; each game thread is noted (its players, when it was opened), and `on_pairing`
    is told of its players."""

    on_pairing: Callable[[int, int, int], None] = lambda thread, white, black: None
    threads: list[int] = field(default_factory=list)
    posts: int = 0
    _ids: count[int] = field(default_factory=lambda: count(10_000_000))

    async def open_tournament_thread(self, view: TournamentView) -> int:
        return next(self._ids)

    async def open_game_thread(self, view: TournamentView, round: int, board: int,
                               white: int, black: int) -> int:
        thread = next(self._ids)
        self.threads.append(thread)
        self.on_pairing(thread, white, black)
        return thread

    async def post(self, view: TournamentView, post: Post) -> int:
        self.posts += 1
        return next(self._ids)

    async def edit_signup(self, view: TournamentView) -> None:
        pass


async def compose_bench(database: Path, outlet: Outlet, clock: Callable[[], datetime] | None
                        ) -> Services[Announcer]:
    """The bot's services on `database`, posting to an `Announcer` and `outlet`, without
    the computer."""

    def outlets(core: Core) -> Outlets[Announcer]:
        announcer = Announcer(core)
        return Outlets(announcer, announcer, outlet)

    config = Config(database=str(database))
    if clock is None:
        return await compose(config, outlets, computer_turns=False, rng=random.Random(1))
    return await compose(config, outlets, clock=clock, computer_turns=False,
                         rng=random.Random(1))


async def start_arena(services: Services[Announcer], players: int, minutes: int) -> int:
    """An arena of `players` in the arena's server, started by its organiser (its first
    pairing made at once: every player is free); its id."""
    tournaments = services.tournaments
    view = await tournaments.create(
        ARENA_GUILD, 5_000_000, ORGANISER,
        TournamentSettings(name="Bench arena", format=Format.ARENA, variant="turkish",
                           duration=timedelta(minutes=minutes), move_seconds=40),
        may_organise=True)
    for player in range(FIRST_PLAYER, FIRST_PLAYER + players):
        await tournaments.join(view.id, player, guild_id=ARENA_GUILD, role_ids=frozenset(),
                               display_name=f"p{player}")
    await tournaments.start(view.id, ORGANISER, guild_id=ARENA_GUILD, may_organise=True)
    return view.id


async def end_game(services: Services[Announcer], channel: int, white_wins: bool | None
                   ) -> None:
    """End the channel's game as its players would: White wins (Black resigns), Black wins,
    or (None) a draw offered by the player to move and accepted."""
    games = services.games
    state = games.current(channel)
    white, black = state.white.user_id, state.black.user_id
    assert white is not None and black is not None
    announce = services.announcer.announce
    if white_wins is None:
        mover = state.to_move.user_id
        assert mover is not None
        await games.draw(channel, mover, announce=announce)
        await games.draw(channel, black if mover == white else white, announce=announce)
    else:
        await games.resign(channel, black if white_wins else white, announce=announce)


def ms(seconds: list[float]) -> str:
    """p50, p99 and max of `seconds`, in milliseconds."""
    if not seconds:
        return "none"
    values = [1000 * s for s in seconds]
    return (f"p50 {statistics.median(values):7.1f} ms, p99 {percentile(values, 0.99):7.1f} ms, "
            f"max {max(values):7.1f} ms ({len(values)})")


# --- 1. moves beside a tournament --------------------------------------------------------


@dataclass
class FlowRun:
    """What one open-loop run measured."""

    moves: list[float] = field(default_factory=list)
    tournament_moves: list[float] = field(default_factory=list)
    endings: list[float] = field(default_factory=list)
    lags: list[float] = field(default_factory=list)
    ticks: list[float] = field(default_factory=list)
    repaired: list[float] = field(default_factory=list)
    """Seconds from an arena game's end until its players' next thread."""
    arena_ends: int = 0
    arena_starts: int = 0
    posts: int = 0


class Flow:
    """The games of one run: ordinary ones in channels 0.. (started again when they end),
    and the arena's, found from the outlet's threads."""

    def __init__(self, services: Services[Announcer], outlet: Outlet, ordinary: int,
                 rng: random.Random) -> None:
        self.services = services
        self.outlet = outlet
        self.ordinary = ordinary
        self.rng = rng
        self.run = FlowRun()
        self._ended_at: dict[int, float] = {}
        outlet.on_pairing = self._paired

    def _paired(self, thread: int, white: int, black: int) -> None:
        self.run.arena_starts += 1
        for player in (white, black):
            ended = self._ended_at.pop(player, None)
            if ended is not None:
                self.run.repaired.append(time.perf_counter() - ended)

    async def new_game(self, channel: int) -> None:
        await self.services.games.start(GameStart(
            channel_id=channel, guild_id=ORDINARY_GUILD,
            variant=engine.get_variant(self.rng.choice(VARIANTS)).key,
            first=Seat.human(channel * 10 + 1), second=Seat.human(channel * 10 + 2),
            color=ColorChoice.WHITE, rated=True))

    def pick(self) -> int:
        """A random game under way: ordinary or the arena's (a thread whose game is still
        being started is picked too: its arrival does nothing)."""
        index = self.rng.randrange(self.ordinary + len(self.outlet.threads))
        return index if index < self.ordinary else self.outlet.threads[index - self.ordinary]

    def _arena_ended(self, thread: int) -> None:
        if thread in self.outlet.threads:
            self.outlet.threads.remove(thread)

    async def arrival(self, channel: int) -> None:
        """A move in the channel's game, or (one in 10) its end; timed."""
        games = self.services.games
        if not games.has_game(channel):
            return
        arena = channel >= self.ordinary
        start = time.perf_counter()
        if self.rng.random() < END_SHARE:
            state = games.current(channel)
            players = [p for p in (state.white.user_id, state.black.user_id) if p is not None]
            if arena:
                # Noted before the end: the advance it starts may pair them at once.
                self._ended_at.update(dict.fromkeys(players, start))
            try:
                await end_game(self.services, channel,
                               self.rng.choice((True, False, None)))
            except PlayerError:
                for player in players:
                    self._ended_at.pop(player, None)
                return  # ended meanwhile by another arrival
            self.run.endings.append(time.perf_counter() - start)
            if arena:
                self.run.arena_ends += 1
                self._arena_ended(channel)
            else:
                await self.new_game(channel)
            return
        state = games.current(channel)
        move = self.rng.choice(engine.legal_moves(state.position, state.variant))
        text = engine.format_move(move, state.position, state.variant)
        user = state.to_move.user_id
        assert user is not None
        try:
            update = await games.play(channel, user, text,
                                      announce=self.services.announcer.announce)
        except PlayerError:
            update = None  # a race with another arrival; still timed
        elapsed = time.perf_counter() - start
        (self.run.tournament_moves if arena else self.run.moves).append(elapsed)
        if update is not None and update.state.is_over:
            if arena:
                self._arena_ended(channel)
            else:
                await self.new_game(channel)


async def open_loop(flow: Flow, seconds: float, rate: float, ticking: bool) -> None:
    """Arrivals at `rate` per second for `seconds`; with `ticking`, the tournaments' tick
    every `POLL` (timed)."""
    monitor = LagMonitor()
    monitor.start()
    pending: set[asyncio.Task[None]] = set()
    deadline = time.perf_counter() + seconds

    async def ticks() -> None:
        while time.perf_counter() < deadline:
            start = time.perf_counter()
            await flow.services.tournaments.tick()
            flow.run.ticks.append(time.perf_counter() - start)
            await asyncio.sleep(POLL.total_seconds())

    ticker = asyncio.create_task(ticks()) if ticking else None
    next_at = time.perf_counter()
    while next_at < deadline:
        next_at += flow.rng.expovariate(rate)
        await asyncio.sleep(max(0.0, next_at - time.perf_counter()))
        task = asyncio.create_task(flow.arrival(flow.pick()))
        pending.add(task)
        task.add_done_callback(pending.discard)
    await asyncio.gather(*pending)
    if ticker is not None:
        await ticker
    await flow.services.tournaments.idle()
    await monitor.stop()
    flow.run.lags = monitor.lags


async def flow_run(folder: Path, name: str, tournament: bool, seconds: float, rate: float,
                   seed: int) -> FlowRun:
    """One run of the first measurement in a new database."""
    rng = random.Random(seed)
    outlet = Outlet()
    services = await compose_bench(folder / f"{name}.sqlite3", outlet, None)
    try:
        ordinary = GAMES - ARENA_PLAYERS // 2 if tournament else GAMES
        flow = Flow(services, outlet, ordinary, rng)
        for channel in range(ordinary):
            await flow.new_game(channel)
        if tournament:
            # An hour's arena: it runs all through the measurement.
            await start_arena(services, ARENA_PLAYERS, 60)
            await services.tournaments.idle()
            flow.run.arena_starts = 0
        await services.announcer.presenter.warm()
        await services.move_work.warm()
        freeze_heap()
        share_the_interpreter()
        posts = outlet.posts
        await open_loop(flow, seconds, rate, tournament)
        flow.run.posts = outlet.posts - posts
        return flow.run
    finally:
        await services.close()


def flow_report(name: str, run: FlowRun, seconds: float) -> None:
    print(f"{name}: {len(run.moves) + len(run.tournament_moves)} moves and "
          f"{len(run.endings)} games ended in {seconds:.0f} s")
    print(f"  move latency (all games)       {ms(run.moves + run.tournament_moves)}")
    if run.tournament_moves:
        print(f"  move latency (ordinary games)  {ms(run.moves)}")
        print(f"  move latency (arena games)     {ms(run.tournament_moves)}")
    print(f"  game's end (resign or draw)    {ms(run.endings)}")
    print(f"  event-loop lag                 {ms(run.lags)}")
    if run.ticks:
        print(f"  arena: {run.arena_ends} games ended, {run.arena_starts} started, "
              f"{run.posts} posts")
        print(f"  tournaments' tick (every {POLL.total_seconds():.0f} s) {ms(run.ticks)}")
        print(f"  end -> next pairing (real)     p50 {statistics.median(run.repaired):.1f} s, "
              f"max {max(run.repaired):.1f} s ({len(run.repaired)} players)"
              if run.repaired else "  end -> next pairing: none in the run")


# --- 2. the arena alone, on a fake clock -------------------------------------------------


@dataclass
class ArenaRun:
    """What the second measurement measured."""

    ends: list[float] = field(default_factory=list)
    """Seconds of each game's end with the advance it starts."""
    ticks: list[tuple[int, float]] = field(default_factory=list)
    """(pairings so far, seconds) of each tick."""
    repaired: list[float] = field(default_factory=list)
    """Simulated seconds from a game's end until its players' next pairing."""
    games: int = 0
    reads: list[tuple[int, float]] = field(default_factory=list)
    """(games so far, seconds) of reading the arena's rounds (`TournamentRepository.rounds`,
    what each step of an advance reads), once a simulated minute."""
    standings: list[tuple[int, float]] = field(default_factory=list)
    """(games so far, seconds) of `/tournament standings` (`TournamentService.standings`),
    once a simulated minute."""
    lags: list[float] = field(default_factory=list)
    """How late a 10 ms ticker woke: here, as nothing else runs, the longest stretches
    the tournament's work held the event loop."""


async def arena_run(folder: Path, minutes: int, seed: int) -> ArenaRun:
    rng = random.Random(seed)
    clock = FakeClock(START)
    run = ArenaRun()
    ending: list[tuple[datetime, int]] = []  # (ends at, thread)
    ended_at: dict[int, datetime] = {}

    def paired(thread: int, white: int, black: int) -> None:
        run.games += 1
        ending.append((clock.now + timedelta(seconds=rng.randint(60, 360)), thread))
        for player in (white, black):
            if player in ended_at:
                run.repaired.append((clock.now - ended_at.pop(player)).total_seconds())

    outlet = Outlet(on_pairing=paired)
    services = await compose_bench(folder / "arena.sqlite3", outlet, clock)
    services.announcer.draw = False  # the boards' cost is measured in the first part
    tournaments = services.tournaments
    try:
        arena = await start_arena(services, ARENA_PLAYERS, minutes)
        await tournaments.idle()
        freeze_heap()
        monitor = LagMonitor()
        monitor.start()
        end = START + timedelta(minutes=minutes)
        while clock.now < end:
            for due in [item for item in ending if item[0] <= clock.now]:
                ending.remove(due)
                thread = due[1]
                if not services.games.has_game(thread):
                    continue
                state = services.games.current(thread)
                for player in (state.white.user_id, state.black.user_id):
                    if player is not None:  # before the end: its advance may pair them
                        ended_at[player] = clock.now
                start = time.perf_counter()
                await end_game(services, thread, rng.choice((True, False, None)))
                await tournaments.idle()
                run.ends.append(time.perf_counter() - start)
            start = time.perf_counter()
            await tournaments.tick()
            run.ticks.append((run.games, time.perf_counter() - start))
            if (clock.now - START) % timedelta(minutes=1) == timedelta(0):
                start = time.perf_counter()
                await services.storage.tournaments.rounds(arena)
                run.reads.append((run.games, time.perf_counter() - start))
                start = time.perf_counter()
                await tournaments.standings(arena, guild_id=ARENA_GUILD)
                run.standings.append((run.games, time.perf_counter() - start))
            clock.now += POLL
        await monitor.stop()
        run.lags = monitor.lags
        return run
    finally:
        await services.close()


def arena_report(run: ArenaRun, minutes: int) -> None:
    print(f"arena of {ARENA_PLAYERS} players through the service, {minutes} simulated minutes "
          f"(a tick every {POLL.total_seconds():.0f} s): {run.games} games started, "
          f"{len(run.ends)} ended")
    print(f"  game's end + its advance       {ms(run.ends)}")
    print(f"  tick (all)                     {ms([s for _, s in run.ticks])}")
    print(f"  event-loop lag                 {ms(run.lags)}")
    quarter = max(1, len(run.ticks) // 4)
    for name, part in (("first quarter", run.ticks[:quarter]),
                       ("last quarter", run.ticks[-quarter:])):
        print(f"  tick ({name}, {part[0][0]}-{part[-1][0]} games so far) "
              f"{ms([s for _, s in part])}")
    for name, timed in (("reading its rounds (a minute)", run.reads),
                        ("/tournament standings (a min.)", run.standings)):
        if timed:
            games, last = timed[-1]
            print(f"  {name} {ms([s for _, s in timed])}; "
                  f"the last, at {games} games: {1000 * last:.1f} ms")
    if run.repaired:
        print(f"  end -> paired again (simulated) p50 {statistics.median(run.repaired):.0f} s, "
              f"p99 {percentile(run.repaired, 0.99):.0f} s, max {max(run.repaired):.0f} s "
              f"({len(run.repaired)} players)")


async def main_async(args: argparse.Namespace) -> None:
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        ordinary = await flow_run(folder, "ordinary", False, args.seconds, args.rate, args.seed)
        beside = await flow_run(folder, "tournament", True, args.seconds, args.rate, args.seed)
        flow_report(f"ordinary: {GAMES} ordinary games, {args.rate:g} arrivals/s", ordinary,
                    args.seconds)
        flow_report(f"tournament: {GAMES - ARENA_PLAYERS // 2} ordinary games + an arena of "
                    f"{ARENA_PLAYERS} players ({ARENA_PLAYERS // 2} games)", beside,
                    args.seconds)
        every = ordinary.moves + ordinary.tournament_moves
        every_beside = beside.moves + beside.tournament_moves
        print("  ratio tournament / ordinary: move p50 "
              f"{statistics.median(every_beside) / statistics.median(every):.2f}, "
              f"p99 {percentile(every_beside, 0.99) / percentile(every, 0.99):.2f}, "
              f"loop lag p99 {percentile(beside.lags, 0.99) / percentile(ordinary.lags, 0.99):.2f}")
        run = await arena_run(folder, args.minutes, args.seed)
        arena_report(run, args.minutes)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--seconds", type=float, default=60.0,
                        help="each open-loop run's duration")
    parser.add_argument("--rate", type=float, default=50.0, help="arrivals per second in all")
    parser.add_argument("--minutes", type=int, default=60,
                        help="the simulated arena's duration (10 or more)")
    parser.add_argument("--seed", type=int, default=5)
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.WARNING)
    asyncio.run(main_async(args))
    return 0


if __name__ == "__main__":
    sys.exit(main())
