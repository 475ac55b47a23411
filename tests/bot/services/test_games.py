"""Game flow through the services on a real SQLite file: whole games in every variant,
moves and their refusals, resign, draw offers, abort, deadlines, restart."""

from __future__ import annotations

import asyncio
import sqlite3
from datetime import timedelta
from pathlib import Path

import pytest

import engine
from bot.computer_queue import Admission
from bot.messages import Msg
from bot.services import (
    BoardRef,
    EndReason,
    Event,
    GameRules,
    GameUpdate,
    PlayerError,
    StaleBoardError,
    TurnChanged,
)
from bot.services.computer_turns import Strength
from engine.pdn import read_pdn
from storage import Cause, GameResult, GameStatus, NewGame, Seat, Storage, StorageWriteError
from tests.support.clock import FakeClock
from tests.support.services import (
    ALICE,
    BOB,
    CAROL,
    CHANNEL,
    GUILD,
    OpenServices,
    Services,
    start_game,
)

DATA = Path(__file__).resolve().parents[2] / "data" / "italian-assoluto-2005-rounds-1-3.pdn"

# One capture that takes Black's last piece: White wins by NO_PIECES (engine-checked
# by hand: the only legal move of the Turkish/Arab position is d4xd6, of the diagonal
# ones d3xf5).
FORCED = {
    "turkish": ("W:Wd4,a2:Bd5", "d4xd6"),
    "arab": ("W:Wd4,a2:Bd5", "d4xd6"),
    "moroccan": ("W:Wd3,h1:Be4", "d3xf5"),
    "italian": ("W:Wd3,h1:Be4", "d3xf5"),
}


def error_key(info: pytest.ExceptionInfo[PlayerError]) -> Msg:
    return info.value.key


@pytest.mark.parametrize("variant", sorted(FORCED))
async def test_forced_win_in_every_variant_updates_ratings_once(
    open_services: OpenServices, variant: str
) -> None:
    clock = FakeClock()
    s = await open_services(clock=clock)
    fen, move = FORCED[variant]
    record = await start_game(s, variant, fen)
    update = await s.games.play(CHANNEL, ALICE, move)
    assert update.event is Event.ENDED
    assert update.state.ending is not None
    assert update.state.ending.reason is EndReason.NO_PIECES
    assert update.state.ending.result is GameResult.WHITE_WINS
    assert update.move_text == move
    stored = await s.storage.games.get(record.id)
    assert stored is not None and stored.status is GameStatus.FINISHED
    assert stored.termination == "no_pieces"
    white = await s.storage.ratings.get(ALICE, variant)
    black = await s.storage.ratings.get(BOB, variant)
    assert white is not None and black is not None
    assert (white.rated_games, white.wins, black.rated_games, black.losses) == (1, 1, 1, 1)
    assert white.rating > 1500 > black.rating
    assert update.state.white.change is not None and update.state.white.change.delta > 0
    # The game is gone from the channel; nothing more can be played or counted twice.
    with pytest.raises(PlayerError) as info:
        await s.games.play(CHANNEL, BOB, "a1-a2")
    assert error_key(info) is Msg.GAME_ENDED_HERE
    assert info.value.params["game_id"] == record.id
    white_again = await s.storage.ratings.get(ALICE, variant)
    assert white_again is not None and white_again.rated_games == 1


