"""The stand-in's world: users, guilds, roles, members, channels, threads, messages.

These are mutable entities owned by one `World`; the driver hands out frozen snapshots
(see `records`). Permission values and the overwrite algorithm follow Discord's developer
docs, Topics > Permissions ("Permission Hierarchy" and "Permission Overwrites").
"""

from __future__ import annotations

import enum
import secrets
from dataclasses import dataclass, field
from typing import Any

from .snowflakes import SnowflakeFactory, now_iso

Json = dict[str, Any]


class Permission(enum.IntFlag):
    """Discord permission bits (Topics > Permissions > Bitwise Permission Flags)."""

    CREATE_INSTANT_INVITE = 1 << 0
    KICK_MEMBERS = 1 << 1
    BAN_MEMBERS = 1 << 2
    ADMINISTRATOR = 1 << 3
    MANAGE_CHANNELS = 1 << 4
    MANAGE_GUILD = 1 << 5
    ADD_REACTIONS = 1 << 6
    VIEW_CHANNEL = 1 << 10
    SEND_MESSAGES = 1 << 11
    MANAGE_MESSAGES = 1 << 13
    EMBED_LINKS = 1 << 14
    ATTACH_FILES = 1 << 15
    READ_MESSAGE_HISTORY = 1 << 16
    MENTION_EVERYONE = 1 << 17
    USE_EXTERNAL_EMOJIS = 1 << 18
    CONNECT = 1 << 20
    SPEAK = 1 << 21
    CHANGE_NICKNAME = 1 << 26
    MANAGE_ROLES = 1 << 28
    USE_APPLICATION_COMMANDS = 1 << 31
    MANAGE_EVENTS = 1 << 33
    MANAGE_THREADS = 1 << 34
    CREATE_PUBLIC_THREADS = 1 << 35
    CREATE_PRIVATE_THREADS = 1 << 36
    SEND_MESSAGES_IN_THREADS = 1 << 38
    CREATE_EVENTS = 1 << 44
    USE_EXTERNAL_APPS = 1 << 50


ALL_PERMISSIONS = (1 << 51) - 1


def permission_names(bits: int) -> str:
    """Name the permission bits of ``bits`` as Discord writes them (``MANAGE_GUILD``).

    Takes an int of permission bits; returns the names of the known bits set, joined
    with `` and ``, then any unknown bits as one number (``0`` when none is set).
    """
    names = [flag.name for flag in Permission if flag.name is not None and bits & flag]
    unknown = bits & ~sum(int(flag) for flag in Permission)
    if unknown or not names:
        names.append(str(unknown))
    return " and ".join(names)

# What a new server's @everyone role may do (the usual defaults of a fresh server).
DEFAULT_EVERYONE = (
    Permission.CREATE_INSTANT_INVITE
    | Permission.ADD_REACTIONS
    | Permission.VIEW_CHANNEL
    | Permission.SEND_MESSAGES
    | Permission.EMBED_LINKS
    | Permission.ATTACH_FILES
    | Permission.READ_MESSAGE_HISTORY
    | Permission.MENTION_EVERYONE
    | Permission.USE_EXTERNAL_EMOJIS
    | Permission.CONNECT
    | Permission.SPEAK
    | Permission.CHANGE_NICKNAME
    | Permission.USE_APPLICATION_COMMANDS
    | Permission.CREATE_PUBLIC_THREADS
    | Permission.CREATE_PRIVATE_THREADS
    | Permission.SEND_MESSAGES_IN_THREADS
)

# The bot's own (managed) role: what a draughts bot is invited with.
DEFAULT_BOT_PERMISSIONS = (
    Permission.VIEW_CHANNEL
    | Permission.SEND_MESSAGES
    | Permission.EMBED_LINKS
    | Permission.ATTACH_FILES
    | Permission.READ_MESSAGE_HISTORY
    | Permission.ADD_REACTIONS
    | Permission.USE_APPLICATION_COMMANDS
    | Permission.SEND_MESSAGES_IN_THREADS
    | Permission.CREATE_PUBLIC_THREADS
    | Permission.USE_EXTERNAL_EMOJIS
)


