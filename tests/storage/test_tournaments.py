"""TournamentRepository on both backends: the tournament and its lists, entrants (join,
leave, remove, the limit), the start, rounds with pairings and byes (the round's key
refusing a second pairing, also when two processes pair at once), a pairing's game stored
and linked in one transaction, forfeits, the pairing read joined with its game, the
status changes and the ledger of posts; every conditional write refused on a stale
revision."""

from __future__ import annotations

import asyncio
import sqlite3
from dataclasses import replace
from datetime import timedelta

import asyncpg
import pytest

from storage import (
    ChannelBusyError,
    EntrantNotFoundError,
    EntrantStatus,
    EntryRefusal,
    EntryRefusedError,
    GameResult,
    GameStatus,
    NewGame,
    NewTournament,
    PairingNotFoundError,
    PairingTakenError,
    Seat,
    StaleTournamentError,
    Storage,
    TournamentChannelBusyError,
    TournamentNotFoundError,
    TournamentPostNotFoundError,
    TournamentRecord,
    TournamentStatus,
)
from storage.tournaments import FINAL_POST
from tests.support.clock import START

FEN = "W:Wa2:Ba7"
GUILD = 9


def swiss(channel: int = 50, **changes: object) -> NewTournament:
    new = NewTournament(guild_id=GUILD, channel_id=channel, organiser_id=1, name="Friday Swiss",
                        format="swiss", variant="turkish", rounds=4, duration_seconds=None,
                        move_seconds=60, rated=True, seed=-(2**62))
    return replace(new, **changes)  # type: ignore[arg-type]


def arena(channel: int = 60, **changes: object) -> NewTournament:
    return swiss(channel, **{"format": "arena", "rounds": None, "duration_seconds": 600,
                             **changes})


async def with_players(storage: Storage, new: NewTournament,
                       players: range = range(11, 15)) -> TournamentRecord:
    made = await storage.tournaments.create(new)
    for user in players:
        await storage.tournaments.join(made.id, user, f"player {user}", START)
    found = await storage.tournaments.get(made.id)
    assert found is not None
    return found


async def started(storage: Storage, new: NewTournament,
                  players: range = range(11, 15)) -> TournamentRecord:
    """A tournament with `players` numbered 1, 2, ... in join order, started."""
    made = await with_players(storage, new, players)
    numbered = [(user, 1500 + user, index) for index, user in enumerate(players, start=1)]
    ends = START + timedelta(minutes=10) if new.format == "arena" else None
    return await storage.tournaments.start(made.id, made.revision, numbered, START, ends)


async def paired(storage: Storage) -> TournamentRecord:
    """A started Swiss of players 11-15 with round 1: 11-12 on board 1, 13-14 on board 2,
    a bye for 15. Returns the tournament as stored after the round."""
    made = await started(storage, swiss(), range(11, 16))
    await storage.tournaments.add_round(made.id, made.revision, 1, [(1, 11, 12), (2, 13, 14)],
                                        [(15, "U")], START)
    found = await storage.tournaments.get(made.id)
    assert found is not None
    return found


def game_of(white: int, black: int, channel: int) -> NewGame:
    return NewGame("turkish", channel, GUILD, Seat.human(white), Seat.human(black), FEN,
                   move_seconds=60)


# --- the tournament ------------------------------------------------------------------


async def test_create_stores_every_setting_in_signup(storage: Storage) -> None:
    new = swiss(starts_at=START + timedelta(days=1), player_limit=8, role_id=77)
    made = await storage.tournaments.create(new)
    assert made.status is TournamentStatus.SIGNUP and made.revision == 0
    assert (made.guild_id, made.channel_id, made.organiser_id, made.name, made.format,
            made.variant, made.rounds, made.duration_seconds, made.move_seconds, made.rated,
            made.starts_at, made.player_limit, made.role_id, made.seed) == (
        GUILD, 50, 1, "Friday Swiss", "swiss", "turkish", 4, None, 60, True,
        START + timedelta(days=1), 8, 77, -(2**62))
    assert (made.post_message_id, made.thread_id, made.event_id, made.started_at,
            made.ends_at, made.paused_at, made.finished_at) == (None,) * 7
    assert made.created_at == made.updated_at == START
    assert await storage.tournaments.get(made.id) == made
    assert await storage.tournaments.get(made.id + 1) is None


