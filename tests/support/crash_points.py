"""The crash-point harness (docs/ARCHITECTURE.md, "Crash points"): each game step run by
the real bot process against the stand-in with one named point of `bot.faults` armed
(`DAMA_FAULT_POINT`), so the process SIGKILLs itself there; then the bot is started
again without it and the invariants are checked on the real SQLite file and on what the
stand-in's channel shows:

- an acknowledged step (its answer reached the channel before the kill) is stored;
- a stored step is announced exactly once, after the restart at the latest (no board owed
  any more, no second board of the step), a step not stored is not announced;
- no game is active in a position the rules have ended; a finished game's result is the
  one its moves give, and each player's rating was applied exactly once;
- of the game's boards that still have buttons, only the newest (the current ply) acts,
  every older one is refused;
- a challenge is accepted at most once (one game; its Accept button, if still there, is
  refused).
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import enum
import functools
import random
import re
import sqlite3
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from bot.faults import ENVIRONMENT_VARIABLE, FaultPoint
from engine import Color, Game, format_move, get_variant
from localplay.process import BotProcessError
from localplay.render import game_id_of
from localplay.server import DEFAULT_CHANNELS, LocalDiscord
from localplay.stored import StoredGames
from standin import ChannelInfo, EventKind, InteractionResult, MessageRecord, UserInfo
from storage import Storage
from tests.support.forced_games import ForcedGame, forced_game
from tests.support.local_discord import ANSWER_TIMEOUT, READY_TIMEOUT
from tests.support.standin_play import play_move, posted_since, start_game, wait_board

DEATH_TIMEOUT = 60.0
"""Seconds the armed bot has to reach its point (a hang guard, not a measure)."""

BOT_ENV = {
    "DAMA_COMPUTER_WORKERS": "1",
    "DAMA_COMPUTER_BUDGET": "0.05",
    "DAMA_ABSENT_PLAYER_BUDGET": "0.05",
}
"""The bot's settings in these tests: one search process, the computer quick."""

_BUTTON_PLY = re.compile(r"^dama:[a-z]+:(\d+):(\d+)$")


class Step(enum.Enum):
    """The game steps that write (docs/ARCHITECTURE.md, "Crash points")."""

    MOVE = "move"
    FINAL_MOVE = "final move"
    ACCEPT = "accept"
    RESIGN = "resign"
    DRAW_OFFER = "draw offer"
    DRAW_ACCEPT = "draw accept"
    ABORT = "abort"
    COMPUTER_MOVE = "computer move"
    TIMEOUT_MOVE = "time-out move"


_BOARD_POINTS = (FaultPoint.STEP_COMMIT, FaultPoint.STEP_COMMITTED, FaultPoint.BOARD_POST,
                 FaultPoint.BOARD_POSTED, FaultPoint.BOARD_RECORDED,
                 FaultPoint.BUTTONS_REMOVE, FaultPoint.BUTTONS_REMOVED)

POINTS: dict[Step, tuple[FaultPoint, ...]] = {
    Step.MOVE: _BOARD_POINTS,
    Step.FINAL_MOVE: _BOARD_POINTS,
    Step.ACCEPT: (FaultPoint.STEP_COMMIT, FaultPoint.STEP_COMMITTED, FaultPoint.CHALLENGE_EDIT,
                  FaultPoint.CHALLENGE_EDITED, FaultPoint.BOARD_POST, FaultPoint.BOARD_POSTED,
                  FaultPoint.BOARD_RECORDED),
    Step.RESIGN: _BOARD_POINTS,
    # A draw offer is answered with a text, no board.
    Step.DRAW_OFFER: (FaultPoint.STEP_COMMIT, FaultPoint.STEP_COMMITTED, FaultPoint.BOARD_POST,
                      FaultPoint.BOARD_POSTED),
    Step.DRAW_ACCEPT: _BOARD_POINTS,
    Step.ABORT: _BOARD_POINTS,
    Step.COMPUTER_MOVE: _BOARD_POINTS,
    Step.TIMEOUT_MOVE: _BOARD_POINTS,
}
"""Every point each step passes, in order: the slow suite arms each one."""

