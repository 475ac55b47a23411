"""GameRepository on a real SQLite file: create, load, list, moves, clocks, finish, abort."""

from __future__ import annotations

import sqlite3
from dataclasses import replace
from datetime import timedelta

import asyncpg
import pytest

from bot.ratings.calculator import glicko2_calculator
from bot.ratings.glicko2 import Glicko2Rating, rate_game
from storage import (
    ChannelBusyError,
    ClockState,
    GameNotActiveError,
    GameNotFoundError,
    GameProgress,
    GameRecord,
    GameResult,
    GameStatus,
    NewGame,
    PlaceKind,
    Rating,
    RatingUpdate,
    RatingValue,
    Seat,
    Side,
    StaleMoveError,
    Storage,
    TimeControl,
)
from tests.support.clock import START, FakeClock

FEN = "W:Wa2,b2:Ba7,b7"


def new_game(channel: int = 100, white: int = 1, black: int = 2, *, guild: int | None = 10,
             rated: bool = False, variant: str = "turkish") -> NewGame:
    return NewGame(variant=variant, channel_id=channel, guild_id=guild,
                   white=Seat.human(white), black=Seat.human(black), start_fen=FEN, rated=rated)


async def test_create_and_get(storage: Storage) -> None:
    game = await storage.games.create(NewGame(
        variant="italian", channel_id=5, guild_id=None, white=Seat.human(7),
        black=Seat.computer(3), start_fen=FEN, move_seconds=60,
        deadline=START + timedelta(minutes=1),
    ))
    assert game.id > 0
    assert (game.variant, game.channel_id, game.guild_id) == ("italian", 5, None)
    assert game.white == Seat(user_id=7) and game.black == Seat(computer_level=3)
    assert game.black.is_computer and not game.white.is_computer
    assert game.status is GameStatus.ACTIVE and game.result is None and game.ply_count == 0
    assert game.move_seconds == 60 and game.start_fen == FEN and not game.rated
    assert game.clock == ClockState(START + timedelta(minutes=1), 0, 0)
    assert game.created_at == START and game.finished_at is None
    assert game.white_rating is None and game.black_rating is None
    assert await storage.games.get(game.id) == game
    assert await storage.games.get(game.id + 1) is None
    assert game.side_of(7) is Side.WHITE and game.side_of(8) is None
    player = await storage.players.get(7)
    assert player is not None and player.display_name is None


async def test_a_game_keeps_its_place(storage: Storage) -> None:
    there = await storage.games.create(replace(new_game(channel=1, guild=None),
                                               place=PlaceKind.INTERACTIONS))
    here = await storage.games.create(new_game(channel=2))
    assert there.place is PlaceKind.INTERACTIONS and here.place is PlaceKind.CHANNEL
    assert await storage.games.get(there.id) == there
    assert [g.place for g in await storage.games.active()] == [PlaceKind.INTERACTIONS,
                                                              PlaceKind.CHANNEL]


async def test_one_active_game_per_channel(storage: Storage) -> None:
    first = await storage.games.create(new_game(channel=1))
    with pytest.raises(ChannelBusyError, match="already has an active game"):
        await storage.games.create(new_game(channel=1, white=3, black=4))
    await storage.games.abort(first.id, termination="abandoned")
    second = await storage.games.create(new_game(channel=1, white=3, black=4))
    assert await storage.games.active_in_channel(1) == second


@pytest.mark.parametrize(("white", "black", "message"), [
    (Seat.human(1), Seat.computer(2), "computer"),
    (Seat.human(1), Seat.human(1), "oneself"),
])
async def test_rated_game_needs_two_different_humans(
    storage: Storage, white: Seat, black: Seat, message: str
) -> None:
    with pytest.raises(ValueError, match=message):
        await storage.games.create(NewGame("turkish", 1, 1, white, black, FEN, rated=True))


