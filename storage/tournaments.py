"""Tournaments, their entrants, rounds, pairings, byes and posts (`TournamentRepository`),
on either backend (`storage.sql`; migration 0011, docs/STORAGE.md "Tournaments").

Every write that decides from what is stored locks the tournament's row first
(`storage.sql.lock_row`), so two processes writing one tournament take turns: a
conditional write checks the revision the caller read under that lock, and of two
pairings of one round the second finds the revision moved on (or the round stored) and
raises `StaleTournamentError`. A pairing's own writes lock the pairing's row instead.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import datetime
from typing import NoReturn

from storage.clock import Clock, opt_to_ms, to_ms, utc_now
from storage.errors import (
    EntrantNotFoundError,
    EntryRefusal,
    EntryRefusedError,
    PairingNotFoundError,
    PairingTakenError,
    StaleTournamentError,
    TournamentChannelBusyError,
    TournamentNotFoundError,
    TournamentPostNotFoundError,
)
from storage.games import insert_game
from storage.models import GameRecord, GameStatus, NewGame
from storage.postgres import violated_constraint
from storage.sql import SqlConnection, SqlDatabase, SqlValue, lock_row
from storage.tournament_models import (
    FORFEITS,
    ByeRecord,
    EntrantRecord,
    EntrantStatus,
    NewTournament,
    PairingRecord,
    TournamentPost,
    TournamentRecord,
    TournamentRoundRecord,
    TournamentStatus,
)
from storage.tournament_repository import BoardPairing, NumberedEntrant, RoundBye
from storage.tournament_rows import (
    ENTRANTS,
    PAIRINGS,
    bye_from_row,
    check_round,
    entrant_from_row,
    pairing_from_row,
    post_from_row,
    round_from_row,
    tournament_from_row,
    validate_new_tournament,
)

FINAL_POST = "final"
"""The ledger's kind of a tournament's final post (`tournament_posts.kind`; the service's
`PostKind.FINAL`)."""

_SIGNUP = TournamentStatus.SIGNUP
_RUNNING = TournamentStatus.RUNNING
_PAUSED = TournamentStatus.PAUSED
_OPEN = (_SIGNUP.value, _RUNNING.value, _PAUSED.value)
"""The statuses of a tournament that holds its channel (`tournaments_open_channel`)."""
_OVER = frozenset({TournamentStatus.FINISHED, TournamentStatus.CANCELLED})
_ACTIVE = EntrantStatus.ACTIVE.value

_TRANSITIONS = {
    TournamentStatus.PAUSED: frozenset({_RUNNING}),
    TournamentStatus.RUNNING: frozenset({_PAUSED}),
    TournamentStatus.FINISHED: frozenset({_RUNNING, _PAUSED}),
    TournamentStatus.CANCELLED: frozenset({_SIGNUP, _RUNNING, _PAUSED}),
}
"""`set_status`: the statuses each target status may be reached from."""

async def _lock_tournament(conn: SqlConnection, tournament_id: int) -> TournamentRecord:
    """The tournament's row, locked until the transaction ends."""
    row = await lock_row(conn, "tournaments", "id", tournament_id)
    if row is None:
        raise TournamentNotFoundError(tournament_id)
    return tournament_from_row(row)


async def _lock_expected(conn: SqlConnection, tournament_id: int, expected_revision: int,
                         statuses: Iterable[TournamentStatus]) -> TournamentRecord:
    """The tournament's row, locked, if it is at `expected_revision` in one of `statuses`;
    else `StaleTournamentError`."""
    found = await _lock_tournament(conn, tournament_id)
    if found.revision != expected_revision:
        raise StaleTournamentError(
            tournament_id, f"revision {found.revision}, not {expected_revision}",
            revision=found.revision, status=found.status.value)
    if found.status not in set(statuses):
        raise StaleTournamentError(
            tournament_id, f"it is {found.status.value}", revision=found.revision,
            status=found.status.value)
    return found


