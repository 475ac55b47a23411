"""A tournament's Discord scheduled event (`bot/ui/tournament_events.py`): a real
discord.py bot against the stand-in over sockets, every request checked against Discord's
specification, the real tournament service on a SQLite file with a fake clock. The event
made with the sign-up post's link and the tournament's times; who pressed Interested
signed up by the scheduler's reads (once a minute, and before the numbering at the start
time), without the members intent; a player who left or un-marked not changed by the
event; the event active at the start, completed at the end, cancelled with the
tournament; an event deleted in Discord stops nothing and is forgotten."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path

import discord
import pytest
import pytest_asyncio

from bot.composition import Outlets, compose
from bot.composition import Services as Composed
from bot.services.tournaments import TournamentService, TournamentSettings, TournamentView
from bot.ui.tournament_events import (
    EventFollowingOutlet,
    TournamentEvents,
    estimated_end,
    post_link,
)
from bot.ui.tournament_posts import TournamentPosts
from standin import Permission, StandIn
from standin.model import DEFAULT_BOT_PERMISSIONS, ScheduledEventStatus
from standin.openapi import OpenApiCheck
from storage import TournamentStatus
from tests.support.clock import FakeClock
from tests.support.discord_spec import checked_by_spec
from tests.support.services import Announcements, config_for
from tests.support.standin_probe_bot import ProbeBot, running
from tournaments.model import Format


@pytest.fixture(autouse=True)
def discord_spec() -> Iterator[OpenApiCheck]:
    yield from checked_by_spec()


@dataclass
class World:
    standin: StandIn
    bot: ProbeBot
    clock: FakeClock
    tournaments: TournamentService
    events: TournamentEvents
    guild_id: int
    channel_id: int
    organiser: int


@pytest_asyncio.fixture
async def w(tmp_path: Path) -> AsyncIterator[World]:
    """The stand-in (the bot's role with Create Events), a probe bot with the bot's
    intents (no members intent), and the composed services posting through it."""
    permissions = int(DEFAULT_BOT_PERMISSIONS | Permission.CREATE_EVENTS)
    async with StandIn(bot_permissions=permissions) as standin:
        await standin.add_guild("Dama Club", channels=("general",))
        channel = standin.channel("general")
        assert channel.guild_id is not None
        intents = discord.Intents.none()
        intents.guilds = True
        bot = ProbeBot(intents=intents)
        clock = FakeClock(start=datetime.now(UTC).replace(microsecond=0))
        composed: Composed[Announcements] | None = None
        async with running(standin, bot):
            def outlets(core: object) -> Outlets[Announcements]:
                announcements = Announcements()
                return Outlets(announcements, announcements,
                               EventFollowingOutlet(TournamentPosts(bot), bot))

            composed = await compose(config_for(tmp_path / "bot.sqlite3"),
                                     outlets, clock=clock)
            try:
                events = TournamentEvents(bot, composed.tournaments)
                composed.tournaments.watch_interest(events.sign_up_interested)
                yield World(standin, bot, clock, composed.tournaments, events,
                            channel.guild_id, channel.id, standin.user("olga").id)
                await composed.tournaments.idle()
            finally:
                await composed.close()
        assert not standin.internal_errors


def _settings(clock: FakeClock, *, format: Format = Format.SWISS, rounds: int | None = 3,
              duration: timedelta | None = None, role_id: int | None = None
              ) -> TournamentSettings:
    return TournamentSettings(
        name="Friday Swiss", format=format, variant="russian", rounds=rounds, cycles=1,
        duration=duration, move_seconds=40, rated=False,
        starts_at=clock() + timedelta(minutes=30), player_limit=None, role_id=role_id)


async def _with_event(w: World, settings: TournamentSettings) -> tuple[TournamentView, int]:
    view = await w.tournaments.create(w.guild_id, w.channel_id, w.organiser, settings,
                                      may_organise=True)
    guild = w.bot.get_guild(w.guild_id)
    assert guild is not None
    return view, await w.events.create(guild, view, None)


async def _tick(w: World) -> None:
    """One run of the scheduler, and the reads it started in the background."""
    await w.tournaments.tick()
    await w.tournaments.idle()


def _at(stamp: str) -> datetime:
    return datetime.fromisoformat(stamp.replace("Z", "+00:00"))


async def test_the_event_has_the_tournaments_times_and_its_posts_link(w: World) -> None:
    settings = _settings(w.clock)
    view, event_id = await _with_event(w, settings)
    event = w.standin.scheduled_event(event_id)
    assert event.status is ScheduledEventStatus.SCHEDULED and event.name == "Friday Swiss"
    assert event.location == post_link(view) and str(view.post_message_id) in event.location
    assert settings.starts_at is not None
    assert _at(event.scheduled_start_time) == settings.starts_at
    assert event.scheduled_end_time is not None
    # Three rounds of 40-move games at half of 40 seconds a move: 80 minutes.
    assert _at(event.scheduled_end_time) == settings.starts_at + timedelta(minutes=80)
    assert (await w.tournaments.info(view.id, guild_id=w.guild_id)).event_id == event_id


def test_the_estimated_end_of_each_format() -> None:
    start = datetime(2026, 12, 6, 20, 0, tzinfo=UTC)
    arena = TournamentSettings(
        name="a", format=Format.ARENA, variant="russian", rounds=None, cycles=1,
        duration=timedelta(minutes=45), move_seconds=40, rated=False, starts_at=start,
        player_limit=None, role_id=None)
    assert estimated_end(arena, start) == start + timedelta(minutes=45)
    robin = TournamentSettings(
        name="r", format=Format.ROUND_ROBIN, variant="russian", rounds=None, cycles=2,
        duration=None, move_seconds=40, rated=False, starts_at=start, player_limit=5,
        role_id=None)
    # 5 players: 5 rounds a cycle (one bye each), two cycles, 40 * 40 s a round.
    assert estimated_end(robin, start) == start + 10 * timedelta(seconds=1600)
    slow = TournamentSettings(
        name="s", format=Format.SWISS, variant="russian", rounds=9, cycles=1,
        duration=None, move_seconds=86_400, rated=False, starts_at=start,
        player_limit=None, role_id=None)
    assert estimated_end(slow, start) == start + timedelta(days=7)


async def test_interested_members_are_signed_up_by_the_reads_and_before_the_numbering(
    w: World,
) -> None:
    view, event_id = await _with_event(w, _settings(w.clock))
    bob, carol, dave = (w.standin.user(name) for name in ("bob", "carol", "dave"))
    await w.standin.mark_interested(bob, event_id)
    await w.standin.mark_interested(carol, event_id)
    await _tick(w)  # the first read
    entrants = (await w.tournaments.info(view.id, guild_id=w.guild_id)).active_entrants
    assert {e.user_id for e in entrants} == {bob.id, carol.id}
    assert view.post_message_id is not None
    post = w.standin.message(view.post_message_id).text()
    assert f"<@{bob.id}>" in post and f"<@{carol.id}>" in post

    # Bob leaves by the button: the event does not sign him up again. Carol un-marks
    # Interested: she stays in (the Leave button takes a player out).
    await w.tournaments.leave(view.id, bob.id, guild_id=w.guild_id)
    await w.standin.unmark_interested(carol, event_id)
    await w.standin.mark_interested(dave, event_id)
    w.clock.advance(timedelta(seconds=30))
    await _tick(w)  # within the minute: no read
    assert (await w.tournaments.info(view.id, guild_id=w.guild_id)).entrant(dave.id) is None
    w.clock.advance(timedelta(seconds=30))
    await _tick(w)
    now = await w.tournaments.info(view.id, guild_id=w.guild_id)
    assert {e.user_id for e in now.active_entrants} == {carol.id, dave.id}

    w.clock.advance(timedelta(minutes=28, seconds=30))  # a read, 30 s before the start
    await _tick(w)
    erin = w.standin.user("erin")
    await w.standin.mark_interested(erin, event_id)
    w.clock.advance(timedelta(seconds=35))  # the start time, within the minute: no read
    await _tick(w)  # but the one before the numbering
    await w.tournaments.idle()
    started = await w.tournaments.info(view.id, guild_id=w.guild_id)
    assert started.started_at is not None
    numbered = {e.user_id: e.number for e in started.active_entrants}
    assert set(numbered) == {carol.id, dave.id, erin.id}
    assert all(number is not None for number in numbered.values())
    assert w.standin.scheduled_event(event_id).status is ScheduledEventStatus.ACTIVE


async def test_a_refused_member_is_skipped_and_not_tried_again(w: World) -> None:
    members = await w.standin.add_role(w.guild_id, "members", 0)
    view, event_id = await _with_event(w, _settings(w.clock, role_id=members.id))
    bob = w.standin.user("bob")
    await w.standin.mark_interested(bob, event_id)
    await _tick(w)
    assert (await w.tournaments.info(view.id, guild_id=w.guild_id)).entrant(bob.id) is None
    # Given the role later, he is not tried again by the reads; Join signs him up.
    await w.standin.give_role(w.guild_id, bob, members)
    w.clock.advance(timedelta(minutes=1))
    await _tick(w)
    assert (await w.tournaments.info(view.id, guild_id=w.guild_id)).entrant(bob.id) is None
    joined = await w.tournaments.join(view.id, bob.id, guild_id=w.guild_id,
                                      role_ids=frozenset({members.id}), display_name="bob")
    assert joined.entrant(bob.id) is not None


async def test_the_event_is_completed_when_the_tournament_ends(w: World) -> None:
    view, event_id = await _with_event(w, _settings(
        w.clock, format=Format.ARENA, rounds=None, duration=timedelta(minutes=30)))
    for name in ("bob", "carol"):
        await w.standin.mark_interested(w.standin.user(name), event_id)
    await w.events.sign_up_interested(view.id)  # as /tournament start does first
    await w.tournaments.start(view.id, w.organiser, guild_id=w.guild_id, may_organise=True)
    assert w.standin.scheduled_event(event_id).status is ScheduledEventStatus.ACTIVE
    await w.tournaments.end(view.id, w.organiser, guild_id=w.guild_id, may_organise=True)
    await w.tournaments.idle()
    ended = await w.tournaments.info(view.id, guild_id=w.guild_id)
    assert ended.status is TournamentStatus.FINISHED
    assert w.standin.scheduled_event(event_id).status is ScheduledEventStatus.COMPLETED


async def test_the_event_is_cancelled_with_the_tournament(w: World) -> None:
    view, event_id = await _with_event(w, _settings(w.clock))
    await w.tournaments.end(view.id, w.organiser, guild_id=w.guild_id, may_organise=True)
    await w.tournaments.idle()
    assert w.standin.scheduled_event(event_id).status is ScheduledEventStatus.CANCELED


async def test_an_event_deleted_in_discord_stops_nothing(
    w: World, caplog: pytest.LogCaptureFixture,
) -> None:
    view, event_id = await _with_event(w, _settings(
        w.clock, format=Format.ARENA, rounds=None, duration=timedelta(minutes=30)))
    for name in ("bob", "carol"):
        await w.tournaments.join(view.id, w.standin.user(name).id, guild_id=w.guild_id,
                                 role_ids=frozenset(), display_name=name)
    guild = w.bot.get_guild(w.guild_id)
    assert guild is not None
    await (await guild.fetch_scheduled_event(event_id)).delete()
    started = await w.tournaments.start(view.id, w.organiser, guild_id=w.guild_id,
                                        may_organise=True)
    assert started.status is TournamentStatus.RUNNING
    assert f"moving the event {event_id} of tournament {view.id} along failed" in caplog.text
    ended = await w.tournaments.end(view.id, w.organiser, guild_id=w.guild_id,
                                    may_organise=True)
    await w.tournaments.idle()
    assert ended.status is TournamentStatus.FINISHED


async def test_a_read_of_an_event_deleted_in_discord_forgets_it(w: World) -> None:
    view, event_id = await _with_event(w, _settings(w.clock))
    guild = w.bot.get_guild(w.guild_id)
    assert guild is not None
    await (await guild.fetch_scheduled_event(event_id)).delete()
    await _tick(w)
    assert (await w.tournaments.info(view.id, guild_id=w.guild_id)).event_id is None
