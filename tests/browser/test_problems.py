"""The browser fixture sees what a reader's browser reports as wrong: a script refused
by the Content Security Policy and an uncaught script error are problems (so the pages'
tests, which fail on any problem, would see them on the real pages)."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest
import pytest_asyncio
from aiohttp import web
from aiohttp.test_utils import TestServer

from tests.support.browser import BrowserPages, ProblemKind

pytestmark = pytest.mark.asyncio(loop_scope="session")

CSP = "default-src 'none'; script-src 'self'"

PAGE = """<!doctype html><html><head><title>t</title>
<script>document.title = "inline ran";</script>
<script src="/throws.js"></script></head><body><p id="p">page</p></body></html>"""


async def _page(request: web.Request) -> web.Response:
    return web.Response(text=PAGE, content_type="text/html",
                        headers={"Content-Security-Policy": CSP})


async def _throws(request: web.Request) -> web.Response:
    return web.Response(text='throw new Error("thrown by the test");',
                        content_type="text/javascript",
                        headers={"Content-Security-Policy": CSP})


@pytest_asyncio.fixture(loop_scope="session")
async def site() -> AsyncIterator[TestServer]:
    """A page with an inline script (refused by its policy) and a script that throws."""
    app = web.Application()
    app.router.add_get("/", _page)
    app.router.add_get("/throws.js", _throws)
    server = TestServer(app)
    await server.start_server()
    try:
        yield server
    finally:
        await server.close()


async def test_a_refused_inline_script_and_a_thrown_error_are_problems(
    pages: BrowserPages, site: TestServer,
) -> None:
    page = await pages.page()
    await page.goto(str(site.make_url("/")))
    await page.wait_for_function("() => document.readyState === 'complete'")
    assert await page.title() == "t"  # the inline script did not run
    kinds = {(problem.kind, "Content Security Policy" in problem.text)
             for problem in pages.problems}
    assert (ProblemKind.CONSOLE, True) in kinds, pages.problems
    assert any(problem.kind is ProblemKind.PAGE_ERROR and "thrown by the test" in problem.text
               for problem in pages.problems), pages.problems
    pages.expect_problem("Content Security Policy|thrown by the test")
    assert pages.unexpected == []
