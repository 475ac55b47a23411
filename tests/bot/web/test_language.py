"""A page's language (`bot.web.language`): the URL's `lang`, else the browser's
`Accept-Language` negotiated, else English; and the error pages written in it."""

from __future__ import annotations

import pytest
from aiohttp.test_utils import make_mocked_request

from bot.language import Language
from bot.web.language import accepted, reader_language
from tests.support.services import OpenServices
from tests.support.web import web_server


def test_accepted_languages_are_ordered_by_quality_then_by_place() -> None:
    assert accepted("fr-CH, fr;q=0.9, en;q=0.8, de;q=0.95, *;q=0.5, x;q=no, y;q=0") == [
        "fr-CH", "de", "fr", "en"]


@pytest.mark.parametrize("query, header, language, from_url", [
    ("?lang=ar", "fr", Language.ARABIC, True),
    ("", "fr-CH, fr;q=0.9", Language.FRENCH, False),
    ("", "de-DE, it;q=0.5", Language.ITALIAN, False),
    ("", "TR-tr", Language.TURKISH, False),
    ("", "de, ja", Language.ENGLISH, False),
    ("", "", Language.ENGLISH, False),
    ("?lang=xx", "it", Language.ITALIAN, False),
])
def test_the_reader_s_language(query: str, header: str, language: Language,
                               from_url: bool) -> None:
    request = make_mocked_request("GET", "/" + query, headers={"Accept-Language": header})
    reader = reader_language(request)
    assert (reader.language, reader.from_url) == (language, from_url)


async def test_an_error_page_is_written_in_the_reader_s_language(
        open_services: OpenServices) -> None:
    services = await open_services()
    async with web_server(services) as face:
        english = await (await face.client.get("/no/such/page")).text()
        assert '<html lang="en" dir="ltr">' in english
        assert "<h1>Page not found</h1>" in english
        arabic = await (await face.client.get("/no/such/page?lang=ar")).text()
        assert '<html lang="ar" dir="rtl">' in arabic
        assert '<a href="/?lang=ar">' in arabic  # links keep a language the URL chose
        french = await (await face.client.get(
            "/no/such/page", headers={"Accept-Language": "fr"})).text()
        assert '<html lang="fr" dir="ltr">' in french
        assert '<a href="/">' in french  # ... and only that one