class ChannelType(enum.IntEnum):
    """Discord channel types the stand-in models (Resources > Channel > Channel Types)."""

    GUILD_TEXT = 0
    DM = 1
    GROUP_DM = 3
    GUILD_CATEGORY = 4
    ANNOUNCEMENT_THREAD = 10
    PUBLIC_THREAD = 11
    PRIVATE_THREAD = 12

    @property
    def is_private(self) -> bool:
        """True for the channels outside servers: a DM and a group DM."""
        return self in (ChannelType.DM, ChannelType.GROUP_DM)

    @property
    def is_thread(self) -> bool:
        """True for the three thread types."""
        return self in (
            ChannelType.ANNOUNCEMENT_THREAD,
            ChannelType.PUBLIC_THREAD,
            ChannelType.PRIVATE_THREAD,
        )


class InteractionContext(enum.IntEnum):
    """Where an interaction happens (Interactions > Receiving and Responding, Interaction
    Context Types)."""

    GUILD = 0
    BOT_DM = 1
    PRIVATE_CHANNEL = 2


class IntegrationType(enum.IntEnum):
    """How an application is installed (Resources > Application, Application
    Integration Types): to a server, or to a user's account."""

    GUILD_INSTALL = 0
    USER_INSTALL = 1


# What the app may do where it is no member (Interactions > Receiving and Responding,
# Interaction Object: `app_permissions` "includes ATTACH_FILES | EMBED_LINKS |
# MENTION_EVERYONE permissions for (G)DMs with other users, and additionally includes
# USE_EXTERNAL_EMOJIS for DMs with the app's bot user").
PRIVATE_APP_PERMISSIONS = (
    Permission.ATTACH_FILES | Permission.EMBED_LINKS | Permission.MENTION_EVERYONE
)


class OverwriteType(enum.IntEnum):
    """Whom a permission overwrite is for."""

    ROLE = 0
    MEMBER = 1


@dataclass
class User:
    """A Discord user (a person or a bot account)."""

    id: int
    username: str
    global_name: str | None
    bot: bool = False
    locale: str = "en-US"


@dataclass
class Role:
    """A guild role; the @everyone role has the guild's id."""

    id: int
    guild_id: int
    name: str
    permissions: int
    position: int
    color: int = 0
    hoist: bool = False
    mentionable: bool = False
    managed: bool = False
    bot_id: int | None = None


@dataclass
class Member:
    """A user's membership in a guild."""

    user_id: int
    guild_id: int
    role_ids: list[int] = field(default_factory=list)
    nick: str | None = None
    joined_at: str = field(default_factory=now_iso)


@dataclass
class Overwrite:
    """A channel permission overwrite for one role or member."""

    id: int
    type: OverwriteType
    allow: int = 0
    deny: int = 0


@dataclass
class Channel:
    """A guild text channel, a category, a thread or a DM channel."""

    id: int
    type: ChannelType
    name: str
    guild_id: int | None = None
    parent_id: int | None = None
    position: int = 0
    topic: str | None = None
    nsfw: bool = False
    overwrites: list[Overwrite] = field(default_factory=list)
    last_message_id: int | None = None
    owner_id: int | None = None
    archived: bool = False
    locked: bool = False
    auto_archive_duration: int = 1440
    archive_timestamp: str = field(default_factory=now_iso)
    message_count: int = 0
    total_message_sent: int = 0
    thread_member_ids: list[int] = field(default_factory=list)
    recipient_ids: list[int] = field(default_factory=list)
    rate_limit_per_user: int = 0


@dataclass
class Guild:
    """A server: its roles, members and channels (ids in creation order)."""

    id: int
    name: str
    owner_id: int
    roles: dict[int, Role] = field(default_factory=dict)
    members: dict[int, Member] = field(default_factory=dict)
    channel_ids: list[int] = field(default_factory=list)
    preferred_locale: str = "en-US"
    joined_at: str = field(default_factory=now_iso)
    bot_installed: bool = True  # False: the app is not installed to this server

    @property
    def everyone(self) -> Role:
        """The @everyone role."""
        return self.roles[self.id]


