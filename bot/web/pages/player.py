"""A player's page (`/players/{id}/{token}`, by a signed link only): their ratings in each
variant (rating, rating deviation, rated games, wins, losses and draws, ranked or
provisional) and their recent games that are PUBLIC on the web, each linked to its page,
with the sentence that only those are listed (docs/ARCHITECTURE.md, "The web face": a
player's page is LINK always and never shows a game its server keeps to links or off).
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from datetime import datetime
from typing import assert_never

from aiohttp import web
from babel.dates import format_date

from bot.messages import Msg, text, variant_name
from bot.ratings import display_rating
from bot.services.settings import WebVisibility
from bot.web.access import visible_player
from bot.web.context import CONTEXT, WebContext
from bot.web.language import reader_language
from bot.web.paths import PLAYER
from bot.web.templates import render_page
from storage import Eligibility, GameRecord, Player, Rating, Seat, Side

RECENT_GAMES = 20
"""The most games a player's page lists."""

SCANNED_GAMES = 200
"""The most recent games read to find the public ones: a player whose last games were
all played where the web shows nothing gets an empty list (and the sentence that only
public games are listed), not a scan of their whole history."""


class Score(enum.Enum):
    """What a listed game was for the player: won, lost, drawn, or aborted (no result)."""

    WIN = "win"
    LOSS = "loss"
    DRAW = "draw"
    ABORTED = "aborted"

    @property
    def words(self) -> Msg:
        """The score's words, as /history writes them."""
        match self:
            case Score.WIN:
                return Msg.SCORE_WIN
            case Score.LOSS:
                return Msg.SCORE_LOSS
            case Score.DRAW:
                return Msg.SCORE_DRAW
            case Score.ABORTED:
                return Msg.SCORE_ABORTED
            case _:
                assert_never(self)


def score_of(record: GameRecord, side: Side) -> Score:
    """The game's score for the player of `side`: ABORTED when it has no result."""
    if record.result is None:
        return Score.ABORTED
    points = record.result.score_of(side)
    return Score.WIN if points == 1.0 else Score.LOSS if points == 0.0 else Score.DRAW


@dataclass(frozen=True)
class RatingLine:
    """One variant's rating: the variant's name, the rating as the leaderboard writes it
    (`1523`, or `1500?` while provisional), the rating deviation, the counts of rated
    games, and whether the player is `ranked` (on the leaderboard by its eligibility
    rule) rather than provisional."""

    variant: str
    rating: str
    deviation: int
    rated_games: int
    wins: int
    losses: int
    draws: int
    ranked: bool


@dataclass(frozen=True)
class Opponent:
    """Who the player played: a name, and the link to their page (None: the
    computer)."""

    name: str
    url: str | None


@dataclass(frozen=True)
class GameLine:
    """One listed game: its id and page, variant, what it was for the player, the
    opponent, and the day it ended (`ended`: written in the page's language; `ended_iso`
    for the `<time>` element)."""

    game_id: int
    url: str
    variant: str
    score: Score
    opponent: Opponent
    ended: str
    ended_iso: str


@dataclass(frozen=True)
class PlayerPage:
    """What the player's page shows: their `name`, their `ratings` (one line a variant)
    and their recent public `games`, newest first."""

    user_id: int
    name: str
    ratings: tuple[RatingLine, ...]
    games: tuple[GameLine, ...]


def player_name(player: Player | None, user_id: int, locale: str) -> str:
    """A player's last known display name, else "Player #<id>"."""
    if player is not None and player.display_name:
        return player.display_name
    return text(Msg.WEB_PLAYER_UNNAMED, locale, number=user_id)


def date_text(moment: datetime, locale: str) -> str:
    """The day of `moment` as `locale`'s language writes a date (CLDR's medium form)."""
    return format_date(moment.date(), format="medium", locale=locale)


def rating_line(rating: Rating, rules: Eligibility, locale: str) -> RatingLine:
    """The page's line of one rating row, ranked by the leaderboards' rule `rules`."""
    return RatingLine(
        variant=variant_name(rating.variant, locale),
        rating=display_rating(rating.rating, rating.deviation),
        deviation=round(rating.deviation), rated_games=rating.rated_games,
        wins=rating.wins, losses=rating.losses, draws=rating.draws,
        ranked=rules.admits(rating.rated_games, rating.deviation))


async def public_games(context: WebContext, user_id: int, *,
                       limit: int = RECENT_GAMES) -> list[GameRecord]:
    """The user's most recently ended games (aborted ones included) whose page is PUBLIC
    (their server's `web` setting; a game without a server is never), newest first, at
    most `limit`, found among their last `SCANNED_GAMES`. Raises what the storage
    raises."""
    found = await context.storage.games.recent_for_user(
        user_id, limit=SCANNED_GAMES, include_aborted=True)
    shown: list[GameRecord] = []
    for record in found:
        if await context.access.game_visibility(record) is WebVisibility.PUBLIC:
            shown.append(record)
            if len(shown) == limit:
                break
    return shown


async def _opponent(context: WebContext, seat: Seat, locale: str) -> Opponent:
    if seat.user_id is None:
        return Opponent(text(Msg.COMPUTER, locale, level=seat.computer_level), None)
    player = await context.storage.players.get(seat.user_id)
    return Opponent(player_name(player, seat.user_id, locale),
                    context.access.links.player(seat.user_id))


async def game_line(context: WebContext, record: GameRecord, user_id: int,
                    locale: str) -> GameLine | None:
    """The line of one of the user's games, None when its page cannot be linked (its
    server's setting is OFF) or the user did not play it."""
    side = record.side_of(user_id)
    url = await context.access.links.game(record)
    if side is None or url is None:
        return None
    ended = record.finished_at or record.updated_at
    return GameLine(
        game_id=record.id, url=url, variant=variant_name(record.variant, locale),
        score=score_of(record, side),
        opponent=await _opponent(context, record.seat(side.opponent), locale),
        ended=date_text(ended, locale), ended_iso=ended.date().isoformat())


async def player_page(context: WebContext, player: Player, locale: str) -> PlayerPage:
    """The page of `player` in `locale`'s language. Raises what the storage raises."""
    user_id = player.user_id
    rules = context.stats.eligibility
    ratings = await context.stats.ratings(user_id)
    lines = []
    for record in await public_games(context, user_id):
        line = await game_line(context, record, user_id, locale)
        if line is not None:
            lines.append(line)
    return PlayerPage(
        user_id=user_id, name=player_name(player, user_id, locale),
        ratings=tuple(rating_line(rating, rules, locale) for rating in ratings),
        games=tuple(lines))


async def player(request: web.Request) -> web.Response:
    """GET `/players/{id}/{token}`: the player's page, or the 404 page
    (`bot.web.access.visible_player`)."""
    found = await visible_player(request)
    locale = reader_language(request).code
    page = await player_page(request.app[CONTEXT], found, locale)
    return render_page(request, "player.html", view=page)


def add_routes(router: web.UrlDispatcher) -> None:
    """Register the player's page."""
    router.add_get(PLAYER, player)
