"""Replay recorded games through the real bot, move by move as slash commands.

For each game of a PDN text: its White and Black players become users of the fake server
(named as in the record), White challenges Black to a rated game in a channel of its own
(`replay-NN`), Black presses Accept, and every recorded move is sent by the player to move
as `/move`, written as a player would type it (Italian numeric squares for Italian). After
the last recorded move the side the record names as loser resigns with `/resign` (and the
question's Resign), or both agree a draw with `/draw`. Then the stored game is read back
from the bot's database and checked: the same final position as the engine's own replay
of the record and the recorded result.

The one thing a record may do that the bot must not allow: play on past an automatic draw
(docs/RULES.md: threefold repetition and the no-progress rules end a live game at once). When the
engine's replay with the draw rules in force ends the game before the record does, the
bot must have ended it there too: the replay stops at that ply and expects that draw.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field

import engine
from engine import Color, format_move
from engine.pdn import PdnGame, PdnResult
from localplay.render import game_id_of
from localplay.server import LocalDiscord
from localplay.stored import StoredGames
from standin import (
    BotDidNotAnswer,
    ChannelInfo,
    EventKind,
    InteractionResult,
    MessageEvent,
    MessageRecord,
    StandInError,
    UserInfo,
)

Printer = Callable[[str], None]

#: Config the bot needs for a replay's leaderboard: players with a few games admitted
#: (provisional, shown with `?`); and the highest limits on pending challenges, since
#: games replayed side by side may challenge the same player at once.
REPLAY_ENV = {"DAMA_LEADERBOARD_MIN_GAMES": "1", "DAMA_LEADERBOARD_MAX_DEVIATION": "1000",
              "DAMA_CHALLENGES_PER_CHALLENGER": "25", "DAMA_CHALLENGES_PER_OPPONENT": "25"}

_RESULT_OF_OUTCOME = {Color.WHITE: PdnResult.WHITE_WINS, Color.BLACK: PdnResult.BLACK_WINS}


@dataclass(frozen=True)
class GameReplay:
    """How one recorded game went through the bot.

    `moves_sent`: /move commands answered with a board. `expected_result`: the recorded
    result, or the draw (or win) the rules impose earlier (`cut_by`: that termination).
    `stored_result`/`stored_termination`: what the bot stored. `problems`: what went wrong
    (empty: the game replayed exactly).
    """

    index: int
    white: str
    black: str
    channel: str
    game_id: int | None
    recorded: PdnResult
    moves_recorded: int
    moves_sent: int
    expected_result: PdnResult
    cut_by: str | None
    stored_result: str | None
    stored_termination: str | None
    problems: tuple[str, ...]

    @property
    def ok(self) -> bool:
        """True when every expected move was accepted and the stored game matches."""
        return not self.problems


@dataclass(frozen=True)
class ReplayReport:
    """Every game's replay, the moves sent, the wall time and each answer's time."""

    games: tuple[GameReplay, ...]
    moves: int
    seconds: float
    answer_times: tuple[float, ...]
    leaderboard: MessageRecord | None = None
    concurrency: int = 1

    @property
    def moves_per_second(self) -> float:
        """/move commands answered per second of wall time over the whole replay."""
        return self.moves / self.seconds if self.seconds > 0 else float("nan")

    def percentile(self, fraction: float) -> float:
        """Interaction-to-answer time (seconds) at `fraction` (nearest rank); NaN if none."""
        if not self.answer_times:
            return float("nan")
        ordered = sorted(self.answer_times)
        rank = min(len(ordered), max(1, int(-(-fraction * len(ordered) // 1))))
        return ordered[rank - 1]

    @property
    def failed(self) -> tuple[GameReplay, ...]:
        """The games with problems."""
        return tuple(game for game in self.games if not game.ok)

    def summary(self) -> str:
        """One paragraph: games, moves, moves per second, p50/p99 answer times."""
        return (
            f"{len(self.games)} games replayed ({len(self.failed)} with problems), "
            f"{self.moves} moves in {self.seconds:.1f} s: {self.moves_per_second:.1f} moves/s "
            f"through the whole stack ({self.concurrency} game(s) at a time); interaction to "
            f"answer p50 {self.percentile(0.5) * 1000:.0f} ms, "
            f"p99 {self.percentile(0.99) * 1000:.0f} ms over {len(self.answer_times)} "
            "interactions"
        )


@dataclass
class _Game:
    """Working state of one game's replay."""

    index: int
    pdn: PdnGame
    white: UserInfo
    black: UserInfo
    channel: ChannelInfo
    game_id: int | None = None
    moves_sent: int = 0
    problems: list[str] = field(default_factory=list)