async def test_post_thread_and_event_are_recorded_each_a_new_revision(storage: Storage) -> None:
    made = await storage.tournaments.create(swiss())
    posted = await storage.tournaments.set_post(made.id, 700)
    threaded = await storage.tournaments.set_thread(made.id, 701)
    evented = await storage.tournaments.set_event(made.id, 702)
    assert (posted.revision, threaded.revision, evented.revision) == (1, 2, 3)
    assert (evented.post_message_id, evented.thread_id, evented.event_id) == (700, 701, 702)
    assert await storage.tournaments.by_event(702) == evented
    assert await storage.tournaments.by_event(703) is None
    assert (await storage.tournaments.set_event(made.id, None)).event_id is None
    with pytest.raises(TournamentNotFoundError):
        await storage.tournaments.set_thread(made.id + 1, 1)


@pytest.mark.parametrize(("changes", "message"), [
    ({"name": ""}, "name"),
    ({"name": "x" * 101}, "name"),
    ({"format": "knockout"}, "format"),
    ({"variant": ""}, "variant"),
    ({"rounds": None}, "arena has a duration"),
    ({"format": "arena"}, "arena has a duration"),
    ({"format": "arena", "rounds": None, "duration_seconds": 0}, "positive time"),
    ({"rounds": 0}, "at least 1 round"),
    ({"format": "round robin", "rounds": 3}, "1 or 2 cycles"),
    ({"move_seconds": 0}, "move time"),
    ({"player_limit": 1}, "limit"),
    ({"seed": 2**63}, "seed"),
])
async def test_a_tournament_the_schema_refuses_is_a_value_error(
    storage: Storage, changes: dict[str, object], message: str
) -> None:
    with pytest.raises(ValueError, match=message):
        await storage.tournaments.create(swiss(50, **changes))
    assert await storage.tournaments.in_guild(GUILD, TournamentStatus) == []


async def test_one_open_tournament_per_channel(storage: Storage) -> None:
    first = await storage.tournaments.create(swiss(channel=50))
    with pytest.raises(TournamentChannelBusyError):
        await storage.tournaments.create(arena(channel=50))
    assert await storage.tournaments.in_channel(50) == first
    await storage.tournaments.create(arena(channel=51))  # another channel: fine
    cancelled = await storage.tournaments.set_status(first.id, first.revision,
                                                     TournamentStatus.CANCELLED, START)
    assert cancelled.finished_at == START and cancelled.started_at is None
    assert await storage.tournaments.in_channel(50) is None
    again = await storage.tournaments.create(swiss(channel=50))
    assert await storage.tournaments.in_channel(50) == again


async def test_one_open_tournament_per_channel_when_two_processes_race(target: str) -> None:
    first, second = await Storage.open(target), await Storage.open(target)
    try:
        results = await asyncio.gather(first.tournaments.create(swiss()),
                                       second.tournaments.create(swiss()),
                                       return_exceptions=True)
        assert sorted(type(result).__name__ for result in results) == [
            "TournamentChannelBusyError", "TournamentRecord"]
        assert len(await first.tournaments.in_guild(GUILD, TournamentStatus)) == 1
    finally:
        await first.close()
        await second.close()


async def test_lists_by_guild_status_and_history(storage: Storage) -> None:
    signup = await storage.tournaments.create(swiss(channel=50))
    running = await started(storage, arena(channel=51))
    done = await started(storage, swiss(channel=52))
    done = await storage.tournaments.set_status(done.id, done.revision,
                                                TournamentStatus.FINISHED, START)
    await storage.tournaments.create(swiss(channel=53, guild_id=GUILD + 1))
    everything = await storage.tournaments.in_guild(GUILD, TournamentStatus)
    assert [t.id for t in everything] == [done.id, running.id, signup.id]  # newest first
    open_ = await storage.tournaments.in_guild(
        GUILD, [TournamentStatus.SIGNUP, TournamentStatus.RUNNING])
    assert [t.id for t in open_] == [running.id, signup.id]
    assert [t.id for t in await storage.tournaments.in_guild(GUILD, TournamentStatus, 1)] == [
        done.id]
    assert await storage.tournaments.in_guild(GUILD, []) == []
    assert [t.id for t in await storage.tournaments.running()] == [running.id]
    assert await storage.tournaments.history(GUILD) == [done]
    assert await storage.tournaments.history(GUILD + 1) == []


async def test_due_to_start_lists_the_sign_ups_whose_time_came_in_every_server(
        storage: Storage) -> None:
    later = await storage.tournaments.create(swiss(channel=50, starts_at=START + timedelta(
        hours=2)))
    soon = await storage.tournaments.create(swiss(channel=51, guild_id=GUILD + 1,
                                                  starts_at=START + timedelta(hours=1)))
    await storage.tournaments.create(swiss(channel=52))  # no start time: the organiser's
    gone = await storage.tournaments.create(swiss(channel=53, starts_at=START))
    await storage.tournaments.set_status(gone.id, gone.revision, TournamentStatus.CANCELLED,
                                         START)
    assert await storage.tournaments.due_to_start(START + timedelta(minutes=59)) == []
    due = await storage.tournaments.due_to_start(START + timedelta(hours=1))
    assert [t.id for t in due] == [soon.id]
    due = await storage.tournaments.due_to_start(START + timedelta(days=1))
    assert [t.id for t in due] == [soon.id, later.id]  # soonest first


