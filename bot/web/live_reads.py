"""A game as its live viewers see it (`GameRead`), read once per ply for all of them
(`GameReads`): the events of `bot.web.live` (docs/ARCHITECTURE.md, "The web face").

The texts are the game page's (`bot.web.game_view`): each move as its move list writes
it (`numbered_moves`), the status line as the page says it under the board (whose move,
with the player's name; once the game is over, the result sentence of the page's own
view). The replay they are written from is extended by each new read with the moves
added since the last (in a worker thread: no move work on the event loop), not replayed
from the start. A move costs one read, the new moves' replay and, per language, one JSON
text, whatever the number of viewers.
"""

from __future__ import annotations

import asyncio
import json
from collections import OrderedDict
from collections.abc import Sequence

from bot.language import Language
from bot.services.replay import replay_game
from bot.web.game_view import GameInputs, game_view, numbered_moves, turn_status
from engine import Game
from storage import GameRecord, GameStatus, MoveRecord, Storage

MAX_EVENTS = 64
"""The most events one read keeps made (per client ply and language)."""

Names = tuple[str | None, str | None]


class GameRead:
    """A game as read once for its live viewers: the record, its moves as the page's
    move list writes them (`lines`), its players' names, the replay, and the events made
    of them (memoised per client ply and language)."""

    __slots__ = ("_events", "_results", "game", "lines", "moves", "names", "record", "turn")

    def __init__(self, record: GameRecord, moves: Sequence[MoveRecord], names: Names,
                 game: Game, lines: tuple[str, ...]) -> None:
        self.record = record
        self.moves = tuple(moves)
        self.names = names
        self.game = game
        """The replay of `moves`, until the next read of the game extends it
        (`GameReads`; an ended game's is never extended)."""
        self.turn = game.position.turn
        """The side to move after `moves`."""
        self.lines = lines
        self._results: dict[Language, str] = {}
        self._events: dict[tuple[int, Language], bytes] = {}

    @property
    def plies(self) -> int:
        return self.record.ply_count

    @property
    def over(self) -> bool:
        return self.record.status is not GameStatus.ACTIVE

    async def status(self, language: Language) -> str:
        """The page's status line in `language` (`GameView.status`): while the game
        goes on, whose move it is (`turn_status`); once over, the result sentence, from
        the page's view (in a worker thread, once per language)."""
        if not self.over:
            return turn_status(self.record, self.names, self.turn, language)
        found = self._results.get(language)
        if found is None:
            inputs = GameInputs(self.record, self.moves, self.names)
            view = await asyncio.to_thread(game_view, inputs, self.game, language)
            found = self._results[language] = view.status
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


def _extended(game: Game, record: GameRecord, moves: Sequence[MoveRecord]) -> Game:
    """`game` (the replay of the first moves) with the rest of `moves` played, or, when
    it went further, the whole replay (`replay_game`). Raises `engine.DamaError` when a
    stored move does not replay."""
    if game.ply > len(moves):
        return replay_game(record, moves)
    for move in moves[game.ply:]:
        game.play(move.text)
    return game


async def read_game(storage: Storage, game_id: int, before: GameRead | None = None) -> GameRead:
    """The game `game_id` as stored now. `before`: the game's previous read: only the
    moves after it are read, its replay is extended with them (and so taken from it) and
    its players' names are kept. Raises `StorageError` (`GameNotFoundError`: no such
    game), `engine.DamaError` when a stored move does not replay."""
    if before is not None:
        record, added = await storage.games.load(game_id, after=before.plies)
        if record.ply_count >= before.plies:
            moves = before.moves + tuple(added)
            game = await asyncio.to_thread(_extended, before.game, record, moves)
            lines = before.lines[:before.plies] + tuple(
                line.text for line in numbered_moves(game, before.plies + 1))
            return GameRead(record, moves, before.names, game, lines)
    record, stored = await storage.games.load(game_id)
    found: list[str | None] = []
    for seat in (record.white, record.black):
        player = None if seat.user_id is None else await storage.players.get(seat.user_id)
        found.append(None if player is None else player.display_name)
    game = await asyncio.to_thread(replay_game, record, stored)
    return GameRead(record, stored, (found[0], found[1]), game,
                    tuple(line.text for line in numbered_moves(game)))


ReadEntry = tuple[int, bool, "asyncio.Task[GameRead]"]
"""A kept read: the ply it was started for, whether it was started after the game's
end was heard, and its task."""


class GameReads:
    """One read of a game per ply for all its viewers, and one after its end.

    A viewer told ply N shares a read started for one told N or later (started after ply
    N was committed, so it shows it); once a game is read over, that read is final. A
    read runs in a task of its own, so a viewer that leaves does not cancel the others'.
    At most `size` games are kept; a failed read is forgotten, and so is a game's read
    when its last viewer leaves (`forget`)."""

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
        task = asyncio.ensure_future(self._after(storage, game_id, kept))
        self._reads[game_id] = (plies, ended, task)
        self._reads.move_to_end(game_id)
        while len(self._reads) > self._size:
            self._reads.popitem(last=False)
        task.add_done_callback(lambda done: self._forget_failed(game_id, done))
        return await asyncio.shield(task)

    async def _after(self, storage: Storage, game_id: int, kept: ReadEntry | None) -> GameRead:
        """The next read of the game, once the one before it (`kept`) is done: it
        extends that read's replay (reads of one game follow one another)."""
        before = None
        if kept is not None:
            try:
                before = await asyncio.shield(kept[2])
            except Exception:
                before = None  # that read failed: this one starts afresh
        return await read_game(storage, game_id, before)

    def forget(self, game_id: int) -> None:
        """Let the game's read go (its last viewer left); a read under way finishes for
        whoever waits on it."""
        self._reads.pop(game_id, None)

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
