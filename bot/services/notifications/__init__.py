"""Turn notifications (docs/ARCHITECTURE.md, "Notifications"): owed when a game's turn
changes, stored, sent once, paced, per shard. `NotificationService` is the facade
(`service.py`); `planner.py` decides what is owed and what is sent (pure functions),
`pace.py` the global pace with its backoff, `values.py` the values and the outlet the
Discord layer implements (`bot.ui.notifications`)."""

from bot.services.notifications.pace import Pace
from bot.services.notifications.planner import owed_for, plan
from bot.services.notifications.service import NotificationService
from bot.services.notifications.values import (
    Delivery,
    DigestItem,
    Limits,
    NotificationOutlet,
    Outcome,
    Plan,
    SendResult,
    TargetKind,
)

__all__ = [
    "Delivery",
    "DigestItem",
    "Limits",
    "NotificationOutlet",
    "NotificationService",
    "Outcome",
    "Pace",
    "Plan",
    "SendResult",
    "TargetKind",
    "owed_for",
    "plan",
]