# --- entrants ------------------------------------------------------------------------


async def test_join_leave_and_join_again_is_one_row(storage: Storage) -> None:
    made = await storage.tournaments.create(swiss())
    joined = await storage.tournaments.join(made.id, 11, "Ayşe", START)
    assert (joined.user_id, joined.display_name, joined.status, joined.joined_at,
            joined.rating, joined.number) == (11, "Ayşe", EntrantStatus.ACTIVE, START, None,
                                              None)
    assert await storage.tournaments.join(made.id, 11, "Ayşe", START) == joined  # no-op
    left = await storage.tournaments.leave(made.id, 11)
    assert left.status is EntrantStatus.LEFT and left.left_at is not None
    later = START + timedelta(minutes=5)
    again = await storage.tournaments.join(made.id, 11, None, later)
    assert (again.status, again.left_at, again.joined_at, again.display_name) == (
        EntrantStatus.ACTIVE, None, later, "Ayşe")
    await storage.tournaments.join(made.id, 12, "Omar", START)
    assert [(e.user_id, e.status) for e in await storage.tournaments.entrants(made.id)] == [
        (12, EntrantStatus.ACTIVE), (11, EntrantStatus.ACTIVE)]  # join order
    player = await storage.players.get(12)
    assert player is not None and player.display_name == "Omar"
    found = await storage.tournaments.get(made.id)
    assert found is not None and found.revision == 4  # join, leave, join, join


async def test_the_limit_the_organiser_and_the_start_close_entries(storage: Storage) -> None:
    made = await storage.tournaments.create(swiss(player_limit=2))
    await storage.tournaments.join(made.id, 11, None, START)
    await storage.tournaments.join(made.id, 12, None, START)
    with pytest.raises(EntryRefusedError) as full:
        await storage.tournaments.join(made.id, 13, None, START)
    assert full.value.reason is EntryRefusal.FULL
    removed = await storage.tournaments.remove(made.id, 12)
    assert removed.status is EntrantStatus.REMOVED
    assert (await storage.tournaments.leave(made.id, 12)).status is EntrantStatus.REMOVED
    with pytest.raises(EntryRefusedError) as banned:
        await storage.tournaments.join(made.id, 12, None, START)
    assert banned.value.reason is EntryRefusal.REMOVED
    await storage.tournaments.join(made.id, 13, None, START)  # a place is free again
    found = await storage.tournaments.get(made.id)
    assert found is not None
    await storage.tournaments.start(made.id, found.revision, [(11, 1500, 1), (13, None, 2)],
                                    START, None)
    with pytest.raises(EntryRefusedError) as closed:
        await storage.tournaments.join(made.id, 14, None, START)
    assert closed.value.reason is EntryRefusal.CLOSED
    with pytest.raises(EntrantNotFoundError):
        await storage.tournaments.leave(made.id, 14)
    with pytest.raises(TournamentNotFoundError):
        await storage.tournaments.join(made.id + 1, 14, None, START)
    with pytest.raises(TournamentNotFoundError):
        await storage.tournaments.entrants(made.id + 1)


async def test_two_processes_taking_the_last_place_admit_one(target: str) -> None:
    first, second = await Storage.open(target), await Storage.open(target)
    try:
        made = await with_players(first, swiss(player_limit=3), range(11, 13))
        results = await asyncio.gather(first.tournaments.join(made.id, 20, None, START),
                                       second.tournaments.join(made.id, 21, None, START),
                                       return_exceptions=True)
        refused = [r for r in results if isinstance(r, BaseException)]
        assert len(refused) == 1 and isinstance(refused[0], EntryRefusedError)
        assert refused[0].reason is EntryRefusal.FULL
        assert len(await second.tournaments.entrants(made.id)) == 3
    finally:
        await first.close()
        await second.close()


async def test_a_running_arena_takes_entrants_with_the_next_number(storage: Storage) -> None:
    made = await started(storage, arena())
    late = await storage.tournaments.join(made.id, 30, "Late", START, rating=1720)
    assert (late.number, late.rating) == (5, 1720)
    await storage.tournaments.leave(made.id, 12)
    back = await storage.tournaments.join(made.id, 12, None, START, rating=1)
    assert (back.number, back.rating, back.status) == (2, 1512, EntrantStatus.ACTIVE)
    ended = await storage.tournaments.set_status(made.id, (await _revision(storage, made.id)),
                                                 TournamentStatus.FINISHED, START)
    with pytest.raises(EntryRefusedError) as closed:
        await storage.tournaments.join(ended.id, 31, None, START)
    assert closed.value.reason is EntryRefusal.CLOSED
    with pytest.raises(EntryRefusedError):
        await storage.tournaments.leave(ended.id, 30)