async def test_real_italian_game_from_the_start_then_resignation(
    open_services: OpenServices,
) -> None:
    """Game 1 of the Italian championship file, move by move, then the loser resigns."""
    record_game = read_pdn(DATA.read_text(encoding="utf-8"), variant="italian")[0]
    clock = FakeClock()
    s = await open_services(clock=clock)
    await start_game(s, "italian")
    replay = engine.Game(record_game.variant)
    for move in record_game.game.moves:
        text = engine.format_move(move, replay.position, replay.variant)
        player = ALICE if replay.position.turn is engine.Color.WHITE else BOB
        update = await s.games.play(CHANNEL, player, text)
        replay.play(move)
        clock.advance(timedelta(seconds=5))
        assert update.state.position == replay.position
        if update.event is Event.ENDED:
            break
    else:
        result = record_game.result
        loser = BOB if result.token == "1-0" else ALICE
        if result.token == "1/2-1/2":
            await s.games.draw(CHANNEL, ALICE)
            update = await s.games.draw(CHANNEL, BOB)
            assert update.state.ending is not None
            assert update.state.ending.reason is EndReason.AGREEMENT
        else:
            update = await s.games.resign(CHANNEL, loser)
            assert update.state.ending is not None
            assert update.state.ending.reason is EndReason.RESIGNATION
            assert update.state.ending.result is GameResult(result.token)
    stored_moves = await s.storage.games.moves(update.state.game_id)
    assert len(stored_moves) == len(record_game.game.moves)


async def test_move_refusals_say_why_and_change_nothing(open_services: OpenServices) -> None:
    clock = FakeClock()
    s = await open_services(clock=clock)
    with pytest.raises(PlayerError) as info:
        await s.games.play(CHANNEL, ALICE, "d3-d4")
    assert error_key(info) is Msg.NO_GAME_HERE
    record = await start_game(s, "turkish")
    cases = [
        (BOB, "a6-a5", Msg.NOT_YOUR_TURN),
        (CAROL, "a3-a4", Msg.NOT_IN_GAME),
        (ALICE, "hello", Msg.MOVE_NOT_A_MOVE),
        (ALICE, "a3-a5", Msg.MOVE_PIECE_CANNOT_GO_THERE),
        (ALICE, "a2-a3", Msg.MOVE_PIECE_STUCK),
    ]
    for user, text, key in cases:
        with pytest.raises(PlayerError) as info:
            await s.games.play(CHANNEL, user, text)
        assert error_key(info) is key, text
    assert await s.storage.games.moves(record.id) == []
    update = await s.games.play(CHANNEL, ALICE, "A3 a4")
    assert update.move_text == "a3-a4"
    assert update.state.ply == 1 and update.state.turn is engine.Color.BLACK


async def test_ambiguous_capture_lists_the_candidates(open_services: OpenServices) -> None:
    # Italian: d3 can take c4 and e4 and reach d7 either way (the example of docs/ENGINE.md,
    # "PDN and command line").
    s = await open_services()
    await start_game(s, "italian", "W:Wd3,h1:Bc4,c6,e4,e6")
    with pytest.raises(PlayerError) as info:
        await s.games.play(CHANNEL, ALICE, "d3xd7")
    assert error_key(info) is Msg.MOVE_AMBIGUOUS
    # Numbered as the federation does (d3 = 22, b5 = 13, f5 = 15, d7 = 6), letters beside.
    assert info.value.params["candidates"] == "22x13x6 (d3xb5xd7), 22x15x6 (d3xf5xd7)"
    update = await s.games.play(CHANNEL, ALICE, "d3xb5xd7")
    assert update.state.ply == 1


async def test_autocomplete_offers_own_legal_moves_captures_first(
    tmp_path: Path, open_services: OpenServices,
) -> None:
    s = await open_services()
    assert s.games.suggestions(CHANNEL, ALICE, "") == []
    await start_game(s, "turkish")
    start = s.games.suggestions(CHANNEL, ALICE, "")
    position = engine.Position.start(engine.get_variant("turkish"))
    assert len(start) == min(25, len(engine.legal_moves(position, engine.get_variant("turkish"))))
    assert s.games.suggestions(CHANNEL, BOB, "") == []  # not Bob's turn
    assert {c.value for c in s.games.suggestions(CHANNEL, ALICE, "a3")} == {"a3-a4"}
    assert {c.value for c in s.games.suggestions(CHANNEL, ALICE, "B3-")} == {"b3-b4"}
    await s.close()
    s = await open_services(tmp_path / "db2.sqlite3", FakeClock())
    await start_game(s, "italian", "W:Wd3,h1:Bc4,c6,e4,e6")
    choices = s.games.suggestions(CHANNEL, ALICE, "")
    assert [c.value for c in choices] == ["d3xb5xd7", "d3xf5xd7"]  # full paths, captures only
    # Italian numeric squares (docs/RULES.md, "Coordinates and notation"): d3 = 22,
    # b5 = 13, d7 = 6.
    # b5 = 13, d7 = 6. The numeric form comes first (the default), algebraic beside it.
    assert choices[0].name == "22x13x6 (d3xb5xd7)"
    assert [c.value for c in s.games.suggestions(CHANNEL, ALICE, "22x")] == [
        "d3xb5xd7", "d3xf5xd7"
    ]


