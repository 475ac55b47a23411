"""The processes the bot starts end with it (docs/ARCHITECTURE.md, "Crash points"): the
real bot process, SIGKILLed (no clean-up at all), leaves no process behind. Its children
are the computer's search workers and the move-work worker (`multiprocessing`'s spawned
interpreters, `bot.computer.worker.watch_parent`) and `multiprocessing`'s resource
tracker (which ends when every holder of its pipe has ended). Read from /proc: every
process whose parent chain leads to the bot's, recorded while the bot runs, must be gone
(or a zombie waiting for the init process to collect it) soon after the kill."""

from __future__ import annotations

import asyncio
import os
from dataclasses import dataclass
from pathlib import Path

from tests.support.analysis_play import analysis_under_way, finished_game
from tests.support.crash_points import CrashHarness, local_discord

PATIENCE = 30.0
"""Seconds the bot's processes have to end after the kill (a hang guard: a worker checks
its parent every second)."""

SPAWNED = "multiprocessing.spawn"
"""In the command line of a worker process that `multiprocessing` spawned."""


@dataclass(frozen=True)
class Proc:
    """One process as /proc shows it: its id, its parent's, when it started (clock ticks
    after boot: with the id, it tells a process from a later one given the same id), its
    state letter and its command line."""

    pid: int
    ppid: int
    started: int
    state: str
    command: str


def _read(pid: int) -> Proc | None:
    """Process `pid` from /proc (None: there is none)."""
    try:
        with open(f"/proc/{pid}/stat", encoding="utf-8", errors="replace") as file:
            stat = file.read()
        with open(f"/proc/{pid}/cmdline", "rb") as binary:
            command = binary.read().replace(b"\0", b" ").decode(errors="replace")
    except (FileNotFoundError, ProcessLookupError):
        return None
    # The command name (2nd field) is in parentheses and may hold spaces.
    fields = stat[stat.rindex(")") + 2:].split()
    return Proc(pid, int(fields[1]), int(fields[19]), fields[0], command)


def _processes() -> list[Proc]:
    found = (_read(int(name)) for name in os.listdir("/proc") if name.isdigit())
    return [proc for proc in found if proc is not None]


def descendants(root: int) -> list[Proc]:
    """Every live process whose parent chain leads to `root`."""
    procs = _processes()
    children: dict[int, list[Proc]] = {}
    for proc in procs:
        children.setdefault(proc.ppid, []).append(proc)
    found: list[Proc] = []
    todo = [root]
    while todo:
        for child in children.get(todo.pop(), []):
            found.append(child)
            todo.append(child.pid)
    return found


def _alive(proc: Proc) -> bool:
    """Whether `proc` still runs (the same process: same id, same start; not a zombie)."""
    now = _read(proc.pid)
    return now is not None and now.started == proc.started and now.state != "Z"


async def _until_gone(procs: list[Proc]) -> list[Proc]:
    """Wait until none of `procs` runs, at most `PATIENCE` seconds; returns those left."""
    loop = asyncio.get_running_loop()
    end = loop.time() + PATIENCE
    left = [p for p in procs if _alive(p)]
    while left and loop.time() < end:
        await asyncio.sleep(0.1)
        left = [p for p in left if _alive(p)]
    return left


def _bot_pid(harness: CrashHarness) -> int:
    pid = harness.local.process.pid
    assert pid is not None and harness.local.process.running
    return pid


async def test_a_bot_killed_mid_analysis_leaves_no_process_behind(tmp_path: Path) -> None:
    async with local_discord(tmp_path) as local:
        harness = CrashHarness(local)
        alice, bob = harness.standin.user("alice"), harness.standin.user("bob")
        game_id = await finished_game(harness, alice, bob)
        await analysis_under_way(harness, alice, game_id)
        started = descendants(_bot_pid(harness))
        # The computer's worker (reviewing), the move-work worker (warmed at start-up),
        # and the resource tracker.
        workers = [p for p in started if SPAWNED in p.command]
        assert len(workers) >= 2, [p.command for p in started]
        await local.process.kill()
        left = await _until_gone(started)
        assert left == [], [(p.pid, p.command) for p in left]


async def test_workers_of_a_bot_killed_while_they_start_end_too(tmp_path: Path) -> None:
    async with local_discord(tmp_path) as local:
        harness = CrashHarness(local)
        await local.process.kill()
        # Started again and killed as soon as its first worker process exists: the worker
        # is still importing, far from its first call, when its parent dies.
        await local.process.start()
        bot = _bot_pid(harness)
        loop = asyncio.get_running_loop()
        end = loop.time() + PATIENCE
        while not any(SPAWNED in p.command for p in descendants(bot)):
            assert loop.time() < end and local.process.running, local.process.log_tail(40)
            await asyncio.sleep(0.01)
        started = descendants(bot)
        await local.process.kill()
        left = await _until_gone(started)
        assert left == [], [(p.pid, p.command) for p in left]
