"""The bot's logic on plain values (no discord.py objects) and the events it publishes,
tested without Discord (tests/bot/services/). See docs/ARCHITECTURE.md.
"""

from bot.services.challenges import ChallengePost, ChallengeService, Person, variant_key
from bot.services.errors import ComputerRef, PlayerError, StaleBoardError, UserRef
from bot.services.events import (
    AbsentPlayerTurn,
    DeadlinesChanged,
    EventBus,
    GameEnded,
    TurnChanged,
)
from bot.services.games import (
    Announce,
    ComputerTurn,
    GameRules,
    GameService,
    GameStart,
    LiveGame,
)
from bot.services.models import (
    BoardRef,
    BoardState,
    Ending,
    EndReason,
    GameUpdate,
    MoveChoice,
    SeatView,
    UpdateKind,
    color_of,
    side_of,
)
from bot.services.scheduler import DeadlineListener, DeadlineScheduler
from bot.services.stats import Leaderboard, PdnFile, StatsService
from bot.services.visibility import Requester, can_see, visible

__all__ = [
    "AbsentPlayerTurn",
    "Announce",
    "BoardRef",
    "BoardState",
    "ChallengePost",
    "ChallengeService",
    "ComputerRef",
    "ComputerTurn",
    "DeadlineListener",
    "DeadlineScheduler",
    "DeadlinesChanged",
    "EndReason",
    "Ending",
    "EventBus",
    "GameEnded",
    "GameRules",
    "GameService",
    "GameStart",
    "GameUpdate",
    "Leaderboard",
    "LiveGame",
    "MoveChoice",
    "PdnFile",
    "Person",
    "PlayerError",
    "Requester",
    "SeatView",
    "StaleBoardError",
    "StatsService",
    "TurnChanged",
    "UpdateKind",
    "UserRef",
    "can_see",
    "color_of",
    "side_of",
    "variant_key",
    "visible",
]
