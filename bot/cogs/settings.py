"""Preferences: `/settings` (the caller's own) and `/server-settings` (a server's
defaults; shown in the command list only to members with Manage Server, and checked again
here, since a client can send any interaction). Called without options, each shows the
current values.

The options, their choices and ranges, and the lines of the two embeds follow from the
declarations (`bot.services.settings.PREFERENCES`): `preference_options` gives each
command one option per preference its setter sets; `settings_embed` and
`server_settings_embed` write one line per preference. Nothing here names a preference
but the language, whose change is answered in the new language.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from typing import Any, Optional, TypeVar, assert_never

import discord
from discord import app_commands
from discord.ext import commands

from bot.cogs.installs import anywhere, servers_only
from bot.language import AUTO, SOURCE, Language, from_locale
from bot.messages import Msg, text
from bot.messages import command_text as t
from bot.services import PlayerError
from bot.services.settings import (
    MAX_CHALLENGE_LIMIT,
    NO_ROLE,
    GuildSettings,
    Kind,
    PlayerSettings,
    Preference,
    PreferenceService,
    Setter,
    preferences_of,
)
from bot.ui.answer import Answer
from bot.ui.languages import settle
from bot.ui.present import EMBED_COLOUR
from bot.ui.reading import channel_locale_of, locale_of

Interaction = discord.Interaction[Any]

COMMANDS = {Setter.PLAYER: "settings", Setter.SERVER: "server-settings"}
"""The command each setter uses."""

LANGUAGE_CHOICES = [
    *(app_commands.Choice(name=t(f"choice.{language.value}"), value=language.value)
      for language in Language),
    app_commands.Choice(name=t("choice.language_auto"), value=AUTO),
]
"""The `language` option: each catalog's language by its own name, and automatic."""

Limit = app_commands.Range[int, 1, MAX_CHALLENGE_LIMIT]

F = TypeVar("F", bound=Callable[..., Any])


def option_choices(preference: Preference) -> list[app_commands.Choice[str]]:
    """The choices of `preference`'s option (none for a number)."""
    match preference.kind:
        case Kind.CHOICE:
            return [app_commands.Choice(name=t(f"choice.{value}"), value=value)
                    for value in preference.choices()]
        case Kind.LANGUAGE:
            return LANGUAGE_CHOICES
        case Kind.LIMIT | Kind.ROLE:
            return []
        case _:
            assert_never(preference.kind)


def option_type(preference: Preference) -> object:
    """The annotation of `preference`'s option, which discord.py registers (optional)."""
    match preference.kind:
        case Kind.CHOICE | Kind.LANGUAGE:
            return Optional[str]  # noqa: UP045 (a runtime annotation discord.py reads)
        case Kind.LIMIT:
            return Optional[Limit]  # noqa: UP045
        case Kind.ROLE:
            return Optional[discord.Role]  # noqa: UP045
        case _:
            assert_never(preference.kind)


def preference_options(who: Setter) -> Callable[[F], F]:
    """Give a command callback `(self, interaction, **options)` one optional option per
    preference `who` sets (`preferences_of`), in the declared order, with its
    description (`COMMAND_TEXT["<command>.<name>"]`) and choices, as discord.py reads
    them from the signature (`inspect.signature` honours `__signature__`)."""

    def decorate(callback: F) -> F:
        command = COMMANDS[who]
        declared = preferences_of(who)
        head = list(inspect.signature(callback).parameters.values())[:2]
        callback.__signature__ = inspect.Signature([  # type: ignore[attr-defined]
            *head,
            *(inspect.Parameter(preference.name, inspect.Parameter.KEYWORD_ONLY,
                                default=None, annotation=option_type(preference))
              for preference in declared),
        ])
        describe = app_commands.describe(**{
            preference.name: t(f"{command}.{preference.name}") for preference in declared})
        choose = app_commands.choices(**{
            preference.name: option_choices(preference) for preference in declared
            if option_choices(preference)})
        return choose(describe(callback))

    return decorate


def written(preference: Preference, value: object, locale: str | None, shown: str) -> str:
    """How `value` of `preference` reads in a settings embed, in `locale`: a choice by its
    word, a number as it is, a language by its own name, or automatic with the language
    it gives now (`shown`)."""
    match preference.kind:
        case Kind.CHOICE:
            return text(preference.words[str(value)], locale)
        case Kind.LANGUAGE:
            if isinstance(value, str):
                return Language.of(value).endonym
            now = from_locale(shown) or SOURCE
            return text(Msg.LANGUAGE_AUTOMATIC, locale, language=now.endonym)
        case Kind.LIMIT:
            return str(value)
        case Kind.ROLE:
            return f"<@&{value}>" if isinstance(value, int) else text(Msg.ORGANISER_ROLE_NONE,
                                                                     locale)
        case _:
            assert_never(preference.kind)


