"""`ShardScope`: which guilds' games a process owns. Discord's rule (developer docs,
Topics > Gateway, Sharding): a guild's events go to shard `(guild_id >> 22) %
num_shards`, direct messages to shard 0. The id below is Discord's own example snowflake
(Reference > Snowflakes), 175928847299117063, whose timestamp (id >> 22) is 41944705796
ms (the docs give 2016-04-30 11:18:25.796 UTC); the remainders are worked by hand."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

import pytest

import engine
from bot.services.shards import EVERY_SHARD, ShardScope, parse_shard_ids, shard_of
from storage import ChallengeStatus, GameRecord, NewChallenge, NewGame, Seat, Storage
from tests.support.clock import FakeClock
from tests.support.services import OpenServices

EXAMPLE = 175928847299117063


def test_shard_of_follows_discords_formula() -> None:
    assert EXAMPLE >> 22 == 41944705796
    assert shard_of(EXAMPLE, 1) == 0
    assert shard_of(EXAMPLE, 2) == 0  # ...796 is even
    assert shard_of(EXAMPLE, 4) == 0  # 96 % 4
    assert shard_of(EXAMPLE, 5) == 1  # ends in 6
    assert shard_of(EXAMPLE, 16) == 4  # 5796 = 16 * 362 + 4
    assert shard_of(None, 16) == 0  # direct messages: shard 0
    with pytest.raises(ValueError):
        shard_of(EXAMPLE, 0)


def test_every_shard_owns_everything() -> None:
    assert EVERY_SHARD.everything and EVERY_SHARD.holds_shard_zero
    assert EVERY_SHARD.owns(EXAMPLE) and EVERY_SHARD.owns(None)
    all_four = ShardScope(4, frozenset(range(4)))
    assert all_four.everything and all_four.owns(EXAMPLE) and all_four.owns(None)
    assert ShardScope(4, None).everything


def test_a_part_of_the_shards_owns_its_guilds_and_shard_zero_the_direct_messages() -> None:
    one = ShardScope(5, frozenset({1}))
    assert one.owns(EXAMPLE) and not one.owns(None) and not one.holds_shard_zero
    zero = ShardScope(5, frozenset({0, 2}))
    assert not zero.owns(EXAMPLE) and zero.owns(None) and zero.holds_shard_zero
    next_ms = (41944705797 << 22) | 7  # one millisecond later: shard 2 of 5
    assert zero.owns(next_ms) and not one.owns(next_ms)
    assert zero.describe() == "shards 0, 2 of 5" and EVERY_SHARD.describe() == "every shard"


def test_scope_refuses_ids_outside_the_count() -> None:
    with pytest.raises(ValueError, match="from 0 to 1"):
        ShardScope(2, frozenset({2}))
    with pytest.raises(ValueError, match="need a shard count"):
        ShardScope(None, frozenset({0}))


def test_parse_shard_ids() -> None:
    assert parse_shard_ids("0-3", 4) == frozenset({0, 1, 2, 3})
    assert parse_shard_ids("0,2", 4) == frozenset({0, 2})
    with pytest.raises(ValueError, match="at least one"):
        parse_shard_ids(" ", 4)


# --- the services apply the scope: two processes on one database -----------------------

GUILD_ON_0 = (41944705796 << 22) | 1  # timestamp even: shard 0 of 2
GUILD_ON_1 = (41944705797 << 22) | 1  # odd: shard 1 of 2


async def _game_in(storage: Storage, guild: int | None, channel: int, white: int,
                   black: int) -> GameRecord:
    variant = engine.get_variant("turkish")
    return await storage.games.create(NewGame(
        variant=variant.key, channel_id=channel, guild_id=guild, white=Seat.human(white),
        black=Seat.human(black), start_fen=engine.Position.start(variant).to_fen(variant),
        rated=True,
    ))


async def test_each_process_restores_announces_and_expires_only_its_shards(
    open_services: OpenServices, tmp_path: Path,
) -> None:
    clock = FakeClock()
    path = tmp_path / "shared.sqlite3"
    seed = await open_services(path, clock)
    on_0 = await _game_in(seed.storage, GUILD_ON_0, 700, 1, 2)
    on_1 = await _game_in(seed.storage, GUILD_ON_1, 701, 3, 4)
    in_dm = await _game_in(seed.storage, None, 702, 5, 6)
    expiry = clock() + timedelta(minutes=1)
    challenge_0 = await seed.storage.challenges.create(
        NewChallenge(7, 8, GUILD_ON_0, 710, "turkish", expiry))
    challenge_1 = await seed.storage.challenges.create(
        NewChallenge(7, 8, GUILD_ON_1, 711, "turkish", expiry))
    await seed.close()

    first = await open_services(path, clock, scope=ShardScope(2, frozenset({0})))
    second = await open_services(path, clock, scope=ShardScope(2, frozenset({1})))
    # Restored: each its own shard's games; the direct message's game with shard 0.
    assert first.games.has_game(700) and first.games.has_game(702)
    assert not first.games.has_game(701)
    assert second.games.has_game(701)
    assert not second.games.has_game(700) and not second.games.has_game(702)
    # Owed boards (every new game owes its first board): each posts its own.
    posted_first = await first.games.post_owed_boards(first.announced)
    posted_second = await second.games.post_owed_boards(second.announced)
    assert sorted(u.state.game_id for u in posted_first) == sorted([on_0.id, in_dm.id])
    assert [u.state.game_id for u in posted_second] == [on_1.id]
    # Challenges: each restores and expires its own.
    assert await first.challenges.restore() == 1 and await second.challenges.restore() == 1
    clock.advance(timedelta(minutes=2))
    assert [c.id for c in await first.challenges.expire_due()] == [challenge_0.id]
    left = await second.storage.challenges.get(challenge_1.id)
    assert left is not None and left.status is ChallengeStatus.PENDING
    assert [c.id for c in await second.challenges.expire_due()] == [challenge_1.id]
    assert await first.challenges.expire_due() == []
