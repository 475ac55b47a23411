"""Every constraint of the schema refuses what it should: foreign keys, uniqueness, CHECKs,
NOT NULLs and the triggers (migrations 0001 to 0004, 0006, 0010, 0011 and 0012), through the
bot's own connection (`Database`, foreign keys on; or `PostgresDatabase`), on both backends.

Each case is a valid statement and the same statement with one value made invalid: the
valid one must succeed (so the refusal is the constraint's, not a typo's) and the invalid
one must raise `sqlite3.IntegrityError` with SQLite's message for that kind of
constraint, or on PostgreSQL the integrity error of that kind (foreign key, unique, check,
not null) naming the column or constraint, or the trigger's message (`refused_as`).
Both run in transactions that are rolled back, on a database holding two players'
games, a challenge, ratings and a Swiss tournament with a round. A constraint removed
from a migration makes its case fail (checked by hand for each kind when this file was written).
"""

from __future__ import annotations

import sqlite3
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from pathlib import Path

import asyncpg
import pytest

from storage import Database, PostgresDatabase, is_postgresql

SqlLiteral = bool | int | float | str | None

GAME: dict[str, SqlLiteral] = {
    "variant": "italian", "guild_id": 1, "channel_id": 500, "white_user_id": 1,
    "white_computer_level": None, "black_user_id": 2, "black_computer_level": None,
    "rated": False, "move_seconds": None, "start_fen": "W:W21:B12", "status": "active",
    "result": None, "termination": None, "ply_count": 0, "draw_offer_by": None,
    "white_computer_moves": 0, "black_computer_moves": 0, "created_at": 0,
    "updated_at": 0, "finished_at": None,
}
FINISHED: dict[str, SqlLiteral] = {"status": "finished", "result": "1-0",
                                   "termination": "resignation", "finished_at": 5}
MOVE: dict[str, SqlLiteral] = {"game_id": 1, "ply": 2, "text": "22-18", "played_at": 0,
                               "by_computer": False}
CHALLENGE: dict[str, SqlLiteral] = {
    "challenger_id": 1, "challenged_id": 2, "guild_id": 1, "channel_id": 12,
    "variant": "italian", "rated": True, "color": "random", "move_seconds": None,
    "created_at": 0, "expires_at": 1, "message_id": None, "status": "pending",
    "game_id": None, "updated_at": 0,
}
RATING: dict[str, SqlLiteral] = {
    "user_id": 2, "variant": "italian", "rating": 1500.0, "deviation": 350.0,
    "volatility": 0.06, "rated_games": 0, "wins": 0, "losses": 0, "draws": 0,
    "last_rated_at": None, "ranked": False,
}
GUILD_PLAYER: dict[str, SqlLiteral] = {"guild_id": 1, "variant": "italian", "user_id": 2,
                                       "last_rated_at": 0}
BUCKET: dict[str, SqlLiteral] = {"guild_id": 0, "variant": "italian", "bucket": 1400,
                                 "players": 1}
PLAYER: dict[str, SqlLiteral] = {"user_id": 4, "display_name": "d", "created_at": 0,
                                 "updated_at": 0}
PUZZLE_RATING: dict[str, SqlLiteral] = {
    "user_id": 2, "variant": "italian", "rating": 1500.0, "deviation": 350.0,
    "volatility": 0.06, "attempts": 1, "solved": 1, "streak": 1, "best_streak": 1,
    "updated_at": 0,
}
PUZZLE_ATTEMPT: dict[str, SqlLiteral] = {
    "user_id": 2, "puzzle_id": "italian-0", "variant": "italian", "solved": 1, "hinted": 0,
    "revealed": 0, "rating_before": 1500.0, "rating_after": 1600.0,
    "puzzle_rating_before": 1500.0, "puzzle_rating_after": 1400.0, "created_at": 0,
}
PUZZLE_SESSION: dict[str, SqlLiteral] = {
    "user_id": 2, "puzzle_id": "italian-0", "variant": "italian", "solution": "a b c",
    "plies": 2, "rated": 1, "failed": 0, "hinted": 0, "revision": 7, "started_at": 0,
    "updated_at": 0,
}
ANALYSIS: dict[str, SqlLiteral] = {"game_id": 2, "plies": 2, "nodes": 100, "body": "{}",
                                   "created_at": 0}
UNDER_WAY: dict[str, SqlLiteral] = {"game_id": 2, "requester_id": 1, "guild_id": None,
                                    "channel_id": 500, "message_id": None, "locale": "tr",
                                    "started_at": 0}