async def _bump(conn: SqlConnection, tournament_id: int, now: int, sets: str = "",
                *params: SqlValue) -> TournamentRecord:
    """Update the tournament row (`sets`: more assignments, their parameters from $3) with
    its revision + 1; returns it."""
    extra = f", {sets}" if sets else ""
    row = await conn.fetchrow(
        f"UPDATE tournaments SET revision = revision + 1, updated_at = $1{extra} "
        "WHERE id = $2 RETURNING *", now, tournament_id, *params)
    if row is None:
        raise TournamentNotFoundError(tournament_id)
    return tournament_from_row(row)


async def _entrant(conn: SqlConnection, tournament_id: int, user_id: int) -> EntrantRecord | None:
    row = await conn.fetchrow(ENTRANTS + "WHERE e.tournament_id = $1 AND e.user_id = $2",
                              tournament_id, user_id)
    return None if row is None else entrant_from_row(row)


async def _lock_pairing(conn: SqlConnection, tournament_id: int, round: int,
                        board: int) -> PairingRecord:
    """The pairing, its row locked until the transaction ends, with its game's state."""
    locked = await conn.fetchval(
        "UPDATE tournament_pairings SET thread_id = thread_id WHERE tournament_id = $1 "
        "AND round = $2 AND board = $3 RETURNING board", tournament_id, round, board)
    if locked is None:
        raise PairingNotFoundError(tournament_id, round, board)
    row = await conn.fetchrow(
        PAIRINGS + "WHERE p.tournament_id = $1 AND p.round = $2 AND p.board = $3",
        tournament_id, round, board)
    assert row is not None
    return pairing_from_row(row)


def _taken(pairing: PairingRecord) -> NoReturn:
    raise PairingTakenError(pairing.tournament_id, pairing.round, pairing.board,
                            game_id=pairing.game_id, forfeit=pairing.forfeit)


