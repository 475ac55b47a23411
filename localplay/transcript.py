"""The transcript of a local-play session: every message the bot posts or edits, printed.

`Transcript` listens to the stand-in and prints each bot message as it arrives (one
printer task, so the order is kept), numbered in its header (`--- [3] dama-bot in
#general ---`, an edit keeping its number, so `press 3 Accept` names it), with a text
board under each board picture; every attached file (board pictures, PDN exports) is
saved in `boards_dir` and its path printed. A text board shows the stored game as it was
when its message arrived (read at once, printed in turn), so it matches the picture even
when the message is printed late. It also keeps what `wait` searches: each message's text
as it arrived. The places are named as docs/LOCAL_PLAY.md says ("What it shows, and what
it keeps"): `#general`, `the DM of @bob with dama-bot`, `dm:@alice,@bob`,
`group:@alice,@bob,@carol`.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Callable
from pathlib import Path

from localplay.render import MessageText, game_id_of, mentioned_users, terminal_board
from localplay.server import LocalDiscord
from localplay.stored import StoredGame, StoredGames
from standin import ChannelType, EventKind, MessageEvent, MessageRecord, StandInError
from storage import GameStatus, StorageError

Printer = Callable[[str], None]

#: A bot message to print, with the stored game it shows read when it arrived (if any).
_Arrived = tuple[MessageEvent, "asyncio.Task[StoredGame] | None"]


class Transcript:
    """The printed messages of a session; see the module docstring.

    `local`: a started `LocalDiscord`. `games`: the bot's stored games (text boards,
    players' names of earlier runs). `boards_dir`: where files are saved. `emit`: how a
    line is printed. Use it as an async context manager: it listens from entering to
    leaving, and leaving prints what is still queued.
    """

    def __init__(
        self, local: LocalDiscord, games: StoredGames, *, boards_dir: str | Path, emit: Printer
    ) -> None:
        self.standin = local.standin
        self.games = games
        self.boards_dir = Path(boards_dir)
        self.emit = emit
        self.text = MessageText(self.name_of, self.mentioned_place)
        self.last_event = time.monotonic()
        """When the bot's latest message arrived (`time.monotonic()`)."""
        self.arrived: list[str] = []
        """Each bot message's text as it arrived, casefolded, in order (`wait`)."""
        self.arrival = asyncio.Event()
        """Set at each arrival (`wait` clears it and waits)."""
        self._stored_names: dict[int, str] = {}  # users of earlier runs, by id
        self._events: asyncio.Queue[_Arrived | None] = asyncio.Queue()
        self._printed: dict[int, list[str]] = {}
        self._numbers: dict[int, int] = {}  # message id -> its number in the transcript
        self._by_number: dict[int, int] = {}  # number -> message id
        self._saved = 0
        self._printer: asyncio.Task[None] | None = None

    # ---- lifecycle ---------------------------------------------------------------------
    async def __aenter__(self) -> Transcript:
        self.boards_dir.mkdir(parents=True, exist_ok=True)
        # Number on from an earlier session's pictures instead of overwriting them.
        numbers = [int(p.name[:4]) for p in self.boards_dir.glob("[0-9][0-9][0-9][0-9]-*")]
        self._saved = max(numbers, default=0)
        self.standin.add_listener(self._on_event)
        self._printer = asyncio.create_task(self._print_events())
        return self

    async def __aexit__(self, *exc: object) -> None:
        self.standin.remove_listener(self._on_event)
        await self._events.put(None)
        if self._printer is not None:
            with contextlib.suppress(asyncio.CancelledError):
                await self._printer

    async def printed(self, timeout: float) -> None:
        """Return once every message arrived so far is printed. Raises `TimeoutError`
        after `timeout` seconds."""
        await asyncio.wait_for(self._events.join(), timeout)

    # ---- names -------------------------------------------------------------------------
    def name_of(self, user_id: int) -> str | None:
        """A user's name: of this run's users, else as the bot stored it; None unknown."""
        user = self.standin.world.users.get(user_id)
        if user is None:
            return self._stored_names.get(user_id)
        return user.global_name or user.username

    async def _learn_names(self, message: MessageRecord) -> None:
        """Find the names of the users `message` mentions whom this run has not seen (the
        players of a game of an earlier run) among the players the bot stored, so they
        are shown `@name` like everyone else."""
        for user_id in mentioned_users(message):
            if user_id in self.standin.world.users or user_id in self._stored_names:
                continue
            with contextlib.suppress(StorageError):
                name = await self.games.player_name(user_id)
                if name:
                    self._stored_names[user_id] = name

    def channel_name(self, channel_id: int) -> str | None:
        """The name of a channel of this run's server (None when it has none)."""
        channel = self.standin.world.channels.get(channel_id)
        return channel.name if channel is not None and channel.name else None

    def mentioned_place(self, channel_id: int) -> str | None:
        """A channel mention as the transcript shows it: `#general`, or a DM or group DM
        named as a place (`dm:@alice,@bob`, `private_place`); None for a channel this run
        does not have."""
        private = self.private_place(channel_id)
        if private is not None:
            return private
        name = self.channel_name(channel_id)
        return None if name is None else f"#{name}"

    def _channel_name(self, channel_id: int) -> str:
        return self.channel_name(channel_id) or str(channel_id)

    def private_place(self, channel_id: int) -> str | None:
        """A DM or group DM as the transcript names it: `the DM of @alice with dama-bot`
        (where the bot's direct messages, notifications too, arrive), `dm:@alice,@bob`,
        `group:@alice,@bob,@carol`; None for a server's channel. Its people are named in
        alphabetical order, so a place has one name whoever of them opened or is in it."""
        channel = self.standin.world.channels.get(channel_id)
        if channel is None or channel.guild_id is not None:
            return None
        bot_id = self.standin.bot.id
        names = sorted((self.name_of(u) or str(u) for u in channel.recipient_ids if u != bot_id),
                       key=str.casefold)
        people = [f"@{name}" for name in names]
        if bot_id in channel.recipient_ids:
            return f"the DM of {', '.join(people)} with dama-bot"
        prefix = "group:" if channel.type is ChannelType.GROUP_DM else "dm:"
        return prefix + ",".join(people)

    # ---- numbers -----------------------------------------------------------------------
    def number_of(self, message_id: int) -> int:
        """The message's number in the transcript (given when it is first printed)."""
        if message_id not in self._numbers:
            number = len(self._numbers) + 1
            self._numbers[message_id] = number
            self._by_number[number] = message_id
        return self._numbers[message_id]

    def message_numbered(self, number: int) -> int | None:
        """The id of the message printed as `[number]`; None when none is."""
        return self._by_number.get(number)

    @property
    def numbered(self) -> int:
        """How many messages have a number so far."""
        return len(self._numbers)

    # ---- printing ----------------------------------------------------------------------
    def _on_event(self, event: MessageEvent) -> None:
        message = event.message
        if message.author_id != self.standin.bot.id or event.kind is EventKind.DELETE:
            return
        if message.loading:
            return
        self.last_event = time.monotonic()
        self.arrived.append("\n".join(self.text.lines(message)).casefold())
        self.arrival.set()
        game_id = game_id_of(message) if message.attachments else None
        # Read the game now, not when the printer gets to it: by then it may have moved on.
        snapshot = (asyncio.get_running_loop().create_task(self.games.load(game_id))
                    if game_id is not None else None)
        self._events.put_nowait((event, snapshot))

    async def _print_events(self) -> None:
        while True:
            arrived = await self._events.get()
            try:
                if arrived is None:
                    return
                await self._print_event(*arrived)
            except Exception as error:  # a printing problem must not end the session
                self.emit(f"! could not show a message: {error}")
            finally:
                self._events.task_done()

    async def _print_event(
        self, event: MessageEvent, snapshot: asyncio.Task[StoredGame] | None
    ) -> None:
        message = event.message
        await self._learn_names(message)
        plain = self.text.lines(message, buttons=False)
        if event.kind is EventKind.UPDATE and self._printed.get(message.id) == plain:
            if snapshot is not None:
                await asyncio.gather(snapshot, return_exceptions=True)
            return  # only its buttons changed (an older board retired): nothing to read
        self._printed[message.id] = plain
        lines = self.text.lines(message, pictures=self._save_files(message))
        self.emit(self._header(message, edited=event.kind is EventKind.UPDATE))
        for line in lines:
            self.emit(line)
        if snapshot is not None:
            self.emit(await self._text_board(snapshot))

    def _header(self, message: MessageRecord, *, edited: bool) -> str:
        where = (self.private_place(message.channel_id)
                 or f"#{self._channel_name(message.channel_id)}")
        parts = [f"--- [{self.number_of(message.id)}] dama-bot in {where}"]
        if message.interaction_id is not None:
            with contextlib.suppress(StandInError):
                done = self.standin.interaction(message.interaction_id)
                who = self.name_of(done.user_id)
                parts.append(f"answering @{who} {done.name}".rstrip())
        if message.ephemeral:
            parts.append(f"only @{self.name_of(message.visible_to or 0)} sees this")
        if edited:
            parts.append("edited")
        return ", ".join(parts) + " ---"

    def _save_files(self, message: MessageRecord) -> dict[int, str]:
        """Save every attachment of `message` in `boards_dir`, numbered on: board pictures
        as `NNNN-game-<id>.png`, other files (a PDN export) under their own name, e.g.
        `NNNN-dama-italian-1.pdn`. Returns attachment id -> saved path."""
        saved: dict[int, str] = {}
        game_id = game_id_of(message)
        for attachment in message.attachments:
            self._saved += 1
            name = Path(attachment.filename).name or "file"  # never a path of the sender's
            if (attachment.content_type or "").startswith("image/"):
                stem = f"game-{game_id}" if game_id is not None else Path(name).stem
                name = stem + (Path(name).suffix or ".png")
            path = self.boards_dir / f"{self._saved:04d}-{name}"
            path.write_bytes(attachment.data)
            saved[attachment.id] = str(path)
        return saved

    @staticmethod
    async def _text_board(snapshot: asyncio.Task[StoredGame]) -> str:
        try:
            stored = await snapshot
        except Exception as error:
            return f"  (no text board: {error})"
        over = stored.record.status is not GameStatus.ACTIVE
        board = terminal_board(stored.position, stored.game.variant, over=over)
        return "\n".join("  " + line for line in board.splitlines())
