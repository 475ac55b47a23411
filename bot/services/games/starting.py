"""`GameStarts`: the one home of starting a game (an accepted challenge, a `/play` game,
a rematch, which is one of those two, and the tests' games).

`start` takes the channel's lock itself and, under it: runs the caller's own checks
(`vet`: the challenge is still pending, the computer has room), refuses a busy or
quarantined channel, draws the colours, sets the first deadline and the start position,
stores the game (`store`: by default `storage.games.create`; an accepted challenge
stores it with the challenge's answer in one transaction), takes it into memory as the
channel's live game and announces its first board. Callers never hold the lock.
"""

from __future__ import annotations

import random
from collections.abc import Awaitable, Callable
from datetime import timedelta

from bot.faults import FaultPoint, reach
from bot.messages import Msg
from bot.services.errors import PlayerError, UserRef
from bot.services.events import DeadlinesChanged, TurnChanged
from bot.services.games.clock import starting_clock
from bot.services.games.core import GameCore
from bot.services.games.values import Announce, GameStart
from bot.services.models import GameUpdate, UpdateKind
from engine import Position, get_variant
from storage import ChannelBusyError, ColorChoice, GameRecord, NewGame, Seat

Vet = Callable[[], Awaitable[None]]
"""The caller's checks, run under the channel's lock before anything is stored; raises
`PlayerError` to refuse the start."""

Store = Callable[[NewGame], Awaitable[GameRecord]]
"""Stores the new game (one transaction) and returns its record; raises
`ChannelBusyError` when the channel has an active game."""


class GameStarts:
    """Starts games (`start`). rng: draws a RANDOM colour (a caller may pass its own)."""

    def __init__(self, core: GameCore, *, rng: random.Random | None = None) -> None:
        self._core = core
        self._rng = rng if rng is not None else random.Random()

    def check_channel(self, channel_id: int, first: int | None, second: int | None) -> None:
        """Refuse a game between users `first` (the asker) and `second` (None: the
        computer) in a channel that cannot take one. Raises `PlayerError`:
        GAME_QUARANTINED (its game cannot continue and is kept as it is),
        ALREADY_PLAYING_HERE (`first` plays its game), OPPONENT_PLAYING_HERE (`second`
        does), CHANNEL_BUSY (others play there)."""
        table = self._core.table
        quarantined = table.quarantined(channel_id)
        if quarantined is not None:
            raise PlayerError(Msg.GAME_QUARANTINED, game_id=quarantined)
        players = table.players_in(channel_id)
        if players is None:
            return
        if first is not None and first in players:
            raise PlayerError(Msg.ALREADY_PLAYING_HERE)
        if second is not None and second in players:
            raise PlayerError(Msg.OPPONENT_PLAYING_HERE, user=UserRef(second))
        raise PlayerError(Msg.CHANNEL_BUSY)

    async def start(
        self,
        game: GameStart,
        *,
        announce: Announce | None = None,
        vet: Vet | None = None,
        store: Store | None = None,
        rng: random.Random | None = None,
    ) -> GameUpdate:
        """Start `game` under its channel's lock (see the module docstring);
        returns the STARTED update (by `game.actor`), with its board message recorded.
        `rng` draws a RANDOM colour (default: this object's). Publishes `DeadlinesChanged`
        and `TurnChanged` (a computer seat to move starts thinking). Raises what `vet`
        raises, `PlayerError` as `check_channel` (CHANNEL_BUSY also when another process
        started a game there first), and what `store` raises; nothing is stored then."""
        core = self._core
        async with core.table.hold(game.channel_id):
            if vet is not None:
                await vet()
            self.check_channel(game.channel_id, game.first.user_id, game.second.user_id)
            new_game = self._new_game(game, rng if rng is not None else self._rng)
            reach(FaultPoint.STEP_COMMIT)
            try:
                record = await (store or core.storage.games.create)(new_game)
            except ChannelBusyError:
                raise PlayerError(Msg.CHANNEL_BUSY) from None
            reach(FaultPoint.STEP_COMMITTED)
            live = await core.load(record.id)
            core.table.put(live)
            core.events.publish(DeadlinesChanged())
            state = core.table.state(live)
            core.events.publish(TurnChanged(state))
            return await core.announce(GameUpdate(UpdateKind.STARTED, state, game.actor), announce)

    def _new_game(self, game: GameStart, rng: random.Random) -> NewGame:
        """The stored form of `game`: colours drawn, the first deadline set from now (the
        end of the per-move time, or of White's clock)."""
        if game.color is ColorChoice.RANDOM:
            first_white = rng.random() < 0.5
        else:
            first_white = game.color is ColorChoice.WHITE
        white, black = _seats(game.first, game.second, first_white)
        variant = get_variant(game.variant)
        fen = game.start_fen
        seconds = game.move_seconds
        now = self._core.clock()
        deadline = None if seconds is None else now + timedelta(seconds=seconds)
        if game.time_control is not None:
            deadline = starting_clock(game.time_control, now).deadline
        return NewGame(
            variant=variant.key, channel_id=game.channel_id, guild_id=game.guild_id,
            white=white, black=black,
            start_fen=fen if fen is not None else Position.start(variant).to_fen(variant),
            rated=game.rated, move_seconds=seconds, deadline=deadline,
            time_control=game.time_control, place=game.place,
        )


def _seats(first: Seat, second: Seat, first_white: bool) -> tuple[Seat, Seat]:
    """(White, Black)."""
    return (first, second) if first_white else (second, first)