def _embed(title: Msg, lines: list[str], hint: Msg, locale: str | None,
           saved: bool) -> discord.Embed:
    body = "\n".join([*lines, text(hint, locale)])
    if saved:
        body = text(Msg.SETTINGS_SAVED, locale) + "\n" + body
    return discord.Embed(title=text(title, locale), description=body, colour=EMBED_COLOUR)


def settings_embed(settings: PlayerSettings, locale: str,
                   saved: bool = False) -> discord.Embed:
    """The caller's preferences as an embed, one line per preference (`saved`: after a
    change), in `locale`, the language they read now."""
    lines = [
        text(preference.line(Setter.PLAYER), locale,
             value=written(preference, settings.value(preference.name), locale, locale))
        for preference in preferences_of(Setter.PLAYER)
    ]
    return _embed(Msg.SETTINGS_TITLE, lines, Msg.SETTINGS_HINT, locale, saved)


def server_settings_embed(settings: GuildSettings, defaults: GuildSettings,
                          locale: str | None, saved: bool = False,
                          channel_language: str = SOURCE.value) -> discord.Embed:
    """A server's defaults as an embed, one line per default, each beside the
    environment's (`defaults`); `channel_language`: the language its channel posts get
    now."""
    lines = [
        text(preference.line(Setter.SERVER), locale,
             value=written(preference, settings.value(preference.name), locale,
                           channel_language),
             default=defaults.value(preference.name))
        for preference in preferences_of(Setter.SERVER)
    ]
    return _embed(Msg.SERVER_SETTINGS_TITLE, lines, Msg.SERVER_SETTINGS_HINT, locale, saved)


def _given(options: dict[str, str | int | discord.Role | None]) -> dict[str, str | int]:
    """The options given, a role by its id (the server's @everyone role: `NO_ROLE`, which
    removes the role)."""
    return {name: _plain(value) for name, value in options.items() if value is not None}


def _plain(value: str | int | discord.Role) -> str | int:
    if isinstance(value, discord.Role):
        return NO_ROLE if value.is_default() else value.id
    return value


class PreferencesCog(commands.Cog):
    """`/settings` and `/server-settings`."""

    def __init__(self, *, settings: PreferenceService) -> None:
        self.settings = settings

    @app_commands.command(name="settings", description=t("settings"))
    @anywhere
    @preference_options(Setter.PLAYER)
    async def player_settings(self, interaction: Interaction, /,
                              **options: str | int | discord.Role | None) -> None:
        changes = _given(options)
        settings = await self.settings.update_player(interaction.user.id, **changes)
        language = changes.get("language")
        content = None
        if language is not None:
            # Answered in the language just chosen (or the one automatic gives now).
            await settle(interaction, self.settings)
            content = text(Msg.LANGUAGE_AUTO if language == AUTO else Msg.LANGUAGE_SET,
                           locale_of(interaction))
        await Answer.of(interaction).send(
            content,
            embed=settings_embed(settings, locale_of(interaction), saved=bool(changes)),
            ephemeral=True,
        )

    @app_commands.command(name="server-settings", description=t("server-settings"))
    @servers_only
    @app_commands.default_permissions(manage_guild=True)
    @preference_options(Setter.SERVER)
    async def server_settings(self, interaction: Interaction, /,
                              **options: str | int | discord.Role | None) -> None:
        guild_id = interaction.guild_id
        # default_permissions only hides the command; an admin may grant it to others in
        # the server's integration settings, and a client can send it anyway.
        if guild_id is None or not interaction.permissions.manage_guild:
            raise PlayerError(Msg.SETTINGS_ADMIN_ONLY)
        changes = _given(options)
        settings = await self.settings.update_guild(guild_id, **changes)
        defaults = await self.settings.guild(None)
        language = changes.get("language")
        content = None
        if language is not None:
            await settle(interaction, self.settings)
            # A private answer: in the admin's language, like its embed (docs/LANGUAGES.md).
            content = (text(Msg.SERVER_LANGUAGE_AUTO, locale_of(interaction)) if language == AUTO
                       else text(Msg.SERVER_LANGUAGE_SET, locale_of(interaction),
                                 language=Language.of(str(language)).endonym))
        await Answer.of(interaction).send(
            content,
            embed=server_settings_embed(settings, defaults, locale_of(interaction),
                                        saved=bool(changes),
                                        channel_language=channel_locale_of(interaction)),
            ephemeral=True,
        )
