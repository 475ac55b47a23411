"""`/tournament`: tournaments in a server's channels, from sign-up to the final standings
(docs/PLAYING.md, "Tournaments").

The command group: `create` (organisers: the format, the variant, rounds or duration, the
move time, rated, a start time, a player limit, a role needed to join), `start`, `pause`,
`resume`, `end` and `remove` (organisers), `standings`, `list`, `info`, `history`,
`export` (a Swiss or round robin as a FIDE TRF file), and `join` and `leave` for those who
use a keyboard rather than the sign-up post's buttons. The sign-up post's Join, Leave and
Standings buttons (`bot.ui.tournaments`) come to `Tournaments.press`.

Who organises: members with Manage Server, or with the role the server names
(`/server-settings organiser_role:`); `may_organise` reads both from the interaction and
the service decides with it. A tournament named by its number must be this server's; with
none named, the one of this channel or thread (a finished one's thread too), else the
server's only open one, else the last one finished here (`Tournaments._which`).

Each handler reads the interaction, calls one `TournamentService` method and answers with
what `bot.ui.tournament_texts` writes; the service's own posts (the sign-up post, the
thread's pairings, results and standings) go through its outlet
(`bot.ui.tournament_posts.TournamentPosts`). Errors go to the tree's `on_error` (buttons:
the router's `ErrorReporter`).
"""

from __future__ import annotations

import asyncio
import io
import logging
from datetime import timedelta
from typing import Any, assert_never

import discord
from discord import app_commands
from discord.ext import commands

from bot.cogs.choices import VARIANT_CHOICES
from bot.cogs.installs import SERVER_CONTEXTS, SERVER_INSTALLS
from bot.config import Config
from bot.messages import Listing, Msg, text
from bot.messages import command_text as t
from bot.services import PlayerError
from bot.services.models import DAY_SECONDS, MoveTime
from bot.services.settings import PreferenceService
from bot.services.tournaments import TournamentService, TournamentSettings, TournamentView
from bot.services.tournaments.values import START_WITHIN
from bot.services.web_access import WebLinks
from bot.ui.answer import Answer
from bot.ui.components import Press
from bot.ui.present import timestamp
from bot.ui.reading import locale_of
from bot.ui.tournament_events import TournamentEvents, event_link
from bot.ui.tournament_posts import STANDINGS_FILE, StandingsPicture, player_names
from bot.ui.tournament_texts import history_embed, listing_embed, standings_embed, tournament_embed
from bot.ui.tournaments import TournamentAction
from bot.ui.web_links import link_view, tournament_page
from storage import TournamentStatus, utc_now
from storage.clock import Clock
from tournaments.model import Format

log = logging.getLogger(__name__)

Interaction = discord.Interaction[Any]

FORMATS = {"arena": Format.ARENA, "swiss": Format.SWISS, "round_robin": Format.ROUND_ROBIN}
"""The `format` option's values."""
FORMAT_CHOICES = [app_commands.Choice(name=t(f"choice.{value}"), value=value)
                  for value in FORMATS]

DURATIONS = {"10m": 10, "20m": 20, "30m": 30, "45m": 45, "1h": 60, "90m": 90, "2h": 120,
             "3h": 180, "6h": 360, "12h": 720, "24h": 1440}
"""The arena's lengths offered (`duration`), in minutes (docs/PLAYING.md, "Tournaments")."""
DURATION_CHOICES = [app_commands.Choice(name=t(f"choice.{value}"), value=value)
                    for value in DURATIONS]

MOVE_TIMES = [limit for limit in MoveTime
              if limit.seconds is not None and limit.seconds <= DAY_SECONDS]
"""A tournament's games have a time per move (they must end), at most a day (a tournament
is played in hours or days, not weeks): every choice up to a day but none."""
MOVE_TIME_CHOICES = [app_commands.Choice(name=t(f"choice.{limit.value}"), value=limit.value)
                     for limit in MOVE_TIMES]

DEFAULT_ROUNDS = 5
DEFAULT_DURATION = "1h"
DEFAULT_MOVE_TIME = {Format.ARENA: MoveTime.SECONDS_40, Format.SWISS: MoveTime.MINUTES_5,
                     Format.ROUND_ROBIN: MoveTime.MINUTES_5}
