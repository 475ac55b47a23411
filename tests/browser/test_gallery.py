"""Every page of the web face at a desktop's and a phone's width, in English and in
Arabic, in a real browser: each loads with every picture drawn, no console error, script
error or failed request (the `pages` fixture), and no sideways scrolling on a phone.

With `GALLERY_DIR` set (`make gallery-web` sets it to `gallery/`), a screenshot of each
is saved there as `web-<page>-<desktop|phone>-<en|ar>.png`; the scene's database is the
same every run (tests/support/web_scene.py), and so are the pictures."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from playwright.async_api import Page, ViewportSize

from bot.services.web_access import PageKind
from tests.support.browser import DESKTOP, PHONE, BrowserPages
from tests.support.tournament_play import create
from tests.support.web_servers import SCENE_PAGES, SceneSite
from tournaments.model import Format

pytestmark = [pytest.mark.asyncio(loop_scope="session"), pytest.mark.slow]

WIDTHS: dict[str, ViewportSize] = {"desktop": DESKTOP, "phone": PHONE}
LANGUAGES = ("en", "ar")

PICTURES_DRAWN = """() => Array.from(document.images)
    .every(image => image.complete && image.naturalWidth > 0)"""

LONG_CHANNEL = 7_777_001
"""A channel of the scene's server holding no tournament."""

SIDEWAYS = """() => document.documentElement.scrollWidth - window.innerWidth"""
"""CSS pixels the page is wider than its window (a phone reader would scroll sideways)."""


def _gallery() -> Path | None:
    folder = os.environ.get("GALLERY_DIR")
    return Path(folder) if folder else None


async def _show(page: Page, url: str) -> None:
    """Open `url` and wait until it is loaded with every picture drawn."""
    answer = await page.goto(url)
    assert answer is not None and answer.status == 200, url
    await page.wait_for_function(PICTURES_DRAWN)


@pytest.mark.parametrize("name", sorted(SCENE_PAGES))
async def test_the_page_at_every_width_and_direction(
    pages: BrowserPages, site: SceneSite, name: str,
) -> None:
    gallery = _gallery()
    for width, viewport in WIDTHS.items():
        for language in LANGUAGES:
            page = await pages.page(viewport=viewport)
            await _show(page, site.url(SCENE_PAGES[name](site), lang=language))
            assert await page.get_attribute("html", "dir") == (
                "rtl" if language == "ar" else "ltr")
            overflow = await page.evaluate(SIDEWAYS)
            assert overflow <= 0, f"{name} {width} {language}: {overflow}px sideways"
            if gallery is not None:
                gallery.mkdir(parents=True, exist_ok=True)
                await page.screenshot(path=gallery / f"web-{name}-{width}-{language}.png",
                                      full_page=True, animations="disabled", caret="hide")
            await page.close()


async def test_a_long_unbroken_name_wraps_on_a_phone(
    pages: BrowserPages, site: SceneSite,
) -> None:
    """A tournament's name may be 100 characters without a space (the `/tournament
    create` option's limit): on a phone its heading wraps, the page does not scroll
    sideways."""
    view = await create(site.services, Format.ROUND_ROBIN, name="W" * 100, channel=LONG_CHANNEL)
    for language in LANGUAGES:
        page = await pages.page(viewport=PHONE)
        await _show(page, site.url(site.path(PageKind.TOURNAMENT, view.id, signed=False),
                                   lang=language))
        overflow = await page.evaluate(SIDEWAYS)
        assert overflow <= 0, f"{language}: {overflow}px sideways"
        await page.close()
