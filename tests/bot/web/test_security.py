"""The web face's defences, on a real server socket (`bot.web.security`, `bot.web.app`,
`bot.web.errors`, `bot.web.inputs`): the security headers on pages, pictures, errors and
static files; reads only; bad input answered with an error page, never a 500, a stack
trace or a file path; oversized request lines and headers refused."""

from __future__ import annotations

from collections.abc import AsyncIterator, Mapping

import pytest
from aiohttp import web
from yarl import URL

from bot.messages import Msg
from bot.services.settings import WebVisibility
from bot.services.web_access import PageKind
from bot.web.access import visible_game
from bot.web.paths import GAMES
from bot.web.security import CONTENT_SECURITY_POLICY, HEADERS
from bot.web.templates import render_page
from tests.support.services import GUILD, OpenServices, start_game
from tests.support.web import WebFace, set_web, web_server

PNG = b"\x89PNG\r\n\x1a\n"
"""The signature of a PNG file (the probe's picture)."""


async def _page(request: web.Request) -> web.Response:
    await visible_game(request)
    return render_page(request, "error.html", title=Msg.WEB_ERROR_HOME,
                       explanation=Msg.WEB_ERROR_HOME)


async def _picture(request: web.Request) -> web.Response:
    await visible_game(request)
    return web.Response(body=PNG, content_type="image/png")


async def _broken(request: web.Request) -> web.Response:
    raise RuntimeError(f"secret detail {__file__}")


def _probes(router: web.UrlDispatcher) -> None:
    """A page and a picture on the games' routes under /probe, and a handler that fails."""
    for path in GAMES:
        router.add_get("/probe" + path, _page)
        router.add_get("/probe" + path + "/picture.png", _picture)
    router.add_get("/probe/broken", _broken)


def _assert_secured(headers: Mapping[str, str], picture: bool = False) -> None:
    for name, value in HEADERS.items():
        expected = "cross-origin" if picture and name == "Cross-Origin-Resource-Policy" else value
        assert headers.get(name) == expected, name
    server = headers.get("Server", "")
    assert "aiohttp" not in server and "Python" not in server


@pytest.fixture
async def face(open_services: OpenServices) -> AsyncIterator[tuple[WebFace, int]]:
    services = await open_services()
    record = await start_game(services, "turkish")
    await set_web(services, GUILD, WebVisibility.PUBLIC)
    async with web_server(services, more_routes=_probes) as face:
        yield face, record.id


async def test_every_answer_carries_the_security_headers(face: tuple[WebFace, int]) -> None:
    web_face, game = face
    client = web_face.client
    answers = {
        "page": await client.get(f"/probe/games/{game}"),
        "error": await client.get("/no/such/page"),
        "static": await client.get("/static/site.css"),
        "health": await client.get("/health"),
        "bad request": await client.get("/health?lang=xx"),
        "failure": await client.get("/probe/broken"),
    }
    assert [answer.status for answer in answers.values()] == [200, 404, 200, 200, 400, 500]
    for name, answer in answers.items():
        _assert_secured(answer.headers)
        assert answer.headers["Content-Security-Policy"] == CONTENT_SECURITY_POLICY, name
    assert answers["static"].headers["Cache-Control"] == "public, max-age=86400"
    picture = await client.get(f"/probe/games/{game}/picture.png")
    assert picture.status == 200
    _assert_secured(picture.headers, picture=True)


async def test_a_signed_link_s_page_is_not_indexed_and_an_id_s_page_may_be(
        face: tuple[WebFace, int]) -> None:
    web_face, game = face
    token = web_face.context.access.signer.token(PageKind.GAME, game)
    signed = await web_face.client.get(f"/probe/games/{game}/{token}")
    assert signed.headers["X-Robots-Tag"] == "noindex"
    assert '<meta name="robots" content="noindex">' in await signed.text()
    by_id = await web_face.client.get(f"/probe/games/{game}")
    assert "X-Robots-Tag" not in by_id.headers


