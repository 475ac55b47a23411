"""A game's page in a real browser (`bot/web/pages/game.py`, `static/replay.js`): the
replay stepped through with the keyboard, the board flipped, an analysed game's graph
and mistakes. Every page here also shows no console error, script error or failed
request (the `pages` fixture)."""

from __future__ import annotations

import pytest
from playwright.async_api import Page

from bot.services.web_access import PageKind
from engine.analysis import GameAnalysis
from tests.support.browser import (
    PHONE,
    BrowserPages,
    board_src,
    current_moves,
    plies,
    ply,
    wait_board,
    wait_ply,
)
from tests.support.web_servers import SceneSite

pytestmark = pytest.mark.asyncio(loop_scope="session")


async def _open_game(pages: BrowserPages, site: SceneSite, game_id: int, **query: str) -> Page:
    page = await pages.page()
    await page.goto(site.url(site.path(PageKind.GAME, game_id, signed=False), **query))
    await wait_board(page)
    return page


async def test_a_finished_game_steps_back_one_ply_with_the_left_arrow(
    pages: BrowserPages, site: SceneSite,
) -> None:
    """The fast suite's smoke test: the finished game opens at its last ply, and
    ArrowLeft shows the ply before (a new board picture)."""
    page = await _open_game(pages, site, site.scene.analysed_game)
    last = await plies(page)
    assert last > 1 and await ply(page) == last
    before = await board_src(page)
    await page.keyboard.press("ArrowLeft")
    await wait_ply(page, last - 1)
    assert await board_src(page) != before


@pytest.mark.slow
async def test_the_keyboard_steps_through_the_replay_and_marks_the_current_move(
    pages: BrowserPages, site: SceneSite,
) -> None:
    page = await _open_game(pages, site, site.scene.analysed_game)
    last = await plies(page)
    assert await current_moves(page) == [last]
    seen = {await board_src(page)}

    await page.keyboard.press("Home")
    await wait_ply(page, 0)
    assert await current_moves(page) == [0]  # the start position
    seen.add(await board_src(page))
    for expected in (1, 2, 3):
        await page.keyboard.press("ArrowRight")
        await wait_ply(page, expected)
        assert await current_moves(page) == [expected]
        seen.add(await board_src(page))
    await page.keyboard.press("ArrowLeft")
    await wait_ply(page, 2)
    assert await current_moves(page) == [2]
    await page.keyboard.press("End")
    await wait_ply(page, last)
    assert await current_moves(page) == [last]
    assert len(seen) == 5, seen  # a picture for each ply shown: start, 1, 2, 3, last
    assert f"ply={last}" in await board_src(page)

    await page.keyboard.press("ArrowRight")  # past the end: stays at the end
    await wait_ply(page, last)


@pytest.mark.slow
async def test_a_move_in_the_list_shows_its_ply_and_flip_turns_the_board(
    pages: BrowserPages, site: SceneSite,
) -> None:
    page = await _open_game(pages, site, site.scene.analysed_game)
    await page.locator("ol#moves a[data-ply='5']").click()
    await wait_ply(page, 5)
    assert await current_moves(page) == [5]
    unflipped = await board_src(page)
    assert "flip=1" not in unflipped

    await page.locator("button[data-step=flip]").click()
    await wait_board(page)
    flipped = await board_src(page)
    assert "flip=1" in flipped and "ply=5" in flipped
    await page.keyboard.press("ArrowRight")
    await wait_ply(page, 6)
    assert "flip=1" in await board_src(page)  # the board stays turned while stepping


@pytest.mark.slow
async def test_a_move_link_works_without_javascript(
    pages: BrowserPages, site: SceneSite,
) -> None:
    """Each move is a link to the page at that ply: with scripts off, the page reloads
    there (docs/ARCHITECTURE.md, "The web face")."""
    page = await pages.page(scripts=False)
    await page.goto(site.url(site.path(PageKind.GAME, site.scene.analysed_game,
                                       signed=False)))
    await page.locator("ol#moves a[data-ply='7']").click()
    await page.wait_for_url("**ply=7**")
    assert await ply(page) == 7
    assert "ply=7" in await board_src(page)
    await wait_board(page)