def test_seat_is_user_or_computer() -> None:
    with pytest.raises(ValueError):
        Seat()
    with pytest.raises(ValueError):
        Seat(user_id=1, computer_level=1)


async def test_bad_new_game_values(storage: Storage) -> None:
    with pytest.raises(ValueError, match="move time"):
        await storage.games.create(NewGame("turkish", 1, 1, Seat.human(1), Seat.human(2), FEN,
                                           move_seconds=0))
    with pytest.raises(ValueError, match="start position"):
        await storage.games.create(NewGame("turkish", 1, 1, Seat.human(1), Seat.human(2), ""))


async def test_list_active(storage: Storage) -> None:
    a = await storage.games.create(new_game(channel=1, white=1, black=2))
    b = await storage.games.create(new_game(channel=2, white=3, black=1))
    c = await storage.games.create(new_game(channel=3, white=4, black=5))
    await storage.games.abort(c.id, termination="abandoned")
    assert [g.id for g in await storage.games.active()] == [a.id, b.id]
    assert [g.id for g in await storage.games.active_for_user(1)] == [a.id, b.id]
    assert [g.id for g in await storage.games.active_for_user(3)] == [b.id]
    assert await storage.games.active_for_user(4) == []
    assert (await storage.games.active_in_channel(2)) == await storage.games.get(b.id)
    assert await storage.games.active_in_channel(3) is None


async def test_a_players_active_games_come_from_every_server_and_direct_messages(
    storage: Storage,
) -> None:
    """`active_for_user` (what /games reads): the player's active games in any server or
    direct message, either side, oldest first, with their board message and deadline;
    nobody else's, no finished one."""
    deadline = START + timedelta(days=2)
    in_one = await storage.games.create(new_game(channel=11, white=1, black=2, guild=10))
    in_dm = await storage.games.create(NewGame(
        variant="turkish", channel_id=12, guild_id=None, white=Seat.human(3),
        black=Seat.human(1), start_fen=FEN, move_seconds=2 * 86400, deadline=deadline))
    in_other = await storage.games.create(new_game(channel=13, white=1, black=4, guild=20))
    await storage.games.create(new_game(channel=14, white=2, black=3, guild=10))
    ended = await storage.games.create(new_game(channel=15, white=1, black=5, guild=30))
    await storage.games.finish(ended.id, result=GameResult.DRAW, termination="agreement")
    await storage.games.set_board_message(in_dm.id, 999)
    found = await storage.games.active_for_user(1)
    assert [g.id for g in found] == [in_one.id, in_dm.id, in_other.id]
    assert [g.guild_id for g in found] == [10, None, 20]
    assert found[1].board_message_id == 999 and found[1].clock.deadline == deadline
    assert found[1].move_seconds == 2 * 86400


async def test_last_activity_is_each_active_games_last_move_or_its_creation(
    storage: Storage, clock: FakeClock
) -> None:
    moved = await storage.games.create(new_game(channel=1))
    waiting = await storage.games.create(new_game(channel=2, white=3, black=4))
    ended = await storage.games.create(new_game(channel=3, white=5, black=6))
    await storage.games.append_move(moved.id, ply=1, text="d3-d4")
    clock.advance(timedelta(minutes=5))
    last = await storage.games.append_move(moved.id, ply=2, text="a6-a5")
    await storage.games.abort(ended.id, termination="abandoned")
    assert await storage.games.last_activity() == {
        moved.id: last.played_at, waiting.id: waiting.created_at,
    }
    assert await storage.games.last_activity(4) == {waiting.id: waiting.created_at}
    assert await storage.games.last_activity(5) == {}