async def _revision(storage: Storage, tournament_id: int) -> int:
    found = await storage.tournaments.get(tournament_id)
    assert found is not None
    return found.revision


# --- the start -----------------------------------------------------------------------


async def test_start_numbers_and_rates_the_entrants_in_one_write(storage: Storage) -> None:
    made = await with_players(storage, arena(), range(11, 14))
    ends = START + timedelta(minutes=10)
    begun = await storage.tournaments.start(
        made.id, made.revision, [(13, 1600, 1), (11, None, 2)], START, ends)
    assert (begun.status, begun.started_at, begun.ends_at, begun.revision) == (
        TournamentStatus.RUNNING, START, ends, made.revision + 1)
    assert [(e.user_id, e.rating, e.number) for e in await storage.tournaments.entrants(
        made.id)] == [(11, None, 2), (12, None, None), (13, 1600, 1)]
    with pytest.raises(StaleTournamentError):  # started already
        await storage.tournaments.start(made.id, begun.revision, [], START, None)


async def test_start_refuses_a_stale_revision_and_bad_numbers(storage: Storage) -> None:
    made = await with_players(storage, swiss(), range(11, 13))
    await storage.tournaments.join(made.id, 13, None, START)  # a join since it was read
    with pytest.raises(StaleTournamentError) as stale:
        await storage.tournaments.start(made.id, made.revision, [(11, 1500, 1)], START, None)
    assert stale.value.revision == made.revision + 1
    fresh = made.revision + 1
    with pytest.raises(ValueError, match="not active entrants"):
        await storage.tournaments.start(made.id, fresh, [(99, 1500, 1)], START, None)
    with pytest.raises(ValueError, match="each given once"):
        await storage.tournaments.start(made.id, fresh, [(11, 1, 1), (12, 1, 1)], START, None)
    with pytest.raises(ValueError, match="start at 1"):
        await storage.tournaments.start(made.id, fresh, [(11, 1, 0)], START, None)
    found = await storage.tournaments.get(made.id)
    assert found is not None and found.status is TournamentStatus.SIGNUP
    assert all(e.number is None for e in await storage.tournaments.entrants(made.id))


# --- rounds --------------------------------------------------------------------------


async def test_a_round_is_stored_with_its_pairings_and_byes(storage: Storage) -> None:
    made = await started(storage, swiss(), range(11, 16))
    stored = await storage.tournaments.add_round(
        made.id, made.revision, 1, [(2, 13, 14), (1, 11, 12)], [(15, "U")], START)
    assert (stored.number, stored.paired_at, stored.finished_at) == (1, START, None)
    assert [(p.board, p.white_user_id, p.black_user_id, p.game_id, p.forfeit, p.game_status,
             p.result) for p in stored.pairings] == [
        (1, 11, 12, None, None, None, None), (2, 13, 14, None, None, None, None)]
    assert [(b.user_id, b.kind) for b in stored.byes] == [(15, "U")]
    assert await storage.tournaments.rounds(made.id) == [stored]
    assert await _revision(storage, made.id) == made.revision + 1
    with pytest.raises(TournamentNotFoundError):
        await storage.tournaments.rounds(made.id + 1)


async def test_a_round_paired_twice_is_refused_as_stale(storage: Storage) -> None:
    made = await paired(storage)
    before = await storage.tournaments.rounds(made.id)
    with pytest.raises(StaleTournamentError, match="round 1 is paired already"):
        await storage.tournaments.add_round(made.id, made.revision, 1, [(1, 11, 13)], [],
                                            START)
    with pytest.raises(StaleTournamentError, match="revision"):  # read before round 1
        await storage.tournaments.add_round(made.id, made.revision - 1, 2, [(1, 11, 13)], [],
                                            START)
    assert await storage.tournaments.rounds(made.id) == before
    assert await _revision(storage, made.id) == made.revision


async def test_the_rounds_key_refuses_a_second_pairing_of_a_round(storage: Storage) -> None:
    """The schema itself, below the repository's check: round (tournament, number) once."""
    made = await paired(storage)
    with pytest.raises((sqlite3.IntegrityError, asyncpg.UniqueViolationError)):
        async with storage.db.transaction() as conn:
            await conn.execute("INSERT INTO tournament_rounds (tournament_id, number, "
                               "paired_at) VALUES ($1, 1, 0)", made.id)
    assert [r.number for r in await storage.tournaments.rounds(made.id)] == [1]


