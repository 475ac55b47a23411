"""`python -m bot` (`bot/__main__.py`, `bot/app.py`): one-line explanations instead of
tracebacks."""

from __future__ import annotations

import asyncio
import os
import sys
from pathlib import Path

import pytest
from aiohttp import web

from bot.app import run as run_app
from bot.config import Config

ROOT = Path(__file__).resolve().parents[2]


async def _bot(env: dict[str, str], cwd: Path) -> tuple[int, str, str]:
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bot", "run", cwd=cwd, env=env,
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
    )
    out, err = await asyncio.wait_for(process.communicate(), timeout=60)
    assert process.returncode is not None
    return process.returncode, out.decode(), err.decode()


def _env(tmp_path: Path, **values: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DAMA_", "DISCORD_"))}
    env["PYTHONPATH"] = str(ROOT)
    env["DAMA_DATABASE"] = str(tmp_path / "db.sqlite3")
    env.update(values)
    return env


def test_missing_token_explains_what_to_set(capsys: pytest.CaptureFixture[str]) -> None:
    # `python -m bot` without a token starts the local mode; `bot.app.run`, the
    # Discord runner, refuses with one line.
    assert run_app(Config(token=None)) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "DISCORD_TOKEN is not set" in err and ".env" in err


async def test_bad_setting_is_one_line(tmp_path: Path) -> None:
    code, _, err = await _bot(_env(tmp_path, DISCORD_TOKEN="x", DAMA_DEV_GUILD="abc"), tmp_path)
    assert code == 2 and err.count("\n") == 1 and "DAMA_DEV_GUILD" in err


async def test_rejected_token_is_one_line(tmp_path: Path) -> None:
    async def unauthorized(request: web.Request) -> web.Response:
        return web.Response(status=401, text='{"message": "401: Unauthorized", "code": 0}',
                            content_type="application/json")

    app = web.Application()
    app.router.add_route("*", "/{tail:.*}", unauthorized)
    runner = web.AppRunner(app)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
    try:
        env = _env(tmp_path, DISCORD_TOKEN="wrong", DAMA_DISCORD_URL=f"http://127.0.0.1:{port}")
        code, _, err = await _bot(env, tmp_path)
    finally:
        await runner.cleanup()
    assert code == 2
    lines = [line for line in err.splitlines() if line.startswith("dama-bot:")]
    assert len(lines) == 1 and "rejected DISCORD_TOKEN" in lines[0]
    assert "Traceback" not in err


async def test_discord_out_of_reach_is_one_line(tmp_path: Path) -> None:
    # Nothing listens on port 1: the operator gets one line saying what to check, not an
    # aiohttp traceback.

    env = _env(tmp_path, DISCORD_TOKEN="x", DAMA_DISCORD_URL="http://127.0.0.1:1")
    code, _, err = await _bot(env, tmp_path)
    assert code == 2 and "Traceback" not in err
    assert "cannot connect to Discord at 127.0.0.1:1" in err.strip().splitlines()[-1]


async def test_run_without_a_token_says_it_needs_one(tmp_path: Path) -> None:
    # `dama-bot run` connects to Discord; without a token it must not start anything else
    # (local play once started here silently, read an empty standard input and exited 0).
    env = _env(tmp_path, DISCORD_TOKEN="")
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bot", "run", cwd=tmp_path, env=env,
        stdin=asyncio.subprocess.DEVNULL,
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
    )
    out, err = await asyncio.wait_for(process.communicate(), timeout=60)
    text = err.decode()
    assert process.returncode == 2, text
    assert out == b"" and text.count("\n") == 1, text
    assert "DISCORD_TOKEN is not set" in text and "dama-bot local" in text


def test_run_and_local_help_describe_them(capsys: pytest.CaptureFixture[str]) -> None:
    from bot.__main__ import main

    with pytest.raises(SystemExit) as done:
        main(["run", "--help"])
    assert done.value.code == 0
    text = capsys.readouterr().out
    assert text.startswith("usage: dama-bot run")
    for needed in ("DISCORD_TOKEN", "DAMA_DATABASE", "Exit status", "dama-bot local"):
        assert needed in text, needed
    with pytest.raises(SystemExit) as done:
        main(["local", "--help"])
    assert done.value.code == 0
    text = capsys.readouterr().out
    assert text.startswith("usage: dama-bot local")
    for needed in ("stand-in", "--script", "--replay", "--fresh", "quit"):
        assert needed in text, needed


def test_the_help_names_every_variant_and_the_web_command(
        capsys: pytest.CaptureFixture[str]) -> None:
    from bot.__main__ import main
    from engine import VARIANTS

    with pytest.raises(SystemExit) as done:
        main(["--help"])
    assert done.value.code == 0
    text = " ".join(capsys.readouterr().out.split())  # argparse wraps lines
    for variant in VARIANTS.values():
        assert variant.name in text, variant.name
    assert "web serve the game pages on the web" in text