async def test_draw_offer_accept_and_lapse(open_services: OpenServices) -> None:
    s = await open_services()
    await start_game(s, "turkish")
    offered = await s.games.draw(CHANNEL, ALICE)
    assert offered.event is Event.DRAW_OFFERED
    assert offered.state.draw_offer_by is engine.Color.WHITE
    with pytest.raises(PlayerError) as info:
        await s.games.draw(CHANNEL, ALICE)
    assert error_key(info) is Msg.DRAW_ALREADY_OFFERED
    # The offerer moves: the offer lapses.
    moved = await s.games.play(CHANNEL, ALICE, "a3-a4")
    assert moved.state.draw_offer_by is None
    await s.games.draw(CHANNEL, BOB)
    ended = await s.games.draw(CHANNEL, ALICE)
    assert ended.event is Event.ENDED
    assert ended.state.ending is not None
    assert ended.state.ending.result is GameResult.DRAW
    assert ended.state.ending.reason is EndReason.AGREEMENT
    assert not s.games.has_game(CHANNEL)


async def test_abort_rules(open_services: OpenServices) -> None:
    s = await open_services()
    record = await start_game(s, "arab")
    await s.games.play(CHANNEL, ALICE, "a3-a4")
    with pytest.raises(PlayerError) as info:
        await s.games.abort(CHANNEL, CAROL)
    assert error_key(info) is Msg.NOT_IN_GAME
    aborted = await s.games.abort(CHANNEL, BOB)  # Black has not moved yet
    assert aborted.state.ending is not None
    assert aborted.state.ending.reason is EndReason.ABORTED
    assert aborted.state.ending.result is None
    stored = await s.storage.games.get(record.id)
    assert stored is not None and stored.status is GameStatus.ABORTED
    assert await s.storage.ratings.get(ALICE, "arab") is None  # no rating change
    await start_game(s, "arab")
    await s.games.play(CHANNEL, ALICE, "a3-a4")
    await s.games.play(CHANNEL, BOB, "a6-a5")
    with pytest.raises(PlayerError) as info:
        await s.games.abort(CHANNEL, ALICE)
    assert error_key(info) is Msg.ABORT_TOO_LATE
    by_moderator = await s.games.abort(CHANNEL, CAROL, may_manage=True)
    assert by_moderator.state.ending is not None
    assert by_moderator.state.ending.by_user == CAROL


async def test_a_board_press_acts_only_at_the_ply_it_was_drawn_for(
    open_services: OpenServices,
) -> None:
    s = await open_services()
    record = await start_game(s, "turkish")
    await s.games.play(CHANNEL, ALICE, "a3-a4")  # announced nowhere: no message id stored
    assert s.games.current(CHANNEL).board_message_id is None
    for board in (BoardRef(record.id, 0), BoardRef(record.id, 2), BoardRef(record.id, None)):
        with pytest.raises(StaleBoardError) as stale:
            await s.games.resign(CHANNEL, BOB, board=board)
        assert stale.value.key is Msg.STALE_BOARD
        assert stale.value.current.ply == 1 and stale.value.current.game_id == record.id
        with pytest.raises(StaleBoardError):
            await s.games.draw(CHANNEL, BOB, board=board)
    assert s.games.current(CHANNEL).draw_offer_by is None
    with pytest.raises(PlayerError) as info:
        await s.games.resign(CHANNEL, BOB, board=BoardRef(record.id + 99, 1))
    assert error_key(info) is Msg.GAME_OVER
    stored = await s.storage.games.get(record.id)
    assert stored is not None and stored.status is GameStatus.ACTIVE
    update = await s.games.resign(CHANNEL, BOB, board=BoardRef(record.id, 1))
    assert update.state.ending is not None and update.state.ending.winner is engine.Color.WHITE


