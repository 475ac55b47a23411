"""A process restarted while the claim of its dead predecessor (same commands) still holds
(`bot/sync.py`, `CLAIM_SECONDS`): the bot starts at once, answering commands from its own
tree, and syncs in the background once the claim is old enough to take over; before, its
start (`setup_hook`, before the gateway connection) waited up to two minutes, and with a
clock that did not reach the claim's end it then gave up without syncing."""

from __future__ import annotations

import asyncio
from datetime import timedelta
from pathlib import Path

from bot.client import DamaBot
from bot.sync import CLAIM_SECONDS, POLL_SECONDS
from storage.clock import to_ms
from tests.support.clock import FakeClock
from tests.support.discord_harness import settings_for
from tests.support.fake_discord import FakeDiscord
from tests.support.schema_hash import store_schema_hash, stored_schema_hash

START_GUARD = CLAIM_SECONDS / 4
"""Far more than the start needs, far less than waiting the claim out: a start that waits
for the claim fails here instead of hanging."""


async def test_a_restart_within_the_claim_starts_at_once_and_syncs_later(
    tmp_path: Path
) -> None:
    database = tmp_path / "db.sqlite3"
    fake = FakeDiscord()
    with fake.installed():
        first = DamaBot(settings_for(database), clock=FakeClock(), run_scheduler=False)
        await first.login("fake-token")
        await first.close()
        digest = await stored_schema_hash(database)
        assert digest is not None
        # The process died while syncing these commands (its claim is fresh), after a
        # deploy changed nothing else: the stored hash is its claim.
        clock = FakeClock()
        claim = f"syncing {digest} {to_ms(clock.now)}"
        await store_schema_hash(database, digest, claim)
        puts = sum(c.method == "PUT" for c in fake.calls)
        again = DamaBot(settings_for(database), clock=clock, run_scheduler=False)
        try:
            await asyncio.wait_for(again.login("fake-token"), START_GUARD)
            assert again.sync_result is None  # not synced yet: the claim still holds
            assert await stored_schema_hash(database) == claim
            clock.advance(timedelta(seconds=CLAIM_SECONDS + 1))
            for _ in range(40):
                if again.sync_result is not None:
                    break
                await asyncio.sleep(POLL_SECONDS)
            assert again.sync_result == "global"
            assert sum(c.method == "PUT" for c in fake.calls) == puts + 1
            assert await stored_schema_hash(database) == digest
        finally:
            await again.close()
