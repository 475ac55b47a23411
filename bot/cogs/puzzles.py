"""Slash commands of puzzles: /puzzle, /solve (with autocomplete from the solver's puzzle),
/puzzle-daily and /puzzle-daily-stop (server managers), and the puzzle buttons' presses
(`Puzzles.press`).
Everything a solver sees of their puzzle is ephemeral: the puzzle is theirs, the channel
(and any game in it) is untouched. Each handler reads the interaction, calls one
`PuzzleService` method and answers (docs/ARCHITECTURE.md)."""

from __future__ import annotations

import asyncio
import logging
from typing import Any, assert_never

import discord
from discord import app_commands
from discord.ext import commands

from bot.cogs.choices import VARIANT_CHOICES
from bot.cogs.installs import anywhere, servers_only
from bot.messages import Listing, Msg, text, variant_name
from bot.messages import command_text as t
from bot.ratings import display_rating
from bot.services.errors import PlayerError
from bot.services.puzzles import PuzzleService, PuzzleState, SolveOutcome
from bot.services.settings import PreferenceService
from bot.ui.answer import Answer
from bot.ui.components import Press
from bot.ui.errors import ErrorReporter
from bot.ui.present import Perspective, reader_view, shown_move
from bot.ui.puzzles import (
    PuzzleAction,
    puzzle_embed,
    puzzle_file,
    puzzle_view,
    rating_text,
)
from bot.ui.reading import locale_of

log = logging.getLogger(__name__)

Interaction = discord.Interaction[Any]

"""A puzzle is the solver's own: solved in a server, a DM or a group DM alike."""

POSTABLE = (discord.ChannelType.text, discord.ChannelType.news)
"""The channels a daily puzzle may be posted in."""

POST_PERMISSIONS = (("view_channel", Msg.PERMISSION_VIEW_CHANNEL),
                    ("send_messages", Msg.PERMISSION_SEND_MESSAGES),
                    ("embed_links", Msg.PERMISSION_EMBED_LINKS),
                    ("attach_files", Msg.PERMISSION_ATTACH_FILES))
"""What the daily post needs of the bot in its channel (an embed with the board's picture
attached), with each permission's name as Discord shows it."""


def _missing_post_permissions(channel: app_commands.AppCommandChannel) -> list[Msg]:
    """The permissions of `POST_PERMISSIONS` the bot lacks in `channel`, as far as they can
    be known: from the server's cache (the bot's member, roles and the channel's
    overwrites: `GuildChannel.permissions_for`). Empty when the server or the channel is
    not cached. The interaction's `app_permissions` are the bot's in the channel where the
    command was used, not in `channel`, so they cannot answer this."""
    resolved = channel.resolve()
    me = None if resolved is None else resolved.guild.me
    if resolved is None or me is None:
        return []
    granted = resolved.permissions_for(me)
    return [name for flag, name in POST_PERMISSIONS if not getattr(granted, flag)]


SUGGEST_BUDGET = 2.0
"""Seconds `/solve`'s autocomplete may spend (Discord drops answers after 3)."""


def _locale(interaction: Interaction) -> str:
    """The reader's language: their choice (`/settings language`) first, as settled when
    the interaction arrived (`bot.ui.reading.locale_of`)."""
    return locale_of(interaction)


def _check_manager(interaction: Interaction) -> None:
    """Refuse a member without Manage Server: `default_permissions` only hides a command
    (an admin may grant it to others in the server's integration settings, and a client
    can send it anyway), as `/server-settings` checks too. Raises
    `PlayerError(SETTINGS_ADMIN_ONLY)`."""
    if interaction.guild_id is None or not interaction.permissions.manage_guild:
        raise PlayerError(Msg.SETTINGS_ADMIN_ONLY)


def _with_left(view: PuzzleState, locale: str, note: str | None = None) -> str | None:
    """`note` after what became of the puzzle the new one replaced (`PuzzleState.left`)."""
    if view.left is None:
        return note
    lines = [text(Msg.PUZZLE_LEFT, locale, puzzle=view.left)]
    change = rating_text(view.left_result, locale)
    lines += [line for line in (change, note) if line]
    return "\n".join(lines)


