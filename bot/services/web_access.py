"""Who may see which page of the web face, and the signed links that open them
(docs/ARCHITECTURE.md, "The web face"). Plain values, nothing of HTTP: the Discord side
uses it for its link buttons, the web pages (`bot.web.access`) to answer or refuse.

A server chooses how its games, tournaments and leaderboard show on the web
(`WebVisibility`, the server preference `web`, `bot.services.settings`): PUBLIC pages are
reached by their id and by a signed link, LINK pages only by a signed link, OFF pages not
at all. A game without a server (a direct message or group DM) and a player's page are
LINK always (`web_visibility`).

A signed link carries a token: the first 22 characters of the base64url HMAC-SHA256 of
`"<kind>:<id>"` under the bot's web secret (132 bits; `LinkSigner`). The secret is
`DAMA_WEB_SECRET`, else one made once and kept in the database's bot values
(`web_secret`, `load_secret`), shared by every process on that database. Changing it
breaks every link given so far (docs/OPERATING.md, "Game pages on the web").
"""

from __future__ import annotations

import base64
import enum
import hashlib
import hmac
import secrets
from dataclasses import dataclass
from typing import assert_never

from bot.services.settings import PreferenceService, WebVisibility
from storage import GameRecord, SettingsRepository

MIN_SECRET_LENGTH = 32
"""The fewest characters of a web secret (`DAMA_WEB_SECRET`)."""

SECRET_NAME = "web_secret"
"""The bot value holding the secret made when `DAMA_WEB_SECRET` is not set."""

TOKEN_LENGTH = 22
"""Characters of a link's token: 22 base64url characters carry 132 bits."""


class PageKind(enum.StrEnum):
    """What a page shows; signed into its token, so a token opens one kind of page."""

    GAME = "game"
    PLAYER = "player"
    LEADERBOARD = "leaderboard"
    TOURNAMENT = "tournament"


def web_visibility(kind: PageKind, server: WebVisibility | None) -> WebVisibility:
    """The visibility of a page of `kind` whose server's `web` setting is `server` (None:
    the page has no server: a game in a direct message or group DM).

    A game: its server's setting, LINK without a server (its players and the chat see its
    board with the link). A tournament or a leaderboard: its server's setting (LINK when
    none is given). A player: LINK always (their page lists only PUBLIC games).
    Source: docs/ARCHITECTURE.md, "The web face"."""
    match kind:
        case PageKind.GAME | PageKind.TOURNAMENT | PageKind.LEADERBOARD:
            return WebVisibility.LINK if server is None else server
        case PageKind.PLAYER:
            return WebVisibility.LINK
        case _:
            assert_never(kind)


class LinkSigner:
    """Makes and checks the tokens of signed links. `secret`: the web secret (at least
    `MIN_SECRET_LENGTH` characters; ValueError otherwise)."""

    def __init__(self, secret: str) -> None:
        if len(secret) < MIN_SECRET_LENGTH:
            raise ValueError(f"the web secret must have at least {MIN_SECRET_LENGTH} "
                             "characters")
        self._key = secret.encode()

    def token(self, kind: PageKind, page_id: int) -> str:
        """The token of the page of `kind` and `page_id`: 22 base64url characters."""
        digest = hmac.new(self._key, f"{kind.value}:{page_id}".encode(), hashlib.sha256)
        return base64.urlsafe_b64encode(digest.digest()).decode()[:TOKEN_LENGTH]

    def verify(self, kind: PageKind, page_id: int, token: str) -> bool:
        """Whether `token` is the token of the page of `kind` and `page_id` (compared in
        constant time)."""
        return hmac.compare_digest(self.token(kind, page_id).encode(),
                                   token.encode("utf-8", "replace"))


async def load_secret(settings: SettingsRepository, configured: str | None) -> str:
    """The web secret: `configured` (`DAMA_WEB_SECRET`) when given, else the one stored
    in the bot values (`SECRET_NAME`), made now and stored when there is none
    (compare-and-set: of several processes starting at once, all keep the one stored
    first). Raises what the repository raises (`StorageWriteError`)."""
    if configured is not None:
        return configured
    while True:
        stored = (await settings.bot_values()).get(SECRET_NAME)
        if stored is not None and len(stored) >= MIN_SECRET_LENGTH:
            return stored
        made = secrets.token_urlsafe(MIN_SECRET_LENGTH)
        if await settings.replace_bot_value(SECRET_NAME, stored, made):
            return made


