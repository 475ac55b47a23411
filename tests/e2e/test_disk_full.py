"""The disk under the SQLite database fills up while a game is played, then space is
freed, under the real bot process and the stand-in: a move that cannot be stored is
answered privately that the server cannot save moves right now (`Msg.STORAGE_UNAVAILABLE`),
nothing acknowledged is lost, and once space is freed the same move is taken and the game
goes on (docs/OPERATING.md, "The database at start-up and at run time").

The bot runs in a mount namespace of its own (`unshare --mount`, with a user namespace
too when the tests do not run as root) where a 2 MiB tmpfs is mounted on the database's
folder: the host's mounts are never touched. The test fills that disk and frees it again
through `/proc/<pid>/root`, the bot process's view of the file system.
"""

from __future__ import annotations

import contextlib
import errno
import os
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from bot.messages import Msg, text
from engine import Game, get_variant
from localplay.server import LocalDiscord
from localplay.stored import StoredGames
from standin import InteractionResult, UserInfo
from tests.support.local_discord import ANSWER_TIMEOUT, READY_TIMEOUT
from tests.support.standin_play import move_text, start_game

DISK_SIZE = "2m"

UNSHARE = ("unshare --mount" if os.geteuid() == 0
           else "unshare --user --map-root-user --mount")
"""A new mount namespace: as root (CI) a mount namespace alone, else with a user
namespace, in which the user may mount."""


def _mount_namespaces_available() -> bool:
    """Whether this system lets us make a mount namespace and mount a tmpfs in it."""
    if shutil.which("unshare") is None:
        return False
    completed = subprocess.run(
        [*UNSHARE.split(), "sh", "-c", "mount -t tmpfs -o size=64k tmpfs /mnt"],
        capture_output=True, timeout=30, check=False)
    return completed.returncode == 0


def _in_namespace(folder: Path, wrapper: Path) -> str:
    """Write `wrapper`, a program that runs Python (its arguments passed on) in a new
    mount namespace where a small tmpfs covers `folder`; returns its path."""
    mount = f"mount -t tmpfs -o size={DISK_SIZE} tmpfs {shlex.quote(str(folder))}"
    python = shlex.quote(sys.executable)
    wrapper.write_text(
        "#!/bin/sh\n"
        f"exec {UNSHARE} sh -ec '{mount} && exec {python} \"$@\"' python \"$@\"\n")
    wrapper.chmod(0o755)
    return str(wrapper)


def _fill(filler: Path) -> None:
    """Write `filler` until its disk is full."""
    block = b"\0" * 65536
    with open(filler, "wb", buffering=0) as out:
        try:
            while True:
                out.write(block)
        except OSError as error:
            assert error.errno == errno.ENOSPC, error
    with contextlib.suppress(OSError), open(filler, "ab", buffering=0) as out:
        while True:  # the last few bytes
            out.write(b"\0" * 512)


def _copy_database(folder_fd: int, name: str, target: Path) -> Path:
    """Copy the database file `name` (and its -wal, if any) out of the folder open as
    `folder_fd` into `target`; returns the copy's path. (SQLite itself cannot open it as
    `/proc/<pid>/root/...`: it resolves that link to the host's root.)"""
    target.mkdir()
    for found in os.listdir(folder_fd):
        if found.startswith(name) and not found.endswith("-shm"):
            source = os.open(found, os.O_RDONLY, dir_fd=folder_fd)
            with os.fdopen(source, "rb") as data:
                (target / found).write_bytes(data.read())
    return target / name


async def _move(local: LocalDiscord, user: UserInfo, move: str) -> InteractionResult:
    return await local.standin.slash(user, local.channel, "move", {"move": move},
                                     timeout=ANSWER_TIMEOUT)


async def test_a_full_disk_refuses_moves_loses_none_and_the_game_goes_on_when_freed(
    tmp_path: Path,
) -> None:
    if not _mount_namespaces_available():
        pytest.skip(f"this system does not allow a mount namespace with a tmpfs ({UNSHARE})")
    folder = tmp_path / "small"
    folder.mkdir()
    database = folder / "dama.sqlite3"
    local = LocalDiscord(database=database, log_path=tmp_path / "bot.log",
                         ready_timeout=READY_TIMEOUT)
    local.process.python = _in_namespace(folder, tmp_path / "python-in-namespace")
    variant = get_variant("turkish")
    reference = Game(variant)
    acknowledged: list[str] = []
    async with local:
        pid = local.process.pid
        folder_fd = -1
        try:
            seen = Path(f"/proc/{pid}/root{folder}")  # the folder as the bot sees it
            # Kept open, it keeps the small disk readable after the bot process ends.
            folder_fd = os.open(seen, os.O_RDONLY | os.O_DIRECTORY)
            assert os.statvfs(seen).f_blocks * os.statvfs(seen).f_frsize <= 2 * 1024 * 1024
            alice, bob = local.standin.user("alice"), local.standin.user("bob")
            players = (alice, bob)
            game_id, _ = await start_game(local, local.channel, alice, bob, variant)

            def next_move() -> str:
                position = reference.position
                move = sorted(reference.legal_moves(), key=lambda m: (m.start, m.end))[0]
                return move_text(move, position, variant)

            for _ in range(2):
                move = next_move()
                answer = await _move(local, players[len(acknowledged) % 2], move)
                assert not answer.ephemeral, answer.reply.text()
                reference.play(move)
                acknowledged.append(move)

            _fill(seen / "filler")
            refused: list[str] = []
            for _ in range(20):  # moves may still fit in pages SQLite already has
                move = next_move()
                answer = await _move(local, players[len(acknowledged) % 2], move)
                if answer.ephemeral:
                    assert answer.reply.text() == text(Msg.STORAGE_UNAVAILABLE, "en-US")
                    refused.append(move)
                    break
                reference.play(move)
                acknowledged.append(move)
            assert refused, "no move was refused on the full disk"

            (seen / "filler").unlink()
            for _ in range(2):
                move = next_move()
                answer = await _move(local, players[len(acknowledged) % 2], move)
                assert not answer.ephemeral, answer.reply.text()
                reference.play(move)
                acknowledged.append(move)
            assert acknowledged[-2] == refused[0]  # the refused move, sent again

            # Stopped as usual (its database closed), then read: nothing acknowledged lost.
            assert await local.process.stop() == 0
            copy = _copy_database(folder_fd, database.name, tmp_path / "copy")
            async with StoredGames(copy) as games:
                stored = await games.load(game_id)
            # Every acknowledged move, in order (the bot stores a capture with its
            # squares, a4xa6xa8 where the player typed a4xa8), and nothing else.
            assert len(stored.moves) == len(acknowledged)
            assert stored.game.positions() == reference.positions()
        finally:  # the log is shown by pytest only when the test failed
            if folder_fd >= 0:
                os.close(folder_fd)
            print(local.process.log_tail(60))
    log = local.process.log_path.read_text(encoding="utf-8", errors="replace")
    assert "Traceback" not in log
    assert "disk full" in log
