"""Reading an interaction into the plain values the services take."""

from __future__ import annotations

import math
from typing import Any

import discord
from discord import AppCommandOptionType, app_commands

from bot.messages import Msg, OptionName
from bot.services import Person, PlayerError, Requester, UserRef
from bot.ui.languages import CHANNEL, READER
from storage import PlaceKind

Inter = discord.Interaction[Any]


def locale_of(interaction: Inter) -> str:
    """The language the interaction's user reads (`bot.ui.languages`: settled as the
    interaction arrived), else their client's locale."""
    return str(interaction.extras.get(READER) or interaction.locale)


def channel_locale_of(interaction: Inter) -> str:
    """The language of what the interaction posts for everyone in its channel
    (`bot.ui.languages`), else the server's preferred locale, else English."""
    settled = interaction.extras.get(CHANNEL)
    if settled:
        return str(settled)
    return str(interaction.guild_locale) if interaction.guild_locale else "en"


def person(user: discord.abc.User) -> Person:
    """A Discord user as the services see them."""
    return Person(user.id, user.display_name, user.bot)


def channel_of(interaction: Inter) -> int:
    """The interaction's channel id, for game commands: a server's channel or thread, the
    bot's DM with the user, or a DM or group DM between users (docs/ARCHITECTURE.md,
    "Places"). Raises `ValueError` for an interaction without a channel, which Discord
    never sends for a command or a component."""
    if interaction.channel_id is None:
        raise ValueError("an interaction without a channel")
    return interaction.channel_id


def place_of(interaction: Inter) -> PlaceKind:
    """The kind of place the interaction was made in (docs/ARCHITECTURE.md, "Places"):
    CHANNEL where the app is installed (a server that installed it, whose id is the
    interaction's `authorizing_integration_owners` "0"; or the bot's own DM, context
    BOT_DM), INTERACTIONS where it only answers interactions (context PRIVATE_CHANNEL: a
    DM or group DM between users; or a server where only the user installed it: the
    owners name the user, "1", and not the server, "0"). An interaction without a context
    or owners (Discord sends both since user installs exist) is read as one of a server
    install."""
    context = interaction.context  # discord.app_commands.AppCommandContext
    if context.private_channel:
        return PlaceKind.INTERACTIONS
    if context.dm_channel:
        return PlaceKind.CHANNEL
    if (interaction.guild_id is not None and not interaction.is_guild_integration()
            and interaction.is_user_integration()):
        return PlaceKind.INTERACTIONS
    return PlaceKind.CHANNEL


def answers_forced_private(interaction: Inter) -> bool:
    """Whether Discord shows the app's answers to `interaction` to its user alone: in a
    server where the app is only installed to the user's account and the member lacks
    Use External Apps (Discord's documentation, "Permissions", USE_EXTERNAL_APPS)."""
    return (interaction.guild_id is not None and place_of(interaction) is PlaceKind.INTERACTIONS
            and not interaction.permissions.use_external_apps)


def game_place_of(interaction: Inter) -> PlaceKind:
    """The kind of place of a game that `interaction` would start (`place_of`). Raises
    `PlayerError(EXTERNAL_APPS_OFF)` where every answer is private
    (`answers_forced_private`): no one else could see the game."""
    if answers_forced_private(interaction):
        raise PlayerError(Msg.EXTERNAL_APPS_OFF)
    return place_of(interaction)


def challenge_place_of(interaction: Inter, opponent: Person) -> PlaceKind:
    """The kind of place of a challenge to `opponent` that `interaction` makes
    (`game_place_of`). Raises `PlayerError(CHALLENGE_IN_BOT_DM)` in the bot's own DM with
    the challenger (context BOT_DM: nobody else is in that conversation, so no other user
    could ever accept a challenge posted there); a challenge to oneself or to a bot is
    left to `ChallengeService.create`, which refuses it; and as `game_place_of`."""
    place = game_place_of(interaction)
    if (interaction.context.dm_channel and opponent.user_id != interaction.user.id
            and not opponent.is_bot):
        raise PlayerError(Msg.CHALLENGE_IN_BOT_DM, opponent=UserRef(opponent.user_id))
    return place


def requester_of(interaction: Inter) -> Requester:
    """Who asks, from which guild (None in direct messages) and which channel, for the
    privacy rule (`bot.services.visibility`)."""
    return Requester(interaction.user.id, interaction.guild_id, interaction.channel_id)


INTEGER_LIMIT = 2**53
"""Discord's integer options lie between -2^53 and 2^53 (Discord's documentation,
"Application Commands", option types)."""