NOTIFICATION: dict[str, SqlLiteral] = {"user_id": 1, "kind": "turn", "game_id": 2, "ply": 0,
                                       "guild_id": None, "due_at": 0}
TOURNAMENT: dict[str, SqlLiteral] = {
    "guild_id": 1, "channel_id": 601, "organiser_id": 1, "name": "Friday", "format": "swiss",
    "variant": "italian", "rounds": 3, "duration_seconds": None, "move_seconds": 60,
    "rated": False, "status": "signup", "seed": 5, "revision": 0, "created_at": 0,
    "updated_at": 0,
}
ARENA: dict[str, SqlLiteral] = {**TOURNAMENT, "format": "arena", "rounds": None,
                                "duration_seconds": 600}
ENTRANT: dict[str, SqlLiteral] = {"tournament_id": 1, "user_id": 4, "joined_at": 0,
                                  "status": "active", "number": 4}
PAIRING: dict[str, SqlLiteral] = {"tournament_id": 1, "round": 1, "board": 2,
                                  "white_user_id": 3, "black_user_id": 1, "game_id": None,
                                  "forfeit": None}
BYE: dict[str, SqlLiteral] = {"tournament_id": 1, "round": 1, "user_id": 3, "kind": "U"}
POST: dict[str, SqlLiteral] = {"tournament_id": 1, "kind": "round", "key": "2",
                               "created_at": 0}
PLAYER_4 = ("INSERT INTO players (user_id, created_at, updated_at) VALUES (4, 0, 0)",)


def _literal(value: SqlLiteral) -> str:
    if value is None:
        return "NULL"
    if isinstance(value, bool):
        return "TRUE" if value else "FALSE"
    if isinstance(value, str):
        return "'" + value.replace("'", "''") + "'"
    return repr(value)


def insert(table: str, row: dict[str, SqlLiteral], **changes: SqlLiteral) -> str:
    values = {**row, **changes}
    return (f"INSERT INTO {table} ({', '.join(values)}) "
            f"VALUES ({', '.join(_literal(v) for v in values.values())})")


@dataclass(frozen=True)
class Case:
    """`valid` succeeds after `setup`; `invalid` is refused with `message` in the error."""

    name: str
    valid: str
    invalid: str
    message: str
    setup: tuple[str, ...] = field(default=())


FK = "FOREIGN KEY constraint failed"
CHECK = "CHECK constraint failed"
NOT_NULL = "NOT NULL constraint failed"
UNIQUE = "UNIQUE constraint failed"

