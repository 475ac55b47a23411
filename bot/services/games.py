"""`GameService`: the game flow of the bot, on plain values.

One active game per channel. Each active game is a `LiveGame` in memory (the stored game
record and the engine's `Game` replayed from its moves); the database is the truth and
live games are rebuilt from it at start-up (`restore`).

Every change runs under the channel's lock (`ChannelLocks`): check the turn, validate,
commit to the database, update the live game, then call the caller's `announce`
callback, still inside the lock, so two moves in one channel are answered in the order
they were applied. `announce` returns the id of the board message it posted (or None);
the service records it (`_announce`, the one place that does), so the board it replaces
loses its buttons. A board's buttons carry its game and ply: a press acts only on the
game's current ply (`BoardRef`, `_check_board`), whatever message ids were recorded.
Nothing outside this service takes a channel's lock to show a board: `/board` is
`show_board`, a new game's first board is posted by `adopt`.

Events (`bot.services.events`, on the `EventBus` given at construction): `TurnChanged`
after a game starts or a move is committed and the game goes on, `GameEnded` after it
ends or is aborted, `DeadlinesChanged` whenever a deadline may have moved, and
`AbsentPlayerTurn` when the computer is to move for an absent player. The service does
not know who listens; the computer's turns (`bot.services.computer_turns.ComputerTurns`)
are one listener: it thinks without holding the lock and commits through
`commit_computer_move`, which checks under the lock that the game is still where it
searched.

Deadlines (docs/RULES.md, "Project-wide game rules", Time): a game with a per-move time
(`move_seconds`) has a stored deadline for the side to move; when it passes and someone
listens to `AbsentPlayerTurn`, the computer plays for the absent player, up to
`computer_moves_before_forfeit` moves in a row; without a listener, or after that many, the
player loses on time. Independently, a game with no move for `inactivity_limit` is lost on
time by the player to move. The clock deadline of a computer seat does not count (the
computer moves as soon as it has chosen).

Nothing that generates moves runs on the event loop: a position may have tens of thousands
of capture states (docs/RULES.md, set-up positions), and one game must not stall every
other. Parsing a move (`engine.parse_move`), writing it (`engine.format_move`), playing it
on the live game (which lists the next position's moves) and replaying a stored game run
through `bot.move_work.MoveWork` (`move_work`): in a worker thread, or in a worker process
when a position they touch has very many capture states (a thread would share the
interpreter's lock with the event loop), and so does copying a game for the computer.
All of it still inside the channel's lock where the change needs it. While a live game is
being advanced (`LiveGame.advancing`), readers that take no lock (`suggestion_source`,
`computer_turn`) leave it alone: its position and its move list may disagree until that
is done.
"""

from __future__ import annotations

import asyncio
import dataclasses
import logging
from collections.abc import Awaitable, Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from types import MappingProxyType

import engine
from bot.faults import FaultPoint, reach
from bot.messages import VARIANT_NAMES, Msg
from bot.move_work import MoveWork
from bot.ratings.calculator import glicko2_calculator
from bot.services.errors import ComputerRef, PlayerError, StaleBoardError, UserRef
from bot.services.events import (
    AbsentPlayerTurn,
    DeadlinesChanged,
    EventBus,
    GameEnded,
    TurnChanged,
)
from bot.services.locks import ChannelLocks
from bot.services.models import (
    BoardRef,
    BoardState,
    Ending,
    EndReason,
    Event,
    GameUpdate,
    MoveChoice,
    SeatView,
    color_of,
    counts_for_rating,
    side_of,
)
from bot.services.replay import last_move_text, replay_game
from bot.services.shards import EVERY_SHARD, ShardScope
from bot.services.visibility import Viewer, can_see
from engine import (
    AmbiguousMoveError,
    Color,
    IllegalMoveError,
    MalformedMoveError,
    Move,
    MoveProblem,
    NotationError,
    Position,
    Variant,
    format_move,
    parse_move,
)
from engine.movegen import play_unchecked
from storage import (
    ClockState,
    GameNotActiveError,
    GameRecord,
    GameResult,
    GameStatus,
    MoveRecord,
    RatingValue,
    StaleMoveError,
    Storage,
    StorageWriteError,
    utc_now,
)
from storage.clock import Clock

log = logging.getLogger(__name__)

Announce = Callable[[GameUpdate], Awaitable[int | None]]
"""Called inside the channel lock after a change is committed; returns the id of the
board message it posted, or None."""


@dataclass(frozen=True)
class ComputerTurn:
    """A turn the computer is to play: in `channel_id`'s game `game_id` at `ply`, a copy
    of the engine game (safe to search while the real game goes on), and the computer
    seat's `level`, or None when the computer moves for an absent person."""

    channel_id: int
    game_id: int
    ply: int
    game: engine.Game
    level: int | None

    @property
    def for_absent_player(self) -> bool:
        return self.level is None

MAX_CHOICES = 25
"""Discord shows at most 25 autocomplete choices."""

RESIGN_QUESTION_LIFETIME = timedelta(minutes=1)
"""How long the question "Resign game #7 against @bob?" may be answered (it lapses
sooner when the game moves on)."""


@dataclass(frozen=True)
class ResignQuestion:
    """What the resign question asks about: game `game_id` at `ply`, against
    `opponent`."""

    game_id: int
    ply: int
    opponent: UserRef | ComputerRef


