"""The home page (`bot/web/pages/home.py`) through the real application on a real socket:
what dama-bot is, in the reader's language, and no list of anything."""

from __future__ import annotations

from markupsafe import escape

from bot.messages import Msg, text
from tests.support.services import OpenServices
from tests.support.web import web_server


async def test_the_home_page_says_what_dama_bot_is_and_lists_nothing(
        open_services: OpenServices) -> None:
    services = await open_services()
    async with web_server(services) as face:
        response = await face.client.get("/")
        body = await response.text()
    assert response.status == 200
    assert str(escape(text(Msg.WEB_HOME_INTRO, "en"))) in body
    for listed in ("/games/", "/players/", "/servers/", "/tournaments/"):
        assert listed not in body


async def test_the_arabic_home_page_is_right_to_left(open_services: OpenServices) -> None:
    services = await open_services()
    async with web_server(services) as face:
        body = await (await face.client.get("/?lang=ar")).text()
    assert '<html lang="ar" dir="rtl">' in body
    assert str(escape(text(Msg.WEB_HOME_TITLE, "ar"))) in body