async def test_inactivity_loses_on_time(open_services: OpenServices) -> None:
    clock = FakeClock()
    rules = GameRules(inactivity_limit=timedelta(days=3))
    s = await open_services(clock=clock, rules=rules)
    await start_game(s, "moroccan")
    await s.games.play(CHANNEL, ALICE, "b3-a4")
    assert s.games.next_deadline() == clock() + timedelta(days=3)
    clock.advance(timedelta(days=3) - timedelta(seconds=1))
    assert await s.games.run_deadlines() == []
    clock.advance(timedelta(seconds=1))
    announced: list[GameUpdate] = []

    async def announce(update: GameUpdate) -> None:
        announced.append(update)

    updates = await s.games.run_deadlines(announce=announce)
    assert len(updates) == 1 and announced == updates
    ending = updates[0].state.ending
    assert ending is not None and ending.reason is EndReason.INACTIVITY
    assert ending.winner is engine.Color.WHITE  # Black was to move
    assert ending.result is GameResult.WHITE_WINS
    # One ply played: the result stands but is not rated (docs/RULES.md, "Early results").
    assert ending.unrated_early
    assert await s.storage.ratings.get(BOB, "moroccan") is None


async def _first_moves(s: Services, plies: int) -> None:
    """Play `plies` plies of the channel's game: each time the first legal move."""
    for _ in range(plies):
        state = s.games.current(CHANNEL)
        move = engine.legal_moves(state.position, state.variant)[0]
        user = state.to_move.user_id
        assert user is not None
        await s.games.play(CHANNEL, user, engine.format_move(move, state.position,
                                                             state.variant, full=True))


async def test_inactivity_after_two_moves_each_is_rated(open_services: OpenServices) -> None:
    clock = FakeClock()
    s = await open_services(clock=clock, rules=GameRules(inactivity_limit=timedelta(days=3)))
    await start_game(s, "moroccan")
    await _first_moves(s, 4)
    clock.advance(timedelta(days=3))
    [update] = await s.games.run_deadlines()
    ending = update.state.ending
    assert ending is not None and ending.reason is EndReason.INACTIVITY
    assert not ending.unrated_early
    white = await s.storage.ratings.get(ALICE, "moroccan")  # White was to move
    assert white is not None and white.losses == 1 and white.rated_games == 1


@pytest.mark.parametrize("plies", [0, 1, 2, 3])
async def test_a_time_forfeit_before_two_moves_each_is_not_rated(
    open_services: OpenServices, plies: int
) -> None:
    """Without a listener for absent players, a passed move deadline loses on time; before
    each side has made two moves that result is kept unrated."""
    clock = FakeClock()
    s = await open_services(clock=clock)
    await start_game(s, "moroccan", move_seconds=40)
    await _first_moves(s, plies)
    clock.advance(timedelta(seconds=41))
    [update] = await s.games.run_deadlines()
    ending = update.state.ending
    assert ending is not None and ending.reason is EndReason.TIME_FORFEIT
    assert ending.result is not None and ending.unrated_early
    stored = await s.storage.games.get(update.state.game_id)
    assert stored is not None and stored.rated and stored.white_rating is None
    for user in (ALICE, BOB):
        assert await s.storage.ratings.get(user, "moroccan") is None


PATIENCE = 60.0
"""Seconds a test waits before failing (a hang guard, not a measure)."""


