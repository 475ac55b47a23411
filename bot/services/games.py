"""`GameService`: the game flow of the bot, on plain values.

One active game per channel. Each active game has a session in memory (the stored game
row and the engine's `Game` replayed from its moves); the database is the truth and
sessions are rebuilt from it at start-up (`restore`).

Every change runs under the channel's lock (`ChannelLocks`): check the turn, validate,
commit to the database, update the session, then call the caller's `announce` callback,
still inside the lock, so two moves in one channel are answered in the order they were
applied. `announce` returns the id of the board message it posted (or None); the service
records it, so older boards can be recognised as stale.

Deadlines: a game with a per-move time (`move_seconds`) has a stored deadline for the
side to move; when it passes, the `AbsentPlayerMover` (the computer player of issue 7),
if one is given, plays for the absent player, up to `computer_moves_before_forfeit` moves
in a row; without one, or after that many, the player loses on time. Independently, a
game with no move for `inactivity_limit` is lost on time by the player to move.
"""

from __future__ import annotations

import dataclasses
import logging
from collections.abc import Awaitable, Callable, Iterator
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Protocol

import engine
from bot.messages import Msg
from bot.ratings.calculator import glicko2_calculator
from bot.services.errors import ComputerRef, PlayerError, UserRef
from bot.services.locks import ChannelLocks
from bot.services.models import (
    BoardState,
    Ending,
    EndReason,
    Event,
    GameUpdate,
    MoveChoice,
    SeatView,
    color_of,
    side_of,
)
from bot.services.replay import last_move_text, replay_game
from engine import (
    AmbiguousMoveError,
    Color,
    IllegalMoveError,
    MalformedMoveError,
    Move,
    Position,
    Variant,
    format_move,
    parse_move,
)
from storage import (
    ClockState,
    GameNotActiveError,
    GameRecord,
    GameResult,
    GameStatus,
    RatingValue,
    StaleMoveError,
    Storage,
    utc_now,
)
from storage.clock import Clock

log = logging.getLogger(__name__)

Announce = Callable[[GameUpdate], Awaitable[int | None]]
"""Called inside the channel lock after a change is committed; returns the id of the
board message it posted, or None."""

MAX_CHOICES = 25
"""Discord shows at most 25 autocomplete choices."""


class AbsentPlayerMover(Protocol):
    """Chooses a move for a player whose per-move time ran out (issue 7's computer)."""

    async def choose_move(self, game: engine.Game) -> Move:
        """A legal move of the side to move in `game` (which must not be modified)."""
        ...


@dataclass(frozen=True)
class GameRules:
    """The flow's settings: the inactivity limit, and how many moves in a row the
    computer may make for an absent player before that player loses on time."""

    inactivity_limit: timedelta = timedelta(days=3)
    computer_moves_before_forfeit: int = 3


@dataclass
class Session:
    """An active game in memory: its stored row, the engine game, the players' ratings
    when it started, when the last move was made (or the game created), and the short text
    of the last move."""

    record: GameRecord
    game: engine.Game
    ratings: dict[Color, RatingValue | None]
    last_activity: datetime
    last_move_text: str | None


def _result_of(winner: Color | None) -> GameResult:
    if winner is None:
        return GameResult.DRAW
    return GameResult.WHITE_WINS if winner is Color.WHITE else GameResult.BLACK_WINS


def _winner_of(result: GameResult | None) -> Color | None:
    if result is GameResult.WHITE_WINS:
        return Color.WHITE
    if result is GameResult.BLACK_WINS:
        return Color.BLACK
    return None


def _normalise(text: str) -> str:
    return "".join(ch for ch in text.lower() if ch.isalnum())


