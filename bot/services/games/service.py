"""`GameService`: the game service's one face for its callers (the Discord layer, the
other services, the tests), a thin facade over its parts; each method says which part
does the work."""

from __future__ import annotations

import random
from datetime import datetime

import engine
from bot.move_work import MoveWork
from bot.services.events import EventBus
from bot.services.games.core import GameCore
from bot.services.games.deadlines import GameDeadlines
from bot.services.games.endings import GameEndings
from bot.services.games.moves import GameMoves
from bot.services.games.reading import GameReading
from bot.services.games.recovery import GameRecovery
from bot.services.games.starting import GameStarts, Store, Vet
from bot.services.games.table import GameTable
from bot.services.games.values import (
    Announce,
    ComputerTurn,
    GameRules,
    GameStart,
    Rematch,
    ResignQuestion,
)
from bot.services.models import BoardRef, BoardState, GameUpdate, MoveChoice
from bot.services.move_text import suggest_moves
from bot.services.shards import EVERY_SHARD, ShardScope
from bot.services.visibility import Requester
from engine import Move, Position, Variant
from storage import GameRecord, Storage, utc_now
from storage.clock import Clock


class GameService:
    """Active games and their flow. Build with a `Storage`; call `restore()` once, then
    `post_owed_boards`. rules: the inactivity limit and the computer's moves for an
    absent player; events: where the service publishes (`bot.services.events`);
    move_work: where move generation runs (`bot.move_work`); scope: the guilds whose
    games this process restores, schedules and announces (`bot.services.shards`); rng:
    draws a RANDOM colour at a start."""

    def __init__(
        self,
        storage: Storage,
        *,
        rules: GameRules | None = None,
        clock: Clock = utc_now,
        events: EventBus | None = None,
        move_work: MoveWork | None = None,
        scope: ShardScope = EVERY_SHARD,
        rng: random.Random | None = None,
    ) -> None:
        self.table = GameTable(rules if rules is not None else GameRules())
        """The live games and their channels' locks (`bot.services.games.table`)."""
        self._core = GameCore(
            storage=storage, table=self.table,
            events=events if events is not None else EventBus(),
            clock=clock, move_work=move_work if move_work is not None else MoveWork(),
            scope=scope,
        )
        self._starts = GameStarts(self._core, rng=rng)
        self._moves = GameMoves(self._core)
        self._endings = GameEndings(self._core)
        self._deadlines = GameDeadlines(self._core)
        self._recovery = GameRecovery(self._core)
        self._reading = GameReading(self._core)

    @property
    def events(self) -> EventBus:
        """Where this service publishes its events (`bot.services.events`)."""
        return self._core.events

    @property
    def move_work(self) -> MoveWork:
        """Where move work runs: a worker thread, or a worker process for a position with
        very many capture states (`bot.move_work`)."""
        return self._core.move_work

    @property
    def scope(self) -> ShardScope:
        """The guilds whose games this process restores, schedules and announces."""
        return self._core.scope

    # --- start-up (`recovery`) ----------------------------------------------------------

    async def restore(self, *, dormant_over: int | None = None) -> list[BoardState]:
        """`GameRecovery.restore`."""
        return await self._recovery.restore(dormant_over=dormant_over)

    async def awake(self, channel_id: int) -> None:
        """Load the channel's game if it is still dormant after start-up
        (`GameTable.awake`); call it before the synchronous reads of a channel's game
        (`current`, `resign_question`, `suggestion_source`). Raises what loading raises
        (a storage error)."""
        await self.table.awake(channel_id)

    async def post_owed_boards(
        self, announce: Announce, *, at_most: int | None = None
    ) -> list[GameUpdate]:
        """`GameRecovery.post_owed_boards`."""
        return await self._recovery.post_owed_boards(announce, at_most=at_most)

    @property
    def owed_left(self) -> bool:
        """Whether the last `post_owed_boards` left boards owed (`GameRecovery.owed_left`)."""
        return self._recovery.owed_left

    # --- starting (`starting`) ----------------------------------------------------------

    async def start(
        self, game: GameStart, *, announce: Announce | None = None, vet: Vet | None = None,
        store: Store | None = None, rng: random.Random | None = None,
    ) -> GameUpdate:
        """`GameStarts.start`: the one way a game starts."""
        return await self._starts.start(game, announce=announce, vet=vet, store=store,
                                        rng=rng)

    def check_channel(self, channel_id: int, first: int | None, second: int | None) -> None:
        """`GameStarts.check_channel`: refuse a new game in a busy or quarantined
        channel (a challenge checks it again when it is made)."""
        self._starts.check_channel(channel_id, first, second)

    # --- moves (`moves`) ----------------------------------------------------------------

    async def play(
        self, channel_id: int, user_id: int, text: str, *, announce: Announce | None = None,
        board: BoardRef | None = None,
    ) -> GameUpdate:
        """`GameMoves.play`."""
        return await self._moves.play(channel_id, user_id, text, announce=announce,
                                      board=board)

    async def computer_turn(self, channel_id: int, game_id: int) -> ComputerTurn | None:
        """`GameMoves.computer_turn`."""
        return await self._moves.computer_turn(channel_id, game_id)

    async def commit_computer_move(
        self, turn: ComputerTurn, move: Move, *, announce: Announce | None = None
    ) -> GameUpdate | None:
        """`GameMoves.commit_computer_move`."""
        return await self._moves.commit_computer_move(turn, move, announce=announce)

    # --- endings (`endings`) ------------------------------------------------------------

    def resign_question(
        self, channel_id: int, user_id: int, *, board: BoardRef | None = None
    ) -> ResignQuestion:
        """`GameEndings.resign_question`."""
        return self._endings.resign_question(channel_id, user_id, board=board)

    async def resign(
        self, channel_id: int, user_id: int, *, board: BoardRef | None = None,
        announce: Announce | None = None,
    ) -> GameUpdate:
        """`GameEndings.resign`."""
        return await self._endings.resign(channel_id, user_id, board=board, announce=announce)

    async def draw(
        self, channel_id: int, user_id: int, *, board: BoardRef | None = None,
        announce: Announce | None = None,
    ) -> GameUpdate:
        """`GameEndings.draw`."""
        return await self._endings.draw(channel_id, user_id, board=board, announce=announce)

    async def abort(
        self, channel_id: int, user_id: int, *, may_manage: bool = False,
        announce: Announce | None = None,
    ) -> GameUpdate:
        """`GameEndings.abort`."""
        return await self._endings.abort(channel_id, user_id, may_manage=may_manage,
                                         announce=announce)

    # --- deadlines (`deadlines`) --------------------------------------------------------

    def next_deadline(self) -> datetime | None:
        """`GameTable.next_deadline`: the earliest deadline of any active game."""
        return self.table.next_deadline()

    async def run_deadlines(
        self, now: datetime | None = None, *, announce: Announce | None = None
    ) -> list[GameUpdate]:
        """`GameDeadlines.run`."""
        return await self._deadlines.run(now, announce=announce)

    # --- reading (`reading`, `table`) ---------------------------------------------------

    def has_game(self, channel_id: int) -> bool:
        """Whether the channel has an active game (live or dormant)."""
        return self.table.get(channel_id) is not None or self.table.is_dormant(channel_id)

    def is_active(self, game_id: int) -> bool:
        """`GameTable.is_active`."""
        return self.table.is_active(game_id)

    def players_in(self, channel_id: int) -> tuple[int | None, int | None] | None:
        """`GameTable.players_in`."""
        return self.table.players_in(channel_id)

    def current(self, channel_id: int) -> BoardState:
        """`GameReading.current`."""
        return self._reading.current(channel_id)

    async def show_board(
        self, channel_id: int, requester: Requester, *, announce: Announce | None
    ) -> GameUpdate:
        """`GameReading.show_board`."""
        return await self._reading.show_board(channel_id, requester, announce=announce)

    async def game_of(self, game_id: int) -> tuple[GameRecord, engine.Game]:
        """`GameReading.game_of`."""
        return await self._reading.game_of(game_id)

    def suggestion_source(
        self, channel_id: int, user_id: int
    ) -> tuple[Position, Variant, tuple[Move, ...]] | None:
        """`GameReading.suggestion_source`."""
        return self._reading.suggestion_source(channel_id, user_id)

    def suggestions(self, channel_id: int, user_id: int, typed: str) -> list[MoveChoice]:
        """Autocomplete for `/move` on the event loop (`suggest_moves` on
        `suggestion_source`; the play cog runs the two apart, off the loop): empty when
        there is no game here or it is not the caller's turn."""
        source = self.suggestion_source(channel_id, user_id)
        return [] if source is None else suggest_moves(*source, typed)

    async def last_ended(self, channel_id: int, user_id: int) -> int | None:
        """`GameReading.last_ended`."""
        return await self._reading.last_ended(channel_id, user_id)

    async def rematch_of(self, game_id: int, user_id: int) -> Rematch:
        """`GameReading.rematch_of`."""
        return await self._reading.rematch_of(game_id, user_id)
