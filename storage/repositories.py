"""The repository interfaces the bot programs against (`typing.Protocol`).

The implementations are in `storage.players`, `storage.games`, `storage.challenges`,
`storage.ratings`, `storage.settings`, `storage.puzzles`, `storage.analyses` and
`storage.tournaments`, one for both backends: they run portable SQL on an SQLite
`Database` or a `PostgresDatabase` (`storage.sql`); `storage.Storage` bundles them.
Every method is a coroutine; every value returned is a frozen dataclass from
`storage.models` or `storage.tournament_models` (the settings: plain dicts of names and
text values). `TournamentRepository` is written in `storage.tournament_repository` and
`NotificationRepository` (`storage.notifications`, its values in
`storage.notification_models`) in `storage.notification_repository`; both are exported
here.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Protocol

from storage.models import (
    AnalysisUnderWay,
    Challenge,
    ChallengeStatus,
    ClockState,
    DailyPuzzleSetting,
    Eligibility,
    GameProgress,
    GameRecord,
    GameResult,
    LeaderboardEntry,
    MoveRecord,
    NewChallenge,
    NewGame,
    PlaceKind,
    Player,
    PuzzleAttempt,
    PuzzleRating,
    PuzzleResult,
    PuzzleSession,
    PuzzleStats,
    Rating,
    RatingUpdate,
    RatingValue,
    Seat,
    Side,
    StoredAnalysis,
)
from storage.notification_repository import NotificationRepository as NotificationRepository
from storage.tournament_repository import BoardPairing as BoardPairing
from storage.tournament_repository import NumberedEntrant as NumberedEntrant
from storage.tournament_repository import RoundBye as RoundBye
from storage.tournament_repository import TournamentRepository as TournamentRepository

RatingCalculator = Callable[[Rating | None, Rating | None], tuple[RatingUpdate, RatingUpdate]]
"""Given White's and Black's stored ratings in the game's variant (None: never rated in it),
returns both sides' rating before and after the game (White's, Black's). Called by
`GameRepository.finish` inside its transaction, so it must be a quick pure function (the
Glicko-2 update, `bot.ratings.glicko2_calculator`)."""


class PlayerRepository(Protocol):
    async def upsert(self, user_id: int, display_name: str | None) -> Player:
        """Record a user, or update their last known display name (None keeps the old one)."""
        ...

    async def get(self, user_id: int) -> Player | None:
        ...


class SettingsRepository(Protocol):
    """Players' preferences and servers' defaults as names and text values (the bot
    reads and checks them); a name without a stored value means its default. New names
    need no migration."""

    async def player(self, user_id: int) -> dict[str, str]:
        """The user's stored preferences by name (empty when none)."""
        ...

    async def set_player(self, user_id: int, values: Mapping[str, str | None]) -> dict[str, str]:
        """Store the given preferences of a user in one transaction (None removes a
        stored value, back to the default); returns all of them as now stored. A name over
        40 or a value over 100 characters is refused by the schema's checks (the bot checks
        its values before); nothing of the call is stored then."""
        ...

    async def guild(self, guild_id: int) -> dict[str, str]:
        """The server's stored defaults by name (empty when none)."""
        ...

    async def set_guild(self, guild_id: int, values: Mapping[str, str | None]) -> dict[str, str]:
        """As `set_player`, for a server's defaults."""
        ...

    async def bot_values(self) -> dict[str, str]:
        """The bot's own stored values by name (empty when none), kept apart from every
        server's and player's (`storage.settings.BOT_OWNER`)."""
        ...

    async def replace_bot_value(self, name: str, expected: str | None,
                                value: str | None) -> bool:
        """Compare and set, in one step: if the bot's value `name` is `expected` (None:
        absent), make it `value` (None: remove it) and return True; else change nothing
        and return False. Of several processes replacing the same `expected` at once,
        exactly one gets True. Lengths are refused as in `set_player`."""
        ...