MINUTES_AHEAD = int(START_WITHIN.total_seconds()) // 60
"""`start_in`: at most as far ahead as the service takes a start time, in minutes."""
SHOWN_HISTORY = 10

TournamentNumber = app_commands.Range[int, 1, 2**53 - 1]
"""A tournament's number, within Discord's integer options (below 2^53)."""


def role_ids(interaction: Interaction) -> frozenset[int]:
    """The ids of the presser's or caller's roles, as Discord sent them with the
    interaction (a member's roles need not be in the client's cache, which `Member.roles`
    reads; the ids are the payload's)."""
    user = interaction.user
    if not isinstance(user, discord.Member):
        return frozenset()
    return frozenset(user._roles)


POST_PERMISSIONS = (("send_messages", Msg.PERMISSION_SEND_MESSAGES),
                    ("embed_links", Msg.PERMISSION_EMBED_LINKS),
                    ("attach_files", Msg.PERMISSION_ATTACH_FILES))
"""What a tournament's posts need of the bot in its channel, besides its threads: the
sign-up post is an embed, the standings an embed with its picture attached."""


def check_threads(interaction: Interaction) -> None:
    """Refuse a tournament where its threads cannot be: outside a text channel (a thread,
    an announcement or voice channel: TOURNAMENT_TEXT_CHANNEL), or in a channel where the
    bot may not open threads and write in them (TOURNAMENT_NO_THREADS; the interaction's
    `app_permissions` are the bot's in this channel), or may not send its posts
    (`POST_PERMISSIONS`: TOURNAMENT_NO_POST_PERMISSIONS). Each game and the tournament's
    news are in public threads of the channel. Raises `PlayerError`."""
    if getattr(interaction.channel, "type", None) is not discord.ChannelType.text:
        raise PlayerError(Msg.TOURNAMENT_TEXT_CHANNEL)
    granted = interaction.app_permissions
    if not (granted.create_public_threads and granted.send_messages_in_threads):
        raise PlayerError(Msg.TOURNAMENT_NO_THREADS, channel=f"<#{interaction.channel_id}>")
    missing = [name for flag, name in POST_PERMISSIONS if not getattr(granted, flag)]
    if missing:
        raise PlayerError(Msg.TOURNAMENT_NO_POST_PERMISSIONS,
                          channel=f"<#{interaction.channel_id}>",
                          permissions=Listing(tuple(missing)),
                          needed=Listing(tuple(name for _, name in POST_PERMISSIONS)))


def guild_of(interaction: Interaction) -> int:
    """The interaction's server. Raises `PlayerError(TOURNAMENT_DIRECT_MESSAGES)` outside
    one."""
    if interaction.guild_id is None or interaction.channel_id is None:
        raise PlayerError(Msg.TOURNAMENT_DIRECT_MESSAGES)
    return interaction.guild_id


