"""The link buttons to the web face's pages (docs/ARCHITECTURE.md, "The web face"): a
"Game page" button under every board the bot shows, and under `/history`, `/export` and
`/analyze` answers; a "Player page" button under `/rating`, a "Leaderboard page" button
under `/leaderboard` (server scope) and a "Tournament page" button under a tournament's
standings and its sign-up post; each when the web face is configured (`DAMA_WEB_URL` or
`DAMA_WEB_ADDRESS`) and the page's server has not turned it off. A link button opens its
URL in the browser; it sends the bot nothing (no custom id)."""

from __future__ import annotations

import logging
from urllib.parse import urlencode

import discord

from bot.messages import Msg, text
from bot.services.web_access import WebLinks
from storage import StorageError

log = logging.getLogger(__name__)


def link_button(url: str, label: Msg, locale: str | None) -> discord.ui.Button[discord.ui.View]:
    """A link button to `url`, labelled with the message `label` in `locale`."""
    return discord.ui.Button(style=discord.ButtonStyle.link, url=url, label=text(label, locale))


def game_page_button(url: str, locale: str | None) -> discord.ui.Button[discord.ui.View]:
    """The "Game page" link button to `url`, labelled in `locale`."""
    return link_button(url, Msg.BUTTON_GAME_PAGE, locale)


def link_view(url: str | None, label: Msg, locale: str | None) -> discord.ui.View | None:
    """A view holding only the link button to `url` (`link_button`), None when `url` is
    None (the page has no link)."""
    if url is None:
        return None
    view = discord.ui.View(timeout=None)
    view.add_item(link_button(url, label, locale))
    return view


async def game_page(links: WebLinks | None, game_id: int, guild_id: int | None) -> str | None:
    """The signed URL of the game's page, None when there is no web face, its server
    turned it off, or its setting could not be read (logged: a board is never held back
    for its link)."""
    if links is None:
        return None
    try:
        return await links.game_page(game_id, guild_id)
    except StorageError:
        log.exception("game %s: the web setting of its server could not be read", game_id)
        return None


def player_page(links: WebLinks | None, user_id: int) -> str | None:
    """The signed URL of the player's page, None when there is no web face (a player's
    page is LINK always, `bot.services.web_access.web_visibility`)."""
    return None if links is None else links.player(user_id)


async def leaderboard_page(links: WebLinks | None, guild_id: int,
                           variant: str) -> str | None:
    """The signed URL of the server's leaderboard page showing `variant` (a key of
    `engine.VARIANTS`), None when there is no web face, the server turned it off, or its
    setting could not be read (logged)."""
    if links is None:
        return None
    try:
        url = await links.leaderboard(guild_id)
    except StorageError:
        log.exception("server %s: its web setting could not be read", guild_id)
        return None
    return None if url is None else f"{url}?{urlencode({'variant': variant})}"


async def tournament_page(links: WebLinks | None, tournament_id: int,
                          guild_id: int) -> str | None:
    """The signed URL of the tournament's page, None when there is no web face, its
    server turned it off, or its setting could not be read (logged)."""
    if links is None:
        return None
    try:
        return await links.tournament(tournament_id, guild_id)
    except StorageError:
        log.exception("tournament %s: the web setting of its server could not be read",
                      tournament_id)
        return None


__all__ = ["game_page", "game_page_button", "leaderboard_page", "link_button", "link_view",
           "player_page", "tournament_page"]