class GameRepository(Protocol):
    async def create(self, new: NewGame) -> GameRecord:
        """Store a new active game (ply 0). Raises `ChannelBusyError` if the channel has an
        active game, `ValueError` for a rated game without two different human seats."""
        ...

    async def get(self, game_id: int) -> GameRecord | None:
        ...

    async def load(self, game_id: int, *, after: int = 0) -> tuple[GameRecord, list[MoveRecord]]:
        """A game and its moves in ply order, those after ply `after` only (0: every
        one; a reader that has the first plies reads the rest), in one read. Raises
        `GameNotFoundError`."""
        ...

    async def moves(self, game_id: int) -> list[MoveRecord]:
        """The moves of a game in ply order (empty for an unknown game)."""
        ...

    async def active(self) -> list[GameRecord]:
        """Every active game, oldest first."""
        ...

    async def progress(self, game_ids: Collection[int]) -> dict[int, GameProgress]:
        """Each stored game of `game_ids` and how far it has got, read in one query
        (a few for thousands of ids); ids of no stored game are left out."""
        ...

    async def last_activity(self, user_id: int | None = None) -> dict[int, datetime]:
        """The time of each active game's last move (its creation before the first), by
        game id: one read for all of them (a start-up that loads the games lazily), or,
        with `user_id`, for that player's active games only (`/games`)."""
        ...

    async def active_in_channel(self, channel_id: int) -> GameRecord | None:
        ...

    async def active_for_user(self, user_id: int) -> list[GameRecord]:
        """The user's active games (either side), oldest first."""
        ...

    async def due(self, now: datetime) -> list[GameRecord]:
        """Active games whose per-move deadline is at or before `now`, earliest first."""
        ...

    async def append_move(
        self,
        game_id: int,
        *,
        ply: int,
        text: str,
        by_computer: bool = False,
        clock: ClockState | None = None,
        clear_draw_offer: bool = False,
    ) -> MoveRecord:
        """Append the move that makes ply `ply` (must be the stored ply count + 1) and commit.

        With `clock`, the game's deadline and computer-move counts are set in the same
        transaction; with `clear_draw_offer`, a standing draw offer is withdrawn. Raises
        `StaleMoveError` (wrong ply: a double click or a race), `GameNotActiveError`,
        `GameNotFoundError`, `ValueError` (empty text).
        """
        ...

    async def append_final_move(
        self,
        game_id: int,
        *,
        ply: int,
        text: str,
        result: GameResult,
        termination: str,
        rate: RatingCalculator | None = None,
        by_computer: bool = False,
        clock: ClockState | None = None,
        clear_draw_offer: bool = False,
    ) -> tuple[MoveRecord, GameRecord]:
        """Append the move that ends the game and end it, in one transaction: the move as
        `append_move`, then the game's end as `finish` (the result, and for a rated game
        both rating updates from `rate`). Either all of it is committed or nothing: a
        crash, a refused write or an error from `rate` leaves the game as it was. Returns
        the move and the ended game. Raises as `append_move` and `finish`."""
        ...

    async def set_board_message(self, game_id: int, message_id: int | None) -> None:
        """Remember the Discord message showing the board; its step's board is no longer
        owed (`GameRecord.board_owed`). Raises `GameNotFoundError`."""
        ...

    async def settle_board(self, game_id: int) -> None:
        """The game's owed step was announced without a board message to record (a text
        instead of the board): clear `board_owed`. Raises `GameNotFoundError`."""
        ...

    async def quarantine(self, game_id: int) -> None:
        """Mark the game quarantined (`GameRecord.quarantined`: its stored moves no longer
        replay). Raises `GameNotFoundError`."""
        ...

    async def owed_boards(self, limit: int | None = None,
                          place: PlaceKind | None = None) -> list[GameRecord]:
        """Every game (active or ended) whose last step was stored but whose board was
        never recorded as shown (`board_owed`), oldest change first; the first `limit`
        of them only, when given; only those played in a place of kind `place`, when
        given."""
        ...

    async def set_draw_offer(self, game_id: int, side: Side | None) -> None:
        """Record who offers a draw (None: no offer). Raises `GameNotFoundError`,
        `GameNotActiveError`."""
        ...

    async def set_clock(self, game_id: int, clock: ClockState) -> None:
        """Set the deadline and computer-move counts. Raises as `set_draw_offer`."""
        ...

    async def finish(
        self,
        game_id: int,
        *,
        result: GameResult,
        termination: str,
        rate: RatingCalculator | None = None,
        unrated: bool = False,
    ) -> GameRecord:
        """End an active game with a result; for a rated game, apply both sides' rating
        updates (from `rate`) in the same transaction, count the win/loss/draw, and record
        both players as rated players of the game's guild. With `unrated`, a rated game's
        result is kept without touching any rating (the game stays marked rated, its
        rating changes empty: the bot's early-results rule). Raises `GameNotFoundError`,
        `GameNotActiveError` (already over: nothing changes), `ValueError` (a rated game
        without `rate` and not `unrated`, or an empty termination)."""
        ...

    async def abort(self, game_id: int, *, termination: str) -> GameRecord:
        """End an active game without result or rating change. Raises as `finish`."""
        ...

    async def last_finished_in_channel(self, channel_id: int) -> GameRecord | None:
        """The channel's most recently finished game (aborted ones not counted), None when
        it has none."""
        ...

    async def recent_for_user(
        self, user_id: int, *, limit: int = 10, variant: str | None = None,
        include_aborted: bool = False,
    ) -> list[GameRecord]:
        """The user's most recently ended games, newest first."""
        ...


