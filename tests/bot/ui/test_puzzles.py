"""The daily puzzle's owner among several processes: Discord's sharding formula,
`shard_id = (guild_id >> 22) % shard_count` (Discord developer documentation, "Gateway:
Sharding")."""

from __future__ import annotations

import discord

from bot.ui.puzzles import DailyPuzzlePosts

GUILD = 81384788765712384


def test_an_unsharded_process_owns_every_server() -> None:
    posts = DailyPuzzlePosts(discord.Client(intents=discord.Intents.none()))
    assert posts.owns(GUILD) and posts.owns(1)


def test_each_server_has_exactly_one_owning_shard() -> None:
    clients = [discord.Client(intents=discord.Intents.none(), shard_id=i, shard_count=3)
               for i in range(3)]
    # The id's bits above the 22 low ones (its timestamp) modulo the shard count.
    for guild, shard in ((1 << 22, 1), (5 << 22, 2), ((3 << 22) + 12345, 0)):
        owners = [i for i, c in enumerate(clients) if DailyPuzzlePosts(c).owns(guild)]
        assert owners == [shard]
