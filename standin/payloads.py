"""JSON payloads exactly as Discord API v10 writes them, built from the stand-in's world.

Field lists follow Discord's developer docs (Resources > User, Guild, Channel, Message;
Interactions > Receiving and Responding; Topics > Permissions > Role Object). Payloads are
complete: discord.py reads some fields without a default (e.g. `flags` on members) and its
gateway task dies silently on a `KeyError`.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass

from .model import (
    Attachment,
    Channel,
    ChannelType,
    Guild,
    Json,
    Member,
    Message,
    Role,
    ScheduledEvent,
    ScheduledEventEntityType,
    User,
    World,
)

# Interaction types (Interactions > Receiving and Responding > Interaction Type).
INTERACTION_APPLICATION_COMMAND = 2
INTERACTION_MESSAGE_COMPONENT = 3
INTERACTION_AUTOCOMPLETE = 4
INTERACTION_MODAL_SUBMIT = 5

# Message flags (Resources > Message > Message Flags).
FLAG_EPHEMERAL = 1 << 6
FLAG_LOADING = 1 << 7
FLAG_SUPPRESS_EMBEDS = 1 << 2
FLAG_SUPPRESS_NOTIFICATIONS = 1 << 12
FLAG_IS_COMPONENTS_V2 = 1 << 15

# Message types.
MESSAGE_DEFAULT = 0
MESSAGE_REPLY = 19
MESSAGE_CHAT_INPUT_COMMAND = 20

# A server without boosts: 10 MiB per upload (attachment_size_limit).
DEFAULT_ATTACHMENT_SIZE_LIMIT = 10 * 1024 * 1024


@dataclass(frozen=True)
class Application:
    """The bot's application: ids, names and its owner."""

    id: int
    name: str
    bot_user_id: int
    owner_id: int
    verify_key: str


