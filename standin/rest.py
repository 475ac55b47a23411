"""REST routes under /api/v10, attachment downloads, and Discord-shaped error answers.

Every JSON answer carries `Content-Type: application/json` exactly (discord.py parses the
body as JSON only then). Routes needing the bot token check `Authorization: Bot <token>`;
interaction callbacks and interaction webhooks are authorised by their token in the path,
as on Discord.
"""

from __future__ import annotations

import contextlib
import json
import logging
from collections.abc import Awaitable, Callable

from aiohttp import web

from .access import require_permission, visible_channel
from .bodies import PAYLOAD_JSON, Body, read_body
from .core import CHANNEL_MESSAGE_FLAGS, Core
from .errors import ApiError, JsonErrorCode, field_error, form_error, not_found
from .gateway import Intent
from .interaction_state import InteractionState
from .model import Channel, ChannelType, Guild, Permission
from .openapi import OpenApiCheck
from .payloads import FLAG_EPHEMERAL, MESSAGE_REPLY
from .records import MessageOrigin
from .responses import int_field, json_response, no_content, snowflake
from .rest_commands import CommandRoutes
from .rest_events import ScheduledEventRoutes
from .rest_identity import IdentityRoutes
from .rest_threads import ThreadRoutes
from .scheduled_events import ScheduledEvents
from .threads import edit_thread, may_manage, open_for_message, require_active, thread_locked

_log = logging.getLogger(__name__)

API = "/api/v10"
# nginx's status for a request its client abandoned; nobody reads it (the client is gone)
CLIENT_CLOSED_REQUEST = 499
_ABANDONED = web.RequestKey("standin.abandoned", bool)
Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