CASES = [
    # analyses (migration 0006)
    Case("analyses: game exists", insert("analyses", ANALYSIS),
         insert("analyses", ANALYSIS, game_id=99), FK),
    Case("analyses: plies not negative", insert("analyses", ANALYSIS, plies=0),
         insert("analyses", ANALYSIS, plies=-1), CHECK + ": plies"),
    Case("analyses: node budget positive", insert("analyses", ANALYSIS, nodes=1),
         insert("analyses", ANALYSIS, nodes=0), CHECK + ": nodes"),
    Case("analyses: body not empty", insert("analyses", ANALYSIS),
         insert("analyses", ANALYSIS, body=""), CHECK + ": length(body)"),
    Case("analyses: created_at required", insert("analyses", ANALYSIS),
         insert("analyses", ANALYSIS, created_at=None), NOT_NULL + ": analyses.created_at"),
    # analyses under way (migration 0010)
    Case("analyses under way: game exists", insert("analyses_under_way", UNDER_WAY),
         insert("analyses_under_way", UNDER_WAY, game_id=99), FK),
    Case("analyses under way: locale not empty", insert("analyses_under_way", UNDER_WAY),
         insert("analyses_under_way", UNDER_WAY, locale=""), CHECK + ": length(locale)"),
    Case("analyses under way: channel required", insert("analyses_under_way", UNDER_WAY),
         insert("analyses_under_way", UNDER_WAY, channel_id=None),
         NOT_NULL + ": analyses_under_way.channel_id"),
    # notifications owed (migration 0013)
    Case("notifications: game exists", insert("notifications_owed", NOTIFICATION),
         insert("notifications_owed", NOTIFICATION, game_id=99), FK),
    Case("notifications: kind is turn or reminder", insert("notifications_owed", NOTIFICATION),
         insert("notifications_owed", NOTIFICATION, kind="nudge"), CHECK),
    Case("notifications: ply not negative", insert("notifications_owed", NOTIFICATION),
         insert("notifications_owed", NOTIFICATION, ply=-1), CHECK),
    Case("notifications: outcome sent or dropped", insert("notifications_owed", NOTIFICATION),
         insert("notifications_owed", NOTIFICATION, outcome="lost"), CHECK),
    # players
    Case("players: user id unique", insert("players", PLAYER),
         insert("players", PLAYER, user_id=1), UNIQUE + ": players.user_id"),
    Case("players: created_at required", insert("players", PLAYER),
         insert("players", PLAYER, created_at=None), NOT_NULL + ": players.created_at"),
    # games: foreign keys
    Case("games: white player exists", insert("games", GAME),
         insert("games", GAME, white_user_id=99), FK),
    Case("games: black player exists", insert("games", GAME),
         insert("games", GAME, black_user_id=99), FK),
    # games: NOT NULL
    Case("games: variant required", insert("games", GAME),
         insert("games", GAME, variant=None), NOT_NULL + ": games.variant"),
    Case("games: channel required", insert("games", GAME),
         insert("games", GAME, channel_id=None), NOT_NULL + ": games.channel_id"),
    Case("games: start FEN required", insert("games", GAME),
         insert("games", GAME, start_fen=None), NOT_NULL + ": games.start_fen"),
    Case("games: rated required", insert("games", GAME),
         insert("games", GAME, rated=None), NOT_NULL + ": games.rated"),
    # games: CHECKs on columns
    Case("games: move time positive", insert("games", GAME, move_seconds=40),
         insert("games", GAME, move_seconds=0), CHECK + ": move_seconds"),
    Case("games: known status", insert("games", GAME, **FINISHED),
         # (no result, so that only the status's CHECK is broken: the backends report
         # different ones when several are)
         insert("games", GAME, **{**FINISHED, "status": "paused", "result": None}),
         CHECK + ": status"),
    Case("games: known result", insert("games", GAME, **FINISHED),
         insert("games", GAME, **{**FINISHED, "result": "2-0"}), CHECK + ": result"),
    Case("games: ply count not negative", insert("games", GAME, ply_count=0),
         insert("games", GAME, ply_count=-1), CHECK + ": ply_count"),
    Case("games: draw offer by a side", insert("games", GAME, draw_offer_by="black"),
         insert("games", GAME, draw_offer_by="red"), CHECK + ": draw_offer_by"),
    Case("games: white computer moves not negative", insert("games", GAME),
         insert("games", GAME, white_computer_moves=-1), CHECK + ": white_computer_moves"),
    Case("games: black computer moves not negative", insert("games", GAME),
         insert("games", GAME, black_computer_moves=-1), CHECK + ": black_computer_moves"),
    # games: the owed announcement (migration 0003)
    Case("games: board owed is 0 or 1", insert("games", GAME, board_owed=1),
         insert("games", GAME, board_owed=2), "board_owed is 0 or 1"),
    Case("games: board owed stays 0 or 1", "UPDATE games SET board_owed = 0 WHERE id = 1",
         "UPDATE games SET board_owed = -1 WHERE id = 1", "board_owed is 0 or 1"),
    Case("games: board owed required", insert("games", GAME, board_owed=0),
         insert("games", GAME, board_owed=None), NOT_NULL + ": games.board_owed"),
    # games: the quarantine mark (migration 0004)
    Case("games: quarantined is 0 or 1", insert("games", GAME, quarantined=1),
         insert("games", GAME, quarantined=2), "quarantined is 0 or 1"),
    Case("games: quarantined stays 0 or 1", "UPDATE games SET quarantined = 1 WHERE id = 1",
         "UPDATE games SET quarantined = 5 WHERE id = 1", "quarantined is 0 or 1"),
    Case("games: quarantined required", insert("games", GAME, quarantined=0),
         insert("games", GAME, quarantined=None), NOT_NULL + ": games.quarantined"),
    # games: the place (migration 0012)
    Case("games: place is a place kind", insert("games", GAME, place="interactions"),
         insert("games", GAME, place="dm"), "place is channel or interactions"),
    Case("games: place stays a place kind",
         "UPDATE games SET place = 'interactions' WHERE id = 1",
         "UPDATE games SET place = 'thread' WHERE id = 1", "place is channel or interactions"),
    Case("games: place required", insert("games", GAME, place="channel"),
         insert("games", GAME, place=None), NOT_NULL + ": games.place"),
    # games: CHECKs on the row
    Case("games: white seat not both user and computer",
         insert("games", GAME, white_user_id=None, white_computer_level=3),
         insert("games", GAME, white_computer_level=3), CHECK),
    Case("games: white seat not empty",
         insert("games", GAME, white_user_id=None, white_computer_level=3),
         insert("games", GAME, white_user_id=None), CHECK),
    Case("games: black seat not both user and computer",
         insert("games", GAME, black_user_id=None, black_computer_level=3),
         insert("games", GAME, black_computer_level=3), CHECK),
    Case("games: black seat not empty",
         insert("games", GAME, black_user_id=None, black_computer_level=3),
         insert("games", GAME, black_user_id=None), CHECK),
    Case("games: rated game between two different users", insert("games", GAME, rated=True),
         insert("games", GAME, rated=True, black_user_id=1), CHECK),
    Case("games: rated game has no computer", insert("games", GAME, rated=True),
         insert("games", GAME, rated=True, black_user_id=None, black_computer_level=2), CHECK),
    Case("games: finished game has a result", insert("games", GAME, **FINISHED),
         insert("games", GAME, **{**FINISHED, "result": None}), CHECK),
    Case("games: active game has no result", insert("games", GAME),
         insert("games", GAME, result="1-0"), CHECK),
    Case("games: ended game has its end time",
         insert("games", GAME, status="aborted", termination="abort", finished_at=5),
         insert("games", GAME, status="aborted", termination="abort"), CHECK),
    Case("games: active game has no end time", insert("games", GAME),
         insert("games", GAME, finished_at=5), CHECK),
    Case("games: one active game per channel", insert("games", GAME, channel_id=501),
         insert("games", GAME, channel_id=10), UNIQUE + ": games.channel_id"),
    # games: triggers of 0002
    Case("games: ended game has a termination", insert("games", GAME, **FINISHED),
         insert("games", GAME, **{**FINISHED, "termination": None}), "has a termination"),
    Case("games: active game has no termination", insert("games", GAME),
         insert("games", GAME, termination="resignation"), "has a termination"),
    Case("games: ending a game records its termination",
         "UPDATE games SET status = 'aborted', termination = 'abort', finished_at = 5 "
         "WHERE id = 1",
         "UPDATE games SET status = 'aborted', finished_at = 5 WHERE id = 1",
         "has a termination"),
    # moves
    Case("moves: game exists", insert("moves", MOVE, game_id=3, ply=1),
         insert("moves", MOVE, game_id=99, ply=1), FK,
         setup=(insert("games", GAME, id=3, channel_id=502),)),
    Case("moves: text required", insert("moves", MOVE),
         insert("moves", MOVE, text=None), NOT_NULL + ": moves.text"),
    Case("moves: ply from 1", insert("moves", MOVE, game_id=3, ply=1),
         insert("moves", MOVE, game_id=3, ply=0), "ply order",
         setup=(insert("games", GAME, id=3, channel_id=502),)),
    Case("moves: one move per ply", insert("moves", MOVE),
         insert("moves", MOVE, ply=1), "ply order"),
    Case("moves: no gap", insert("moves", MOVE),
         insert("moves", MOVE, ply=3), "ply order"),
    Case("moves: only in an active game", insert("moves", MOVE),
         insert("moves", MOVE, game_id=2, ply=1), "only added to an active game"),
    Case("moves: never changed", "UPDATE moves SET text = '21-17' WHERE game_id = 99",
         "UPDATE moves SET text = '21-17' WHERE game_id = 1", "append-only"),
    Case("moves: never deleted", "DELETE FROM moves WHERE game_id = 99",
         "DELETE FROM moves WHERE game_id = 1", "append-only"),
    # challenges
    Case("challenges: challenger exists", insert("challenges", CHALLENGE),
         insert("challenges", CHALLENGE, challenger_id=99), FK),
    Case("challenges: challenged user exists", insert("challenges", CHALLENGE),
         insert("challenges", CHALLENGE, challenged_id=99), FK),
    Case("challenges: game exists", insert("challenges", CHALLENGE, status="accepted",
                                           game_id=1),
         insert("challenges", CHALLENGE, status="accepted", game_id=99), FK),
    Case("challenges: known colour", insert("challenges", CHALLENGE, color="black"),
         insert("challenges", CHALLENGE, color="green"), CHECK + ": color"),
    Case("challenges: move time positive", insert("challenges", CHALLENGE, move_seconds=60),
         insert("challenges", CHALLENGE, move_seconds=-5), CHECK + ": move_seconds"),
    Case("challenges: known status", insert("challenges", CHALLENGE, status="expired"),
         insert("challenges", CHALLENGE, status="lost"), CHECK + ": status"),
    Case("challenges: nobody challenges themselves", insert("challenges", CHALLENGE),
         insert("challenges", CHALLENGE, challenged_id=1), CHECK),
    Case("challenges: channel required", insert("challenges", CHALLENGE),
         insert("challenges", CHALLENGE, channel_id=None), NOT_NULL + ": challenges.channel_id"),
    Case("challenges: accepted names its game",
         insert("challenges", CHALLENGE, status="accepted", game_id=1),
         insert("challenges", CHALLENGE, status="accepted"), "names its game"),
    Case("challenges: pending names no game", insert("challenges", CHALLENGE),
         insert("challenges", CHALLENGE, game_id=1), "names its game"),
    Case("challenges: accepting records the game",
         "UPDATE challenges SET status = 'accepted', game_id = 1 WHERE id = 1",
         "UPDATE challenges SET status = 'accepted' WHERE id = 1", "names its game"),
    # ratings
    Case("ratings: player exists", insert("ratings", RATING),
         insert("ratings", RATING, user_id=99), FK),
    Case("ratings: one per player and variant", insert("ratings", RATING),
         insert("ratings", RATING, user_id=1), UNIQUE + ": ratings.user_id, ratings.variant"),
    Case("ratings: deviation positive", insert("ratings", RATING),
         insert("ratings", RATING, deviation=0.0), CHECK + ": deviation"),
    Case("ratings: volatility positive", insert("ratings", RATING),
         insert("ratings", RATING, volatility=0.0), CHECK + ": volatility"),
    Case("ratings: rated games not negative", insert("ratings", RATING),
         insert("ratings", RATING, rated_games=-1, wins=-1), CHECK + ": rated_games"),
    Case("ratings: wins not negative", insert("ratings", RATING),
         insert("ratings", RATING, wins=-1, losses=1), CHECK + ": wins"),
    Case("ratings: losses not negative", insert("ratings", RATING),
         insert("ratings", RATING, losses=-1, draws=1), CHECK + ": losses"),
    Case("ratings: draws not negative", insert("ratings", RATING),
         insert("ratings", RATING, draws=-1, wins=1), CHECK + ": draws"),
    Case("ratings: results add up to the games", insert("ratings", RATING, rated_games=1,
                                                        wins=1),
         insert("ratings", RATING, wins=1), CHECK + ": wins + losses + draws"),
    Case("ratings: rating required", insert("ratings", RATING),
         insert("ratings", RATING, rating=None), NOT_NULL + ": ratings.rating"),
    # guild_rated_players, rank_buckets, leaderboard_rule
    Case("guild players: player exists", insert("guild_rated_players", GUILD_PLAYER),
         insert("guild_rated_players", GUILD_PLAYER, user_id=99), FK),
    Case("guild players: once per guild and variant",
         insert("guild_rated_players", GUILD_PLAYER),
         insert("guild_rated_players", GUILD_PLAYER, user_id=1), UNIQUE),
    Case("rank buckets: one per board and point", insert("rank_buckets", BUCKET),
         insert("rank_buckets", BUCKET, bucket=1500), UNIQUE),
    # puzzles (migration 0007)
    Case("puzzle ratings: player exists", insert("puzzle_ratings", PUZZLE_RATING),
         insert("puzzle_ratings", PUZZLE_RATING, user_id=99), FK),
    Case("puzzle ratings: solved at most attempted", insert("puzzle_ratings", PUZZLE_RATING),
         insert("puzzle_ratings", PUZZLE_RATING, solved=2), CHECK + ": solved"),
    Case("puzzle ratings: best streak at least the streak",
         insert("puzzle_ratings", PUZZLE_RATING),
         insert("puzzle_ratings", PUZZLE_RATING, best_streak=0), CHECK + ": best_streak"),
    Case("puzzle attempts: player exists", insert("puzzle_attempts", PUZZLE_ATTEMPT),
         insert("puzzle_attempts", PUZZLE_ATTEMPT, user_id=99), FK),
    Case("puzzle attempts: solved is 0 or 1", insert("puzzle_attempts", PUZZLE_ATTEMPT),
         insert("puzzle_attempts", PUZZLE_ATTEMPT, solved=2), CHECK + ": solved"),
    # puzzles under way (migration 0008)
    Case("puzzle sessions: player exists", insert("puzzle_sessions", PUZZLE_SESSION),
         insert("puzzle_sessions", PUZZLE_SESSION, user_id=99), FK),
    Case("puzzle sessions: plies not negative", insert("puzzle_sessions", PUZZLE_SESSION),
         insert("puzzle_sessions", PUZZLE_SESSION, plies=-1), CHECK + ": plies"),
    Case("puzzle sessions: failed is 0 or 1", insert("puzzle_sessions", PUZZLE_SESSION),
         insert("puzzle_sessions", PUZZLE_SESSION, failed=2), CHECK + ": failed"),
    # tournaments (migration 0011)
    Case("tournaments: name of 1 to 100 characters", insert("tournaments", TOURNAMENT),
         insert("tournaments", TOURNAMENT, name=""), CHECK + ": length(name)"),
    Case("tournaments: known format", insert("tournaments", TOURNAMENT),
         insert("tournaments", TOURNAMENT, format="knockout"), CHECK + ": format"),
    Case("tournaments: move time positive", insert("tournaments", TOURNAMENT),
         insert("tournaments", TOURNAMENT, move_seconds=0), CHECK + ": move_seconds"),
    Case("tournaments: a limit of at least 2", insert("tournaments", TOURNAMENT,
                                                      player_limit=2),
         insert("tournaments", TOURNAMENT, player_limit=1), CHECK + ": player_limit"),
    Case("tournaments: an arena has a duration", insert("tournaments", ARENA),
         insert("tournaments", ARENA, duration_seconds=None),
         CHECK + ": (format = 'arena') = (duration_seconds IS NOT NULL)"),
    Case("tournaments: a paused one has its pause time",
         insert("tournaments", TOURNAMENT, status="paused", started_at=0, paused_at=1),
         insert("tournaments", TOURNAMENT, status="paused", started_at=0),
         CHECK + ": (status = 'paused') = (paused_at IS NOT NULL)"),
    Case("tournaments: one open per channel", insert("tournaments", TOURNAMENT),
         insert("tournaments", TOURNAMENT, channel_id=600),
         UNIQUE + ": tournaments.channel_id"),
    Case("tournament entrants: tournament exists", insert("tournament_entrants", ENTRANT),
         insert("tournament_entrants", ENTRANT, tournament_id=99), FK, PLAYER_4),
    Case("tournament entrants: a number once", insert("tournament_entrants", ENTRANT),
         insert("tournament_entrants", ENTRANT, number=1),
         UNIQUE + ": tournament_entrants.tournament_id, tournament_entrants.number", PLAYER_4),
    Case("tournament entrants: known status", insert("tournament_entrants", ENTRANT),
         insert("tournament_entrants", ENTRANT, status="gone", left_at=1), CHECK + ": status",
         PLAYER_4),
    Case("tournament entrants: player exists", insert("tournament_entrants", ENTRANT),
         insert("tournament_entrants", ENTRANT, user_id=99), FK, PLAYER_4),
    Case("tournament rounds: tournament exists",
         "INSERT INTO tournament_rounds (tournament_id, number, paired_at) VALUES (1, 2, 0)",
         "INSERT INTO tournament_rounds (tournament_id, number, paired_at) VALUES (99, 2, 0)",
         FK),
    Case("tournament pairings: tournament exists", insert("tournament_pairings", PAIRING),
         insert("tournament_pairings", PAIRING, tournament_id=99), FK),
    Case("tournament pairings: White is an entrant", insert("tournament_pairings", PAIRING),
         insert("tournament_pairings", PAIRING, white_user_id=4), FK, PLAYER_4),
    Case("tournament pairings: game exists", insert("tournament_pairings", PAIRING, game_id=2),
         insert("tournament_pairings", PAIRING, game_id=99), FK),
    Case("tournament byes: tournament exists", insert("tournament_byes", BYE),
         insert("tournament_byes", BYE, tournament_id=99), FK),
    Case("tournament byes: round exists", insert("tournament_byes", BYE),
         insert("tournament_byes", BYE, round=2), FK),
    Case("tournament rounds: a round once",
         "INSERT INTO tournament_rounds (tournament_id, number, paired_at) VALUES (1, 2, 0)",
         "INSERT INTO tournament_rounds (tournament_id, number, paired_at) VALUES (1, 1, 0)",
         UNIQUE + ": tournament_rounds.tournament_id, tournament_rounds.number"),
    Case("tournament pairings: round exists", insert("tournament_pairings", PAIRING),
         insert("tournament_pairings", PAIRING, round=2), FK),
    Case("tournament pairings: players are entrants", insert("tournament_pairings", PAIRING),
         insert("tournament_pairings", PAIRING, black_user_id=4), FK, PLAYER_4),
    Case("tournament pairings: two different players", insert("tournament_pairings", PAIRING),
         insert("tournament_pairings", PAIRING, black_user_id=3),
         CHECK + ": white_user_id <> black_user_id"),
    Case("tournament pairings: known forfeit",
         insert("tournament_pairings", PAIRING, forfeit="-/-"),
         insert("tournament_pairings", PAIRING, forfeit="1-0"), CHECK + ": forfeit"),
    Case("tournament pairings: a game in one pairing",
         insert("tournament_pairings", PAIRING, game_id=2),
         insert("tournament_pairings", PAIRING, game_id=1),
         UNIQUE + ": tournament_pairings.game_id"),
    Case("tournament byes: known kind", insert("tournament_byes", BYE),
         insert("tournament_byes", BYE, kind="X"), CHECK + ": kind"),
    Case("tournament byes: an entrant's", insert("tournament_byes", BYE),
         insert("tournament_byes", BYE, user_id=4), FK, PLAYER_4),
    Case("tournament posts: tournament exists", insert("tournament_posts", POST),
         insert("tournament_posts", POST, tournament_id=99), FK),
    Case("leaderboard rule: a single row", "UPDATE leaderboard_rule SET min_games = 3",
         "INSERT INTO leaderboard_rule (id, min_games, max_deviation) VALUES (2, 1, 1.0)",
         CHECK + ": id = 1"),
]

