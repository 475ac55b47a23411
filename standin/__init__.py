"""A local Discord stand-in: REST and gateway on loopback for an unmodified discord.py bot.

`StandIn` runs the server and drives fake users (`slash`, `autocomplete`, `press`, ...);
the records it returns are in `records`. Point the bot at it with `DAMA_DISCORD_URL`
(`bot.discord_endpoint`).
"""

from .directory import ChannelInfo, GuildInfo, RoleInfo, UserInfo
from .errors import ApiError, BotDidNotAnswer, JsonErrorCode, StandInError
from .model import ChannelType, Permission
from .records import (
    AttachmentRecord,
    ButtonRecord,
    ButtonStyle,
    CallbackType,
    Choice,
    ComponentType,
    EventKind,
    InteractionKind,
    InteractionResult,
    MessageEvent,
    MessageFlag,
    MessageOrigin,
    MessageRecord,
    ModalRecord,
)
from .standin import StandIn

__all__ = [
    "ApiError",
    "AttachmentRecord",
    "BotDidNotAnswer",
    "ButtonRecord",
    "ButtonStyle",
    "CallbackType",
    "ChannelInfo",
    "ChannelType",
    "Choice",
    "ComponentType",
    "EventKind",
    "GuildInfo",
    "InteractionKind",
    "InteractionResult",
    "JsonErrorCode",
    "MessageEvent",
    "MessageFlag",
    "MessageOrigin",
    "MessageRecord",
    "ModalRecord",
    "Permission",
    "RoleInfo",
    "StandIn",
    "StandInError",
    "UserInfo",
]
