"""What the services tell whoever listens: game events and one bus to publish them on.

A service publishes an event without knowing who listens (the model is RoboDanny's
reminder cog, whose timer dispatches an event instead of calling its consumers). The
composition root (`bot.client.DamaBot.setup_hook`, or a test) creates one `EventBus`,
hands it to the services at construction, and subscribes the listeners: the deadline
scheduler to `DeadlinesChanged`, the computer's turn runner to `TurnChanged`,
`AbsentPlayerTurn` and `GameEnded`. Any number of listeners may subscribe to an event
kind; each is called in the order of subscription.

Listeners are plain functions called synchronously by `publish` (often while the game's
channel lock is held): they must return quickly, starting a task for slow work. A
listener that raises is logged and the others are still called; the publisher never
sees the error.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeVar

from bot.services.models import BoardState

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class TurnChanged:
    """A game started (or was restored), or a move was committed and the game goes on;
    `state` is the game now (its side to move may be a computer seat)."""

    state: BoardState


@dataclass(frozen=True)
class AbsentPlayerTurn:
    """The per-move time of the person to move in `state` ran out and the computer is to
    move for them (docs/RULES.md, "Project-wide game rules", Time). The game's clock
    deadline no longer counts until a move is committed."""

    state: BoardState


@dataclass(frozen=True)
class GameEnded:
    """A game ended or was aborted; `state` is its final state."""

    state: BoardState


@dataclass(frozen=True)
class DeadlinesChanged:
    """A game's or a challenge's deadline may have moved (a game started, a move, a new
    challenge): whoever sleeps until the next deadline should look again."""


E = TypeVar("E")


class EventBus:
    """Listeners by event kind. `subscribe(kind, listener)`; `publish(event)`."""

    def __init__(self) -> None:
        self._listeners: dict[type[Any], list[Callable[[Any], None]]] = {}

    def subscribe(self, kind: type[E], listener: Callable[[E], None]) -> None:
        """Call `listener(event)` for every published event of class `kind`."""
        self._listeners.setdefault(kind, []).append(listener)

    def listened(self, kind: type[Any]) -> bool:
        """Whether anyone listens to events of class `kind`."""
        return bool(self._listeners.get(kind))

    def publish(self, event: object) -> None:
        """Call every listener of the event's class, in the order they subscribed."""
        for listener in list(self._listeners.get(type(event), ())):
            try:
                listener(event)
            except Exception:
                log.exception("a listener of %s failed", type(event).__name__)