def suggest_moves(
    position: Position, variant: Variant, moves: tuple[Move, ...], typed: str
) -> list[MoveChoice]:
    """The autocomplete choices among `moves` (the legal moves of `position`) matching
    `typed` (prefix of the move text, or of the Italian numeric form, ignoring case and
    separators): captures first (most pieces first), then by text; at most 25. Pure and
    possibly slow (formatting every move of a position with thousands of capture routes
    takes seconds): the Discord layer runs it in a worker thread."""
    wanted = _normalise(typed)
    choices: list[MoveChoice] = []
    texts = [(format_move(m, position, variant), m) for m in moves]
    texts.sort(key=lambda pair: (not pair[1].is_capture, -len(pair[1].captured), pair[0]))
    for value, move in texts:
        forms = [value]
        name = value
        if variant.numeric_notation:
            numeric = format_move(move, position, variant, numeric=True)
            forms.append(numeric)
            name = f"{value} ({numeric})"
        if wanted and not any(_normalise(form).startswith(wanted) for form in forms):
            continue
        choices.append(MoveChoice(name, value))
        if len(choices) == MAX_CHOICES:
            break
    return choices


class GameService:
    """Active games and their flow. Build with a `Storage`; call `restore()` once."""

    def __init__(
        self,
        storage: Storage,
        *,
        rules: GameRules = GameRules(),
        clock: Clock = utc_now,
        mover: AbsentPlayerMover | None = None,
        locks: ChannelLocks | None = None,
    ) -> None:
        self._storage = storage
        self._rules = rules
        self._clock = clock
        self._mover = mover
        self.locks = locks if locks is not None else ChannelLocks()
        self._sessions: dict[int, Session] = {}
        self._ended: dict[int, BoardState] = {}
        """The last game that ended in each channel (since start-up), by channel id."""
        self.deadlines_changed: Callable[[], None] = lambda: None
        """Called whenever a deadline may have moved (the scheduler's `poke`)."""
        self.turn_changed: Callable[[BoardState], None] = lambda state: None
        """Called (inside the channel lock) after a game starts or a move is committed and
        the game goes on; the computer player (issue 7) uses it to schedule
        `play_computer_turn` when the side to move is a computer seat."""
        self.game_ended: Callable[[BoardState], None] = lambda state: None
        """Called (inside the channel lock) after a game ended or was aborted; the computer
        player (issue 7) uses it to stop the game's search."""

    # --- sessions -----------------------------------------------------------------------

    async def restore(self) -> list[BoardState]:
        """Load every active game from the database into memory (start-up); returns them."""
        self._sessions.clear()
        states = []
        for record in await self._storage.games.active():
            session = await self._load(record.id)
            self._sessions[record.channel_id] = session
            states.append(self._state(session))
        self.deadlines_changed()
        return states

    async def _load(self, game_id: int) -> Session:
        record, moves = await self._storage.games.load(game_id)
        game = replay_game(record, moves)
        ratings = {
            color: await self._rating(record, color) for color in (Color.WHITE, Color.BLACK)
        }
        last = moves[-1].played_at if moves else record.created_at
        return Session(record, game, ratings, last, last_move_text(game))

    async def _rating(self, record: GameRecord, color: Color) -> RatingValue | None:
        user_id = record.seat(side_of(color)).user_id
        if user_id is None:
            return None
        stored = await self._storage.ratings.get(user_id, record.variant)
        return None if stored is None else stored.value

    async def adopt(self, record: GameRecord) -> BoardState:
        """Take a just-created active game (e.g. from an accepted challenge) into memory.
        The caller holds the channel's lock."""
        session = await self._load(record.id)
        self._sessions[record.channel_id] = session
        self.deadlines_changed()
        state = self._state(session)
        self.turn_changed(state)
        return state

    def active_games(self) -> list[BoardState]:
        """Every active game in memory."""
        return [self._state(s) for s in self._sessions.values()]

    def _session(self, channel_id: int, game_id: int | None = None) -> Session:
        session = self._sessions.get(channel_id)
        if session is None:
            if game_id is not None:
                raise PlayerError(Msg.GAME_OVER)
            ended = self._ended.get(channel_id)
            if ended is not None:
                raise PlayerError(Msg.GAME_ENDED_HERE, game_id=ended.game_id, result=ended)
            raise PlayerError(Msg.NO_GAME_HERE)
        if game_id is not None and session.record.id != game_id:
            raise PlayerError(Msg.GAME_OVER)
        return session

    def has_game(self, channel_id: int) -> bool:
        return channel_id in self._sessions

    def players_in(self, channel_id: int) -> tuple[int | None, int | None] | None:
        """(White's, Black's) user ids of the channel's active game, None without one."""
        session = self._sessions.get(channel_id)
        if session is None:
            return None
        return session.record.white.user_id, session.record.black.user_id

    # --- reading ------------------------------------------------------------------------

    def current(self, channel_id: int) -> BoardState:
        """The channel's active game. Raises `PlayerError`: GAME_ENDED_HERE (with the
        `game_id` and the final `BoardState` as `result`) when the channel's last game ended
        since start-up, else NO_GAME_HERE."""
        return self._state(self._session(channel_id))

    async def finished_state(self, game_id: int) -> BoardState:
        """Any stored game as a `BoardState` (finished, aborted or active). Raises
        `PlayerError(UNKNOWN_GAME)`."""
        record = await self._storage.games.get(game_id)
        if record is None:
            raise PlayerError(Msg.UNKNOWN_GAME, game_id=game_id)
        for session in self._sessions.values():
            if session.record.id == game_id:
                return self._state(session)
        session = await self._load(game_id)
        return self._state(session)

    async def game_of(self, game_id: int) -> tuple[GameRecord, engine.Game]:
        """A stored game and its engine replay. Raises `PlayerError(UNKNOWN_GAME)`."""
        if await self._storage.games.get(game_id) is None:
            raise PlayerError(Msg.UNKNOWN_GAME, game_id=game_id)
        session = await self._load(game_id)
        return session.record, session.game

    def suggestions(self, channel_id: int, user_id: int, typed: str) -> list[MoveChoice]:
        """Autocomplete for `/move`: the caller's legal moves matching `typed` (prefix of
        the move text ignoring case and separators), captures first, at most 25; empty when
        there is no game here or it is not the caller's turn."""
        source = self.suggestion_source(channel_id, user_id)
        if source is None:
            return []
        return suggest_moves(*source, typed)

    def suggestion_source(
        self, channel_id: int, user_id: int
    ) -> tuple[Position, Variant, tuple[Move, ...]] | None:
        """What `suggest_moves` needs for the caller (position, variant, legal moves: plain
        immutable values, safe to hand to a worker thread), or None when there is no game
        here or it is not the caller's turn."""
        session = self._sessions.get(channel_id)
        if session is None:
            return None
        game = session.game
        if self._seat_user(session, game.position.turn) != user_id:
            return None
        return game.position, game.variant, tuple(game.legal_moves())

    # --- building states ----------------------------------------------------------------

    def _seat_user(self, session: Session, color: Color) -> int | None:
        return session.record.seat(side_of(color)).user_id

    def _deadline(self, session: Session) -> datetime:
        inactivity = session.last_activity + self._rules.inactivity_limit
        clock = session.record.clock.deadline
        return inactivity if clock is None else min(clock, inactivity)

    def _state(self, session: Session, ending: Ending | None = None) -> BoardState:
        record, game = session.record, session.game
        moves = game.moves
        positions = game.positions()
        seats = {}
        for color in (Color.WHITE, Color.BLACK):
            side = side_of(color)
            change = record.white_rating if color is Color.WHITE else record.black_rating
            seats[color] = SeatView(record.seat(side), color, session.ratings[color], change)
        return BoardState(
            game_id=record.id,
            channel_id=record.channel_id,
            guild_id=record.guild_id,
            variant=game.variant,
            rated=record.rated,
            move_seconds=record.move_seconds,
            status=record.status,
            position=game.position,
            before=positions[-2] if moves else None,
            last_move=moves[-1] if moves else None,
            last_move_text=session.last_move_text,
            ply=game.ply,
            white=seats[Color.WHITE],
            black=seats[Color.BLACK],
            draw_offer_by=None if record.draw_offer_by is None else color_of(record.draw_offer_by),
            deadline=None if record.status is not GameStatus.ACTIVE else self._deadline(session),
            ending=ending if ending is not None else self._stored_ending(record),
            board_message_id=record.board_message_id,
        )

    @staticmethod
    def _stored_ending(record: GameRecord) -> Ending | None:
        if record.status is GameStatus.ACTIVE or record.termination is None:
            return None
        try:
            reason = EndReason(record.termination)
        except ValueError:
            reason = EndReason.ABORTED if record.result is None else EndReason.RESIGNATION
        return Ending(reason, _winner_of(record.result), record.result)

    # --- announcing ---------------------------------------------------------------------

    async def _announce(self, update: GameUpdate, announce: Announce | None) -> GameUpdate:
        if announce is None:
            return update
        message_id = await announce(update)
        if message_id is None or not update.shows_board:
            return update
        await self._storage.games.set_board_message(update.state.game_id, message_id)
        session = self._sessions.get(update.state.channel_id)
        if session is not None and session.record.id == update.state.game_id:
            session.record = dataclasses.replace(session.record, board_message_id=message_id)
        state = dataclasses.replace(update.state, board_message_id=message_id)
        return dataclasses.replace(update, state=state)

    async def set_board_message(self, game_id: int, channel_id: int, message_id: int) -> None:
        """Record the message showing a game's board (e.g. after `/board`), under the
        channel's lock."""
        async with self.locks.hold(channel_id):
            await self.set_board_message_locked(game_id, message_id)

    async def set_board_message_locked(self, game_id: int, message_id: int) -> None:
        """As `set_board_message`, for a caller that holds the channel's lock."""
        await self._storage.games.set_board_message(game_id, message_id)
        for session in self._sessions.values():
            if session.record.id == game_id:
                session.record = dataclasses.replace(session.record, board_message_id=message_id)

    # --- acting -------------------------------------------------------------------------

    def _player_color(self, session: Session, user_id: int) -> Color:
        record = session.record
        side = record.side_of(user_id)
        if side is None:
            raise PlayerError(
                Msg.NOT_IN_GAME,
                white=self._who_plays(session, Color.WHITE),
                black=self._who_plays(session, Color.BLACK),
            )
        if record.white.user_id == record.black.user_id == user_id:
            return session.game.position.turn  # playing oneself: always your turn
        return color_of(side)

    def _who_plays(self, session: Session, color: Color) -> UserRef | ComputerRef:
        seat = session.record.seat(side_of(color))
        if seat.user_id is not None:
            return UserRef(seat.user_id)
        return ComputerRef(seat.computer_level or 0)

    def _check_board(self, session: Session, message_id: int | None) -> None:
        board = session.record.board_message_id
        if message_id is not None and board is not None and board != message_id:
            raise PlayerError(Msg.STALE_BOARD)

    async def play(
        self,
        channel_id: int,
        user_id: int,
        text: str,
        *,
        announce: Announce | None = None,
    ) -> GameUpdate:
        """`user_id` plays move `text` in the channel's game. The move is committed before
        `announce` is called. Raises `PlayerError`: NO_GAME_HERE, NOT_IN_GAME,
        NOT_YOUR_TURN, MOVE_MALFORMED, MOVE_ILLEGAL, MOVE_AMBIGUOUS, MOVE_RACE."""
        async with self.locks.hold(channel_id):
            session = self._session(channel_id)
            color = self._player_color(session, user_id)
            position = session.game.position
            if position.turn is not color:
                to_move = position.turn
                raise PlayerError(
                    Msg.NOT_YOUR_TURN,
                    player=self._who_plays(session, to_move),
                    color=to_move,
                )
            move = self._parse(text, position, session.game.variant)
            return await self._commit_move(
                session, move, actor=user_id, by_computer=False, announce=announce
            )

    @staticmethod
    def _parse(text: str, position: Position, variant: Variant) -> Move:
        try:
            return parse_move(text, position, variant)
        except MalformedMoveError as error:
            raise PlayerError(Msg.MOVE_MALFORMED, detail=str(error), text=text) from None
        except AmbiguousMoveError as error:
            names = ", ".join(
                sorted(format_move(m, position, variant, full=True) for m in error.candidates)
            )
            raise PlayerError(Msg.MOVE_AMBIGUOUS, text=text.strip(), candidates=names) from None
        except IllegalMoveError as error:
            raise PlayerError(Msg.MOVE_ILLEGAL, detail=str(error), text=text) from None

    async def _commit_move(
        self,
        session: Session,
        move: Move,
        *,
        actor: int | None,
        by_computer: bool,
        announce: Announce | None,
    ) -> GameUpdate:
        record, game = session.record, session.game
        variant = game.variant
        position = game.position
        color = position.turn
        side = side_of(color)
        short = format_move(move, position, variant)
        full = format_move(move, position, variant, full=True)
        now = self._clock()
        counts = {
            Color.WHITE: record.clock.white_computer_moves,
            Color.BLACK: record.clock.black_computer_moves,
        }
        human = not record.seat(side).is_computer
        counts[color] = counts[color] + 1 if by_computer and human else 0
        absent = (
            (counts[color], self._rules.computer_moves_before_forfeit)
            if by_computer and human else None
        )
        deadline = (
            None if record.move_seconds is None else now + timedelta(seconds=record.move_seconds)
        )
        clock = ClockState(deadline, counts[Color.WHITE], counts[Color.BLACK])
        clear_offer = record.draw_offer_by is side
        try:
            stored = await self._storage.games.append_move(
                record.id, ply=game.ply + 1, text=full, by_computer=by_computer,
                clock=clock, clear_draw_offer=clear_offer,
            )
        except StaleMoveError:
            # Another process changed the game: reload it and let the player look again.
            self._sessions[record.channel_id] = await self._load(record.id)
            raise PlayerError(Msg.MOVE_RACE) from None
        except GameNotActiveError:
            self._sessions.pop(record.channel_id, None)
            raise PlayerError(Msg.GAME_OVER) from None
        game.play(move)
        previous_board = record.board_message_id
        session.record = dataclasses.replace(
            record,
            ply_count=game.ply,
            clock=clock,
            draw_offer_by=None if clear_offer else record.draw_offer_by,
            updated_at=stored.played_at,
        )
        session.last_activity = stored.played_at
        session.last_move_text = short
        event = Event.COMPUTER_MOVED if by_computer else Event.MOVED
        if game.outcome is not None:
            winner = game.outcome.winner
            state = await self._finish(
                session, EndReason.of(game.outcome.termination), winner
            )
            event = Event.ENDED
        else:
            state = self._state(session)
            self.deadlines_changed()
            self.turn_changed(state)
        update = GameUpdate(event, state, actor, short, previous_board, absent)
        return await self._announce(update, announce)

    async def _finish(
        self, session: Session, reason: EndReason, winner: Color | None
    ) -> BoardState:
        """Store the result (and rating changes, in the same transaction) and drop the
        session; returns the final state."""
        record = session.record
        result = _result_of(winner)
        rate = glicko2_calculator(result, self._clock()) if record.rated else None
        session.record = await self._storage.games.finish(
            record.id, result=result, termination=reason.value, rate=rate
        )
        self._sessions.pop(record.channel_id, None)
        self.deadlines_changed()
        state = self._state(session, Ending(reason, winner, result))
        self._ended[record.channel_id] = state
        self.game_ended(state)
        return state

    async def resign(
        self,
        channel_id: int,
        user_id: int,
        *,
        game_id: int | None = None,
        message_id: int | None = None,
        announce: Announce | None = None,
    ) -> GameUpdate:
        """`user_id` resigns the channel's game (with `game_id`/`message_id`, pressed on
        that game's board message). Raises `PlayerError`: NO_GAME_HERE, GAME_OVER,
        STALE_BOARD, NOT_IN_GAME."""
        async with self.locks.hold(channel_id):
            session = self._session(channel_id, game_id)
            self._check_board(session, message_id)
            color = self._player_color(session, user_id)
            previous = session.record.board_message_id
            state = await self._finish(session, EndReason.RESIGNATION, color.opponent)
            update = GameUpdate(Event.ENDED, state, user_id, None, previous)
            return await self._announce(update, announce)

    async def draw(
        self,
        channel_id: int,
        user_id: int,
        *,
        game_id: int | None = None,
        message_id: int | None = None,
        announce: Announce | None = None,
    ) -> GameUpdate:
        """`user_id` offers a draw, or accepts the opponent's standing offer (the game ends
        drawn). An offer lapses when the offerer moves. Raises `PlayerError`: as `resign`,
        DRAW_ALREADY_OFFERED, and COMPUTER_NO_DRAW (the computer plays every game out)."""
        async with self.locks.hold(channel_id):
            session = self._session(channel_id, game_id)
            self._check_board(session, message_id)
            color = self._player_color(session, user_id)
            record = session.record
            if record.seat(side_of(color.opponent)).is_computer:
                raise PlayerError(Msg.COMPUTER_NO_DRAW)
            offer = record.draw_offer_by
            previous = record.board_message_id
            if offer is not None and offer is not side_of(color):
                state = await self._finish(session, EndReason.AGREEMENT, None)
                update = GameUpdate(Event.ENDED, state, user_id, None, previous)
                return await self._announce(update, announce)
            if offer is side_of(color) and record.white.user_id != record.black.user_id:
                raise PlayerError(
                    Msg.DRAW_ALREADY_OFFERED, opponent=self._who_plays(session, color.opponent)
                )
            await self._storage.games.set_draw_offer(record.id, side_of(color))
            session.record = dataclasses.replace(record, draw_offer_by=side_of(color))
            update = GameUpdate(Event.DRAW_OFFERED, self._state(session), user_id)
            return await self._announce(update, announce)

    async def abort(
        self,
        channel_id: int,
        user_id: int,
        *,
        may_manage: bool = False,
        announce: Announce | None = None,
    ) -> GameUpdate:
        """End the channel's game without result: by a player before each side has moved,
        or at any time by a member who may manage messages (`may_manage`). Raises
        `PlayerError`: NO_GAME_HERE, NOT_IN_GAME, ABORT_TOO_LATE."""
        async with self.locks.hold(channel_id):
            session = self._session(channel_id)
            record = session.record
            if not may_manage:
                self._player_color(session, user_id)
                if session.game.ply >= 2:
                    raise PlayerError(Msg.ABORT_TOO_LATE)
            previous = record.board_message_id
            session.record = await self._storage.games.abort(
                record.id, termination=EndReason.ABORTED.value
            )
            self._sessions.pop(channel_id, None)
            self.deadlines_changed()
            state = self._state(session, Ending(EndReason.ABORTED, None, None, user_id))
            self._ended[channel_id] = state
            self.game_ended(state)
            update = GameUpdate(Event.ENDED, state, user_id, None, previous)
            return await self._announce(update, announce)

    # --- deadlines ----------------------------------------------------------------------

    def next_deadline(self) -> datetime | None:
        """The earliest deadline of any active game (None without active games)."""
        return min((self._deadline(s) for s in self._sessions.values()), default=None)

    def _due(self, now: datetime) -> Iterator[Session]:
        for session in list(self._sessions.values()):
            if self._deadline(session) <= now:
                yield session

    async def run_deadlines(
        self, now: datetime | None = None, *, announce: Announce | None = None
    ) -> list[GameUpdate]:
        """Act on every game whose deadline is at or before `now` (default: the clock):
        a per-move deadline makes the computer move for the absent player (or, without a
        mover or after too many such moves, the player loses on time); the inactivity limit
        makes the player to move lose on time. Returns the updates, each also announced."""
        moment = self._clock() if now is None else now
        updates = []
        for session in self._due(moment):
            channel_id = session.record.channel_id
            try:
                update = await self._run_deadline(channel_id, session.record.id, moment, announce)
            except Exception:
                log.exception("deadline of game %s in channel %s failed", session.record.id,
                              channel_id)
                continue
            if update is not None:
                updates.append(update)
        return updates

    async def _run_deadline(
        self, channel_id: int, game_id: int, now: datetime, announce: Announce | None
    ) -> GameUpdate | None:
        async with self.locks.hold(channel_id):
            session = self._sessions.get(channel_id)
            if session is None or session.record.id != game_id:
                return None  # ended meanwhile
            record = session.record
            color = session.game.position.turn
            previous = record.board_message_id
            if session.last_activity + self._rules.inactivity_limit <= now:
                state = await self._finish(session, EndReason.INACTIVITY, color.opponent)
                return await self._announce(
                    GameUpdate(Event.ENDED, state, None, None, previous), announce
                )
            deadline = record.clock.deadline
            if deadline is None or deadline > now:
                return None
            done = (
                record.clock.white_computer_moves
                if color is Color.WHITE
                else record.clock.black_computer_moves
            )
            seat = record.seat(side_of(color))
            if self._mover is not None and seat.is_computer:
                move = await self._mover.choose_move(session.game)
                return await self._commit_move(
                    session, move, actor=None, by_computer=True, announce=announce
                )
            if self._mover is None or done >= self._rules.computer_moves_before_forfeit:
                state = await self._finish(session, EndReason.TIME_FORFEIT, color.opponent)
                return await self._announce(
                    GameUpdate(Event.ENDED, state, None, None, previous), announce
                )
            move = await self._mover.choose_move(session.game)
            return await self._commit_move(
                session, move, actor=None, by_computer=True, announce=announce
            )

    async def play_computer_turn(
        self, channel_id: int, *, announce: Announce | None = None
    ) -> GameUpdate | None:
        """If the side to move in the channel's game is a computer seat (issue 7's `/play`)
        and a mover is configured, let it move: it thinks without holding the channel's
        lock, then the move is committed and announced under the lock (see
        `commit_computer_move`). None when there is nothing for the computer to do, or the
        game changed while it thought."""
        session = self._sessions.get(channel_id)
        if session is None or self._mover is None:
            return None
        if not session.record.seat(side_of(session.game.position.turn)).is_computer:
            return None
        game_id, ply = session.record.id, session.game.ply
        move = await self._mover.choose_move(session.game)
        return await self.commit_computer_move(
            channel_id, game_id, ply, move, announce=announce
        )

    def computer_to_move(self, channel_id: int) -> tuple[engine.Game, int, int, int] | None:
        """For a channel whose game has a computer seat to move: (a copy of the engine
        game, the game id, the ply, the seat's level); None otherwise. The copy may be
        handed to a search while the real game goes on."""
        session = self._sessions.get(channel_id)
        if session is None:
            return None
        seat = session.record.seat(side_of(session.game.position.turn))
        if seat.computer_level is None:
            return None
        game = session.game
        copy = engine.Game(game.variant, game.start)
        for move in game.moves:
            copy.play(move)
        return copy, session.record.id, game.ply, seat.computer_level

    async def commit_computer_move(
        self,
        channel_id: int,
        game_id: int,
        ply: int,
        move: Move,
        *,
        announce: Announce | None = None,
    ) -> GameUpdate | None:
        """Play `move` for the computer seat to move in game `game_id`, chosen at `ply`:
        validated, committed (`played_by_computer`), then announced, under the channel's
        lock. None (nothing changed) when the game ended, moved on from `ply`, or the side
        to move is not a computer seat. Raises `PlayerError(MOVE_ILLEGAL)` for a move that
        is not legal there (a programming error of the mover)."""
        async with self.locks.hold(channel_id):
            session = self._sessions.get(channel_id)
            if session is None or session.record.id != game_id or session.game.ply != ply:
                return None
            if not session.record.seat(side_of(session.game.position.turn)).is_computer:
                return None
            if move not in session.game.legal_moves():
                raise PlayerError(Msg.MOVE_ILLEGAL, detail=repr(move), text=str(move))
            return await self._commit_move(
                session, move, actor=None, by_computer=True, announce=announce
            )
