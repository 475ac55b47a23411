"""The bot's services built by the bot's own composition function
(`bot.composition.compose`, as `bot.client.DamaBot.setup_hook` builds them) on a real
SQLite file, their posts collected instead of sent to Discord, and a way to start a game
through the game service (`start_game`)."""

from __future__ import annotations

import functools
import random
from dataclasses import dataclass, field
from datetime import date, timedelta
from pathlib import Path
from typing import Protocol, TypeVar

import engine
from bot.composition import Core, Outlets, compose
from bot.composition import Services as Composed
from bot.config import Config
from bot.services import (
    ChallengeService,
    GameRules,
    GameService,
    GameStart,
    GameUpdate,
    StatsService,
)
from bot.services.computer_turns import ComputerTurns, MoveChooser, Strength
from bot.services.notifications import Delivery, NotificationService, Outcome, SendResult
from bot.services.shards import EVERY_SHARD, ShardScope
from bot.services.tournaments import (
    Post,
    PostKind,
    TournamentService,
    TournamentView,
    post_key,
)
from puzzles import Puzzle
from storage import Challenge, ColorChoice, Eligibility, GameRecord, Seat, Storage, TimeControl
from storage.models import DailyPuzzleSetting
from tests.support.clock import FakeClock

ALICE, BOB, CAROL = 1001, 1002, 1003
GUILD, CHANNEL, THREAD = 500, 600, 601


class Announcements:
    """The services' own posts, collected (`bot.composition.Announcer`): the updates that
    would be posted to the channel (each board gets the next message id; also an
    `Announce` callback), the notices that the computer's move will come later (channel
    id, estimated wait), the expired challenges and the daily puzzles."""

    def __init__(self) -> None:
        self.updates: list[GameUpdate] = []
        self.delays: list[tuple[int, timedelta]] = []
        self.expired: list[Challenge] = []
        self.daily: list[tuple[DailyPuzzleSetting, Puzzle, date]] = []
        self.next_id = 9000

    async def computer_delayed(self, channel_id: int, wait: timedelta) -> None:
        self.delays.append((channel_id, wait))

    async def announce(self, update: GameUpdate) -> int | None:
        self.updates.append(update)
        self.next_id += 1
        return self.next_id

    __call__ = announce

    async def challenge_expired(self, challenge: Challenge) -> None:
        self.expired.append(challenge)

    async def post_daily(self, setting: DailyPuzzleSetting, puzzle: Puzzle, day: date) -> None:
        self.daily.append((setting, puzzle, day))

    async def drain(self) -> None:
        """Nothing is under way: every post is collected at once."""


P = TypeVar("P")


class TournamentCollector:
    """The tournaments' threads and posts, collected (`TournamentOutlet`). Each thread
    and message gets the next id. A post carries the nonce of its ledger key, as the
    Discord outlet's does: one sent again with a nonce already used returns the first
    message (Discord's `enforce_nonce`) and is counted in `resent`, not in `posts`. Keep
    one across a restart (`build_services(tournament_outlet=...)`) to see what the
    restarted bot posts."""

    def __init__(self) -> None:
        self.next_id = 70_000
        self.tournament_threads: dict[int, int] = {}
        """The tournament's thread by tournament id."""
        self.game_threads: dict[tuple[int, int, int], int] = {}
        """The game threads by (tournament id, round, board)."""
        self.posts: list[tuple[TournamentView, Post, int]] = []
        """Each post made: the tournament as it was, the post, its message id."""
        self.resent: list[tuple[int, PostKind, str]] = []
        self.signup_edits: list[TournamentView] = []
        self._nonces: dict[tuple[int, PostKind, str], int] = {}

    def _new_id(self) -> int:
        self.next_id += 1
        return self.next_id

    async def open_tournament_thread(self, view: TournamentView) -> int:
        thread = self.tournament_threads[view.id] = self._new_id()
        return thread

    async def open_game_thread(self, view: TournamentView, round: int, board: int,
                               white: int, black: int) -> int:
        thread = self.game_threads[view.id, round, board] = self._new_id()
        return thread

    async def post(self, view: TournamentView, post: Post) -> int:
        key = post_key(post)
        nonce = (view.id, key.kind, key.key)
        if nonce in self._nonces:
            self.resent.append(nonce)
            return self._nonces[nonce]
        message_id = self._nonces[nonce] = self._new_id()
        self.posts.append((view, post, message_id))
        return message_id

    async def edit_signup(self, view: TournamentView) -> None:
        self.signup_edits.append(view)

    def of_kind(self, tournament_id: int, kind: type[P]) -> list[P]:
        """The posts of `tournament_id` that are `kind`s, in order."""
        return [post for view, post, _ in self.posts
                if view.id == tournament_id and isinstance(post, kind)]


class NotificationCollector:
    """Notification messages, collected (`NotificationOutlet`): each message sent
    (`sent`), and the answers to give before answering SENT (`answers`, one per message
    asked: a 403 for closed DMs, a 429), each message asked in `asked`. Keep one across
    a restart (`build_services(notification_outlet=...)`) to see every message."""

    def __init__(self) -> None:
        self.sent: list[Delivery] = []
        self.asked: list[Delivery] = []
        self.answers: list[SendResult] = []

    async def send(self, delivery: Delivery) -> SendResult:
        self.asked.append(delivery)
        result = self.answers.pop(0) if self.answers else SendResult(Outcome.SENT)
        if result.outcome is Outcome.SENT:
            self.sent.append(delivery)
        return result