class SqlTournamentRepository:
    """`TournamentRepository` on either backend. Times come from `clock` unless given."""

    def __init__(self, db: SqlDatabase, clock: Clock = utc_now) -> None:
        self._db = db
        self._clock = clock

    def _now(self) -> int:
        return to_ms(self._clock())

    # --- the tournament ---------------------------------------------------------------

    async def create(self, new: NewTournament) -> TournamentRecord:
        validate_new_tournament(new)
        now = self._now()
        async with self._db.transaction() as conn:
            busy = await conn.fetchval(
                "SELECT id FROM tournaments WHERE channel_id = $1 AND status IN ($2, $3, $4)",
                new.channel_id, *_OPEN)
            if busy is not None:
                raise TournamentChannelBusyError(new.channel_id)
            try:
                row = await conn.fetchrow(
                    "INSERT INTO tournaments (guild_id, channel_id, organiser_id, name, "
                    "format, variant, rounds, duration_seconds, move_seconds, rated, "
                    "starts_at, player_limit, role_id, status, seed, revision, created_at, "
                    "updated_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, "
                    "$13, $14, $15, 0, $16, $16) RETURNING *",
                    new.guild_id, new.channel_id, new.organiser_id, new.name, new.format,
                    new.variant, new.rounds, new.duration_seconds, new.move_seconds,
                    new.rated, opt_to_ms(new.starts_at), new.player_limit, new.role_id,
                    _SIGNUP.value, new.seed, now)
            except Exception as error:
                # PostgreSQL: another process opened one in the channel since the check.
                if violated_constraint(error) == "tournaments_open_channel":
                    raise TournamentChannelBusyError(new.channel_id) from error
                raise
        assert row is not None
        return tournament_from_row(row)

    async def _tournaments(self, sql: str, *params: SqlValue) -> list[TournamentRecord]:
        async with self._db.read() as conn:
            rows = await conn.fetch(sql, *params)
        return [tournament_from_row(row) for row in rows]

    async def get(self, tournament_id: int) -> TournamentRecord | None:
        found = await self._tournaments("SELECT * FROM tournaments WHERE id = $1",
                                        tournament_id)
        return found[0] if found else None

    async def in_guild(self, guild_id: int, statuses: Iterable[TournamentStatus],
                       limit: int = 25) -> list[TournamentRecord]:
        values = sorted({status.value for status in statuses})
        if not values or limit <= 0:
            return []
        marks = ", ".join(f"${index}" for index in range(3, len(values) + 3))
        return await self._tournaments(
            f"SELECT * FROM tournaments WHERE guild_id = $1 AND status IN ({marks}) "
            "ORDER BY created_at DESC, id DESC LIMIT $2", guild_id, limit, *values)

    async def in_channel(self, channel_id: int) -> TournamentRecord | None:
        found = await self._tournaments(
            "SELECT * FROM tournaments WHERE channel_id = $1 AND status IN ($2, $3, $4)",
            channel_id, *_OPEN)
        return found[0] if found else None

    async def by_event(self, event_id: int) -> TournamentRecord | None:
        found = await self._tournaments(
            "SELECT * FROM tournaments WHERE event_id = $1 ORDER BY id DESC LIMIT 1", event_id)
        return found[0] if found else None

    async def due_to_start(self, now: datetime) -> list[TournamentRecord]:
        return await self._tournaments(
            "SELECT * FROM tournaments WHERE status = $1 AND starts_at <= $2 "
            "ORDER BY starts_at, id", TournamentStatus.SIGNUP.value, to_ms(now))

    async def running(self) -> list[TournamentRecord]:
        return await self._tournaments(
            "SELECT * FROM tournaments WHERE status IN ($1, $2) ORDER BY id",
            _RUNNING.value, _PAUSED.value)

    async def posts_owed(self) -> list[TournamentRecord]:
        return await self._tournaments(
            "SELECT * FROM tournaments t WHERE (status = $1 AND NOT EXISTS (SELECT 1 FROM "
            "tournament_posts p WHERE p.tournament_id = t.id AND p.kind = $2 AND "
            "p.message_id IS NOT NULL)) OR EXISTS (SELECT 1 FROM tournament_posts q "
            "WHERE q.tournament_id = t.id AND q.message_id IS NULL) ORDER BY id",
            TournamentStatus.FINISHED.value, FINAL_POST)

    async def history(self, guild_id: int, limit: int = 25) -> list[TournamentRecord]:
        if limit <= 0:
            return []
        return await self._tournaments(
            "SELECT * FROM tournaments WHERE guild_id = $1 AND status = $2 "
            "ORDER BY finished_at DESC, id DESC LIMIT $3",
            guild_id, TournamentStatus.FINISHED.value, limit)

    async def _set(self, tournament_id: int, column: str, value: int | None) -> TournamentRecord:
        now = self._now()
        async with self._db.transaction() as conn:
            return await _bump(conn, tournament_id, now, f"{column} = $3", value)

    async def set_post(self, tournament_id: int, message_id: int) -> TournamentRecord:
        return await self._set(tournament_id, "post_message_id", message_id)

    async def set_thread(self, tournament_id: int, thread_id: int) -> TournamentRecord:
        return await self._set(tournament_id, "thread_id", thread_id)

    async def set_event(self, tournament_id: int, event_id: int | None) -> TournamentRecord:
        return await self._set(tournament_id, "event_id", event_id)

    async def set_status(self, tournament_id: int, expected_revision: int,
                         status: TournamentStatus, now: datetime,
                         ends_at: datetime | None = None,
                         claim: tuple[str, str] | None = None) -> TournamentRecord:
        if status not in _TRANSITIONS:
            raise ValueError("no tournament goes back to sign-up")
        if claim is not None and not claim[0]:
            raise ValueError("a post needs a kind")
        at = to_ms(now)
        async with self._db.transaction() as conn:
            found = await _lock_expected(conn, tournament_id, expected_revision,
                                         _TRANSITIONS[status])
            paused_at = at if status is _PAUSED else None
            finished_at = at if status in _OVER else None
            ends = opt_to_ms(ends_at) if ends_at is not None else opt_to_ms(found.ends_at)
            changed = await _bump(
                conn, tournament_id, at,
                "status = $3, paused_at = $4, finished_at = $5, ends_at = $6",
                status.value, paused_at, finished_at, ends)
            if claim is not None:
                await _claim(conn, tournament_id, *claim, at)
            return changed

    # --- entrants -----------------------------------------------------------------

    async def join(self, tournament_id: int, user_id: int, display_name: str | None,
                   now: datetime, *, rating: int | None = None) -> EntrantRecord:
        at = to_ms(now)
        async with self._db.transaction() as conn:
            found = await _lock_tournament(conn, tournament_id)
            await conn.execute(
                "INSERT INTO players (user_id, display_name, created_at, updated_at) "
                "VALUES ($1, $2, $3, $3) ON CONFLICT (user_id) DO UPDATE SET "
                "display_name = COALESCE(excluded.display_name, players.display_name), "
                "updated_at = excluded.updated_at", user_id, display_name, at)
            entrant = await _entrant(conn, tournament_id, user_id)
            if entrant is not None and entrant.status is EntrantStatus.ACTIVE:
                return entrant
            self._refuse_entry(found, user_id, entrant)
            active = await conn.fetchval(
                "SELECT count(*) FROM tournament_entrants WHERE tournament_id = $1 "
                "AND status = $2", tournament_id, _ACTIVE)
            if found.player_limit is not None and active >= found.player_limit:
                raise EntryRefusedError(tournament_id, user_id, EntryRefusal.FULL)
            await self._enter(conn, found, user_id, entrant, at, rating)
            await _bump(conn, tournament_id, at)
            joined = await _entrant(conn, tournament_id, user_id)
        assert joined is not None
        return joined

    @staticmethod
    def _refuse_entry(found: TournamentRecord, user_id: int,
                      entrant: EntrantRecord | None) -> None:
        """Raise `EntryRefusedError` if `user_id` may not (re-)enter `found`."""
        under_way_arena = found.format == "arena" and found.status in (_RUNNING, _PAUSED)
        if found.status is not _SIGNUP and not under_way_arena:
            raise EntryRefusedError(found.id, user_id, EntryRefusal.CLOSED)
        if entrant is not None and entrant.status is EntrantStatus.REMOVED:
            raise EntryRefusedError(found.id, user_id, EntryRefusal.REMOVED)

    @staticmethod
    async def _enter(conn: SqlConnection, found: TournamentRecord, user_id: int,
                     entrant: EntrantRecord | None, at: int, rating: int | None) -> None:
        """Insert or re-activate the entrant; under way, with a rating and a number."""
        number: int | None = None
        if found.status is not _SIGNUP:
            number = entrant.number if entrant is not None else None
            if number is None:
                number = int(await conn.fetchval(
                    "SELECT coalesce(max(number), 0) + 1 FROM tournament_entrants "
                    "WHERE tournament_id = $1", found.id))
            if entrant is not None and entrant.rating is not None:
                rating = entrant.rating
        else:
            rating = None
        if entrant is None:
            await conn.execute(
                "INSERT INTO tournament_entrants (tournament_id, user_id, joined_at, status, "
                "rating, number) VALUES ($1, $2, $3, $4, $5, $6)",
                found.id, user_id, at, _ACTIVE, rating, number)
        else:
            await conn.execute(
                "UPDATE tournament_entrants SET status = $1, joined_at = $2, left_at = NULL, "
                "rating = $3, number = $4 WHERE tournament_id = $5 AND user_id = $6",
                _ACTIVE, at, rating, number, found.id, user_id)

    async def _withdraw(self, tournament_id: int, user_id: int, status: EntrantStatus,
                        claim: tuple[str, str] | None = None) -> EntrantRecord:
        """`leave` (`status` LEFT) or `remove` (REMOVED), with the notice's `claim`."""
        at = self._now()
        async with self._db.transaction() as conn:
            found = await _lock_tournament(conn, tournament_id)
            entrant = await _entrant(conn, tournament_id, user_id)
            if entrant is None:
                raise EntrantNotFoundError(tournament_id, user_id)
            if found.status in _OVER:
                raise EntryRefusedError(tournament_id, user_id, EntryRefusal.CLOSED)
            if entrant.status is status or entrant.status is EntrantStatus.REMOVED:
                return entrant
            await conn.execute(
                "UPDATE tournament_entrants SET status = $1, left_at = $2 "
                "WHERE tournament_id = $3 AND user_id = $4",
                status.value, at, tournament_id, user_id)
            await _bump(conn, tournament_id, at)
            if claim is not None:
                await _claim(conn, tournament_id, *claim, at)
            changed = await _entrant(conn, tournament_id, user_id)
        assert changed is not None
        return changed

    async def leave(self, tournament_id: int, user_id: int) -> EntrantRecord:
        return await self._withdraw(tournament_id, user_id, EntrantStatus.LEFT)

    async def remove(self, tournament_id: int, user_id: int,
                     claim: tuple[str, str] | None = None) -> EntrantRecord:
        if claim is not None and not claim[0]:
            raise ValueError("a notice's claim names its kind")
        return await self._withdraw(tournament_id, user_id, EntrantStatus.REMOVED, claim)

    async def entrants(self, tournament_id: int) -> list[EntrantRecord]:
        async with self._db.read() as conn:
            if await conn.fetchval("SELECT id FROM tournaments WHERE id = $1",
                                   tournament_id) is None:
                raise TournamentNotFoundError(tournament_id)
            rows = await conn.fetch(
                ENTRANTS + "WHERE e.tournament_id = $1 ORDER BY e.joined_at, e.user_id",
                tournament_id)
        return [entrant_from_row(row) for row in rows]

    async def start(self, tournament_id: int, expected_revision: int,
                    entrants_numbered: Sequence[NumberedEntrant], started_at: datetime,
                    ends_at: datetime | None) -> TournamentRecord:
        numbers = [number for _, _, number in entrants_numbered]
        if len(set(numbers)) != len(numbers) or any(number < 1 for number in numbers):
            raise ValueError(f"pairing numbers start at 1, each given once: {numbers}")
        at = to_ms(started_at)
        async with self._db.transaction() as conn:
            await _lock_expected(conn, tournament_id, expected_revision, (_SIGNUP,))
            active = {row[0] for row in await conn.fetch(
                "SELECT user_id FROM tournament_entrants WHERE tournament_id = $1 "
                "AND status = $2", tournament_id, _ACTIVE)}
            if strangers := [user for user, _, _ in entrants_numbered if user not in active]:
                raise ValueError(f"not active entrants of tournament {tournament_id}: "
                                 f"{sorted(set(strangers))}")
            await conn.executemany(
                "UPDATE tournament_entrants SET rating = $1, number = $2 "
                "WHERE tournament_id = $3 AND user_id = $4",
                [(rating, number, tournament_id, user)
                 for user, rating, number in entrants_numbered])
            return await _bump(conn, tournament_id, at,
                               "status = $3, started_at = $4, ends_at = $5",
                               _RUNNING.value, at, opt_to_ms(ends_at))

    # --- rounds and pairings --------------------------------------------------------

    async def add_round(self, tournament_id: int, expected_revision: int, number: int,
                        pairings: Sequence[BoardPairing], byes: Sequence[RoundBye],
                        paired_at: datetime) -> TournamentRoundRecord:
        check_round(number, pairings, byes)
        at = to_ms(paired_at)
        async with self._db.transaction() as conn:
            await _lock_expected(conn, tournament_id, expected_revision, (_RUNNING,))
            if await conn.fetchval(
                    "SELECT number FROM tournament_rounds WHERE tournament_id = $1 "
                    "AND number = $2", tournament_id, number) is not None:
                raise StaleTournamentError(tournament_id, f"round {number} is paired already")
            status = {row["user_id"]: row["status"] for row in await conn.fetch(
                "SELECT user_id, status FROM tournament_entrants WHERE tournament_id = $1",
                tournament_id)}
            paired = [user for _, white, black in pairings for user in (white, black)]
            if absent := sorted({user for user in paired if status.get(user) != _ACTIVE}):
                raise ValueError(f"only active entrants are paired, not {absent}")
            if strangers := sorted({user for user, _ in byes if user not in status}):
                raise ValueError(f"byes go to entrants, not {strangers}")
            await conn.execute(
                "INSERT INTO tournament_rounds (tournament_id, number, paired_at) "
                "VALUES ($1, $2, $3)", tournament_id, number, at)
            await conn.executemany(
                "INSERT INTO tournament_pairings (tournament_id, round, board, white_user_id, "
                "black_user_id) VALUES ($1, $2, $3, $4, $5)",
                [(tournament_id, number, board, white, black)
                 for board, white, black in pairings])
            await conn.executemany(
                "INSERT INTO tournament_byes (tournament_id, round, user_id, kind) "
                "VALUES ($1, $2, $3, $4)",
                [(tournament_id, number, user, kind) for user, kind in byes])
            await _bump(conn, tournament_id, at)
            stored = await _rounds_in(conn, tournament_id, number)
        return stored[0]

    async def rounds(self, tournament_id: int) -> list[TournamentRoundRecord]:
        async with self._db.read() as conn:
            if await conn.fetchval("SELECT id FROM tournaments WHERE id = $1",
                                   tournament_id) is None:
                raise TournamentNotFoundError(tournament_id)
            return await _rounds_in(conn, tournament_id)

    async def by_game(self, game_id: int) -> PairingRecord | None:
        async with self._db.read() as conn:
            row = await conn.fetchrow(PAIRINGS + "WHERE p.game_id = $1", game_id)
        return None if row is None else pairing_from_row(row)

    async def start_pairing_game(self, tournament_id: int, round: int, board: int,
                                 new_game: NewGame) -> GameRecord:
        seats = (new_game.white.user_id, new_game.black.user_id)
        now = self._now()
        async with self._db.transaction() as conn:
            pairing = await _lock_pairing(conn, tournament_id, round, board)
            if pairing.game_id is not None or pairing.forfeit is not None:
                _taken(pairing)
            if seats != (pairing.white_user_id, pairing.black_user_id):
                raise ValueError(
                    f"the game's seats {seats} are not board {board}'s White and Black "
                    f"{(pairing.white_user_id, pairing.black_user_id)}")
            game = await insert_game(conn, new_game, now)
            await conn.execute(
                "UPDATE tournament_pairings SET game_id = $1 WHERE tournament_id = $2 "
                "AND round = $3 AND board = $4", game.id, tournament_id, round, board)
        return game

    async def set_pairing_thread(self, tournament_id: int, round: int, board: int,
                                 thread_id: int) -> None:
        async with self._db.transaction() as conn:
            changed = await conn.execute(
                "UPDATE tournament_pairings SET thread_id = $1 WHERE tournament_id = $2 "
                "AND round = $3 AND board = $4", thread_id, tournament_id, round, board)
            if changed != 1:
                raise PairingNotFoundError(tournament_id, round, board)

    async def set_forfeit(self, tournament_id: int, round: int, board: int,
                          forfeit: str) -> PairingRecord:
        if forfeit not in FORFEITS:
            raise ValueError(f"unknown forfeit {forfeit!r}: one of {sorted(FORFEITS)}")
        async with self._db.transaction() as conn:
            pairing = await _lock_pairing(conn, tournament_id, round, board)
            if pairing.forfeit == forfeit:
                return pairing
            played = pairing.game_id is not None and pairing.game_status is not GameStatus.ABORTED
            if pairing.forfeit is not None or played:
                _taken(pairing)
            await conn.execute(
                "UPDATE tournament_pairings SET forfeit = $1 WHERE tournament_id = $2 "
                "AND round = $3 AND board = $4", forfeit, tournament_id, round, board)
            return await _lock_pairing(conn, tournament_id, round, board)

    async def finish_round(self, tournament_id: int, number: int,
                           finished_at: datetime) -> TournamentRoundRecord:
        at = to_ms(finished_at)
        async with self._db.transaction() as conn:
            await _lock_tournament(conn, tournament_id)
            changed = await conn.execute(
                "UPDATE tournament_rounds SET finished_at = $1 WHERE tournament_id = $2 "
                "AND number = $3 AND finished_at IS NULL", at, tournament_id, number)
            if changed == 1:
                await _bump(conn, tournament_id, self._now())
            found = await _rounds_in(conn, tournament_id, number)
        if not found:
            raise PairingNotFoundError(tournament_id, number)
        return found[0]

    async def set_round_messages(self, tournament_id: int, number: int, *,
                                 pairings_message_id: int | None = None,
                                 results_message_id: int | None = None) -> None:
        async with self._db.transaction() as conn:
            changed = await conn.execute(
                "UPDATE tournament_rounds SET "
                "pairings_message_id = COALESCE($1, pairings_message_id), "
                "results_message_id = COALESCE($2, results_message_id) "
                "WHERE tournament_id = $3 AND number = $4",
                pairings_message_id, results_message_id, tournament_id, number)
            if changed != 1:
                raise PairingNotFoundError(tournament_id, number)

    # --- the ledger of posts --------------------------------------------------------

    async def claim_post(self, tournament_id: int, kind: str, key: str) -> TournamentPost:
        if not kind:
            raise ValueError("a post needs a kind")
        now = self._now()
        async with self._db.transaction() as conn:
            if await conn.fetchval("SELECT id FROM tournaments WHERE id = $1",
                                   tournament_id) is None:
                raise TournamentNotFoundError(tournament_id)
            await _claim(conn, tournament_id, kind, key, now)
            row = await conn.fetchrow(
                "SELECT * FROM tournament_posts WHERE tournament_id = $1 AND kind = $2 "
                "AND key = $3", tournament_id, kind, key)
        assert row is not None
        return post_from_row(row)

    async def set_post_message(self, tournament_id: int, kind: str, key: str,
                               message_id: int) -> TournamentPost:
        async with self._db.transaction() as conn:
            row = await conn.fetchrow(
                "UPDATE tournament_posts SET message_id = $1 WHERE tournament_id = $2 "
                "AND kind = $3 AND key = $4 RETURNING *", message_id, tournament_id, kind, key)
        if row is None:
            raise TournamentPostNotFoundError(tournament_id, kind, key)
        return post_from_row(row)

    async def unrecorded_posts(self, tournament_id: int) -> list[TournamentPost]:
        async with self._db.read() as conn:
            rows = await conn.fetch(
                "SELECT * FROM tournament_posts WHERE tournament_id = $1 AND message_id "
                "IS NULL ORDER BY created_at, kind, key", tournament_id)
        return [post_from_row(row) for row in rows]


