"""Who sees a page, in a real browser (`bot/web/access.py`,
`bot/services/web_access.py`): a game of a link-only server is the "not found" page by
its id alone or with a wrong signature, exactly as a game that does not exist, and the
game's page with its signature."""

from __future__ import annotations

import pytest
from playwright.async_api import Page

from bot.services.web_access import PageKind
from tests.support.browser import BrowserPages, wait_board
from tests.support.web_servers import SceneSite

pytestmark = [pytest.mark.asyncio(loop_scope="session"), pytest.mark.slow]

MISSING_GAME = 987_654_321
"""A game id the scene does not have."""


async def _not_found(page: Page, url: str) -> str:
    """Open `url`; it must be the 404 page. Returns its visible text."""
    answer = await page.goto(url)
    assert answer is not None and answer.status == 404, url
    assert await page.locator("img#board").count() == 0
    return await page.locator("body").inner_text()


async def test_a_link_only_game_needs_its_signature(
    pages: BrowserPages, site: SceneSite,
) -> None:
    # The browser logs the 404 answers on its console: expected here.
    pages.expect_problem(r"status of 404")
    page = await pages.page()
    game = site.scene.link_game
    missing = await _not_found(page, site.url(f"/games/{MISSING_GAME}"))
    unsigned = await _not_found(page, site.url(f"/games/{game}"))
    assert unsigned == missing, "a hidden game's 404 differs from a missing game's"
    other_token = site.token(PageKind.GAME, site.scene.analysed_game)
    assert await _not_found(page, site.url(f"/games/{game}/{other_token}")) == missing
    player_token = site.token(PageKind.PLAYER, game)
    assert await _not_found(page, site.url(f"/games/{game}/{player_token}")) == missing

    answer = await page.goto(site.url(site.path(PageKind.GAME, game)))
    assert answer is not None and answer.status == 200
    await wait_board(page)
    assert await page.locator("ol#moves li").count() > 0
    robots = await page.get_attribute("meta[name=robots]", "content")
    assert robots == "noindex"  # a signed page stays out of search engines


async def test_the_not_found_page_is_in_the_readers_language(
    pages: BrowserPages, site: SceneSite,
) -> None:
    pages.expect_problem(r"status of 404")
    page = await pages.page()
    await _not_found(page, site.url(f"/games/{site.scene.link_game}", lang="ar"))
    assert await page.get_attribute("html", "lang") == "ar"
    assert await page.get_attribute("html", "dir") == "rtl"


async def test_a_player_page_opens_by_its_signed_link_only(
    pages: BrowserPages, site: SceneSite,
) -> None:
    pages.expect_problem(r"status of 404")
    page = await pages.page()
    player = site.scene.player
    await _not_found(page, site.url(f"/players/{player}"))
    answer = await page.goto(site.url(site.path(PageKind.PLAYER, player)))
    assert answer is not None and answer.status == 200