class Replayer:
    """Replays games through `local` (a started `LocalDiscord`); see the module docstring.

    `emit` prints progress lines; `timeout` is the seconds the bot has to answer each
    interaction; `concurrency` how many games are replayed at the same time (each in its
    own channel).
    """

    def __init__(
        self,
        local: LocalDiscord,
        *,
        emit: Printer = print,
        timeout: float = 60.0,
        concurrency: int = 1,
    ) -> None:
        self.local = local
        self.standin = local.standin
        self.emit = emit
        self.timeout = timeout
        self.concurrency = max(1, concurrency)
        self.answer_times: list[float] = []
        self.stored = StoredGames(local.process.database)
        self.first_player: UserInfo | None = None
        """The first game's White player (set by `replay`), to ask for leaderboards."""

    async def _timed(self, call: Awaitable[InteractionResult]) -> InteractionResult:
        started = time.monotonic()
        result = await call
        self.answer_times.append(time.monotonic() - started)
        return result

    def _shown(self, user: UserInfo) -> str:
        found = self.standin.world.users.get(user.id)
        return (found.global_name or found.username) if found is not None else user.name

    def _player(self, name: str, fallback: str) -> UserInfo:
        text = " ".join((name or "").split())[:32] or fallback
        if text in ("?", "-"):
            text = fallback
        return self.standin.user(text)

    async def replay(self, games: Sequence[PdnGame], *, leaderboard: str | None = None,
                     ) -> ReplayReport:
        """Replay `games`; with `leaderboard` (a variant key), end with `/leaderboard` for
        it, asked by the first game's White player. Returns the report."""
        assert self.local.guild is not None
        work: list[_Game] = []
        for index, pdn in enumerate(games, start=1):
            white = self._player(pdn.tags.get("White", ""), f"White {index}")
            black = self._player(pdn.tags.get("Black", ""), f"Black {index}")
            if black.id == white.id:
                black = self.standin.user(f"{black.name} (Black)"[:32])
            channel = await self.standin.add_channel(self.local.guild, f"replay-{index:02d}")
            work.append(_Game(index, pdn, white, black, channel))
            if self.first_player is None:
                self.first_player = white
        gate = asyncio.Semaphore(self.concurrency)
        started = time.monotonic()

        async def one(game: _Game) -> GameReplay:
            async with gate:
                return await self._replay_one(game)

        results = await asyncio.gather(*(one(game) for game in work))
        seconds = time.monotonic() - started
        board = None
        if leaderboard is not None and work:
            answer = await self.standin.slash(
                work[0].white, work[0].channel, "leaderboard", {"variant": leaderboard},
                timeout=self.timeout,
            )
            board = answer.reply
        await self.stored.close()
        return ReplayReport(
            tuple(results), sum(r.moves_sent for r in results), seconds,
            tuple(self.answer_times), board, self.concurrency,
        )

    async def _replay_one(self, game: _Game) -> GameReplay:
        pdn = game.pdn
        variant = pdn.variant
        check = engine.Game(variant, pdn.game.start)
        try:
            await self._start(game)
            for move in pdn.game.moves:
                if check.outcome is not None:
                    break
                position = check.position
                mover = game.white if position.turn is Color.WHITE else game.black
                text = format_move(move, position, variant, numeric=variant.numeric_notation)
                answer = await self._timed(self.standin.slash(
                    mover, game.channel, "move", {"move": text}, timeout=self.timeout
                ))
                if answer.ephemeral or not answer.reply.attachments:
                    number = check.ply // 2 + 1
                    game.problems.append(
                        f"move {number} {text} ({mover.name}) refused: "
                        f"{answer.reply.text()[:200]}"
                    )
                    break
                check.play(move)
                game.moves_sent += 1
            if not game.problems and check.outcome is None:
                await self._finish(game, check)
        except (BotDidNotAnswer, StandInError) as error:
            game.problems.append(str(error))
        return await self._verify(game, check)

    async def _start(self, game: _Game) -> None:
        mark = self.standin.event_count
        challenge = await self._timed(self.standin.slash(
            game.white, game.channel, "challenge",
            {"opponent": game.black, "variant": game.pdn.variant.key, "rated": True,
             "color": "white"},
            timeout=self.timeout,
        ))
        if challenge.ephemeral:
            raise StandInError(f"challenge refused: {challenge.reply.text()[:200]}")
        await self._timed(self.standin.press(game.black, challenge.reply, "Accept",
                                             timeout=self.timeout))
        channel_id = game.channel.id

        def is_board(event: MessageEvent) -> bool:
            message = event.message
            return (event.kind is EventKind.CREATE and message.channel_id == channel_id
                    and bool(message.attachments) and game_id_of(message) is not None)

        board = await self.standin.wait_for_message(is_board, since=mark, timeout=self.timeout)
        game.game_id = game_id_of(board.message)

    async def _finish(self, game: _Game, check: engine.Game) -> None:
        recorded = game.pdn.result
        mover = game.white if check.position.turn is Color.WHITE else game.black
        other = game.black if mover is game.white else game.white
        steps: list[tuple[UserInfo, str]] = []
        if recorded is PdnResult.WHITE_WINS:
            steps = [(game.black, "resign")]
        elif recorded is PdnResult.BLACK_WINS:
            steps = [(game.white, "resign")]
        elif recorded is PdnResult.DRAW:
            steps = [(mover, "draw"), (other, "draw")]
        for user, command in steps:
            answer = await self._timed(self.standin.slash(
                user, game.channel, command, {}, timeout=self.timeout
            ))
            if command == "resign" and answer.ephemeral and any(
                b.label == "Resign" for b in answer.reply.buttons
            ):
                # /resign asks first, privately: confirm with the question's Resign.
                answer = await self._timed(self.standin.press(
                    user, answer.reply, "Resign", timeout=self.timeout
                ))
            if answer.ephemeral:
                game.problems.append(f"/{command} by {user.name} refused: "
                                     f"{answer.reply.text()[:200]}")
                return

    async def _verify(self, game: _Game, check: engine.Game) -> GameReplay:
        pdn = game.pdn
        cut_by = None
        expected = pdn.result
        if check.outcome is not None and check.ply < len(pdn.game.moves):
            cut_by = check.outcome.termination.name.lower()
        if check.outcome is not None:
            winner = check.outcome.winner
            expected = PdnResult.DRAW if winner is None else _RESULT_OF_OUTCOME[winner]
        stored_result = stored_termination = None
        if game.game_id is not None:
            try:
                stored = await self.stored.load(game.game_id)
            except Exception as error:
                game.problems.append(f"stored game {game.game_id} cannot be read: {error}")
            else:
                record = stored.record
                stored_result = record.result.value if record.result else None
                stored_termination = record.termination
                if not game.problems:
                    if stored.position != check.position:
                        game.problems.append(
                            "stored final position differs from the engine's replay: "
                            f"{stored.position.to_fen(pdn.variant)} != "
                            f"{check.position.to_fen(pdn.variant)}"
                        )
                    if len(stored.moves) != check.ply:
                        game.problems.append(
                            f"{len(stored.moves)} moves stored, {check.ply} expected")
                    if expected is not PdnResult.UNKNOWN and stored_result != expected.value:
                        game.problems.append(
                            f"stored result {stored_result} ({stored_termination}), "
                            f"expected {expected.value}"
                        )
        elif not game.problems:
            game.problems.append("no game was started")
        result = GameReplay(
            game.index, self._shown(game.white), self._shown(game.black), game.channel.name,
            game.game_id,
            pdn.result, len(pdn.game.moves), game.moves_sent, expected, cut_by,
            stored_result, stored_termination, tuple(game.problems),
        )
        self.emit(describe(result))
        return result


def describe(game: GameReplay) -> str:
    """One line about a replayed game."""
    head = (f"game {game.index} ({game.white} - {game.black}, #{game.channel}): "
            f"{game.moves_sent}/{game.moves_recorded} moves, recorded {game.recorded.value}")
    if game.cut_by is not None:
        head += (f"; the rules end it earlier ({game.cut_by.replace('_', ' ')}: "
                 f"{game.expected_result.value})")
    stored = f"stored {game.stored_result} ({game.stored_termination})"
    if game.ok:
        return f"{head}; {stored}: ok"
    return f"{head}; {stored}: PROBLEM: " + "; ".join(game.problems)