class ChallengeRepository(Protocol):
    async def create(self, new: NewChallenge) -> Challenge:
        """Store a pending challenge. Raises `ValueError` (challenging oneself, expiry in
        the past, non-positive move time)."""
        ...

    async def get(self, challenge_id: int) -> Challenge | None:
        ...

    async def by_message(self, message_id: int) -> Challenge | None:
        """The challenge shown by this Discord message."""
        ...

    async def pending(self) -> list[Challenge]:
        """Every pending challenge, soonest expiry first (start-up: schedule expiries)."""
        ...

    async def pending_in_channel(self, channel_id: int) -> list[Challenge]:
        ...

    async def pending_for_user(self, user_id: int) -> list[Challenge]:
        """Pending challenges the user sent or received, oldest first."""
        ...

    async def set_message(self, challenge_id: int, message_id: int) -> None:
        """Remember the Discord message to edit. Raises `ChallengeNotFoundError`."""
        ...

    async def expire_due(self, now: datetime | None = None) -> list[Challenge]:
        """Mark every pending challenge whose expiry is at or before `now` (default: the
        repository's clock) as expired; returns them (their messages need editing)."""
        ...

    async def close(self, challenge_id: int, status: ChallengeStatus) -> Challenge:
        """Decline, cancel or expire a pending challenge. Raises `ChallengeNotFoundError`,
        `ChallengeNotPendingError` (already closed, or past its expiry), `ValueError`
        (status PENDING or ACCEPTED: accepting goes through `accept`)."""
        ...

    async def accept(
        self,
        challenge_id: int,
        *,
        accepted_by: int,
        white: Seat,
        black: Seat,
        start_fen: str,
        deadline: datetime | None = None,
        place: PlaceKind = PlaceKind.CHANNEL,
    ) -> tuple[Challenge, GameRecord]:
        """Accept a pending challenge and create its game, played in a place of kind
        `place`, in one transaction (so a double click creates one game). Raises
        `ChallengeNotFoundError`, `ChallengeNotPendingError`, `ChannelBusyError`,
        `ValueError` (the acceptor is not the challenged user, or is the challenger)."""
        ...

    async def delete(self, challenge_id: int) -> bool:
        """Delete a challenge; False if there was none."""
        ...


class RatingRepository(Protocol):
    async def import_ratings(
        self,
        ratings: Iterable[Rating],
        *,
        guild_players: Iterable[tuple[int, str, int]] = (),
        display_names: Mapping[int, str] | None = None,
    ) -> None:
        """Store ratings in bulk (replacing existing ones), with (guild id, variant, user id)
        memberships of guild boards, and recompute the rankings; one transaction."""
        ...

    async def get(self, user_id: int, variant: str) -> Rating | None:
        ...

    async def for_user(self, user_id: int) -> list[Rating]:
        """The user's ratings in every variant they played rated, by variant key."""
        ...

    async def leaderboard(
        self,
        variant: str,
        *,
        guild_id: int | None = None,
        limit: int = 10,
        offset: int = 0,
        eligibility: Eligibility | None = None,
    ) -> list[LeaderboardEntry]:
        """Players on the variant's board by rating high to low, ties by user id; rows
        `offset + 1` to `offset + limit`. With `guild_id`, only those who played a rated
        game of this variant in that guild. Who is on the board: the database's rule
        (`Storage.open(leaderboard=...)`), or `eligibility` if given (a rule other than the
        database's is answered exactly but by scanning, in time growing with the board).
        Raises `ValueError` for a negative limit or offset."""
        ...

    async def rank(
        self, user_id: int, variant: str, *, guild_id: int | None = None,
        eligibility: Eligibility | None = None,
    ) -> int | None:
        """The user's 1-based place on that board; None if not on it."""
        ...

    async def count(
        self, variant: str, *, guild_id: int | None = None,
        eligibility: Eligibility | None = None,
    ) -> int:
        """How many players are on that board."""
        ...


# --- puzzles ----------------------------------------------------------------------

PuzzleRatingCalculator = Callable[
    [RatingValue | None, RatingValue, bool], tuple[RatingValue, RatingValue, RatingValue]
]
"""Given the player's stored puzzle rating (None: never rated in the variant), the
puzzle's rating and whether the player solved it, returns the player's rating going in,
the player's after and the puzzle's after (the Glicko-2 update,
`bot.services.puzzles.rate_attempt`). Called inside the recording transaction."""