async def test_append_moves_and_load(storage: Storage, clock: FakeClock) -> None:
    game = await storage.games.create(new_game())
    clock.advance(timedelta(seconds=5))
    first = await storage.games.append_move(game.id, ply=1, text="d3-d4")
    second = await storage.games.append_move(game.id, ply=2, text="a6-a5", by_computer=True)
    assert (first.ply, first.text, first.by_computer) == (1, "d3-d4", False)
    assert second.by_computer and second.played_at > first.played_at
    loaded, moves = await storage.games.load(game.id)
    assert loaded.ply_count == 2 and loaded.updated_at == second.played_at
    assert moves == [first, second]
    assert await storage.games.load(game.id, after=1) == (loaded, [second])
    assert await storage.games.load(game.id, after=2) == (loaded, [])
    assert await storage.games.moves(game.id) == [first, second]
    with pytest.raises(GameNotFoundError):
        await storage.games.load(999)


async def test_progress_is_each_asked_games_plies_and_status(storage: Storage) -> None:
    moving = await storage.games.create(new_game(channel=1))
    ended = await storage.games.create(new_game(channel=2))
    untouched = await storage.games.create(new_game(channel=3))
    await storage.games.append_move(moving.id, ply=1, text="d3-d4")
    await storage.games.append_move(moving.id, ply=2, text="a6-a5")
    await storage.games.append_move(ended.id, ply=1, text="d3-d4")
    await storage.games.abort(ended.id, termination="abandoned")
    assert await storage.games.progress([moving.id, ended.id, 999]) == {
        moving.id: GameProgress(2, GameStatus.ACTIVE),
        ended.id: GameProgress(1, GameStatus.ABORTED),
    }
    assert await storage.games.progress([untouched.id]) == {
        untouched.id: GameProgress(0, GameStatus.ACTIVE)}
    assert await storage.games.progress([]) == {}


async def test_progress_reads_more_games_than_one_statement_binds(storage: Storage) -> None:
    game = await storage.games.create(new_game())
    asked = [game.id, *range(10_000, 10_000 + 1_200)]
    assert await storage.games.progress(asked) == {game.id: GameProgress(0, GameStatus.ACTIVE)}


async def test_stale_and_future_plies_rejected(storage: Storage) -> None:
    game = await storage.games.create(new_game())
    await storage.games.append_move(game.id, ply=1, text="d3-d4")
    with pytest.raises(StaleMoveError) as stale:
        await storage.games.append_move(game.id, ply=1, text="e3-e4")  # the double click
    assert (stale.value.expected_ply, stale.value.given_ply) == (2, 1)
    with pytest.raises(StaleMoveError):
        await storage.games.append_move(game.id, ply=3, text="e3-e4")  # a gap
    moves = await storage.games.moves(game.id)
    assert [m.text for m in moves] == ["d3-d4"]
    assert (await storage.games.get(game.id)).ply_count == 1  # type: ignore[union-attr]


async def test_append_to_missing_or_ended_game(storage: Storage) -> None:
    with pytest.raises(GameNotFoundError):
        await storage.games.append_move(12345, ply=1, text="d3-d4")
    game = await storage.games.create(new_game())
    await storage.games.finish(game.id, result=GameResult.DRAW, termination="agreement")
    with pytest.raises(GameNotActiveError, match="finished"):
        await storage.games.append_move(game.id, ply=1, text="d3-d4")
    with pytest.raises(ValueError, match="notation"):
        await storage.games.append_move(game.id, ply=1, text="  ")


async def _refusal(storage: Storage, sql: str, *params: int) -> str:
    """The message of the constraint that refuses `sql` (a test failure if none does)."""
    try:
        async with storage.db.transaction() as conn:
            await conn.execute(sql, *params)
    except (sqlite3.DatabaseError, asyncpg.PostgresError) as error:
        return str(error)
    raise AssertionError(f"not refused: {sql}")


