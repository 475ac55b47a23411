"""`dama-bot web`: the web face in a process of its own, on the bot's database, with no
Discord (docs/OPERATING.md, "Game pages on the web").

A read-only composition: the storage, the preferences (a server's `web` setting read
again after `CACHE_SECONDS`: the bot processes change it), the statistics on a game
service that restores nothing and schedules nothing; live updates by polling the
database (`bot.web.feeds.PollingFeed`). It writes nothing but the web secret, once, when
`DAMA_WEB_SECRET` is not set and no process stored one yet (`load_secret`).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import signal
import sys
from collections.abc import AsyncIterator
from dataclasses import replace

from bot.config import Config, log_level_number
from bot.log_redaction import install_redaction
from bot.move_work import MoveWork
from bot.services import EventBus, GameRules, GameService, StatsService
from bot.services.settings import ChallengeLimits, PreferenceService
from bot.services.web_access import WebAddress, WebSettings
from bot.web.context import make_context
from bot.web.feeds import PollingFeed
from bot.web.server import WebServer
from storage import Storage, StorageError, database_secrets
from storage.clock import Clock, utc_now

log = logging.getLogger(__name__)

DEFAULT_ADDRESS = WebAddress("127.0.0.1", 8080)
"""Where `dama-bot web` listens when `DAMA_WEB_ADDRESS` is not set."""

CACHE_SECONDS = 30.0
"""How long this process keeps a player's or a server's settings before reading them
again (the bot processes change them)."""


def web_settings(config: Config) -> WebSettings:
    """The web settings of `dama-bot web`: `config.web` listening on `DEFAULT_ADDRESS`
    when it names no address (its links' base then that address too, when no
    `DAMA_WEB_URL` is set)."""
    if config.web is None:
        return WebSettings(address=DEFAULT_ADDRESS, url=f"http://{DEFAULT_ADDRESS}")
    if config.web.address is None:
        return replace(config.web, address=DEFAULT_ADDRESS)
    return config.web


@contextlib.asynccontextmanager
async def web_process(config: Config, *, clock: Clock = utc_now,
                      address: WebAddress | None = None) -> AsyncIterator[WebServer]:
    """The web face of `config`'s database, served on `address` (None: `web_settings`')
    for the `async with` block; everything closed after it. Raises what `Storage.open`
    raises, `OSError` when the address cannot be listened on."""
    settings = web_settings(config)
    storage = await Storage.open(config.database, clock=clock, leaderboard=config.eligibility,
                                 pool_size=config.database_pool_size)
    move_work = MoveWork()
    try:
        preferences = PreferenceService(
            storage.settings,
            ChallengeLimits(config.challenges_per_challenger, config.challenges_per_opponent),
            player_cache_seconds=CACHE_SECONDS, guild_cache_seconds=CACHE_SECONDS)
        rules = GameRules(config.inactivity_limit, config.computer_moves_before_forfeit)
        games = GameService(storage, rules=rules, clock=clock, events=EventBus(),
                            move_work=move_work)
        stats = StatsService(storage, games, eligibility=config.eligibility)
        context = await make_context(storage, stats, preferences, PollingFeed(storage.games),
                                     settings, clock)
        server = WebServer(context, address)
        await server.start()
        try:
            yield server
        finally:
            await server.stop()
    finally:
        await move_work.close()
        await storage.close()


async def _serve(config: Config) -> None:
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for number in (signal.SIGINT, signal.SIGTERM):
        with contextlib.suppress(NotImplementedError):
            loop.add_signal_handler(number, stop.set)
    async with web_process(config) as server:
        settings = web_settings(config)
        assert settings.address is not None
        print(f"Game pages: http://{WebAddress(settings.address.host, server.port or 0)}/ "
              f"(links: {settings.url}/)", file=sys.stderr, flush=True)
        await stop.wait()


def run(config: Config) -> int:
    """Serve the pages until SIGINT or SIGTERM; the exit status: 0 after a clean stop, 2
    with one line when the database cannot be used or the address not listened on."""
    handler = logging.StreamHandler()
    install_redaction(handler, [*database_secrets(config.database),
                                *([config.web.secret] if config.web and config.web.secret
                                  else [])])
    logging.basicConfig(level=log_level_number(config), handlers=[handler],
                        format="%(asctime)s %(levelname)-8s %(name)s %(message)s")
    try:
        asyncio.run(_serve(config))
    except StorageError as error:
        print(f"dama-bot: web: {error}", file=sys.stderr)
        return 2
    except OSError as error:
        address = web_settings(config).address
        print(f"dama-bot: web: cannot listen on {address} ({error.strerror or error}); set "
              "DAMA_WEB_ADDRESS to a free host:port", file=sys.stderr)
        return 2
    return 0


__all__ = ["CACHE_SECONDS", "DEFAULT_ADDRESS", "run", "web_process", "web_settings"]