@dataclass(frozen=True)
class PuzzleRecording:
    """A rated attempt to record with a session's step (`PuzzleRepository.record`'s
    arguments)."""

    attempt: PuzzleAttempt
    puzzle_start: RatingValue
    calculate: PuzzleRatingCalculator


class PuzzleRepository(Protocol):
    async def rating(self, user_id: int, variant: str) -> PuzzleRating | None:
        """The player's puzzle rating in `variant`, None before their first rated attempt."""
        ...

    async def stats(self, puzzle_id: str) -> PuzzleStats | None:
        """The puzzle's stored rating, None before its first attempt."""
        ...

    async def attempted(self, user_id: int, variant: str) -> set[str]:
        """The ids of the puzzles of `variant` the player has attempted."""
        ...

    async def puzzle_ratings(self, variant: str) -> dict[str, RatingValue]:
        """The stored rating of every puzzle of `variant` attempted at least once, by id."""
        ...

    async def record(
        self, attempt: PuzzleAttempt, puzzle_start: RatingValue,
        calculate: PuzzleRatingCalculator,
    ) -> PuzzleResult:
        """Store a rated attempt in one transaction: the attempt, the player's new rating
        and record (streak +1 when solved, else 0), the puzzle's new rating
        (`puzzle_start` when it has none yet)."""
        ...

    async def session(self, user_id: int) -> PuzzleSession | None:
        """The puzzle the user has under way, None when none is."""
        ...

    async def start_session(
        self, user_id: int, puzzle_id: str, variant: str, solution: tuple[str, ...],
        *, rated: bool,
    ) -> PuzzleSession:
        """Store the user's new puzzle (no ply played, no wrong answer, no hint), replacing
        the one under way if any, and commit. Returns it with its first revision."""
        ...

    async def step_session(
        self, session: PuzzleSession, *, finished: bool = False,
        recording: PuzzleRecording | None = None,
    ) -> tuple[PuzzleSession | None, PuzzleResult | None]:
        """Store the next state of a session in one transaction: `session` carries the new
        plies, failed and hinted and the revision it was computed from; `finished`
        deletes the session instead; `recording` records that rated attempt (as
        `record`) in the same transaction, so a result is stored exactly when the step
        is. Returns the session as stored (its revision +1; None when finished) and the
        recorded result (None without `recording`). Raises `PuzzleSessionChangedError`,
        writing nothing, when the stored session is not at `session.revision` (or gone)."""
        ...

    async def set_daily(
        self, guild_id: int, channel_id: int, variant: str | None, set_by: int
    ) -> DailyPuzzleSetting:
        """Post the daily puzzle of the server in `channel_id` (replacing an earlier
        choice; the day of the last post is kept, so a day is never posted twice)."""
        ...

    async def clear_daily(self, guild_id: int) -> bool:
        """Stop the server's daily puzzle; False when it had none. The day of its last
        post is kept (in the server's settings), so setting it again that day does not
        post that day twice."""
        ...

    async def daily(self, guild_id: int) -> DailyPuzzleSetting | None:
        ...

    async def daily_all(self) -> list[DailyPuzzleSetting]:
        """Every server's daily puzzle setting."""
        ...

    async def claim_daily(self, guild_id: int, day: str) -> bool:
        """Mark the server's puzzle of `day` (ISO date) posted; True only for the one
        caller that changed it (another process, or an earlier run, gets False)."""
class AnalysisRepository(Protocol):
    """Analyses of finished games, one per game (the bot's text; see
    `storage.models.StoredAnalysis`)."""

    async def get(self, game_id: int) -> StoredAnalysis | None:
        """The game's stored analysis, None when it has none."""
        ...

    async def save(self, game_id: int, *, plies: int, nodes: int, body: str) -> StoredAnalysis:
        """Store the game's analysis (replacing an older one) and commit. Raises
        `GameNotFoundError`, `ValueError` (negative plies, a node budget below 1, an
        empty body)."""
        ...

    async def begin(self, game_id: int, *, requester_id: int, guild_id: int | None,
                    channel_id: int, locale: str) -> AnalysisUnderWay:
        """Record an analysis of game `game_id` as under way (its progress message not
        sent yet) and commit; returns the record with its id. Raises `GameNotFoundError`,
        `ValueError` (an empty locale)."""
        ...

    async def shown(self, under_way_id: int, message_id: int) -> None:
        """Record the message that shows the progress of analysis `under_way_id` (nothing
        when it is no longer under way)."""
        ...

    async def end(self, under_way_id: int) -> None:
        """Forget analysis `under_way_id`: its progress message shows a final state
        (nothing when it was already forgotten)."""
        ...

    async def under_way(self) -> list[AnalysisUnderWay]:
        """Every analysis recorded as under way, oldest first (after a restart: those the
        previous process left running)."""
        ...
