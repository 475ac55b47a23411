"""The pages a request may see: each `visible_*` resolves a page's path (`bot.web.paths`)
to what it shows, or raises `web.HTTPNotFound`. A page that may not be shown (hidden by its
server's `web` setting, a wrong token, a token of another page or kind) is the same 404 as
a page that does not exist: no one can tell which ids exist (docs/ARCHITECTURE.md, "The web
face"; the rule: `bot.services.web_access`). Every page and picture handler calls one
first."""

from __future__ import annotations

from aiohttp import web

from bot.services.web_access import PageKind
from bot.web.context import CONTEXT
from bot.web.paths import ID, TOKEN
from storage import GameRecord, Player, TournamentRecord

MAX_ID = 2**63 - 1
"""The largest id stored (a signed 64-bit number)."""


def page_id(request: web.Request) -> int:
    """The page's id from its path. Raises `web.HTTPNotFound` for one above `MAX_ID` (the
    path pattern allows only 1 to 19 digits)."""
    text = request.match_info.get(ID, "")
    if not (text.isascii() and text.isdigit()) or int(text) > MAX_ID:
        raise web.HTTPNotFound()
    return int(text)


async def _check(request: web.Request, kind: PageKind, page: int,
                 guild_id: int | None) -> None:
    context = request.app[CONTEXT]
    token = request.match_info.get(TOKEN)
    if not await context.access.may_show(kind, page, guild_id, token):
        raise web.HTTPNotFound()


async def visible_game(request: web.Request) -> GameRecord:
    """The game of `/games/{id}[/{token}]...`. Raises `web.HTTPNotFound` when there is none
    or it may not be shown."""
    game_id = page_id(request)
    record = await request.app[CONTEXT].storage.games.get(game_id)
    if record is None:
        raise web.HTTPNotFound()
    await _check(request, PageKind.GAME, game_id, record.guild_id)
    return record


async def visible_player(request: web.Request) -> Player:
    """The player of `/players/{id}/{token}` (a signed link only). Raises
    `web.HTTPNotFound` for a wrong token or a player the bot never saw."""
    user_id = page_id(request)
    await _check(request, PageKind.PLAYER, user_id, None)
    player = await request.app[CONTEXT].storage.players.get(user_id)
    if player is None:
        raise web.HTTPNotFound()
    return player


async def visible_leaderboard(request: web.Request) -> int:
    """The server id of `/servers/{id}/leaderboard[/{token}]`. Raises `web.HTTPNotFound`
    when the server's leaderboard may not be shown."""
    guild_id = page_id(request)
    await _check(request, PageKind.LEADERBOARD, guild_id, guild_id)
    return guild_id


async def visible_tournament(request: web.Request) -> TournamentRecord:
    """The tournament of `/tournaments/{id}[/{token}]`. Raises `web.HTTPNotFound` when
    there is none or it may not be shown."""
    tournament_id = page_id(request)
    record = await request.app[CONTEXT].storage.tournaments.get(tournament_id)
    if record is None:
        raise web.HTTPNotFound()
    await _check(request, PageKind.TOURNAMENT, tournament_id, record.guild_id)
    return record


def signed(request: web.Request) -> bool:
    """Whether the request came by a signed link (its pages are not to be indexed)."""
    return TOKEN in request.match_info


__all__ = ["MAX_ID", "page_id", "signed", "visible_game", "visible_leaderboard",
           "visible_player", "visible_tournament"]