FAST_POINTS: dict[Step, FaultPoint] = {
    Step.MOVE: FaultPoint.STEP_COMMITTED,
    Step.FINAL_MOVE: FaultPoint.STEP_COMMITTED,
    Step.ACCEPT: FaultPoint.CHALLENGE_EDITED,
    Step.RESIGN: FaultPoint.BOARD_POSTED,
    Step.DRAW_OFFER: FaultPoint.STEP_COMMITTED,
    Step.DRAW_ACCEPT: FaultPoint.BOARD_RECORDED,
    Step.ABORT: FaultPoint.BUTTONS_REMOVE,
    Step.COMPUTER_MOVE: FaultPoint.BOARD_POSTED,
    Step.TIMEOUT_MOVE: FaultPoint.STEP_COMMITTED,
}
"""One point per step for the fast suite: the ones between two writes or a write and a
Discord call, where a crash once left something wrong."""


@functools.cache
def turkish_forced_game() -> ForcedGame:
    """A short Turkish game that ends by the rules (computed once per test run)."""
    return forced_game(get_variant("turkish"))


def local_discord(tmp_path: Path, channels: Sequence[str] = DEFAULT_CHANNELS) -> LocalDiscord:
    """The stand-in and the bot (not started) on a database in `tmp_path`, the server with
    the text channels `channels`."""
    return LocalDiscord(database=tmp_path / "bot.sqlite3", log_path=tmp_path / "bot.log",
                        env=BOT_ENV, ready_timeout=READY_TIMEOUT, channels=channels,
                        # Discord's 3-second limit is tested elsewhere; here a loaded
                        # machine must not turn a slow answer into a crash-case failure.
                        ack_deadline=None)


def query(database: str, sql: str, *params: object) -> list[tuple[object, ...]]:
    """The rows of `sql` on the SQLite file `database`, opened read-only."""
    with contextlib.closing(sqlite3.connect(f"file:{database}?mode=ro", uri=True)) as conn:
        return list(conn.execute(sql, params))


def write(database: str, sql: str, *params: object) -> None:
    """Run `sql` on the SQLite file `database` and commit (the bot is down meanwhile)."""
    with contextlib.closing(sqlite3.connect(database)) as conn, conn:
        conn.execute(sql, params)


def board_ply(message: MessageRecord) -> int | None:
    """The ply a board's buttons were drawn for (None: no game buttons)."""
    for button in message.buttons:
        match = _BUTTON_PLY.match(button.custom_id or "")
        if match:
            return int(match.group(2))
    return None


def _game_button(message: MessageRecord) -> str:
    """The label of a board's draw button if it has one, else of its resign button."""
    labels = {(b.custom_id or "").split(":")[1]: b.label or "" for b in message.buttons
              if _BUTTON_PLY.match(b.custom_id or "")}
    return labels.get("draw") or labels["resign"]


@dataclass
class Scene:
    """A game set up for one step: where, who, and how the step is made."""

    channel: ChannelInfo
    players: tuple[UserInfo, ...]
    act: Callable[[], Awaitable[InteractionResult]] | None
    """The player's interaction of the step (None: the bot acts on its own at start-up)."""
    game_id: int | None = None
    challenge: MessageRecord | None = None
    ply_before: int = 0
    forced: ForcedGame | None = None
    notes: list[str] = field(default_factory=list)