@dataclass(frozen=True)
class Rematch:
    """The game to start again after game `game_id` (finished): same `variant`, `rated`
    and `move_seconds`, the asker's `color` the one they did not have, against
    `opponent` (a person's user id) or the computer at `level`."""

    game_id: int
    variant: str
    rated: bool
    move_seconds: int | None
    color: Color
    opponent: int | None
    level: int | None


@dataclass(frozen=True)
class GameRules:
    """The flow's settings: the inactivity limit, and how many moves in a row the
    computer may make for an absent player before that player loses on time."""

    inactivity_limit: timedelta = timedelta(days=3)
    computer_moves_before_forfeit: int = 3


@dataclass
class LiveGame:
    """An active game in memory: its stored record, the engine game, the players' ratings
    when it started, when the last move was made (or the game created), and the short text
    of the last move."""

    record: GameRecord
    game: engine.Game
    ratings: dict[Color, RatingValue | None]
    last_activity: datetime
    last_move_text: str | None
    advancing: bool = False
    """A move is being played on `game` in a worker thread (see the module docstring)."""


def _loaded(
    record: GameRecord, moves: Sequence[MoveRecord]
) -> tuple[engine.Game, str | None]:
    """The engine game replayed from its stored moves and its last move's text (slow for a
    long game or a position with many capture states: run in a worker thread)."""
    game = replay_game(record, moves)
    return game, last_move_text(game)


def _start_of(record: GameRecord) -> list[tuple[Position, Variant]]:
    """The start position of a stored game, for `MoveWork` to weigh (a set-up position
    may be heavy); none when it does not read (replaying it raises the error)."""
    try:
        variant = engine.get_variant(record.variant)
        return [(Position.from_fen(record.start_fen, variant), variant)]
    except engine.DamaError:
        return []


def _texts(move: Move, position: Position, variant: Variant) -> tuple[str, str]:
    """`move` written short (as shown) and in full (as stored)."""
    return format_move(move, position, variant), format_move(move, position, variant, full=True)


def parse_player_move(text: str, position: Position, variant: Variant) -> Move:
    """The legal move `text` names in `position`. Raises `PlayerError`: MOVE_AMBIGUOUS, or
    the message of the engine's reason (`problem_error`) for text that cannot be read or
    played (module-level, so a worker process can run it)."""
    try:
        return parse_move(text, position, variant)
    except AmbiguousMoveError as error:
        written = sorted(
            ((format_move(m, position, variant, full=True), m) for m in error.candidates),
            key=lambda pair: pair[0],
        )
        # Italian: the federation's numbers first, as the autocomplete labels them
        # (docs/RULES.md, "Coordinates and notation").
        names = ", ".join(
            f"{format_move(m, position, variant, full=True, numeric=True)} ({t})"
            if variant.numeric_notation else t
            for t, m in written
        )
        raise PlayerError(Msg.MOVE_AMBIGUOUS, text=text.strip(), candidates=names) from None
    except (MalformedMoveError, IllegalMoveError) as error:
        raise problem_error(error, text) from None


#: The message of each reason the engine gives for refusing move text.
MOVE_PROBLEMS: Mapping[MoveProblem, Msg] = MappingProxyType({
    problem: Msg["MOVE_" + problem.name]
    for problem in MoveProblem
    if problem not in (MoveProblem.AMBIGUOUS, MoveProblem.NO_NUMERIC_NOTATION)
})


def problem_error(error: NotationError, text: str) -> PlayerError:
    """The refusal for move text `text` that the engine refused with `error`: the message
    of its reason with the reason's details (squares, moves, count; a variant by its name's
    message), so that each reader gets it in their language."""
    key = MOVE_PROBLEMS.get(error.reason) if error.reason else None
    if key is None:
        key = Msg.MOVE_NOT_LEGAL
    params: dict[str, object] = {
        name: VARIANT_NAMES.get(str(value), value) if name == "variant" else value
        for name, value in error.details.items()
    }
    return PlayerError(key, text=text.strip(), **params)


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


def _replayed(game: engine.Game, plies: int) -> engine.Game:
    """A new engine game: `game`'s first `plies` moves played again from its start."""
    copy = engine.Game(game.variant, game.start)
    for move in game.moves[:plies]:
        copy.play(move)
    return copy


def _played(game: engine.Game, move: Move) -> engine.Game:
    """`game` after `move` (run in the worker process, on a copy of the live game)."""
    game.play(move)
    return game


def _normalise(text: str) -> str:
    return "".join(ch for ch in text.lower() if ch.isalnum())