async def test_moves_are_append_only(storage: Storage) -> None:
    game = await storage.games.create(new_game())
    await storage.games.append_move(game.id, ply=1, text="d3-d4")
    assert "append-only" in await _refusal(storage, "UPDATE moves SET text = 'x'")
    assert "append-only" in await _refusal(storage, "DELETE FROM moves")
    assert "ply order" in await _refusal(
        storage, "INSERT INTO moves (game_id, ply, text, played_at, by_computer) "
            "VALUES ($1, 1, 'e3-e4', 0, FALSE)", game.id)
    assert [move.text for move in await storage.games.moves(game.id)] == ["d3-d4"]


async def test_clock_and_draw_offer(storage: Storage) -> None:
    game = await storage.games.create(new_game())
    deadline = START + timedelta(hours=1)
    await storage.games.set_draw_offer(game.id, Side.BLACK)
    await storage.games.set_clock(game.id, ClockState(deadline, 1, 0))
    got = await storage.games.get(game.id)
    assert got is not None and got.draw_offer_by is Side.BLACK
    assert got.clock == ClockState(deadline, 1, 0)
    later = deadline + timedelta(minutes=1)
    await storage.games.append_move(game.id, ply=1, text="d3-d4", by_computer=True,
                                    clock=ClockState(later, 2, 0), clear_draw_offer=True)
    got = await storage.games.get(game.id)
    assert got is not None and got.draw_offer_by is None and got.clock == ClockState(later, 2, 0)
    await storage.games.append_move(game.id, ply=2, text="a6-a5")  # clock untouched
    got = await storage.games.get(game.id)
    assert got is not None and got.clock == ClockState(later, 2, 0)
    with pytest.raises(ValueError):
        await storage.games.set_clock(game.id, ClockState(None, -1, 0))
    with pytest.raises(GameNotFoundError):
        await storage.games.set_draw_offer(999, None)


async def test_due_games(storage: Storage) -> None:
    early = await storage.games.create(new_game(channel=1))
    late = await storage.games.create(new_game(channel=2))
    await storage.games.create(new_game(channel=3))  # no deadline
    await storage.games.set_clock(early.id, ClockState(START + timedelta(minutes=1)))
    await storage.games.set_clock(late.id, ClockState(START + timedelta(minutes=2)))
    assert await storage.games.due(START) == []
    due = await storage.games.due(START + timedelta(minutes=1))
    assert [g.id for g in due] == [early.id]
    due = await storage.games.due(START + timedelta(hours=1))
    assert [g.id for g in due] == [early.id, late.id]


async def test_deadline_survives_reopen(target: str, clock: FakeClock) -> None:
    store = await Storage.open(target, clock=clock)
    game = await store.games.create(new_game())
    deadline = START + timedelta(seconds=90)
    await store.games.append_move(game.id, ply=1, text="d3-d4", clock=ClockState(deadline, 0, 1))
    await store.close()
    store = await Storage.open(target, clock=clock)
    try:
        reloaded = await store.games.get(game.id)
        assert reloaded is not None and reloaded.clock == ClockState(deadline, 0, 1)
    finally:
        await store.close()


async def test_board_message(storage: Storage) -> None:
    game = await storage.games.create(new_game())
    await storage.games.set_board_message(game.id, 555)
    assert (await storage.games.get(game.id)).board_message_id == 555  # type: ignore[union-attr]
    with pytest.raises(GameNotFoundError):
        await storage.games.set_board_message(999, 1)


async def test_finish_unrated(storage: Storage, clock: FakeClock) -> None:
    game = await storage.games.create(new_game())
    clock.advance(timedelta(minutes=3))
    done = await storage.games.finish(game.id, result=GameResult.BLACK_WINS,
                                      termination="NO_LEGAL_MOVE")
    assert done.status is GameStatus.FINISHED and done.result is GameResult.BLACK_WINS
    assert done.termination == "NO_LEGAL_MOVE" and done.finished_at is not None
    assert done.finished_at >= START + timedelta(minutes=3)
    assert done.white_rating is None
    assert await storage.ratings.get(1, "turkish") is None
    with pytest.raises(GameNotActiveError):
        await storage.games.finish(game.id, result=GameResult.DRAW, termination="again")
    with pytest.raises(GameNotActiveError):
        await storage.games.abort(game.id, termination="again")


