"""A tournament's Discord scheduled event (docs/PLAYING.md, "Tournaments"): made by
`/tournament create event:True` when the tournament has a start time and the bot has
Create Events in the server; the members who press its "Interested" are signed up; it
follows the tournament (active at the start, completed at the end, cancelled with it).

Who pressed Interested is read by REST (`ScheduledEvent.users()`), not heard on the
gateway: discord.py drops GUILD_SCHEDULED_EVENT_USER_ADD for a user not in its cache,
and the bot does not ask for the privileged members intent that would fill it. The
tournament scheduler asks for the read (`TournamentService.watch_interest`) once a
minute during sign-up and just before the start time starts it; `/tournament start`
reads it before starting. Each new player joins through `TournamentService.join` (the
same rules as the Join button: the role, the limit, a removed player); a refused one is
not tried again by this process. A player who left by the Leave button (or was removed)
is not signed up again by the event, and un-marking Interested does not take anyone out
(the Leave button does): Discord's Interested is also a reminder, and a read missed
between two polls must not decide who plays.

A failure to create, read or edit the event is logged and never stops the tournament.
"""

from __future__ import annotations

import asyncio
import logging
from datetime import datetime, timedelta
from typing import assert_never

import discord

from bot.messages import Msg, text
from bot.services import PlayerError
from bot.services.tournaments import (
    Post,
    TournamentOutlet,
    TournamentService,
    TournamentSettings,
    TournamentView,
)
from bot.services.tournaments.values import (
    Cancelled,
    Ended,
    Final,
    Paused,
    PlayerRemoved,
    Resumed,
    RoundPaired,
    RoundResults,
    SignUp,
    Started,
)
from storage import TournamentStatus
from tournaments.model import Format

log = logging.getLogger(__name__)

Client = discord.Client

MOVES_PER_GAME = 40
"""The moves of each player an estimated game lasts (an estimate, not a rule)."""
SHARE_OF_MOVE_TIME = 0.5
"""The share of the time per move a player is estimated to use on average."""
ROUND_ROBIN_PLAYERS = 8
"""The players a round robin without a limit is estimated to have."""
LONGEST_EVENT = timedelta(days=7)
"""The longest an event is estimated to last (a slow tournament's event still ends when
the tournament does)."""
READ_TIMEOUT = 30.0
"""Seconds the REST read of who is interested may take before it is left for the next
(the joins that follow are not cut short)."""


def estimated_end(settings: TournamentSettings, starts_at: datetime) -> datetime:
    """The end of a tournament starting at `starts_at`, for its event: an arena's
    duration; else its rounds (a round robin's of `player_limit` or
    `ROUND_ROBIN_PLAYERS` players, at most 16), each one game of `MOVES_PER_GAME` moves
    per player at `SHARE_OF_MOVE_TIME` of the move time; at most `LONGEST_EVENT`."""
    match settings.format:
        case Format.ARENA:
            length = settings.duration or timedelta(hours=1)
        case Format.SWISS | Format.ROUND_ROBIN:
            if settings.format is Format.SWISS:
                rounds = settings.rounds or 1
            else:
                players = min(settings.player_limit or ROUND_ROBIN_PLAYERS, 16)
                rounds = (players - 1 + players % 2) * settings.cycles
            game = 2 * MOVES_PER_GAME * settings.move_seconds * SHARE_OF_MOVE_TIME
            length = timedelta(seconds=rounds * game)
        case _:
            assert_never(settings.format)
    return starts_at + min(max(length, timedelta(minutes=10)), LONGEST_EVENT)


def post_link(view: TournamentView) -> str:
    """The sign-up post's link (the channel's when it is not posted yet)."""
    if view.post_message_id is None:
        return f"https://discord.com/channels/{view.guild_id}/{view.channel_id}"
    return (f"https://discord.com/channels/{view.guild_id}/{view.channel_id}/"
            f"{view.post_message_id}")


def event_link(guild_id: int, event_id: int) -> str:
    """A scheduled event's link, as Discord shares it."""
    return f"https://discord.com/events/{guild_id}/{event_id}"


