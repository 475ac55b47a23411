"""The web face running for the browser tests, on real sockets:

- `bot_with_web`: the real bot process logged in to the local Discord stand-in, its web
  server beside it (`DAMA_WEB_ADDRESS` on a free loopback port), so that a move played
  through the stand-in reaches the page;
- `web_process`: `dama-bot web`, the pages in a process of their own on a bot's
  database (following its games by polling it);
- `scene_site`: the web application alone (`bot.web.WebServer`) on the services of the
  scene's database (`tests/support/web_scene.py`), as `dama-bot web` serves a database
  it shares with the bot.

Both use a known web secret (`WEB_SECRET`), so a test signs its own links, and a rate
limit no browser test reaches (a page and its pictures come from one address)."""

from __future__ import annotations

import asyncio
import os
import signal
import socket
import sys
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlencode

import aiohttp

from bot.services.web_access import PageKind, WebAddress, WebSettings
from bot.web import WebServer
from bot.web.context import LiveSource, WebContext, make_context
from bot.web.feeds import BusFeed
from localplay.server import LocalDiscord
from tests.support.local_discord import READY_TIMEOUT
from tests.support.services import Services, build_services
from tests.support.web_scene import Scene, build_scene, fresh_clock

WEB_SECRET = "browser-tests-web-secret-0123456789abcdef"
"""The tests' `DAMA_WEB_SECRET` (at least 32 characters)."""

WEB_RATE, WEB_BURST = 1_000, 1_000
"""Requests a second per address, and the burst: far above what a test asks."""

HEALTH_TIMEOUT = 30.0
"""Seconds the web server has to answer its health check once the bot is ready."""