class FirstMove:
    """A move chooser that plays the first legal move. With `hold` set, each search waits
    until `hold` is released; `searching` is set once a search has started."""

    def __init__(self, *, hold: bool = False) -> None:
        self.calls = 0
        self.levels: list[int] = []
        self.hold = asyncio.Event()
        if not hold:
            self.hold.set()
        self.searching = asyncio.Event()

    async def choose_move(
        self, game: engine.Game, level: int, *, budget_seconds: float | None, key: object,
        admission: Admission = Admission.ALWAYS,
    ) -> engine.Move:
        self.calls += 1
        self.levels.append(level)
        self.searching.set()
        await self.hold.wait()
        return game.legal_moves()[0]

    def cancel(self, key: object) -> int:
        return 0


async def test_move_clock_computer_moves_then_forfeit(open_services: OpenServices) -> None:
    clock = FakeClock()
    mover = FirstMove()
    rules = GameRules(computer_moves_before_forfeit=2)
    s = await open_services(clock=clock, chooser=mover, rules=rules, absent=Strength(4, 0.5))
    record = await start_game(s, "turkish", move_seconds=40)
    clock.advance(timedelta(seconds=40))
    [update] = await s.run_deadlines()
    assert update.event is Event.COMPUTER_MOVED and mover.calls == 1
    assert mover.levels == [4]  # the absent players' strength
    stored = await s.storage.games.moves(record.id)
    assert [m.by_computer for m in stored] == [True]
    await s.games.play(CHANNEL, BOB, "a6-a5")  # Black moves in time
    clock.advance(timedelta(seconds=40))
    [update] = await s.run_deadlines()  # White absent again: second computer move
    assert update.event is Event.COMPUTER_MOVED
    clock.advance(timedelta(seconds=40))
    [update] = await s.run_deadlines()  # Black absent once: computer moves
    assert update.event is Event.COMPUTER_MOVED
    clock.advance(timedelta(seconds=40))
    [update] = await s.run_deadlines()  # White absent a third time: loses
    assert update.event is Event.ENDED
    assert update.state.ending is not None
    assert update.state.ending.reason is EndReason.TIME_FORFEIT
    assert update.state.ending.winner is engine.Color.BLACK


async def test_resign_during_an_absent_players_computer_move_is_answered_at_once(
    open_services: OpenServices,
) -> None:
    """The computer thinks for the absent player without holding the channel's lock: a
    resignation meanwhile is answered while the search still runs, and the move chosen
    for the abandoned position is dropped."""
    clock = FakeClock()
    mover = FirstMove(hold=True)
    s = await open_services(clock=clock, chooser=mover)
    record = await start_game(s, "turkish", move_seconds=40)
    clock.advance(timedelta(seconds=40))
    assert await s.games.run_deadlines() == []  # White's turn handed to the computer
    await asyncio.wait_for(mover.searching.wait(), PATIENCE)
    assert not s.games.locks.locked(CHANNEL)
    update = await asyncio.wait_for(s.games.resign(CHANNEL, ALICE), PATIENCE)
    assert not mover.hold.is_set()  # answered while the computer was still thinking
    assert update.state.ending is not None
    assert update.state.ending.reason is EndReason.RESIGNATION
    mover.hold.set()
    await s.computer_idle()
    assert await s.storage.games.moves(record.id) == []
    assert s.announced.updates == []  # no computer move was announced
    stored = await s.storage.games.get(record.id)
    assert stored is not None and stored.termination == "resignation"


async def test_a_computer_move_for_a_position_the_game_left_is_dropped(
    open_services: OpenServices,
) -> None:
    """The absent player comes back and moves while the computer thinks for them: the
    computer's move, chosen for the earlier position, is not played."""
    clock = FakeClock()
    mover = FirstMove(hold=True)
    s = await open_services(clock=clock, chooser=mover)
    record = await start_game(s, "turkish", move_seconds=40)
    clock.advance(timedelta(seconds=40))
    await s.games.run_deadlines()
    await asyncio.wait_for(mover.searching.wait(), PATIENCE)
    await s.games.play(CHANNEL, ALICE, "h3-h4")  # White is back in time for its own move
    mover.hold.set()
    await s.computer_idle()
    stored = await s.storage.games.moves(record.id)
    assert [(m.text, m.by_computer) for m in stored] == [("h3-h4", False)]
    assert s.games.current(CHANNEL).ply == 1 and s.announced.updates == []


