"""The bot's game logic on plain values (no discord objects): games, challenges, stats,
deadlines. Tested without Discord (tests/bot/services/)."""

from bot.services.challenges import ChallengeService, Person, variant_key
from bot.services.errors import ComputerRef, PlayerError, UserRef
from bot.services.games import AbsentPlayerMover, Announce, GameRules, GameService
from bot.services.locks import ChannelLocks
from bot.services.models import (
    BoardState,
    Ending,
    EndReason,
    Event,
    GameUpdate,
    MoveChoice,
    SeatView,
    color_of,
    side_of,
)
from bot.services.scheduler import DeadlineListener, DeadlineScheduler
from bot.services.stats import Leaderboard, PdnFile, StatsService

__all__ = [
    "AbsentPlayerMover",
    "Announce",
    "BoardState",
    "ChallengeService",
    "ChannelLocks",
    "ComputerRef",
    "DeadlineListener",
    "DeadlineScheduler",
    "EndReason",
    "Ending",
    "Event",
    "GameRules",
    "GameService",
    "GameUpdate",
    "Leaderboard",
    "MoveChoice",
    "PdnFile",
    "Person",
    "PlayerError",
    "SeatView",
    "StatsService",
    "UserRef",
    "color_of",
    "side_of",
    "variant_key",
]
