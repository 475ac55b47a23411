"""Secrets out of the log (`bot/log_redaction.py`): interaction tokens, webhook URLs and
the bot token never reach the log, at any level, while the lines around them stay.

The lines tested first are those discord.py writes (its `gateway.py`, `http.py` and
`webhook/async_.py` format strings); the last test runs the real bot process at
`DAMA_LOG_LEVEL=DEBUG` against the local stand-in, plays a game's first steps and reads
its whole log; another runs it on PostgreSQL with a password in `DAMA_DATABASE`.
"""

from __future__ import annotations

import io
import logging
from pathlib import Path

import pytest

from bot.log_redaction import REDACTED, RedactingFilter, install_redaction, redact
from localplay.server import LocalDiscord
from storage import DatabaseFileError, PostgresDatabase
from tests.support.postgres import ACCOUNT, DATABASE, PostgresServer

INTERACTION_TOKEN = "aW50ZXJhY3Rpb246MTE0NTEzMDMwNTpzZWNyZXQtdG9rZW4tdmFsdWU"
BOT_TOKEN = "MTA4OTk4NzY1NDMyMTAxMjM0NQ.GaBcDe.abcdefghijklmnopqrstuvwxyz0123456"
STANDIN_TOKEN = "standin.Zm9vYmFyYmF6cXV4cXV1eA"  # another shape: only known by value


def test_gateway_event_dump_keeps_everything_but_the_token() -> None:
    event = {"t": "INTERACTION_CREATE", "s": 7, "op": 0,
             "d": {"id": "1190000000000000001", "token": INTERACTION_TOKEN, "type": 2}}
    record = logging.LogRecord("discord.gateway", logging.DEBUG, __file__, 1,
                               "For Shard ID %s: WebSocket Event: %s", (None, event), None)
    line = redact(record.getMessage())  # discord.py's line, formatted as logging does
    assert INTERACTION_TOKEN not in line
    assert f"'token': '{REDACTED}'" in line
    assert "'t': 'INTERACTION_CREATE'" in line and "'id': '1190000000000000001'" in line


def test_rest_and_webhook_urls_lose_their_token() -> None:
    plain = "tok3n-With_chars.9"
    callback = ("POST https://discord.com/api/v10/interactions/1190000000000000001/"
                f"{plain}/callback with None has returned 204")
    webhook = ("Webhook ID 1089987654321012345 with PATCH https://discord.com/api/v10/"
               f"webhooks/1089987654321012345/{plain}/messages/@original has returned "
               "status code 200")
    for line in (callback, webhook):
        cleaned = redact(line)
        assert plain not in cleaned and REDACTED in cleaned
        assert cleaned.startswith(line.split(plain)[0]) and cleaned.endswith(line.split(plain)[1])


def test_json_bodies_bot_tokens_and_interaction_tokens_anywhere() -> None:
    assert redact('{"type": 4, "token": "abc123secret"}') == f'{{"type": 4, "token": "{REDACTED}"}}'
    assert redact(f"Authorization: Bot {BOT_TOKEN}") == f"Authorization: Bot {REDACTED}"
    assert redact(f"x={INTERACTION_TOKEN};") == f"x={REDACTED};"
    assert redact(f"token is {STANDIN_TOKEN}.", [STANDIN_TOKEN]) == f"token is {REDACTED}."
    assert redact("a token word and tokens: none") == "a token word and tokens: none"


def _logger_with_filter(secrets: list[str]) -> tuple[logging.Logger, io.StringIO]:
    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    handler.setFormatter(logging.Formatter("%(levelname)s %(name)s %(message)s"))
    install_redaction(handler, secrets)
    logger = logging.getLogger("test.redaction")
    logger.handlers = [handler]
    logger.propagate = False
    logger.setLevel(logging.DEBUG)
    return logger, stream


def test_filter_on_the_handler_covers_every_level_arguments_and_exceptions() -> None:
    logger, stream = _logger_with_filter([STANDIN_TOKEN])
    for level in (logging.DEBUG, logging.INFO, logging.WARNING, logging.ERROR,
                  logging.CRITICAL):
        logger.log(level, "settings %s, event %s", {"token": STANDIN_TOKEN},
                   {"token": INTERACTION_TOKEN})
    try:
        raise RuntimeError(f"request failed: /webhooks/1/{INTERACTION_TOKEN}/messages")
    except RuntimeError:
        logger.exception("posting the board failed (token %s)", STANDIN_TOKEN)
    logger.debug("stack", stack_info=True, extra={"x": STANDIN_TOKEN})
    text = stream.getvalue()
    assert STANDIN_TOKEN not in text and INTERACTION_TOKEN not in text
    assert text.count("settings {'token': '[redacted]'}, event {'token': '[redacted]'}") == 5
    assert "Traceback" in text and "RuntimeError: request failed: /webhooks/1/[redacted]" in text
    assert "posting the board failed (token [redacted])" in text


