"""Errors of the stand-in: what it answers over HTTP, and what the driver raises.

`ApiError` is an error response exactly as Discord writes it: an HTTP status and a JSON body
`{"code": <JSON error code>, "message": ..., "errors": {...}}` (Discord developer docs,
Topics > Opcodes and Status Codes > JSON Error Codes).
"""

from __future__ import annotations

import enum
from typing import Any


class JsonErrorCode(enum.IntEnum):
    """Discord's JSON error codes that the stand-in returns."""

    GENERAL = 0
    UNKNOWN_CHANNEL = 10003
    UNKNOWN_GUILD = 10004
    UNKNOWN_MEMBER = 10007
    UNKNOWN_MESSAGE = 10008
    UNKNOWN_USER = 10013
    UNKNOWN_WEBHOOK = 10015
    UNKNOWN_INTERACTION = 10062
    UNKNOWN_APPLICATION_COMMAND = 10063
    UNKNOWN_GUILD_SCHEDULED_EVENT = 10070
    INTERACTION_ALREADY_ACKNOWLEDGED = 40060
    MAX_FOLLOW_UP_MESSAGES = 40094
    MAX_APPLICATION_COMMANDS = 30032
    MAX_SCHEDULED_EVENTS = 30038
    REQUEST_ENTITY_TOO_LARGE = 40005
    MISSING_ACCESS = 50001
    CANNOT_EDIT_OTHER_USERS_MESSAGE = 50005
    CANNOT_SEND_EMPTY_MESSAGE = 50006
    CANNOT_SEND_TO_USER = 50007
    MISSING_PERMISSIONS = 50013
    CANNOT_EXECUTE_ON_CHANNEL_TYPE = 50024
    INVALID_WEBHOOK_TOKEN = 50027
    INVALID_FORM_BODY = 50035
    THREAD_ARCHIVED = 50083
    THREAD_ALREADY_CREATED = 160004
    THREAD_LOCKED = 160005
    FINISHED_EVENT = 180000
    UNAUTHORIZED = 40001


class ApiError(Exception):
    """An error answer: HTTP `status`, JSON `code`, `message` and optional field `errors`.

    `errors` follows Discord's nested form: `{"field": {"_errors": [{"code", "message"}]}}`.
    """

    def __init__(
        self,
        status: int,
        code: JsonErrorCode,
        message: str,
        errors: dict[str, Any] | None = None,
    ) -> None:
        super().__init__(f"{status} {message} (code {int(code)})")
        self.status = status
        self.code = code
        self.message = message
        self.errors = errors

    def body(self) -> dict[str, Any]:
        """The JSON body Discord sends with this error."""
        body: dict[str, Any] = {"message": self.message, "code": int(self.code)}
        if self.errors:
            body["errors"] = self.errors
        return body

    def headers(self) -> dict[str, str]:
        """HTTP headers sent with this error (none but a rate limit's)."""
        return {}


class RateLimited(ApiError):
    """429 Too Many Requests as Discord sends it (Topics > Rate Limits): the body's
    `retry_after` (seconds) and `global`, and the `X-RateLimit-*` headers, `Retry-After`
    and `X-RateLimit-Scope` (`user`: this bot's own limit). `Via` is there as on Discord's
    answers: discord.py takes a 429 without it for a Cloudflare ban and does not retry."""

    def __init__(self, retry_after: float, *, bucket: str, limit: int, scope: str = "user",
                 is_global: bool = False) -> None:
        super().__init__(429, JsonErrorCode.GENERAL, "You are being rate limited.")
        self.retry_after = round(max(retry_after, 0.001), 3)
        self.bucket = bucket
        self.limit = limit
        self.scope = scope
        self.is_global = is_global

    def body(self) -> dict[str, Any]:
        """`message`, `code`, `retry_after` and `global` (the RatelimitedResponse)."""
        return {**super().body(), "retry_after": self.retry_after, "global": self.is_global}

    def headers(self) -> dict[str, str]:
        """The rate limit headers of a 429 (Topics > Rate Limits, Header Format)."""
        headers = {
            "Retry-After": str(max(1, round(self.retry_after))),
            "X-RateLimit-Limit": str(self.limit),
            "X-RateLimit-Remaining": "0",
            "X-RateLimit-Reset-After": f"{self.retry_after:.3f}",
            "X-RateLimit-Bucket": self.bucket,
            "X-RateLimit-Scope": self.scope,
            "Via": "1.1 google",
        }
        if self.is_global:
            headers["X-RateLimit-Global"] = "true"
        return headers


def not_found(code: JsonErrorCode, what: str) -> ApiError:
    """404 `Unknown <what>` with `code`, e.g. `not_found(UNKNOWN_MESSAGE, "Message")`."""
    return ApiError(404, code, f"Unknown {what}")


def form_error(errors: dict[str, Any]) -> ApiError:
    """400 Invalid Form Body (50035) with Discord's nested `errors` object. A field with an
    error of its own is reported without its items' errors (an array too long is refused
    before its items are looked at): a node of the tree holds either `_errors` or fields
    (the `ErrorDetails` of Discord's OpenAPI specification)."""
    return ApiError(400, JsonErrorCode.INVALID_FORM_BODY, "Invalid Form Body", _pruned(errors))


def _pruned(errors: dict[str, Any]) -> dict[str, Any]:
    if "_errors" in errors:
        return {"_errors": errors["_errors"]}
    return {key: _pruned(value) for key, value in errors.items()}


def field_error(path: tuple[str | int, ...], code: str, message: str) -> dict[str, Any]:
    """The nested `errors` object for one problem at `path` (keys or list indexes)."""
    node: dict[str, Any] = {"_errors": [{"code": code, "message": message}]}
    for key in reversed(path):
        node = {str(key): node}
    return node


def merge_errors(target: dict[str, Any], extra: dict[str, Any]) -> None:
    """Merge one nested `errors` object into another, in place."""
    for key, value in extra.items():
        if key == "_errors":
            target.setdefault("_errors", []).extend(value)
        else:
            merge_errors(target.setdefault(key, {}), value)


class StandInError(Exception):
    """The driver was used in a way a Discord user could not act (message says what to fix)."""


class NotInstalledError(StandInError):
    """A user used a command their own installation of the app would offer, without
    having installed it to their account (`StandIn.install_for_user`); `user` is their
    username, `command` the command's name."""

    def __init__(self, user: str, command: str) -> None:
        super().__init__(f"{user} has not installed the app to their account "
                         f"(install_for_user), and /{command} is not offered here otherwise")
        self.user = user
        self.command = command


class BotDidNotAnswer(StandInError, TimeoutError):
    """The bot did not answer an interaction in time (the user would see it fail)."""
