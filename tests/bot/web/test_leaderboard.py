"""A server's leaderboard page (`bot/web/pages/leaderboard.py`) through the real
application on a real socket, over rated games played through the services: the players
as `/leaderboard` ranks them, the variant switcher, and the server's `web` setting."""

from __future__ import annotations

import re

from markupsafe import escape

from bot.messages import Msg, text
from bot.services.settings import WebVisibility
from bot.services.web_access import PageKind
from engine import VARIANTS
from tests.support.services import ALICE, BOB, CAROL, GUILD, OpenServices, Services, start_game
from tests.support.web import WebFace, set_web, web_server

WINNING_FEN, WINNING_MOVE = "W:Wd4,a2:Bd5", "d4xd6"
"""White takes Black's last piece: a game ended by the rules at once, rated."""


async def _win(services: Services, white: int, black: int, channel: int) -> None:
    await start_game(services, "turkish", WINNING_FEN, white=white, black=black,
                     channel=channel)
    await services.games.play(channel, white, WINNING_MOVE)


async def _three_players(services: Services) -> None:
    """Alice beats Bob and Carol, Bob beats Carol: rated games in the server."""
    for user, name in ((ALICE, "Alice"), (BOB, "Bob"), (CAROL, "Carol")):
        await services.stats.remember(user, name)
    await _win(services, ALICE, BOB, 600)
    await _win(services, ALICE, CAROL, 601)
    await _win(services, BOB, CAROL, 602)


def _signed(face: WebFace, guild_id: int = GUILD) -> str:
    token = face.context.access.signer.token(PageKind.LEADERBOARD, guild_id)
    return f"/servers/{guild_id}/leaderboard/{token}"


async def test_the_players_are_ranked_as_the_discord_leaderboard_ranks_them(
        open_services: OpenServices) -> None:
    services = await open_services()
    await _three_players(services)
    board = await services.stats.leaderboard("turkish", ALICE, guild_id=GUILD)
    names = {ALICE: "Alice", BOB: "Bob", CAROL: "Carol"}
    expected = [names[entry.rating.user_id] for entry in board.entries]
    assert len(expected) == 3
    async with web_server(services) as face:
        response = await face.client.get(_signed(face))
        body = await response.text()
        links = face.context.access.links
    assert response.status == 200
    shown = re.findall(r'<th scope="row"><a href="[^"]+"><bdi>(\w+)</bdi></a></th>', body)
    assert shown == expected
    for user in names:
        assert links.player(user) in body
    assert str(escape(text(Msg.LEADERBOARD_TITLE_SERVER, "en",
                           variant="Turkish draughts"))) in body


async def test_the_variant_switcher_links_every_variant(open_services: OpenServices) -> None:
    services = await open_services()
    await _three_players(services)
    async with web_server(services) as face:
        path = _signed(face)
        body = await (await face.client.get(path + "?variant=italian")).text()
        nav = body.split('<nav class="variants"')[1].split("</nav>")[0]
        for key in VARIANTS:
            assert f'href="{path}?variant={key}"' in nav
        assert f'href="{path}?variant=italian" aria-current="page"' in nav
        # Nobody played Italian draughts rated here.
        assert str(escape(text(Msg.LEADERBOARD_EMPTY, "en"))) in body
        assert (await face.client.get(path + "?variant=chess")).status == 404


async def test_a_link_only_leaderboard_is_shown_by_its_signed_link_only(
        open_services: OpenServices) -> None:
    services = await open_services()
    await _three_players(services)
    async with web_server(services) as face:
        missing = await face.client.get("/games/999999")
        missing_body = await missing.text()
        assert missing.status == 404
        unsigned = await face.client.get(f"/servers/{GUILD}/leaderboard")
        assert (unsigned.status, await unsigned.text()) == (404, missing_body)
        assert (await face.client.get(_signed(face))).status == 200


async def test_a_public_leaderboard_is_shown_by_its_id(open_services: OpenServices) -> None:
    services = await open_services()
    await _three_players(services)
    await set_web(services, GUILD, WebVisibility.PUBLIC)
    async with web_server(services) as face:
        response = await face.client.get(f"/servers/{GUILD}/leaderboard")
        assert response.status == 200
        assert "Alice" in await response.text()


async def test_a_hidden_leaderboard_is_the_404_page_even_signed(
        open_services: OpenServices) -> None:
    services = await open_services()
    await _three_players(services)
    await set_web(services, GUILD, WebVisibility.OFF)
    async with web_server(services) as face:
        missing_body = await (await face.client.get("/games/999999")).text()
        for path in (_signed(face), f"/servers/{GUILD}/leaderboard"):
            response = await face.client.get(path)
            assert (response.status, await response.text()) == (404, missing_body), path
