"""The reader's language in a real browser (`bot/web/language.py`, `templates/base.html`,
`static/site.css`): the Arabic page, asked by `?lang=ar` or by the browser's own
language, is laid out right to left (the header mirrored) while the moves read left to
right; English stays left to right."""

from __future__ import annotations

import pytest
from playwright.async_api import Page

from bot.services.web_access import PageKind
from tests.support.browser import DESKTOP, BrowserPages, wait_board
from tests.support.web_servers import SceneSite

pytestmark = [pytest.mark.asyncio(loop_scope="session"), pytest.mark.slow]

FIRST_AND_LAST = """() => {
    const items = document.querySelectorAll("nav.languages li");
    const first = items[0].getBoundingClientRect();
    const last = items[items.length - 1].getBoundingClientRect();
    return [first.left, first.right, last.left, last.right,
            first.top === last.top];
}"""
"""The language switcher's first and last entries' left and right edges, and whether
they share a line."""


async def _switcher_order(page: Page) -> str:
    """"ltr" when the switcher's first entry is left of its last, "rtl" when right of it."""
    first_left, first_right, last_left, last_right, same_line = await page.evaluate(
        FIRST_AND_LAST)
    assert same_line, "the switcher wraps at a desktop's width"
    if first_right <= last_left:
        return "ltr"
    assert last_right <= first_left, (first_left, first_right, last_left, last_right)
    return "rtl"


async def _direction(page: Page, selector: str) -> str:
    """The computed `direction` of the first element matching `selector`."""
    return str(await page.locator(selector).first.evaluate(
        "element => getComputedStyle(element).direction"))


async def _check_arabic(page: Page) -> None:
    """The page is Arabic and right to left, its moves left to right."""
    assert await page.get_attribute("html", "lang") == "ar"
    assert await page.get_attribute("html", "dir") == "rtl"
    assert await _direction(page, "body") == "rtl"
    assert await _switcher_order(page) == "rtl"
    brand = await page.locator(".site-header > :first-child").bounding_box()
    nav = await page.locator("nav.languages").bounding_box()
    assert brand is not None and nav is not None
    assert brand["x"] > nav["x"], "the header's first element is not on the right"
    moves = page.locator("ol#moves a")
    assert await moves.count() > 0
    for i in (0, await moves.count() - 1):
        direction = await moves.nth(i).evaluate(
            "element => getComputedStyle(element).direction")
        assert direction == "ltr", f"move {i} reads {direction}"


async def test_the_arabic_page_by_its_url_is_right_to_left_with_moves_left_to_right(
    pages: BrowserPages, site: SceneSite,
) -> None:
    page = await pages.page(viewport=DESKTOP)
    path = site.path(PageKind.GAME, site.scene.analysed_game, signed=False)
    await page.goto(site.url(path, lang="ar"))
    await wait_board(page)
    await _check_arabic(page)
    # A language chosen in the URL is kept by the page's links, and by the picture that
    # has words (the analysis graph's legend).
    href = await page.locator("ol#moves a").first.get_attribute("href") or ""
    assert "lang=ar" in href
    assert "lang=ar" in (await page.get_attribute("img#graph", "src") or "")


async def test_the_arabic_page_by_the_browsers_language(
    pages: BrowserPages, site: SceneSite,
) -> None:
    page = await pages.page(viewport=DESKTOP, locale="ar",
                            accept_language="ar-MA,ar;q=0.9,en;q=0.5")
    await page.goto(site.url(site.path(PageKind.GAME, site.scene.analysed_game,
                                       signed=False)))
    await wait_board(page)
    await _check_arabic(page)
    # Not chosen in the URL: links do not carry it (the browser says it again).
    href = await page.locator("ol#moves a").first.get_attribute("href") or ""
    assert "lang=" not in href


async def test_the_english_page_is_left_to_right(
    pages: BrowserPages, site: SceneSite,
) -> None:
    page = await pages.page(viewport=DESKTOP, locale="en-GB")
    await page.goto(site.url(site.path(PageKind.GAME, site.scene.analysed_game,
                                       signed=False)))
    await wait_board(page)
    assert await page.get_attribute("html", "lang") == "en"
    assert await page.get_attribute("html", "dir") == "ltr"
    assert await _switcher_order(page) == "ltr"
