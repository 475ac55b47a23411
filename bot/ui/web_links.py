"""The link buttons to the web face's pages (docs/ARCHITECTURE.md, "The web face"): a
"Game page" button under every board the bot shows, and under `/history` and `/export`
answers, when the web face is configured (`DAMA_WEB_URL` or `DAMA_WEB_ADDRESS`) and the
game's server has not turned it off. A link button opens its URL in the browser; it sends
the bot nothing (no custom id)."""

from __future__ import annotations

import logging

import discord

from bot.messages import Msg, text
from bot.services.web_access import WebLinks
from storage import StorageError

log = logging.getLogger(__name__)


def game_page_button(url: str, locale: str | None) -> discord.ui.Button[discord.ui.View]:
    """The "Game page" link button to `url`, labelled in `locale`."""
    return discord.ui.Button(style=discord.ButtonStyle.link, url=url,
                             label=text(Msg.BUTTON_GAME_PAGE, locale))


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


__all__ = ["game_page", "game_page_button"]