async def test_finish_rated_game_left_unrated(storage: Storage) -> None:
    # The bot's early-results rule: a rated game's result kept, no rating touched.
    game = await storage.games.create(new_game(rated=True))
    with pytest.raises(ValueError, match="calculator"):
        await storage.games.finish(game.id, result=GameResult.WHITE_WINS,
                                   termination="RESIGNATION")
    done = await storage.games.finish(game.id, result=GameResult.WHITE_WINS,
                                      termination="RESIGNATION", unrated=True)
    assert done.status is GameStatus.FINISHED and done.result is GameResult.WHITE_WINS
    assert done.rated and done.white_rating is None and done.black_rating is None
    assert await storage.ratings.get(1, "turkish") is None
    assert await storage.ratings.get(2, "turkish") is None


async def test_finish_rated_applies_both_ratings(storage: Storage, clock: FakeClock) -> None:
    game = await storage.games.create(new_game(rated=True))
    done = await storage.games.finish(
        game.id, result=GameResult.WHITE_WINS, termination="RESIGNATION",
        rate=glicko2_calculator(GameResult.WHITE_WINS, clock.now),
    )
    white_expected, black_expected = rate_game(
        Glicko2Rating.initial(), Glicko2Rating.initial(), 1.0)
    assert done.white_rating is not None and done.black_rating is not None
    assert done.white_rating.rating_before == 1500 and done.white_rating.deviation_before == 500
    assert done.white_rating.rating_after == pytest.approx(white_expected.after.rating)
    assert done.black_rating.rating_after == pytest.approx(black_expected.after.rating)
    assert done.white_rating.delta > 0 > done.black_rating.delta
    white = await storage.ratings.get(1, "turkish")
    black = await storage.ratings.get(2, "turkish")
    assert white is not None and black is not None
    assert (white.rated_games, white.wins, white.losses, white.draws) == (1, 1, 0, 0)
    assert (black.rated_games, black.wins, black.losses, black.draws) == (1, 0, 1, 0)
    assert white.rating == pytest.approx(white_expected.after.rating)
    assert white.volatility == pytest.approx(white_expected.after.volatility)
    assert white.last_rated_at == done.finished_at
    # A second game: the stored ratings go in, the counters add up.
    second = await storage.games.create(new_game(rated=True, white=2, black=1))
    await storage.games.finish(second.id, result=GameResult.DRAW, termination="AGREEMENT",
                               rate=glicko2_calculator(GameResult.DRAW, clock.now))
    black_now = await storage.ratings.get(2, "turkish")
    assert black_now is not None
    assert (black_now.rated_games, black_now.wins, black_now.losses, black_now.draws) == (
        2, 0, 1, 1)
    assert await storage.ratings.get(1, "italian") is None


async def test_finish_is_one_transaction(storage: Storage) -> None:
    """If the rating step fails, the game stays active and no rating is written."""
    game = await storage.games.create(new_game(rated=True))

    def broken(white: Rating | None, black: Rating | None) -> tuple[RatingUpdate, RatingUpdate]:
        raise ZeroDivisionError("calculator bug")

    with pytest.raises(ZeroDivisionError):
        await storage.games.finish(game.id, result=GameResult.WHITE_WINS,
                                   termination="RESIGNATION", rate=broken)

    def impossible(white: Rating | None, black: Rating | None
                   ) -> tuple[RatingUpdate, RatingUpdate]:
        ok = RatingValue(1500, 300, 0.09)
        return RatingUpdate(ok, ok), RatingUpdate(ok, RatingValue(1500, -1, 0.09))

    with pytest.raises(ValueError, match="impossible"):
        await storage.games.finish(game.id, result=GameResult.WHITE_WINS,
                                   termination="RESIGNATION", rate=impossible)
    still = await storage.games.get(game.id)
    assert still is not None and still.status is GameStatus.ACTIVE
    assert await storage.ratings.get(1, "turkish") is None
    assert await storage.ratings.get(2, "turkish") is None
    with pytest.raises(ValueError, match="calculator"):
        await storage.games.finish(game.id, result=GameResult.WHITE_WINS, termination="x")