class Puzzles(commands.Cog):
    """Puzzles for one solver at a time, and the daily puzzle's settings."""

    def __init__(self, *, puzzles: PuzzleService, errors: ErrorReporter,
                 board_size: int = 512, preferences: PreferenceService | None = None) -> None:
        self.puzzles = puzzles
        self.errors = errors
        self.board_size = board_size
        self.preferences = preferences
        """Each solver's board side and notation (None: the defaults)."""

    async def _reader(self, interaction: Interaction, view: PuzzleState) -> Perspective:
        """How the solver sees their puzzle: from their `/settings` board side, else the
        side they solve for; Italian moves and squares in their notation."""
        return await reader_view(self.preferences, interaction.user.id, playing=view.solver,
                                 to_move=view.solver)

    async def _show(self, interaction: Interaction, view: PuzzleState, *, note: str | None = None,
                    buttons: bool = True, reader: Perspective | None = None) -> None:
        locale = _locale(interaction)
        reader = reader or await self._reader(interaction, view)
        file = await puzzle_file(view, self.board_size, reader)
        await Answer.of(interaction).send(
            embed=puzzle_embed(view, locale, note=note), file=file, ephemeral=True,
            view=(puzzle_view(interaction.user.id, locale, view.puzzle.id, rated=view.rated)
                  if buttons else None))

    @app_commands.command(name="puzzle", description=t("puzzle"))
    @anywhere
    @app_commands.describe(variant=t("puzzle.variant"))
    @app_commands.choices(variant=VARIANT_CHOICES)
    async def puzzle(self, interaction: Interaction, variant: str | None = None) -> None:
        view = await self.puzzles.start(interaction.user.id, variant)
        await self._show_start(interaction, view)

    async def _show_start(self, interaction: Interaction, view: PuzzleState) -> None:
        """A puzzle just given (`/puzzle`, Solve it): the solver's rating, or that it is
        not rated, after what became of the puzzle it replaced."""
        rating = await self.puzzles.rating(interaction.user.id, view.puzzle.variant)
        locale = _locale(interaction)
        note = None if rating is None else text(
            Msg.PUZZLE_YOUR_RATING, locale,
            rating=display_rating(rating.value.rating, rating.value.deviation),
            streak=rating.streak)
        if not view.rated:
            note = text(Msg.PUZZLE_UNRATED, locale)
        await self._show(interaction, view, note=_with_left(view, locale, note))

    @app_commands.command(name="solve", description=t("solve"))
    @anywhere
    @app_commands.describe(move=t("solve.move"))
    async def solve(self, interaction: Interaction, move: str) -> None:
        answer = await self.puzzles.solve(interaction.user.id, move)
        locale = _locale(interaction)
        reader = await self._reader(interaction, answer.view)
        variant = answer.view.variant
        played = shown_move(answer.played, variant, reader)
        if answer.outcome == SolveOutcome.WRONG:
            lines = [text(Msg.PUZZLE_WRONG, locale, played=played)]
        elif answer.outcome == SolveOutcome.CORRECT:
            lines = [text(Msg.PUZZLE_CORRECT, locale, played=played,
                          defence=shown_move(answer.defence or "", variant, reader),
                          found=answer.view.found, total=answer.view.total)]
        else:
            lines = [text(Msg.PUZZLE_SOLVED, locale, played=played)]
        change = rating_text(answer.result, locale)
        if change:
            lines.append(change)
        await self._show(interaction, answer.view, note="\n".join(lines),
                         buttons=answer.outcome != SolveOutcome.SOLVED, reader=reader)

    @solve.autocomplete("move")
    async def solve_autocomplete(
        self, interaction: Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        try:
            numeric = (True if self.preferences is None
                       else (await self.preferences.player(interaction.user.id)).numeric)
            found = await asyncio.wait_for(
                self.puzzles.suggestions(interaction.user.id, current, numeric),
                timeout=SUGGEST_BUDGET)
        except Exception as error:
            self.errors.autocomplete_failed(interaction, error)
            return []
        return [app_commands.Choice(name=c.name, value=c.value) for c in found]

    @app_commands.command(name="puzzle-daily", description=t("puzzle-daily"))
    @servers_only
    @app_commands.default_permissions(manage_guild=True)
    @app_commands.describe(channel=t("puzzle-daily.channel"), variant=t("puzzle-daily.variant"))
    @app_commands.choices(variant=VARIANT_CHOICES)
    async def puzzle_daily(self, interaction: Interaction,
                           channel: app_commands.AppCommandChannel,
                           variant: str | None = None) -> None:
        _check_manager(interaction)
        assert interaction.guild_id is not None
        if channel.type not in POSTABLE:
            raise PlayerError(Msg.PUZZLE_DAILY_NO_CHANNEL, channel=f"<#{channel.id}>")
        missing = _missing_post_permissions(channel)
        if missing:
            raise PlayerError(
                Msg.PUZZLE_DAILY_CANNOT_POST, channel=f"<#{channel.id}>",
                permissions=Listing(tuple(missing)),
                needed=Listing(tuple(m for _, m in POST_PERMISSIONS)))
        setting = await self.puzzles.set_daily(interaction.guild_id, channel.id, variant,
                                               interaction.user.id)
        locale = _locale(interaction)
        name = (text(Msg.PUZZLE_DAILY_ANY_VARIANT, locale) if setting.variant is None
                else variant_name(setting.variant, locale))
        await Answer.of(interaction).send(
            text(Msg.PUZZLE_DAILY_SET, locale, channel=f"<#{setting.channel_id}>",
                 variant=name), ephemeral=True)

    @app_commands.command(name="puzzle-daily-stop", description=t("puzzle-daily-stop"))
    @servers_only
    @app_commands.default_permissions(manage_guild=True)
    async def puzzle_daily_stop(self, interaction: Interaction) -> None:
        _check_manager(interaction)
        assert interaction.guild_id is not None
        stopped = await self.puzzles.stop_daily(interaction.guild_id)
        key = Msg.PUZZLE_DAILY_OFF if stopped else Msg.PUZZLE_DAILY_WAS_OFF
        await Answer.of(interaction).send(text(key, _locale(interaction)), ephemeral=True)

    # --- buttons (bot.ui.puzzles) -------------------------------------------------------

    async def press(self, interaction: Interaction, press: Press[PuzzleAction]) -> None:
        """A puzzle button: Hint or Reveal on the solver's message showing puzzle
        `press.puzzle_id`, or Solve it under a daily post (routed by
        `bot.ui.components.ComponentRouter`)."""
        puzzle_id = press.puzzle_id
        if puzzle_id is None:
            raise ValueError("a puzzle button carries its puzzle id")
        match press.action:
            case PuzzleAction.HINT:
                await self._hint(interaction, puzzle_id)
            case PuzzleAction.REVEAL:
                await self._reveal(interaction, puzzle_id)
            case PuzzleAction.SOLVE_DAILY:
                view = await self.puzzles.start_puzzle(interaction.user.id, puzzle_id)
                await self._show_start(interaction, view)
            case _:
                assert_never(press.action)

    async def _hint(self, interaction: Interaction, puzzle_id: str) -> None:
        square, view = await self.puzzles.hint(interaction.user.id, puzzle_id)
        reader = await self._reader(interaction, view)
        await self._show(interaction, view, reader=reader, note=text(
            Msg.PUZZLE_HINT, _locale(interaction),
            square=shown_move(square, view.variant, reader)))

    async def _reveal(self, interaction: Interaction, puzzle_id: str) -> None:
        reveal = await self.puzzles.reveal(interaction.user.id, puzzle_id)
        locale = _locale(interaction)
        reader = await self._reader(interaction, reveal.view)
        line = " ".join(shown_move(m, reveal.view.variant, reader) for m in reveal.moves)
        lines = [text(Msg.PUZZLE_REVEALED, locale, line=line)]
        change = rating_text(reveal.result, locale)
        if change:
            lines.append(change)
        await self._show(interaction, reveal.view, note="\n".join(lines), buttons=False,
                         reader=reader)
