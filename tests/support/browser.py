"""The machine's Chromium driven by Playwright, for the web pages' tests in a real browser
(docs/TESTING.md, "The web pages in a real browser").

Playwright's own browser downloads are not used (`playwright install` needs the network):
Playwright's driver (in its PyPI wheel) launches Debian's `chromium` package, or the
Chromium at `DAMA_CHROMIUM`. Where there is none, the browser tests are skipped with a
line saying how to enable them; `DAMA_REQUIRE_BROWSER=1` (set by `.ci/run`) makes that a
failure, as `DAMA_REQUIRE_POSTGRES` does for PostgreSQL.

`BrowserPages` opens each page in a browser context of its own (no shared cache or
storage between them) and watches it: an error on the console (a Content Security
Policy refusal is one), an uncaught script error or a failed request is a problem, and
the fixture that made it fails the test when any was seen and not expected
(`expect_problem`).
"""

from __future__ import annotations

import enum
import os
import re
import shutil
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from playwright.async_api import (
    Browser,
    BrowserContext,
    ConsoleMessage,
    Error,
    Page,
    Playwright,
    Request,
    ViewportSize,
    async_playwright,
)

CHROMIUM_ENV = "DAMA_CHROMIUM"
"""A Chromium executable to use instead of the system's."""

REQUIRE_ENV = "DAMA_REQUIRE_BROWSER"

CHROMIUM_NAMES = ("chromium", "chromium-browser")
"""The executable's names, looked up on PATH (Debian's package installs `chromium`)."""

HOW_TO_ENABLE = (
    "no Chromium for the browser tests: install Debian's package `chromium` "
    "(apt-get install chromium) or set DAMA_CHROMIUM to a Chromium executable; "
    "DAMA_REQUIRE_BROWSER=1 makes its absence a failure"
)

CHROMIUM_ARGS = (
    "--no-sandbox",  # Chromium's sandbox refuses to start as root (CI runs as root)
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    # Chromium's own connections to Google's services: refused on a machine without the
    # network, they would stall or fill the log.
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
)

DESKTOP = ViewportSize(width=1280, height=800)
PHONE = ViewportSize(width=390, height=844)

PHONE_WIDTHS = 500
"""A viewport narrower than this many CSS pixels is a phone's: a touch screen, and the
mobile viewport `<meta name="viewport">` applies."""

WAIT_MS = 10_000
"""Milliseconds a wait on the page's DOM may take before the test fails (a hang guard on
a loaded machine, not a measure)."""


def required() -> bool:
    """Whether a missing Chromium fails the tests instead of skipping them."""
    return os.environ.get(REQUIRE_ENV, "") == "1"


def find_chromium() -> Path | None:
    """The Chromium executable to drive: `DAMA_CHROMIUM` when set, else `chromium` on the
    PATH; None when there is none."""
    configured = os.environ.get(CHROMIUM_ENV, "").strip()
    if configured:
        path = Path(configured)
        return path if path.is_file() and os.access(path, os.X_OK) else None
    for name in CHROMIUM_NAMES:
        found = shutil.which(name)
        if found is not None:
            return Path(found)
    return None


def chromium_or_skip() -> Path:
    """`find_chromium()`, or the test skipped (failed with `DAMA_REQUIRE_BROWSER=1`)
    saying how to install it."""
    path = find_chromium()
    if path is None:
        if required():
            pytest.fail(HOW_TO_ENABLE, pytrace=False)
        pytest.skip(HOW_TO_ENABLE)
    return path


async def launch(playwright: Playwright, executable: Path) -> Browser:
    """Chromium at `executable`, headless, with `CHROMIUM_ARGS`."""
    return await playwright.chromium.launch(executable_path=str(executable),
                                            args=list(CHROMIUM_ARGS))


class ProblemKind(enum.StrEnum):
    """How the browser reported a problem (Playwright's page events)."""

    CONSOLE = "console"
    """An error written on the console: a refused resource (Content Security Policy), a
    resource answered with an error status, a script's `console.error`."""
    PAGE_ERROR = "pageerror"
    """A script's uncaught exception."""
    REQUEST_FAILED = "requestfailed"
    """A request that got no answer (refused connection, cut stream)."""


@dataclass(frozen=True)
class Problem:
    """Something a reader's browser reports as wrong on a page: how (`kind`), the URL it
    concerns (the resource's, else the page's) and the browser's text."""

    kind: ProblemKind
    url: str
    text: str

    def __str__(self) -> str:
        return f"{self.kind} on {self.url}: {self.text}"