class WebAccess:
    """The visibility rule on the web, the signer and the links to give out: whether a
    page may be shown (`may_show`), and its signed URL (`links`). `preferences`: where a
    server's `web` setting is read; `base_url`: the pages' public base URL
    (`WebSettings.url`)."""

    def __init__(self, signer: LinkSigner, preferences: PreferenceService,
                 base_url: str) -> None:
        self.signer = signer
        self._preferences = preferences
        self.links = WebLinks(base_url, self)

    async def visibility(self, kind: PageKind, guild_id: int | None) -> WebVisibility:
        """The visibility of a page of `kind` in the server `guild_id` (None: none).
        Raises what reading the server's settings raises (`StorageError`)."""
        server = None if guild_id is None else (await self._preferences.guild(guild_id)).web
        return web_visibility(kind, server)

    async def game_visibility(self, record: GameRecord) -> WebVisibility:
        """The visibility of a game's page."""
        return await self.visibility(PageKind.GAME, record.guild_id)

    async def may_show(self, kind: PageKind, page_id: int, guild_id: int | None,
                       token: str | None) -> bool:
        """Whether the page of `kind` and `page_id` in the server `guild_id` may be shown
        to a request with `token` (None: by its id alone). A wrong token is refused
        even where the id alone would do (a wrong link is never a working one)."""
        signed = token is not None and self.signer.verify(kind, page_id, token)
        if token is not None and not signed:
            return False
        return (await self.visibility(kind, guild_id)).allows(signed)


class WebLinks:
    """The URLs to give out: always the signed form (it works whatever the server's
    setting becomes, as long as it is not OFF). `base_url`: the pages' public base URL
    (`WebSettings.url`)."""

    def __init__(self, base_url: str, access: WebAccess) -> None:
        self._base = base_url.rstrip("/")
        self._access = access

    def _signed(self, path: str, kind: PageKind, page_id: int) -> str:
        return f"{self._base}/{path}/{page_id}/{self._access.signer.token(kind, page_id)}"

    async def game(self, record: GameRecord) -> str | None:
        """The game's page, None when its server's setting is OFF."""
        return await self.game_page(record.id, record.guild_id)

    async def game_page(self, game_id: int, guild_id: int | None) -> str | None:
        """The page of game `game_id` of the server `guild_id` (None: none), None when the
        server's setting is OFF."""
        if await self._access.visibility(PageKind.GAME, guild_id) is WebVisibility.OFF:
            return None
        return self.signed_game(game_id)

    def signed_game(self, game_id: int) -> str:
        """The signed page of game `game_id`, whatever its server's setting: for a page
        that already showed the game's server may be seen (a tournament's page lists its
        games). Raises nothing."""
        return self._signed("games", PageKind.GAME, game_id)

    def player(self, user_id: int) -> str:
        """The player's page (always LINK)."""
        return self._signed("players", PageKind.PLAYER, user_id)

    async def leaderboard(self, guild_id: int) -> str | None:
        """The server's leaderboard page, None when the server's setting is OFF."""
        if await self._access.visibility(PageKind.LEADERBOARD, guild_id) is WebVisibility.OFF:
            return None
        token = self._access.signer.token(PageKind.LEADERBOARD, guild_id)
        return f"{self._base}/servers/{guild_id}/leaderboard/{token}"

    async def tournament(self, tournament_id: int, guild_id: int) -> str | None:
        """The tournament's page, None when its server's setting is OFF."""
        if await self._access.visibility(PageKind.TOURNAMENT, guild_id) is WebVisibility.OFF:
            return None
        return self._signed("tournaments", PageKind.TOURNAMENT, tournament_id)


@dataclass(frozen=True)
class WebAddress:
    """Where the web server listens: a host name or address and a TCP port."""

    host: str
    port: int

    def __str__(self) -> str:
        return f"[{self.host}]:{self.port}" if ":" in self.host else f"{self.host}:{self.port}"


@dataclass(frozen=True)
class WebSettings:
    """The web face's settings (`bot.config`, docs/OPERATING.md "Game pages on the web").

    address: where to listen (None: no web server in this process, only links).
    url: the pages' public base URL, in links and Open Graph tags.
    secret: `DAMA_WEB_SECRET` (None: the one kept in the database, `load_secret`).
    rate, burst: requests a second each client address may make, and how many at once.
    trusted_proxies: addresses whose `X-Forwarded-For` names the client."""

    address: WebAddress | None
    url: str
    secret: str | None = None
    rate: float = 10.0
    burst: int = 40
    trusted_proxies: frozenset[str] = frozenset()


__all__ = [
    "MIN_SECRET_LENGTH",
    "SECRET_NAME",
    "TOKEN_LENGTH",
    "LinkSigner",
    "PageKind",
    "WebAccess",
    "WebAddress",
    "WebLinks",
    "WebSettings",
    "WebVisibility",
    "load_secret",
    "web_visibility",
]