@dataclass
class Attachment:
    """A stored upload: its bytes and what Discord reports about it."""

    id: int
    filename: str
    data: bytes
    content_type: str | None
    description: str | None = None
    width: int | None = None
    height: int | None = None
    ephemeral: bool = False


@dataclass
class Message:
    """A message in a channel (ephemeral ones are seen only by `visible_to`)."""

    id: int
    channel_id: int
    guild_id: int | None
    author_id: int
    content: str = ""
    embeds: list[Json] = field(default_factory=list)
    components: list[Json] = field(default_factory=list)
    attachments: list[Attachment] = field(default_factory=list)
    flags: int = 0
    type: int = 0
    tts: bool = False
    timestamp: str = field(default_factory=now_iso)
    edited_timestamp: str | None = None
    webhook_id: int | None = None
    application_id: int | None = None
    interaction_id: int | None = None
    interaction_metadata: Json | None = None
    interaction_legacy: Json | None = None
    message_reference: Json | None = None
    visible_to: int | None = None
    deleted: bool = False
    mention_ids: list[int] = field(default_factory=list)
    mention_everyone: bool = False
    pinned: bool = False
    thread_id: int | None = None
    nonce: int | str | None = None


class ScheduledEventStatus(enum.IntEnum):
    """A scheduled event's status (Resources > Guild Scheduled Event, Guild Scheduled
    Event Status); COMPLETED and CANCELED are final."""

    SCHEDULED = 1
    ACTIVE = 2
    COMPLETED = 3
    CANCELED = 4

    @property
    def finished(self) -> bool:
        """True for the statuses that can no longer change (COMPLETED, CANCELED)."""
        return self in (ScheduledEventStatus.COMPLETED, ScheduledEventStatus.CANCELED)


class ScheduledEventEntityType(enum.IntEnum):
    """Where a scheduled event takes place (Guild Scheduled Event Entity Types)."""

    STAGE_INSTANCE = 1
    VOICE = 2
    EXTERNAL = 3


@dataclass
class ScheduledEvent:
    """A guild scheduled event; `interested_ids` are the users who pressed "Interested"
    (the event's subscribers, `user_count`)."""

    id: int
    guild_id: int
    creator_id: int
    name: str
    scheduled_start_time: str
    entity_type: ScheduledEventEntityType
    scheduled_end_time: str | None = None
    description: str | None = None
    location: str | None = None
    channel_id: int | None = None
    status: ScheduledEventStatus = ScheduledEventStatus.SCHEDULED
    privacy_level: int = 2
    recurrence_rule: Json | None = None
    interested_ids: list[int] = field(default_factory=list)


def new_token() -> str:
    """A random interaction or session token."""
    return secrets.token_urlsafe(32)


