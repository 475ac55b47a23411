"""A server's leaderboard page (`/servers/{id}/leaderboard[/{token}]?variant=V`): the
server's ranked players in one variant, as `/leaderboard` ranks them (the same
`StatsService.leaderboard`, the same eligibility rule), then the provisional players
while the page has room, each linked to their page, and a switcher to the other
variants. Shown as the server's `web` setting says (`bot.web.access.visible_leaderboard`).
The database does not keep servers' names, so the page names "this server"."""

from __future__ import annotations

from dataclasses import dataclass

from aiohttp import web

from bot.messages import decimal, variant_name
from bot.ratings import display_rating
from bot.services.stats import Leaderboard
from bot.web.access import visible_leaderboard
from bot.web.context import CONTEXT, WebContext
from bot.web.language import reader_language
from bot.web.pages.player import player_name
from bot.web.paths import LEADERBOARDS
from bot.web.templates import render_page
from engine import VARIANTS

DEFAULT_VARIANT = "turkish"
"""The variant shown when the address names none, as `/leaderboard`'s default
(bot/cogs/choices.py)."""

VARIANT_PARAMETER = "variant"
"""The query parameter naming the variant (a key of `engine.VARIANTS`)."""

PAGE_SIZE = 100
"""The most players a leaderboard page lists (ranked first, then provisional)."""


@dataclass(frozen=True)
class LeaderboardLine:
    """One player of the page: their `rank` (None: provisional), name, page, rating as
    the leaderboard writes it (`1523`, provisional `1500?`) and rated games."""

    rank: int | None
    name: str
    url: str
    rating: str
    rated_games: int


@dataclass(frozen=True)
class VariantLink:
    """One link of the variant switcher: the variant's key and name, and whether it is
    the variant shown."""

    key: str
    name: str
    current: bool


@dataclass(frozen=True)
class LeaderboardPage:
    """What the leaderboard page shows: the server, the variant (key and name), the
    ranked players, the provisional ones, the switcher, and the eligibility rule's
    numbers (`min_games`, `max_deviation` written in the page's language)."""

    guild_id: int
    variant: str
    variant_name: str
    ranked: tuple[LeaderboardLine, ...]
    provisional: tuple[LeaderboardLine, ...]
    variants: tuple[VariantLink, ...]
    min_games: int
    max_deviation: str


def chosen_variant(request: web.Request) -> str:
    """The variant the address asks for (`?variant=`, a key of `engine.VARIANTS`),
    `DEFAULT_VARIANT` when it names none. Raises `web.HTTPNotFound` for an unknown one."""
    key = request.query.get(VARIANT_PARAMETER, DEFAULT_VARIANT)
    if key not in VARIANTS:
        raise web.HTTPNotFound()
    return key


async def _lines(context: WebContext, board: Leaderboard,
                 locale: str) -> tuple[tuple[LeaderboardLine, ...], tuple[LeaderboardLine, ...]]:
    links = context.access.links
    ranked = tuple(
        LeaderboardLine(
            rank=entry.rank,
            name=entry.display_name or player_name(None, entry.rating.user_id, locale),
            url=links.player(entry.rating.user_id),
            rating=display_rating(entry.rating.rating, entry.rating.deviation),
            rated_games=entry.rating.rated_games)
        for entry in board.entries)
    provisional = []
    for entry in board.provisional:
        row = entry.rating
        provisional.append(LeaderboardLine(
            rank=None,
            name=player_name(await context.storage.players.get(row.user_id), row.user_id,
                             locale),
            url=links.player(row.user_id), rating=f"{round(row.rating)}?",
            rated_games=row.rated_games))
    return ranked, tuple(provisional)


async def leaderboard_page(context: WebContext, guild_id: int, variant: str,
                           locale: str) -> LeaderboardPage:
    """Server `guild_id`'s leaderboard of `variant` (a key of `engine.VARIANTS`) in
    `locale`'s language. Raises what the storage raises."""
    board = await context.stats.leaderboard(variant, None, guild_id=guild_id,
                                            limit=PAGE_SIZE)
    ranked, provisional = await _lines(context, board, locale)
    rules = board.eligibility
    return LeaderboardPage(
        guild_id=guild_id, variant=variant, variant_name=variant_name(variant, locale),
        ranked=ranked, provisional=provisional,
        variants=tuple(VariantLink(key, variant_name(key, locale), key == variant)
                       for key in VARIANTS),
        min_games=rules.min_games, max_deviation=decimal(rules.max_deviation, locale))


async def leaderboard(request: web.Request) -> web.Response:
    """GET `/servers/{id}/leaderboard[/{token}]`: the page, or the 404 page (hidden by
    the server's setting, a wrong token, an unknown variant)."""
    guild_id = await visible_leaderboard(request)
    variant = chosen_variant(request)
    locale = reader_language(request).code
    page = await leaderboard_page(request.app[CONTEXT], guild_id, variant, locale)
    return render_page(request, "leaderboard.html", view=page, here=request.path)


def add_routes(router: web.UrlDispatcher) -> None:
    """Register the leaderboard page, by id and by signed link."""
    for path in LEADERBOARDS:
        router.add_get(path, leaderboard)
