"""Secrets out of the log: one `logging.Filter` that rewrites every record it sees.

At DEBUG, discord.py logs every gateway event as a Python dict (`gateway.py`: "WebSocket
Event: %s"), so each INTERACTION_CREATE's `token`, and every REST and webhook request by
its URL (`http.py`: "%s %s with %s has returned %s"; `webhook/async_.py`), and
interaction URLs carry the interaction token (`/interactions/{id}/{token}/callback`,
`/webhooks/{application id}/{token}/...`). Anyone holding an interaction token can post
as the bot for 15 minutes; the bot token is worth everything. This filter replaces, in
the formatted message, the exception text and the stack text of each record:

- the value of any `token` key, in a dict's repr (`'token': '...'`) or JSON
  (`"token": "..."`);
- the token part of webhook and interaction URLs (`/webhooks/{id}/[redacted]`,
  `/interactions/{id}/[redacted]`), so webhook URLs are redacted whatever they serve;
- Discord's interaction tokens anywhere (they start with `aW50ZXJhY3Rpb246`, base64 of
  "interaction:");
- the configured bot token wherever it appears, and any text shaped like a Discord bot
  token (three dot-separated base64 parts, the first encoding a user id).

`install_redaction(handler, secrets)` adds it to the handler the bot logs through
(`bot.app.run` does so for `discord.utils.setup_logging`'s handler): a filter on a handler
sees the records of every logger, at every level, which a filter on a logger would not.
"""

from __future__ import annotations

import logging
import re
import traceback
from collections.abc import Iterable

REDACTED = "[redacted]"

_PATTERNS: tuple[tuple[re.Pattern[str], str], ...] = (
    # 'token': 'value' (a dict's repr) and "token": "value" (JSON), any quoting of either.
    (re.compile(r"""(['"]token['"]\s*:\s*)(['"])(?:(?!\2).)+\2"""), rf"\1\2{REDACTED}\2"),
    # Webhook and interaction URLs: the part after the id is the token.
    (re.compile(r"(/webhooks/\d+/)[^/?#\s'\"]+"), rf"\1{REDACTED}"),
    (re.compile(r"(/interactions/\d+/)[^/?#\s'\"]+"), rf"\1{REDACTED}"),
    # Discord interaction tokens, wherever they appear ("interaction:" in base64).
    (re.compile(r"aW50ZXJhY3Rpb246[A-Za-z0-9+/=_-]+"), REDACTED),
    # Discord bot tokens: base64 user id . base64 timestamp . HMAC.
    (re.compile(r"\b[MNO][A-Za-z\d_-]{23,27}\.[A-Za-z\d_-]{6}\.[A-Za-z\d_-]{27,}"), REDACTED),
)


def redact(text: str, secrets: Iterable[str] = ()) -> str:
    """`text` with every secret described in the module docstring replaced by
    `[redacted]`; `secrets` are literal values (the bot token) replaced wherever they
    appear. Secrets shorter than 8 characters are ignored (they would match words)."""
    for secret in secrets:
        if len(secret) >= 8:
            text = text.replace(secret, REDACTED)
    for pattern, replacement in _PATTERNS:
        text = pattern.sub(replacement, text)
    return text


class RedactingFilter(logging.Filter):
    """Rewrites each record so that it holds no secret (see `redact`); drops nothing.

    The message is formatted once (`record.getMessage()`), redacted and stored as
    `record.msg` with no arguments; an exception's and a stack's text are formatted and
    redacted into `record.exc_text` and `record.stack_info`, which formatters use as is.
    """

    def __init__(self, secrets: Iterable[str] = ()) -> None:
        super().__init__()
        self.secrets = tuple(secret for secret in secrets if secret)

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        cleaned = redact(message, self.secrets)
        if cleaned != message or record.args:
            record.msg, record.args = cleaned, None
        if record.exc_info and not record.exc_text:
            record.exc_text = "".join(traceback.format_exception(*record.exc_info)).rstrip("\n")
        if record.exc_text:
            record.exc_text = redact(record.exc_text, self.secrets)
        if record.stack_info:
            record.stack_info = redact(record.stack_info, self.secrets)
        return True


def install_redaction(handler: logging.Handler, secrets: Iterable[str] = ()) -> RedactingFilter:
    """Add a `RedactingFilter` for `secrets` (and the shapes of all Discord secrets) to
    `handler`; returns it."""
    redacting = RedactingFilter(secrets)
    handler.addFilter(redacting)
    return redacting