SNOWFLAKE_LIMIT = 2**64

_RESOLVED: dict[AppCommandOptionType, tuple[str, ...]] = {
    AppCommandOptionType.user: ("users",),
    AppCommandOptionType.channel: ("channels",),
    AppCommandOptionType.role: ("roles",),
    AppCommandOptionType.mentionable: ("users", "roles"),
    AppCommandOptionType.attachment: ("attachments",),
}


def check_options(interaction: Inter) -> None:
    """Check a slash command's raw options against the command as registered, before
    discord.py reads them: each option named once and registered, the required ones
    present, the option type the registered one, the value of that type (a JSON boolean
    for a boolean, an integer within Discord's range and the registered range, a string
    within the registered length), one of the registered choices, and a user, channel,
    role or attachment id that the interaction's resolved data holds. Values a Discord
    client cannot send (a hostile or broken client) are refused here, never read.
    Autocomplete, buttons and unknown commands are left to discord.py. Raises
    `PlayerError(BAD_OPTION)` naming the option; nothing has been done.
    See docs/ARCHITECTURE.md, "Every option checked at the boundary"."""
    if interaction.type is not discord.InteractionType.application_command:
        return
    command = interaction.command
    if not isinstance(command, app_commands.Command):
        return
    data: Any = interaction.data
    if not isinstance(data, dict):
        raise PlayerError(Msg.BAD_OPTION, option="?")
    resolved = data.get("resolved") or {}
    options = _leaf_options(data)
    registered = {p.display_name: p for p in command.parameters}
    seen: set[str] = set()
    for raw in options:
        name = raw.get("name") if isinstance(raw, dict) else None
        parameter = registered.get(name) if isinstance(name, str) else None
        if parameter is None or name in seen:
            shown = "".join(c for c in str(name) if c.isalnum() or c in "_-")[:32]
            raise PlayerError(Msg.BAD_OPTION, option=shown or "?")
        seen.add(parameter.display_name)
        if not _acceptable(parameter, raw, resolved):
            raise PlayerError(Msg.BAD_OPTION, option=_option(command, parameter))
    for parameter in command.parameters:
        if parameter.required and parameter.display_name not in seen:
            raise PlayerError(Msg.BAD_OPTION, option=_option(command, parameter))


def _option(command: app_commands.Command[Any, ..., Any],
            parameter: app_commands.Parameter) -> OptionName:
    """The option `parameter` of `command`, shown as the reader's client names it."""
    return OptionName(f"{command.qualified_name.replace(' ', '.')}.{parameter.display_name}")


def _leaf_options(data: dict[str, Any]) -> list[Any]:
    """The options of the command itself, below any subcommand group and subcommand."""
    options = data.get("options") or []
    if not isinstance(options, list):
        raise PlayerError(Msg.BAD_OPTION, option="?")
    while (len(options) == 1 and isinstance(options[0], dict)
           and options[0].get("type") in (1, 2)):
        options = options[0].get("options") or []
        if not isinstance(options, list):
            raise PlayerError(Msg.BAD_OPTION, option="?")
    return options


def _acceptable(parameter: app_commands.Parameter, raw: dict[str, Any],
                resolved: Any) -> bool:
    kind = parameter.type
    if raw.get("type") != kind.value or "value" not in raw:
        return False
    value = raw["value"]
    low, high = parameter.min_value, parameter.max_value
    if kind is AppCommandOptionType.boolean:
        return isinstance(value, bool)
    if kind is AppCommandOptionType.string:
        if not isinstance(value, str):
            return False
        size = len(value)
        if (low is not None and size < low) or (high is not None and size > high):
            return False
    elif kind in (AppCommandOptionType.integer, AppCommandOptionType.number):
        if isinstance(value, bool) or not isinstance(value, int | float):
            return False
        if kind is AppCommandOptionType.integer and not isinstance(value, int):
            return False
        if not (math.isfinite(value) and -INTEGER_LIMIT <= value <= INTEGER_LIMIT):
            return False
        if (low is not None and value < low) or (high is not None and value > high):
            return False
    elif kind in _RESOLVED:
        if not (isinstance(value, str) and value.isascii() and value.isdigit()
                and int(value) < SNOWFLAKE_LIMIT and isinstance(resolved, dict)):
            return False
        if not any(isinstance(resolved.get(key), dict) and value in resolved[key]
                   for key in _RESOLVED[kind]):
            return False
    else:
        return False
    if parameter.choices:
        return any(type(c.value) is type(value) and c.value == value
                   for c in parameter.choices)
    return True
