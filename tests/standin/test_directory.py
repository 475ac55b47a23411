"""Users, guilds and channels of the stand-in: names, look-ups, permissions."""

from __future__ import annotations

import pytest

from standin import ChannelType, Permission, StandIn, StandInError
from standin.directory import username_for


def test_usernames_follow_discord_rules() -> None:
    # Discord usernames: lower case letters, digits, "_" and "."; at most 32 characters.
    assert username_for("Rossi Mario") == "rossi_mario"
    assert username_for("Émile Zola") == "emile_zola"
    assert username_for("D'Amico, G.") == "d_amico_g."
    assert username_for("!!!") == "user"
    assert len(username_for("x" * 40)) == 32


async def test_users_by_display_name_username_mention_or_id(standin: StandIn) -> None:
    mario = standin.user("Rossi Mario", locale="it")
    assert mario.name == "rossi_mario"
    assert standin.user("rossi mario") == mario == standin.user("@Rossi_Mario")
    assert standin.world.users[mario.id].locale == "it"
    other = standin.user("Rossi-Mario")  # same username base: made unique
    assert other.name == "rossi_mario2" and other != mario
    with pytest.raises(StandInError, match="1 to 32"):
        standin.user("x" * 33)


async def test_channels_threads_and_lookups(standin: StandIn) -> None:
    general = standin.channel("#general")
    assert general.kind is ChannelType.GUILD_TEXT and general.guild_id is not None
    thread = await standin.add_thread(general, "game 1", owner="alice")
    assert thread.kind is ChannelType.PUBLIC_THREAD and thread.parent_id == general.id
    other = await standin.add_guild("Second Club")
    assert standin.guild(other.id) == other
    with pytest.raises(StandInError, match="more than one channel"):
        standin.channel("general")
    with pytest.raises(StandInError, match="not a text channel"):
        await standin.add_thread(thread, "nested", owner="alice")


async def test_overwrites_hide_a_channel(standin: StandIn) -> None:
    guild = standin.guild("Dama Club")
    games = standin.channel("games")
    mods = await standin.add_role(guild, "mods", 0)
    await standin.set_permissions(games, standin.everyone(guild), deny=int(Permission.VIEW_CHANNEL))
    await standin.set_permissions(games, mods, allow=int(Permission.VIEW_CHANNEL))
    with pytest.raises(StandInError, match="cannot see"):
        await standin.say("alice", games, "hello")
    await standin.give_role(guild, "alice", mods)
    said = await standin.say("alice", games, "hello")
    assert said.channel_id == games.id
