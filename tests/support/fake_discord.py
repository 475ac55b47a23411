"""Discord at the HTTP boundary, for tests that run the real bot's command tree and views.

`FakeDiscord` replaces discord.py's two senders, `HTTPClient.request` (bot REST) and
`AsyncWebhookAdapter.request` (interaction callbacks and webhook follow-ups), records
every call with its JSON payload and uploaded files, and answers with Discord-shaped
objects (payload shapes from Discord's API v10 documentation). Interactions are built
from gateway-shaped INTERACTION_CREATE payloads and handed to discord.py's own
`ConnectionState.parse_interaction_create`, exactly as the gateway would.
"""

from __future__ import annotations

import asyncio
import itertools
import json
from collections.abc import Awaitable, Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any
from unittest import mock

import discord
import discord.http
import discord.webhook.async_

BOT_ID = 4_000_000_000_000_001
APP_ID = 4_000_000_000_000_002
GUILD_ID = 500
EVERYTHING = str((1 << 50) - 1)
MEMBER = str(0x400 | 0x800 | (1 << 31))  # view channel, send messages, use app commands
MODERATOR = str(int(MEMBER) | 0x2000)  # + manage messages
TIMESTAMP = "2026-01-01T12:00:00.000000+00:00"


def user_payload(user_id: int, name: str, *, bot: bool = False) -> dict[str, Any]:
    return {
        "id": str(user_id), "username": name, "global_name": name, "discriminator": "0",
        "avatar": None, "bot": bot, "flags": 0, "public_flags": 0,
    }


@dataclass
class Call:
    """One HTTP request the bot made."""

    method: str
    path: str
    params: dict[str, Any]
    payload: Any
    files: list[tuple[str, bytes]]

    @property
    def body(self) -> dict[str, Any]:
        """The message part of the payload (`data` of an interaction callback)."""
        if isinstance(self.payload, dict) and "type" in self.payload and "data" in self.payload:
            data = self.payload["data"]
            return data if isinstance(data, dict) else {}
        return self.payload if isinstance(self.payload, dict) else {}

    @property
    def callback_type(self) -> int | None:
        if self.path.endswith("/callback") and isinstance(self.payload, dict):
            return int(self.payload["type"])
        return None

    @property
    def ephemeral(self) -> bool:
        return bool(int(self.body.get("flags") or 0) & 64)

    @property
    def content(self) -> str:
        return str(self.body.get("content") or "")

    @property
    def embeds(self) -> list[dict[str, Any]]:
        return list(self.body.get("embeds") or [])

    @property
    def custom_ids(self) -> list[str]:
        return [
            str(c["custom_id"]) for row in self.body.get("components") or []
            for c in row.get("components", []) if "custom_id" in c
        ]