BASE = (
    insert("players", PLAYER, user_id=1), insert("players", PLAYER, user_id=2),
    insert("players", PLAYER, user_id=3),
    insert("games", GAME, channel_id=10),                      # game 1: active, one move
    "INSERT INTO moves (game_id, ply, text, played_at, by_computer) "
    "VALUES (1, 1, '22-18', 0, FALSE)",
    insert("games", GAME, channel_id=11),                      # game 2: finished
    "UPDATE games SET status = 'finished', result = '0-1', termination = 'resignation', "
    "finished_at = 5 WHERE id = 2",
    insert("challenges", CHALLENGE),                           # challenge 1: pending
    insert("ratings", RATING, user_id=1),
    insert("guild_rated_players", GUILD_PLAYER, user_id=1),
    insert("rank_buckets", BUCKET, bucket=1500),
    "INSERT INTO leaderboard_rule (id, min_games, max_deviation) "
    "VALUES (1, 5, 110.0) ON CONFLICT (id) DO UPDATE SET min_games = excluded.min_games, "
    "max_deviation = excluded.max_deviation",
    insert("tournaments", TOURNAMENT, channel_id=600, status="running", started_at=0),
    *(insert("tournament_entrants", ENTRANT, user_id=user, number=user) for user in (1, 2, 3)),
    "INSERT INTO tournament_rounds (tournament_id, number, paired_at) VALUES (1, 1, 0)",
    insert("tournament_pairings", PAIRING, board=1, white_user_id=1, black_user_id=2,
           game_id=1),
)