async def test_final_move_and_the_games_end_are_one_step(
    storage: Storage, clock: FakeClock
) -> None:
    game = await storage.games.create(new_game(rated=True))
    await storage.games.append_move(game.id, ply=1, text="a2-a3")
    move, done = await storage.games.append_final_move(
        game.id, ply=2, text="a7-a6", result=GameResult.BLACK_WINS,
        termination="no_legal_move", rate=glicko2_calculator(GameResult.BLACK_WINS, clock.now),
        clock=ClockState(None, 0, 0),
    )
    assert (move.ply, move.text) == (2, "a7-a6")
    assert done.status is GameStatus.FINISHED and done.result is GameResult.BLACK_WINS
    assert done.termination == "no_legal_move" and done.ply_count == 2
    assert [m.text for m in await storage.games.moves(game.id)] == ["a2-a3", "a7-a6"]
    _, black_expected = rate_game(Glicko2Rating.initial(), Glicko2Rating.initial(), 0.0)
    black = await storage.ratings.get(2, "turkish")
    assert black is not None and (black.rated_games, black.wins) == (1, 1)
    assert black.rating == pytest.approx(black_expected.after.rating)
    assert done.black_rating is not None
    assert done.black_rating.rating_after == pytest.approx(black_expected.after.rating)
    # The game is over: no move and no second end can follow.
    with pytest.raises(GameNotActiveError):
        await storage.games.append_final_move(
            game.id, ply=3, text="a3-a4", result=GameResult.WHITE_WINS,
            termination="no_pieces", rate=glicko2_calculator(GameResult.WHITE_WINS, clock.now),
        )
    again = await storage.ratings.get(2, "turkish")
    assert again is not None and again.rated_games == 1


async def test_a_failure_between_the_move_and_the_end_stores_neither(
    storage: Storage,
) -> None:
    """The rating step runs after the move is written, inside the same transaction: when
    it fails, neither the move nor the game's end nor any rating is stored."""
    game = await storage.games.create(new_game(rated=True))

    def broken(white: Rating | None, black: Rating | None) -> tuple[RatingUpdate, RatingUpdate]:
        raise ZeroDivisionError("calculator bug")

    with pytest.raises(ZeroDivisionError):
        await storage.games.append_final_move(
            game.id, ply=1, text="a2-a3", result=GameResult.WHITE_WINS,
            termination="no_pieces", rate=broken, clear_draw_offer=True,
        )
    still = await storage.games.get(game.id)
    assert still == game  # active, ply 0, nothing touched
    assert await storage.games.moves(game.id) == []
    assert await storage.ratings.get(1, "turkish") is None
    assert await storage.ratings.get(2, "turkish") is None
    # A wrong ply is refused before anything is written, as for any move.
    with pytest.raises(StaleMoveError):
        await storage.games.append_final_move(
            game.id, ply=2, text="a2-a3", result=GameResult.DRAW, termination="agreement",
            rate=broken,
        )
    with pytest.raises(ValueError):
        await storage.games.append_final_move(
            game.id, ply=1, text="a2-a3", result=GameResult.DRAW, termination="",
        )
    assert await storage.games.moves(game.id) == []


async def test_abort(storage: Storage) -> None:
    game = await storage.games.create(new_game(rated=True))
    aborted = await storage.games.abort(game.id, termination="aborted before the first move")
    assert aborted.status is GameStatus.ABORTED and aborted.result is None
    assert aborted.finished_at is not None
    assert await storage.ratings.get(1, "turkish") is None
    with pytest.raises(GameNotFoundError):
        await storage.games.abort(999, termination="x")