@dataclass
class Services:
    """The composed services (`composed`) and the parts the tests use most."""

    composed: Composed[Announcements]
    clock: FakeClock
    tournament_posts: TournamentCollector = field(default_factory=TournamentCollector)
    """What the tournaments posted (threads, posts, sign-up edits)."""
    notification_messages: NotificationCollector = field(
        default_factory=NotificationCollector)
    """The turn notifications sent."""
    notifications: NotificationService = field(init=False)
    storage: Storage = field(init=False)
    games: GameService = field(init=False)
    challenges: ChallengeService = field(init=False)
    stats: StatsService = field(init=False)
    tournaments: TournamentService = field(init=False)
    announced: Announcements = field(init=False)
    """What the services posted themselves (the computer's moves, time-outs...)."""
    turns: ComputerTurns | None = field(init=False)
    """The computer's turns (None: built without a move chooser)."""

    def __post_init__(self) -> None:
        composed = self.composed
        self.storage = composed.storage
        self.games = composed.games
        self.challenges = composed.challenges
        self.stats = composed.stats
        self.tournaments = composed.tournaments
        self.announced = composed.announcer
        self.turns = composed.computer_turns
        self.notifications = composed.notifications

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
        """Close the services (the computer's turns stopped, the database closed;
        idempotent: a test may close early to restart)."""
        await self.composed.close()


def config_for(
    path: Path,
    *,
    absent: Strength | None = None,
    seat_budget: float | None = 0.05,
    rules: GameRules | None = None,
    scope: ShardScope = EVERY_SHARD,
) -> Config:
    """The configuration of the tests' services: the database at `path`, a leaderboard
    after one rated game, the computer quick (a seat's move in `seat_budget` seconds, an
    absent player's at `absent`, default level 1 in 0.05 s), `rules` (default the
    bot's), the shards of `scope`."""
    rules = rules or GameRules()
    absent = absent if absent is not None else Strength(1, 0.05)
    return Config(
        database=str(path), eligibility=Eligibility(min_games=1, max_deviation=500),
        inactivity_limit=rules.inactivity_limit,
        computer_moves_before_forfeit=rules.computer_moves_before_forfeit,
        absent_player_level=absent.level,
        absent_player_budget=absent.budget_seconds or Config.absent_player_budget,
        computer_budget=seat_budget, shard_count=scope.shard_count,
        shard_ids=scope.shard_ids,
    )


def collected(core: Core, tournaments: TournamentCollector | None = None,
              notifications: NotificationCollector | None = None) -> Outlets[Announcements]:
    """Outlets that collect the services' posts (one `Announcements` for the games' and
    the daily puzzles', `tournaments` (default: a new one) for the tournaments',
    `notifications` (default: a new one) for the turn notifications)."""
    announcements = Announcements()
    return Outlets(announcements, announcements,
                   tournaments if tournaments is not None else TournamentCollector(),
                   notifications if notifications is not None else NotificationCollector())


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
    tournament_outlet: TournamentCollector | None = None,
    notification_outlet: NotificationCollector | None = None,
) -> Services:
    """Open (or reopen) the database at `path` and build the services with the bot's
    composition function (`bot.composition.compose`), restored (the games, then the
    tournaments under way, posting to `tournament_outlet`, default a new collector).
    With a `chooser`, the computer plays its turns (listening before the restore, as in
    the bot); without one no one does (a computer seat's turn stays pending, an absent
    player loses on time).
    `absent`, `seat_budget`, `rules`, `scope`: as `config_for`; `seed`: the challenges'
    colour draws.

    Tests take services from the `open_services` fixture, which closes them whatever the
    test's outcome; a database left open keeps its worker thread alive and pytest hangs."""
    config = config_for(path, absent=absent, seat_budget=seat_budget, rules=rules,
                        scope=scope)
    outlet = tournament_outlet if tournament_outlet is not None else TournamentCollector()
    messages = (notification_outlet if notification_outlet is not None
                else NotificationCollector())
    composed = await compose(config, functools.partial(collected, tournaments=outlet,
                                                       notifications=messages),
                             clock=clock, chooser=chooser,
                             computer_turns=chooser is not None, rng=random.Random(seed))
    await composed.games.restore()
    await composed.tournaments.restore()
    return Services(composed, clock, outlet, messages)


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
    time_control: TimeControl | None = None,
) -> GameRecord:
    """Start a game through the game service (`GameService.start`, as the bot does): from
    `fen` (default: the variant's start), `white` and `black` each a person's user id or a
    seat (`Seat.computer(level)`), with a per-move time or clocks (`time_control`);
    returns its stored record."""
    first, second = (seat if isinstance(seat, Seat) else Seat.human(seat)
                     for seat in (white, black))
    update = await services.games.start(GameStart(
        channel_id=channel, guild_id=guild, variant=engine.get_variant(variant).key,
        first=first, second=second, color=ColorChoice.WHITE, rated=rated,
        move_seconds=move_seconds, start_fen=fen, time_control=time_control,
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
        tournament_outlet: TournamentCollector | None = None,
        notification_outlet: NotificationCollector | None = None,
    ) -> Services: ...
