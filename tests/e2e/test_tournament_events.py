"""A tournament's Discord scheduled event in the real bot process against the local
stand-in (docs/PLAYING.md, "Tournaments"): `/tournament create event:True` with the
invite's permissions and Create Events makes the event (its times, the sign-up post's
link), the members who pressed Interested are signed up when the organiser starts it,
the event is under way while the tournament runs, completed at its end, cancelled with
it; with the invite's permissions alone the tournament is made without an event and the
answer says so. The minute's reads and the read at the start time run on a fake clock
in tests/bot/ui/test_tournament_events.py."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from bot.app import INVITE_PERMISSIONS
from localplay.server import LocalDiscord
from standin import Permission, UserInfo
from standin.model import ScheduledEventStatus
from tests.support.local_discord import ANSWER_TIMEOUT, READY_TIMEOUT

PATIENCE = 30.0
"""Seconds to wait for the bot to move the event along (a hang guard)."""


async def _until(check: Callable[[], bool]) -> None:
    """Wait until `check()` holds (at most `PATIENCE` seconds)."""
    async with asyncio.timeout(PATIENCE):
        while not check():
            await asyncio.sleep(0.05)


async def _local(tmp_path: Path, permissions: int) -> AsyncIterator[LocalDiscord]:
    """The stand-in and the real bot process, the bot's role holding `permissions`."""
    async with LocalDiscord(database=tmp_path / "bot.sqlite3", log_path=tmp_path / "bot.log",
                            ready_timeout=READY_TIMEOUT, bot_permissions=permissions) as local:
        yield local
        assert not local.standin.internal_errors
    log = (tmp_path / "bot.log").read_text(encoding="utf-8", errors="replace")
    assert "Traceback" not in log and "Missing Permissions" not in log, log[-4000:]


@pytest.fixture
async def with_events(tmp_path: Path) -> AsyncIterator[LocalDiscord]:
    """The bot invited, then given Create Events by a server manager."""
    async for local in _local(tmp_path, INVITE_PERMISSIONS.value
                              | int(Permission.CREATE_EVENTS)):
        yield local


@pytest.fixture
async def invited(tmp_path: Path) -> AsyncIterator[LocalDiscord]:
    """The bot with exactly the permissions of its invite."""
    async for local in _local(tmp_path, INVITE_PERMISSIONS.value):
        yield local


async def _organiser(local: LocalDiscord) -> UserInfo:
    assert local.guild is not None
    alice = local.standin.user("alice")
    admins = await local.standin.add_role(local.guild, "admins",
                                          int(Permission.MANAGE_GUILD))
    await local.standin.give_role(local.guild, alice, admins)
    return alice


def _at(stamp: str) -> datetime:
    return datetime.fromisoformat(stamp.replace("Z", "+00:00"))


async def test_the_event_signs_up_the_interested_and_follows_the_tournament(
    with_events: LocalDiscord,
) -> None:
    local = with_events
    standin = local.standin
    assert local.guild is not None
    alice = await _organiser(local)
    asked = datetime.now(UTC)
    created = await standin.slash(alice, local.channel, "tournament create", {
        "name": "Evening arena", "format": "arena", "variant": "russian",
        "duration": "45m", "start_in": 30, "event": True}, timeout=ANSWER_TIMEOUT)
    [event] = standin.scheduled_events(local.guild)
    assert created.ephemeral and "is created" in created.reply.text()
    assert (f"Its Discord event is https://discord.com/events/{local.guild.id}/{event.id}"
            in created.reply.text()), created.reply.text()
    [post] = [m for m in standin.messages(local.channel) if m.buttons]
    assert event.name == "Evening arena"
    assert event.location == (f"https://discord.com/channels/{local.guild.id}/"
                              f"{local.channel.id}/{post.id}")
    start = _at(event.scheduled_start_time)
    assert timedelta(minutes=29) < start - asked < timedelta(minutes=31)
    assert event.scheduled_end_time is not None
    assert _at(event.scheduled_end_time) - start == timedelta(minutes=45)

    bob, carol = standin.user("bob"), standin.user("carol")
    await standin.mark_interested(bob, event.id)
    await standin.mark_interested(carol, event.id)
    started = await standin.slash(alice, local.channel, "tournament start", {},
                                  timeout=ANSWER_TIMEOUT)
    assert "has started" in started.reply.text(), started.reply.text()
    shown = standin.message(post.id).text()
    assert f"<@{bob.id}>" in shown and f"<@{carol.id}>" in shown
    await _until(lambda: standin.scheduled_event(event.id).status
                 is ScheduledEventStatus.ACTIVE)

    ended = await standin.slash(alice, local.channel, "tournament end", {},
                                timeout=ANSWER_TIMEOUT)
    assert "ends" in ended.reply.text()
    await _until(lambda: standin.scheduled_event(event.id).status
                 is ScheduledEventStatus.COMPLETED)


async def test_the_event_is_cancelled_with_the_tournament(with_events: LocalDiscord) -> None:
    local = with_events
    standin = local.standin
    assert local.guild is not None
    alice = await _organiser(local)
    await standin.slash(alice, local.channel, "tournament create", {
        "name": "Sunday Swiss", "format": "swiss", "variant": "russian", "start_in": 60,
        "event": True}, timeout=ANSWER_TIMEOUT)
    [event] = standin.scheduled_events(local.guild)
    cancelled = await standin.slash(alice, local.channel, "tournament end", {},
                                    timeout=ANSWER_TIMEOUT)
    assert "cancelled" in cancelled.reply.text(), cancelled.reply.text()
    await _until(lambda: standin.scheduled_event(event.id).status
                 is ScheduledEventStatus.CANCELED)


async def test_without_create_events_the_tournament_is_made_and_the_answer_says_so(
    invited: LocalDiscord,
) -> None:
    local = invited
    standin = local.standin
    assert local.guild is not None
    alice = await _organiser(local)
    created = await standin.slash(alice, local.channel, "tournament create", {
        "name": "Sunday Swiss", "format": "swiss", "variant": "russian", "start_in": 60,
        "event": True}, timeout=ANSWER_TIMEOUT)
    told = created.reply.text()
    assert "is created" in told
    assert told.endswith("No Discord event was made, as I lack the Create Events "
                         "permission: give it to my role in Server Settings > Roles to "
                         "have one with the next tournament."), told
    assert [m for m in standin.messages(local.channel) if m.buttons]  # the sign-up post
    assert not standin.scheduled_events(local.guild)
