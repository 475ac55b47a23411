"""What every handler of the web face reads (`WebContext`, as `request.app[CONTEXT]`),
and the live source the game pages' updates come from (`LiveSource`, implemented in
`bot.web.live`). docs/ARCHITECTURE.md, "The web face"."""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Protocol

from aiohttp import web

from bot.services.settings import PreferenceService
from bot.services.stats import StatsService
from bot.services.web_access import LinkSigner, WebAccess, WebSettings, load_secret
from storage import Storage
from storage.clock import Clock


class LiveSource(Protocol):
    """Where a game's changes are heard: the process's event bus, or the database polled
    (`bot.web.live`)."""

    def watch(self, game_id: int) -> AsyncIterator[int]:
        """The game's ply count each time it changes, and once more when it ends (then
        the iteration stops). The caller reads the game from storage after each."""
        ...

    async def close(self) -> None:
        """Stop every watch (the server stops)."""
        ...


@dataclass(frozen=True)
class WebContext:
    """The services the web pages read. `storage`: reads only (the web secret's first
    write aside, `bot.services.web_access.load_secret`); `stats`: leaderboards, ratings,
    game replays; `preferences`: a server's `web` setting and language; `access`: the
    visibility rule, the signer and the links; `live`: the games' changes; `settings`:
    the web face's settings; `clock`: the time."""

    storage: Storage
    stats: StatsService
    preferences: PreferenceService
    access: WebAccess
    live: LiveSource
    settings: WebSettings
    clock: Clock


CONTEXT = web.AppKey("dama_web_context", WebContext)
"""The key of the `WebContext` in the application: `request.app[CONTEXT]`."""

async def make_context(storage: Storage, stats: StatsService, preferences: PreferenceService,
                       live: LiveSource, settings: WebSettings, clock: Clock) -> WebContext:
    """The context of the web face on these services: its secret read (or made once and
    stored, `load_secret`), its signer and access rule built. Raises what storage raises
    when the secret cannot be read or stored."""
    secret = await load_secret(storage.settings, settings.secret)
    access = WebAccess(LinkSigner(secret), preferences, settings.url)
    return WebContext(storage=storage, stats=stats, preferences=preferences, access=access,
                      live=live, settings=settings, clock=clock)


__all__ = ["CONTEXT", "LiveSource", "WebContext", "make_context"]