class Payloads:
    """Builds payloads for one world; `base_url` is where attachments are served."""

    def __init__(self, world: World, app: Application, base_url: str) -> None:
        self.world = world
        self.app = app
        self.base_url = base_url

    # ---- users, members, roles ------------------------------------------------------
    def user(self, user: User) -> Json:
        """A public user object."""
        data: Json = {
            "id": str(user.id),
            "username": user.username,
            "discriminator": "0",
            "global_name": user.global_name,
            "avatar": None,
            "avatar_decoration_data": None,
            "banner": None,
            "accent_color": None,
            "collectibles": None,
            "primary_guild": None,
            "public_flags": 0,
            "flags": 0,
        }
        if user.bot:
            data["bot"] = True
        return data

    def current_user(self) -> Json:
        """`GET /users/@me` for the bot: the user object with the private fields."""
        bot = self.world.users[self.app.bot_user_id]
        data = self.user(bot)
        data.update(
            {
                "verified": True,
                "mfa_enabled": False,
                "locale": "en-US",
                "email": None,
                "premium_type": 0,
            }
        )
        return data

    def member(
        self, member: Member, *, with_user: bool = True, permissions: int | None = None
    ) -> Json:
        """A guild member object (with `permissions` as in interactions when given)."""
        data: Json = {
            "nick": member.nick,
            "avatar": None,
            "banner": None,
            "roles": [str(r) for r in member.role_ids],
            "joined_at": member.joined_at,
            "premium_since": None,
            "deaf": False,
            "mute": False,
            "flags": 0,
            "pending": False,
            "communication_disabled_until": None,
            "avatar_decoration_data": None,
        }
        if with_user:
            data["user"] = self.user(self.world.users[member.user_id])
        if permissions is not None:
            data["permissions"] = str(permissions)
        return data

    def role(self, role: Role) -> Json:
        """A role object."""
        data: Json = {
            "id": str(role.id),
            "name": role.name,
            "color": role.color,
            "colors": {
                "primary_color": role.color,
                "secondary_color": None,
                "tertiary_color": None,
            },
            "hoist": role.hoist,
            "icon": None,
            "unicode_emoji": None,
            "position": role.position,
            "permissions": str(role.permissions),
            "managed": role.managed,
            "mentionable": role.mentionable,
            "flags": 0,
        }
        if role.bot_id is not None:
            data["tags"] = {"bot_id": str(role.bot_id)}
        return data

    # ---- channels -------------------------------------------------------------------
    def channel(self, channel: Channel) -> Json:
        """A channel object of any modelled type (thread metadata for threads)."""
        last = str(channel.last_message_id) if channel.last_message_id else None
        if channel.type in (ChannelType.DM, ChannelType.GROUP_DM):
            private: Json = {
                "id": str(channel.id),
                "type": int(channel.type),
                "last_message_id": last,
                "flags": 0,
                "recipients": [self.user(self.world.users[u]) for u in channel.recipient_ids],
            }
            if channel.type is ChannelType.GROUP_DM:
                private |= {"name": channel.name or None, "icon": None,
                            "owner_id": str(channel.owner_id)}
            return private
        if channel.type.is_thread:
            bot_id = self.app.bot_user_id
            data: Json = {
                "id": str(channel.id),
                "type": int(channel.type),
                "guild_id": str(channel.guild_id),
                "parent_id": str(channel.parent_id),
                "owner_id": str(channel.owner_id),
                "name": channel.name,
                "last_message_id": last,
                "last_pin_timestamp": None,
                "rate_limit_per_user": channel.rate_limit_per_user,
                "message_count": channel.message_count,
                "member_count": len(channel.thread_member_ids),
                "total_message_sent": channel.total_message_sent,
                "nsfw": False,
                "flags": 0,
                "applied_tags": [],
                "thread_metadata": {
                    "archived": channel.archived,
                    "auto_archive_duration": channel.auto_archive_duration,
                    "archive_timestamp": channel.archive_timestamp,
                    "locked": channel.locked,
                    "invitable": True,
                    "create_timestamp": channel.archive_timestamp,
                },
            }
            if bot_id in channel.thread_member_ids:
                data["member"] = self.thread_member(channel, bot_id)
            return data
        data = {
            "id": str(channel.id),
            "type": int(channel.type),
            "guild_id": str(channel.guild_id),
            "name": channel.name,
            "position": channel.position,
            "permission_overwrites": [
                {"id": str(o.id), "type": int(o.type), "allow": str(o.allow), "deny": str(o.deny)}
                for o in channel.overwrites
            ],
            "parent_id": str(channel.parent_id) if channel.parent_id else None,
            "nsfw": channel.nsfw,
            "flags": 0,
        }
        if channel.type is ChannelType.GUILD_TEXT:
            data.update(
                {
                    "topic": channel.topic,
                    "last_message_id": last,
                    "last_pin_timestamp": None,
                    "rate_limit_per_user": channel.rate_limit_per_user,
                    "default_auto_archive_duration": 1440,
                    "default_thread_rate_limit_per_user": 0,
                    "icon_emoji": None,
                    "theme_color": None,
                }
            )
        return data

    def thread_member(self, thread: Channel, user_id: int) -> Json:
        """A thread member object."""
        return {
            "id": str(thread.id),
            "user_id": str(user_id),
            "join_timestamp": thread.archive_timestamp,
            "flags": 0,
        }

    # ---- guilds -------------------------------------------------------------------
    def unavailable_guild(self, guild: Guild) -> Json:
        """The stub READY lists for each guild before its GUILD_CREATE."""
        return {"id": str(guild.id), "unavailable": True}

    def guild(self, guild: Guild, *, all_members: bool, joined: bool = False) -> Json:
        """A GUILD_CREATE payload: the guild with channels, threads, roles and members.

        `joined`: the bot has just joined it (no `unavailable` key: discord.py then reports
        a guild join rather than a guild becoming available).
        Without the presences intent Discord sends only the bot's own member
        (`all_members=False`); with it, every member.
        """
        channels = [self.world.channels[c] for c in guild.channel_ids]
        members = [
            m for m in guild.members.values() if all_members or m.user_id == self.app.bot_user_id
        ]
        return {
            "id": str(guild.id),
            "name": guild.name,
            "icon": None,
            "icon_hash": None,
            "splash": None,
            "discovery_splash": None,
            "owner_id": str(guild.owner_id),
            "region": "deprecated",
            "afk_channel_id": None,
            "afk_timeout": 300,
            "widget_enabled": False,
            "widget_channel_id": None,
            "verification_level": 0,
            "default_message_notifications": 1,
            "explicit_content_filter": 0,
            "roles": [self.role(r) for r in sorted(guild.roles.values(), key=_role_order)],
            "emojis": [],
            "stickers": [],
            "features": [],
            "mfa_level": 0,
            "application_id": None,
            "system_channel_id": None,
            "system_channel_flags": 0,
            "rules_channel_id": None,
            "safety_alerts_channel_id": None,
            "max_presences": None,
            "max_members": 500000,
            "vanity_url_code": None,
            "description": None,
            "banner": None,
            "premium_tier": 0,
            "premium_subscription_count": 0,
            "preferred_locale": guild.preferred_locale,
            "public_updates_channel_id": None,
            "max_video_channel_users": 25,
            "max_stage_video_channel_users": 50,
            "nsfw_level": 0,
            "premium_progress_bar_enabled": False,
            "incidents_data": None,
            "hub_type": None,
            "latest_onboarding_question_id": None,
            "home_header": None,
            "inventory_settings": None,
            "joined_at": guild.joined_at,
            "large": False,
            **({} if joined else {"unavailable": False}),
            "lazy": True,
            "member_count": len(guild.members),
            "voice_states": [],
            "members": [self.member(m) for m in members],
            "channels": [self.channel(c) for c in channels if not c.type.is_thread],
            "threads": [self.channel(c) for c in channels if c.type.is_thread and not c.archived],
            "presences": [],
            "stage_instances": [],
            "guild_scheduled_events": [
                self.scheduled_event(e) for e in self.world.guild_scheduled_events(guild.id)
            ],
            "soundboard_sounds": [],
            "embedded_activities": [],
            "activity_instances": [],
            "application_command_counts": {},
            "version": 0,
        }

    # ---- scheduled events ---------------------------------------------------------
    def scheduled_event(self, event: ScheduledEvent, *, with_user_count: bool = False) -> Json:
        """A guild scheduled event object (Resources > Guild Scheduled Event), with
        `user_count` when asked (`with_user_count`)."""
        external = event.entity_type is ScheduledEventEntityType.EXTERNAL
        data: Json = {
            "id": str(event.id),
            "guild_id": str(event.guild_id),
            "channel_id": None if event.channel_id is None else str(event.channel_id),
            "creator_id": str(event.creator_id),
            "creator": self.user(self.world.users[event.creator_id]),
            "name": event.name,
            "description": event.description,
            "image": None,
            "scheduled_start_time": event.scheduled_start_time,
            "scheduled_end_time": event.scheduled_end_time,
            "status": int(event.status),
            "entity_type": int(event.entity_type),
            "entity_id": None,
            "entity_metadata": {"location": event.location or ""} if external else None,
            "privacy_level": event.privacy_level,
            "recurrence_rule": copy.deepcopy(event.recurrence_rule),
            "guild_scheduled_event_exceptions": [],
        }
        if with_user_count:
            data["user_count"] = len(event.interested_ids)
        return data

    def scheduled_event_user(
        self, event: ScheduledEvent, user_id: int, *, with_member: bool
    ) -> Json:
        """A guild scheduled event user object: a user interested in `event`, with their
        guild member when `with_member` and they are one."""
        data: Json = {
            "guild_scheduled_event_id": str(event.id),
            "user_id": str(user_id),
            "user": self.user(self.world.users[user_id]),
            "response": 1,  # INTERESTED
        }
        member = self.world.guilds[event.guild_id].members.get(user_id)
        if with_member and member is not None:
            data["member"] = self.member(member)
        return data

    # ---- messages -----------------------------------------------------------------
    def attachment(self, att: Attachment) -> Json:
        """An attachment object; `url` serves the bytes from the stand-in."""
        url = f"{self.base_url}/attachments/{att.id}/{att.filename}"
        data: Json = {
            "id": str(att.id),
            "filename": att.filename,
            "size": len(att.data),
            "url": url,
            "proxy_url": url,
            "flags": 0,
        }
        if att.content_type is not None:
            data["content_type"] = att.content_type
        if att.description is not None:
            data["description"] = att.description
        if att.width is not None and att.height is not None:
            data["width"] = att.width
            data["height"] = att.height
        if att.ephemeral:
            data["ephemeral"] = True
        return data

    def message(self, msg: Message) -> Json:
        """A message object as REST answers it."""
        author = self.world.users[msg.author_id]
        data: Json = {
            "id": str(msg.id),
            "channel_id": str(msg.channel_id),
            "type": msg.type,
            "author": self.user(author),
            "content": msg.content,
            "timestamp": msg.timestamp,
            "edited_timestamp": msg.edited_timestamp,
            "tts": msg.tts,
            "mention_everyone": msg.mention_everyone,
            "mentions": [
                self.user(self.world.users[u]) for u in msg.mention_ids if u in self.world.users
            ],
            "mention_roles": [],
            "attachments": [self.attachment(a) for a in msg.attachments],
            "embeds": copy.deepcopy(msg.embeds),
            "components": copy.deepcopy(msg.components),
            "pinned": msg.pinned,
            "flags": msg.flags,
            "reactions": [],
        }
        if msg.nonce is not None:
            data["nonce"] = msg.nonce
        if msg.webhook_id is not None:
            data["webhook_id"] = str(msg.webhook_id)
        if msg.application_id is not None:
            data["application_id"] = str(msg.application_id)
        if msg.interaction_metadata is not None:
            data["interaction_metadata"] = copy.deepcopy(msg.interaction_metadata)
        if msg.interaction_legacy is not None:
            data["interaction"] = copy.deepcopy(msg.interaction_legacy)
        if msg.message_reference is not None:
            data["message_reference"] = copy.deepcopy(msg.message_reference)
            target = self.world.messages.get(int(msg.message_reference.get("message_id", 0)))
            if msg.type == MESSAGE_REPLY:
                referenced = None
                if target is not None and not target.deleted:
                    referenced = self.message(target)
                    referenced.pop("referenced_message", None)  # one level only, as Discord
                data["referenced_message"] = referenced
        if msg.thread_id is not None and msg.thread_id in self.world.channels:
            data["thread"] = self.channel(self.world.channels[msg.thread_id])
        return data

    def message_event(self, msg: Message, *, with_content: bool) -> Json:
        """MESSAGE_CREATE / MESSAGE_UPDATE data: the message plus `guild_id` and `member`.

        Without the message-content intent Discord blanks content, embeds, attachments and
        components of other users' messages (`with_content=False`).
        """
        data = self.message(msg)
        if not with_content:
            data.update({"content": "", "embeds": [], "attachments": [], "components": []})
        if msg.guild_id is not None:
            data["guild_id"] = str(msg.guild_id)
            guild = self.world.guilds[msg.guild_id]
            member = guild.members.get(msg.author_id)
            if member is not None:
                data["member"] = self.member(member, with_user=False)
            for mention in data["mentions"]:
                m = guild.members.get(int(mention["id"]))
                if m is not None:
                    mention["member"] = self.member(m, with_user=False)
        return data

    # ---- application --------------------------------------------------------------
    def application(self) -> Json:
        """`GET /oauth2/applications/@me`: the application object."""
        owner = self.world.users[self.app.owner_id]
        return {
            "id": str(self.app.id),
            "name": self.app.name,
            "icon": None,
            "description": "",
            "summary": "",
            "type": None,
            "rpc_origins": [],
            "bot_public": True,
            "bot_require_code_grant": False,
            "bot": self.user(self.world.users[self.app.bot_user_id]),
            "owner": self.user(owner),
            "verify_key": self.app.verify_key,
            "team": None,
            "flags": 0,
            "flags_new": "0",
            "hook": True,
            "tags": [],
            "redirect_uris": [],
            "interactions_endpoint_url": None,
            "role_connections_verification_url": None,
            "approximate_guild_count": len(self.world.guilds),
            "approximate_user_install_count": 0,
            "approximate_user_authorization_count": 0,
            "explicit_content_filter": 0,
            "eligible_oauth2_scopes": ["bot", "applications.commands"],
            "integration_types_config": {"0": {}},
            "install_params": {"scopes": ["bot", "applications.commands"], "permissions": "0"},
            "is_monetized": False,
            "is_verified": False,
            "is_discoverable": False,
        }

    def ready_application(self) -> Json:
        """The partial application in READY."""
        return {"id": str(self.app.id), "flags": 0}


def _role_order(role: Role) -> tuple[int, int]:
    return (role.position, role.id)
