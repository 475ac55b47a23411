"""What the bot may reach through REST: a channel it can see, a permission it has there
(Discord developer docs, Topics > Permissions; 403 Missing Access and Missing Permissions
from Topics > Opcodes and Status Codes)."""

from __future__ import annotations

from aiohttp import web

from .core import Core
from .errors import ApiError, JsonErrorCode, not_found
from .model import Channel, Permission
from .responses import snowflake


def visible_channel(core: Core, request: web.Request) -> Channel:
    """The channel of the path's `channel_id`: 404 Unknown Channel when there is none,
    403 Missing Access (50001) when the bot cannot view it or is no member of its place."""
    ident = snowflake(request, "channel_id", JsonErrorCode.UNKNOWN_CHANNEL, "Channel")
    channel = core.world.channels.get(ident)
    if channel is None:
        raise not_found(JsonErrorCode.UNKNOWN_CHANNEL, "Channel")
    if (
        not core.world.bot_is_member(channel, core.bot_id)
        or not core.world.permissions_in(channel, core.bot_id) & Permission.VIEW_CHANNEL
    ):
        # A place the app is no member of (a DM or group DM between users, a server that
        # did not install it) is Missing Access, as one it cannot view.
        raise ApiError(403, JsonErrorCode.MISSING_ACCESS, "Missing Access")
    return channel


def require_permission(core: Core, channel: Channel, permission: int) -> None:
    """403 Missing Permissions (50013) unless the bot has `permission` in `channel`."""
    if not core.world.permissions_in(channel, core.bot_id) & permission:
        raise ApiError(403, JsonErrorCode.MISSING_PERMISSIONS, "Missing Permissions")
