"""A game followed live in a real browser (`bot/web/live.py`, `static/live.js`,
`static/replay.js`): the real bot process, logged in to the local Discord stand-in, runs
its web server beside it; a reader opens the page of the link on the game's board, and
each move played by slash command on the stand-in appears on the open page (its move
list, its board picture), then the game's end. The same from `dama-bot web`, the pages'
own process on the bot's database, which hears of moves by polling it."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from engine import Position, apply_move, get_variant, legal_moves
from localplay.server import LocalDiscord
from standin.openapi import OpenApiCheck
from tests.support.browser import (
    BrowserPages,
    board_src,
    move_count,
    plies,
    ply,
    wait_board,
    wait_ply,
)
from tests.support.discord_spec import checked_by_spec
from tests.support.standin_play import move_text, play_move, resign, start_game
from tests.support.web_servers import bot_with_web, web_process

pytestmark = [pytest.mark.asyncio(loop_scope="session"), pytest.mark.slow]

LINK_STYLE = 5
"""Discord's style of a link button."""

LIVE_WAIT_MS = 5_000
"""Milliseconds from a move's answer on Discord to the open page showing it: the pages
promise "within a second"; five leave room for a loaded machine."""


@pytest.fixture(autouse=True)
def discord_spec() -> Iterator[OpenApiCheck]:
    """The stand-in checks its traffic against Discord's specification."""
    yield from checked_by_spec()


async def _follow(pages: BrowserPages, local: LocalDiscord, page_base: str,
                  bot_base: str) -> None:
    """Start a game on the stand-in, open its page from the link on its board (served
    from `page_base`; the link names `bot_base`), play three moves and resign there; each
    shows on the open page, which follows the game while its viewer is at the end."""
    standin = local.standin
    alice, bob = standin.user("alice"), standin.user("bob")
    channel = local.channel
    variant = get_variant("turkish")
    game_id, board = await start_game(local, channel, alice, bob, variant)
    links = [button.url for button in board.buttons
             if button.style == LINK_STYLE and button.url]
    assert len(links) == 1, board.buttons
    assert links[0].startswith(f"{bot_base}/games/{game_id}/"), links

    page = await pages.page()
    async with page.expect_response(lambda answer: "/events" in answer.url):
        await page.goto(page_base + links[0].removeprefix(bot_base))
    await wait_board(page)
    assert await plies(page) == 0 and await move_count(page) == 0

    position = Position.start(variant)
    for number, player in enumerate((alice, bob), start=1):
        move = min(legal_moves(position, variant), key=lambda m: (m.start, m.end))
        text = move_text(move, position, variant)
        shown_before = await board_src(page)
        await play_move(local, player, channel, text)
        await page.wait_for_function(
            "n => document.querySelectorAll('ol#moves a[data-ply]').length === n + 1",
            arg=number, timeout=LIVE_WAIT_MS)
        await wait_ply(page, number)  # the viewer was at the end: it follows
        assert await plies(page) == number
        assert await board_src(page) != shown_before
        assert text in await page.locator(f"ol#moves a[data-ply='{number}']").inner_text()
        position = apply_move(position, move, variant)

    # A viewer looking back is left where they are: the move is listed, the board stays.
    await page.keyboard.press("Home")
    await wait_ply(page, 0)
    looked_at = await board_src(page)
    move = min(legal_moves(position, variant), key=lambda m: (m.start, m.end))
    await play_move(local, alice, channel, move_text(move, position, variant))
    await page.wait_for_function(
        "() => document.querySelectorAll('ol#moves a[data-ply]').length === 4",
        timeout=LIVE_WAIT_MS)
    assert await ply(page) == 0 and await board_src(page) == looked_at
    assert await plies(page) == 3
    await page.keyboard.press("End")
    await wait_ply(page, 3)

    status_before = await page.locator("#status").inner_text()
    await resign(local, bob, channel)
    await page.wait_for_function(
        "before => document.getElementById('status').innerText !== before",
        arg=status_before, timeout=LIVE_WAIT_MS)
    assert await plies(page) == 3


async def test_moves_played_on_discord_appear_on_the_open_page(
    pages: BrowserPages, tmp_path: Path,
) -> None:
    async with bot_with_web(tmp_path) as (local, base_url):
        await _follow(pages, local, base_url, base_url)


async def test_the_web_process_follows_the_bots_games_by_polling(
    pages: BrowserPages, tmp_path: Path,
) -> None:
    async with (
        bot_with_web(tmp_path) as (local, bot_base),
        web_process(Path(local.process.database), tmp_path / "web.log") as base,
    ):
        await _follow(pages, local, base, bot_base)