def suggest_moves(
    position: Position, variant: Variant, moves: tuple[Move, ...], typed: str,
    numeric: bool = True,
) -> list[MoveChoice]:
    """The autocomplete choices among `moves` (the legal moves of `position`) matching
    `typed` (prefix of the move text, or of the Italian numeric form, ignoring case and
    separators): captures first (most pieces first), then by text; at most 25. An Italian
    choice is labelled with both forms, the reader's first (`numeric`: ``21-17 (b3-a4)``,
    else ``b3-a4 (21-17)``); its value is the algebraic form. Pure and possibly slow
    (formatting every move of a position with thousands of capture routes takes seconds):
    the Discord layer runs it in a worker thread."""
    wanted = _normalise(typed)
    choices: list[MoveChoice] = []
    texts = [(format_move(m, position, variant), m) for m in moves]
    texts.sort(key=lambda pair: (not pair[1].is_capture, -len(pair[1].captured), pair[0]))
    for value, move in texts:
        forms = [value]
        name = value
        if variant.numeric_notation:
            number_form = format_move(move, position, variant, numeric=True)
            forms.append(number_form)
            name = f"{number_form} ({value})" if numeric else f"{value} ({number_form})"
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
        locks: ChannelLocks | None = None,
        events: EventBus | None = None,
        move_work: MoveWork | None = None,
        scope: ShardScope = EVERY_SHARD,
    ) -> None:
        self._storage = storage
        self.move_work = move_work if move_work is not None else MoveWork()
        """Where move work runs: a worker thread, or a worker process for a position
        with very many capture states (`bot.move_work`)."""
        self.scope = scope
        """The guilds whose games this process restores, schedules and announces
        (`bot.services.shards`); by default every guild."""
        self._rules = rules
        self._clock = clock
        self.locks = locks if locks is not None else ChannelLocks()
        self.events = events if events is not None else EventBus()
        """Where this service publishes its events (`bot.services.events`)."""
        self._live: dict[int, LiveGame] = {}
        self._ended: dict[int, BoardState] = {}
        """The last game that ended in each channel (since start-up), by channel id."""
        self._quarantined: dict[int, int] = {}
        """Games (ids) by channel id whose stored moves no longer replay: kept, marked in
        storage, refused with GAME_QUARANTINED."""
        self._absent: set[int] = set()
        """Games (ids) whose person to move ran out of time and for whom the computer is
        choosing a move (`AbsentPlayerTurn` published, no move committed since)."""

    # --- live games ---------------------------------------------------------------------

    async def restore(self) -> list[BoardState]:
        """Load every active game from the database into memory (start-up); returns them.
        A game stored active whose moves end it by the rules is ended here instead, with
        the result the rules give and its ratings applied once (`_recover_end`), and is
        not returned; a game whose stored moves no longer replay is quarantined
        (`_load_or_quarantine`) and not returned either. Publishes `DeadlinesChanged`, then
        `TurnChanged` for each game (so a computer seat to move resumes thinking).
        Only the games this process owns (`scope`) are loaded: another process runs the
        others, and their deadlines and computer turns with them."""
        self._live.clear()
        self._quarantined.clear()
        states = []
        for record in await self._storage.games.active():
            if not self.scope.owns(record.guild_id):
                continue
            live = await self._load_or_quarantine(record)
            if live is None:
                continue
            if live.game.outcome is not None:
                await self._recover_end(live)
                continue
            self._live[record.channel_id] = live
            states.append(self._state(live))
        self.events.publish(DeadlinesChanged())
        for state in states:
            self.events.publish(TurnChanged(state))
        return states

    async def _load_or_quarantine(self, record: GameRecord) -> LiveGame | None:
        """The live game of an active `record`, or None when it is quarantined: its stored
        moves no longer replay (an `engine.DamaError`). Such a game is kept as it is,
        marked in storage (`games.quarantine`, once), logged, and its channel refuses every
        step with GAME_QUARANTINED; the other games start as usual."""
        if not record.quarantined:
            try:
                return await self._load(record.id)
            except engine.DamaError as error:
                log.error("game %s in channel %s is quarantined: its stored moves no longer "
                          "replay (%s); it is kept as it is and takes no more steps",
                          record.id, record.channel_id, error)
                try:
                    await self._storage.games.quarantine(record.id)
                except Exception:
                    log.exception("game %s: marking it quarantined failed (it is refused "
                                  "until the next start all the same)", record.id)
        else:
            log.warning("game %s in channel %s stays quarantined (its stored moves do not "
                        "replay)", record.id, record.channel_id)
        self._quarantined[record.channel_id] = record.id
        return None

    async def _recover_end(self, live: LiveGame) -> None:
        """End a game stored active whose moves end it by the rules (a database written
        before a move and its game's end were one transaction, or changed by hand): the
        result the rules give, rated as of its last move, in one transaction. Idempotent:
        a game already ended meanwhile is left as it is, its ratings applied once."""
        outcome = live.game.outcome
        assert outcome is not None
        record = live.record
        result = _result_of(outcome.winner)
        reason = EndReason.of(outcome.termination)
        rate = glicko2_calculator(result, live.last_activity) if record.rated else None
        try:
            ended = await self._storage.games.finish(
                record.id, result=result, termination=reason.value, rate=rate
            )
        except GameNotActiveError:
            return
        log.warning("game %s in channel %s was stored active after its last move ended it "
                    "(%s); ended now: %s", record.id, record.channel_id, reason.value,
                    result.value)
        self._close(live, ended, Ending(reason, outcome.winner, result))

    async def _load(self, game_id: int) -> LiveGame:
        record, moves = await self._storage.games.load(game_id)
        game, last_text = await self.move_work.run(_start_of(record), _loaded, record, moves)
        ratings = {
            color: await self._rating(record, color) for color in (Color.WHITE, Color.BLACK)
        }
        last = moves[-1].played_at if moves else record.created_at
        return LiveGame(record, game, ratings, last, last_text)

    async def _rating(self, record: GameRecord, color: Color) -> RatingValue | None:
        user_id = record.seat(side_of(color)).user_id
        if user_id is None:
            return None
        stored = await self._storage.ratings.get(user_id, record.variant)
        return None if stored is None else stored.value

    async def adopt(
        self, record: GameRecord, *, actor: int | None = None, announce: Announce | None = None
    ) -> GameUpdate:
        """Take a just-created active game (an accepted challenge, a `/play` game) into
        memory and announce its first board: returns the STARTED update (by `actor`), with
        the board message recorded. The caller holds the channel's lock. Publishes
        `DeadlinesChanged` and `TurnChanged`."""
        live = await self._load(record.id)
        self._live[record.channel_id] = live
        self.events.publish(DeadlinesChanged())
        state = self._state(live)
        self.events.publish(TurnChanged(state))
        return await self._announce(GameUpdate(Event.STARTED, state, actor), announce)

    def _live_game(
        self, channel_id: int, game_id: int | None = None, user_id: int | None = None
    ) -> LiveGame:
        """The channel's live game (`game_id`: it must be that one). Raises `PlayerError`:
        GAME_QUARANTINED, GAME_OVER (not game `game_id`), GAME_ENDED_HERE, NO_GAME_HERE, or
        NO_GAME_HERE_YOURS when `user_id` plays a game in another channel."""
        live = self._live.get(channel_id)
        if live is None:
            quarantined = self._quarantined.get(channel_id)
            if quarantined is not None and game_id in (None, quarantined):
                raise PlayerError(Msg.GAME_QUARANTINED, game_id=quarantined)
            if game_id is not None:
                raise PlayerError(Msg.GAME_OVER)
            ended = self._ended.get(channel_id)
            if ended is not None:
                raise PlayerError(Msg.GAME_ENDED_HERE, game_id=ended.game_id, result=ended)
            elsewhere = None if user_id is None else self._game_of_user(user_id)
            if elsewhere is not None:
                raise PlayerError(Msg.NO_GAME_HERE_YOURS, game_id=elsewhere.record.id,
                                  channel=f"<#{elsewhere.record.channel_id}>")
            raise PlayerError(Msg.NO_GAME_HERE)
        if game_id is not None and live.record.id != game_id:
            raise PlayerError(Msg.GAME_OVER)
        return live

    def _game_of_user(self, user_id: int) -> LiveGame | None:
        """One of `user_id`'s active games (the most recently active), None without any."""
        games = [live for live in self._live.values()
                 if user_id in (live.record.white.user_id, live.record.black.user_id)]
        return max(games, key=lambda live: live.last_activity, default=None)

    def has_game(self, channel_id: int) -> bool:
        return channel_id in self._live

    def is_active(self, game_id: int) -> bool:
        """Whether game `game_id` is being played (live here, not over)."""
        return any(live.record.id == game_id for live in self._live.values())

    def players_in(self, channel_id: int) -> tuple[int | None, int | None] | None:
        """(White's, Black's) user ids of the channel's active game, None without one."""
        live = self._live.get(channel_id)
        if live is None:
            return None
        return live.record.white.user_id, live.record.black.user_id

    # --- reading ------------------------------------------------------------------------

    def current(self, channel_id: int) -> BoardState:
        """The channel's active game. Raises `PlayerError`: GAME_ENDED_HERE (with the
        `game_id` and the final `BoardState` as `result`) when the channel's last game ended
        since start-up, GAME_QUARANTINED (with its `game_id`) when the channel's game cannot
        continue (its stored moves no longer replay), else NO_GAME_HERE."""
        return self._state(self._live_game(channel_id))

    def _visible_game(self, channel_id: int, viewer: Viewer) -> BoardState:
        live = self._live_game(channel_id, user_id=viewer.user_id)
        if not can_see(viewer, live.record):
            raise PlayerError(Msg.NO_GAME_HERE)
        return self._state(live)

    async def game_of(self, game_id: int) -> tuple[GameRecord, engine.Game]:
        """A stored game and its engine replay. Raises `PlayerError(UNKNOWN_GAME)`."""
        if await self._storage.games.get(game_id) is None:
            raise PlayerError(Msg.UNKNOWN_GAME, game_id=game_id)
        live = await self._load(game_id)
        return live.record, live.game

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
        live = self._live.get(channel_id)
        if live is None or live.advancing:
            return None
        game = live.game
        if self._seat_user(live, game.position.turn) != user_id:
            return None
        return game.position, game.variant, tuple(game.legal_moves())

    # --- building states ----------------------------------------------------------------

    def _seat_user(self, live: LiveGame, color: Color) -> int | None:
        return live.record.seat(side_of(color)).user_id

    def _deadline(self, live: LiveGame) -> datetime:
        """The inactivity limit, or the clock deadline when that is earlier and counts:
        a person is to move and the computer is not already moving for them."""
        inactivity = live.last_activity + self._rules.inactivity_limit
        clock = live.record.clock.deadline
        if clock is None or live.record.id in self._absent or self._computer_seat_to_move(live):
            return inactivity
        return min(clock, inactivity)

    @staticmethod
    def _computer_seat_to_move(live: LiveGame) -> bool:
        return live.record.seat(side_of(live.game.position.turn)).is_computer

    def _state(self, live: LiveGame, ending: Ending | None = None) -> BoardState:
        record, game = live.record, live.game
        moves = game.moves
        positions = game.positions()
        seats = {}
        for color in (Color.WHITE, Color.BLACK):
            side = side_of(color)
            change = record.white_rating if color is Color.WHITE else record.black_rating
            seats[color] = SeatView(record.seat(side), color, live.ratings[color], change)
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
            last_move_text=live.last_move_text,
            ply=game.ply,
            white=seats[Color.WHITE],
            black=seats[Color.BLACK],
            draw_offer_by=None if record.draw_offer_by is None else color_of(record.draw_offer_by),
            deadline=None if record.status is not GameStatus.ACTIVE else self._deadline(live),
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
        early = (record.rated and record.result is not None and record.white_rating is None
                 and record.black_rating is None)
        return Ending(reason, _winner_of(record.result), record.result, unrated_early=early)

    # --- announcing ---------------------------------------------------------------------

    async def _announce(self, update: GameUpdate, announce: Announce | None) -> GameUpdate:
        """Call `announce` with `update` (the caller holds the channel's lock) and record
        the board message it posted as the game's board; returns the update with that id.
        The one place where a board's message id is recorded. The step was committed
        before: if recording the id fails (e.g. the disk became full), that is logged and
        the update returned without it, never raised."""
        if announce is None:
            return update  # nobody to tell: the board stays owed (`post_owed_boards`)
        message_id = await announce(update)
        try:
            if message_id is None or not update.shows_board:
                # Told without a board message to record (a text instead of the board, or a
                # step told by a text: a draw offer).
                await self._storage.games.settle_board(update.state.game_id)
                return update
            await self._storage.games.set_board_message(update.state.game_id, message_id)
            reach(FaultPoint.BOARD_RECORDED)
        except Exception as error:
            # The step is committed and shown: a failure now must not reach the player as
            # an error (it would read as if the step had failed). Only the board's message
            # id is not recorded.
            explanation = error.explanation if isinstance(error, StorageWriteError) else None
            log.error("game %s: board message %s shown but not recorded: %s",
                      update.state.game_id, message_id, explanation or repr(error),
                      exc_info=None if explanation else error)
            return update
        live = self._live.get(update.state.channel_id)
        if live is not None and live.record.id == update.state.game_id:
            live.record = dataclasses.replace(live.record, board_message_id=message_id)
        state = dataclasses.replace(update.state, board_message_id=message_id)
        return dataclasses.replace(update, state=state)

    async def post_owed_boards(self, announce: Announce) -> list[GameUpdate]:
        """Start-up, after `restore`: announce the board of every game whose last step was
        stored but never shown (`GameRecord.board_owed`: killed between the commit and the
        post, or between the post and recording its message id), active or ended, each
        under its channel's lock as a SHOWN update (with the last move); `_announce`
        records the message and clears the debt. Returns the updates announced. A game
        whose stored moves no longer replay is logged and skipped. Only the boards of
        games this process owns (`scope`) are posted; their own process posts the others."""
        updates = []
        for record in await self._storage.games.owed_boards():
            if not self.scope.owns(record.guild_id):
                continue
            async with self.locks.hold(record.channel_id):
                record = await self._storage.games.get(record.id) or record
                if not record.board_owed or record.quarantined:
                    continue  # shown meanwhile (e.g. the computer moved again)
                live = self._live.get(record.channel_id)
                if live is None or live.record.id != record.id:
                    try:
                        live = await self._load(record.id)
                    except engine.DamaError as error:
                        log.error("game %s: its owed board cannot be shown, its stored "
                                  "moves do not replay: %s", record.id, error)
                        continue
                state = self._state(live)
                update = GameUpdate(Event.SHOWN, state, None, live.last_move_text,
                                    record.board_message_id)
                updates.append(await self._announce(update, announce))
        return updates

    async def show_board(
        self, channel_id: int, viewer: Viewer, *, announce: Announce | None
    ) -> GameUpdate:
        """Show the channel's game again (`/board`) to `viewer`: a SHOWN update is
        announced under the channel's lock and the new board message becomes the game's
        board (the previous one is named in the update, to lose its buttons). Raises
        `PlayerError` as `current`, and NO_GAME_HERE when the viewer may not see the game
        (`bot.services.visibility.can_see`: asked from another guild)."""
        self._visible_game(channel_id, viewer)  # refuse before waiting for the lock
        async with self.locks.hold(channel_id):
            state = self._visible_game(channel_id, viewer)
            update = GameUpdate(Event.SHOWN, state, None, None, state.board_message_id)
            return await self._announce(update, announce)

    # --- acting -------------------------------------------------------------------------

    def _player_color(self, live: LiveGame, user_id: int) -> Color:
        record = live.record
        side = record.side_of(user_id)
        if side is None:
            raise PlayerError(
                Msg.NOT_IN_GAME,
                white=self._who_plays(live, Color.WHITE),
                black=self._who_plays(live, Color.BLACK),
            )
        if record.white.user_id == record.black.user_id == user_id:
            return live.game.position.turn  # playing oneself: always your turn
        return color_of(side)

    def _who_plays(self, live: LiveGame, color: Color) -> UserRef | ComputerRef:
        seat = live.record.seat(side_of(color))
        if seat.user_id is not None:
            return UserRef(seat.user_id)
        return ComputerRef(seat.computer_level or 0)

    def _check_board(self, live: LiveGame, board: BoardRef | None) -> None:
        """A press on `board` (None: a slash command) acts only on the ply it was drawn
        for; message ids play no part. Raises `StaleBoardError` (with the current board)
        for another ply, or a board from before buttons carried their ply."""
        if board is not None and (board.ply is None or board.ply != live.game.ply):
            raise StaleBoardError(self._state(live))

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
        NOT_YOUR_TURN, a refused move (`problem_error`), MOVE_AMBIGUOUS, MOVE_RACE."""
        async with self.locks.hold(channel_id):
            live = self._live_game(channel_id, user_id=user_id)
            color = self._player_color(live, user_id)
            position = live.game.position
            if position.turn is not color:
                to_move = position.turn
                raise PlayerError(
                    Msg.NOT_YOUR_TURN,
                    player=self._who_plays(live, to_move),
                    color=to_move,
                )
            variant = live.game.variant
            move = await self.move_work.run(
                [(position, variant)], parse_player_move, text, position, variant
            )
            return await self._commit_move(
                live, move, actor=user_id, by_computer=False, announce=announce
            )

    async def _commit_move(
        self,
        live: LiveGame,
        move: Move,
        *,
        actor: int | None,
        by_computer: bool,
        announce: Announce | None,
    ) -> GameUpdate:
        record, game = live.record, live.game
        variant = game.variant
        position = game.position
        color = position.turn
        side = side_of(color)
        short, full = await self.move_work.run(
            [(position, variant)], _texts, move, position, variant
        )
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
        ply = game.ply + 1
        await self._advance(live, move)  # taken back below if the step is not committed
        before, game = game, live.game  # a new game when played in the worker process
        outcome = game.outcome
        ended: GameRecord | None = None
        try:
            reach(FaultPoint.STEP_COMMIT)
            if outcome is None:
                stored = await self._storage.games.append_move(
                    record.id, ply=ply, text=full, by_computer=by_computer,
                    clock=clock, clear_draw_offer=clear_offer,
                )
            else:
                # The move that ends the game, the game's end and both rating updates are
                # one transaction: no crash can leave the game active in an ended position.
                result = _result_of(outcome.winner)
                stored, ended = await self._storage.games.append_final_move(
                    record.id, ply=ply, text=full, by_computer=by_computer,
                    clock=clock, clear_draw_offer=clear_offer, result=result,
                    termination=EndReason.of(outcome.termination).value,
                    rate=glicko2_calculator(result, now) if record.rated else None,
                )
        except StaleMoveError:
            # Another process changed the game: reload it and let the player look again.
            self._live[record.channel_id] = await self._load(record.id)
            raise PlayerError(Msg.MOVE_RACE) from None
        except GameNotActiveError:
            self._live.pop(record.channel_id, None)
            raise PlayerError(Msg.GAME_OVER) from None
        except BaseException:
            # nothing was stored: take the move back
            live.game = before if game is not before else _replayed(game, ply - 1)
            raise
        reach(FaultPoint.STEP_COMMITTED)
        self._absent.discard(record.id)
        previous_board = record.board_message_id
        live.record = dataclasses.replace(
            record,
            ply_count=game.ply,
            clock=clock,
            draw_offer_by=None if clear_offer else record.draw_offer_by,
            updated_at=stored.played_at,
        )
        live.last_activity = stored.played_at
        live.last_move_text = short
        event = Event.COMPUTER_MOVED if by_computer else Event.MOVED
        if outcome is not None and ended is not None:
            reason = EndReason.of(outcome.termination)
            state = self._close(live, ended, Ending(reason, outcome.winner, ended.result))
            event = Event.ENDED
        else:
            state = self._state(live)
            self.events.publish(DeadlinesChanged())
            self.events.publish(TurnChanged(state))
        update = GameUpdate(event, state, actor, short, previous_board, absent)
        return await self._announce(update, announce)

    async def _advance(self, live: LiveGame, move: Move) -> None:
        """Play `move` on the live game in a worker thread (listing the next position's
        moves may take long); readers without the lock leave the game alone meanwhile
        (`LiveGame.advancing`). Raises what `Game.play` raises. If the caller is cancelled
        meanwhile, the thread is let finish and the move taken back before the
        cancellation goes on, so the game never changes behind the caller's back. When
        the next position has very many capture states (`bot.move_work`), a copy of the
        game plays the move in the worker process and replaces `live.game` (the game
        before is left as it was)."""
        game = live.game
        live.advancing = True
        work: asyncio.Future[Move] | None = None
        try:
            after = play_unchecked(game.position, move)
            if await self.move_work.is_heavy([(after, game.variant)]):
                live.game = await self.move_work.in_process(_played, game, move)
                return
            work = asyncio.ensure_future(asyncio.to_thread(game.play, move))
            await asyncio.shield(work)
        except asyncio.CancelledError:
            if work is None:
                raise  # the live game was not touched
            await asyncio.wait([work])
            if not work.cancelled() and work.exception() is None:
                live.game = _replayed(game, game.ply - 1)
            raise
        finally:
            live.advancing = False

    async def _finish(
        self, live: LiveGame, reason: EndReason, winner: Color | None
    ) -> BoardState:
        """Store the result (and rating changes, in the same transaction) and drop the
        live game; returns the final state. A rated game ended before each side has made
        two moves of its own (the computer's for an absent player do not count) keeps its
        result unrated (`counts_for_rating`, docs/RULES.md "Early results"). Publishes
        `DeadlinesChanged`, `GameEnded`."""
        record = live.record
        result = _result_of(winner)
        early = False
        if record.rated:
            moves = await self._storage.games.moves(record.id)
            first = Position.from_fen(record.start_fen, live.game.variant).turn
            early = not counts_for_rating([m.by_computer for m in moves], first)
        rate = glicko2_calculator(result, self._clock()) if record.rated and not early else None
        reach(FaultPoint.STEP_COMMIT)
        ended = await self._storage.games.finish(
            record.id, result=result, termination=reason.value, rate=rate, unrated=early
        )
        reach(FaultPoint.STEP_COMMITTED)
        return self._close(live, ended, Ending(reason, winner, result, unrated_early=early))

    def _close(self, live: LiveGame, ended: GameRecord, ending: Ending) -> BoardState:
        """After the game's end was committed (`ended`, its stored record): drop the live
        game, remember its final state for the channel; returns that state. Publishes
        `DeadlinesChanged`, `GameEnded`."""
        live.record = ended
        self._live.pop(ended.channel_id, None)
        self._absent.discard(ended.id)
        self.events.publish(DeadlinesChanged())
        state = self._state(live, ending)
        self._ended[ended.channel_id] = state
        self.events.publish(GameEnded(state))
        return state

    def resign_question(
        self, channel_id: int, user_id: int, *, board: BoardRef | None = None
    ) -> ResignQuestion:
        """What to ask `user_id` before they resign the channel's game (by `/resign`, or
        the Resign button of `board`): changes nothing. Raises `PlayerError` as `resign`."""
        live = self._live_game(channel_id, None if board is None else board.game_id, user_id)
        self._check_board(live, board)
        color = self._player_color(live, user_id)
        return ResignQuestion(live.record.id, live.game.ply,
                              self._who_plays(live, color.opponent))

    async def rematch_of(self, game_id: int, user_id: int) -> Rematch:
        """The rematch of finished game `game_id` that `user_id` asks for: the same game
        with colours swapped. Raises `PlayerError`: UNKNOWN_GAME, REMATCH_NOT_PLAYER (not
        a player of it, or it is not finished)."""
        record = await self._storage.games.get(game_id)
        if record is None:
            raise PlayerError(Msg.UNKNOWN_GAME, game_id=game_id)
        side = record.side_of(user_id)
        if side is None:
            white, black = (
                UserRef(seat.user_id) if seat.user_id is not None
                else ComputerRef(seat.computer_level or 0)
                for seat in (record.white, record.black)
            )
            raise PlayerError(Msg.REMATCH_NOT_PLAYER, game_id=game_id, white=white,
                              black=black)
        if record.status is GameStatus.ACTIVE:
            raise PlayerError(Msg.ALREADY_PLAYING_HERE)  # its board has no Rematch button
        other = record.seat(side.opponent)
        return Rematch(game_id, record.variant, record.rated, record.move_seconds,
                       color_of(side).opponent, other.user_id, other.computer_level)

    async def last_ended(self, channel_id: int, user_id: int) -> int | None:
        """The id of the channel's last game that ended (since start-up), else of
        `user_id`'s most recent ended game in the channel (from storage, e.g. after a
        restart); None if neither."""
        ended = self._ended.get(channel_id)
        if ended is not None:
            return ended.game_id
        recent = await self._storage.games.recent_for_user(user_id, limit=20,
                                                           include_aborted=True)
        return next((g.id for g in recent if g.channel_id == channel_id), None)

    async def resign(
        self,
        channel_id: int,
        user_id: int,
        *,
        board: BoardRef | None = None,
        announce: Announce | None = None,
    ) -> GameUpdate:
        """`user_id` resigns the channel's game (with `board`: pressed on that board, which
        must show the game's current ply). Raises `PlayerError`: NO_GAME_HERE, GAME_OVER
        (the board's game is over), STALE_BOARD (`StaleBoardError`), NOT_IN_GAME."""
        async with self.locks.hold(channel_id):
            live = self._live_game(channel_id, None if board is None else board.game_id,
                                   user_id)
            self._check_board(live, board)
            color = self._player_color(live, user_id)
            previous = live.record.board_message_id
            state = await self._finish(live, EndReason.RESIGNATION, color.opponent)
            update = GameUpdate(Event.ENDED, state, user_id, None, previous)
            return await self._announce(update, announce)

    async def draw(
        self,
        channel_id: int,
        user_id: int,
        *,
        board: BoardRef | None = None,
        announce: Announce | None = None,
    ) -> GameUpdate:
        """`user_id` offers a draw, or accepts the opponent's standing offer (the game ends
        drawn). An offer lapses when the offerer moves. Raises `PlayerError`: as `resign`,
        DRAW_ALREADY_OFFERED, and COMPUTER_NO_DRAW (the computer plays every game out)."""
        async with self.locks.hold(channel_id):
            live = self._live_game(channel_id, None if board is None else board.game_id,
                                   user_id)
            self._check_board(live, board)
            color = self._player_color(live, user_id)
            record = live.record
            if record.seat(side_of(color.opponent)).is_computer:
                raise PlayerError(Msg.COMPUTER_NO_DRAW)
            offer = record.draw_offer_by
            previous = record.board_message_id
            if offer is not None and offer is not side_of(color):
                state = await self._finish(live, EndReason.AGREEMENT, None)
                update = GameUpdate(Event.ENDED, state, user_id, None, previous)
                return await self._announce(update, announce)
            if offer is side_of(color) and record.white.user_id != record.black.user_id:
                raise PlayerError(
                    Msg.DRAW_ALREADY_OFFERED, opponent=self._who_plays(live, color.opponent)
                )
            reach(FaultPoint.STEP_COMMIT)
            await self._storage.games.set_draw_offer(record.id, side_of(color))
            reach(FaultPoint.STEP_COMMITTED)
            live.record = dataclasses.replace(record, draw_offer_by=side_of(color))
            update = GameUpdate(Event.DRAW_OFFERED, self._state(live), user_id)
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
            live = self._live_game(channel_id, user_id=user_id)
            record = live.record
            if not may_manage:
                self._player_color(live, user_id)
                if live.game.ply >= 2:
                    raise PlayerError(Msg.ABORT_TOO_LATE)
            previous = record.board_message_id
            reach(FaultPoint.STEP_COMMIT)
            ended = await self._storage.games.abort(
                record.id, termination=EndReason.ABORTED.value
            )
            reach(FaultPoint.STEP_COMMITTED)
            state = self._close(live, ended, Ending(EndReason.ABORTED, None, None, user_id))
            update = GameUpdate(Event.ENDED, state, user_id, None, previous)
            return await self._announce(update, announce)

    # --- deadlines ----------------------------------------------------------------------

    def next_deadline(self) -> datetime | None:
        """The earliest deadline of any active game (None without active games)."""
        return min((self._deadline(g) for g in self._live.values()), default=None)

    def _due(self, now: datetime) -> Iterator[LiveGame]:
        for live in list(self._live.values()):
            if self._deadline(live) <= now:
                yield live

    async def run_deadlines(
        self, now: datetime | None = None, *, announce: Announce | None = None
    ) -> list[GameUpdate]:
        """Act on every game whose deadline is at or before `now` (default: the clock):
        a passed per-move deadline hands the turn to the computer (`AbsentPlayerTurn`; it
        moves later, without this call waiting), or, without a listener for that event or
        after `computer_moves_before_forfeit` such moves in a row, the player loses on time;
        the inactivity limit makes the player to move lose on time. Returns the games ended
        here, each also announced."""
        moment = self._clock() if now is None else now
        updates = []
        for live in self._due(moment):
            channel_id = live.record.channel_id
            try:
                update = await self._run_deadline(channel_id, live.record.id, moment, announce)
            except Exception:
                log.exception("deadline of game %s in channel %s failed", live.record.id,
                              channel_id)
                continue
            if update is not None:
                updates.append(update)
        return updates

    async def _run_deadline(
        self, channel_id: int, game_id: int, now: datetime, announce: Announce | None
    ) -> GameUpdate | None:
        async with self.locks.hold(channel_id):
            live = self._live.get(channel_id)
            if live is None or live.record.id != game_id or self._deadline(live) > now:
                return None  # ended or moved meanwhile
            record = live.record
            color = live.game.position.turn
            previous = record.board_message_id
            if live.last_activity + self._rules.inactivity_limit <= now:
                state = await self._finish(live, EndReason.INACTIVITY, color.opponent)
                return await self._announce(
                    GameUpdate(Event.ENDED, state, None, None, previous), announce
                )
            done = (
                record.clock.white_computer_moves
                if color is Color.WHITE
                else record.clock.black_computer_moves
            )
            if (
                not self.events.listened(AbsentPlayerTurn)
                or done >= self._rules.computer_moves_before_forfeit
            ):
                state = await self._finish(live, EndReason.TIME_FORFEIT, color.opponent)
                return await self._announce(
                    GameUpdate(Event.ENDED, state, None, None, previous), announce
                )
            self._absent.add(game_id)
            self.events.publish(DeadlinesChanged())
            self.events.publish(AbsentPlayerTurn(self._state(live)))
            return None

    # --- the computer's turns -------------------------------------------------------------

    async def computer_turn(self, channel_id: int, game_id: int) -> ComputerTurn | None:
        """The turn the computer is to play in game `game_id` of the channel: a computer
        seat is to move, or the person to move ran out of time (`AbsentPlayerTurn`), with a
        copy of the game (made off the loop, `move_work`; the game may move on meanwhile, which
        `commit_computer_move` notices). None when neither holds (the game ended, someone
        moved or is moving: the `TurnChanged` after that move starts the next turn)."""
        live = self._live.get(channel_id)
        if live is None or live.record.id != game_id or live.advancing:
            return None
        seat = live.record.seat(side_of(live.game.position.turn))
        if seat.computer_level is None and game_id not in self._absent:
            return None
        game = live.game
        weigh = [(game.start, game.variant), (game.position, game.variant)]
        copy = await self.move_work.run(weigh, _replayed, game, game.ply)
        return ComputerTurn(channel_id, game_id, copy.ply, copy, seat.computer_level)

    async def commit_computer_move(
        self, turn: ComputerTurn, move: Move, *, announce: Announce | None = None
    ) -> GameUpdate | None:
        """Play `move`, chosen by the computer for `turn`: validated, committed
        (`by_computer`), then announced, under the channel's lock, only if the game is
        still where the computer searched (same game, same ply, still the computer's turn).
        None (nothing changed) otherwise: the game ended, someone moved or resigned
        meanwhile. Raises `PlayerError(MOVE_NOT_LEGAL)` for a move that is not legal there
        (a programming error of the move chooser)."""
        async with self.locks.hold(turn.channel_id):
            live = self._live.get(turn.channel_id)
            if live is None or live.record.id != turn.game_id or live.game.ply != turn.ply:
                return None
            if not self._computer_seat_to_move(live) and turn.game_id not in self._absent:
                return None
            if move not in live.game.legal_moves():
                raise PlayerError(Msg.MOVE_NOT_LEGAL, text=str(move))
            return await self._commit_move(
                live, move, actor=None, by_computer=True, announce=announce
            )