class World:
    """All entities of one stand-in, with id allocation and permission computation."""

    def __init__(self, ids: SnowflakeFactory) -> None:
        self.ids = ids
        self.users: dict[int, User] = {}
        self.guilds: dict[int, Guild] = {}
        self.channels: dict[int, Channel] = {}
        self.messages: dict[int, Message] = {}
        self.attachments: dict[int, Attachment] = {}
        self.dm_channels: dict[int, int] = {}  # user id -> DM channel id with the bot
        self.user_dms: dict[frozenset[int], int] = {}  # two users -> their DM channel id
        self.user_installs: set[int] = set()  # users who installed the app to their account
        self.closed_dms: set[int] = set()  # users who take no DMs from the app
        self.external_apps_denied: set[tuple[int, int]] = set()  # (guild id, user id)
        self.scheduled_events: dict[int, ScheduledEvent] = {}

    # ---- look-ups -----------------------------------------------------------------
    def user_by_name(self, name: str) -> User | None:
        """The user whose username, else display name, is `name` (case-insensitive)."""
        wanted = name.casefold()
        for user in self.users.values():
            if user.username.casefold() == wanted:
                return user
        for user in self.users.values():
            if (user.global_name or "").casefold() == wanted:
                return user
        return None

    def guild_scheduled_events(self, guild_id: int) -> list[ScheduledEvent]:
        """The guild's scheduled events that are SCHEDULED or ACTIVE, oldest first (a
        finished event leaves the guild's list)."""
        return [
            e for e in self.scheduled_events.values()
            if e.guild_id == guild_id and not e.status.finished
        ]

    def channel_messages(self, channel_id: int) -> list[Message]:
        """Messages of a channel, oldest first, deleted ones left out."""
        return [m for m in self.messages.values() if m.channel_id == channel_id and not m.deleted]

    # ---- installation and places --------------------------------------------------
    def bot_is_member(self, channel: Channel, bot_id: int) -> bool:
        """Whether the app's bot belongs to the place of `channel`: a server it is installed
        to, or its own DM with a user (not a DM or group DM between users)."""
        if channel.guild_id is not None:
            return self.guilds[channel.guild_id].bot_installed
        return bot_id in channel.recipient_ids

    def context_of(self, channel: Channel, bot_id: int) -> InteractionContext:
        """The interaction context of a place: GUILD in a server, BOT_DM in the bot's DM
        with a user, PRIVATE_CHANNEL in a DM or group DM between users."""
        if channel.guild_id is not None:
            return InteractionContext.GUILD
        if bot_id in channel.recipient_ids:
            return InteractionContext.BOT_DM
        return InteractionContext.PRIVATE_CHANNEL

    def uses_external_apps(self, channel: Channel, user_id: int) -> bool:
        """Whether a member may use external apps in a server channel (USE_EXTERNAL_APPS,
        which @everyone has until `StandIn.deny_external_apps` takes it away); True
        outside servers."""
        if channel.guild_id is None:
            return True
        return (channel.guild_id, user_id) not in self.external_apps_denied

    # ---- permissions --------------------------------------------------------------
    def base_permissions(self, guild: Guild, user_id: int) -> int:
        """Guild-level permissions of a member (owner and administrators get all)."""
        if user_id == guild.owner_id:
            return ALL_PERMISSIONS
        member = guild.members.get(user_id)
        perms = guild.everyone.permissions
        if member is not None:
            for role_id in member.role_ids:
                role = guild.roles.get(role_id)
                if role is not None:
                    perms |= role.permissions
        if perms & Permission.ADMINISTRATOR:
            return ALL_PERMISSIONS
        return perms

    def permissions_in(self, channel: Channel, user_id: int) -> int:
        """A member's permissions in a channel, overwrites applied (threads use the parent's).

        Order (Discord docs, Permission Overwrites): @everyone overwrite, then all role
        overwrites together (deny then allow), then the member's own overwrite.
        """
        if channel.guild_id is None:
            return int(
                Permission.VIEW_CHANNEL
                | Permission.SEND_MESSAGES
                | Permission.EMBED_LINKS
                | Permission.ATTACH_FILES
                | Permission.READ_MESSAGE_HISTORY
                | Permission.ADD_REACTIONS
                | Permission.USE_EXTERNAL_EMOJIS
            )
        guild = self.guilds[channel.guild_id]
        perms = self.base_permissions(guild, user_id)
        if perms == ALL_PERMISSIONS:
            return perms
        source = channel
        if channel.type.is_thread and channel.parent_id in self.channels:
            source = self.channels[channel.parent_id]
        overwrites = {(o.type, o.id): o for o in source.overwrites}
        everyone = overwrites.get((OverwriteType.ROLE, guild.id))
        if everyone is not None:
            perms = (perms & ~everyone.deny) | everyone.allow
        member = guild.members.get(user_id)
        role_ids = member.role_ids if member is not None else []
        allow = deny = 0
        for role_id in role_ids:
            over = overwrites.get((OverwriteType.ROLE, role_id))
            if over is not None:
                allow |= over.allow
                deny |= over.deny
        perms = (perms & ~deny) | allow
        own = overwrites.get((OverwriteType.MEMBER, user_id))
        if own is not None:
            perms = (perms & ~own.deny) | own.allow
        if not perms & Permission.VIEW_CHANNEL:
            return 0
        return perms