class _RollBack(Exception):
    """Raised to end a transaction without committing it."""


# The rules SQLite keeps with triggers (by their messages) that PostgreSQL keeps as
# CHECK constraints (by name), storage/migrations_postgresql/.
POSTGRES_CHECKS = {
    "has a termination": "games_termination",
    "names its game": "challenges_game",
    "board_owed is 0 or 1": "games_board_owed",
    "quarantined is 0 or 1": "games_quarantined",
    "place is channel or interactions": "games_place",
}


def refused_as(error: Exception, case: Case) -> bool:
    """Whether `error` is the refusal `case` expects, on the backend that raised it."""
    if isinstance(error, sqlite3.IntegrityError):
        return case.message in str(error)
    if not isinstance(error, asyncpg.IntegrityConstraintViolationError):
        return False
    kind, _, detail = case.message.partition(": ")
    if case.message in POSTGRES_CHECKS:
        return getattr(error, "constraint_name", None) == POSTGRES_CHECKS[case.message]
    if kind == FK:
        return isinstance(error, asyncpg.ForeignKeyViolationError)
    if kind == UNIQUE:
        return isinstance(error, asyncpg.UniqueViolationError)
    if kind == NOT_NULL:
        table, _, column = detail.partition(".")
        return (isinstance(error, asyncpg.NotNullViolationError)
                and (error.table_name, error.column_name) == (table, column))
    if kind == CHECK:
        # A column's CHECK is named table_column_check by PostgreSQL.
        column = detail if detail.isidentifier() else ""
        return (isinstance(error, asyncpg.CheckViolationError)
                and f"_{column}" in str(getattr(error, "constraint_name", "")))
    return case.message in str(error)  # a trigger's own message


