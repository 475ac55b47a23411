"""The pages a request may see (`bot.web.access`), through the real application on a real
socket: a game is shown by its id only where its server's setting is PUBLIC, by its
signed link unless OFF, and every refusal is the very 404 page of a missing one."""

from __future__ import annotations

from aiohttp import web

from bot.services.settings import WebVisibility
from bot.services.web_access import PageKind
from bot.web.access import visible_game, visible_leaderboard, visible_player
from bot.web.paths import ID_PATTERN, TOKEN_PATTERN
from tests.support.services import ALICE, GUILD, OpenServices, Services, start_game
from tests.support.web import WebFace, set_web, web_server

PROBE = "/probe"


async def _game(request: web.Request) -> web.Response:
    return web.Response(text=f"game {(await visible_game(request)).id}")


async def _player(request: web.Request) -> web.Response:
    return web.Response(text=f"player {(await visible_player(request)).user_id}")


async def _leaderboard(request: web.Request) -> web.Response:
    return web.Response(text=f"leaderboard {await visible_leaderboard(request)}")


def _probes(router: web.UrlDispatcher) -> None:
    """Handlers that show what the resolvers give, on the routes' own patterns."""
    for kind, handler in (("games", _game), ("players", _player),
                          ("leaderboards", _leaderboard)):
        router.add_get(f"{PROBE}/{kind}/{ID_PATTERN}", handler)
        router.add_get(f"{PROBE}/{kind}/{ID_PATTERN}/{TOKEN_PATTERN}", handler)


async def _get(face: WebFace, path: str) -> tuple[int, str]:
    response = await face.client.get(PROBE + path)
    return response.status, await response.text()


async def _open(open_services: OpenServices) -> Services:
    return await open_services()


async def test_a_public_game_is_shown_by_its_id_and_by_its_signed_link(
        open_services: OpenServices) -> None:
    services = await _open(open_services)
    record = await start_game(services, "turkish")
    await set_web(services, GUILD, WebVisibility.PUBLIC)
    async with web_server(services, more_routes=_probes) as face:
        token = face.context.access.signer.token(PageKind.GAME, record.id)
        assert await _get(face, f"/games/{record.id}") == (200, f"game {record.id}")
        assert await _get(face, f"/games/{record.id}/{token}") == (200, f"game {record.id}")


async def test_a_link_only_game_is_shown_by_its_signed_link_only(
        open_services: OpenServices) -> None:
    services = await _open(open_services)
    record = await start_game(services, "turkish")
    other = await start_game(services, "turkish", channel=777)
    async with web_server(services, more_routes=_probes) as face:
        signer = face.context.access.signer
        missing = await _get(face, "/games/999999")
        assert missing[0] == 404
        assert await _get(face, f"/games/{record.id}/"
                                f"{signer.token(PageKind.GAME, record.id)}") == (
            200, f"game {record.id}")
        for path in (
            f"/games/{record.id}",
            f"/games/{record.id}/{'A' * 22}",
            f"/games/{record.id}/{signer.token(PageKind.GAME, other.id)}",
            f"/games/{record.id}/{signer.token(PageKind.PLAYER, record.id)}",
        ):
            assert await _get(face, path) == missing, path


async def test_an_off_game_is_not_shown_even_by_its_signed_link(
        open_services: OpenServices) -> None:
    services = await _open(open_services)
    record = await start_game(services, "turkish")
    await set_web(services, GUILD, WebVisibility.OFF)
    async with web_server(services, more_routes=_probes) as face:
        token = face.context.access.signer.token(PageKind.GAME, record.id)
        assert await _get(face, f"/games/{record.id}/{token}") == await _get(
            face, "/games/999999")


async def test_a_game_without_a_server_is_shown_by_its_signed_link_only(
        open_services: OpenServices) -> None:
    services = await _open(open_services)
    record = await start_game(services, "turkish", guild=None)
    async with web_server(services, more_routes=_probes) as face:
        token = face.context.access.signer.token(PageKind.GAME, record.id)
        assert (await _get(face, f"/games/{record.id}/{token}"))[0] == 200
        assert (await _get(face, f"/games/{record.id}"))[0] == 404


async def test_a_player_is_shown_by_a_signed_link_only_whatever_the_server_says(
        open_services: OpenServices) -> None:
    services = await _open(open_services)
    await start_game(services, "turkish")
    await services.stats.remember(ALICE, "alice")
    await set_web(services, GUILD, WebVisibility.PUBLIC)
    async with web_server(services, more_routes=_probes) as face:
        token = face.context.access.signer.token(PageKind.PLAYER, ALICE)
        assert await _get(face, f"/players/{ALICE}/{token}") == (200, f"player {ALICE}")
        assert (await _get(face, f"/players/{ALICE}"))[0] == 404
        game_token = face.context.access.signer.token(PageKind.GAME, ALICE)
        assert (await _get(face, f"/players/{ALICE}/{game_token}"))[0] == 404


async def test_a_leaderboard_follows_its_server_s_setting(
        open_services: OpenServices) -> None:
    services = await _open(open_services)
    async with web_server(services, more_routes=_probes) as face:
        token = face.context.access.signer.token(PageKind.LEADERBOARD, GUILD)
        assert (await _get(face, f"/leaderboards/{GUILD}"))[0] == 404
        assert (await _get(face, f"/leaderboards/{GUILD}/{token}"))[0] == 200
        await set_web(services, GUILD, WebVisibility.PUBLIC)
        assert (await _get(face, f"/leaderboards/{GUILD}"))[0] == 200
        await set_web(services, GUILD, WebVisibility.OFF)
        assert (await _get(face, f"/leaderboards/{GUILD}/{token}"))[0] == 404


async def test_an_id_beyond_64_bits_is_the_404_page(open_services: OpenServices) -> None:
    services = await _open(open_services)
    await set_web(services, GUILD, WebVisibility.PUBLIC)
    async with web_server(services, more_routes=_probes) as face:
        status, body = await _get(face, f"/games/{2**63}")
        assert (status, body) == await _get(face, "/games/999999")
        assert (await _get(face, "/games/" + "9" * 20))[0] == 404
