"""The templates' environment and the frame of every page (bot/web/templates.py,
bot/web/templates/base.html), rendered directly and through aiohttp's real server."""

from __future__ import annotations

from html.parser import HTMLParser

import jinja2
import pytest
from aiohttp import web
from aiohttp.test_utils import TestClient, TestServer

from bot.language import Language
from bot.web.language import ReaderLanguage
from bot.web.templates import (
    ENVIRONMENT,
    language_links,
    render,
    render_page,
    site_url,
)


class _Links(HTMLParser):
    """The attributes of every element of a page, by tag."""

    def __init__(self) -> None:
        super().__init__()
        self.elements: list[tuple[str, dict[str, str | None]]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.elements.append((tag, dict(attrs)))

    def first(self, tag: str) -> dict[str, str | None]:
        return next(attrs for name, attrs in self.elements if name == tag)


def _parsed(page: str) -> _Links:
    parser = _Links()
    parser.feed(page)
    return parser


def test_a_page_in_arabic_is_right_to_left() -> None:
    page = render("base.html", ReaderLanguage(Language.ARABIC, from_url=False), "/", {},
                  noindex=False)
    assert _parsed(page).first("html") == {"lang": "ar", "dir": "rtl"}


def test_a_page_in_turkish_is_left_to_right() -> None:
    page = render("base.html", ReaderLanguage(Language.TURKISH, from_url=False), "/", {},
                  noindex=False)
    assert _parsed(page).first("html") == {"lang": "tr", "dir": "ltr"}


def test_the_switcher_names_each_language_in_itself_and_keeps_the_other_parameters() -> None:
    links = language_links("/games/7", {"ply": "3", "lang": "fr"},
                           ReaderLanguage(Language.FRENCH, from_url=True))
    assert [(link.language.endonym, link.href, link.current) for link in links] == [
        ("English", "/games/7?ply=3&lang=en", False),
        ("Türkçe", "/games/7?ply=3&lang=tr", False),
        ("العربية", "/games/7?ply=3&lang=ar", False),
        ("Italiano", "/games/7?ply=3&lang=it", False),
        ("Français", "/games/7?ply=3&lang=fr", True),
    ]


def test_links_carry_the_language_only_when_the_address_chose_it() -> None:
    assert site_url("/games/7", {"ply": 3}, ReaderLanguage(Language.ITALIAN, from_url=True)) == (
        "/games/7?ply=3&lang=it")
    chosen_by_browser = ReaderLanguage(Language.ITALIAN, from_url=False)
    assert site_url("/games/7", {"ply": 3}, chosen_by_browser) == "/games/7?ply=3"
    assert site_url("/", {}, chosen_by_browser) == "/"


def test_values_are_escaped() -> None:
    template = ENVIRONMENT.from_string("<p>{{ name }}</p>")
    assert template.render(name='<script>alert("x")</script>') == (
        "<p>&lt;script&gt;alert(&#34;x&#34;)&lt;/script&gt;</p>")


def test_a_value_the_template_lacks_is_an_error() -> None:
    with pytest.raises(jinja2.UndefinedError):
        render("base.html", ReaderLanguage(Language.ENGLISH, from_url=False), "/", {})  # no noindex


async def _frame(request: web.Request) -> web.Response:
    return render_page(request, "base.html")


async def _client() -> TestClient[web.Request, web.Application]:
    app = web.Application()
    app.router.add_get("/page", _frame)
    app.router.add_get("/signed/{token}", _frame)
    client = TestClient(TestServer(app))
    await client.start_server()
    return client


async def test_render_page_answers_html_in_the_language_of_the_address() -> None:
    client = await _client()
    try:
        answer = await client.get("/page?lang=ar")
        assert answer.status == 200
        assert answer.content_type == "text/html"
        assert answer.charset == "utf-8"
        parsed = _parsed(await answer.text())
        assert parsed.first("html") == {"lang": "ar", "dir": "rtl"}
        assert parsed.first("a")["href"] == "/?lang=ar"
        assert not any(tag == "meta" and attrs.get("name") == "robots"
                       for tag, attrs in parsed.elements)
    finally:
        await client.close()


async def test_a_page_of_a_signed_link_is_not_indexed() -> None:
    client = await _client()
    try:
        parsed = _parsed(await (await client.get("/signed/abc")).text())
        assert ("meta", {"name": "robots", "content": "noindex"}) in parsed.elements
        assert parsed.first("a")["href"] == "/"
    finally:
        await client.close()