async def test_two_processes_pairing_the_same_round_store_one(target: str) -> None:
    first, second = await Storage.open(target), await Storage.open(target)
    try:
        made = await started(first, swiss(), range(11, 15))
        results = await asyncio.gather(
            first.tournaments.add_round(made.id, made.revision, 1,
                                        [(1, 11, 12), (2, 13, 14)], [], START),
            second.tournaments.add_round(made.id, made.revision, 1,
                                         [(1, 11, 13), (2, 12, 14)], [], START),
            return_exceptions=True)
        winners = [r for r in results if not isinstance(r, BaseException)]
        losers = [r for r in results if isinstance(r, BaseException)]
        assert len(winners) == 1 and len(losers) == 1
        assert isinstance(losers[0], StaleTournamentError)
        assert await second.tournaments.rounds(made.id) == winners
        assert await _revision(first, made.id) == made.revision + 1
    finally:
        await first.close()
        await second.close()


@pytest.mark.parametrize(("pairings", "byes", "message"), [
    ([(1, 11, 12), (2, 12, 13)], [], "at most once"),
    ([(1, 11, 11)], [], "at most once"),
    ([(1, 11, 12)], [(12, "U")], "at most once"),
    ([(1, 11, 12), (1, 13, 14)], [], "boards"),
    ([(0, 11, 12)], [], "boards"),
    ([(1, 11, 99)], [], "active entrants"),
    ([(1, 11, 12)], [(99, "Z")], "entrants"),
    ([(1, 11, 12)], [(13, "X")], "bye kind"),
])
async def test_a_round_that_cannot_be_stored_is_a_value_error(
    storage: Storage, pairings: list[tuple[int, int, int]], byes: list[tuple[int, str]],
    message: str,
) -> None:
    made = await started(storage, swiss(), range(11, 15))
    with pytest.raises(ValueError, match=message):
        await storage.tournaments.add_round(made.id, made.revision, 1, pairings, byes, START)
    with pytest.raises(ValueError, match="from 1"):
        await storage.tournaments.add_round(made.id, made.revision, 0, [], [], START)
    assert await storage.tournaments.rounds(made.id) == []


async def test_a_player_who_left_is_paired_no_more_but_may_get_a_zero_bye(
    storage: Storage,
) -> None:
    made = await started(storage, swiss(), range(11, 15))
    await storage.tournaments.leave(made.id, 14)
    revision = await _revision(storage, made.id)
    with pytest.raises(ValueError, match=r"active entrants.*14"):
        await storage.tournaments.add_round(made.id, revision, 1, [(1, 13, 14)], [], START)
    stored = await storage.tournaments.add_round(made.id, revision, 1, [(1, 11, 12)],
                                                 [(13, "U"), (14, "Z")], START)
    assert [(b.user_id, b.kind) for b in stored.byes] == [(13, "U"), (14, "Z")]


async def test_no_round_is_paired_unless_running(storage: Storage) -> None:
    made = await started(storage, arena())
    paused = await storage.tournaments.set_status(made.id, made.revision,
                                                  TournamentStatus.PAUSED, START)
    with pytest.raises(StaleTournamentError, match="paused"):
        await storage.tournaments.add_round(made.id, paused.revision, 1, [(1, 11, 12)], [],
                                            START)
    signup = await storage.tournaments.create(swiss(channel=70))
    with pytest.raises(StaleTournamentError, match="signup"):
        await storage.tournaments.add_round(signup.id, signup.revision, 1, [], [], START)


async def test_finish_round_keeps_the_first_time_and_messages_are_recorded(
    storage: Storage,
) -> None:
    made = await paired(storage)
    done = await storage.tournaments.finish_round(made.id, 1, START + timedelta(hours=1))
    assert done.finished_at == START + timedelta(hours=1) and len(done.pairings) == 2
    assert await _revision(storage, made.id) == made.revision + 1
    again = await storage.tournaments.finish_round(made.id, 1, START + timedelta(hours=2))
    assert again.finished_at == START + timedelta(hours=1)
    assert await _revision(storage, made.id) == made.revision + 1  # nothing changed
    await storage.tournaments.set_round_messages(made.id, 1, pairings_message_id=801)
    await storage.tournaments.set_round_messages(made.id, 1, results_message_id=802)
    (round_one,) = await storage.tournaments.rounds(made.id)
    assert (round_one.pairings_message_id, round_one.results_message_id) == (801, 802)
    with pytest.raises(PairingNotFoundError):
        await storage.tournaments.finish_round(made.id, 2, START)
    with pytest.raises(PairingNotFoundError):
        await storage.tournaments.set_round_messages(made.id, 2, results_message_id=1)


# --- a pairing's game ----------------------------------------------------------------


