"""Fixtures of the browser tests: one Chromium for the whole session (`browser`), pages
each in a context of their own that fail the test on a console error, an uncaught script
error or a failed request (`pages`), and the scene's web face (`site`: the games, player,
leaderboard and tournament of `tests/support/web_scene.py`, made once for the session:
the web face only reads).

The browser lives in the session's event loop, so every test here and every async
fixture it uses runs in that loop (`loop_scope="session"`; each test module sets
`pytestmark = pytest.mark.asyncio(loop_scope="session")`)."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest
import pytest_asyncio
from playwright.async_api import Browser

from tests.support.browser import (
    BrowserPages,
    async_playwright,
    chromium_or_skip,
    launch,
    problems_text,
)
from tests.support.web_servers import SceneSite, scene_site


@pytest_asyncio.fixture(scope="session", loop_scope="session")
async def browser() -> AsyncIterator[Browser]:
    """The machine's Chromium, started once; skipped (failed with
    DAMA_REQUIRE_BROWSER=1) where there is none."""
    executable = chromium_or_skip()
    async with async_playwright() as playwright:
        started = await launch(playwright, executable)
        try:
            yield started
        finally:
            await started.close()


@pytest_asyncio.fixture(loop_scope="session")
async def pages(browser: Browser) -> AsyncIterator[BrowserPages]:
    """Pages of this test, each in its own context; the test fails when the browser
    reported a problem on any of them that the test did not expect."""
    opened = BrowserPages(browser)
    try:
        yield opened
    finally:
        await opened.close()
    unexpected = opened.unexpected
    assert not unexpected, f"the browser reported problems:\n{problems_text(unexpected)}"


@pytest_asyncio.fixture(scope="session", loop_scope="session")
async def site(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[SceneSite]:
    """The scene made once, its web face listening on a free loopback port."""
    async with scene_site(tmp_path_factory.mktemp("scene")) as running:
        yield running