@pytest.fixture
async def database(target: str) -> AsyncIterator[Database | PostgresDatabase]:
    db: Database | PostgresDatabase = await (
        PostgresDatabase.open(target) if is_postgresql(target) else Database.open(target))
    try:
        async with db.transaction() as conn:
            for statement in BASE:
                await conn.execute(statement)
        yield db
    finally:
        await db.close()


async def _run(db: Database | PostgresDatabase, statements: tuple[str, ...]) -> None:
    """Run `statements` in a transaction that is then rolled back."""
    with pytest.raises(_RollBack):
        async with db.transaction() as conn:
            for statement in statements:
                await conn.execute(statement)
            raise _RollBack


@pytest.mark.parametrize("case", CASES, ids=[case.name for case in CASES])
async def test_constraint_refuses(database: Database | PostgresDatabase, case: Case) -> None:
    await _run(database, (*case.setup, case.valid))
    with pytest.raises((sqlite3.IntegrityError, asyncpg.IntegrityConstraintViolationError)) \
            as caught:
        await _run(database, (*case.setup, case.invalid))
    assert refused_as(caught.value, case), f"{type(caught.value).__name__}: {caught.value}"


async def test_a_miscounted_rank_bucket_never_blocks_a_write(
    database: Database | PostgresDatabase,
) -> None:
    """No constraint on bucket counts, on purpose: ending a game updates them in its
    transaction, and a miscount must not stop the game from ending (rebuild_rankings
    repairs the counts)."""
    async with database.transaction() as conn:
        await conn.execute("UPDATE rank_buckets SET players = players - 5")
        assert await conn.fetchval("SELECT min(players) FROM rank_buckets") < 0