async def test_a_pairings_game_is_stored_and_linked_together(storage: Storage) -> None:
    made = await paired(storage)
    await storage.tournaments.set_pairing_thread(made.id, 1, 1, 900)
    game = await storage.tournaments.start_pairing_game(made.id, 1, 1, game_of(11, 12, 900))
    assert (game.status, game.channel_id, game.white.user_id, game.black.user_id) == (
        GameStatus.ACTIVE, 900, 11, 12)
    (round_one,) = await storage.tournaments.rounds(made.id)
    board = round_one.pairings[0]
    assert (board.thread_id, board.game_id, board.game_status, board.result,
            board.ply_count, board.finished_at) == (900, game.id, GameStatus.ACTIVE, None, 0,
                                                    None)
    assert await storage.tournaments.by_game(game.id) == board
    assert await storage.tournaments.by_game(game.id + 1) is None
    assert await _revision(storage, made.id) == made.revision  # a pairing's own write


async def test_a_pairing_with_a_game_or_a_forfeit_gets_no_other_game(storage: Storage) -> None:
    made = await paired(storage)
    first = await storage.tournaments.start_pairing_game(made.id, 1, 1, game_of(11, 12, 900))
    with pytest.raises(PairingTakenError) as taken:
        await storage.tournaments.start_pairing_game(made.id, 1, 1, game_of(11, 12, 901))
    assert taken.value.game_id == first.id
    await storage.tournaments.set_forfeit(made.id, 1, 2, "+/-")
    with pytest.raises(PairingTakenError) as forfeited:
        await storage.tournaments.start_pairing_game(made.id, 1, 2, game_of(13, 14, 902))
    assert forfeited.value.forfeit == "+/-"
    assert isinstance(forfeited.value, StaleTournamentError)
    assert await storage.games.active_in_channel(901) is None
    assert await storage.games.active_in_channel(902) is None
    with pytest.raises(PairingNotFoundError):
        await storage.tournaments.start_pairing_game(made.id, 1, 3, game_of(11, 12, 903))
    with pytest.raises(PairingNotFoundError):
        await storage.tournaments.set_pairing_thread(made.id, 2, 1, 903)


async def test_a_refused_game_leaves_the_pairing_without_one(storage: Storage) -> None:
    made = await paired(storage)
    with pytest.raises(ValueError, match="White and Black"):
        await storage.tournaments.start_pairing_game(made.id, 1, 1, game_of(12, 11, 900))
    await storage.games.create(game_of(1, 2, 900))  # the thread already has a game
    with pytest.raises(ChannelBusyError):
        await storage.tournaments.start_pairing_game(made.id, 1, 1, game_of(11, 12, 900))
    (round_one,) = await storage.tournaments.rounds(made.id)
    assert round_one.pairings[0].game_id is None
    assert [g.white.user_id for g in await storage.games.active()] == [1]
    game = await storage.tournaments.start_pairing_game(made.id, 1, 1, game_of(11, 12, 901))
    assert (await storage.tournaments.rounds(made.id))[0].pairings[0].game_id == game.id


async def test_two_processes_starting_one_pairings_game_make_one(target: str) -> None:
    first, second = await Storage.open(target), await Storage.open(target)
    try:
        made = await paired(first)
        results = await asyncio.gather(
            first.tournaments.start_pairing_game(made.id, 1, 1, game_of(11, 12, 900)),
            second.tournaments.start_pairing_game(made.id, 1, 1, game_of(11, 12, 901)),
            return_exceptions=True)
        assert sorted(type(result).__name__ for result in results) == [
            "GameRecord", "PairingTakenError"]
        assert len(await first.games.active()) == 1
    finally:
        await first.close()
        await second.close()


async def test_the_pairing_reads_its_games_end(storage: Storage) -> None:
    made = await paired(storage)
    game = await storage.tournaments.start_pairing_game(made.id, 1, 1, game_of(11, 12, 900))
    await storage.games.append_move(game.id, ply=1, text="a2-a3")
    ended = await storage.games.finish(game.id, result=GameResult.BLACK_WINS,
                                       termination="resignation", unrated=True)
    pairing = await storage.tournaments.by_game(game.id)
    assert pairing is not None
    assert (pairing.game_status, pairing.result, pairing.ply_count, pairing.finished_at,
            pairing.termination, pairing.forfeit) == (
        GameStatus.FINISHED, GameResult.BLACK_WINS, 1, ended.finished_at, "resignation", None)
    assert (await storage.tournaments.rounds(made.id))[0].pairings[0] == pairing


