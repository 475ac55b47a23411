"""`ComputerGames`: starting games against the computer (`/play`).

`start` starts an unrated game with one human seat and one computer seat
(`Seat.computer(level)`) through `GameService.start` (which takes the channel's lock and
announces the first board), so the board, buttons and every game command work as in any
game. The computer's moves are played by
`bot.services.computer_turns.ComputerTurns`, which hears of the new game through the game
service's `TurnChanged` event.

Before anything is created, `start` asks whether the computer has room for one more game's
moves (the `room` check, `PoolMoveChooser.check_room`): when its queue is full the player
is refused with COMPUTER_BUSY and the estimated wait, and nothing changes.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from datetime import timedelta

from bot.computer_queue import ComputerBusyError
from bot.messages import Msg
from bot.services.challenges import Person, variant_key
from bot.services.errors import PlayerError
from bot.services.games import Announce, GameService, GameStart
from bot.services.models import GameUpdate, MoveTime
from storage import (
    ColorChoice,
    GameRecord,
    NewGame,
    PlaceKind,
    Seat,
    Storage,
    TimeControl,
    utc_now,
)
from storage.clock import Clock

LEVELS = range(1, 6)
"""The computer's levels: 1 (easiest) to 5 (strongest)."""

DEFAULT_LEVEL = 3

RoomCheck = Callable[[int], None]
"""Returns quietly if the computer can take a computer seat's move at `level` now; raises
`ComputerBusyError` (with the estimated wait) if that move would be refused."""


class ComputerGames:
    """Starts games against the computer (`/play`). The computer's moves are played by
    `bot.services.computer_turns.ComputerTurns`, which listens to the game service.
    room: the computer's room check (None: never refused)."""

    def __init__(
        self,
        storage: Storage,
        games: GameService,
        *,
        clock: Clock = utc_now,
        rng: random.Random | None = None,
        room: RoomCheck | None = None,
    ) -> None:
        self._storage = storage
        self._games = games
        self._clock = clock
        self._rng = rng if rng is not None else random.Random()
        self._room = room

    # --- starting -----------------------------------------------------------------------

    async def start(
        self,
        *,
        player: Person,
        guild_id: int | None,
        channel_id: int,
        variant: str,
        level: int = DEFAULT_LEVEL,
        color: ColorChoice = ColorChoice.RANDOM,
        move_time: MoveTime = MoveTime.NONE,
        announce: Announce | None = None,
        time_control: TimeControl | None = None,
        place: PlaceKind = PlaceKind.CHANNEL,
    ) -> GameUpdate:
        """Start an unrated game of `player` against the computer at `level` in the channel;
        `color` is the player's; `move_time` or players' clocks (`time_control`, the
        computer's seat plays within its own), in a place of kind `place`
        (docs/ARCHITECTURE.md, "Places"). `announce` (inside the channel's lock) gets
        the STARTED update; when the computer has White it starts thinking at once. Raises
        `PlayerError`: CLOCK_WITH_MOVE_TIME (both asked), UNKNOWN_VARIANT, BAD_LEVEL, the
        channel refusals of `GameService.check_channel` (ALREADY_PLAYING_HERE,
        CHANNEL_BUSY, GAME_QUARANTINED), COMPUTER_BUSY (the computer's queue is full;
        `wait`: the estimated wait, a timedelta)."""
        if time_control is not None and move_time is not MoveTime.NONE:
            raise PlayerError(Msg.CLOCK_WITH_MOVE_TIME)
        key = variant_key(variant)
        if level not in LEVELS:
            raise PlayerError(Msg.BAD_LEVEL, level=level)

        async def vet() -> None:
            self._check_room(level)

        async def store(new: NewGame) -> GameRecord:
            await self._storage.players.upsert(player.user_id, player.name)
            return await self._storage.games.create(new)

        start = GameStart(
            channel_id=channel_id, guild_id=guild_id, variant=key,
            first=Seat.human(player.user_id), second=Seat.computer(level), color=color,
            rated=False, move_seconds=move_time.seconds, actor=player.user_id,
            time_control=time_control, place=place,
        )
        return await self._games.start(start, announce=announce, vet=vet, store=store,
                                      rng=self._rng)

    def _check_room(self, level: int) -> None:
        if self._room is None:
            return
        try:
            self._room(level)
        except ComputerBusyError as busy:
            raise PlayerError(
                Msg.COMPUTER_BUSY, wait=timedelta(seconds=busy.wait_seconds)
            ) from None