@pytest.mark.sqlite_only  # reads SQLite's catalogue; the schemas match (test_schema_parity)
async def test_every_foreign_key_has_a_case(db_path: Path) -> None:
    """The cases above cover each foreign key of the schema (a new one needs a case)."""
    covered = {
        ("games", "white_user_id"), ("games", "black_user_id"), ("moves", "game_id"),
        ("challenges", "challenger_id"), ("challenges", "challenged_id"),
        ("challenges", "game_id"), ("ratings", "user_id"), ("guild_rated_players", "user_id"),
        ("puzzle_ratings", "user_id"), ("puzzle_attempts", "user_id"),
        ("analyses", "game_id"), ("puzzle_sessions", "user_id"),
        ("analyses_under_way", "game_id"), ("notifications_owed", "game_id"),
        ("tournament_entrants", "tournament_id"), ("tournament_entrants", "user_id"),
        ("tournament_rounds", "tournament_id"), ("tournament_pairings", "tournament_id"),
        ("tournament_pairings", "round"), ("tournament_pairings", "white_user_id"),
        ("tournament_pairings", "black_user_id"), ("tournament_pairings", "game_id"),
        ("tournament_byes", "tournament_id"), ("tournament_byes", "round"),
        ("tournament_byes", "user_id"), ("tournament_posts", "tournament_id"),
    }
    db = await Database.open(db_path)
    try:
        async with db.read() as conn:
            tables = [row[0] for row in await conn.fetch(
                "SELECT name FROM sqlite_master WHERE type = 'table'")]
            found = {
                (table, str(row[0]))
                for table in tables
                for row in await conn.fetch('SELECT "from" FROM pragma_foreign_key_list($1)',
                                            table)
            }
    finally:
        await db.close()
    assert found == covered


@pytest.mark.sqlite_only  # reads SQLite's catalogue
async def test_every_trigger_has_a_case(db_path: Path) -> None:
    """Each trigger's message appears among the cases' expected refusals."""
    db = await Database.open(db_path)
    try:
        async with db.read() as conn:
            sql = [str(row[0]) for row in await conn.fetch(
                "SELECT sql FROM sqlite_master WHERE type = 'trigger'")]
    finally:
        await db.close()
    messages = {case.message for case in CASES}
    for text in sql:
        raised = text.split("RAISE(ABORT, '")[1].split("'")[0]
        assert any(message in raised for message in messages), raised
