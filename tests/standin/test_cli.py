"""`python -m standin`: serves until interrupted; a taken port is a clear error."""

from __future__ import annotations

import asyncio
import signal
import socket
import sys

import aiohttp
import pytest

from standin.__main__ import main


async def test_serves_until_interrupted() -> None:
    proc = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "standin",
        "--port",
        "0",
        "--token",
        "cli-token",
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    try:
        assert proc.stdout is not None
        first = (await asyncio.wait_for(proc.stdout.readline(), 30)).decode()
        assert first.startswith("Discord stand-in at http://127.0.0.1:")
        url = first.split()[3]
        # where any discord.py bot must connect: REST base, gateway, the token it accepts
        second = (await asyncio.wait_for(proc.stdout.readline(), 30)).decode()
        ws = url.replace("http://", "ws://")
        assert second.split() == ["REST", "base", f"{url}/api/v10,", "gateway",
                                  f"{ws}/gateway,", "bot", "token", "cli-token"]
        headers = {"Authorization": "Bot cli-token"}
        async with (
            aiohttp.ClientSession(headers=headers) as http,
            http.get(f"{url}/api/v10/users/@me") as resp,
        ):
            assert resp.status == 200 and (await resp.json())["bot"] is True
        proc.send_signal(signal.SIGINT)
        assert await asyncio.wait_for(proc.wait(), 30) == 0
    finally:
        if proc.returncode is None:
            proc.kill()
            await proc.wait()


def test_taken_port_is_reported(capsys: pytest.CaptureFixture[str]) -> None:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        sock.listen()
        port = sock.getsockname()[1]
        assert main(["--port", str(port)]) == 2
    assert "choose another --port" in capsys.readouterr().err