async def _claim(conn: SqlConnection, tournament_id: int, kind: str, key: str,
                 now: int) -> None:
    """Insert the ledger's claim (kind, key) unless it is there, on `conn`."""
    await conn.execute(
        "INSERT INTO tournament_posts (tournament_id, kind, key, created_at) "
        "VALUES ($1, $2, $3, $4) ON CONFLICT (tournament_id, kind, key) DO NOTHING",
        tournament_id, kind, key, now)


async def _rounds_in(conn: SqlConnection, tournament_id: int,
                     number: int | None = None) -> list[TournamentRoundRecord]:
    """The tournament's rounds (only round `number` when given) with their pairings and
    byes, read on `conn`."""
    where = "WHERE tournament_id = $1" + ("" if number is None else " AND number = $2")
    pairing_where = "WHERE p.tournament_id = $1" + ("" if number is None else " AND p.round = $2")
    bye_where = "WHERE tournament_id = $1" + ("" if number is None else " AND round = $2")
    params: tuple[SqlValue, ...] = (tournament_id,) if number is None else (tournament_id, number)
    rounds = await conn.fetch(f"SELECT * FROM tournament_rounds {where} ORDER BY number",
                              *params)
    pairings = [pairing_from_row(row) for row in await conn.fetch(
        f"{PAIRINGS}{pairing_where} ORDER BY p.round, p.board", *params)]
    byes = [bye_from_row(row) for row in await conn.fetch(
        f"SELECT * FROM tournament_byes {bye_where} ORDER BY round, user_id", *params)]
    by_round: dict[int, list[PairingRecord]] = {}
    for pairing in pairings:
        by_round.setdefault(pairing.round, []).append(pairing)
    byes_by_round: dict[int, list[ByeRecord]] = {}
    for bye in byes:
        byes_by_round.setdefault(bye.round, []).append(bye)
    return [round_from_row(row, by_round.get(row["number"], ()),
                           byes_by_round.get(row["number"], ()))
            for row in rounds]