class TournamentEvents:
    """Creates a tournament's event and signs up its interested members. `client`: the
    bot's; `tournaments`: the service."""

    def __init__(self, client: Client, tournaments: TournamentService) -> None:
        self._client = client
        self._tournaments = tournaments
        self._refused: set[tuple[int, int]] = set()
        """(tournament, user) pairs the service refused: not tried again."""
        self._reading: dict[int, asyncio.Lock] = {}
        """The reads under way, by tournament."""

    async def create(self, guild: discord.Guild, view: TournamentView,
                     locale: str | None) -> int:
        """Create `view`'s external event (its name; the sign-up post's link as its
        location and in its description; its start time; `estimated_end`) and record
        it. Returns the event's id. Raises `discord.HTTPException` when Discord refuses
        (403 without Create Events), `ValueError` for a tournament without a start
        time."""
        starts_at = view.settings.starts_at
        if starts_at is None:
            raise ValueError("an event needs the tournament's start time")
        link = post_link(view)
        title = view.name  # the tournament's name (not an enum's)
        event = await guild.create_scheduled_event(
            name=title, start_time=starts_at,
            end_time=estimated_end(view.settings, starts_at),
            entity_type=discord.EntityType.external,
            privacy_level=discord.PrivacyLevel.guild_only, location=link,
            description=text(Msg.TOURNAMENT_EVENT_DESCRIPTION, locale, name=title,
                             post=link)[:1000],
            reason=f"tournament #{view.id}")
        await self._tournaments.set_event(view.id, event.id)
        return event.id

    async def sign_up_interested(self, tournament_id: int) -> None:
        """Sign up the members interested in the tournament's event who have never
        entered it (see the module docstring); one read at a time per tournament (a
        second waits for the first); logged, never raised."""
        lock = self._reading.setdefault(tournament_id, asyncio.Lock())
        try:
            async with lock:
                await self._sign_up(tournament_id)
        except discord.HTTPException as error:
            log.warning("reading the interested players of tournament %s failed: %s %s",
                        tournament_id, error.status, error.code)
        except Exception:
            log.exception("reading the interested players of tournament %s failed",
                          tournament_id)

    async def _sign_up(self, tournament_id: int) -> None:
        view = await self._tournaments.find(tournament_id)
        if view is None or view.event_id is None or view.status is not TournamentStatus.SIGNUP:
            return
        guild = self._client.get_guild(view.guild_id)
        if guild is None:
            return
        try:
            interested = await asyncio.wait_for(self._interested(guild, view.event_id),
                                                timeout=READ_TIMEOUT)
        except discord.NotFound:  # deleted in Discord: the tournament goes on without it
            log.info("tournament %s: its event %s is gone", view.id, view.event_id)
            await self._tournaments.set_event(view.id, None)
            return
        for user in interested:
            if (user.bot or view.entrant(user.id) is not None
                    or (view.id, user.id) in self._refused):
                continue
            await self._join(guild, view, user)

    @staticmethod
    async def _interested(guild: discord.Guild, event_id: int) -> list[discord.User]:
        """Who pressed Interested on the event (REST: the event, then its users, 100 a
        request)."""
        event = await guild.fetch_scheduled_event(event_id, with_counts=False)
        return [user async for user in event.users()]

    async def _join(self, guild: discord.Guild, view: TournamentView,
                    user: discord.User) -> None:
        roles: frozenset[int] = frozenset()
        if view.settings.role_id is not None:
            try:
                member = await guild.fetch_member(user.id)
            except discord.NotFound:
                self._refused.add((view.id, user.id))
                return
            roles = frozenset(member._roles)
        try:
            await self._tournaments.join(view.id, user.id, guild_id=view.guild_id,
                                         role_ids=roles, display_name=user.display_name)
        except PlayerError as refusal:
            log.info("tournament %s: interested user %s not signed up (%s)", view.id,
                     user.id, refusal.key)
            self._refused.add((view.id, user.id))


class EventFollowingOutlet:
    """A `TournamentOutlet` that passes everything to `inner` and moves the tournament's
    event along its posts: `Started` sets it active, `Final` completed, `Cancelled`
    cancelled (or completed when it was active). A failure is logged."""

    def __init__(self, inner: TournamentOutlet, client: Client) -> None:
        self._inner = inner
        self._client = client

    async def open_tournament_thread(self, view: TournamentView) -> int:
        return await self._inner.open_tournament_thread(view)

    async def open_game_thread(self, view: TournamentView, round: int, board: int,
                               white: int, black: int) -> int:
        return await self._inner.open_game_thread(view, round, board, white, black)

    async def edit_signup(self, view: TournamentView) -> None:
        await self._inner.edit_signup(view)

    async def post(self, view: TournamentView, post: Post) -> int:
        message_id = await self._inner.post(view, post)
        if view.event_id is not None:
            try:
                await self._follow(view, view.event_id, post)
            except discord.HTTPException as error:  # deleted or refused: the tournament goes on
                log.warning("moving the event %s of tournament %s along failed: %s %s",
                            view.event_id, view.id, error.status, error.code)
            except Exception:
                log.exception("moving the event %s of tournament %s along failed",
                              view.event_id, view.id)
        return message_id

    async def _follow(self, view: TournamentView, event_id: int, post: Post) -> None:
        wanted: tuple[discord.EventStatus, ...]
        match post:
            case Started():
                wanted = (discord.EventStatus.active,)
            case Final() | Cancelled():
                wanted = (discord.EventStatus.active, discord.EventStatus.completed)
            case (SignUp() | RoundPaired() | RoundResults() | Paused() | Resumed() | Ended()
                  | PlayerRemoved()):
                return
            case _:
                assert_never(post)
        guild = self._client.get_guild(view.guild_id)
        if guild is None:
            return
        event = await guild.fetch_scheduled_event(event_id, with_counts=False)
        for status in wanted:
            event = await _move(event, status, cancel=isinstance(post, Cancelled))


async def _move(event: discord.ScheduledEvent, status: discord.EventStatus, *,
                cancel: bool) -> discord.ScheduledEvent:
    """`event` moved to `status` when Discord allows it (scheduled to active or
    cancelled, active to completed); a scheduled event of a cancelled tournament is
    cancelled instead."""
    current = event.status
    if current in (discord.EventStatus.completed, discord.EventStatus.cancelled):
        return event
    if current is discord.EventStatus.scheduled:
        if cancel:
            return await event.cancel(reason="the tournament is cancelled")
        return await event.start(reason="the tournament started")
    if current is discord.EventStatus.active and status is discord.EventStatus.completed:
        return await event.end(reason="the tournament is over")
    return event
