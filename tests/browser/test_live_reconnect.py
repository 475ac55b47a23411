"""A live game's page whose event stream is refused (`static/live.js`): a reverse proxy
answering 502 while the web process restarts, or the viewers' limit answering 429 or 503
(`bot.web.live`). The browser's EventSource never retries a refused stream by itself, so
the page opens it again, later."""

from __future__ import annotations

import pytest
from playwright.async_api import Response, Route

from bot.services.web_access import PageKind
from tests.support.browser import BrowserPages, wait_board
from tests.support.web_servers import SceneSite

pytestmark = [pytest.mark.asyncio(loop_scope="session"), pytest.mark.slow]

RETRY_WAIT_MS = 10_000
"""Milliseconds the page may take to open its refused stream again."""


async def test_a_refused_stream_is_opened_again(pages: BrowserPages, site: SceneSite) -> None:
    page = await pages.page()
    pages.expect_problem(r"502")
    refused: list[str] = []

    async def restarting_proxy(route: Route) -> None:
        if not refused:  # the first request meets the restart: the proxy's 502
            refused.append(route.request.url)
            await route.fulfill(status=502, body="Bad Gateway")
        else:
            await route.continue_()

    await page.route("**/events**", restarting_proxy)

    def streamed(answer: Response) -> bool:
        return "/events" in answer.url and answer.status == 200

    async with page.expect_response(streamed, timeout=RETRY_WAIT_MS) as answer:
        await page.goto(site.url(site.path(PageKind.GAME, site.scene.live_game,
                                           signed=False)))
        await wait_board(page)
    assert refused
    assert "from=" in (await answer.value).url
