"""The REST routes of guild scheduled events: list, create, get, modify, delete, and the
users interested in one (Discord developer docs, Resources > Guild Scheduled Event)."""

from __future__ import annotations

from aiohttp import web

from .bodies import read_body
from .core import Core
from .errors import JsonErrorCode, field_error, form_error, not_found
from .model import Guild, ScheduledEvent
from .responses import json_response, no_content, snowflake
from .scheduled_events import ScheduledEvents

MAX_USERS_PER_PAGE = 100
"""Get Guild Scheduled Event Users: `limit` is at most 100, and 100 when not given."""


def _flag(request: web.Request, name: str) -> bool:
    """A boolean query parameter (Discord docs, Reference, Boolean Query Strings)."""
    return request.query.get(name, "").lower() in ("1", "true")


def _query_int(request: web.Request, name: str) -> int | None:
    raw = request.query.get(name)
    if raw is None:
        return None
    try:
        return int(raw)
    except ValueError:
        raise form_error(
            field_error((name,), "NUMBER_TYPE_COERCE", f'Value "{raw}" is not int.')
        ) from None


class ScheduledEventRoutes:
    """The scheduled-event handlers over `events` (the bot is the acting user)."""

    def __init__(self, core: Core, events: ScheduledEvents) -> None:
        self.core = core
        self.events = events

    def routes(self, api: str) -> list[web.RouteDef]:
        """The routes under `api` (`/api/v10`)."""
        base = api + "/guilds/{guild_id}/scheduled-events"
        one = base + "/{event_id}"
        return [
            web.get(base, self.list_events),
            web.post(base, self.create_event),
            web.get(one, self.get_event),
            web.patch(one, self.modify_event),
            web.delete(one, self.delete_event),
            web.get(one + "/users", self.list_users),
        ]

    def _guild(self, request: web.Request) -> Guild:
        ident = snowflake(request, "guild_id", JsonErrorCode.UNKNOWN_GUILD, "Guild")
        guild = self.core.world.guilds.get(ident)
        if guild is None:
            raise not_found(JsonErrorCode.UNKNOWN_GUILD, "Guild")
        return guild

    def _event(self, request: web.Request) -> tuple[Guild, ScheduledEvent]:
        guild = self._guild(request)
        ident = snowflake(
            request, "event_id", JsonErrorCode.UNKNOWN_GUILD_SCHEDULED_EVENT,
            "Guild Scheduled Event",
        )
        return guild, self.events.find(guild, ident)

    async def _json(self, request: web.Request) -> dict[str, object]:
        body = await read_body(request, max_file_size=self.core.attachment_size_limit)
        return body.json

    async def list_events(self, request: web.Request) -> web.Response:
        """GET /guilds/{id}/scheduled-events (`with_user_count`)."""
        guild = self._guild(request)
        counts = _flag(request, "with_user_count")
        return json_response([
            self.core.payloads.scheduled_event(e, with_user_count=counts)
            for e in self.core.world.guild_scheduled_events(guild.id)
        ])

    async def create_event(self, request: web.Request) -> web.Response:
        """POST /guilds/{id}/scheduled-events."""
        guild = self._guild(request)
        event = await self.events.create(guild, await self._json(request), self.core.bot_id)
        return json_response(self.core.payloads.scheduled_event(event))

    async def get_event(self, request: web.Request) -> web.Response:
        """GET /guilds/{id}/scheduled-events/{event id} (`with_user_count`)."""
        _, event = self._event(request)
        counts = _flag(request, "with_user_count")
        return json_response(self.core.payloads.scheduled_event(event, with_user_count=counts))

    async def modify_event(self, request: web.Request) -> web.Response:
        """PATCH /guilds/{id}/scheduled-events/{event id}."""
        guild, event = self._event(request)
        data = await self._json(request)
        await self.events.modify(guild, event, data, self.core.bot_id)
        return json_response(self.core.payloads.scheduled_event(event))

    async def delete_event(self, request: web.Request) -> web.Response:
        """DELETE /guilds/{id}/scheduled-events/{event id}: 204."""
        guild, event = self._event(request)
        await self.events.delete(guild, event, self.core.bot_id)
        return no_content()

    async def list_users(self, request: web.Request) -> web.Response:
        """GET /guilds/{id}/scheduled-events/{event id}/users: the interested users in
        ascending order of id, `limit` (1-100, default 100) of them before `before` or
        else after `after` (`before` wins when both are given), members with
        `with_member`."""
        _, event = self._event(request)
        limit = _query_int(request, "limit")
        if limit is not None and not 1 <= limit <= MAX_USERS_PER_PAGE:
            raise form_error(field_error(
                ("limit",), "NUMBER_TYPE_MAX" if limit > MAX_USERS_PER_PAGE else "NUMBER_TYPE_MIN",
                f"int value should be between 1 and {MAX_USERS_PER_PAGE}.",
            ))
        count = limit or MAX_USERS_PER_PAGE
        before = _query_int(request, "before")
        after = _query_int(request, "after")
        ids = sorted(event.interested_ids)
        if before is not None:
            ids = [i for i in ids if i < before][-count:]
        else:
            ids = [i for i in ids if after is None or i > after][:count]
        with_member = _flag(request, "with_member")
        return json_response([
            self.core.payloads.scheduled_event_user(event, i, with_member=with_member)
            for i in ids
        ])