def test_filter_drops_nothing() -> None:
    record = logging.LogRecord("x", logging.INFO, __file__, 1, "plain %d", (5,), None)
    assert RedactingFilter(["secret-value"]).filter(record) is True
    assert record.getMessage() == "plain 5"


async def test_real_bot_at_debug_logs_no_secret(tmp_path: Path) -> None:
    """The bot at DEBUG against the stand-in: a challenge, its acceptance (a button), a
    move with its board picture (a deferred answer edited through the webhook) and a
    resignation. No interaction token and not the bot token appear in the whole log,
    while discord.py's gateway dumps and request lines are there, redacted."""
    log_path = tmp_path / "bot.log"
    local = LocalDiscord(database=tmp_path / "bot.sqlite3", log_path=log_path,
                         env={"DAMA_LOG_LEVEL": "DEBUG"}, ready_timeout=90.0)
    async with local:
        standin = local.standin
        made = await standin.slash("alice", "games", "challenge",
                                   {"opponent": "bob", "variant": "italian", "color": "white"},
                                   timeout=30)
        started = await standin.press("bob", made.reply, "Accept", timeout=30)
        moved = await standin.slash("alice", "games", "move", {"move": "22-18"}, timeout=30)
        assert moved.reply.attachments, "the move's answer has the board picture"
        await standin.press("bob", moved.reply, "Resign", timeout=30)
        tokens = [state.token for state in standin.core.interactions.values()]
        bot_token = standin.token
        ids = [made.interaction_id, started.interaction_id, moved.interaction_id]
    log = log_path.read_text(encoding="utf-8", errors="replace")
    assert len(tokens) >= 4 and all(len(token) > 20 for token in tokens)
    leaked = [token for token in tokens if token in log]
    assert not leaked, f"{len(leaked)} interaction tokens in the log"
    assert bot_token not in log
    # The surrounding lines are still there, with the secrets replaced.
    assert "WebSocket Event" in log and "INTERACTION_CREATE" in log
    assert f"'token': '{REDACTED}'" in log
    assert any(f"/interactions/{ident}/{REDACTED}/callback" in log for ident in ids)
    assert f"/webhooks/{standin.application_id}/{REDACTED}" in log
    assert "DEBUG" in log and "Traceback" not in log


PASSWORD_ROLE = "dama_redaction"
"""A PostgreSQL role of the test server that must give its password (the server's other
connections are trusted without one)."""


def _role_with_password(server: PostgresServer, password: str) -> str:
    """Make `PASSWORD_ROLE` log in only with `password` (SCRAM over the unix socket) and
    own a new schema; returns the URL of that schema, the password in it."""
    hba = server.folder / "data" / "pg_hba.conf"
    rule = f"local all {PASSWORD_ROLE} scram-sha-256\n"
    if not hba.read_text().startswith(rule):
        hba.write_text(rule + hba.read_text())  # the first matching line decides
        server.sql("SELECT pg_reload_conf()")
        server.sql(f"CREATE ROLE {PASSWORD_ROLE} LOGIN")
    server.sql(f"ALTER ROLE {PASSWORD_ROLE} PASSWORD '{password}'")
    url = server.new_database()
    schema = url.rpartition("search_path=")[2]
    server.sql(f"ALTER SCHEMA {schema} OWNER TO {PASSWORD_ROLE}", DATABASE)
    return url.replace(f"{ACCOUNT}@", f"{PASSWORD_ROLE}:{password}@", 1)


async def test_real_bot_at_debug_on_postgresql_never_logs_the_database_password(
    tmp_path: Path, postgres_server: PostgresServer,
) -> None:
    """The bot at DEBUG on a PostgreSQL database whose server asks for the password in
    `DAMA_DATABASE`: the password appears nowhere in its log, even where a player typed it
    (discord.py logs every gateway event whole at DEBUG), so `bot.app.run` filters the
    log with the database's secrets."""
    password = "Pg-s3cret-7Qx9-wk"
    url = _role_with_password(postgres_server, password)
    log_path = tmp_path / "bot.log"
    try:
        with pytest.raises(DatabaseFileError, match="password authentication failed"):
            await PostgresDatabase.open(url.replace(password, "wrong-password"))
        local = LocalDiscord(database=url, log_path=log_path,
                             env={"DAMA_LOG_LEVEL": "DEBUG"}, ready_timeout=90.0)
        async with local:
            standin = local.standin
            await standin.slash("alice", "games", "challenge",
                                {"opponent": "bob", "variant": "italian"}, timeout=30)
            typed = await standin.slash("alice", "games", "move", {"move": password},
                                        timeout=30)
            assert typed.ephemeral
    finally:
        postgres_server.drop_database(url)
    log = log_path.read_text(encoding="utf-8", errors="replace")
    assert password not in log
    assert "WebSocket Event" in log and f"'value': '{REDACTED}'" in log
    assert "DEBUG" in log and "Traceback" not in log