@pytest.mark.slow
async def test_an_analysed_game_shows_its_graph_and_its_mistakes(
    pages: BrowserPages, site: SceneSite,
) -> None:
    page = await _open_game(pages, site, site.scene.analysed_game)
    graph = page.locator("img#graph")
    await graph.wait_for()
    await page.wait_for_function(
        "() => { const g = document.getElementById('graph');"
        " return g.complete && g.naturalWidth > 0; }")
    assert await graph.get_attribute("alt")
    stored = await site.services.storage.analyses.get(site.scene.analysed_game)
    assert stored is not None
    judged = [p.ply for p in GameAnalysis.from_json(stored.body).judged()]
    assert len(judged) >= 3  # the real game's blunders (tests/support/web_scene.py)
    mistakes = page.locator("#mistakes li")
    # Each inaccuracy, mistake and blunder is listed, in game order, with a link to its ply.
    assert await mistakes.count() == len(judged)
    linked = [int(await mistakes.nth(i).locator("a[data-ply]").first.get_attribute("data-ply")
                  or "-1") for i in range(len(judged))]
    assert linked == judged
    await mistakes.nth(0).locator("a[data-ply]").first.click()
    await wait_ply(page, judged[0])


@pytest.mark.slow
async def test_a_game_without_analysis_has_no_graph(
    pages: BrowserPages, site: SceneSite,
) -> None:
    page = await pages.page()
    await page.goto(site.url(site.path(PageKind.GAME, site.scene.link_game)))
    await wait_board(page)
    assert await page.locator("img#graph").count() == 0
    assert await page.locator("#mistakes").count() == 0


@pytest.mark.slow
async def test_stepping_on_a_phone_keeps_the_board_and_its_buttons_where_they_are(
    pages: BrowserPages, site: SceneSite,
) -> None:
    """On a phone the move list is under the board: stepping marks the current move there
    but never scrolls the page, whose board and buttons the reader is looking at (and a
    page opened at a ply opens at its top)."""
    page = await pages.page(viewport=PHONE)
    await page.goto(site.url(site.path(PageKind.GAME, site.scene.analysed_game,
                                       signed=False), ply=2))
    await wait_board(page)
    assert await page.evaluate("window.scrollY") == 0
    forward = page.locator("button[data-step=forward]")
    await forward.scroll_into_view_if_needed()
    before = await forward.bounding_box()
    for expected in (3, 4, 5):
        await forward.click()
        await wait_ply(page, expected)
        assert await forward.bounding_box() == before


@pytest.mark.slow
async def test_a_step_button_reaching_the_end_keeps_the_keyboards_focus(
    pages: BrowserPages, site: SceneSite,
) -> None:
    """At the last ply "Forward" and "Last" do nothing, and say so (`aria-disabled`), but
    the button pressed keeps the focus: a disabled button would drop it to the page's
    start, and the keyboard's reader with it."""
    last_ply = (await plies(await _open_game(pages, site, site.scene.analysed_game)))
    page = await _open_game(pages, site, site.scene.analysed_game, ply=str(last_ply - 1))
    forward = page.locator("button[data-step=forward]")
    await forward.focus()
    await page.keyboard.press("Enter")
    await wait_ply(page, last_ply)
    assert await page.evaluate("document.activeElement.dataset.step") == "forward"
    assert await forward.get_attribute("aria-disabled") == "true"
    await page.keyboard.press("Enter")  # pressed again at the end: nothing moves
    await page.keyboard.press("Shift+Tab")
    assert await page.evaluate("document.activeElement.dataset.step") == "back"
    await page.keyboard.press("Enter")
    await wait_ply(page, last_ply - 1)
    assert await forward.get_attribute("aria-disabled") == "false"