class Tournaments(commands.Cog):
    """`/tournament` and the tournaments' buttons."""

    tournament = app_commands.Group(
        name="tournament", description=t("tournament"), guild_only=True,
        allowed_contexts=SERVER_CONTEXTS, allowed_installs=SERVER_INSTALLS)

    def __init__(self, *, tournaments: TournamentService, preferences: PreferenceService,
                 settings: Config, picture: StandingsPicture | None = None,
                 clock: Clock = utc_now, events: TournamentEvents | None = None,
                 links: WebLinks | None = None) -> None:
        self.tournaments = tournaments
        self.links = links
        """The web face's links: the standings link to the tournament's page (None: no
        web face)."""
        self.events = events
        """The scheduled events' part (None: `event:True` says it cannot make one)."""
        self.preferences = preferences
        self.settings = settings
        self.picture = picture
        self.clock = clock

    async def may_organise(self, interaction: Interaction) -> bool:
        """Whether the caller may run tournaments in this server: Manage Server, or the
        server's organiser role (`/server-settings organiser_role:`)."""
        if interaction.permissions.manage_guild:
            return True
        role = (await self.preferences.guild(guild_of(interaction))).organiser_role
        return role is not None and role in role_ids(interaction)

    async def _which(self, interaction: Interaction, tournament: int | None) -> int:
        """The tournament a command is about: the one named, else the one of this channel
        in sign-up or under way (its sign-up channel, its thread or a game's thread), else
        the finished one whose thread this is, else the server's only one in sign-up or
        under way, else the last one finished in this channel. Raises
        `PlayerError(TOURNAMENT_WHICH)` when that leaves none or several."""
        guild_id = guild_of(interaction)
        if tournament is not None:
            return tournament
        channel_id = interaction.channel_id or 0
        here = await self.tournaments.in_channel(guild_id, channel_id)
        if here is not None:
            return here.id
        finished = await self.tournaments.history(guild_id, limit=SHOWN_HISTORY)
        for view in finished:
            if channel_id == view.thread_id:  # a thread is one tournament's for good
                return view.id
        open_ = await self.tournaments.list(guild_id)
        if len(open_) == 1:
            return open_[0].id
        if not open_:
            for view in finished:
                if channel_id == view.channel_id:
                    return view.id
        raise PlayerError(Msg.TOURNAMENT_WHICH)

    # --- creating ------------------------------------------------------------------

    @tournament.command(name="create", description=t("tournament.create"))
    @app_commands.describe(**{option: t(f"tournament.create.{option}") for option in (
        "name", "format", "variant", "rounds", "double", "duration", "move_time", "rated",
        "start_in", "player_limit", "role", "event")})
    @app_commands.choices(format=FORMAT_CHOICES, variant=VARIANT_CHOICES,
                          duration=DURATION_CHOICES, move_time=MOVE_TIME_CHOICES)
    async def create(
        self,
        interaction: Interaction,
        name: app_commands.Range[str, 1, 100],
        format: str,
        variant: str,
        rounds: app_commands.Range[int, 1, 20] | None = None,
        double: bool = False,
        duration: str | None = None,
        move_time: str | None = None,
        rated: bool | None = None,
        start_in: app_commands.Range[int, 1, MINUTES_AHEAD] | None = None,
        player_limit: app_commands.Range[int, 2, 500] | None = None,
        role: discord.Role | None = None,
        event: bool = False,
    ) -> None:
        """Create a tournament in this channel; the service posts its sign-up post here,
        and the organiser is told where it is. Options that do not apply to the format
        (rounds outside a Swiss, duration outside an arena, double outside a round robin)
        are not used. `event`: a Discord scheduled event too (`_event_note`)."""
        guild_id = guild_of(interaction)
        check_threads(interaction)
        chosen = FORMATS[format]
        settings = TournamentSettings(
            name=name.strip(), format=chosen, variant=variant,
            rounds=(rounds or DEFAULT_ROUNDS) if chosen is Format.SWISS else None,
            cycles=2 if double and chosen is Format.ROUND_ROBIN else 1,
            duration=(timedelta(minutes=DURATIONS[duration or DEFAULT_DURATION])
                      if chosen is Format.ARENA else None),
            move_seconds=(MoveTime(move_time) if move_time else DEFAULT_MOVE_TIME[chosen]
                          ).seconds or 0,
            rated=self.settings.default_rated if rated is None else rated,
            starts_at=None if start_in is None else self.clock() + timedelta(minutes=start_in),
            player_limit=player_limit,
            role_id=None if role is None or role.is_default() else role.id,
        )
        view = await self.tournaments.create(
            guild_id, interaction.channel_id or 0, interaction.user.id, settings,
            may_organise=await self.may_organise(interaction))
        post = (f"https://discord.com/channels/{guild_id}/{view.channel_id}/"
                f"{view.post_message_id}" if view.post_message_id else f"<#{view.channel_id}>")
        starts = view.settings.starts_at
        told = (text(Msg.TOURNAMENT_CREATED, locale_of(interaction), tournament=view.id,
                     post=post) if starts is None
                else text(Msg.TOURNAMENT_CREATED_TIMED, locale_of(interaction),
                          tournament=view.id, post=post, time=timestamp(starts)))
        if event:
            told = f"{told}\n{await self._event_note(interaction, view)}"
        await Answer.of(interaction).send(told, ephemeral=True)

    # --- the scheduled event (bot.ui.tournament_events) ------------------------------

    async def _event_note(self, interaction: Interaction, view: TournamentView) -> str:
        """Make `view`'s Discord scheduled event when it has a start time and the bot
        has Create Events in the server; the sentence that says so, or why not."""
        locale = locale_of(interaction)
        if view.settings.starts_at is None:
            return text(Msg.TOURNAMENT_EVENT_NO_START, locale)
        if (self.events is None or interaction.guild is None
                or not interaction.app_permissions.create_events):
            return text(Msg.TOURNAMENT_EVENT_NO_PERMISSION, locale)
        try:
            event_id = await self.events.create(interaction.guild, view, locale)
        except discord.Forbidden:
            return text(Msg.TOURNAMENT_EVENT_NO_PERMISSION, locale)
        except discord.HTTPException as error:
            log.warning("creating the event of tournament %s failed: %s %s", view.id,
                        error.status, error.code)
            return text(Msg.TOURNAMENT_EVENT_FAILED, locale)
        return text(Msg.TOURNAMENT_EVENT_CREATED, locale,
                    event=event_link(view.guild_id, event_id))

    async def _sign_up_interested(self, interaction: Interaction, tournament_id: int) -> None:
        """Before `/tournament start` numbers the players: sign up who pressed the
        event's Interested, for this server's tournament in sign-up with an event (the
        service refuses any other afterwards). Raises `PlayerError(TOURNAMENT_UNKNOWN)`
        for another server's."""
        view = await self.tournaments.info(tournament_id, guild_id=guild_of(interaction))
        if (self.events is not None and view.event_id is not None
                and view.status is TournamentStatus.SIGNUP):
            Answer.of(interaction)  # deferred if the read is slow
            await self.events.sign_up_interested(tournament_id)

    # --- end of the scheduled event ---------------------------------------------------

    # --- the organiser's actions ---------------------------------------------------

    @tournament.command(name="start", description=t("tournament.start"))
    @app_commands.describe(tournament=t("tournament.start.tournament"))
    async def start(self, interaction: Interaction,
                    tournament: TournamentNumber | None = None) -> None:
        tournament_id = await self._which(interaction, tournament)
        await self._sign_up_interested(interaction, tournament_id)
        view = await self.tournaments.start(
            tournament_id, interaction.user.id,
            guild_id=guild_of(interaction), may_organise=await self.may_organise(interaction))
        await self._done(interaction, Msg.TOURNAMENT_STARTED, view)

    @tournament.command(name="pause", description=t("tournament.pause"))
    @app_commands.describe(tournament=t("tournament.pause.tournament"))
    async def pause(self, interaction: Interaction,
                    tournament: TournamentNumber | None = None) -> None:
        view = await self.tournaments.pause(
            await self._which(interaction, tournament), interaction.user.id,
            guild_id=guild_of(interaction), may_organise=await self.may_organise(interaction))
        await self._done(interaction, Msg.TOURNAMENT_PAUSED, view)

    @tournament.command(name="resume", description=t("tournament.resume"))
    @app_commands.describe(tournament=t("tournament.resume.tournament"))
    async def resume(self, interaction: Interaction,
                     tournament: TournamentNumber | None = None) -> None:
        view = await self.tournaments.resume(
            await self._which(interaction, tournament), interaction.user.id,
            guild_id=guild_of(interaction), may_organise=await self.may_organise(interaction))
        await self._done(interaction, Msg.TOURNAMENT_RESUMED, view)

    @tournament.command(name="end", description=t("tournament.end"))
    @app_commands.describe(tournament=t("tournament.end.tournament"))
    async def end(self, interaction: Interaction,
                  tournament: TournamentNumber | None = None) -> None:
        view = await self.tournaments.end(
            await self._which(interaction, tournament), interaction.user.id,
            guild_id=guild_of(interaction), may_organise=await self.may_organise(interaction))
        cancelled = view.status is TournamentStatus.CANCELLED  # ended before it started
        # An arena's games under way no longer count; its final standings come at once.
        ended = Msg.TOURNAMENT_ENDED_ARENA if view.format is Format.ARENA else Msg.TOURNAMENT_ENDED
        await self._done(interaction, Msg.TOURNAMENT_CANCELLED if cancelled else ended, view)

    @tournament.command(name="remove", description=t("tournament.remove"))
    @app_commands.describe(player=t("tournament.remove.player"),
                           tournament=t("tournament.remove.tournament"))
    async def remove(self, interaction: Interaction, player: discord.User,
                     tournament: TournamentNumber | None = None) -> None:
        view = await self.tournaments.remove(
            await self._which(interaction, tournament), interaction.user.id, player.id,
            guild_id=guild_of(interaction), may_organise=await self.may_organise(interaction))
        await Answer.of(interaction).send(
            text(Msg.TOURNAMENT_REMOVED_PLAYER, locale_of(interaction),
                 player=player.mention, name=view.name), ephemeral=True)

    async def _done(self, interaction: Interaction, done: Msg, view: TournamentView) -> None:
        await Answer.of(interaction).send(text(done, locale_of(interaction), name=view.name),
                                          ephemeral=True)

    # --- players -------------------------------------------------------------------

    @tournament.command(name="join", description=t("tournament.join"))
    @app_commands.describe(tournament=t("tournament.join.tournament"))
    async def join(self, interaction: Interaction,
                   tournament: TournamentNumber | None = None) -> None:
        await self._join(interaction, await self._which(interaction, tournament))

    @tournament.command(name="leave", description=t("tournament.leave"))
    @app_commands.describe(tournament=t("tournament.leave.tournament"))
    async def leave(self, interaction: Interaction,
                    tournament: TournamentNumber | None = None) -> None:
        await self._leave(interaction, await self._which(interaction, tournament))

    async def _join(self, interaction: Interaction, tournament_id: int) -> None:
        view = await self.tournaments.join(
            tournament_id, interaction.user.id, guild_id=guild_of(interaction),
            role_ids=role_ids(interaction), display_name=interaction.user.display_name)
        await Answer.of(interaction).send(
            text(Msg.TOURNAMENT_JOINED, locale_of(interaction), name=view.name), ephemeral=True)

    async def _leave(self, interaction: Interaction, tournament_id: int) -> None:
        view = await self.tournaments.leave(tournament_id, interaction.user.id,
                                            guild_id=guild_of(interaction))
        left = (Msg.TOURNAMENT_LEFT if view.status is TournamentStatus.SIGNUP
                else Msg.TOURNAMENT_LEFT_STARTED)
        await Answer.of(interaction).send(text(left, locale_of(interaction), name=view.name),
                                          ephemeral=True)

    # --- reading -------------------------------------------------------------------

    @tournament.command(name="standings", description=t("tournament.standings"))
    @app_commands.describe(tournament=t("tournament.standings.tournament"))
    async def standings(self, interaction: Interaction,
                        tournament: TournamentNumber | None = None) -> None:
        await self._standings(interaction, await self._which(interaction, tournament))

    async def _standings(self, interaction: Interaction, tournament_id: int, *,
                         ephemeral: bool = False) -> None:
        """The standings, with their picture when one is drawn, and the "Tournament page"
        link button when the tournament has a page (`bot.ui.web_links`)."""
        guild_id = guild_of(interaction)
        standings = await self.tournaments.standings(tournament_id, guild_id=guild_id)
        locale = locale_of(interaction)
        embed = standings_embed(standings, locale)
        file = None
        if self.picture is not None and standings.rows:
            names = player_names(await self.tournaments.info(tournament_id, guild_id=guild_id))
            try:
                png = await asyncio.to_thread(self.picture, standings, names, locale)
            except Exception:  # the embed says it all; the picture is a bonus
                log.exception("drawing the standings of tournament %s failed", tournament_id)
            else:
                file = discord.File(io.BytesIO(png), filename=STANDINGS_FILE)
                embed.set_image(url=f"attachment://{STANDINGS_FILE}")
        url = await tournament_page(self.links, tournament_id, guild_id)
        await Answer.of(interaction).send(
            embed=embed, file=file, ephemeral=ephemeral,
            view=link_view(url, Msg.BUTTON_TOURNAMENT_PAGE, locale))

    @tournament.command(name="info", description=t("tournament.info"))
    @app_commands.describe(tournament=t("tournament.info.tournament"))
    async def info(self, interaction: Interaction,
                   tournament: TournamentNumber | None = None) -> None:
        view = await self.tournaments.info(await self._which(interaction, tournament),
                                           guild_id=guild_of(interaction))
        await Answer.of(interaction).send(embed=tournament_embed(view, locale_of(interaction),
                                                                 live=True))

    @tournament.command(name="list", description=t("tournament.list"))
    async def list_(self, interaction: Interaction) -> None:
        views = await self.tournaments.list(guild_of(interaction))
        await Answer.of(interaction).send(embed=listing_embed(views, locale_of(interaction)))

    @tournament.command(name="history", description=t("tournament.history"))
    async def history(self, interaction: Interaction) -> None:
        guild_id = guild_of(interaction)
        views = await self.tournaments.history(guild_id, limit=SHOWN_HISTORY)
        finished = []
        for view in views:
            standings = await self.tournaments.standings(view.id, guild_id=guild_id)
            finished.append((view, [row.user_id for row in standings.rows if row.rank == 1]))
        await Answer.of(interaction).send(embed=history_embed(finished, locale_of(interaction)))

    @tournament.command(name="export", description=t("tournament.export"))
    @app_commands.describe(tournament=t("tournament.export.tournament"))
    async def export(self, interaction: Interaction,
                     tournament: TournamentNumber | None = None) -> None:
        tournament_id = await self._which(interaction, tournament)
        trf = await self.tournaments.export_trf(tournament_id, guild_id=guild_of(interaction))
        file = discord.File(io.BytesIO(trf.encode("utf-8")),
                            filename=f"tournament-{tournament_id}.trf")
        await Answer.of(interaction).send(
            text(Msg.TOURNAMENT_EXPORT, locale_of(interaction), tournament=tournament_id),
            file=file)

    # --- the tournament option's suggestions ------------------------------------------

    async def tournament_choices(self, interaction: Interaction, current: str
                                 ) -> list[app_commands.Choice[int]]:
        """The server's tournaments for the `tournament` option as the caller types: those
        in sign-up or under way, then the last finished ones, whose number or name holds
        what was typed ("#12 Friday arena"). None outside a server or when reading
        fails (discord.py would otherwise leave the picker saying it failed)."""
        if interaction.guild_id is None:
            return []
        try:
            views = [*await self.tournaments.list(interaction.guild_id),
                     *await self.tournaments.history(interaction.guild_id,
                                                     limit=SHOWN_HISTORY)]
        except Exception:
            log.exception("listing the tournaments of guild %s failed", interaction.guild_id)
            return []
        typed = current.strip().lstrip("#").casefold()
        return [app_commands.Choice(name=f"#{view.id} {view.name}"[:100], value=view.id)
                for view in views
                if typed in str(view.id) or typed in view.name.casefold()][:25]

    for _command in (start, pause, resume, end, remove, join, leave, standings, info, export):
        _command.autocomplete("tournament")(tournament_choices)
    del _command

    # --- buttons -------------------------------------------------------------------

    async def press(self, interaction: Interaction, press: Press[TournamentAction]) -> None:
        """A tournament's button (`bot.ui.tournaments`); the router checked that the
        tournament is this server's (`bot.ui.components`)."""
        tournament_id = press.tournament_id
        if tournament_id is None:
            raise ValueError("a tournament's button carries its tournament")
        match press.action:
            case TournamentAction.JOIN:
                await self._join(interaction, tournament_id)
            case TournamentAction.LEAVE:
                await self._leave(interaction, tournament_id)
            case TournamentAction.STANDINGS:
                await self._standings(interaction, tournament_id, ephemeral=True)
            case _:
                assert_never(press.action)
