"""`python -m bot run` with a database it cannot use: the real bot logs in to the local
stand-in, opens the database in its start-up and stops with one line on standard error
that names the file, the cause and the advice (status 2), never a traceback."""

from __future__ import annotations

import asyncio
import os
import re
import sqlite3
import sys
from pathlib import Path

from standin import StandIn
from storage import Cause, NewGame, Seat, Storage

ROOT = Path(__file__).resolve().parents[2]
RUN_WITHOUT_CAPABILITIES = (
    "import sys; from tests.support.database_child import drop_capabilities; "
    "drop_capabilities(); from bot.__main__ import main; sys.exit(main(['run']))"
)


async def _database(path: Path) -> None:
    async with await Storage.open(path) as store:
        await store.games.create(NewGame("italian", 1, 1, Seat.human(1), Seat.human(2),
                                         "W:W21,22:B11,12"))


async def _run_bot(database: Path, *, unprivileged: bool = False) -> tuple[int, str]:
    async with StandIn() as standin:
        await standin.add_guild("Dama Club", channels=("general",))
        env = {k: v for k, v in os.environ.items() if not k.startswith(("DAMA_", "DISCORD_"))}
        env.update(PYTHONPATH=str(ROOT), DAMA_DATABASE=str(database),
                   DISCORD_TOKEN=standin.token, DAMA_DISCORD_URL=standin.url)
        command = (["-c", RUN_WITHOUT_CAPABILITIES] if unprivileged
                   else ["-m", "bot", "run"])
        process = await asyncio.create_subprocess_exec(
            sys.executable, *command, cwd=ROOT, env=env,
            stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
        )
        _, err = await asyncio.wait_for(process.communicate(), timeout=90)
    assert process.returncode is not None
    return process.returncode, err.decode()


def _one_line(err: str, database: Path, cause: Cause) -> str:
    assert "Traceback" not in err, err
    lines = [line for line in err.splitlines() if line.startswith("dama-bot:")]
    assert len(lines) == 1, err
    line = lines[0]
    assert str(database) in line and cause.advice in line, line
    return line


async def test_damaged_database_stops_the_bot_with_one_line(tmp_path: Path) -> None:
    database = tmp_path / "dama.sqlite3"
    await _database(database)
    with sqlite3.connect(database) as conn:
        conn.execute("DROP TABLE moves")
    code, err = await _run_bot(database)
    assert code == 2
    line = _one_line(err, database, Cause.DAMAGED)
    assert "table moves is missing" in line and "backup" in line


async def test_unwritable_database_is_found_at_start(tmp_path: Path) -> None:
    # Once the bot started and failed at every /move; now the write probe stops it with
    # advice about permissions, never about backups.
    database = tmp_path / "dama.sqlite3"
    await _database(database)
    database.chmod(0o444)
    code, err = await _run_bot(database, unprivileged=True)
    assert code == 2
    line = _one_line(err, database, Cause.NOT_WRITABLE)
    assert "backup" not in line and "permission" in line


