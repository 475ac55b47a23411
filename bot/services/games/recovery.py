"""`GameRecovery`: start-up. `restore` rebuilds the live games from the database (the
truth), ending a game its stored moves already ended and quarantining one whose moves no
longer replay (with many games, those only people play stay dormant, each loaded so when
its channel is first held); `post_owed_boards` then announces every step that was stored
but never shown, the first few before the bot connects and the others after
(docs/ARCHITECTURE.md, "Recovery at start-up").

A game whose last step is owed is not handed on (`TurnChanged`) by `restore` but by
`post_owed_boards`, after its owed board: otherwise the computer's reply to a player's
move stored just before a crash would be posted (and clear the debt) before that move
was ever shown."""

from __future__ import annotations

import logging
from functools import lru_cache

import engine
from bot.ratings.calculator import glicko2_calculator
from bot.services.events import DeadlinesChanged, TurnChanged
from bot.services.games.core import GameCore
from bot.services.games.table import Dormant
from bot.services.games.values import Announce, LiveGame, result_of
from bot.services.models import BoardState, Ending, EndReason, GameUpdate, UpdateKind
from engine import Color, Position
from storage import GameNotActiveError, GameRecord, PlaceKind

log = logging.getLogger(__name__)


class GameRecovery:
    """Restores the live games and posts the owed boards."""

    def __init__(self, core: GameCore) -> None:
        self._core = core
        self._waiting: dict[int, int] = {}
        """Restored games (ids, by channel id) whose board is owed: their `TurnChanged`
        waits for `post_owed_boards`."""
        self.owed_left = False
        """Whether the last `post_owed_boards` left boards owed (its `at_most`)."""

    async def restore(self, *, dormant_over: int | None = None) -> list[BoardState]:
        """Load every active game from the database into memory (start-up); returns them.
        `dormant_over`: when this process owns more active games than that, a game that
        needs nothing at start-up (only people play it: no computer's turn to resume) is left
        dormant instead (`GameTable.sleep`: its record only, no replay) and loaded when its
        channel is first held (`_wake`: loaded, or quarantined, or ended by the rules as
        here), and is not returned; None: every game is loaded.
        A game stored active whose moves end it by the rules is ended here instead, with
        the result the rules give and its ratings applied once (`_recover_end`), and is
        not returned; a game whose stored moves no longer replay is quarantined
        (`_load_or_quarantine`) and not returned either. Publishes `DeadlinesChanged`, then
        `TurnChanged` for each game whose board is not owed (so a computer seat to move
        resumes thinking); a game whose board is owed gets it from `post_owed_boards`,
        after that board. Only the games this process owns (`scope`) are loaded: another
        process runs the others, and their deadlines and computer turns with them."""
        core = self._core
        core.table.clear()
        self._waiting.clear()
        states = []
        owned = [record for record in await core.storage.games.active()
                 if core.scope.owns(record.guild_id)]
        if dormant_over is not None and len(owned) > dormant_over:
            owned = await self._sleep(owned)
        for record in owned:
            live = await self._load_or_quarantine(record)
            if live is None:
                continue
            if live.game.outcome is not None:
                await self._recover_end(live)
                continue
            core.table.put(live)
            if record.board_owed:
                self._waiting[record.channel_id] = record.id
            states.append(core.table.state(live))
        core.events.publish(DeadlinesChanged())
        for state in states:
            if state.game_id not in self._waiting.values():
                core.events.publish(TurnChanged(state))
        return states

    async def _sleep(self, records: list[GameRecord]) -> list[GameRecord]:
        """Leave dormant each of `records` that needs nothing at start-up; returns the
        others (to load now): a computer seat (its turn may resume, after its owed board),
        a quarantine, or a start position that does not read (loading quarantines it). A
        dormant game's owed board wakes it when posted (`_post_owed` holds its channel)."""
        activity = await self._core.storage.games.last_activity()
        dormant, others = [], []
        for record in records:
            start = _start_turn(record.variant, record.start_fen)
            if (start is None or record.quarantined
                    or record.id not in activity
                    or record.white.is_computer or record.black.is_computer):
                others.append(record)
                continue
            turn = start if record.ply_count % 2 == 0 else start.opponent
            dormant.append(Dormant(record, activity[record.id], turn))
        self._core.table.sleep(dormant, self._wake)
        return others

    async def _wake(self, dormant: Dormant) -> None:
        """Load a dormant game under its channel's lock (`GameTable.hold`): it becomes
        live, or is quarantined (its stored moves no longer replay), or is ended (its
        stored moves ended it by the rules), as `restore` does."""
        live = await self._load_or_quarantine(dormant.record)
        if live is None:
            return
        if live.game.outcome is not None:
            await self._recover_end(live)
            return
        self._core.table.put(live)

    async def _load_or_quarantine(self, record: GameRecord) -> LiveGame | None:
        """The live game of an active `record`, or None when it is quarantined: its stored
        moves no longer replay (an `engine.DamaError`). Such a game is kept as it is,
        marked in storage (`games.quarantine`, once), logged, and its channel refuses every
        step with GAME_QUARANTINED; the other games start as usual."""
        if not record.quarantined:
            try:
                return await self._core.load(record.id)
            except engine.DamaError as error:
                log.error("game %s in channel %s is quarantined: its stored moves no longer "
                          "replay (%s); it is kept as it is and takes no more steps",
                          record.id, record.channel_id, error)
                try:
                    await self._core.storage.games.quarantine(record.id)
                except Exception:
                    log.exception("game %s: marking it quarantined failed (it is refused "
                                  "until the next start all the same)", record.id)
        else:
            log.warning("game %s in channel %s stays quarantined (its stored moves do not "
                        "replay)", record.id, record.channel_id)
        self._core.table.quarantine(record.channel_id, record.id)
        return None

    async def _recover_end(self, live: LiveGame) -> None:
        """End a game stored active whose moves end it by the rules (a database written
        before a move and its game's end were one transaction, or changed by hand): the
        result the rules give, rated as of its last move, in one transaction. Idempotent:
        a game already ended meanwhile is left as it is, its ratings applied once."""
        outcome = live.game.outcome
        assert outcome is not None
        record = live.record
        result = result_of(outcome.winner)
        reason = EndReason.of(outcome.termination)
        rate = glicko2_calculator(result, live.last_activity) if record.rated else None
        try:
            ended = await self._core.storage.games.finish(
                record.id, result=result, termination=reason.value, rate=rate
            )
        except GameNotActiveError:
            return
        log.warning("game %s in channel %s was stored active after its last move ended it "
                    "(%s); ended now: %s", record.id, record.channel_id, reason.value,
                    result.value)
        self._core.close(live, ended, Ending(reason, outcome.winner, result))

    async def post_owed_boards(
        self, announce: Announce, *, at_most: int | None = None
    ) -> list[GameUpdate]:
        """Start-up, after `restore`: announce the board of every game whose last step was
        stored but never shown (`GameRecord.board_owed`: killed between the commit and the
        post, or between the post and recording its message id), active or ended, one at a
        time, each under its channel's lock as a SHOWN update (with the last move);
        `announce`'s message is recorded, which clears the debt. A board shown meanwhile
        (a move answered in that game while its board was owed) is not posted again. Then
        a restored game goes on: its `TurnChanged` is published (the computer's reply
        comes after the board it answers), also when its board could not be shown.
        Only games played in a CHANNEL place: in an INTERACTIONS place no board can be
        posted, it is shown with the game's next interaction (docs/ARCHITECTURE.md,
        "Places"). `at_most`: post at most that many boards now and leave the others, and their
        games' `TurnChanged`, to the next call (`owed_left` says whether some are left);
        None: all of them. Returns the updates announced. A game whose stored moves no
        longer replay is logged and skipped. Only the boards of games this process owns
        (`scope`) are posted; their own process posts the others. Raises what `announce`
        raises (the games restored still go on)."""
        core = self._core
        updates = []
        # One record past `at_most` tells whether some are left, without reading them all.
        # A game in an INTERACTIONS place waits for its next interaction instead
        # (docs/ARCHITECTURE.md, "Places").
        read = await core.storage.games.owed_boards(None if at_most is None else at_most + 1,
                                                    place=PlaceKind.CHANNEL)
        self.owed_left = at_most is not None and len(read) > at_most
        done = [record for record in read[:at_most] if core.scope.owns(record.guild_id)]
        try:
            for record in done:
                try:
                    update = await self._post_owed(record, announce)
                finally:
                    self._go_on(record.channel_id)
                if update is not None:
                    updates.append(update)
        finally:
            if not self.owed_left:
                for channel_id in list(self._waiting):
                    self._go_on(channel_id)
        return updates

    async def _post_owed(self, owed: GameRecord, announce: Announce) -> GameUpdate | None:
        """Announce `owed`'s board under its channel's lock, unless it was shown meanwhile
        or cannot be replayed; returns the update announced."""
        core = self._core
        async with core.table.hold(owed.channel_id):
            record = await core.storage.games.get(owed.id) or owed
            if not record.board_owed or record.quarantined:
                return None  # shown meanwhile (e.g. the computer moved again)
            live = core.table.get(record.channel_id, record.id)
            if live is None:
                try:
                    live = await core.load(record.id)
                except engine.DamaError as error:
                    log.error("game %s: its owed board cannot be shown, its stored "
                              "moves do not replay: %s", record.id, error)
                    return None
            update = GameUpdate(UpdateKind.SHOWN, core.table.state(live), None,
                                live.last_move_text, record.board_message_id)
            return await core.announce(update, announce)

    def _go_on(self, channel_id: int) -> None:
        """Publish the `TurnChanged` that `restore` kept back for the channel's game (if it
        is still live)."""
        game_id = self._waiting.pop(channel_id, None)
        if game_id is None:
            return
        live = self._core.table.get(channel_id, game_id)
        if live is not None:
            self._core.events.publish(TurnChanged(self._core.table.state(live)))


@lru_cache(maxsize=64)
def _start_turn(variant: str, start_fen: str) -> Color | None:
    """The colour to move in a stored game's start position, None when it does not read
    (cached: nearly every game starts from its variant's start)."""
    try:
        return Position.from_fen(start_fen, engine.get_variant(variant)).turn
    except engine.DamaError:
        return None