class Rest:
    """The REST half of the stand-in; `token` is the bot token it accepts."""

    def __init__(
        self,
        core: Core,
        token: Callable[[], str],
        urls: Callable[[], tuple[str, str]],
        after_request: Callable[[], Awaitable[None]] | None = None,
        *,
        shards: Callable[[], int] = lambda: 1,
        openapi_check: OpenApiCheck | None = None,
    ) -> None:
        self.core = core
        self.commands = CommandRoutes(core)
        self.identity = IdentityRoutes(core, urls, shards)
        self.scheduled_events = ScheduledEventRoutes(core, ScheduledEvents(core))
        self.threads = ThreadRoutes(core)
        self.openapi_check = openapi_check
        self.token = token
        self.urls = urls  # (http base, gateway ws url)
        self.request_log: list[tuple[str, str, int]] = []
        self.after_request = after_request
        self.internal_errors: list[str] = []

    # ---- application wiring ---------------------------------------------------------
    def routes(self) -> list[web.RouteDef]:
        """Every route of the REST API and the attachment downloads."""
        a = API
        r = web
        ch = a + "/channels/{channel_id}"
        app = a + "/applications/{application_id}"
        hook = a + "/webhooks/{application_id}/{token}"
        cmd = self.commands
        ids = self.identity
        return [
            r.get(a + "/users/@me", ids.get_me),
            r.get(a + "/users/{user_id}", ids.get_user),
            r.post(a + "/users/@me/channels", ids.create_dm),
            r.get(a + "/oauth2/applications/@me", ids.get_application),
            r.get(a + "/applications/@me", ids.get_application),
            r.get(a + "/gateway", ids.get_gateway),
            r.get(a + "/gateway/bot", ids.get_gateway_bot),
            r.get(app + "/commands", cmd.list_commands),
            r.put(app + "/commands", cmd.put_commands),
            r.post(app + "/commands", cmd.upsert_command),
            r.get(app + "/commands/{command_id}", cmd.get_command),
            r.patch(app + "/commands/{command_id}", cmd.patch_command),
            r.delete(app + "/commands/{command_id}", cmd.delete_command),
            r.get(app + "/guilds/{guild_id}/commands", cmd.list_commands),
            r.put(app + "/guilds/{guild_id}/commands", cmd.put_commands),
            r.post(app + "/guilds/{guild_id}/commands", cmd.upsert_command),
            r.get(app + "/guilds/{guild_id}/commands/permissions", cmd.command_permissions),
            r.get(app + "/guilds/{guild_id}/commands/{command_id}", cmd.get_command),
            r.patch(app + "/guilds/{guild_id}/commands/{command_id}", cmd.patch_command),
            r.delete(app + "/guilds/{guild_id}/commands/{command_id}", cmd.delete_command),
            r.post(a + "/interactions/{interaction_id}/{token}/callback", self.callback),
            r.post(hook, self.webhook_execute),
            r.get(hook + "/messages/{message_id}", self.webhook_get),
            r.patch(hook + "/messages/{message_id}", self.webhook_edit),
            r.delete(hook + "/messages/{message_id}", self.webhook_delete),
            r.get(ch, self.get_channel),
            r.patch(ch, self.patch_channel),
            r.get(ch + "/messages", self.list_messages),
            r.post(ch + "/messages", self.create_message),
            r.get(ch + "/messages/{message_id}", self.get_message),
            r.patch(ch + "/messages/{message_id}", self.edit_message),
            r.delete(ch + "/messages/{message_id}", self.delete_message),
            r.post(ch + "/typing", self.typing),
            r.post(ch + "/threads", self.threads.create_thread),
            r.post(ch + "/messages/{message_id}/threads", self.threads.create_thread),
            r.put(ch + "/thread-members/@me", self.threads.join_thread),
            r.put(ch + "/messages/{message_id}/reactions/{emoji}/@me", self.add_reaction),
            r.get(a + "/guilds/{guild_id}", self.get_guild),
            r.get(a + "/guilds/{guild_id}/channels", self.guild_channels),
            r.get(a + "/guilds/{guild_id}/roles", self.guild_roles),
            r.get(a + "/guilds/{guild_id}/members/{user_id}", self.guild_member),
            r.get(a + "/guilds/{guild_id}/threads/active", self.threads.active_threads),
            r.get("/attachments/{attachment_id}/{filename}", self.download),
            *self.scheduled_events.routes(a),
        ]

    @web.middleware
    async def middleware(self, request: web.Request, handler: Handler) -> web.StreamResponse:
        """Authorisation, Discord-shaped errors, a request log, and with `openapi_check`
        the request and its answer checked against Discord's specification."""
        check = self.openapi_check
        if check is None or not request.path.startswith(API):
            return await self._answer(request, handler)
        json_body = None
        if not request.content_type.startswith("multipart/") and request.body_exists:
            try:
                raw = await request.read()  # kept by aiohttp: the handler reads it again
            except ConnectionResetError:
                self.request_log.append((request.method, request.path, CLIENT_CLOSED_REQUEST))
                return self._abandoned(request)
            with contextlib.suppress(ValueError):
                json_body = json.loads(raw) if raw else None
        response = await self._answer(request, handler)
        if request.get(_ABANDONED):
            return response
        if request.content_type.startswith("multipart/"):
            json_body = request.get(PAYLOAD_JSON)
        check.check_request(request.method, request.path, request.content_type, json_body)
        answer = None
        if isinstance(response, web.Response) and response.body is not None:
            with contextlib.suppress(ValueError, TypeError):
                answer = json.loads(response.body)  # type: ignore[arg-type]
        check.check_response(request.method, request.path, response.status, answer)
        return response

    async def _answer(self, request: web.Request, handler: Handler) -> web.StreamResponse:
        status = 500
        try:
            if self._needs_auth(request.path) and (
                request.headers.get("Authorization") != f"Bot {self.token()}"
            ):
                raise ApiError(401, JsonErrorCode.GENERAL, "401: Unauthorized")
            response = await handler(request)
            status = response.status
            return response
        except ApiError as exc:
            status = exc.status
            response = json_response(exc.body(), exc.status)
            response.headers.update(exc.headers())
            return response
        except ConnectionResetError:
            status = CLIENT_CLOSED_REQUEST
            return self._abandoned(request)
        except web.HTTPException as exc:
            status = exc.status
            if exc.status == 404:
                return json_response({"message": "404: Not Found", "code": 0}, 404)
            if exc.status == 405:
                return json_response({"message": "405: Method Not Allowed", "code": 0}, 405)
            raise
        except Exception as exc:
            # A stand-in bug: answer 400 (a 5xx makes discord.py retry for ~25 s) and keep
            # the error for `StandIn.internal_errors`.
            _log.exception("stand-in failed on %s %s", request.method, request.path)
            self.internal_errors.append(f"{request.method} {request.path}: {exc!r}")
            status = 400
            return json_response(
                {"message": f"the Discord stand-in failed on this request: {exc!r}", "code": 0},
                400,
            )
        finally:
            self.request_log.append((request.method, request.path, status))
            if self.after_request is not None:
                await self.after_request()

    def _abandoned(self, request: web.Request) -> web.StreamResponse:
        """The answer to a request whose client went away before its body arrived (a bot
        process killed mid-request): Discord never received such a request, so it is not
        checked against the specification nor counted among the stand-in's failures."""
        request[_ABANDONED] = True
        _log.info("client closed %s %s before its body arrived", request.method, request.path)
        return web.Response(status=CLIENT_CLOSED_REQUEST)

    def _needs_auth(self, path: str) -> bool:
        if not path.startswith(API):
            return False
        rest = path[len(API) :]
        if rest.startswith("/interactions/"):
            return False
        parts = rest.strip("/").split("/")
        return not (parts[0] == "webhooks" and len(parts) >= 3)

    async def _body(self, request: web.Request) -> Body:
        return await read_body(request, max_file_size=self.core.attachment_size_limit)

    # ---- interactions ---------------------------------------------------------------
    async def callback(self, request: web.Request) -> web.Response:
        """POST /interactions/{id}/{token}/callback."""
        ident = snowflake(
            request, "interaction_id", JsonErrorCode.UNKNOWN_INTERACTION, "interaction"
        )
        body = await self._body(request)
        with_response = request.query.get("with_response", "false").lower() in ("1", "true")
        result = await self.core.interaction_callback(
            ident, request.match_info["token"], body, with_response
        )
        return no_content() if result is None else json_response(result)

    def _hook(self, request: web.Request) -> InteractionState:
        app_id = snowflake(request, "application_id", JsonErrorCode.UNKNOWN_WEBHOOK, "Webhook")
        return self.core.webhook_interaction(app_id, request.match_info["token"])

    async def webhook_execute(self, request: web.Request) -> web.Response:
        """POST /webhooks/{app}/{token}: an interaction follow-up."""
        state = self._hook(request)
        msg = await self.core.followup(state, await self._body(request))
        if request.query.get("wait", "true").lower() in ("0", "false"):
            return no_content()
        return json_response(self.core.payloads.message(msg))

    async def webhook_get(self, request: web.Request) -> web.Response:
        """GET /webhooks/{app}/{token}/messages/{id or @original}."""
        state = self._hook(request)
        msg = self.core.webhook_message(state, request.match_info["message_id"])
        return json_response(self.core.payloads.message(msg))

    async def webhook_edit(self, request: web.Request) -> web.Response:
        """PATCH /webhooks/{app}/{token}/messages/{id or @original}."""
        state = self._hook(request)
        body = await self._body(request)
        msg = await self.core.webhook_edit(state, request.match_info["message_id"], body)
        return json_response(self.core.payloads.message(msg))

    async def webhook_delete(self, request: web.Request) -> web.Response:
        """DELETE /webhooks/{app}/{token}/messages/{id or @original}."""
        state = self._hook(request)
        await self.core.webhook_delete(state, request.match_info["message_id"])
        return no_content()

    # ---- channels and messages ----------------------------------------------------
    def _channel(self, request: web.Request) -> Channel:
        return visible_channel(self.core, request)

    def _require(self, channel: Channel, permission: int) -> None:
        """403 Missing Permissions (50013) unless the bot has `permission` in `channel`."""
        require_permission(self.core, channel, permission)

    async def get_channel(self, request: web.Request) -> web.Response:
        """GET /channels/{id}."""
        return json_response(self.core.payloads.channel(self._channel(request)))

    async def patch_channel(self, request: web.Request) -> web.Response:
        """PATCH /channels/{id}: a channel's name (Manage Channels), or a thread's fields
        as `threads.edit_thread` allows them (THREAD_UPDATE)."""
        channel = self._channel(request)
        data = (await self._body(request)).json
        if channel.type.is_thread:
            return json_response(await edit_thread(self.core, channel, data, self.core.bot_id))
        self._require(channel, Permission.MANAGE_CHANNELS)
        if "name" in data:
            channel.name = str(data["name"])
        payload = self.core.payloads.channel(channel)
        await self.core.hub.dispatch(
            "CHANNEL_UPDATE", lambda s: payload if s.wants(Intent.GUILDS) else None
        )
        return json_response(payload)

    async def list_messages(self, request: web.Request) -> web.Response:
        """GET /channels/{id}/messages (newest first; limit, before, after, around)."""
        channel = self._channel(request)
        self._require(channel, Permission.READ_MESSAGE_HISTORY)
        try:
            limit = max(1, min(100, int(request.query.get("limit", "50"))))
            before = int(request.query["before"]) if "before" in request.query else None
            after = int(request.query["after"]) if "after" in request.query else None
            around = int(request.query["around"]) if "around" in request.query else None
        except ValueError:
            raise form_error(
                field_error(("limit",), "NUMBER_TYPE_COERCE", "Value is not int.")
            ) from None
        msgs = [
            m for m in self.core.world.channel_messages(channel.id) if not m.flags & FLAG_EPHEMERAL
        ]
        if before is not None:
            msgs = [m for m in msgs if m.id < before]
        if after is not None:
            msgs = [m for m in msgs if m.id > after]
            msgs = msgs[:limit]
        if around is not None:
            older = [m for m in msgs if m.id <= around][-(limit // 2 + limit % 2) :]
            newer = [m for m in msgs if m.id > around][: limit // 2]
            msgs = older + newer
        msgs = sorted(msgs, key=lambda m: m.id, reverse=True)[:limit]
        return json_response([self.core.payloads.message(m) for m in msgs])

    async def get_message(self, request: web.Request) -> web.Response:
        """GET /channels/{id}/messages/{id}."""
        channel = self._channel(request)
        ident = snowflake(request, "message_id", JsonErrorCode.UNKNOWN_MESSAGE, "Message")
        msg = self.core.find_message(ident, channel.id)
        return json_response(self.core.payloads.message(msg))

    async def create_message(self, request: web.Request) -> web.Response:
        """POST /channels/{id}/messages (with `nonce` and `enforce_nonce`: the bot's
        message with that nonce from the last `Core.nonces.window` seconds is returned
        instead of a new one)."""
        channel = self._channel(request)
        body = await self._body(request)
        if channel.type is ChannelType.DM:
            other = [u for u in channel.recipient_ids if u != self.core.bot_id]
            if other and (
                self.core.world.users[other[0]].bot or other[0] in self.core.world.closed_dms
            ):
                # A bot, or a person who takes no DMs from the app (Discord: 403 50007).
                raise ApiError(
                    403, JsonErrorCode.CANNOT_SEND_TO_USER, "Cannot send messages to this user"
                )
            self.core.dms.send()
        else:
            needed = (
                Permission.SEND_MESSAGES_IN_THREADS
                if channel.type.is_thread
                else Permission.SEND_MESSAGES
            )
            self._require(channel, needed)
            if body.files:
                self._require(channel, Permission.ATTACH_FILES)
            if channel.type.is_thread:
                await open_for_message(self.core, channel, self.core.bot_id)
        msg = self.core.new_message(
            body, channel=channel, author_id=self.core.bot_id, allowed_flags=CHANNEL_MESSAGE_FLAGS
        )
        nonce = body.json.get("nonce")  # validated by new_message: an int or a str
        enforced: int | str | None = (
            nonce if isinstance(nonce, int | str) and body.json.get("enforce_nonce") is True
            else None
        )
        if enforced is not None:
            # Discord: the same author's message with this nonce in the past few minutes is
            # returned and none is created (a deleted one: 404); see standin/nonces.py.
            earlier = self.core.nonces.earlier(self.core.bot_id, enforced)
            if earlier is not None:
                if earlier.deleted:
                    raise not_found(JsonErrorCode.UNKNOWN_MESSAGE, "Message")
                return json_response(self.core.payloads.message(earlier))
        ref = body.json.get("message_reference")
        if isinstance(ref, dict) and ref.get("message_id"):
            target_id = int_field(body.json, ("message_reference", "message_id"), 0)
            target = self.core.world.messages.get(target_id)
            if target is None or target.deleted:
                if ref.get("fail_if_not_exists", True):
                    raise form_error(
                        field_error(
                            ("message_reference",), "REPLIES_UNKNOWN_MESSAGE", "Unknown message"
                        )
                    )
            else:
                msg.type = MESSAGE_REPLY
                msg.message_reference = {
                    "type": 0,
                    "message_id": str(target.id),
                    "channel_id": str(target.channel_id),
                }
                if target.guild_id is not None:
                    msg.message_reference["guild_id"] = str(target.guild_id)
        if enforced is not None:
            self.core.nonces.remember(self.core.bot_id, enforced, msg)
        await self.core.store_message(msg, MessageOrigin.BOT_CHANNEL)
        return json_response(self.core.payloads.message(msg))

    async def edit_message(self, request: web.Request) -> web.Response:
        """PATCH /channels/{id}/messages/{id} (only the bot's own messages)."""
        channel = self._channel(request)
        ident = snowflake(request, "message_id", JsonErrorCode.UNKNOWN_MESSAGE, "Message")
        msg = self.core.find_message(ident, channel.id)
        if channel.type.is_thread:
            require_active(channel)
            if channel.locked and not may_manage(self.core, channel, self.core.bot_id):
                raise thread_locked()
        if msg.author_id != self.core.bot_id:
            raise ApiError(
                403,
                JsonErrorCode.CANNOT_EDIT_OTHER_USERS_MESSAGE,
                "Cannot edit a message authored by another user",
            )
        await self.core.edit_message(msg, await self._body(request))
        return json_response(self.core.payloads.message(msg))

    async def delete_message(self, request: web.Request) -> web.Response:
        """DELETE /channels/{id}/messages/{id} (others' need Manage Messages)."""
        channel = self._channel(request)
        ident = snowflake(request, "message_id", JsonErrorCode.UNKNOWN_MESSAGE, "Message")
        msg = self.core.find_message(ident, channel.id)
        if msg.author_id != self.core.bot_id and channel.type is not ChannelType.DM:
            self._require(channel, Permission.MANAGE_MESSAGES)
        await self.core.delete_message(msg)
        return no_content()

    async def typing(self, request: web.Request) -> web.Response:
        """POST /channels/{id}/typing."""
        channel = self._channel(request)
        self.core.typing[channel.id] = self.core.typing.get(channel.id, 0) + 1
        return no_content()

    async def add_reaction(self, request: web.Request) -> web.Response:
        """PUT /channels/{id}/messages/{id}/reactions/{emoji}/@me (accepted, not shown)."""
        channel = self._channel(request)
        ident = snowflake(request, "message_id", JsonErrorCode.UNKNOWN_MESSAGE, "Message")
        self.core.find_message(ident, channel.id)
        if channel.type.is_thread:
            require_active(channel)
        self._require(channel, Permission.ADD_REACTIONS)
        return no_content()

    # ---- guilds -------------------------------------------------------------------
    def _guild(self, request: web.Request) -> Guild:
        ident = snowflake(request, "guild_id", JsonErrorCode.UNKNOWN_GUILD, "Guild")
        guild = self.core.world.guilds.get(ident)
        if guild is None:
            raise not_found(JsonErrorCode.UNKNOWN_GUILD, "Guild")
        return guild

    async def get_guild(self, request: web.Request) -> web.Response:
        """GET /guilds/{id} (no channels or members, as on Discord)."""
        data = self.core.payloads.guild(self._guild(request), all_members=False)
        for key in (
            "channels",
            "threads",
            "members",
            "presences",
            "voice_states",
            "joined_at",
            "large",
            "member_count",
            "unavailable",
            "lazy",
        ):
            data.pop(key, None)
        if request.query.get("with_counts", "").lower() in ("1", "true"):
            guild = self._guild(request)
            data["approximate_member_count"] = len(guild.members)
            data["approximate_presence_count"] = 0
        return json_response(data)

    async def guild_channels(self, request: web.Request) -> web.Response:
        """GET /guilds/{id}/channels (threads left out, as on Discord)."""
        guild = self._guild(request)
        channels = [self.core.world.channels[c] for c in guild.channel_ids]
        return json_response(
            [self.core.payloads.channel(c) for c in channels if not c.type.is_thread]
        )

    async def guild_roles(self, request: web.Request) -> web.Response:
        """GET /guilds/{id}/roles."""
        guild = self._guild(request)
        return json_response([self.core.payloads.role(r) for r in guild.roles.values()])

    async def guild_member(self, request: web.Request) -> web.Response:
        """GET /guilds/{id}/members/{user id}."""
        guild = self._guild(request)
        ident = snowflake(request, "user_id", JsonErrorCode.UNKNOWN_MEMBER, "Member")
        member = guild.members.get(ident)
        if member is None:
            raise not_found(JsonErrorCode.UNKNOWN_MEMBER, "Member")
        return json_response(self.core.payloads.member(member))

    # ---- attachments ----------------------------------------------------------------
    async def download(self, request: web.Request) -> web.Response:
        """GET /attachments/{id}/{filename}: the stored bytes."""
        try:
            att = self.core.world.attachments.get(int(request.match_info["attachment_id"]))
        except ValueError:
            att = None
        if att is None or att.filename != request.match_info["filename"]:
            raise web.HTTPNotFound()
        return web.Response(
            body=att.data, headers={"Content-Type": att.content_type or "application/octet-stream"}
        )