async def test_a_started_bot_logs_no_voice_warning(tmp_path: Path) -> None:
    # discord.py warns at every client it makes without PyNaCl and davey (voice libraries
    # this bot never needs, so not installed): `bot.app.run` turns those warnings off.
    from importlib.util import find_spec

    assert find_spec("nacl") is None and find_spec("davey") is None, (
        "a voice library is installed here, so this test could not see the warning"
    )
    async with StandIn() as standin:
        await standin.add_guild("Dama Club", channels=("general",))
        env = {k: v for k, v in os.environ.items() if not k.startswith(("DAMA_", "DISCORD_"))}
        env.update(PYTHONPATH=str(ROOT), DAMA_DATABASE=str(tmp_path / "dama.sqlite3"),
                   DISCORD_TOKEN=standin.token, DAMA_DISCORD_URL=standin.url)
        process = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "bot", "run", cwd=ROOT, env=env,
            stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
        )
        try:
            await standin.wait_until_connected(timeout=90)
            await standin.wait_for_commands(("move",), timeout=90)
        finally:
            process.terminate()
            _, err = await asyncio.wait_for(process.communicate(), timeout=60)
    log = err.decode()
    assert process.returncode == 0, log
    assert "logging in using static token" in log, log  # discord.py logged at INFO
    assert "voice will NOT be supported" not in log, log
    assert "PyNaCl" not in log and "davey" not in log, log
    # The invite URL, with the permissions of docs/OPERATING.md, "Invite and run" (bits from
    # Discord's Permissions table: View Channel 10, Send Messages 11, Embed Links 14, Attach
    # Files 15, Read Message History 16, Create Public Threads 35, Send Messages in
    # Threads 38).
    bits = (1 << 10) | (1 << 11) | (1 << 14) | (1 << 15) | (1 << 16) | (1 << 35) | (1 << 38)
    assert bits == 309237763072
    assert (f"https://discord.com/oauth2/authorize?client_id={standin.application_id}"
            f"&scope=bot+applications.commands&permissions={bits}") in log, log


async def test_the_invite_permissions_are_enough_for_a_whole_game(tmp_path: Path) -> None:
    # The bot's role may do exactly what the invite asks for: challenge, accept (the bot
    # posts the board itself), moves, a draw offer, resignation all work.
    from bot.app import INVITE_PERMISSIONS
    from localplay.server import LocalDiscord
    from localplay.session import TerminalSession
    from tests.support.local_discord import ANSWER_TIMEOUT, READY_TIMEOUT

    out: list[str] = []
    permissions = INVITE_PERMISSIONS.value
    local = LocalDiscord(database=tmp_path / "bot.sqlite3", log_path=tmp_path / "bot.log",
                         ready_timeout=READY_TIMEOUT, bot_permissions=permissions)
    async with local, TerminalSession(local, boards_dir=tmp_path / "boards", emit=out.append,
                              timeout=ANSWER_TIMEOUT) as session:
        assert local.guild is not None
        guild = local.standin.world.guilds[local.guild.id]
        assert [r.permissions for r in guild.roles.values() if r.managed] == [permissions]
        # @everyone (which the bot has too) only sees channels and uses commands.
        guild.roles[guild.id].permissions = (1 << 10) | (1 << 31)
        for line in ("/challenge @bob italian color:white", "as bob", "press Accept",
                     "as alice", "/move 22-18", "as bob", "/move 11-15", "press Offer draw",
                     "/resign", "press Resign", "in games", "/play italian level:1 color:white",
                     "/move 22-18"):
            assert await session.run_line(line), "\n".join(out[-20:])
        await session.finish()
    text = "\n".join(out)
    assert session.failures == 0 and "the game begins" in text and "resigned" in text, text
    # The computer's answer is the bot's own post (no interaction), picture and embed.
    own = [i for i, line in enumerate(out)
           if line.startswith("--- [") and line.endswith("dama-bot in #games ---")]
    assert own, text
    assert any("saved to" in line for line in out[own[-1]:]), text
    assert not local.standin.internal_errors
    assert "Missing Permissions" not in (tmp_path / "bot.log").read_text(encoding="utf-8")


def test_the_env_example_gives_the_invite_permissions_the_bot_asks_for() -> None:
    from bot.app import INVITE_PERMISSIONS

    example = (ROOT / ".env.example").read_text(encoding="utf-8")
    assert re.findall(r"permissions=(\d+)", example) == [str(INVITE_PERMISSIONS.value)]


def test_the_install_url_asks_for_a_user_install_with_commands_only() -> None:
    from urllib.parse import parse_qs, urlsplit

    from bot.app import install_url

    url = urlsplit(install_url(1234))
    assert (url.scheme, url.netloc, url.path) == ("https", "discord.com", "/oauth2/authorize")
    query = parse_qs(url.query)
    assert query == {"client_id": ["1234"], "integration_type": ["1"],
                     "scope": ["applications.commands"]}
