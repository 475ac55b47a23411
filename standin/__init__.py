"""A local Discord stand-in: REST and gateway on loopback for an unmodified discord.py bot.

`StandIn` runs the server and drives fake users (`slash`, `autocomplete`, `press`, ...);
the records it returns are in `records`. Point the bot's discord.py at `StandIn.rest_base`
and `StandIn.gateway_url` (standin/README.md says how). A general tool: it imports nothing
of the project, only aiohttp and the standard library, and knows no bot's commands.
"""

from .directory import ChannelInfo, GuildInfo, RoleInfo, ScheduledEventInfo, UserInfo
from .dm_limits import DmCounts, DmLimit
from .errors import ApiError, BotDidNotAnswer, JsonErrorCode, NotInstalledError, StandInError
from .mentions import CommandMention, command_mentions, shown_text, unknown_mentions
from .model import (
    ChannelType,
    IntegrationType,
    InteractionContext,
    Permission,
    ScheduledEventEntityType,
    ScheduledEventStatus,
)
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
    "CommandMention",
    "ComponentType",
    "DmCounts",
    "DmLimit",
    "EventKind",
    "GuildInfo",
    "IntegrationType",
    "InteractionContext",
    "InteractionKind",
    "InteractionResult",
    "JsonErrorCode",
    "MessageEvent",
    "MessageFlag",
    "MessageOrigin",
    "MessageRecord",
    "ModalRecord",
    "NotInstalledError",
    "Permission",
    "RoleInfo",
    "ScheduledEventEntityType",
    "ScheduledEventInfo",
    "ScheduledEventStatus",
    "StandIn",
    "StandInError",
    "UserInfo",
    "command_mentions",
    "shown_text",
    "unknown_mentions",
]
