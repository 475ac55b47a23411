"""Links to Discord messages and channels, in the forms Discord's clients open.

A message: `https://discord.com/channels/<guild>/<channel>/<message>`; a channel:
`https://discord.com/channels/<guild>/<channel>`. A direct message or group DM has no
guild: its place is `@me` (the form Discord's "Copy Message Link" gives in DMs).
"""

from __future__ import annotations

_BASE = "https://discord.com/channels"
_DIRECT_MESSAGES = "@me"


def _guild_part(guild_id: int | None) -> str:
    return _DIRECT_MESSAGES if guild_id is None else str(guild_id)


def channel_link(guild_id: int | None, channel_id: int) -> str:
    """The link that opens channel `channel_id` of server `guild_id` (`None`: a direct
    message or group DM, `@me`). Raises nothing; ids are not checked."""
    return f"{_BASE}/{_guild_part(guild_id)}/{channel_id}"


def message_link(guild_id: int | None, channel_id: int, message_id: int) -> str:
    """The link that opens message `message_id` in channel `channel_id` of server
    `guild_id` (`None`: a direct message or group DM, `@me`). Raises nothing; ids are
    not checked."""
    return f"{channel_link(guild_id, channel_id)}/{message_id}"