@pytest.mark.parametrize("method", ["POST", "PUT", "DELETE", "PATCH", "OPTIONS"])
async def test_only_reading_is_allowed(face: tuple[WebFace, int], method: str) -> None:
    web_face, game = face
    for path in ("/", f"/probe/games/{game}", "/static/site.css", "/health"):
        answer = await web_face.client.request(method, path, data=b"x" * 10)
        assert answer.status == 405, path
        assert set(answer.headers["Allow"].split(",")) == {"GET", "HEAD"}
        _assert_secured(answer.headers)
        assert "<h1>Request not supported</h1>" in await answer.text()


async def test_head_is_answered_like_get(face: tuple[WebFace, int]) -> None:
    web_face, game = face
    answer = await web_face.client.head(f"/probe/games/{game}")
    assert answer.status == 200
    _assert_secured(answer.headers)


@pytest.mark.parametrize("path, status", [
    ("/games/abc", 404),
    ("/probe/games/-1", 404),
    ("/probe/games/1e3", 404),
    (f"/probe/games/{2**63}", 404),
    ("/probe/games/" + "9" * 40, 404),
    ("/probe/games/1%00", 404),
    ("/probe/games/%00", 404),
    ("/static/..%2f..%2fpyproject.toml", 404),
    ("/static/../../pyproject.toml", 404),
    ("/static/%2e%2e/%2e%2e/pyproject.toml", 404),
    ("/static/", 404),
    ("/static/nothing.css", 404),
    ("/health?lang=xx", 400),
    ("/health?lang=en&lang=tr", 400),
    ("/health?lang=%00", 400),
    ("/no/such/page?lang=", 400),
])
async def test_bad_input_is_an_error_page_without_details(
        face: tuple[WebFace, int], path: str, status: int) -> None:
    web_face, _ = face
    answer = await web_face.client.get(URL(path, encoded=True))
    body = await answer.text()
    assert answer.status == status
    assert answer.content_type == "text/html"
    _assert_secured(answer.headers)
    for leak in ("Traceback", "/work", ".py", "site-packages", "pyproject"):
        assert leak not in body


async def test_a_failing_page_is_the_500_page_without_its_details(
        face: tuple[WebFace, int]) -> None:
    web_face, _ = face
    answer = await web_face.client.get("/probe/broken")
    body = await answer.text()
    assert answer.status == 500
    assert "<h1>Something went wrong</h1>" in body
    assert "secret detail" not in body and ".py" not in body


async def test_a_very_long_address_or_header_is_refused_without_a_page(
        face: tuple[WebFace, int]) -> None:
    web_face, _ = face
    long_path = await web_face.client.get("/health?x=" + "a" * 10_000)
    assert long_path.status in (400, 414)
    long_header = await web_face.client.get("/health", headers={"X-Long": "a" * 10_000})
    assert long_header.status in (400, 431)
    for answer in (long_path, long_header):
        body = await answer.text()
        assert "Traceback" not in body and ".py" not in body


async def test_the_game_page_and_its_picture_through_their_own_routes(
        open_services: OpenServices) -> None:
    """The real game page (`bot.web.pages.game`): secured, its picture fetchable by other
    sites, a link-only game's page by id the very 404 of a missing game's."""
    services = await open_services()
    record = await start_game(services, "turkish")
    async with web_server(services) as web_face:
        client = web_face.client
        token = web_face.context.access.signer.token(PageKind.GAME, record.id)
        page = await client.get(f"/games/{record.id}/{token}")
        assert page.status == 200
        _assert_secured(page.headers)
        assert page.headers["X-Robots-Tag"] == "noindex"
        board = await client.get(f"/games/{record.id}/{token}/board.png?ply=0")
        assert board.status == 200
        _assert_secured(board.headers, picture=True)
        hidden = await client.get(f"/games/{record.id}")
        missing = await client.get("/games/999999")
        assert hidden.status == missing.status == 404
        assert await hidden.read() == await missing.read()
        for path in (f"/games/{record.id}/{token}?ply=-1",
                     f"/games/{record.id}/{token}/board.png?ply=99999",
                     f"/games/{record.id}/{token}/board.png?flip=2",
                     f"/games/{record.id}/{token}?lang=xx"):
            answer = await client.get(path)
            assert answer.status in (400, 404), path
            _assert_secured(answer.headers)
            assert "Traceback" not in await answer.text()