async def test_a_computer_seat_moves_after_its_absent_opponent_came_back(
    open_services: OpenServices,
) -> None:
    """A `/play` game: the person's time runs out and the computer starts thinking for
    them; the person comes back and moves meanwhile. That search's move is dropped, and the
    computer seat, now to move, still plays its own move once the search has ended."""
    from storage import NewGame

    clock = FakeClock()
    mover = FirstMove(hold=True)
    s = await open_services(clock=clock, chooser=mover)
    variant = engine.get_variant("turkish")
    record = await s.storage.games.create(NewGame(
        variant="turkish", channel_id=CHANNEL, guild_id=None, white=Seat.human(ALICE),
        black=Seat.computer(2), start_fen=engine.Position.start(variant).to_fen(variant),
        move_seconds=40, deadline=clock() + timedelta(seconds=40),
    ))
    await s.games.adopt(record)
    clock.advance(timedelta(seconds=40))
    assert await s.games.run_deadlines() == []  # the computer thinks for absent White
    await asyncio.wait_for(mover.searching.wait(), PATIENCE)
    await s.games.play(CHANNEL, ALICE, "h3-h4")  # White is back: Black (computer) to move
    mover.hold.set()
    await asyncio.wait_for(s.computer_idle(), PATIENCE)
    stored = await s.storage.games.moves(record.id)
    assert stored[0].text == "h3-h4"
    assert [m.by_computer for m in stored] == [False, True]
    assert mover.levels == [1, 2]  # the absent player's strength, then the seat's level
    assert s.games.current(CHANNEL).turn is engine.Color.WHITE


async def test_move_clock_without_mover_loses_on_time(open_services: OpenServices) -> None:
    clock = FakeClock()
    s = await open_services(clock=clock)
    await start_game(s, "italian", move_seconds=300)
    await s.games.play(CHANNEL, ALICE, "22-18")
    clock.advance(timedelta(seconds=299))
    assert await s.games.run_deadlines() == []
    clock.advance(timedelta(seconds=1))
    [update] = await s.games.run_deadlines()
    assert update.state.ending is not None
    assert update.state.ending.reason is EndReason.TIME_FORFEIT
    assert update.state.ending.winner is engine.Color.WHITE


async def test_restart_continues_the_game(tmp_path: Path, open_services: OpenServices) -> None:
    path = tmp_path / "db.sqlite3"
    clock = FakeClock()
    s = await open_services(path, clock)
    await start_game(s, "turkish")
    await s.games.play(CHANNEL, ALICE, "a3-a4")
    await s.games.draw(CHANNEL, ALICE)
    before = s.games.current(CHANNEL)
    await s.close()
    s = await open_services(path, clock)
    after = s.games.current(CHANNEL)
    assert after.position == before.position and after.ply == 1
    assert after.last_move_text == "a3-a4"
    assert after.draw_offer_by is engine.Color.WHITE
    assert after.deadline == before.deadline
    update = await s.games.play(CHANNEL, BOB, "a6-a5")
    assert update.state.ply == 2


