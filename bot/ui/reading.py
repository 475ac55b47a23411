"""Reading an interaction into the plain values the services take."""

from __future__ import annotations

from typing import Any

import discord

from bot.messages import Msg
from bot.services import Person, PlayerError, Viewer

Inter = discord.Interaction[Any]


def locale_of(interaction: Inter) -> str:
    """The locale the interaction's user reads."""
    return str(interaction.locale)


def person(user: discord.abc.User) -> Person:
    """A Discord user as the services see them."""
    return Person(user.id, user.display_name, user.bot)


def channel_of(interaction: Inter) -> int:
    """The interaction's channel id, for game commands. Raises `PlayerError(GUILD_ONLY)`
    outside a server."""
    if interaction.channel_id is None or interaction.guild_id is None:
        raise PlayerError(Msg.GUILD_ONLY)
    return interaction.channel_id



def viewer_of(interaction: Inter) -> Viewer:
    """Who asks and from which guild (None in direct messages), for the privacy rule
    (`bot.services.visibility`)."""
    return Viewer(interaction.user.id, interaction.guild_id)
