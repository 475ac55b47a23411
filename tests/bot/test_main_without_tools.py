"""`dama-bot` where the development tools (`standin`, `localplay`) are not installed: the
bot's entry point and its parser import neither, so `run` works; local play, asked for,
says what to install instead of failing with a traceback."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from tests.support.tools_blocked import blocking_path

ROOT = Path(__file__).resolve().parents[2]


def _python(args: list[str], tmp_path: Path, **env: str) -> subprocess.CompletedProcess[str]:
    """`python ARGS` in `tmp_path` with the tools blocked, and no DAMA_/DISCORD_ settings
    of ours (the child reads no `.env`: its working folder has none)."""
    environment = {k: v for k, v in os.environ.items() if not k.startswith(("DAMA_", "DISCORD_"))}
    environment["PYTHONPATH"] = os.pathsep.join([str(blocking_path(tmp_path / "site")),
                                                 str(ROOT)])
    environment["DAMA_DATABASE"] = str(tmp_path / "bot.sqlite3")
    environment.update(env)
    return subprocess.run([sys.executable, *args], cwd=tmp_path, env=environment,
                          capture_output=True, text=True, timeout=120, check=False)


def test_the_blocked_tools_cannot_be_imported(tmp_path: Path) -> None:
    """The harness itself: in such a process `localplay` and `standin` are missing."""
    for name in ("localplay.cli", "standin"):
        done = _python(["-c", f"import {name}"], tmp_path)
        assert done.returncode == 1
        assert f"No module named '{name.partition('.')[0]}'" in done.stderr


def test_run_help_needs_no_tool(tmp_path: Path) -> None:
    done = _python(["-m", "bot", "run", "--help"], tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("usage: dama-bot run")
    listing = _python(["-m", "bot", "--help"], tmp_path)
    assert listing.returncode == 0 and "{run,web,local,db}" in listing.stdout, listing.stderr
    copy = _python(["-m", "bot", "db", "copy", "--help"], tmp_path)
    assert copy.returncode == 0 and copy.stdout.startswith("usage: dama-bot db copy"), \
        copy.stderr


def test_run_with_a_token_reaches_its_settings_without_the_tools(tmp_path: Path) -> None:
    # The whole bot is imported (bot.app) and the settings read; a bad one stops it with
    # its one-line reason, as where every package is installed.
    done = _python(["-m", "bot", "run"], tmp_path, DISCORD_TOKEN="x", DAMA_DEV_GUILD="abc")
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1 and "DAMA_DEV_GUILD" in done.stderr, done.stderr


def test_local_play_without_the_tools_says_what_to_install(tmp_path: Path) -> None:
    for args in (["local", "--fresh"], []):  # no subcommand and no token: local play
        done = _python(["-m", "bot", *args], tmp_path)
        assert done.returncode == 2, (args, done.stderr)
        assert "Traceback" not in done.stderr
        assert "local play needs the `localplay` and `standin` packages" in done.stderr
        assert "DISCORD_TOKEN" in done.stderr