async def test_a_forfeit_is_for_a_game_never_played(storage: Storage) -> None:
    made = await paired(storage)
    forfeited = await storage.tournaments.set_forfeit(made.id, 1, 2, "-/-")
    assert (forfeited.forfeit, forfeited.game_id) == ("-/-", None)
    assert await storage.tournaments.set_forfeit(made.id, 1, 2, "-/-") == forfeited
    with pytest.raises(PairingTakenError):
        await storage.tournaments.set_forfeit(made.id, 1, 2, "+/-")
    game = await storage.tournaments.start_pairing_game(made.id, 1, 1, game_of(11, 12, 900))
    with pytest.raises(PairingTakenError):  # under way
        await storage.tournaments.set_forfeit(made.id, 1, 1, "+/-")
    await storage.games.abort(game.id, termination="aborted")
    after_abort = await storage.tournaments.set_forfeit(made.id, 1, 1, "-/+")
    assert (after_abort.forfeit, after_abort.game_id, after_abort.game_status) == (
        "-/+", game.id, GameStatus.ABORTED)
    with pytest.raises(ValueError, match="forfeit"):
        await storage.tournaments.set_forfeit(made.id, 1, 1, "1-0")
    with pytest.raises(PairingNotFoundError):
        await storage.tournaments.set_forfeit(made.id, 1, 3, "+/-")


async def test_a_finished_game_takes_no_forfeit(storage: Storage) -> None:
    made = await paired(storage)
    game = await storage.tournaments.start_pairing_game(made.id, 1, 1, game_of(11, 12, 900))
    await storage.games.finish(game.id, result=GameResult.DRAW, termination="agreement",
                               unrated=True)
    with pytest.raises(PairingTakenError):
        await storage.tournaments.set_forfeit(made.id, 1, 1, "+/-")
    pairing = await storage.tournaments.by_game(game.id)
    assert pairing is not None and pairing.forfeit is None


# --- status --------------------------------------------------------------------------


async def test_pause_resume_and_finish(storage: Storage) -> None:
    made = await started(storage, arena())
    later = START + timedelta(minutes=3)
    paused = await storage.tournaments.set_status(made.id, made.revision,
                                                  TournamentStatus.PAUSED, later)
    assert (paused.status, paused.paused_at, paused.revision) == (
        TournamentStatus.PAUSED, later, made.revision + 1)
    moved = START + timedelta(minutes=15)
    resumed = await storage.tournaments.set_status(
        made.id, paused.revision, TournamentStatus.RUNNING, later, ends_at=moved)
    assert (resumed.status, resumed.paused_at, resumed.ends_at) == (
        TournamentStatus.RUNNING, None, moved)
    finished = await storage.tournaments.set_status(made.id, resumed.revision,
                                                    TournamentStatus.FINISHED, moved)
    assert (finished.status, finished.finished_at, finished.ends_at) == (
        TournamentStatus.FINISHED, moved, moved)


async def test_a_status_change_refuses_a_stale_revision_or_status(storage: Storage) -> None:
    made = await started(storage, arena())
    await storage.tournaments.set_thread(made.id, 5)  # moves the revision on
    with pytest.raises(StaleTournamentError, match="revision"):
        await storage.tournaments.set_status(made.id, made.revision, TournamentStatus.PAUSED,
                                             START)
    revision = made.revision + 1
    with pytest.raises(StaleTournamentError, match="running"):  # not paused
        await storage.tournaments.set_status(made.id, revision, TournamentStatus.RUNNING,
                                             START)
    with pytest.raises(ValueError, match="sign-up"):
        await storage.tournaments.set_status(made.id, revision, TournamentStatus.SIGNUP,
                                             START)
    cancelled = await storage.tournaments.set_status(made.id, revision,
                                                     TournamentStatus.CANCELLED, START)
    with pytest.raises(StaleTournamentError, match="cancelled"):
        await storage.tournaments.set_status(made.id, cancelled.revision,
                                             TournamentStatus.FINISHED, START)
    signup = await storage.tournaments.create(swiss(channel=70))
    with pytest.raises(StaleTournamentError, match="signup"):  # that is start()
        await storage.tournaments.set_status(signup.id, signup.revision,
                                             TournamentStatus.RUNNING, START)
    with pytest.raises(TournamentNotFoundError):
        await storage.tournaments.set_status(signup.id + 1, 0, TournamentStatus.PAUSED, START)


async def test_two_processes_changing_one_revision_change_it_once(target: str) -> None:
    first, second = await Storage.open(target), await Storage.open(target)
    try:
        made = await started(first, arena())
        results = await asyncio.gather(
            first.tournaments.set_status(made.id, made.revision, TournamentStatus.PAUSED,
                                         START),
            second.tournaments.set_status(made.id, made.revision, TournamentStatus.FINISHED,
                                          START),
            return_exceptions=True)
        assert sorted(type(result).__name__ for result in results) == [
            "StaleTournamentError", "TournamentRecord"]
        assert await _revision(first, made.id) == made.revision + 1
    finally:
        await first.close()
        await second.close()


