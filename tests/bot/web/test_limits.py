"""Rate limits per client address (`bot.web.limits`): the bucket's arithmetic on a
stepped clock, and through the real server: the 429 page with `Retry-After` after the
burst, per address, `X-Forwarded-For` believed only from a trusted proxy."""

from __future__ import annotations

from dataclasses import replace

from bot.web.limits import RateLimiter
from tests.support.services import OpenServices
from tests.support.web import WEB_SETTINGS, web_server


class SteppedClock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_a_bucket_allows_its_burst_then_one_request_per_refill() -> None:
    clock = SteppedClock()
    limiter = RateLimiter(rate=2.0, burst=3, monotonic=clock)
    assert [limiter.wait("a") for _ in range(3)] == [0.0, 0.0, 0.0]
    assert limiter.wait("a") == 0.5
    assert limiter.wait("b") == 0.0
    clock.now += 0.5
    assert limiter.wait("a") == 0.0
    assert limiter.wait("a") == 0.5
    clock.now += 100
    assert [limiter.wait("a") for _ in range(4)] == [0.0, 0.0, 0.0, 0.5]


async def test_past_the_burst_the_429_page_says_when_to_come_back(
        open_services: OpenServices) -> None:
    services = await open_services()
    limiter = RateLimiter(rate=0.1, burst=3, monotonic=SteppedClock())
    async with web_server(services, limiter=limiter) as face:
        statuses = [(await face.client.get("/no/such/page")).status for _ in range(3)]
        refused = await face.client.get("/no/such/page")
        assert statuses == [404, 404, 404]
        assert refused.status == 429
        assert refused.headers["Retry-After"] == "10"
        assert "<h1>Too many requests</h1>" in await refused.text()
        assert (await face.client.get("/health")).status == 200


async def test_a_forwarded_address_counts_only_behind_a_trusted_proxy(
        open_services: OpenServices) -> None:
    services = await open_services()
    untrusted = RateLimiter(rate=0.1, burst=2, monotonic=SteppedClock())
    async with web_server(services, limiter=untrusted) as face:
        answers = [await face.client.get("/no", headers={"X-Forwarded-For": f"10.0.0.{n}"})
                   for n in range(3)]
        assert [answer.status for answer in answers] == [404, 404, 429]
    trusted = replace(WEB_SETTINGS, trusted_proxies=frozenset({"127.0.0.1"}))
    limiter = RateLimiter(rate=0.1, burst=2, monotonic=SteppedClock())
    async with web_server(services, trusted, limiter=limiter) as face:
        forwarded = [await face.client.get("/no", headers={
            "X-Forwarded-For": f"203.0.113.7, 10.0.0.{n}"}) for n in range(3)]
        assert [answer.status for answer in forwarded] == [404, 404, 404]
        same = [await face.client.get("/no", headers={"X-Forwarded-For": "10.0.0.9"})
                for _ in range(3)]
        assert [answer.status for answer in same] == [404, 404, 429]
