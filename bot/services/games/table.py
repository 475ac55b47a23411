"""`GameTable`: the live games and their channels' locks, the one holder of both.

Every change of a channel's game runs under that channel's lock (`hold`): the game
service's parts (`bot.services.games`) take it through the table and nothing else in the
bot takes one (`tests/bot/services/games/test_table.py` reads the tree to check it). The
table also keeps what the parts share about the channels: the last game that ended in
each (since start-up), the games quarantined at start-up (their stored moves no longer
replay), and the games whose absent player the computer is moving for; and it builds the
`BoardState` of a live game, with its deadline (docs/RULES.md, "Project-wide game rules",
Time).

A game restored at start-up may be dormant (`Dormant`: its record, not its replay; see
docs/ARCHITECTURE.md, "Recovery at start-up"): the first `hold` of its channel wakes it
(the `Wake` given with it loads it, or quarantines or ends it) before the holder runs, so
every step sees it live; its deadline and players are read from its record meanwhile.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable, Iterator
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from dataclasses import dataclass
from datetime import datetime

from bot.messages import Msg
from bot.services.errors import ChannelRef, PlayerError
from bot.services.games.values import GameRules, LiveGame, winner_of
from bot.services.models import BoardState, Ending, EndReason, SeatView, color_of, side_of
from engine import Color
from storage import GameRecord, GameStatus


class _ChannelLocks:
    """One `asyncio.Lock` per channel id, created on first use and dropped when nobody
    holds or waits for it. Not reentrant: a coroutine holding a channel's lock must not
    ask for it again."""

    def __init__(self) -> None:
        self._locks: dict[int, asyncio.Lock] = {}
        self._users: dict[int, int] = {}

    @asynccontextmanager
    async def hold(self, channel_id: int) -> AsyncIterator[None]:
        lock = self._locks.setdefault(channel_id, asyncio.Lock())
        self._users[channel_id] = self._users.get(channel_id, 0) + 1
        try:
            async with lock:
                yield
        finally:
            self._users[channel_id] -= 1
            if self._users[channel_id] == 0:
                del self._users[channel_id]
                del self._locks[channel_id]

    def locked(self, channel_id: int) -> bool:
        lock = self._locks.get(channel_id)
        return lock is not None and lock.locked()


@dataclass(frozen=True)
class Dormant:
    """An active game restored without replaying its moves: its stored `record`, the time
    of its last move (`last_activity`, its creation before the first) and the colour to
    move (`turn`: the start position's, changed by each stored move)."""

    record: GameRecord
    last_activity: datetime
    turn: Color


Wake = Callable[[Dormant], Awaitable[None]]
"""Loads a dormant game (called under its channel's lock): makes it its channel's live
game (`GameTable.put`), or quarantines it, or ends it; raises what loading raises (the
game then stays dormant)."""


class GameTable:
    """The live games by channel id and their locks. `rules` give the inactivity limit
    that every deadline counts."""

    def __init__(self, rules: GameRules) -> None:
        self.rules = rules
        self._locks = _ChannelLocks()
        self._live: dict[int, LiveGame] = {}
        self._ended: dict[int, BoardState] = {}
        self._quarantined: dict[int, int] = {}
        self._absent: set[int] = set()
        self._dormant: dict[int, Dormant] = {}
        self._wake: Wake | None = None

    # --- the lock -----------------------------------------------------------------------

    def hold(self, channel_id: int) -> AbstractAsyncContextManager[None]:
        """Hold the channel's lock for an `async with` block (not reentrant), its dormant
        game woken first. Raises what the `Wake` raises (the lock then released)."""
        return self._hold_awake(channel_id)

    @asynccontextmanager
    async def _hold_awake(self, channel_id: int) -> AsyncIterator[None]:
        async with self._locks.hold(channel_id):
            await self._wake_up(channel_id)
            yield

    async def awake(self, channel_id: int) -> None:
        """Wake the channel's dormant game, if it has one (under its lock), so the
        synchronous lookups (`require`, `get`) see it."""
        if channel_id in self._dormant:
            async with self.hold(channel_id):
                pass

    async def _wake_up(self, channel_id: int) -> None:
        dormant = self._dormant.get(channel_id)
        if dormant is None or self._wake is None:
            return
        await self._wake(dormant)
        if self._dormant.get(channel_id) is dormant:
            del self._dormant[channel_id]

    def locked(self, channel_id: int) -> bool:
        """Whether someone holds the channel's lock now."""
        return self._locks.locked(channel_id)

    # --- the live games -----------------------------------------------------------------

    def get(self, channel_id: int, game_id: int | None = None) -> LiveGame | None:
        """The channel's live game (with `game_id`: only if it is that game), else None."""
        live = self._live.get(channel_id)
        if live is None or (game_id is not None and live.record.id != game_id):
            return None
        return live

    def put(self, live: LiveGame) -> None:
        """Make `live` its channel's live game."""
        self._dormant.pop(live.record.channel_id, None)
        self._live[live.record.channel_id] = live

    def sleep(self, dormant: Iterable[Dormant], wake: Wake) -> None:
        """Make each of `dormant` its channel's game, loaded by `wake` when first held."""
        self._wake = wake
        for game in dormant:
            self._live.pop(game.record.channel_id, None)
            self._dormant[game.record.channel_id] = game

    def dormant(self) -> list[Dormant]:
        """Every dormant game (a copy of the list)."""
        return list(self._dormant.values())

    def is_dormant(self, channel_id: int) -> bool:
        """Whether the channel's game is dormant (restored, not loaded yet)."""
        return channel_id in self._dormant

    def drop(self, channel_id: int) -> None:
        """Forget the channel's live (or dormant) game, if any."""
        self._live.pop(channel_id, None)
        self._dormant.pop(channel_id, None)

    def clear(self) -> None:
        """Forget every live and dormant game and quarantine (before a restore)."""
        self._live.clear()
        self._dormant.clear()
        self._quarantined.clear()

    def games(self) -> list[LiveGame]:
        """Every live game (a copy of the list: the table may change while it is read)."""
        return list(self._live.values())

    def quarantine(self, channel_id: int, game_id: int) -> None:
        """Refuse every step in the channel: its game `game_id` cannot continue."""
        self._dormant.pop(channel_id, None)
        self._quarantined[channel_id] = game_id

    def quarantined(self, channel_id: int) -> int | None:
        """The id of the channel's quarantined game, None without one."""
        return self._quarantined.get(channel_id)

    def remember_end(self, state: BoardState) -> None:
        """Keep `state` as the final state of its channel's last game."""
        self._ended[state.channel_id] = state

    def last_ended(self, channel_id: int) -> BoardState | None:
        """The final state of the channel's last game that ended since start-up."""
        return self._ended.get(channel_id)

    def set_absent(self, game_id: int, absent: bool) -> None:
        """Mark (or unmark) game `game_id` as one whose person to move ran out of time and
        for whom the computer is choosing a move."""
        if absent:
            self._absent.add(game_id)
        else:
            self._absent.discard(game_id)

    def is_absent(self, game_id: int) -> bool:
        """Whether the computer is choosing a move for game `game_id`'s absent player."""
        return game_id in self._absent

    # --- lookups ------------------------------------------------------------------------

    def require(
        self, channel_id: int, game_id: int | None = None, user_id: int | None = None
    ) -> LiveGame:
        """The channel's live game (`game_id`: it must be that one). Raises `PlayerError`:
        GAME_QUARANTINED, GAME_OVER (not game `game_id`), GAME_ENDED_HERE, NO_GAME_HERE, or
        NO_GAME_HERE_YOURS (with the `channel` as a `ChannelRef`) when `user_id` plays a
        game in another channel. Raises RuntimeError for a dormant game: its channel is
        held, or `awake`, first."""
        if channel_id in self._dormant:
            raise RuntimeError(f"the game in channel {channel_id} is dormant: hold the "
                               "channel, or await `awake`, before reading it")
        live = self._live.get(channel_id)
        if live is None:
            quarantined = self._quarantined.get(channel_id)
            if quarantined is not None and game_id in (None, quarantined):
                raise PlayerError(Msg.GAME_QUARANTINED, game_id=quarantined)
            if game_id is not None:
                raise PlayerError(Msg.GAME_OVER)
            ended = self._ended.get(channel_id)
            if ended is not None:
                raise PlayerError(Msg.GAME_ENDED_HERE, game_id=ended.game_id, result=ended)
            elsewhere = None if user_id is None else self.game_of_user(user_id)
            if elsewhere is not None:
                raise PlayerError(Msg.NO_GAME_HERE_YOURS, game_id=elsewhere.id,
                                  channel=ChannelRef(elsewhere.channel_id))
            raise PlayerError(Msg.NO_GAME_HERE)
        if game_id is not None and live.record.id != game_id:
            raise PlayerError(Msg.GAME_OVER)
        return live

    def game_of_user(self, user_id: int) -> GameRecord | None:
        """One of `user_id`'s active games (the most recently active, live or dormant), None
        without any."""
        games: list[LiveGame | Dormant] = [*self._live.values(), *self._dormant.values()]
        mine = [game for game in games
                if user_id in (game.record.white.user_id, game.record.black.user_id)]
        best = max(mine, key=lambda game: game.last_activity, default=None)
        return None if best is None else best.record

    def is_active(self, game_id: int) -> bool:
        """Whether game `game_id` is being played (live or dormant here, not over)."""
        return (any(live.record.id == game_id for live in self._live.values())
                or any(game.record.id == game_id for game in self._dormant.values()))

    def players_in(self, channel_id: int) -> tuple[int | None, int | None] | None:
        """(White's, Black's) user ids of the channel's active game (None for a computer
        seat), None without one."""
        game = self._live.get(channel_id) or self._dormant.get(channel_id)
        if game is None:
            return None
        return game.record.white.user_id, game.record.black.user_id

    # --- deadlines and states -----------------------------------------------------------

    @staticmethod
    def computer_seat_to_move(live: LiveGame) -> bool:
        """Whether a computer seat is to move in `live`."""
        return live.record.seat(side_of(live.game.position.turn)).is_computer

    def deadline(self, live: LiveGame) -> datetime:
        """The clock deadline when it counts (`time_limit_counts`), else the inactivity
        limit: a game with a time limit is governed by it, and the inactivity limit never
        ends it first (docs/RULES.md, "Project-wide game rules", Time)."""
        return self._deadline(live.record, live.last_activity, live.game.position.turn)

    def time_limit_counts(self, live: LiveGame) -> bool:
        """Whether `live`'s clock deadline is its deadline: always with players' clocks
        (`storage.TimeControl`); with a per-move time, when a person is to move and the
        computer is not already moving for them. Otherwise the inactivity limit is."""
        return self._clock_counts(live.record, live.game.position.turn)

    def _clock_counts(self, record: GameRecord, turn: Color) -> bool:
        if record.clock.deadline is None:
            return False
        return record.time_control is not None or not (
            self.is_absent(record.id) or record.seat(side_of(turn)).is_computer)

    def _deadline(self, record: GameRecord, last_activity: datetime, turn: Color) -> datetime:
        clock = record.clock.deadline
        if clock is not None and self._clock_counts(record, turn):
            return clock
        return last_activity + self.rules.inactivity_limit

    def _deadlines(self) -> Iterator[tuple[GameRecord, datetime]]:
        for live in self.games():
            yield live.record, self.deadline(live)
        for dormant in self.dormant():
            yield dormant.record, self._deadline(dormant.record, dormant.last_activity,
                                                 dormant.turn)

    def next_deadline(self) -> datetime | None:
        """The earliest deadline of any live or dormant game (None without any)."""
        return min((deadline for _, deadline in self._deadlines()), default=None)

    def due(self, now: datetime) -> Iterator[GameRecord]:
        """The records of the live and dormant games whose deadline is at or before `now`."""
        for record, deadline in list(self._deadlines()):
            if deadline <= now:
                yield record

    def state(self, live: LiveGame, ending: Ending | None = None) -> BoardState:
        """What `live` looks like now, as the Discord layer shows it (`ending`: how it
        ended, else read from its stored record)."""
        record, game = live.record, live.game
        moves = game.moves
        positions = game.positions()
        seats = {}
        for color in (Color.WHITE, Color.BLACK):
            change = record.white_rating if color is Color.WHITE else record.black_rating
            seats[color] = SeatView(record.seat(side_of(color)), color, live.ratings[color],
                                    change)
        return BoardState(
            game_id=record.id,
            channel_id=record.channel_id,
            guild_id=record.guild_id,
            variant=game.variant,
            rated=record.rated,
            move_seconds=record.move_seconds,
            time_control=record.time_control,
            clock=record.clock if record.time_control is not None else None,
            status=record.status,
            position=game.position,
            before=positions[-2] if moves else None,
            last_move=moves[-1] if moves else None,
            last_move_text=live.last_move_text,
            ply=game.ply,
            white=seats[Color.WHITE],
            black=seats[Color.BLACK],
            draw_offer_by=None if record.draw_offer_by is None else color_of(record.draw_offer_by),
            deadline=None if record.status is not GameStatus.ACTIVE else self.deadline(live),
            ending=ending if ending is not None else stored_ending(record),
            board_message_id=record.board_message_id,
            place=record.place,
        )


def stored_ending(record: GameRecord) -> Ending | None:
    """How a stored game ended (None while it is active): its termination (an unknown one
    read as an abort without result, else a resignation) and result; unrated early when
    a rated game's result changed no rating (docs/RULES.md, "Early results")."""
    if record.status is GameStatus.ACTIVE or record.termination is None:
        return None
    try:
        reason = EndReason(record.termination)
    except ValueError:
        reason = EndReason.ABORTED if record.result is None else EndReason.RESIGNATION
    early = (record.rated and record.result is not None and record.white_rating is None
             and record.black_rating is None)
    return Ending(reason, winner_of(record.result), record.result, unrated_early=early)