async def _finished(storage: Storage, channel: int, white: int, black: int,
                    variant: str = "turkish") -> GameRecord:
    game = await storage.games.create(new_game(channel=channel, white=white, black=black,
                                               variant=variant))
    return await storage.games.finish(game.id, result=GameResult.DRAW, termination="AGREEMENT")


async def test_recent_games(storage: Storage, clock: FakeClock) -> None:
    g1 = await _finished(storage, 1, 1, 2)
    clock.advance(timedelta(minutes=1))
    g2 = await _finished(storage, 2, 3, 1, variant="italian")
    clock.advance(timedelta(minutes=1))
    g3 = await _finished(storage, 3, 1, 4)
    aborted = await storage.games.create(new_game(channel=4, white=1, black=5))
    await storage.games.abort(aborted.id, termination="abandoned")
    await storage.games.create(new_game(channel=5, white=1, black=6))  # still active
    assert [g.id for g in await storage.games.recent_for_user(1)] == [g3.id, g2.id, g1.id]
    assert [g.id for g in await storage.games.recent_for_user(1, limit=2)] == [g3.id, g2.id]
    assert [g.id for g in await storage.games.recent_for_user(1, variant="italian")] == [g2.id]
    with_aborted = await storage.games.recent_for_user(1, include_aborted=True)
    assert [g.id for g in with_aborted] == [aborted.id, g3.id, g2.id, g1.id]
    assert await storage.games.recent_for_user(1, limit=0) == []
    assert await storage.games.recent_for_user(99) == []


async def test_naive_time_refused(storage: Storage) -> None:
    from datetime import datetime

    with pytest.raises(ValueError, match="timezone-aware"):
        await storage.games.due(datetime(2026, 1, 1))


async def test_the_first_owed_boards_oldest_change_first(
    storage: Storage, clock: FakeClock
) -> None:
    made = [await storage.games.create(new_game(channel=c, white=c, black=c + 100))
            for c in (1, 2, 3)]
    clock.advance(timedelta(seconds=1))
    await storage.games.append_move(made[0].id, ply=1, text="a2-a3")  # now the newest
    assert [g.id for g in await storage.games.owed_boards(2)] == [made[1].id, made[2].id]
    assert [g.id for g in await storage.games.owed_boards()] == [
        made[1].id, made[2].id, made[0].id]


async def test_the_owed_boards_of_one_kind_of_place(storage: Storage) -> None:
    here = await storage.games.create(new_game(channel=1))
    there = await storage.games.create(replace(new_game(channel=2, guild=None),
                                               place=PlaceKind.INTERACTIONS))
    assert [g.id for g in await storage.games.owed_boards()] == [here.id, there.id]
    assert [g.id for g in await storage.games.owed_boards(place=PlaceKind.CHANNEL)] == [
        here.id]
    assert [g.id for g in await storage.games.owed_boards(
        1, place=PlaceKind.INTERACTIONS)] == [there.id]


async def test_each_step_owes_its_board_until_its_message_is_recorded(
    storage: Storage,
) -> None:
    # The step's own transaction records the debt (docs/ARCHITECTURE.md, "Recovery"):
    # a new game, a move, the move that ends a game, an end, an abort.
    games = storage.games
    game = await games.create(new_game())
    assert game.board_owed and [g.id for g in await games.owed_boards()] == [game.id]
    await games.set_board_message(game.id, 501)
    stored = await games.get(game.id)
    assert stored is not None and not stored.board_owed and stored.board_message_id == 501
    assert await games.owed_boards() == []

    await games.append_move(game.id, ply=1, text="a2-a3")
    stored = await games.get(game.id)
    assert stored is not None and stored.board_owed and stored.board_message_id == 501
    await games.settle_board(game.id)  # told without a board message
    stored = await games.get(game.id)
    assert stored is not None and not stored.board_owed and stored.board_message_id == 501

    ended = await games.finish(game.id, result=GameResult.DRAW, termination="agreement")
    assert ended.board_owed and [g.id for g in await games.owed_boards()] == [game.id]

    other = await games.create(new_game(channel=101))
    await games.set_board_message(other.id, 502)
    _, final = await games.append_final_move(other.id, ply=1, text="a2-a3",
                                             result=GameResult.WHITE_WINS,
                                             termination="no_pieces")
    assert final.board_owed
    third = await games.create(new_game(channel=102))
    await games.set_board_message(third.id, 503)
    assert (await games.abort(third.id, termination="aborted")).board_owed
    assert {g.id for g in await games.owed_boards()} == {game.id, other.id, third.id}
    with pytest.raises(GameNotFoundError):
        await games.settle_board(third.id + 100)


