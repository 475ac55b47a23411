"""A game as its live viewers see it (`GameRead`), read once per ply for all of them
(`GameReads`): the events of `bot.web.live` (docs/ARCHITECTURE.md, "The web face").

The texts are the game page's (`bot.web.game_view`): each move as its move list writes
it (its number, then the move in the game's notation), the status line as the page says
it under the board (whose move, with the player's name; the result sentence once the game
is over, from the page's own view of the replayed game). A move costs one read and, per
language, one JSON text, whatever the number of viewers.
"""

from __future__ import annotations

import asyncio
import json
from collections import OrderedDict

from bot.language import Language
from bot.services.game_words import move_number, numeric_text
from bot.services.replay import replay_game
from bot.web.game_view import GameInputs, game_view, turn_status
from engine import Color, Position, Variant, get_variant
from storage import GameRecord, GameStatus, MoveRecord, Storage

MAX_EVENTS = 64
"""The most events one read keeps made (per client ply and language)."""


def move_line(ply: int, move: MoveRecord, variant: Variant, first: Color) -> str:
    """Ply `ply`'s stored `move` as the page's move list writes it (``12. 22-18``): its
    number (`move_number`; `first`, the side to move at the game's start, made ply 1),
    then the move in the game's notation, in numbers where the variant writes them
    (docs/RULES.md, "Coordinates and notation")."""
    mover = first if ply % 2 == 1 else first.opponent
    written = numeric_text(move.text, variant) if variant.numeric_notation else move.text
    return f"{move_number(ply, mover, variant)} {written}"


class GameRead:
    """A game as read once for its live viewers: the record, its moves as the page
    writes them, its players' names, and the events made of them (memoised per client
    ply and language)."""

    __slots__ = ("_events", "_moves", "_names", "_results", "_variant", "lines", "record")

    def __init__(self, record: GameRecord, moves: list[MoveRecord],
                 names: tuple[str | None, str | None]) -> None:
        self._variant = get_variant(record.variant)
        first = Position.from_fen(record.start_fen, self._variant).turn
        self.record = record
        self.lines = tuple(move_line(ply, move, self._variant, first)
                           for ply, move in enumerate(moves, start=1))
        self._moves = tuple(moves)
        self._names = names
        self._results: dict[Language, str] = {}
        self._events: dict[tuple[int, Language], bytes] = {}

    @property
    def plies(self) -> int:
        return self.record.ply_count

    @property
    def over(self) -> bool:
        return self.record.status is not GameStatus.ACTIVE

    async def status(self, language: Language) -> str:
        """The page's status line in `language`. Raises `engine.DamaError` when an
        ended game's stored moves do not replay (the page is refused then too)."""
        if not self.over:
            first = Position.from_fen(self.record.start_fen, self._variant).turn
            turn = first if self.plies % 2 == 0 else first.opponent
            return turn_status(self.record, self._names, turn, language)
        found = self._results.get(language)
        if found is None:
            game = await asyncio.to_thread(replay_game, self.record, self._moves)
            inputs = GameInputs(self.record, self._moves, self._names)
            found = self._results[language] = game_view(inputs, game, language).status
        return found

    async def event(self, after: int, language: Language) -> bytes:
        """The `position` event for a client that shows the plies up to `after` (one
        beyond the game's: every move), in `language`."""
        after = after if 0 <= after <= self.plies else 0
        key = (after, language)
        found = self._events.get(key)
        if found is None:
            data = json.dumps({
                "ply": self.plies,
                "moves": [{"ply": ply, "text": self.lines[ply - 1]}
                          for ply in range(after + 1, self.plies + 1)],
                "status": await self.status(language),
                "over": self.over,
            }, ensure_ascii=False, separators=(",", ":"))
            found = f"id: {self.plies}\nevent: position\ndata: {data}\n\n".encode()
            if len(self._events) < MAX_EVENTS:
                self._events[key] = found
        return found


async def read_game(storage: Storage, game_id: int) -> GameRead:
    """The game `game_id` as stored now, with its players' names. Raises `StorageError`
    (`GameNotFoundError`: no such game)."""
    record, moves = await storage.games.load(game_id)
    names: list[str | None] = []
    for seat in (record.white, record.black):
        player = None if seat.user_id is None else await storage.players.get(seat.user_id)
        names.append(None if player is None else player.display_name)
    return GameRead(record, moves, (names[0], names[1]))


ReadEntry = tuple[int, bool, "asyncio.Task[GameRead]"]
"""A kept read: the ply it was started for, whether it was started after the game's
end was heard, and its task."""


class GameReads:
    """One read of a game per ply for all its viewers, and one after its end.

    A viewer told ply N shares a read started for one told N or later (started after ply
    N was committed, so it shows it); once a game is read over, that read is final. A
    read runs in a task of its own, so a viewer that leaves does not cancel the others'.
    At most `size` games are kept; a failed read is forgotten."""

    def __init__(self, size: int = 1024) -> None:
        self._size = size
        self._reads: OrderedDict[int, ReadEntry] = OrderedDict()

    async def read(self, storage: Storage, game_id: int, plies: int, *,
                   ended: bool = False) -> GameRead:
        """The game as stored once ply `plies` is (and, `ended`, once it is over).
        Raises `StorageError` when the read fails (`GameNotFoundError`: no such game)."""
        kept = self._reads.get(game_id)
        if kept is not None and _covers(kept, plies, ended):
            self._reads.move_to_end(game_id)
            return await asyncio.shield(kept[2])
        task = asyncio.ensure_future(read_game(storage, game_id))
        self._reads[game_id] = (plies, ended, task)
        self._reads.move_to_end(game_id)
        while len(self._reads) > self._size:
            self._reads.popitem(last=False)
        task.add_done_callback(lambda done: self._forget_failed(game_id, done))
        return await asyncio.shield(task)

    def _forget_failed(self, game_id: int, task: asyncio.Task[GameRead]) -> None:
        if task.cancelled() or task.exception() is not None:
            kept = self._reads.get(game_id)
            if kept is not None and kept[2] is task:
                del self._reads[game_id]

    def __len__(self) -> int:
        return len(self._reads)


def _covers(kept: ReadEntry, plies: int, ended: bool) -> bool:
    kept_plies, kept_ended, task = kept
    final = (task.done() and not task.cancelled() and task.exception() is None
             and task.result().over)
    return final or (kept_plies >= plies and (kept_ended or not ended))