@dataclass
class BrowserPages:
    """Opens pages in `browser`, each in a context of its own, and collects what the
    browser reports as wrong on them (`problems`). `close` closes every context;
    `unexpected` is what was seen and not expected."""

    browser: Browser
    problems: list[Problem] = field(default_factory=list)
    expected: list[re.Pattern[str]] = field(default_factory=list)
    contexts: list[BrowserContext] = field(default_factory=list)

    async def page(self, *, viewport: ViewportSize = DESKTOP, locale: str = "en-US",
                   accept_language: str | None = None, scripts: bool = True) -> Page:
        """A new page in a new context: `viewport` (CSS pixels), the browser's `locale`
        (which also gives its `Accept-Language`, unless `accept_language` is given),
        JavaScript on or off (`scripts`)."""
        headers = {} if accept_language is None else {"Accept-Language": accept_language}
        phone = viewport["width"] < PHONE_WIDTHS
        context = await self.browser.new_context(
            viewport=viewport, locale=locale, extra_http_headers=headers,
            device_scale_factor=1, is_mobile=phone, has_touch=phone,
            java_script_enabled=scripts,
        )
        context.set_default_timeout(WAIT_MS)
        self.contexts.append(context)
        page = await context.new_page()
        self.watch(page)
        return page

    def watch(self, page: Page) -> None:
        """Collect `page`'s console errors, uncaught script errors and failed requests."""

        def console(message: ConsoleMessage) -> None:
            if message.type == "error":
                source = message.location.get("url") or page.url
                self.problems.append(Problem(ProblemKind.CONSOLE, source, message.text))

        def page_error(error: Error) -> None:
            self.problems.append(Problem(ProblemKind.PAGE_ERROR, page.url, str(error)))

        def request_failed(request: Request) -> None:
            failure = request.failure or ""
            # A request the page itself dropped (a navigation away, an event stream
            # closed by its script) is not a failure of the server.
            if "ERR_ABORTED" not in failure:
                self.problems.append(Problem(ProblemKind.REQUEST_FAILED, request.url, failure))

        page.on("console", console)
        page.on("pageerror", page_error)
        page.on("requestfailed", request_failed)

    def expect_problem(self, pattern: str) -> None:
        """A problem whose text matches `pattern` (a regular expression) is expected (a
        page answered 404 on purpose: the browser logs its status as an error)."""
        self.expected.append(re.compile(pattern))

    @property
    def unexpected(self) -> list[Problem]:
        """The problems seen that no `expect_problem` pattern matches."""
        return [problem for problem in self.problems
                if not any(pattern.search(problem.text) for pattern in self.expected)]

    async def close(self) -> None:
        """Close every context opened (their pages with them)."""
        for context in self.contexts:
            await context.close()
        self.contexts.clear()


def problems_text(problems: Sequence[Problem]) -> str:
    """One line per problem, for a test's failure message."""
    return "\n".join(str(problem) for problem in problems)


# ---- the game page, by its DOM contract (docs/ARCHITECTURE.md, "The web face"): -----------
# <main id="game" data-ply data-plies data-live data-board>, the board <img id="board">,
# the move list <ol id="moves"> of links with data-ply, the status <p id="status">.

BOARD_LOADED = """() => {
    const board = document.getElementById("board");
    return board !== null && board.complete && board.naturalWidth > 0;
}"""
"""True once the board picture is loaded and drawn (a broken picture has no width)."""


async def ply(page: Page) -> int:
    """The ply the page shows (`data-ply` of `main#game`)."""
    return int(await page.get_attribute("main#game", "data-ply") or "-1")


async def plies(page: Page) -> int:
    """The plies the game has (`data-plies`)."""
    return int(await page.get_attribute("main#game", "data-plies") or "-1")


async def board_src(page: Page) -> str:
    """The board picture's URL as the page set it."""
    return await page.get_attribute("img#board", "src") or ""


async def wait_board(page: Page) -> None:
    """Wait until the board picture is loaded and drawn."""
    await page.wait_for_function(BOARD_LOADED)


async def wait_ply(page: Page, expected: int) -> None:
    """Wait until the page shows ply `expected` and its board picture is loaded."""
    await page.wait_for_function(
        "n => document.getElementById('game').dataset.ply === String(n)", arg=expected)
    await wait_board(page)


async def move_count(page: Page) -> int:
    """The moves listed in `ol#moves` (its first entry, ply 0, is the start position)."""
    return await page.locator("ol#moves a[data-ply]:not([data-ply='0'])").count()


async def current_moves(page: Page) -> list[int]:
    """The plies of the move list's entries marked as the one shown (`aria-current`)."""
    marked = page.locator("ol#moves a[aria-current]")
    return [int(await marked.nth(i).get_attribute("data-ply") or "-1")
            for i in range(await marked.count())]

__all__ = [
    "CHROMIUM_ARGS",
    "DESKTOP",
    "HOW_TO_ENABLE",
    "PHONE",
    "WAIT_MS",
    "BrowserPages",
    "Problem",
    "ProblemKind",
    "async_playwright",
    "board_src",
    "chromium_or_skip",
    "current_moves",
    "find_chromium",
    "launch",
    "move_count",
    "plies",
    "ply",
    "problems_text",
    "required",
    "wait_board",
    "wait_ply",
]
