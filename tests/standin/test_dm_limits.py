"""The bot's DM budget: DM channels opened and messages sent to DMs per window, refused
beyond it with 429, `retry_after` and the rate-limit headers (Discord developer docs,
Topics > Rate Limits), which discord.py waits out and retries."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator

import aiohttp
import pytest

from standin import DmLimit, StandIn
from standin.dm_limits import DmBudget
from standin.errors import RateLimited
from standin.openapi import OpenApiCheck
from tests.support.discord_spec import checked_by_spec
from tests.support.standin_probe_bot import ProbeBot, running


@pytest.fixture(autouse=True)
def discord_spec() -> Iterator[OpenApiCheck]:
    """Requests and answers (the 429 too) meet Discord's specification."""
    yield from checked_by_spec()


def test_the_budget_refills_as_its_window_moves_on() -> None:
    now = [0.0]
    budget = DmBudget(DmLimit(opens=2, sends=1, window=10.0), lambda: now[0])
    budget.open()
    now[0] = 4.0
    budget.open()
    with pytest.raises(RateLimited) as refused:
        budget.open()
    assert refused.value.retry_after == pytest.approx(6.0)
    now[0] = 10.0
    budget.open()  # the first opening left the window
    assert (budget.counts.opened, budget.counts.refused) == (3, 1)


async def test_a_dm_beyond_the_budget_is_429_with_the_rate_limit_headers() -> None:
    async with StandIn(dm_limit=DmLimit(opens=1, sends=5, window=30.0)) as standin:
        alice, bob = standin.user("alice"), standin.user("bob")
        headers = {"Authorization": f"Bot {standin.token}"}
        url = f"{standin.rest_base}/users/@me/channels"
        async with aiohttp.ClientSession(headers=headers) as http:
            async with http.post(url, json={"recipient_id": str(alice.id)}) as resp:
                assert resp.status == 200
            async with http.post(url, json={"recipient_id": str(bob.id)}) as resp:
                assert resp.status == 429
                body = await resp.json()
                assert body["global"] is False and 29 < body["retry_after"] <= 30
                assert resp.headers["X-RateLimit-Scope"] == "user"
                assert resp.headers["X-RateLimit-Remaining"] == "0"
                assert resp.headers["X-RateLimit-Limit"] == "1"
                assert float(resp.headers["X-RateLimit-Reset-After"]) == body["retry_after"]
                assert int(resp.headers["Retry-After"]) == 30
        standin.advance_clock(30.0)
        async with (aiohttp.ClientSession(headers=headers) as http,
                    http.post(url, json={"recipient_id": str(bob.id)}) as resp):
            assert resp.status == 200
        assert standin.dm_counts.opened == 2 and standin.dm_counts.refused == 1


async def test_discord_py_waits_out_a_dm_rate_limit() -> None:
    async with StandIn(dm_limit=DmLimit(opens=5, sends=1, window=0.5)) as limited:
        await limited.add_guild("Dama Club", channels=("general",))
        bot = ProbeBot()
        async with running(limited, bot):
            await limited.slash("alice", "general", "dmme")
            await limited.slash("alice", "general", "dmme")
            results = [await asyncio.wait_for(bot.dm_results.get(), 5) for _ in range(2)]
        assert results == [0, 0]
        assert limited.dm_counts.sent == 2 and limited.dm_counts.refused == 1
        assert len(limited.messages(await limited.dm_channel("alice"))) == 2