async def test_a_refused_step_owes_nothing(storage: Storage) -> None:
    games = storage.games
    game = await games.create(new_game())
    await games.set_board_message(game.id, 501)
    with pytest.raises(StaleMoveError):
        await games.append_move(game.id, ply=2, text="a2-a3")
    stored = await games.get(game.id)
    assert stored is not None and not stored.board_owed


async def test_a_draw_offer_owes_its_announcement(storage: Storage) -> None:
    # A draw offer is a step its channel is owed, like a move (docs/ARCHITECTURE.md,
    # "Recovery"): told by its text (settled) or, after a crash, by an owed board.
    games = storage.games
    game = await games.create(new_game())
    await games.set_board_message(game.id, 501)
    await games.set_draw_offer(game.id, Side.WHITE)
    stored = await games.get(game.id)
    assert stored is not None and stored.board_owed and stored.draw_offer_by is Side.WHITE
    assert [g.id for g in await games.owed_boards()] == [game.id]
    await games.settle_board(game.id)
    stored = await games.get(game.id)
    assert stored is not None and not stored.board_owed and stored.board_message_id == 501


async def test_a_games_clocks_are_stored_with_the_game_and_each_move(
    storage: Storage, clock: FakeClock
) -> None:
    control = TimeControl(300, 3)
    game = await storage.games.create(NewGame(
        variant="turkish", channel_id=5, guild_id=None, white=Seat.human(7),
        black=Seat.human(8), start_fen=FEN, time_control=control,
        deadline=START + timedelta(minutes=5),
    ))
    five = timedelta(minutes=5)
    assert game.time_control == control and game.move_seconds is None
    assert game.clock == ClockState(START + five, 0, 0, five, five)
    after = ClockState(START + timedelta(seconds=10) + five, 0, 0,
                       timedelta(seconds=293, milliseconds=250), five)
    clock.advance(timedelta(seconds=10))
    move = await storage.games.append_move(game.id, ply=1, text="a3-a4", clock=after)
    assert (move.white_left, move.black_left) == (after.white_left, after.black_left)
    final = ClockState(None, 0, 0, after.white_left, timedelta(seconds=290))
    stored_final, ended = await storage.games.append_final_move(
        game.id, ply=2, text="a6-a5", clock=final, result=GameResult.WHITE_WINS,
        termination="no-pieces",
    )
    assert ended.time_control == control
    assert await storage.games.moves(game.id) == [move, stored_final]
    assert stored_final.black_left == timedelta(seconds=290)
    stored = await storage.games.get(game.id)
    assert stored is not None and stored.clock.black_left == timedelta(seconds=290)


async def test_a_game_has_a_per_move_time_or_a_clock_not_both(storage: Storage) -> None:
    with pytest.raises(ValueError, match="not both"):
        await storage.games.create(NewGame(
            variant="turkish", channel_id=5, guild_id=None, white=Seat.human(7),
            black=Seat.human(8), start_fen=FEN, move_seconds=40,
            time_control=TimeControl(300, 3),
        ))
