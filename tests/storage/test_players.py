"""PlayerRepository: ids and last known display names."""

from __future__ import annotations

from datetime import timedelta

from storage import Storage
from tests.support.clock import START, FakeClock


async def test_upsert_keeps_last_known_name(storage: Storage, clock: FakeClock) -> None:
    assert await storage.players.get(1) is None
    first = await storage.players.upsert(1, "Ayşe")
    assert (first.user_id, first.display_name, first.created_at) == (1, "Ayşe", START)
    clock.advance(timedelta(days=1))
    renamed = await storage.players.upsert(1, "Ayşe K.")
    assert renamed.display_name == "Ayşe K." and renamed.created_at == START
    assert renamed.updated_at > first.updated_at
    kept = await storage.players.upsert(1, None)
    assert kept.display_name == "Ayşe K."
    assert await storage.players.get(1) == kept
    big = 1_234_567_890_123_456_789  # Discord snowflakes need 64 bits
    assert (await storage.players.upsert(big, "x")).user_id == big
