"""Every page read with a keyboard and a screen reader in mind, in a real browser
(`templates/`, `static/site.css`): each picture has a text alternative, the page one
heading of the first level and its language named; Tab reaches every link, button and
scrolling table in turn, and each shows where the focus is (an outline or a ring)."""

from __future__ import annotations

import pytest

from tests.support.browser import BrowserPages
from tests.support.web_servers import SCENE_PAGES, SceneSite

pytestmark = [pytest.mark.asyncio(loop_scope="session"), pytest.mark.slow]

MOST_TABS = 150
"""Tab presses at most on one page (the analysed game's has about a hundred stops)."""

FOCUSED = """() => {
    const element = document.activeElement;
    if (element === null || element === document.body) {
        return null;
    }
    const again = element.hasAttribute("data-test-reached");
    element.setAttribute("data-test-reached", "");
    const style = getComputedStyle(element);
    const outline = style.outlineStyle !== "none" && parseFloat(style.outlineWidth) > 0;
    const ring = style.boxShadow !== "none";
    const name = element.tagName.toLowerCase() + (element.id ? "#" + element.id : "")
        + " " + (element.textContent || "").trim().slice(0, 30);
    const box = element.getBoundingClientRect();
    return {name: name, again: again, visible: outline || ring,
            sized: box.width > 0 && box.height > 0};
}"""
"""The focused element (None: the page itself, before the first stop or after the last):
a name for the failure message, whether Tab reached it before (round the page once),
whether its focus shows, and whether it is on the page at all (not a hidden control)."""

MISSING_ALT = """() => Array.from(document.images)
    .filter(image => !(image.getAttribute("alt") || "").trim())
    .map(image => image.src)"""


@pytest.mark.parametrize("name", sorted(SCENE_PAGES))
async def test_the_page_reads_without_a_mouse(
    pages: BrowserPages, site: SceneSite, name: str,
) -> None:
    page = await pages.page()
    answer = await page.goto(site.url(SCENE_PAGES[name](site)))
    assert answer is not None and answer.status == 200
    assert await page.get_attribute("html", "lang") == "en"
    assert await page.locator("h1").count() == 1
    assert await page.locator("main").count() == 1
    assert await page.evaluate(MISSING_ALT) == []

    stops: list[str] = []
    unseen: list[str] = []
    came_round = False
    for _ in range(MOST_TABS):
        await page.keyboard.press("Tab")
        focused = await page.evaluate(FOCUSED)
        if focused is None:
            continue  # the browser's own stop, between the last element and the first
        if focused["again"]:
            came_round = True  # round the page once
            break
        stops.append(focused["name"])
        if not (focused["visible"] and focused["sized"]):
            unseen.append(focused["name"])
    assert came_round, f"Tab did not come round in {MOST_TABS} presses: {stops}"
    assert len(stops) >= 6, stops  # the site's name and the five languages at least
    assert not unseen, f"focus not shown on: {unseen}"