# --- the ledger of posts -------------------------------------------------------------


async def test_a_post_is_claimed_once_and_its_message_recorded(storage: Storage) -> None:
    made = await storage.tournaments.create(swiss())
    claimed = await storage.tournaments.claim_post(made.id, "round", "3")
    assert (claimed.kind, claimed.key, claimed.message_id) == ("round", "3", None)
    assert await storage.tournaments.claim_post(made.id, "round", "3") == claimed
    recorded = await storage.tournaments.set_post_message(made.id, "round", "3", 850)
    assert recorded == replace(claimed, message_id=850)
    assert await storage.tournaments.claim_post(made.id, "round", "3") == recorded
    other = await storage.tournaments.claim_post(made.id, "round", "4")
    assert other.message_id is None
    with pytest.raises(TournamentPostNotFoundError):
        await storage.tournaments.set_post_message(made.id, "final", "", 851)
    with pytest.raises(TournamentNotFoundError):
        await storage.tournaments.claim_post(made.id + 1, "round", "1")
    with pytest.raises(ValueError, match="kind"):
        await storage.tournaments.claim_post(made.id, "", "1")
    assert await _revision(storage, made.id) == made.revision


async def test_a_status_change_claims_its_notice_in_the_same_transaction(
    storage: Storage,
) -> None:
    made = await started(storage, swiss())
    paused = await storage.tournaments.set_status(made.id, made.revision,
                                                  TournamentStatus.PAUSED, START,
                                                  claim=("paused", str(made.revision + 1)))
    assert paused.revision == made.revision + 1
    [claim] = await storage.tournaments.unrecorded_posts(made.id)
    assert (claim.kind, claim.key, claim.message_id) == ("paused", str(paused.revision), None)
    # A refused change claims nothing.
    with pytest.raises(StaleTournamentError):
        await storage.tournaments.set_status(made.id, made.revision, TournamentStatus.RUNNING,
                                             START, claim=("resumed", "x"))
    with pytest.raises(ValueError, match="kind"):
        await storage.tournaments.set_status(paused.id, paused.revision,
                                             TournamentStatus.RUNNING, START, claim=("", "1"))
    assert await storage.tournaments.unrecorded_posts(made.id) == [claim]
    assert await _revision(storage, made.id) == paused.revision
    await storage.tournaments.set_post_message(made.id, "paused", claim.key, 860)
    assert await storage.tournaments.unrecorded_posts(made.id) == []


async def test_a_removal_claims_its_notice_in_the_same_transaction(storage: Storage) -> None:
    made = await started(storage, swiss())
    await storage.tournaments.remove(made.id, 11, claim=("removed", "11"))
    [claim] = await storage.tournaments.unrecorded_posts(made.id)
    assert (claim.kind, claim.key, claim.message_id) == ("removed", "11", None)
    # Removed already: nothing changes, nothing more is claimed.
    await storage.tournaments.remove(made.id, 11, claim=("removed", "again"))
    assert await storage.tournaments.unrecorded_posts(made.id) == [claim]
    with pytest.raises(ValueError, match="kind"):
        await storage.tournaments.remove(made.id, 12, claim=("", "12"))
    assert {e.user_id for e in await storage.tournaments.entrants(made.id)
            if e.status is EntrantStatus.REMOVED} == {11}


async def test_a_tournament_owes_posts_while_a_claim_or_its_final_is_unrecorded(
    storage: Storage,
) -> None:
    running = await started(storage, swiss(channel=60))
    done = await started(storage, swiss(channel=61))
    done = await storage.tournaments.set_status(done.id, done.revision,
                                                TournamentStatus.FINISHED, START)
    assert [t.id for t in await storage.tournaments.posts_owed()] == [done.id]  # no claim
    await storage.tournaments.claim_post(done.id, FINAL_POST, "")
    assert [t.id for t in await storage.tournaments.posts_owed()] == [done.id]  # claimed
    await storage.tournaments.set_post_message(done.id, FINAL_POST, "", 871)
    assert await storage.tournaments.posts_owed() == []
    # Any unrecorded claim, whatever the status (a cancelled tournament's notice too).
    gone = await storage.tournaments.create(swiss(channel=62))
    await storage.tournaments.set_status(gone.id, gone.revision, TournamentStatus.CANCELLED,
                                         START, claim=("cancelled", "organiser"))
    await storage.tournaments.claim_post(running.id, "pairings", "1")
    assert [t.id for t in await storage.tournaments.posts_owed()] == [running.id, gone.id]
    await storage.tournaments.set_post_message(gone.id, "cancelled", "organiser", 872)
    await storage.tournaments.set_post_message(running.id, "pairings", "1", 873)
    assert await storage.tournaments.posts_owed() == []