class CrashHarness:
    """Runs one step with a point armed and checks the invariants (module docstring)."""

    def __init__(self, local: LocalDiscord) -> None:
        self.local = local
        self.standin = local.standin
        self.database = local.process.database
        self.kills = 0
        self.killed_at: collections.Counter[FaultPoint] = collections.Counter()
        self.acknowledged_moves = 0

    # --- the bot's life -------------------------------------------------------------------

    async def restart(self, point: FaultPoint | None, extra: dict[str, str] | None = None,
                      *, times: int = 1) -> None:
        """Kill the bot (if running) and start it again, armed with `point` (None: not),
        to die the `times`-th time it reaches it (which may be during start-up:
        `start_armed`)."""
        env = self.local.process.extra_env
        env.update(BOT_ENV)
        env.update(extra or {})
        env.pop(ENVIRONMENT_VARIABLE, None)
        if point is None:
            await self.local.process.kill()
            await self.local.start_bot()
            return
        env[ENVIRONMENT_VARIABLE] = f"{point.value}:{times}"
        await self.start_armed()

    async def wait_death(self, timeout: float = DEATH_TIMEOUT) -> None:
        """Wait until the armed bot has killed itself; asserts it did (the point was
        reached) with SIGKILL."""
        loop = asyncio.get_running_loop()
        end = loop.time() + timeout
        while self.local.process.running and loop.time() < end:
            await asyncio.sleep(0.02)
        assert not self.local.process.running, "the armed point was never reached"
        assert self.local.process.returncode == -9, self.local.process.returncode
        self.kills += 1

    async def settled(self, game_id: int, timeout: float = ANSWER_TIMEOUT) -> None:
        """Wait until the game's board is no longer owed (posted and recorded) and the
        background edits had time to land."""
        loop = asyncio.get_running_loop()
        end = loop.time() + timeout
        while loop.time() < end:
            [(owed,)] = query(self.database, "SELECT board_owed FROM games WHERE id = ?",
                               game_id)
            if not owed:
                await asyncio.sleep(0.2)
                return
            await asyncio.sleep(0.05)
        raise AssertionError(f"game {game_id}: its board is still owed after {timeout} s")

    async def moved(self, game_id: int, *, ply: int,
                    timeout: float = ANSWER_TIMEOUT) -> None:
        """Wait until the game has at least `ply` plies stored."""
        loop = asyncio.get_running_loop()
        end = loop.time() + timeout
        while loop.time() < end:
            [(count,)] = query(self.database, "SELECT ply_count FROM games WHERE id = ?",
                                game_id)
            if int(str(count)) >= ply:
                return
            await asyncio.sleep(0.05)
        raise AssertionError(f"game {game_id}: no ply {ply} after {timeout} s")

    # --- setting up each step --------------------------------------------------------------

    async def setup(self, step: Step) -> Scene:
        """The game just before `step`, every earlier step shown and recorded; the bot is
        left running unarmed."""
        standin, local = self.standin, self.local
        alice, bob = standin.user("alice"), standin.user("bob")
        channel = local.channel
        variant = get_variant("turkish")
        if step is Step.ACCEPT:
            challenge = await standin.slash(alice, channel, "challenge",
                                            {"opponent": bob, "variant": "turkish",
                                             "color": "white"}, timeout=ANSWER_TIMEOUT)
            assert not challenge.ephemeral, challenge.reply.text()
            message = challenge.reply
            return Scene(channel, (alice, bob),
                         lambda: standin.press(bob, message, "Accept", timeout=ANSWER_TIMEOUT),
                         challenge=message)
        if step is Step.COMPUTER_MOVE:
            # The computer (White) thinks for a minute: it is still thinking at the kill.
            await self.restart(None, {"DAMA_COMPUTER_BUDGET": "60"})
            started = await standin.slash(alice, channel, "play",
                                          {"variant": "turkish", "level": 5, "color": "black"},
                                          timeout=ANSWER_TIMEOUT)
            assert not started.ephemeral, started.reply.text()
            game_id = game_id_of(started.reply)
            assert game_id is not None
            await self.settled(game_id)
            return Scene(channel, (alice,), None, game_id=game_id)
        extra = {"move_time": "40s"} if step is Step.TIMEOUT_MOVE else {}
        if extra:
            challenge = await standin.slash(alice, channel, "challenge",
                                            {"opponent": bob, "variant": "turkish",
                                             "color": "white", **extra}, timeout=ANSWER_TIMEOUT)
            mark = standin.event_count
            await standin.press(bob, challenge.reply, "Accept", timeout=ANSWER_TIMEOUT)
            game_id = game_id_of(await wait_board(local, channel, since=mark)) or 0
        else:
            game_id, _ = await start_game(local, channel, alice, bob, variant)
        await self.settled(game_id)  # the first board recorded: nothing owed at the kill
        scene = Scene(channel, (alice, bob), None, game_id=game_id)
        if step is Step.ABORT:
            scene.act = lambda: standin.slash(alice, channel, "abort", {},
                                              timeout=ANSWER_TIMEOUT)
        elif step is Step.TIMEOUT_MOVE:
            pass  # the deadline is moved into the past while the bot is down (`arm`)
        elif step is Step.FINAL_MOVE:
            forced = turkish_forced_game()
            scene.forced = forced
            await local.process.kill()
            # All but the last move stored as the bot stores them (while it is down).
            storage = await Storage.open(self.database)
            try:
                game = Game(variant)
                for ply, (_, move) in enumerate(forced.moves[:-1], start=1):
                    text = format_move(move, game.position, variant, full=True)
                    game.play(move)
                    await storage.games.append_move(game_id, ply=ply, text=text)
            finally:
                await storage.close()
            await local.start_bot()  # posts the owed board of the last of them
            await self.settled(game_id)
            position, last = forced.moves[-1]
            mover = alice if position.turn is Color.WHITE else bob
            text = format_move(last, position, variant)
            scene.act = lambda: standin.slash(mover, channel, "move", {"move": text},
                                              timeout=ANSWER_TIMEOUT)
            scene.ply_before = len(forced.moves) - 1
        else:
            await play_move(local, alice, channel, "c3-c4")
            await self.settled(game_id)
            scene.ply_before = 1
            if step is Step.MOVE:
                scene.act = lambda: standin.slash(bob, channel, "move", {"move": "f6-f5"},
                                                  timeout=ANSWER_TIMEOUT)
            elif step is Step.RESIGN:
                # /resign asks first (privately); the step is the question's Resign.
                question = await standin.slash(bob, channel, "resign", {},
                                               timeout=ANSWER_TIMEOUT)
                scene.act = lambda: standin.press(bob, question.reply, "Resign",
                                                  timeout=ANSWER_TIMEOUT)
            elif step is Step.DRAW_OFFER:
                scene.act = lambda: standin.slash(bob, channel, "draw", {},
                                                  timeout=ANSWER_TIMEOUT)
            elif step is Step.DRAW_ACCEPT:
                offered = await standin.slash(bob, channel, "draw", {}, timeout=ANSWER_TIMEOUT)
                assert not offered.ephemeral, offered.reply.text()
                await self.settled(game_id)  # the offer told: nothing owed at the kill
                scene.act = lambda: standin.slash(alice, channel, "draw", {},
                                                  timeout=ANSWER_TIMEOUT)
        return scene

    # --- one crash ------------------------------------------------------------------------

    async def crash(self, step: Step, point: FaultPoint) -> None:
        """Set up `step`, run it with `point` armed, let the bot die, restart it unarmed
        and check every invariant."""
        scene = await self.setup(step)
        extra: dict[str, str] = {}
        if step is Step.TIMEOUT_MOVE:
            await self.local.process.kill()
            assert scene.game_id is not None
            write(self.database, "UPDATE games SET deadline_at = 0 WHERE id = ?",
                   scene.game_id)
        mark = self.standin.event_count  # before the start: it may post (and die)
        await self.restart(point, extra)
        task: asyncio.Future[InteractionResult] | None = (
            None if scene.act is None else asyncio.ensure_future(scene.act()))
        await self.wait_death()
        acknowledged = False
        if task is not None:
            await asyncio.wait([task], timeout=0.5)
            if task.done() and task.exception() is None:
                acknowledged = not task.result().ephemeral
            if not task.done():
                task.cancel()
            with contextlib.suppress(BaseException):
                await task
        # What the channel got from the bot before it died counts as acknowledged too.
        acknowledged = acknowledged or bool(posted_since(self.standin, scene.channel, mark))
        await self.restart(None)
        await self.check(step, scene, mark, acknowledged)

    # --- the invariants ------------------------------------------------------------------

    def _games_in(self, channel: ChannelInfo) -> list[int]:
        return [int(str(row[0])) for row in query(
            self.database, "SELECT id FROM games WHERE channel_id = ? ORDER BY id", channel.id)]

    async def check(self, step: Step, scene: Scene, mark: int, acknowledged: bool) -> None:
        """The invariants of the module docstring, after the restart."""
        games = self._games_in(scene.channel)
        if step is Step.ACCEPT:
            assert len(games) <= 1, f"the challenge started {len(games)} games"
            stored = bool(games)
            scene.game_id = games[0] if games else None
        game_id = scene.game_id
        if game_id is None:
            assert not acknowledged, "an acknowledged acceptance was not stored"
            await self._check_accepted_once(scene)
            return
        if step in (Step.COMPUTER_MOVE, Step.TIMEOUT_MOVE):
            # The restarted bot makes these steps again by itself (the computer is to
            # move; the deadline has passed): wait for that move, or the board it owes
            # could still be unposted when the game is read below.
            await self.moved(game_id, ply=1)
        await self.settled(game_id)
        async with StoredGames(self.database) as stored_games:
            stored_game = await stored_games.load(game_id)
        record = stored_game.record
        outcome = stored_game.game.outcome
        status = record.status.value

        # No game active in a position the rules ended; the result is the moves' one.
        if status == "active":
            assert outcome is None, f"game {game_id} is active in an ended position"
        if outcome is not None:
            assert status == "finished"
            expected = {Color.WHITE: "1-0", Color.BLACK: "0-1", None: "1/2-1/2"}[
                outcome.winner]
            assert record.result is not None and record.result.value == expected

        stored = {
            Step.MOVE: record.ply_count == scene.ply_before + 1,
            Step.FINAL_MOVE: record.ply_count == scene.ply_before + 1,
            Step.ACCEPT: True,
            Step.RESIGN: status == "finished",
            Step.DRAW_OFFER: record.draw_offer_by is not None,
            Step.DRAW_ACCEPT: status == "finished",
            Step.ABORT: status == "aborted",
            Step.COMPUTER_MOVE: record.ply_count == 1,
            Step.TIMEOUT_MOVE: record.ply_count == 1,
        }[step]
        if acknowledged:
            assert stored, f"{step.value}: acknowledged but not stored"
        if step in (Step.RESIGN, Step.DRAW_ACCEPT) and stored:
            expected = "1/2-1/2" if step is Step.DRAW_ACCEPT else "1-0"
            assert record.result is not None and record.result.value == expected

        # Ratings: applied exactly once to each player of a finished rated game, never
        # to an unfinished one.
        self._check_ratings(game_id)

        # Announced exactly once: one board (or, for a draw offer, one text) since the
        # step began if it was stored, none if not.
        created = posted_since(self.standin, scene.channel, mark)
        if step is Step.DRAW_OFFER:
            # Told by its text, or after the restart by the owed board showing the offer.
            told = [m for m in created if "offers a draw" in m.text()
                    or (m.attachments and game_id_of(m) == game_id)]
            assert len(told) == (1 if stored else 0), (
                f"draw offer {'stored' if stored else 'not stored'} told "
                f"{len(told)} times: {[m.text()[:80] for m in told]}")
        else:
            boards = [m for m in created if m.attachments and game_id_of(m) == game_id]
            assert len(boards) == (1 if stored else 0), (
                f"{step.value}: {len(boards)} boards for a step "
                f"{'stored' if stored else 'not stored'}: {[m.text()[:80] for m in boards]}")

        await self._check_buttons(scene, game_id, status == "active", record.ply_count)
        await self._check_accepted_once(scene)

    async def _check_accepted_once(self, scene: Scene) -> None:
        """The challenge's Accept button, while it is still shown, starts a game only when
        none was started (the acceptance was not stored), and is refused after that."""
        if scene.challenge is None:
            return
        for _ in range(2):
            shown = self.standin.message(scene.challenge)
            if not any(b.label == "Accept" for b in shown.buttons):
                return
            before = len(self._games_in(scene.channel))
            answer = await self.standin.press(scene.players[1], shown, "Accept",
                                              timeout=ANSWER_TIMEOUT)
            after = len(self._games_in(scene.channel))
            if before:
                assert answer.ephemeral and after == before, "a challenge accepted twice"
            else:
                assert after == 1, f"one acceptance started {after} games"

    def _check_ratings(self, game_id: int) -> None:
        """The game's rating changes (stored with its end, none for an unrated or early
        result, docs/RULES.md) applied exactly once, or not at all."""
        rows = query(self.database, "SELECT user_id, rated_games, rating FROM ratings")
        [(white, black, white_after, black_after)] = query(
            self.database, "SELECT white_user_id, black_user_id, white_rating_after, "
            "black_rating_after FROM games WHERE id = ? AND status = 'finished'", game_id,
        ) or [(None, None, None, None)]
        if white_after is None:
            assert all(row[1] == 0 for row in rows), rows
            return
        by_user = {row[0]: row for row in rows}
        for user, after in ((white, white_after), (black, black_after)):
            assert by_user[user][1] == 1, f"rating of {user} applied {by_user[user][1]} times"
            assert by_user[user][2] == after

    async def _check_buttons(self, scene: Scene, game_id: int, active: bool, ply: int) -> None:
        """Of the game's boards that still have buttons, older ones refuse, the newest
        (the current ply) acts."""
        newest: MessageRecord | None = None
        presser = scene.players[0]
        for message in self.standin.messages(scene.channel, include_ephemeral=False):
            drawn_for = board_ply(message)
            if (game_id_of(message) != game_id or drawn_for is None
                    or not message.attachments):
                continue  # not a board with game buttons (a draw offer's text, Rematch)
            if active and drawn_for == ply:
                newest = message
                continue
            label = _game_button(message)
            answer = await self.standin.press(presser, message, label, timeout=ANSWER_TIMEOUT)
            assert answer.ephemeral, f"a board of ply {drawn_for} acted at ply {ply}"
        if active:
            assert newest is not None, "the newest board (with its buttons) is missing"
            acted = await self.standin.press(presser, newest, _game_button(newest),
                                             timeout=ANSWER_TIMEOUT)
            # It acts: a draw offer or acceptance, or the resign question (asked
            # privately); an out-of-date board would say so.
            assert "out of date" not in acted.reply.text(), acted.reply.text()


    # --- the soak ---------------------------------------------------------------------------

    async def interact(self, action: Awaitable[InteractionResult]) -> InteractionResult | None:
        """Run one player's interaction; its result, or None when the bot died before
        answering (the player would see "This interaction failed")."""
        task = asyncio.ensure_future(action)
        while not task.done() and self.local.process.running:
            await asyncio.wait([task], timeout=0.02)
        if not task.done():
            await asyncio.wait([task], timeout=0.5)
        if not task.done():
            task.cancel()
        try:
            return await task
        except BaseException:
            return None

    async def soak(self, *, seed: int, kills: int, misses: int) -> None:
        """Random play with random armed points until `kills` kills, or until `misses`
        rounds in a row end without reaching their armed point (play that no longer
        reaches the points: the caller's count of kills then falls short). Counted in
        rounds, not seconds, so that a loaded machine makes the soak slower, never
        different."""
        rng = random.Random(seed)
        standin, local = self.standin, self.local
        alice, bob = standin.user("alice"), standin.user("bob")
        channel = local.channel
        variant = get_variant("turkish")
        points = [p for p in FaultPoint if p not in (FaultPoint.CHALLENGE_EDIT,
                                                      FaultPoint.CHALLENGE_EDITED)]
        acked: dict[int, int] = {}  # game id -> plies acknowledged
        ended: set[int] = set()  # games whose end was acknowledged
        missed = 0  # rounds in a row whose armed point was not reached
        while self.kills < kills and missed < misses:
            point = rng.choice(points) if rng.random() < 0.9 else rng.choice(list(FaultPoint))
            env = local.process.extra_env
            env[ENVIRONMENT_VARIABLE] = f"{point.value}:{rng.randint(1, 3)}"
            await self.start_armed()
            for _ in range(30):
                if not local.process.running:
                    break
                active = self._active_game(channel)
                if active is None:
                    challenge = await self.interact(standin.slash(
                        alice, channel, "challenge",
                        {"opponent": bob, "variant": "turkish", "color": "white",
                         "rated": rng.random() < 0.8}, timeout=ANSWER_TIMEOUT))
                    if challenge is None:
                        continue
                    # Refused: the challenge of an earlier round is still open (a kill cut
                    # its acceptance), and a player has one open challenge at a time.
                    open_one = (challenge.reply if not challenge.ephemeral
                                else self._open_challenge(channel))
                    if open_one is not None:
                        await self.interact(standin.press(bob, open_one, "Accept",
                                                          timeout=ANSWER_TIMEOUT))
                    continue
                async with StoredGames(self.database) as stored_games:
                    game = (await stored_games.load(active)).game
                mover = alice if game.position.turn is Color.WHITE else bob
                other = bob if mover is alice else alice
                roll = rng.random()
                if roll < 0.04:
                    question = await self.interact(standin.slash(mover, channel, "resign", {},
                                                             timeout=ANSWER_TIMEOUT))
                    if question is None or not question.messages:
                        continue
                    answer = await self.interact(standin.press(mover, question.reply, "Resign",
                                                           timeout=ANSWER_TIMEOUT))
                    if answer is not None and "resigned" in answer.reply.text():
                        ended.add(active)
                elif roll < 0.08:
                    await self.interact(standin.slash(other, channel, "draw", {},
                                                  timeout=ANSWER_TIMEOUT))
                elif roll < 0.10 and game.ply < 2:
                    answer = await self.interact(standin.slash(mover, channel, "abort", {},
                                                           timeout=ANSWER_TIMEOUT))
                    if answer is not None and not answer.ephemeral:
                        ended.add(active)
                else:
                    moves = sorted(game.legal_moves(), key=lambda m: (m.start, m.end))
                    move = rng.choice(moves)
                    text = format_move(move, game.position, variant)
                    answer = await self.interact(standin.slash(mover, channel, "move",
                                                           {"move": text},
                                                           timeout=ANSWER_TIMEOUT))
                    if answer is not None and not answer.ephemeral:
                        acked[active] = game.ply + 1
                        self.acknowledged_moves += 1
                        if "wins" in answer.reply.text():
                            ended.add(active)
            if local.process.running:
                missed += 1
                continue  # the point was not reached this round: arm another
            missed = 0
            assert local.process.returncode == -9, local.process.returncode
            self.kills += 1
            self.killed_at[point] += 1
            await self.restart(None)
            await self.check_all(acked, ended)

    async def start_armed(self) -> None:
        """Start the bot armed (the point is in its environment). At start-up it may post
        the boards owed by the previous round's kill and so reach its point before it is
        ready: that death is this round's kill, not a failure, and the soak counts it as
        any other (the process is then not running). Any other end raises."""
        await self.local.process.kill()
        try:
            await self.local.start_bot()
        except BotProcessError:
            if self.local.process.returncode != -9:
                raise

    def _open_challenge(self, channel: ChannelInfo) -> MessageRecord | None:
        """The channel's newest message with an Accept button that can be pressed (an open
        challenge's), None if there is none."""
        for message in reversed(self.standin.messages(channel, include_ephemeral=False)):
            if any(b.label == "Accept" and not b.disabled for b in message.buttons):
                return message
        return None

    def games(self) -> list[int]:
        """Every stored game's id."""
        return [int(str(row[0])) for row in query(self.database, "SELECT id FROM games")]

    def _active_game(self, channel: ChannelInfo) -> int | None:
        rows = query(self.database, "SELECT id FROM games WHERE channel_id = ? AND "
                      "status = 'active'", channel.id)
        return int(str(rows[0][0])) if rows else None

    async def check_all(self, acked: dict[int, int], ended: set[int]) -> None:
        """Every game of the database after a restart: acknowledged moves and ends stored,
        no game active in an ended position, results the moves' ones, each rating applied
        once per rated game, no board owed, no step shown twice."""
        for game_id in self.games():
            await self.settled(game_id)
            async with StoredGames(self.database) as stored_games:
                stored = await stored_games.load(game_id)
            record, outcome = stored.record, stored.game.outcome
            assert record.ply_count >= acked.get(game_id, 0), (
                f"game {game_id}: {acked[game_id]} moves acknowledged, "
                f"{record.ply_count} stored")
            if game_id in ended:
                assert record.status.value != "active", f"game {game_id}: end lost"
            if record.status.value == "active":
                assert outcome is None, f"game {game_id} is active in an ended position"
            if outcome is not None:
                expected = {Color.WHITE: "1-0", Color.BLACK: "0-1", None: "1/2-1/2"}[
                    outcome.winner]
                assert record.result is not None and record.result.value == expected
        # Ratings: each player's count of rated games is the number of finished rated games
        # stored, and the rating is the one after the latest of them.
        finished = query(self.database, "SELECT white_user_id, black_user_id, "
                          "white_rating_after, black_rating_after FROM games WHERE "
                          "white_rating_after IS NOT NULL ORDER BY finished_at, id")
        counts: dict[object, int] = {}
        latest: dict[object, object] = {}
        for white, black, white_after, black_after in finished:
            for user, after in ((white, white_after), (black, black_after)):
                counts[user] = counts.get(user, 0) + 1
                latest[user] = after
        for user, games, rating in query(self.database,
                                          "SELECT user_id, rated_games, rating FROM ratings"):
            assert games == counts.get(user, 0), f"user {user}: {games} rated games stored, " \
                f"{counts.get(user, 0)} finished"
            if games:
                assert rating == latest[user]
        # No step shown twice: one board per (game, ply, draw offer shown) with buttons,
        # one final board.
        # Each message as it was when it became a board: created as one, or a deferred
        # answer's "thinking" message edited into one.
        boards: dict[int, MessageRecord] = {}
        for event in self.standin.events:
            message = event.message
            if (event.kind is EventKind.DELETE or message.ephemeral or message.id in boards
                    or not message.attachments or game_id_of(message) is None):
                continue
            boards[message.id] = message
        seen: dict[tuple[int, int | str, bool], int] = {}
        for message in boards.values():
            shown = game_id_of(message)
            assert shown is not None
            ply = board_ply(message)
            key = (shown, "end" if ply is None else ply, "offers a draw" in message.text())
            seen[key] = seen.get(key, 0) + 1
        twice = {key: n for key, n in seen.items() if n > 1}
        assert not twice, f"boards shown more than once: {twice}"
