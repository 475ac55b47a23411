"""The crash-point harness for tournaments (docs/ARCHITECTURE.md, "Crash points"): a
small Swiss (four players, two rounds; `notice`: paused by its organiser once round 1
is paired and resumed, or cancelled by its organiser in sign-up) or arena (two players,
ended early by its organiser) run by the real bot process against the stand-in with one
tournament point of `bot.faults` armed, so the process SIGKILLs itself there; then the
bot is started again without it, and once it has done what the restart owes, the
invariants are checked on the real SQLite file and on what the stand-in shows:

- every round (an arena's pairing) is paired once (its pairings posted once), each player
  at most once in it, and in an arena no player is in two games at once;
- every pairing has at most one game, and exactly one (or a forfeit) once its round is
  paired; each game is in its own thread, its pairing's, and no thread holds two games;
- every post of the ledger (sign-up, start, each round's pairings and results, the
  organiser's notices, the final) is recorded and appears exactly once, in the
  tournament's channel or thread (a post sent again after a kill carries its nonce:
  Discord returns the first message), and the sign-up post shows a pause or a
  cancellation;
- no acknowledged game end is lost (stored), and the tournament advanced past it: the
  next round paired, or the final posted;
- the Swiss's standings, in each results post and in the final, equal an independent
  computation from the stored results (docs/RULES.md, "Scores": a win 2, a draw 1, a
  pairing-allocated bye 2, a forfeit win 2), not the bot's `tournaments` code (an arena's
  streaks are not recomputed here).
"""

from __future__ import annotations

import asyncio
import collections
import re
from dataclasses import dataclass, field

from bot.messages import Msg, text
from localplay.render import game_id_of
from standin import EventKind, MessageRecord, Permission, UserInfo
from tests.support.crash_points import CrashHarness, query
from tests.support.local_discord import ANSWER_TIMEOUT

NAME = "Club Cup"
ROUNDS = 2
PLAYERS = {"swiss": ("bob", "carol", "dave", "erin"), "arena": ("bob", "carol")}
"""The players of each format's tournament."""

PATIENCE = 60.0
"""Seconds the tournament has to do what is due (a hang guard, not a measure)."""

_STANDING = re.compile(r"<@(\d+)>: \*\*(\d+)\*\*")
_POINTS = {"1-0": (2, 0), "0-1": (0, 2), "1/2-1/2": (1, 1),
           "+/-": (2, 0), "-/+": (0, 2), "-/-": (0, 0)}
"""Each result's points for White and Black (docs/RULES.md, "Scores")."""
_BYE_POINTS = {"U": 2, "Z": 0}

PAUSE, CANCEL = "pause", "cancel"
"""The organiser's changes a Swiss may be driven through (`TournamentUnderKill.notice`)."""
NOTICES: dict[str, tuple[str, ...]] = {
    "paused": (text(Msg.TOURNAMENT_POST_PAUSED, "en"),),
    "resumed": (text(Msg.TOURNAMENT_POST_RESUMED, "en"),),
    "ended": (text(Msg.TOURNAMENT_POST_ENDED, "en"), text(Msg.TOURNAMENT_POST_ENDED_ARENA, "en")),
    "cancelled": (text(Msg.TOURNAMENT_POST_CANCELLED, "en"),
                  text(Msg.TOURNAMENT_POST_CANCELLED_FEW, "en")),
}
"""Each notice's texts (English, from the catalog: a Swiss's or an arena's end, a cancel by
the organiser or for too few players), by its ledger kind."""
SIGNUP_STATUS = {"paused": "Paused by the organiser.", "cancelled": "Cancelled."}
"""What the sign-up post says of a paused or cancelled tournament (English)."""


@dataclass(frozen=True)
class Pairing:
    """A stored pairing: its round, board, players, thread, game and forfeit."""

    round: int
    board: int
    white: int
    black: int
    thread_id: int | None
    game_id: int | None
    forfeit: str | None


