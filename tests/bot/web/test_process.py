"""`dama-bot web` (`bot.web.process`): the web face in its own process on the bot's
database, read-only composition, started and stopped for real."""

from __future__ import annotations

import asyncio
import os
import signal
import socket
import sys
from pathlib import Path

import aiohttp

from bot.config import Config
from bot.services.web_access import SECRET_NAME, WebAddress, WebSettings
from bot.web.process import DEFAULT_ADDRESS, web_process, web_settings
from storage import Storage
from tests.support.services import OpenServices


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def test_it_listens_on_the_loopback_port_8080_unless_told() -> None:
    assert web_settings(Config()).address == DEFAULT_ADDRESS
    only_url = Config(web=WebSettings(address=None, url="https://dama.example.org"))
    assert web_settings(only_url).address == DEFAULT_ADDRESS
    assert web_settings(only_url).url == "https://dama.example.org"
    told = WebSettings(address=WebAddress("0.0.0.0", 9000), url="http://x")
    assert web_settings(Config(web=told)).address == WebAddress("0.0.0.0", 9000)


async def test_it_serves_the_bot_s_database_and_shares_its_secret(
        open_services: OpenServices, tmp_path: Path) -> None:
    services = await open_services()
    path = tmp_path / "db.sqlite3"
    config = Config(database=str(path))
    async with web_process(config, address=WebAddress("127.0.0.1", 0)) as server, \
            aiohttp.ClientSession(f"http://127.0.0.1:{server.port}") as client:
        assert await (await client.get("/health")).text() == "ok"
        # the secret it made is the one the bot's processes will sign with
        assert SECRET_NAME in await services.storage.settings.bot_values()
        assert (await client.get("/games/999999")).status == 404


async def test_the_command_serves_until_it_is_stopped(tmp_path: Path) -> None:
    async with await Storage.open(tmp_path / "db.sqlite3"):
        pass
    port = _free_port()
    env = {**os.environ, "DAMA_DATABASE": str(tmp_path / "db.sqlite3"),
           "DAMA_WEB_ADDRESS": f"127.0.0.1:{port}", "DISCORD_TOKEN": ""}
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bot", "web", env=env, cwd=tmp_path,
        stderr=asyncio.subprocess.PIPE)
    try:
        assert process.stderr is not None
        line = await asyncio.wait_for(process.stderr.readline(), 30)
        while b"Game pages:" not in line:
            line = await asyncio.wait_for(process.stderr.readline(), 30)
        assert f"http://127.0.0.1:{port}/".encode() in line
        async with aiohttp.ClientSession() as client:
            answer = await client.get(f"http://127.0.0.1:{port}/health")
            assert await answer.text() == "ok"
        process.send_signal(signal.SIGTERM)
        assert await asyncio.wait_for(process.wait(), 30) == 0
    finally:
        if process.returncode is None:
            process.kill()
            await process.wait()


async def test_a_taken_address_is_one_line(tmp_path: Path) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        env = {**os.environ, "DAMA_DATABASE": str(tmp_path / "db.sqlite3"),
               "DAMA_WEB_ADDRESS": f"127.0.0.1:{port}", "DISCORD_TOKEN": ""}
        process = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "bot", "web", env=env, cwd=tmp_path,
            stderr=asyncio.subprocess.PIPE)
        _, error = await asyncio.wait_for(process.communicate(), 60)
    assert process.returncode == 2
    lines = error.decode().strip().splitlines()
    assert lines[-1].startswith(f"dama-bot: web: cannot listen on 127.0.0.1:{port}")
    assert "Traceback" not in error.decode()
