"""`StatsService`: ratings, leaderboards, game history, PDN export and the moves of a
game for its replay, read-only.

Plain values in and out: user and guild ids as ints, variant keys, storage records.
"""

from __future__ import annotations

import contextlib
from dataclasses import dataclass
from datetime import datetime, timedelta

from bot.messages import Listing, Msg
from bot.ratings import Glicko2Rating
from bot.ratings.estimate import games_to_deviation
from bot.services.errors import PlayerError
from bot.services.games import GameService
from bot.services.models import ENDINGS_LEFT_UNRATED_WHEN_EARLY, EndReason, too_early_to_rate
from bot.services.under_way import GAMES_SHOWN, GamesUnderWay, games_under_way
from bot.services.visibility import Requester, can_see, visible
from engine import Color, Move, Position, Variant
from engine.analysis import GameAnalysis, pdn_comments
from engine.pdn import export_pdn
from storage import Eligibility, GameRecord, LeaderboardEntry, Rating, Storage

PROVISIONAL = Eligibility(min_games=1, max_deviation=1e9)
"""Everyone with at least one rated game: the provisional part of a leaderboard is this
rule's board less the established players."""


@dataclass(frozen=True)
class Needs:
    """What a provisional player still needs to be ranked: `games` more rated games to
    reach the minimum, and about `deviation_games` more to bring the deviation under the
    limit (`bot.ratings.estimate.games_to_deviation`); the larger is what they need."""

    games: int
    deviation_games: int


def needs_of(rating: Rating, rules: Eligibility) -> Needs:
    """What `rating`'s player still needs under `rules` (zeros when ranked)."""
    value = Glicko2Rating(rating.rating, rating.deviation, rating.volatility)
    return Needs(max(0, rules.min_games - rating.rated_games),
                 games_to_deviation(value, rules.max_deviation))


@dataclass(frozen=True)
class GameHistory:
    """A user's most recently ended games as one requester may see them (`games`, newest
    first). `hidden`: True when none is visible to that requester although the user has ended
    games (all of them hidden by `bot.services.visibility.can_see`); False whenever a game
    is listed or the user has none. It tells no more than "none here": no count, no
    server."""

    games: tuple[GameRecord, ...]
    hidden: bool


@dataclass(frozen=True)
class ProvisionalEntry:
    """A provisional line under the ranked ones: the rating row and what it needs."""

    rating: Rating
    needs: Needs


@dataclass(frozen=True)
class Leaderboard:
    """The top of a leaderboard, and the caller's place on it (None: not listed). Under
    the ranked players (`entries`), while there are fewer than the page holds, the
    `provisional` players (at least one rated game, not ranked yet), best rating first;
    `own_needs`: what the caller still needs when they are provisional."""

    variant: str
    guild_id: int | None
    entries: list[LeaderboardEntry]
    own_rank: int | None
    own_rating: Rating | None
    total: int
    eligibility: Eligibility
    provisional: tuple[ProvisionalEntry, ...] = ()
    own_needs: Needs | None = None


@dataclass(frozen=True)
class PdnFile:
    """A game's PDN record: the game id, its variant key, a file name and the text; when
    the game was chosen for the caller (no game number given), `chosen` says how
    (EXPORT_CHOSE_ACTIVE or EXPORT_CHOSE_RECENT) and `in_progress` lists the caller's
    games in progress that were not chosen (ids, oldest first)."""

    game_id: int
    variant: str
    filename: str
    text: str
    chosen: Msg | None = None
    in_progress: tuple[int, ...] = ()
    analysis_missing: bool = False
    """The analysis was asked for and the game has none stored (or none readable)."""
    guild_id: int | None = None
    """The game's server (None: a direct message), for the link to its page."""


@dataclass(frozen=True)
class GameReplay:
    """What a game's replay shows: the game id, its variant, the position it started
    from, its moves in order and every position (the start, then one after each move);
    the user ids of its White and Black players (None: a computer seat); `chosen` and
    `in_progress` as in `PdnFile`."""

    game_id: int
    variant: Variant
    start: Position
    moves: tuple[Move, ...]
    positions: tuple[Position, ...]
    white: int | None
    black: int | None
    chosen: Msg | None = None
    in_progress: tuple[int, ...] = ()
    guild_id: int | None = None
    """The game's server (None: a direct message), for the link to its page."""

    def color_of(self, user_id: int) -> Color | None:
        """The colour user `user_id` played in the game (None: not a player of it)."""
        if user_id == self.white:
            return Color.WHITE
        if user_id == self.black:
            return Color.BLACK
        return None


def _date(moment: datetime) -> str:
    return moment.strftime("%Y.%m.%d")