@dataclass
class TournamentUnderKill:
    """A Swiss or an arena (`format`) driven through the stand-in while the bot may die
    (`drive`), and its checks (`owed_done`, `check`)."""

    harness: CrashHarness
    format: str = "swiss"
    organiser: UserInfo | None = None
    players: dict[int, UserInfo] = field(default_factory=dict)
    signup: MessageRecord | None = None
    ended: set[int] = field(default_factory=set)
    """The games whose end a player saw acknowledged."""
    end_asked: bool = False
    """Whether the organiser ended the arena."""
    notice: str | None = None
    """`PAUSE`: the organiser pauses the Swiss once round 1's pairings are recorded (and
    resumes it when it is driven to the end); `CANCEL`: the organiser ends it in sign-up
    (cancelled); None: neither."""
    asked: collections.Counter[str] = field(default_factory=collections.Counter)
    """The organiser's commands given ("tournament pause"...), each counted."""

    @property
    def arena(self) -> bool:
        """Whether the tournament is an arena (else a Swiss)."""
        return self.format == "arena"

    # --- reading the database ---------------------------------------------------------------

    @property
    def database(self) -> str:
        """The bot's SQLite file."""
        return self.harness.database

    def tournament(self) -> tuple[int, str, int | None]:
        """The tournament's id, status and thread."""
        [(ident, status, thread)] = query(self.database,
                                          "SELECT id, status, thread_id FROM tournaments")
        return int(str(ident)), str(status), None if thread is None else int(str(thread))

    def pairings(self) -> list[Pairing]:
        """Every stored pairing, by round and board."""
        rows = query(self.database, "SELECT round, board, white_user_id, black_user_id, "
                     "thread_id, game_id, forfeit FROM tournament_pairings "
                     "ORDER BY round, board")

        def number(value: object) -> int | None:
            return None if value is None else int(str(value))

        return [Pairing(int(str(r)), int(str(b)), int(str(w)), int(str(k)), number(t),
                        number(g), None if f is None else str(f))
                for r, b, w, k, t, g, f in rows]

    def rounds(self) -> list[tuple[int, bool]]:
        """Each stored round's number and whether it is finished."""
        return [(int(str(n)), done is not None) for n, done in query(
            self.database, "SELECT number, finished_at FROM tournament_rounds ORDER BY number")]

    def unrecorded_posts(self) -> list[tuple[object, ...]]:
        """The ledger's claims whose message id is not recorded: (kind, key)."""
        return query(self.database, "SELECT kind, key FROM tournament_posts "
                     "WHERE message_id IS NULL")

    def _game(self, game_id: int) -> tuple[str, str | None, bool, int]:
        [(status, result, owed, channel)] = query(
            self.database, "SELECT status, result, board_owed, channel_id FROM games "
            "WHERE id = ?", game_id)
        return str(status), None if result is None else str(result), bool(owed), \
            int(str(channel))

    # --- driving ----------------------------------------------------------------------------

    async def create(self) -> None:
        """The organiser creates the tournament and its players join by its button (the
        bot running unarmed)."""
        standin, local = self.harness.standin, self.harness.local
        assert local.guild is not None
        alice = self.organiser = standin.user("alice")
        admins = await standin.add_role(local.guild, "admins", int(Permission.MANAGE_GUILD))
        await standin.give_role(local.guild, alice, admins)
        length = {"duration": "10m"} if self.arena else {"rounds": ROUNDS}
        created = await standin.slash(alice, local.channel, "tournament create", {
            "name": NAME, "format": self.format, "variant": "turkish", **length,
            "move_time": "5m"}, timeout=ANSWER_TIMEOUT)
        assert "is created" in created.reply.text(), created.reply.text()
        [self.signup] = [m for m in standin.messages(local.channel) if m.buttons]
        for name in PLAYERS[self.format]:
            user = standin.user(name)
            self.players[user.id] = user
            joined = await standin.press(user, self.signup, "Join", timeout=ANSWER_TIMEOUT)
            assert "You joined" in joined.reply.text(), joined.reply.text()

    async def drive(self, *, to_the_end: bool) -> None:
        """Play the tournament as its people would: the organiser starts it, then White
        resigns each game once its board is shown (an arena: once on its second pairing,
        on the way to the end, the organiser ends it). Until the bot dies (`to_the_end`
        False: it must die) or the final is recorded (True: it must not die)."""
        harness = self.harness
        loop = asyncio.get_running_loop()
        end = loop.time() + PATIENCE
        while harness.local.process.running:
            assert loop.time() < end, "the tournament stood still: " + self._state()
            _, status, _ = self.tournament()
            command = self._command(status, to_the_end=to_the_end)
            if command is not None:
                assert self.organiser is not None
                self.asked[command] += 1
                await harness.interact(harness.standin.slash(
                    self.organiser, harness.local.channel, command, {},
                    timeout=ANSWER_TIMEOUT))
                continue
            if status == "cancelled":
                assert to_the_end, "the tournament was cancelled without reaching the point"
                return
            if status == "finished" and not self.unrecorded_posts() and query(
                    self.database, "SELECT 1 FROM tournament_posts WHERE kind = 'final'"):
                assert to_the_end, "the tournament ended without reaching the armed point"
                return
            if (self.arena and to_the_end and not self.end_asked
                    and len(self.rounds()) >= 2 and status == "running"):
                assert self.organiser is not None
                await harness.interact(harness.standin.slash(
                    self.organiser, harness.local.channel, "tournament end", {},
                    timeout=ANSWER_TIMEOUT))
                self.end_asked = True
                continue
            if self.notice == PAUSE and not self.asked["tournament pause"]:
                await asyncio.sleep(0.05)  # no game ends before the pause
                continue
            playable = [p for p in self.pairings() if p.game_id is not None
                        and p.game_id not in self.ended
                        and self._game(p.game_id)[0] == "active"
                        and not self._game(p.game_id)[2]]
            if not playable:
                await asyncio.sleep(0.05)
                continue
            for pairing in playable:
                if not await self._resign(pairing):
                    break
        assert not to_the_end, "the bot died unarmed: " + harness.local.process.log_tail(40)
        await harness.wait_death()

    def _command(self, status: str, *, to_the_end: bool) -> str | None:
        """The organiser's command due now (None: none): the start in sign-up (the end,
        cancelling it, with `CANCEL`); with `PAUSE`, the pause once round 1's pairings
        are recorded, and the resumption when driven to the end."""
        if status == "signup":
            return "tournament end" if self.notice == CANCEL else "tournament start"
        if self.notice != PAUSE:
            return None
        if status == "running" and not self.asked["tournament pause"] and query(
                self.database, "SELECT 1 FROM tournament_posts WHERE kind = 'pairings' "
                "AND message_id IS NOT NULL"):
            return "tournament pause"
        if status == "paused" and to_the_end:
            return "tournament resume"
        return None

    async def _resign(self, pairing: Pairing) -> bool:
        """White resigns the pairing's game in its thread: False when the bot died before
        answering."""
        harness = self.harness
        assert pairing.thread_id is not None and pairing.game_id is not None
        white, thread = self.players[pairing.white], pairing.thread_id
        question = await harness.interact(harness.standin.slash(
            white, thread, "resign", {}, timeout=ANSWER_TIMEOUT))
        if question is None:
            return False
        assert question.ephemeral, question.reply.text()
        answer = await harness.interact(harness.standin.press(
            white, question.reply, "Resign", timeout=ANSWER_TIMEOUT))
        if answer is None:
            return False
        assert "resigned" in answer.reply.text(), answer.reply.text()
        self.ended.add(pairing.game_id)
        return True

    # --- after the restart ------------------------------------------------------------------

    def _state(self) -> str:
        return (f"tournament {self.tournament()}, rounds {self.rounds()}, "
                f"pairings {self.pairings()}, unrecorded posts {self.unrecorded_posts()}")

    def _owed(self) -> str | None:
        """What the tournament still owes after a restart (None: nothing)."""
        if self.unrecorded_posts():
            return "a claimed post is not recorded"
        _, status, _ = self.tournament()
        rounds = self.rounds()
        for pairing in self.pairings():
            if pairing.game_id is None and pairing.forfeit is None:
                return f"round {pairing.round} board {pairing.board} has no game"
            if pairing.game_id is not None and self._game(pairing.game_id)[2]:
                return f"game {pairing.game_id}'s board is owed"
        games = collections.defaultdict(list)
        for pairing in self.pairings():
            games[pairing.round].append(pairing)
        for number, done in rounds:
            over = all(p.forfeit is not None or self._game(p.game_id or 0)[0] != "active"
                       for p in games[number])
            if over and not done:
                return f"round {number} is over but not finished"
        posted = {(str(k), str(key)) for k, key in query(
            self.database, "SELECT kind, key FROM tournament_posts")}
        if status == "finished":
            return None if ("final", "") in posted else "the final is not posted"
        if rounds and rounds[-1][1] and not self.arena:
            return f"round {rounds[-1][0]} is finished and nothing followed"
        if self.arena and status == "running" and all(
                p.game_id is None or self._game(p.game_id)[0] != "active"
                for p in self.pairings()):
            return "the arena's free players are not paired again"
        return None

    async def owed_done(self) -> None:
        """Wait until the restarted bot did what the tournament owes (a round paired gets
        its games, a finished round its posts and the next round or the final, a claimed
        post its message); fails after `PATIENCE` seconds, saying what is missing."""
        loop = asyncio.get_running_loop()
        end = loop.time() + PATIENCE
        while (missing := self._owed()) is not None:
            assert loop.time() < end, f"after the restart: {missing}; {self._state()}"
            await asyncio.sleep(0.1)
        await asyncio.sleep(0.3)  # any second post would have landed by now

    def check(self) -> None:
        """The invariants of the module docstring, on the database and the stand-in."""
        ident, status, thread = self.tournament()
        assert thread is not None
        pairings = self.pairings()
        rounds = self.rounds()
        # Every round paired once: numbered 1..n, each player at most once in each.
        assert [n for n, _ in rounds] == list(range(1, len(rounds) + 1)), rounds
        for number, _ in rounds:
            seated = [u for p in pairings if p.round == number for u in (p.white, p.black)]
            seated += [int(str(u)) for (u,) in query(
                self.database, "SELECT user_id FROM tournament_byes WHERE round = ?", number)]
            assert len(seated) == len(set(seated)), f"round {number}: {seated}"
        playing = [u for p in pairings if p.game_id is not None
                   and self._game(p.game_id)[0] == "active" for u in (p.white, p.black)]
        assert len(playing) == len(set(playing)), f"a player in two games: {pairings}"
        # One game per pairing, in its own thread, and no game outside a pairing.
        games = [p.game_id for p in pairings if p.game_id is not None]
        assert all(p.game_id is not None or p.forfeit is not None for p in pairings), pairings
        assert len(games) == len(set(games))
        stored = [int(str(g)) for (g,) in query(self.database, "SELECT id FROM games")]
        assert sorted(stored) == sorted(games), f"games {stored}, paired {games}"
        threads = [p.thread_id for p in pairings if p.game_id is not None]
        assert len(threads) == len(set(threads)), f"a thread holds two games: {pairings}"
        for pairing in pairings:
            if pairing.game_id is not None:
                assert self._game(pairing.game_id)[3] == pairing.thread_id
        standin = self.harness.standin
        channel = self.harness.local.channel
        opened = sorted(c.id for c in standin.world.channels.values()
                        if c.parent_id == channel.id and c.id != thread)
        assert opened == sorted(t for t in threads if t is not None), (
            f"game threads opened {opened}, of pairings {threads}")
        for thread_id in opened:
            shown = {game_id_of(m) for m in standin.messages(thread_id) if m.attachments}
            assert len(shown - {None}) == 1, f"thread {thread_id} shows the games {shown}"
        # Every ledger post recorded and shown once, where it belongs.
        created = self._created()
        ledger = query(self.database, "SELECT kind, key, message_id FROM tournament_posts "
                       "WHERE tournament_id = ?", ident)
        for kind, key, message_id in ledger:
            assert message_id is not None, (kind, key)
            message = standin.message(int(str(message_id)))
            where = channel.id if kind == "signup" else thread
            assert message.channel_id == where and not message.deleted, (kind, key)
        kinds = collections.Counter(str(kind) for kind, _, _ in ledger)
        results = 0 if self.arena else sum(done for _, done in rounds)
        expected = collections.Counter({"signup": 1, "started": 1, "pairings": len(rounds),
                                        "results": results, "ended": int(self.end_asked),
                                        "paused": self.asked["tournament pause"],
                                        "resumed": self.asked["tournament resume"],
                                        "final": 1 if status == "finished" else 0})
        assert +kinds == +expected, (kinds, expected)
        self._check_notices(kinds, thread)
        twice = {shown[:80]: n for shown, n in collections.Counter(
            shown for channel_id, _, shown in created if channel_id in (channel.id, thread)
        ).items() if n > 1}
        assert not twice, f"posted more than once: {twice}"
        heads = [head for channel_id, head, _ in created if channel_id == thread]
        if self.arena:
            assert heads.count("**New games**") == len(rounds), heads
        for number, done in [] if self.arena else rounds:
            assert heads.count(f"**Round {number}: the pairings**") == 1, heads
            assert heads.count(f"**Round {number}: the results**") == (1 if done else 0), heads
        assert sum(h.startswith(f"**{NAME} is over.") for h in heads) == (
            1 if status == "finished" else 0), heads
        assert sum(1 for c, _, _ in created if c == channel.id) == 1, "the sign-up post twice"
        # No acknowledged end lost.
        for game_id in self.ended:
            assert self._game(game_id)[0] == "finished", f"game {game_id}: its end was lost"
        if not self.arena:
            self._check_standings(rounds)

    def check_cancelled(self) -> None:
        """A Swiss cancelled in sign-up: its sign-up post and its notice recorded, the
        notice shown once in its channel, no thread nor game, the sign-up post saying it
        is cancelled."""
        ident, status, thread = self.tournament()
        assert (status, thread) == ("cancelled", None)
        assert not self.pairings() and not query(self.database, "SELECT id FROM games")
        ledger = query(self.database, "SELECT kind, key, message_id FROM tournament_posts "
                       "WHERE tournament_id = ?", ident)
        assert all(message_id is not None for _, _, message_id in ledger), ledger
        kinds = collections.Counter(str(kind) for kind, _, _ in ledger)
        assert kinds == collections.Counter({"signup": 1, "cancelled": 1}), kinds
        self._check_notices(kinds, self.harness.local.channel.id)

    def _check_notices(self, kinds: collections.Counter[str], where: int) -> None:
        """Each notice of the ledger (`kinds`) shown exactly once in `where` (the thread;
        the channel before it is opened), and the sign-up post showing the status."""
        heads = [head for channel_id, head, _ in self._created() if channel_id == where]
        for kind, words in NOTICES.items():
            assert sum(head.startswith(words) for head in heads) == kinds[kind], (kind, heads)
        _, status, _ = self.tournament()
        assert self.signup is not None
        shown = self.harness.standin.message(self.signup.id)
        if status in SIGNUP_STATUS:
            assert SIGNUP_STATUS[status] in f"{shown.content} {shown.embeds}", shown.embeds

    def _created(self) -> list[tuple[int, str, str]]:
        """Each message the bot created in a channel (not ephemeral), as (channel, first
        line of its content or its embed's title, the whole of its content and embeds),
        in order."""
        bot_id = self.harness.standin.core.bot_id
        shown = []
        for event in self.harness.standin.events:
            message = event.message
            if (event.kind is not EventKind.CREATE or message.ephemeral
                    or message.author_id != bot_id):
                continue
            head = (message.content.splitlines() or [""])[0] or (
                message.embeds[0].get("title", "") if message.embeds else "")
            shown.append((message.channel_id, head, f"{message.content} {message.embeds}"))
        return shown

    def _check_standings(self, rounds: list[tuple[int, bool]]) -> None:
        """Each results post's standings (after its round) and the final's equal the
        points computed here from the stored results."""
        posts = {int(str(message)): int(str(number)) for message, number in query(
            self.database, "SELECT results_message_id, number FROM tournament_rounds "
            "WHERE results_message_id IS NOT NULL")}
        final = query(self.database, "SELECT message_id FROM tournament_posts "
                      "WHERE kind = 'final'")
        if final:
            posts[int(str(final[0][0]))] = len(rounds)
        for message_id, after in posts.items():
            message = self.harness.standin.message(message_id)
            [embed] = [e for e in message.embeds if "standings" in e.get("title", "")]
            shown = {int(u): int(s) for u, s in _STANDING.findall(embed["description"])}
            assert shown == self.points(after), (after, embed["description"])

    def points(self, after: int) -> dict[int, int]:
        """Each entrant's points after round `after`, from the stored games' results,
        forfeits and byes (docs/RULES.md, "Scores")."""
        points = {user: 0 for user in self.players}
        for pairing in self.pairings():
            if pairing.round > after:
                continue
            result = pairing.forfeit or (
                self._game(pairing.game_id)[1] if pairing.game_id is not None else None)
            assert result is not None, f"round {after} is finished without {pairing}"
            white, black = _POINTS[result]
            points[pairing.white] += white
            points[pairing.black] += black
        for user, kind in query(self.database, "SELECT user_id, kind FROM tournament_byes "
                                "WHERE round <= ?", after):
            points[int(str(user))] += _BYE_POINTS[str(kind)]
        return points
