"""The web's visibility rule, signed links and the secret (`bot.services.web_access`), on
plain values and a real SQLite file."""

from __future__ import annotations

import asyncio

import pytest

from bot.services.settings import WebVisibility
from bot.services.web_access import (
    SECRET_NAME,
    TOKEN_LENGTH,
    LinkSigner,
    PageKind,
    WebAccess,
    load_secret,
    web_visibility,
)
from tests.support.services import GUILD, OpenServices, start_game

SECRET = "s" * 32


def test_a_token_is_22_url_safe_characters_for_one_page_of_one_kind() -> None:
    signer = LinkSigner(SECRET)
    token = signer.token(PageKind.GAME, 7)
    assert len(token) == TOKEN_LENGTH
    assert token.replace("-", "").replace("_", "").isalnum()
    assert signer.verify(PageKind.GAME, 7, token)
    assert not signer.verify(PageKind.GAME, 8, token)
    assert not signer.verify(PageKind.PLAYER, 7, token)
    assert not LinkSigner("t" * 32).verify(PageKind.GAME, 7, token)
    assert not signer.verify(PageKind.GAME, 7, token[:-1])
    assert not signer.verify(PageKind.GAME, 7, "é" * 22)


def test_a_short_secret_is_refused() -> None:
    with pytest.raises(ValueError):
        LinkSigner("s" * 31)


@pytest.mark.parametrize("kind, server, visibility", [
    (PageKind.GAME, None, WebVisibility.LINK),
    (PageKind.GAME, WebVisibility.PUBLIC, WebVisibility.PUBLIC),
    (PageKind.GAME, WebVisibility.OFF, WebVisibility.OFF),
    (PageKind.TOURNAMENT, WebVisibility.PUBLIC, WebVisibility.PUBLIC),
    (PageKind.LEADERBOARD, WebVisibility.OFF, WebVisibility.OFF),
    (PageKind.PLAYER, WebVisibility.PUBLIC, WebVisibility.LINK),
    (PageKind.PLAYER, WebVisibility.OFF, WebVisibility.LINK),
])
def test_the_visibility_of_each_kind_of_page(kind: PageKind, server: WebVisibility | None,
                                             visibility: WebVisibility) -> None:
    assert web_visibility(kind, server) is visibility


def test_what_each_visibility_allows() -> None:
    assert [(v.allows(False), v.allows(True)) for v in WebVisibility] == [
        (True, True), (False, True), (False, False)]


async def test_the_secret_is_made_once_and_shared(open_services: OpenServices) -> None:
    services = await open_services()
    settings = services.storage.settings
    made = await asyncio.gather(*(load_secret(settings, None) for _ in range(5)))
    assert len(set(made)) == 1 and len(made[0]) >= 32
    assert (await settings.bot_values())[SECRET_NAME] == made[0]
    assert await load_secret(settings, "c" * 40) == "c" * 40


async def test_links_are_signed_and_none_when_the_server_turned_the_web_off(
        open_services: OpenServices) -> None:
    services = await open_services()
    record = await start_game(services, "turkish")
    preferences = services.composed.preferences
    access = WebAccess(LinkSigner(SECRET), preferences, "https://dama.example.org/")
    token = access.signer.token(PageKind.GAME, record.id)
    assert await access.links.game(record) == (
        f"https://dama.example.org/games/{record.id}/{token}")
    assert access.links.player(5).startswith("https://dama.example.org/players/5/")
    await preferences.update_guild(GUILD, web=WebVisibility.PUBLIC.value)
    assert await access.links.game(record) == (
        f"https://dama.example.org/games/{record.id}/{token}")
    assert (await access.links.leaderboard(GUILD) or "").startswith(
        f"https://dama.example.org/servers/{GUILD}/leaderboard/")
    await preferences.update_guild(GUILD, web=WebVisibility.OFF.value)
    assert await access.links.game(record) is None
    assert await access.links.leaderboard(GUILD) is None
    assert await access.links.tournament(3, GUILD) is None
