"""The REST routes of threads: starting one from a message or without one, joining one,
and the guild's active threads (Discord developer docs, Resources > Channel, Start Thread
from Message, Start Thread without Message, Join Thread; Resources > Guild, List Active
Guild Threads). Archiving, locking and posting are in `threads`."""

from __future__ import annotations

from aiohttp import web

from .access import require_permission, visible_channel
from .bodies import read_body
from .channels import create_thread
from .core import Core
from .errors import ApiError, JsonErrorCode, field_error, form_error, not_found
from .model import ChannelType, Permission
from .responses import int_field, json_response, no_content, snowflake
from .threads import check_auto_archive_duration, check_name, require_active


class ThreadRoutes:
    """The thread handlers over `core` (the bot is the acting user)."""

    def __init__(self, core: Core) -> None:
        self.core = core

    async def create_thread(self, request: web.Request) -> web.Response:
        """POST /channels/{id}/threads and /channels/{id}/messages/{id}/threads: a thread
        under a text channel, 201 with the thread (THREAD_CREATE).

        From a message: a PUBLIC_THREAD with the message's id (CREATE_PUBLIC_THREADS);
        400 160004 when the message already has one. Without: the body's `type`, a
        PRIVATE_THREAD when absent (Start Thread without Message), needing
        CREATE_PUBLIC_THREADS or CREATE_PRIVATE_THREADS. 400 50024 under anything but a
        text channel; 400 Invalid Form Body for a name outside 1-100 characters or an
        `auto_archive_duration` other than 60, 1440, 4320, 10080.
        """
        channel = visible_channel(self.core, request)
        data = (await read_body(request, max_file_size=self.core.attachment_size_limit)).json
        errors: dict[str, object] = {}
        check_name(data.get("name"), errors)
        check_auto_archive_duration(data.get("auto_archive_duration"), errors)
        if errors:
            raise form_error(errors)
        if channel.type is not ChannelType.GUILD_TEXT:
            raise ApiError(
                400,
                JsonErrorCode.CANNOT_EXECUTE_ON_CHANNEL_TYPE,
                "Cannot execute action on this channel type",
            )
        start = None
        if "message_id" in request.match_info:
            ident = snowflake(request, "message_id", JsonErrorCode.UNKNOWN_MESSAGE, "Message")
            start = self.core.find_message(ident, channel.id)
            kind = ChannelType.PUBLIC_THREAD
        else:
            kind = self._thread_type(data)
        require_permission(
            self.core,
            channel,
            Permission.CREATE_PUBLIC_THREADS
            if kind is ChannelType.PUBLIC_THREAD
            else Permission.CREATE_PRIVATE_THREADS,
        )
        if start is not None and start.id in self.core.world.channels:  # the thread's id
            raise ApiError(
                400,
                JsonErrorCode.THREAD_ALREADY_CREATED,
                "A thread has already been created for this message",
            )
        thread = await create_thread(
            self.core,
            channel,
            str(data["name"]),
            owner_id=self.core.bot_id,
            kind=kind,
            thread_id=start.id if start is not None else None,
            auto_archive_duration=int_field(data, ("auto_archive_duration",), 1440),
        )
        if start is not None:
            start.thread_id = thread.id
        return json_response(self.core.payloads.channel(thread), 201)

    @staticmethod
    def _thread_type(data: dict[str, object]) -> ChannelType:
        """The `type` of a thread started without a message: PUBLIC_THREAD or
        PRIVATE_THREAD (the default); 400 Invalid Form Body for anything else (an
        ANNOUNCEMENT_THREAD lives only under an announcement channel)."""
        kind = int_field(data, ("type",), ChannelType.PRIVATE_THREAD)
        if kind not in (ChannelType.PUBLIC_THREAD, ChannelType.PRIVATE_THREAD):
            raise form_error(field_error(("type",), "BASE_TYPE_CHOICES", "Not a thread type"))
        return ChannelType(kind)

    async def join_thread(self, request: web.Request) -> web.Response:
        """PUT /channels/{id}/thread-members/@me: 204; 400 50024 for a channel that is
        not a thread, 403 50083 for an archived thread."""
        channel = visible_channel(self.core, request)
        if not channel.type.is_thread:
            raise ApiError(
                400,
                JsonErrorCode.CANNOT_EXECUTE_ON_CHANNEL_TYPE,
                "Cannot execute action on this channel type",
            )
        require_active(channel)
        if self.core.bot_id not in channel.thread_member_ids:
            channel.thread_member_ids.append(self.core.bot_id)
        return no_content()

    async def active_threads(self, request: web.Request) -> web.Response:
        """GET /guilds/{id}/threads/active: the guild's unarchived threads under the
        channels the bot can view, and its own thread members of them."""
        ident = snowflake(request, "guild_id", JsonErrorCode.UNKNOWN_GUILD, "Guild")
        guild = self.core.world.guilds.get(ident)
        if guild is None:
            raise not_found(JsonErrorCode.UNKNOWN_GUILD, "Guild")
        channels = [self.core.world.channels[c] for c in guild.channel_ids]
        active = [
            t for t in channels
            if t.type.is_thread
            and not t.archived
            and self.core.world.permissions_in(t, self.core.bot_id) & Permission.VIEW_CHANNEL
        ]
        members = [
            self.core.payloads.thread_member(t, self.core.bot_id)
            for t in active
            if self.core.bot_id in t.thread_member_ids
        ]
        return json_response({"threads": [self.core.payloads.channel(t) for t in active],
                              "members": members, "has_more": False})