async def test_a_game_stored_active_after_its_ending_move_is_ended_at_restore(
    tmp_path: Path, open_services: OpenServices
) -> None:
    """A database left by a crash between a move and its game's end (written before the
    two were one transaction): the last stored move ends the game by the rules while the
    row is still active. Restoring ends it with the rules' result, rated once; a second
    restore changes nothing."""
    path = tmp_path / "db.sqlite3"
    clock = FakeClock()
    fen, move = FORCED["turkish"]
    storage = await Storage.open(path, clock=clock)
    try:
        record = await storage.games.create(NewGame(
            variant="turkish", channel_id=CHANNEL, guild_id=GUILD, white=Seat.human(ALICE),
            black=Seat.human(BOB), start_fen=fen, rated=True,
        ))
        await storage.games.append_move(record.id, ply=1, text=move)
    finally:
        await storage.close()
    clock.advance(timedelta(hours=1))

    s = await open_services(path, clock)
    assert not s.games.has_game(CHANNEL)
    ended = await s.storage.games.get(record.id)
    assert ended is not None and ended.status is GameStatus.FINISHED
    assert ended.result is GameResult.WHITE_WINS and ended.termination == "no_pieces"
    assert ended.ply_count == 1
    white = await s.storage.ratings.get(ALICE, "turkish")
    black = await s.storage.ratings.get(BOB, "turkish")
    assert white is not None and black is not None
    assert (white.rated_games, white.wins, black.rated_games, black.losses) == (1, 1, 1, 1)
    assert white.rating > 1500 > black.rating
    # Nothing can be played or resigned in the ended game: the result stands.
    for attempt in (s.games.play(CHANNEL, BOB, "d5-d4"), s.games.resign(CHANNEL, ALICE),
                    s.games.draw(CHANNEL, BOB)):
        with pytest.raises(PlayerError) as info:
            await attempt
        assert error_key(info) is Msg.GAME_ENDED_HERE
    await s.close()

    s = await open_services(path, clock)
    assert await s.storage.games.get(record.id) == ended
    assert await s.storage.ratings.get(ALICE, "turkish") == white
    assert await s.storage.ratings.get(BOB, "turkish") == black
    assert [m.text for m in await s.storage.games.moves(record.id)] == [move]
    assert not s.games.has_game(CHANNEL)


async def test_a_failed_ending_step_leaves_the_game_playable(
    open_services: OpenServices,
) -> None:
    """When the step that ends a game is refused (here another program holds the write
    lock), nothing of it is stored and the game in memory is where it was: the move can
    be sent again."""
    s = await open_services()
    fen, move = FORCED["turkish"]
    record = await start_game(s, "turkish", fen)
    async with s.storage.db.read() as conn:
        await conn.fetchval("PRAGMA busy_timeout = 50")
    other = sqlite3.connect(s.storage.db.path, isolation_level=None)
    try:
        other.execute("BEGIN IMMEDIATE")
        with pytest.raises(StorageWriteError) as caught:
            await s.games.play(CHANNEL, ALICE, move)
        assert caught.value.cause is Cause.LOCKED
        other.execute("ROLLBACK")
    finally:
        other.close()
    state = s.games.current(CHANNEL)
    assert state.ply == 0 and state.status is GameStatus.ACTIVE
    assert await s.storage.games.moves(record.id) == []
    assert await s.storage.ratings.get(ALICE, "turkish") is None
    update = await s.games.play(CHANNEL, ALICE, move)
    assert update.event is Event.ENDED and update.state.ply == 1


async def test_two_moves_at_once_apply_one(open_services: OpenServices) -> None:
    s = await open_services()
    record = await start_game(s, "turkish")
    results = await asyncio.gather(
        s.games.play(CHANNEL, ALICE, "a3-a4"),
        s.games.play(CHANNEL, ALICE, "b3-b4"),
        return_exceptions=True,
    )
    applied = [r for r in results if isinstance(r, GameUpdate)]
    refused = [r for r in results if isinstance(r, PlayerError)]
    assert len(applied) == 1 and len(refused) == 1
    assert refused[0].key is Msg.NOT_YOUR_TURN
    assert len(await s.storage.games.moves(record.id)) == 1