class StatsService:
    """Read-only views of players' results."""

    def __init__(self, storage: Storage, games: GameService, *, eligibility: Eligibility) -> None:
        self._storage = storage
        self._games = games
        self.eligibility = eligibility

    async def remember(self, user_id: int, name: str | None) -> None:
        """Record a user's current display name (shown on leaderboards and in PDN)."""
        await self._storage.players.upsert(user_id, name)

    async def known(self, user_id: int) -> bool:
        """Whether the bot recorded the user as a player (their web page exists,
        `bot.web.access.visible_player`). Raises what the storage raises."""
        return await self._storage.players.get(user_id) is not None

    async def ratings(self, user_id: int, variant: str | None = None) -> list[Rating]:
        """The user's ratings (one variant, or every variant they played rated)."""
        if variant is not None:
            rating = await self._storage.ratings.get(user_id, variant)
            return [] if rating is None else [rating]
        return await self._storage.ratings.for_user(user_id)

    async def leaderboard(
        self, variant: str, user_id: int | None, *, guild_id: int | None = None,
        limit: int = 10, name: str | None = None,
    ) -> Leaderboard:
        """Top `limit` of the variant's leaderboard (one guild's, or global with None) and
        the caller's rank (`user_id` None: no caller, as on a web page: no rank); when
        fewer than `limit` players are ranked, the rest of the page holds provisional
        players (at least one rated game; `Leaderboard.provisional`), each with what they
        still need, as the caller gets when provisional. With `name`, the caller's display
        name is recorded first (as `remember`)."""
        if name is not None and user_id is not None:
            await self.remember(user_id, name)
        ratings = self._storage.ratings
        rules = self.eligibility
        entries = await ratings.leaderboard(
            variant, eligibility=rules, guild_id=guild_id, limit=limit
        )
        total = await ratings.count(variant, eligibility=rules, guild_id=guild_id)
        rank = own = None
        if user_id is not None:
            rank = await ratings.rank(user_id, variant, eligibility=rules, guild_id=guild_id)
            own = await ratings.get(user_id, variant)
        provisional: list[ProvisionalEntry] = []
        room = limit - len(entries)
        if room > 0:
            # Every player with a rated game, best first; the ranked ones are skipped.
            for entry in await ratings.leaderboard(
                variant, eligibility=PROVISIONAL, guild_id=guild_id, limit=total + room
            ):
                row = entry.rating
                if not rules.admits(row.rated_games, row.deviation):
                    provisional.append(ProvisionalEntry(row, needs_of(row, rules)))
                if len(provisional) == room:
                    break
        own_needs = None
        if rank is None and own is not None and own.rated_games > 0:
            own_needs = needs_of(own, rules)
        return Leaderboard(variant, guild_id, entries, rank, own, total, rules,
                           tuple(provisional), own_needs)

    async def history(self, user_id: int, requester: Requester, *,
                      limit: int = 10) -> list[GameRecord]:
        """The user's most recently ended games (aborted ones included), newest first, that
        `requester` may see (`bot.services.visibility.can_see`): at most `limit`."""
        if limit <= 0:
            return []
        fetch = limit
        while True:
            found = await self._storage.games.recent_for_user(
                user_id, limit=fetch, include_aborted=True
            )
            shown = visible(requester, found)
            if len(shown) >= limit or len(found) < fetch:
                return shown[:limit]
            fetch *= 4

    @property
    def inactivity_limit(self) -> timedelta:
        """How long a game without a move time waits for a move before the player to
        move loses on time (`GameRules.inactivity_limit`)."""
        return self._games.table.rules.inactivity_limit

    async def games_under_way(self, user_id: int, *,
                              limit: int = GAMES_SHOWN) -> GamesUnderWay:
        """User `user_id`'s active games everywhere (any server, channel or direct
        message, this shard's or another's: read from the database), as `/games` lists
        them to that user alone (`bot.services.under_way.games_under_way`: their turn
        first, then the nearest deadline; at most `limit`, the rest counted). A game with
        no clock deadline shows the inactivity limit's (its last move plus
        `GameRules.inactivity_limit`), which ends it. Raises what the storage raises."""
        records = await self._storage.games.active_for_user(user_id)
        untimed = any(record.clock.deadline is None for record in records)
        activity = await self._storage.games.last_activity(user_id) if untimed else {}
        return games_under_way(records, user_id, last_activity=activity,
                               inactivity_limit=self.inactivity_limit,
                               limit=limit)

    async def game_history(self, user_id: int, requester: Requester, *,
                           limit: int = 10) -> GameHistory:
        """`history` (at most `limit` games, newest first) and, when it is empty, whether
        the user has ended games that `requester` may not see (`GameHistory.hidden`), so that
        "has not finished a game yet" is said only when it is true."""
        games = await self.history(user_id, requester, limit=limit)
        hidden = False
        if not games and limit > 0:
            hidden = bool(await self._storage.games.recent_for_user(
                user_id, limit=1, include_aborted=True))
        return GameHistory(tuple(games), hidden)

    async def export(
        self,
        requester: Requester,
        *,
        game_id: int | None = None,
        channel_id: int | None = None,
        analysis: bool = False,
    ) -> PdnFile:
        """The PDN of game `game_id` for `requester`; without it, the channel's active game,
        else (in direct messages: the requester has no guild) the requester's game in progress if
        they have exactly one, else the requester's most recent ended game. A game the requester
        may not see (`bot.services.visibility.can_see`) is refused exactly as a missing
        one, so its existence is not revealed. Raises `PlayerError`: UNKNOWN_GAME,
        NO_GAME_TO_EXPORT, NO_GAME_TO_EXPORT_SEVERAL (direct, several games in progress
        and none ended: `count`, `games` as "#1, #2"). `analysis`: include the game's
        stored analysis, when it has one, as PDN comments (`engine.analysis.pdn_comments`)."""
        game_id, chosen, others = await self._choose(requester, game_id, channel_id)
        record, game = await self._games.game_of(game_id)
        names = []
        for seat in (record.white, record.black):
            if seat.user_id is None:
                names.append(f"Computer level {seat.computer_level}")
                continue
            player = await self._storage.players.get(seat.user_id)
            names.append(player.display_name if player and player.display_name
                         else str(seat.user_id))
        tags = {
            "Event": await self._event(record, game.variant),
            "Site": "Discord",
            "Date": _date(record.created_at),
            "White": names[0],
            "Black": names[1],
            "Round": "-",
        }
        if record.result is not None:
            tags["Result"] = record.result.value
        if record.termination:
            tags["Termination"] = record.termination
        tags["GameId"] = str(record.id)
        comments: dict[int, str] = {}
        if analysis:
            saved = await self._storage.analyses.get(record.id)
            if saved is not None:
                with contextlib.suppress(ValueError, KeyError, TypeError):
                    comments = pdn_comments(GameAnalysis.from_json(saved.body),
                                            game.positions(),
                                            numeric=game.variant.numeric_notation)
        # Italian records are written in the federation's numbers (GameType 22, as real
        # Italian PDN files are; docs/RULES.md, "Coordinates and notation").
        text = export_pdn(game, tags, numeric=game.variant.numeric_notation,
                          comments=comments)
        return PdnFile(record.id, record.variant, f"dama-{record.variant}-{record.id}.pdn", text,
                       chosen, others, analysis_missing=analysis and not comments,
                       guild_id=record.guild_id)

    async def replay(
        self, requester: Requester, *, game_id: int | None = None, channel_id: int | None = None,
    ) -> GameReplay:
        """The moves of game `game_id` for `requester`'s replay, the game chosen and refused
        as by `export` (a game the requester may not see is told exactly as a missing one).
        Raises `PlayerError` as `export` does."""
        game_id, chosen, others = await self._choose(requester, game_id, channel_id)
        record, game = await self._games.game_of(game_id)
        return GameReplay(game_id, game.variant, game.start, game.moves,
                          tuple(game.positions()), record.white.user_id,
                          record.black.user_id, chosen, others, guild_id=record.guild_id)

    async def _event(self, record: GameRecord, variant: Variant) -> str:
        """The PDN `Event` of `record`: a rated game, a casual one, or a rated game whose
        result was left unrated because it ended before each side made two moves of its
        own (`counts_for_rating`, docs/RULES.md "Early results"), as its board says."""
        if not record.rated:
            return "dama-bot casual game"
        reason = next((r for r in EndReason if r.value == record.termination), None)
        if reason in ENDINGS_LEFT_UNRATED_WHEN_EARLY and await too_early_to_rate(
                self._storage.games, record, variant):
            return "dama-bot game, not rated (it ended early)"
        return "dama-bot rated game"

    async def _choose(self, requester: Requester, game_id: int | None,
                      channel_id: int | None) -> tuple[int, Msg | None, tuple[int, ...]]:
        """The game `export` and `replay` show (see `export`), how it was chosen (None:
        named by the caller) and the requester's other games in progress. Raises
        `PlayerError` as `export` does."""
        user_id = requester.user_id
        direct = requester.guild_id is None
        chosen: Msg | None = None
        others: tuple[int, ...] = ()
        if game_id is None and channel_id is not None and self._games.has_game(channel_id):
            await self._games.awake(channel_id)  # dormant since start-up: load it
            game_id = self._games.current(channel_id).game_id
        if game_id is None and direct:
            active = tuple(g.id for g in await self._storage.games.active_for_user(user_id))
            if len(active) == 1:
                game_id, chosen = active[0], Msg.EXPORT_CHOSE_ACTIVE
            else:
                others = active
        if game_id is None:
            recent = await self.history(user_id, requester, limit=1)
            if not recent:
                if others:
                    raise PlayerError(Msg.NO_GAME_TO_EXPORT_SEVERAL, count=len(others),
                                      games=Listing(tuple(f"#{i}" for i in others)))
                raise PlayerError(Msg.NO_GAME_TO_EXPORT)
            game_id, chosen = recent[0].id, Msg.EXPORT_CHOSE_RECENT
        stored = await self._storage.games.get(game_id)
        if stored is None or not can_see(requester, stored):
            raise PlayerError(Msg.UNKNOWN_GAME, game_id=game_id)
        return game_id, chosen, others