def free_port() -> int:
    """A loopback TCP port free now (the system's choice)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


async def wait_healthy(base_url: str, timeout: float = HEALTH_TIMEOUT) -> None:
    """Wait until `base_url`/health answers "ok"; raises `TimeoutError` after `timeout`
    seconds."""
    async with aiohttp.ClientSession() as session:
        async with asyncio.timeout(timeout):
            while True:
                try:
                    async with session.get(f"{base_url}/health") as answer:
                        if answer.status == 200 and (await answer.text()).strip() == "ok":
                            return
                except aiohttp.ClientConnectionError:
                    pass
                await asyncio.sleep(0.1)


def web_environment(port: int) -> dict[str, str]:
    """The web settings of a process serving the pages on loopback `port`."""
    return {"DAMA_WEB_ADDRESS": f"127.0.0.1:{port}", "DAMA_WEB_SECRET": WEB_SECRET,
            "DAMA_WEB_RATE": str(WEB_RATE), "DAMA_WEB_BURST": str(WEB_BURST)}


@asynccontextmanager
async def bot_with_web(folder: Path) -> AsyncIterator[tuple[LocalDiscord, str]]:
    """The stand-in with server "Dama Club" and the real bot process logged in to it, its
    database and log in `folder`, its web server on a free loopback port; yields the
    stand-in and the pages' base URL. On the way out, as the `local` fixture does: the
    stand-in must have answered every request and the bot logged no exception."""
    port = free_port()
    base_url = f"http://127.0.0.1:{port}"
    discord = LocalDiscord(
        database=folder / "bot.sqlite3", log_path=folder / "bot.log",
        ready_timeout=READY_TIMEOUT,
        env=web_environment(port),
    )
    async with discord:
        try:
            await wait_healthy(base_url)
            yield discord, base_url
        finally:  # shown by pytest only when the test failed
            print(f"--- end of the bot's log ({discord.process.log_path}) ---")
            print(discord.process.log_tail(40))
        assert not discord.standin.internal_errors, discord.standin.internal_errors
    log = discord.process.log_path.read_text(encoding="utf-8", errors="replace")
    assert "Traceback" not in log, f"the bot logged an exception:\n{log[-4000:]}"


@asynccontextmanager
async def web_process(database: Path, log_path: Path) -> AsyncIterator[str]:
    """`python -m bot web` on the SQLite file `database` (a running bot's), listening on
    a free loopback port, its output in `log_path`; yields the pages' base URL. Stopped
    by SIGTERM on the way out, which it must obey (status 0), with no exception logged."""
    port = free_port()
    base_url = f"http://127.0.0.1:{port}"
    environment = {key: value for key, value in os.environ.items()
                   if not key.startswith("DAMA_") and key != "DISCORD_TOKEN"}
    environment.update(web_environment(port), DAMA_DATABASE=str(database),
                       PYTHONUNBUFFERED="1")
    with open(log_path, "ab") as log:
        process = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "bot", "web", stdin=asyncio.subprocess.DEVNULL,
            stdout=log, stderr=asyncio.subprocess.STDOUT, env=environment)
    try:
        await wait_healthy(base_url)
        yield base_url
    finally:
        if process.returncode is None:
            process.send_signal(signal.SIGTERM)
            try:
                async with asyncio.timeout(HEALTH_TIMEOUT):
                    await process.wait()
            except TimeoutError:
                process.kill()
                await process.wait()
    output = log_path.read_text(encoding="utf-8", errors="replace")
    assert process.returncode == 0, f"dama-bot web ended with {process.returncode}:\n{output}"
    assert "Traceback" not in output, f"dama-bot web logged an exception:\n{output}"


PAGE_PATHS = {
    PageKind.GAME: "games",
    PageKind.PLAYER: "players",
    PageKind.TOURNAMENT: "tournaments",
}
"""The first part of each kind's path (docs/ARCHITECTURE.md, "The web face"); a server's
leaderboard is `/servers/{id}/leaderboard`."""


@dataclass(frozen=True)
class SceneSite:
    """The scene's web face running: what was made (`scene`), where it is served
    (`base_url`), its context (the signer) and the services under it."""

    scene: Scene
    base_url: str
    context: WebContext
    services: Services

    def url(self, path: str, **query: str | int) -> str:
        """The absolute URL of `path` with `query` (e.g. `lang="ar"`)."""
        tail = f"?{urlencode(query)}" if query else ""
        return f"{self.base_url}{path}{tail}"

    def token(self, kind: PageKind, page_id: int) -> str:
        """The signed link's token of the page of `kind` and `page_id`."""
        return self.context.access.signer.token(kind, page_id)

    def path(self, kind: PageKind, page_id: int, *, signed: bool = True) -> str:
        """The path of the page of `kind` and `page_id`: signed, or by its id alone."""
        base = (f"/servers/{page_id}/leaderboard" if kind is PageKind.LEADERBOARD
                else f"/{PAGE_PATHS[kind]}/{page_id}")
        return f"{base}/{self.token(kind, page_id)}" if signed else base


def _live_source(services: Services) -> LiveSource:
    """The live source of a web face beside the bot: `services`' event bus."""
    return BusFeed(services.composed.events, services.storage.games)


@asynccontextmanager
async def scene_site(folder: Path) -> AsyncIterator[SceneSite]:
    """The scene (`build_scene`) made in a new database in `folder`, and the web face on
    its services listening on a free loopback port (`WebServer`, as beside the bot), on
    the scene's clock (the pages are the same every run)."""
    services = await build_services(folder / "scene.sqlite3", fresh_clock())
    try:
        scene = await build_scene(services)
        port = free_port()
        base_url = f"http://127.0.0.1:{port}"
        settings = WebSettings(address=WebAddress("127.0.0.1", port), url=base_url,
                               secret=WEB_SECRET, rate=WEB_RATE, burst=WEB_BURST)
        context = await make_context(services.storage, services.stats,
                                     services.composed.preferences, _live_source(services),
                                     settings, services.clock)
        server = WebServer(context)
        await server.start()
        try:
            await wait_healthy(base_url)
            yield SceneSite(scene, base_url, context, services)
        finally:
            await server.stop()
    finally:
        await services.close()


SCENE_PAGES: dict[str, Callable[[SceneSite], str]] = {
    "home": lambda site: "/",
    "game-live": lambda site: site.path(PageKind.GAME, site.scene.live_game, signed=False),
    "game-analysed": lambda site: site.path(PageKind.GAME, site.scene.analysed_game,
                                            signed=False),
    "player": lambda site: site.path(PageKind.PLAYER, site.scene.player),
    "leaderboard": lambda site: site.path(PageKind.LEADERBOARD, site.scene.guild,
                                          signed=False),
    "tournament": lambda site: site.path(PageKind.TOURNAMENT, site.scene.tournament,
                                         signed=False),
}
"""Every kind of page, by name, and its path in the scene (the gallery's pages)."""
