"""The REST API's answers and what its handlers read from a request: JSON and empty
answers, integer fields of a body, snowflakes of a path (Discord docs, Reference)."""

from __future__ import annotations

import json
from typing import Any

from aiohttp import web

from .errors import JsonErrorCode, field_error, form_error, not_found


def json_response(data: Any, status: int = 200) -> web.Response:
    """A JSON answer with `Content-Type: application/json` and nothing after it."""
    return web.Response(
        status=status,
        body=json.dumps(data, separators=(",", ":")).encode(),
        headers={"Content-Type": "application/json"},
    )


def no_content() -> web.Response:
    """204 No Content."""
    return web.Response(status=204)


def int_field(data: dict[str, Any], path: tuple[str, ...], default: int) -> int:
    """An integer field of a JSON body (nested by `path`); 400 Invalid Form Body otherwise."""
    value: Any = data
    for key in path:
        value = value.get(key) if isinstance(value, dict) else None
    if value is None:
        return default
    try:
        return int(value)
    except (TypeError, ValueError):
        raise form_error(
            field_error(path, "NUMBER_TYPE_COERCE", f'Value "{value}" is not int.')
        ) from None


def permissions_string(value: Any) -> str | None:
    """A permission bit set as Discord answers it: a decimal string (an integer is accepted
    in requests; Discord developer docs, Topics > Permissions)."""
    return None if value is None else str(int(value))


def snowflake(request: web.Request, name: str, code: JsonErrorCode, what: str) -> int:
    """The snowflake in the path parameter `name`; 404 with `code` (Unknown `what`) when it
    is not a number, as Discord answers."""
    try:
        return int(request.match_info[name])
    except ValueError:
        raise not_found(code, what) from None