@dataclass
class FakeDiscord:
    """Records the bot's requests and answers them."""

    calls: list[Call] = field(default_factory=list)
    messages: dict[int, dict[str, Any]] = field(default_factory=dict)
    ids: Iterator[int] = field(default_factory=lambda: itertools.count(7_000_000_000_000_000))
    fail_paths: set[str] = field(default_factory=set)
    gone_channels: set[int] = field(default_factory=set)
    dm_channels: dict[int, int] = field(default_factory=dict)
    """The bot's DM channel with each user, by user id, opened by POST /users/@me/channels."""
    """Channels deleted: a request under /channels/<id>/ answers 404 Unknown Channel."""
    unreadable_channels: set[int] = field(default_factory=set)
    """Channels whose messages the bot may not read (no Read Message History): a GET of
    /channels/<id>/messages... answers 403 Missing Access; the bot still edits its own."""
    memberless_channels: set[int] = field(default_factory=set)
    """Chats the app is no member of (a DM or group DM between users, a server that only
    a user installed it to): every request under /channels/<id>/ answers 403 Missing
    Access; interactions there are answered as anywhere."""
    observers: list[Callable[[Call], Awaitable[None]]] = field(default_factory=list)
    """Called with each request as it arrives, before it is answered (a test acts at
    that moment: e.g. makes the database refuse writes once the board is being posted)."""

    # --- the two senders -------------------------------------------------------------

    async def http_request(self, route: discord.http.Route, *, files: Any = None,
                           form: Any = None, **kwargs: Any) -> Any:
        payload = kwargs.get("json")
        uploaded: list[tuple[str, bytes]] = []
        if form:
            for part in form:
                if part["name"] == "payload_json":
                    payload = json.loads(part["value"])
        for file in files or []:
            file.reset()
            uploaded.append((file.filename, file.fp.read()))
        return await self._answer(route.method, route.url.split("/api/v10", 1)[-1],
                                  dict(kwargs.get("params") or {}), payload, uploaded)

    async def webhook_request(self, route: discord.http.Route, session: Any, *,
                              payload: Any = None, multipart: Any = None, files: Any = None,
                              params: Any = None, **kwargs: Any) -> Any:
        uploaded: list[tuple[str, bytes]] = []
        if multipart:
            for part in multipart:
                if part["name"] == "payload_json":
                    payload = json.loads(part["value"])
        for file in files or []:
            file.reset()
            uploaded.append((file.filename, file.fp.read()))
        return await self._answer(route.method, route.url.split("/api/v10", 1)[-1],
                                  dict(params or {}), payload, uploaded)

    @contextmanager
    def installed(self) -> Iterator[FakeDiscord]:
        with mock.patch.object(discord.http.HTTPClient, "request", _bind(self.http_request)), \
                mock.patch.object(discord.webhook.async_.AsyncWebhookAdapter, "request",
                                  _bind(self.webhook_request)):
            yield self

    # --- answers ---------------------------------------------------------------------

    def message(self, channel_id: int, body: dict[str, Any], files: list[tuple[str, bytes]],
                message_id: int | None = None) -> dict[str, Any]:
        message_id = message_id or next(self.ids)
        attachments = [
            {"id": str(next(self.ids)), "filename": name, "size": len(data),
             "url": f"https://cdn.example/{name}", "proxy_url": f"https://cdn.example/{name}"}
            for name, data in files
        ]
        message = {
            "id": str(message_id), "channel_id": str(channel_id),
            "author": user_payload(BOT_ID, "dama", bot=True), "content": body.get("content") or "",
            "timestamp": TIMESTAMP, "edited_timestamp": None, "tts": False,
            "mention_everyone": False, "mentions": [], "mention_roles": [],
            "attachments": attachments, "embeds": body.get("embeds") or [], "pinned": False,
            "type": 0, "flags": int(body.get("flags") or 0),
            "components": body.get("components") or [],
        }
        self.messages[message_id] = message
        return message

    async def _answer(self, method: str, path: str, params: dict[str, Any], payload: Any,
                      files: list[tuple[str, bytes]]) -> Any:
        await asyncio.sleep(0)
        call = Call(method, path, params, payload, files)
        self.calls.append(call)
        for observer in list(self.observers):
            await observer(call)
        if path in self.fail_paths:
            raise discord.HTTPException(_Response(500), "fake failure")
        parts = path.strip("/").split("/")
        if len(parts) > 1 and parts[0] == "channels" and parts[1].isdigit() \
                and int(parts[1]) in self.gone_channels:
            raise discord.NotFound(_Response(404), {"code": 10003, "message": "Unknown Channel"})
        if method == "GET" and len(parts) > 2 and parts[0] == "channels" \
                and parts[1].isdigit() and int(parts[1]) in self.unreadable_channels \
                and parts[2] == "messages":
            raise discord.Forbidden(_Response(403), {"code": 50001, "message": "Missing Access"})
        if len(parts) > 1 and parts[0] == "channels" and parts[1].isdigit() \
                and int(parts[1]) in self.memberless_channels:
            # A chat the app is no member of (a DM between users...): only interactions.
            raise discord.Forbidden(_Response(403), {"code": 50001, "message": "Missing Access"})
        if path == "/users/@me":
            return user_payload(BOT_ID, "dama", bot=True)
        if path == "/users/@me/channels" and method == "POST":  # open a DM (Create DM)
            recipient = int(payload["recipient_id"])
            dm = self.dm_channels.setdefault(recipient, next(self.ids))
            return {"id": str(dm), "type": 1, "last_message_id": None,
                    "recipients": [user_payload(recipient, f"user{recipient}")]}
        if path == "/oauth2/applications/@me":
            return {"id": str(APP_ID), "name": "dama", "icon": None, "description": "",
                    "rpc_origins": [], "bot_public": True, "bot_require_code_grant": False,
                    "owner": user_payload(1, "owner"), "summary": "", "verify_key": "0",
                    "team": None, "flags": 0}
        if parts[0] == "applications" and parts[-1] == "commands" and method == "PUT":
            return [dict(c, id=str(next(self.ids)), application_id=str(APP_ID), version="1")
                    for c in payload]
        if parts[0] == "interactions":
            return self._callback(int(parts[1]), call)
        if parts[0] == "webhooks":
            channel_id = self._channel_of_token(parts[2])
            if method == "DELETE":
                return None
            if parts[-1] == "@original":
                original = self._originals.get(parts[2])
                return self.message(channel_id, call.body, files, original)
            if method == "PATCH" and parts[-1].isdigit():  # a follow-up (or the original) edited
                old = self.messages.get(int(parts[-1]), {})
                merged = dict(old, **call.body)
                return self.message(channel_id, merged, files, int(parts[-1]))
            return self.message(channel_id, call.body, files)
        if parts[0] == "channels" and len(parts) >= 3 and parts[2] == "messages":
            channel_id = int(parts[1])
            if method == "GET" and len(parts) == 3:  # the channel's history, newest first
                listed = [m for m in self.messages.values()
                          if m["channel_id"] == str(channel_id)]
                limit = int(params.get("limit") or 50)
                return sorted(listed, key=lambda m: -int(m["id"]))[:limit]
            if len(parts) == 4:
                old = self.messages.get(int(parts[3]), {})
                merged = dict(old, **{k: v for k, v in call.body.items()})
                return self.message(channel_id, merged, files, int(parts[3]))
            return self.message(channel_id, call.body, files)
        return {}

    # interaction bookkeeping: token -> channel and original message id
    _tokens: dict[str, int] = field(default_factory=dict)
    _originals: dict[str, int] = field(default_factory=dict)
    _pressed: dict[str, int] = field(default_factory=dict)

    def _channel_of_token(self, token: str) -> int:
        return self._tokens.get(token, 0)

    def _callback(self, interaction_id: int, call: Call) -> dict[str, Any]:
        token = call.path.strip("/").split("/")[2]
        channel_id = self._channel_of_token(token)
        kind = call.callback_type
        interaction = {"id": str(interaction_id), "type": 2, "response_message_loading": False,
                       "response_message_ephemeral": call.ephemeral}
        if kind in (4, 5):
            message = self.message(channel_id, call.body if kind == 4 else {}, call.files)
            self._originals[token] = int(message["id"])
            interaction["response_message_id"] = message["id"]
            return {"interaction": interaction, "resource": {"type": kind, "message": message}}
        if kind == 7 and token in self._pressed:
            message_id = self._pressed[token]
            merged = dict(self.messages.get(message_id, {}), **call.body)
            message = self.message(channel_id, merged, call.files, message_id)
            return {"interaction": interaction, "resource": {"type": kind, "message": message}}
        return {"interaction": interaction}

    # --- interactions ------------------------------------------------------------------

    def interaction(self, kind: int, data: dict[str, Any], *, user_id: int, channel_id: int,
                    guild_id: int | None = GUILD_ID, permissions: str = MEMBER,
                    app_permissions: str = EVERYTHING,
                    message: dict[str, Any] | None = None,
                    locale: str = "en-US", guild_locale: str = "en-US",
                    context: int | None = None, owners: dict[int, int] | None = None,
                    channel_type: int | None = None) -> dict[str, Any]:
        """A gateway INTERACTION_CREATE `d` payload. `context`: its interaction context
        type (default: 0 in a server, 1 the bot's DM); `owners`: its
        `authorizing_integration_owners` by integration type (default: the server's
        install, {0: guild}); `channel_type` (default: 0 in a server, 1 a DM)."""
        interaction_id = next(self.ids)
        token = f"token-{interaction_id}"
        self._tokens[token] = channel_id
        payload: dict[str, Any] = {
            "id": str(interaction_id), "application_id": str(APP_ID), "type": kind,
            "data": data, "channel_id": str(channel_id),
            "channel": {"id": str(channel_id), "type": 0, "name": "games", "flags": 0,
                        "guild_id": str(guild_id) if guild_id else None, "position": 0,
                        "permission_overwrites": [], "nsfw": False, "parent_id": None},
            "token": token, "version": 1, "app_permissions": app_permissions, "locale": locale,
            "entitlements": [], "attachment_size_limit": 10 * 1024 * 1024,
            "authorizing_integration_owners": (
                {"0": str(guild_id or 0)} if owners is None
                else {str(kind): str(owner) for kind, owner in owners.items()}),
            "context": (0 if guild_id else 1) if context is None else context,
        }
        user = user_payload(user_id, f"user{user_id}")
        if guild_id is not None:
            payload["guild_id"] = str(guild_id)
            payload["guild_locale"] = guild_locale
            payload["member"] = {"user": user, "roles": [], "joined_at": TIMESTAMP,
                                 "deaf": False, "mute": False, "flags": 0,
                                 "permissions": permissions, "nick": None, "avatar": None,
                                 "premium_since": None, "pending": False}
        else:
            payload["user"] = user
            payload["channel"]["type"] = 1
            if channel_type == 3:  # a group DM
                payload["channel"].update(type=3, recipients=[], owner_id=str(user_id))
        if channel_type is not None and guild_id is not None:
            payload["channel"]["type"] = channel_type
        if message is not None:
            payload["message"] = message
            self._pressed[token] = int(message["id"])
        return payload


class _Response:
    def __init__(self, status: int) -> None:
        self.status = status
        self.reason = "fake"


def _bind(function: Any) -> Any:
    async def method(_self: Any, *args: Any, **kwargs: Any) -> Any:
        return await function(*args, **kwargs)
    return method


def option(name: str, value: Any, kind: int = 3, *, focused: bool = False) -> dict[str, Any]:
    entry: dict[str, Any] = {"name": name, "type": kind, "value": value}
    if focused:
        entry["focused"] = True
    return entry


def user_option(name: str, user_id: int, *, bot: bool = False) -> tuple[dict[str, Any],
                                                                         dict[str, Any]]:
    """An option naming a user, and the `resolved` data that goes with it."""
    resolved = {"users": {str(user_id): user_payload(user_id, f"user{user_id}", bot=bot)},
                "members": {str(user_id): {"roles": [], "joined_at": TIMESTAMP, "deaf": False,
                                           "mute": False, "flags": 0, "permissions": MEMBER,
                                           "nick": None, "avatar": None,
                                           "premium_since": None, "pending": False}}}
    return option(name, str(user_id), 6), resolved
