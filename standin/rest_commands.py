"""The REST routes of application commands: list, bulk overwrite, create, get, edit,
delete, global and per guild (Discord docs, Application Commands)."""

from __future__ import annotations

from typing import Any

from aiohttp import web

from .bodies import Body, read_body, read_json_any
from .core import Core
from .errors import ApiError, JsonErrorCode, not_found
from .limits import MAX_CHAT_INPUT_COMMANDS, chat_input_count, too_many_commands
from .responses import json_response, no_content, permissions_string, snowflake
from .validation import check_command, check_commands, raise_if


class CommandRoutes:
    """The application-command handlers over `core`'s command tables."""

    def __init__(self, core: Core) -> None:
        self.core = core

    async def _body(self, request: web.Request) -> Body:
        return await read_body(request, max_file_size=self.core.attachment_size_limit)

    def _check_app(self, request: web.Request) -> None:
        if request.match_info["application_id"] != str(self.core.payloads.app.id):
            raise ApiError(403, JsonErrorCode.MISSING_ACCESS, "Missing Access")

    def _command_table(self, request: web.Request) -> tuple[dict[int, dict[str, Any]], int | None]:
        self._check_app(request)
        gid = request.match_info.get("guild_id")
        if gid is None:
            return self.core.global_commands, None
        guild_id = snowflake(request, "guild_id", JsonErrorCode.UNKNOWN_GUILD, "Guild")
        guild = self.core.world.guilds.get(guild_id)
        if guild is None or not guild.bot_installed:
            raise ApiError(403, JsonErrorCode.MISSING_ACCESS, "Missing Access")
        return self.core.guild_commands.setdefault(guild_id, {}), guild_id

    def _normalise(self, cmd: dict[str, Any], ident: int, guild_id: int | None) -> dict[str, Any]:
        out: dict[str, Any] = {
            "id": str(ident),
            "application_id": str(self.core.payloads.app.id),
            "version": str(self.core.world.ids.next()),
            "type": int(cmd.get("type", 1)),
            "name": cmd["name"],
            "name_localizations": cmd.get("name_localizations"),
            "description": cmd.get("description", ""),
            "description_localizations": cmd.get("description_localizations"),
            "options": [dict(o) for o in cmd.get("options") or []],
            "default_member_permissions": permissions_string(
                cmd.get("default_member_permissions")),
            "nsfw": bool(cmd.get("nsfw", False)),
            "contexts": cmd.get("contexts"),
            "integration_types": cmd.get("integration_types") or [0],
        }
        if guild_id is not None:
            out["guild_id"] = str(guild_id)
        else:
            out["dm_permission"] = cmd.get("dm_permission", True)
        return out

    async def list_commands(self, request: web.Request) -> web.Response:
        """GET .../commands."""
        table, _ = self._command_table(request)
        return json_response(list(table.values()))

    async def put_commands(self, request: web.Request) -> web.Response:
        """PUT .../commands: bulk overwrite; a command keeps its id when its name stays."""
        table, guild_id = self._command_table(request)
        commands = await read_json_any(request)
        raise_if(check_commands(commands))
        old = {(c["type"], c["name"]): int(c["id"]) for c in table.values()}
        table.clear()
        for cmd in commands:
            key = (int(cmd.get("type", 1)), cmd["name"])
            ident = old.get(key) or self.core.world.ids.next()
            table[ident] = self._normalise(cmd, ident, guild_id)
        return json_response(list(table.values()))

    async def upsert_command(self, request: web.Request) -> web.Response:
        """POST .../commands: create, or replace the command of that name (200 then)."""
        table, guild_id = self._command_table(request)
        cmd = (await self._body(request)).json
        raise_if(check_command(cmd))
        for ident, existing in table.items():
            if existing["name"] == cmd["name"] and existing["type"] == int(cmd.get("type", 1)):
                table[ident] = self._normalise(cmd, ident, guild_id)
                return json_response(table[ident], 200)
        if chat_input_count([cmd]) and chat_input_count(list(table.values())) >= \
                MAX_CHAT_INPUT_COMMANDS:
            raise too_many_commands()
        ident = self.core.world.ids.next()
        table[ident] = self._normalise(cmd, ident, guild_id)
        return json_response(table[ident], 201)

    def _command(self, request: web.Request) -> tuple[dict[int, dict[str, Any]], int, int | None]:
        table, guild_id = self._command_table(request)
        ident = snowflake(
            request, "command_id", JsonErrorCode.UNKNOWN_APPLICATION_COMMAND, "application command"
        )
        if ident not in table:
            raise not_found(JsonErrorCode.UNKNOWN_APPLICATION_COMMAND, "application command")
        return table, ident, guild_id

    async def get_command(self, request: web.Request) -> web.Response:
        """GET .../commands/{id}."""
        table, ident, _ = self._command(request)
        return json_response(table[ident])

    async def patch_command(self, request: web.Request) -> web.Response:
        """PATCH .../commands/{id}."""
        table, ident, guild_id = self._command(request)
        merged = {**table[ident], **(await self._body(request)).json}
        raise_if(check_command(merged))
        table[ident] = self._normalise(merged, ident, guild_id)
        return json_response(table[ident])

    async def delete_command(self, request: web.Request) -> web.Response:
        """DELETE .../commands/{id}."""
        table, ident, _ = self._command(request)
        del table[ident]
        return no_content()

    async def command_permissions(self, request: web.Request) -> web.Response:
        """GET .../guilds/{id}/commands/permissions (none set)."""
        self._command_table(request)
        return json_response([])
