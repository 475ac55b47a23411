"""Snowflake ids: the documented layout, and named ids that a seeded stand-in gives the
same users, guild and channels in every run."""

from __future__ import annotations

import datetime

from standin import StandIn
from standin.snowflakes import SnowflakeFactory, snowflake_time


def test_ids_read_back_as_their_creation_time() -> None:
    # Discord's documented example: 175928847299117063 was made 2016-04-30 11:18:25.796 UTC.
    assert snowflake_time(175928847299117063) == datetime.datetime(
        2016, 4, 30, 11, 18, 25, 796000, tzinfo=datetime.UTC)
    ids = SnowflakeFactory()
    first, second = ids.next(), ids.next()
    assert second > first
    assert abs(snowflake_time(first) - datetime.datetime.now(datetime.UTC)).total_seconds() < 5


def test_named_ids_follow_the_seed() -> None:
    one, two = SnowflakeFactory(seed="a"), SnowflakeFactory(seed="a")
    assert one.named("user", "alice") == two.named("user", "alice")
    assert one.named("user", "bob") != one.named("user", "alice")
    assert one.named("guild", "x") != SnowflakeFactory(seed="b").named("guild", "x")
    # A name handed out twice by one factory (two channels of one name) gets a new id.
    assert one.named("channel", "c") != one.named("channel", "c")
    # Their times are real past moments (2025), not in the future.
    assert snowflake_time(one.named("user", "carol")).year == 2025
    unseeded = SnowflakeFactory()
    assert unseeded.named("user", "alice") != unseeded.named("user", "alice")


async def _ids(seed: str | None) -> tuple[int, int, int, int, int]:
    async with StandIn(id_seed=seed) as standin:
        guild = await standin.add_guild("Dama Club", channels=("general", "games"))
        await standin.add_channel(guild, "later")
        return (standin.user("alice").id, guild.id, standin.channel("general").id,
                standin.channel("later").id, standin.bot.id)


async def test_a_seeded_stand_in_keeps_people_guilds_and_channels() -> None:
    first, second = await _ids("local"), await _ids("local")
    assert first[:4] == second[:4]
    # The bot (a new application each time) is not named by the seed: made just now.
    now = datetime.datetime.now(datetime.UTC)
    for bot_id in (first[4], second[4]):
        assert abs((snowflake_time(bot_id) - now).total_seconds()) < 60
    assert len(set(first)) == 5
    other = await _ids(None)
    assert not set(other) & set(first)


async def _private_ids(seed: str | None) -> tuple[int, ...]:
    async with StandIn(id_seed=seed) as standin:
        dm = standin.dm_between("bob", "alice")  # bob opens it this time
        group = standin.group_dm("carol", "alice", "bob")
        other_group = standin.group_dm("alice", "bob")
        bots_dm = await standin.dm_channel("alice")
        return dm.id, group.id, other_group.id, bots_dm.id


async def test_a_seeded_stand_in_keeps_dms_and_group_dms_of_the_same_people() -> None:
    async with StandIn(id_seed="local") as standin:
        earlier = (standin.dm_between("alice", "bob").id,
                   standin.group_dm("alice", "bob", "carol").id,
                   standin.group_dm("bob", "alice").id,
                   (await standin.dm_channel("alice")).id)
        # A second group DM of the same people is another one, as on Discord.
        again = standin.group_dm("alice", "bob", "carol").id
    assert await _private_ids("local") == earlier
    assert again not in earlier
    assert len(set(earlier)) == 4
    assert not set(await _private_ids(None)) & set(earlier)
