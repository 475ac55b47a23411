"""A live game's page on the scene's web face (`static/live.js`, `static/replay.js`): its
event stream refused (a reverse proxy answering 502 while the web process restarts, or
the viewers' limit answering 429 or 503, `bot.web.live`), which the browser's EventSource
never retries by itself, so the page opens it again, later; and the game ending while
the page is open."""

from __future__ import annotations

from urllib.parse import parse_qs, urlsplit

import aiohttp
import pytest
from playwright.async_api import Response, Route

from bot.services.web_access import PageKind
from engine import format_move
from tests.support.browser import BrowserPages, board_src, wait_board
from tests.support.services import ALICE, CAROL, start_game
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


ENDING_CHANNEL = 7_777_002
"""A channel of the scene's server holding no game."""

LIVE_WAIT_MS = 5_000
"""Milliseconds from a game's end to the open page showing it."""


async def test_a_game_ending_live_shows_its_final_board(
    pages: BrowserPages, site: SceneSite,
) -> None:
    """A resignation adds no ply, but the last ply's picture changes: the final board no
    longer marks a side to move (`bot.web.boards`). The open page fetches it anew."""
    services = site.services
    record = await start_game(services, "turkish", white=ALICE, black=CAROL,
                              channel=ENDING_CHANNEL)
    for player in (ALICE, CAROL):
        _, game = await services.games.game_of(record.id)
        move = min(game.legal_moves(), key=lambda m: (m.start, m.end))
        await services.games.play(ENDING_CHANNEL, player,
                                  format_move(move, game.position, game.variant))
    page = await pages.page()
    async with page.expect_response(lambda answer: "/events" in answer.url):
        await page.goto(site.url(site.path(PageKind.GAME, record.id, signed=False)))
    await wait_board(page)
    under_way = await board_src(page)

    def last_board(answer: Response) -> bool:
        query = parse_qs(urlsplit(answer.url).query)
        return "/board.png" in answer.url and query.get("ply") == ["2"]

    async with page.expect_response(last_board, timeout=LIVE_WAIT_MS) as answer:
        await services.games.resign(ENDING_CHANNEL, CAROL)
    shown = await (await answer.value).body()
    async with (aiohttp.ClientSession() as session,
                session.get(site.base_url + under_way) as final):
        assert shown == await final.read()  # drawn after the end, the final board
    await page.keyboard.press("ArrowLeft")
    await page.keyboard.press("ArrowRight")
    assert await board_src(page) != under_way
