"""The REST routes of users, the application and the gateway: the current user, a user, a
DM channel, the application, and the gateway URL with its recommended shard count (Discord
docs, Resources > User, Application; Topics > Gateway)."""

from __future__ import annotations

from collections.abc import Callable

from aiohttp import web

from .bodies import Body, read_body
from .channels import dm_channel
from .core import Core
from .errors import JsonErrorCode, field_error, form_error, not_found
from .responses import json_response, snowflake


class IdentityRoutes:
    """The handlers over `core`'s users and application; `urls` gives (http base, gateway
    ws url) and `shards` the shard count GET /gateway/bot recommends."""

    def __init__(
        self, core: Core, urls: Callable[[], tuple[str, str]], shards: Callable[[], int]
    ) -> None:
        self.core = core
        self.urls = urls
        self.shards = shards

    async def _body(self, request: web.Request) -> Body:
        return await read_body(request, max_file_size=self.core.attachment_size_limit)

    async def get_me(self, request: web.Request) -> web.Response:
        """GET /users/@me."""
        return json_response(self.core.payloads.current_user())

    async def get_user(self, request: web.Request) -> web.Response:
        """GET /users/{id}."""
        user = self.core.world.users.get(
            snowflake(request, "user_id", JsonErrorCode.UNKNOWN_USER, "User")
        )
        if user is None:
            raise not_found(JsonErrorCode.UNKNOWN_USER, "User")
        return json_response(self.core.payloads.user(user))

    async def create_dm(self, request: web.Request) -> web.Response:
        """POST /users/@me/channels: the DM channel with a user (created once; every
        request counts against the DM budget, `Core.dms`)."""
        body = await self._body(request)
        try:
            user_id = int(body.json.get("recipient_id"))  # type: ignore[arg-type]
        except (TypeError, ValueError):
            raise form_error(
                field_error(("recipient_id",), "BASE_TYPE_REQUIRED", "This field is required")
            ) from None
        if user_id not in self.core.world.users:
            raise not_found(JsonErrorCode.UNKNOWN_USER, "User")
        self.core.dms.open()  # 429 beyond the DM budget (standin/dm_limits.py)
        channel = dm_channel(self.core, user_id)
        return json_response(self.core.payloads.channel(channel))

    async def get_application(self, request: web.Request) -> web.Response:
        """GET /oauth2/applications/@me."""
        return json_response(self.core.payloads.application())

    async def get_gateway(self, request: web.Request) -> web.Response:
        """GET /gateway."""
        return json_response({"url": self.urls()[1]})

    async def get_gateway_bot(self, request: web.Request) -> web.Response:
        """GET /gateway/bot (what sharded clients ask first)."""
        return json_response(
            {
                "url": self.urls()[1],
                "shards": self.shards(),
                "session_start_limit": {
                    "total": 1000,
                    "remaining": 999,
                    "reset_after": 0,
                    "max_concurrency": 1,
                },
            }
        )