async def test_a_computer_seat_moves_on_its_turn_and_never_loses_on_time(
    open_services: OpenServices,
) -> None:
    """A computer seat (`/play`) moves whenever it is its turn, at its own level; its
    moves never count as absences, and a move clock on its side never makes it lose."""
    from storage import NewGame

    clock = FakeClock()
    mover = FirstMove()
    s = await open_services(clock=clock, chooser=mover)
    turns: list[int] = []  # a second listener beside the computer's turns
    s.games.events.subscribe(TurnChanged, lambda event: turns.append(event.state.ply))
    variant = engine.get_variant("italian")
    record = await s.storage.games.create(NewGame(
        variant="italian", channel_id=CHANNEL, guild_id=None, white=Seat.human(ALICE),
        black=Seat.computer(3), start_fen=engine.Position.start(variant).to_fen(variant),
        move_seconds=40, deadline=clock() + timedelta(seconds=40),
    ))
    await s.games.adopt(record)
    await s.computer_idle()
    assert mover.calls == 0  # White (a person) to move
    for _ in range(4):
        position = s.games.current(CHANNEL).position
        await s.games.play(CHANNEL, ALICE, engine.format_move(
            engine.legal_moves(position, variant)[0], position, variant))
        if not s.games.has_game(CHANNEL):
            break
        clock.advance(timedelta(seconds=40))  # past Black's clock deadline
        [update] = await s.run_deadlines()  # the computer's move, not a loss on time
        assert update.move_text is not None and update.absent_moves is None
        if update.event is Event.ENDED:
            assert update.state.ending is not None
            assert update.state.ending.reason is not EndReason.TIME_FORFEIT
            break
        assert update.event is Event.COMPUTER_MOVED
        assert update.state.turn is engine.Color.WHITE
    assert mover.levels and set(mover.levels) == {3}
    assert turns[:3] == [0, 1, 2]
    stored = await s.storage.games.get(record.id)
    assert stored is not None and stored.clock.black_computer_moves == 0
    moves = await s.storage.games.moves(record.id)
    assert [m.by_computer for m in moves] == [False, True] * (len(moves) // 2)


async def test_restart_finishes_a_game_whose_stored_last_move_ended_it(
    tmp_path: Path, open_services: OpenServices
) -> None:
    """The bot stored a move that ends the game by the rules and was killed before storing
    the result (two transactions): after the restart the game is finished with the rules'
    result (and its rating change), not left active with no legal move for anyone."""
    path = tmp_path / "db.sqlite3"
    clock = FakeClock()
    s = await open_services(path, clock)
    record = await start_game(s, "turkish", "W:Wa2,d3:Bd4")
    await s.storage.games.append_move(record.id, ply=1, text="d3xd5")  # killed here
    await s.close()
    s = await open_services(path, clock)
    assert not s.games.has_game(CHANNEL)
    stored = await s.storage.games.get(record.id)
    assert stored is not None and stored.status is GameStatus.FINISHED
    assert stored.result is GameResult.WHITE_WINS and stored.termination == "no_pieces"
    assert stored.white_rating is not None  # the rated game's rating change is stored


async def test_a_move_is_played_on_the_live_game_off_the_event_loop(
    open_services: OpenServices, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Playing a move on the live game runs in a worker thread (the next position's moves
    may take long to list): meanwhile the event loop answers others, and readers without
    the channel's lock see no half-played game (no suggestions, no computer turn)."""
    import threading

    s = await open_services()
    await start_game(s, "turkish")
    inside, release = threading.Event(), threading.Event()
    loop_thread = threading.get_ident()
    threads: list[int] = []
    play = engine.Game.play

    def slow_play(game: engine.Game, move: engine.Move | str) -> engine.Move:
        threads.append(threading.get_ident())
        inside.set()
        release.wait(30)
        return play(game, move)

    monkeypatch.setattr(engine.Game, "play", slow_play)
    moving = asyncio.create_task(s.games.play(CHANNEL, ALICE, "c3-c4"))
    await asyncio.wait_for(asyncio.to_thread(inside.wait, 30), 30)
    # The loop runs while the move is being played; the game is left alone meanwhile.
    assert s.games.suggestion_source(CHANNEL, BOB) is None
    assert s.games.suggestion_source(CHANNEL, ALICE) is None
    assert await s.games.computer_turn(CHANNEL, s.games.current(CHANNEL).game_id) is None
    release.set()
    update = await asyncio.wait_for(moving, 30)
    assert threads and all(t != loop_thread for t in threads)
    assert update.state.ply == 1 and update.move_text == "c3-c4"
    assert s.games.suggestion_source(CHANNEL, BOB) is not None
