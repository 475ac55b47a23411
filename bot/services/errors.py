"""Player mistakes as values: `PlayerError` carries a message id and its parameters.

A service raises `PlayerError` when the player asked for something the rules or the
game's state refuse (not their turn, an illegal move, a challenge that is closed...).
Nothing has changed when it is raised. The Discord layer turns it into a short ephemeral
answer from the message catalog (`bot.messages`); the parameters are plain values
(`UserRef` for a user to mention, `ChannelRef` for a channel to link, `Quoted` for the
player's own words, engine `Color`, text, numbers).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import TYPE_CHECKING

from bot.messages import Msg

if TYPE_CHECKING:
    from bot.services.models import BoardState


@dataclass(frozen=True)
class UserRef:
    """A Discord user named in a message (rendered as a mention)."""

    user_id: int


@dataclass(frozen=True)
class ChannelRef:
    """A Discord channel named in a message (rendered as a link to it)."""

    channel_id: int


@dataclass(frozen=True)
class Quoted:
    """Words a player typed, shown back to them as typed: the Discord layer escapes their
    markup and mentions, so that `**`, `_` or `@everyone` in a move read literally."""

    text: str


@dataclass(frozen=True)
class ComputerRef:
    """The computer player at a level (rendered as its name)."""

    level: int


class PlayerError(Exception):
    """A refusal for the player: `key` (a `Msg`) and its `params`."""

    def __init__(self, key: Msg, **params: object) -> None:
        super().__init__(f"{key.value} {dict(params)!r}")
        self.key = key
        self.params: Mapping[str, object] = MappingProxyType(dict(params))

    def __reduce__(self) -> tuple[object, ...]:
        # Pickled by key and parameters: move work in a worker process
        # (bot.move_work) raises it there and the bot raises it again here.
        return (_player_error, (self.key, dict(self.params)))


def _player_error(key: Msg, params: dict[str, object]) -> PlayerError:
    return PlayerError(key, **params)


class StaleBoardError(PlayerError):
    """A board's button was pressed on a board drawn for another ply of the game, or on a
    board from before buttons carried their ply: nothing was done. `current` is the
    game's board as it is now, to show the player (the message is `Msg.STALE_BOARD`)."""

    def __init__(self, current: BoardState) -> None:
        super().__init__(Msg.STALE_BOARD)
        self.current = current
