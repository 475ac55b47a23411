"""`TournamentBoards`: each pairing gets its game or its forfeit. A pairing without a game
gets its thread (opened through the outlet, its id recorded at once) and its game,
started through `GameService.start` with the repository's `start_pairing_game` as the
`store`, so the game and its link to the pairing are one transaction and a pairing never
gets two games. A pairing whose player left or was removed before the game began, and a
game aborted, are settled as forfeits (docs/RULES.md, "Scores")."""

from __future__ import annotations

import contextlib
import logging

from bot.faults import FaultPoint, reach
from bot.services.errors import PlayerError
from bot.services.games import GameStart
from bot.services.tournaments.core import Snapshot, TournamentCore
from bot.services.tournaments.mapping import outcome_of
from storage import (
    ColorChoice,
    GameRecord,
    GameStatus,
    NewGame,
    PairingRecord,
    PairingTakenError,
    Seat,
    TournamentStatus,
)
from tournaments.model import Outcome

log = logging.getLogger(__name__)


def forfeit_of(white_plays: bool, black_plays: bool) -> Outcome:
    """The forfeit of a game never started: the player still in wins it; when neither
    can play, both lose (docs/RULES.md, "Scores")."""
    if white_plays and not black_plays:
        return Outcome.WHITE_WINS_BY_FORFEIT
    if black_plays and not white_plays:
        return Outcome.BLACK_WINS_BY_FORFEIT
    return Outcome.DOUBLE_FORFEIT


def aborted_forfeit(pairing: PairingRecord) -> Outcome:
    """The forfeit of an aborted game: a game is aborted before each side has moved (or
    by a moderator), so when White had moved and Black had not, White wins by forfeit
    (lichess: failing to make the first move forfeits the game); otherwise neither
    played and both lose (a decision: docs/RULES.md, "Scores")."""
    if pairing.ply_count == 1:
        return Outcome.WHITE_WINS_BY_FORFEIT
    return Outcome.DOUBLE_FORFEIT


class TournamentBoards:
    """Starts the pairings' games and settles the forfeits (`settle`)."""

    def __init__(self, core: TournamentCore) -> None:
        self._core = core

    async def settle(self, snapshot: Snapshot) -> bool:
        """Give every pairing of `snapshot` without a result its game or its forfeit;
        True when something was stored (read the tournament again). A failure to open a
        thread or start a game is logged and left for the next advance."""
        changed = False
        finished = snapshot.record.status is TournamentStatus.FINISHED
        for round_ in snapshot.rounds:
            for pairing in round_.pairings:
                if outcome_of(pairing) is not None or pairing.game_status is GameStatus.ACTIVE:
                    continue
                if pairing.game_status is GameStatus.ABORTED:
                    changed |= await self._forfeit(pairing, aborted_forfeit(pairing))
                    continue
                if pairing.game_id is not None:
                    continue
                white = pairing.white_user_id in snapshot.active
                black = pairing.black_user_id in snapshot.active
                if finished or not (white and black):
                    changed |= await self._forfeit(
                        pairing, forfeit_of(white and not finished, black and not finished))
                    continue
                changed |= await self._start(snapshot, pairing)
        return changed

    async def _forfeit(self, pairing: PairingRecord, outcome: Outcome) -> bool:
        # PairingTakenError: its game started meanwhile (another task): read again.
        with contextlib.suppress(PairingTakenError):
            await self._core.repo.set_forfeit(pairing.tournament_id, pairing.round,
                                              pairing.board, outcome.value)
        return True

    async def _start(self, snapshot: Snapshot, pairing: PairingRecord) -> bool:
        """Open the pairing's thread (once) and start its game; True when something
        was stored."""
        core = self._core
        view = snapshot.view
        record = snapshot.record
        thread_id = pairing.thread_id
        if thread_id is None:
            try:
                thread_id = await core.outlet.open_game_thread(
                    view, pairing.round, pairing.board, pairing.white_user_id,
                    pairing.black_user_id)
            except Exception:
                log.exception("tournament %s: opening the thread of board %s of round %s "
                              "failed", record.id, pairing.board, pairing.round)
                return False
            await core.repo.set_pairing_thread(record.id, pairing.round, pairing.board,
                                               thread_id)

        async def store(new_game: NewGame) -> GameRecord:
            game = await core.repo.start_pairing_game(record.id, pairing.round,
                                                      pairing.board, new_game)
            reach(FaultPoint.TOURNAMENT_GAME_STORED)
            return game

        try:
            await core.games.start(
                GameStart(
                    channel_id=thread_id, guild_id=record.guild_id, variant=record.variant,
                    first=Seat.human(pairing.white_user_id),
                    second=Seat.human(pairing.black_user_id), color=ColorChoice.WHITE,
                    rated=record.rated, move_seconds=record.move_seconds,
                ),
                announce=core.announce, store=store)
        except PairingTakenError:
            pass  # another task started it: read again
        except PlayerError as error:
            log.error("tournament %s: the game of board %s of round %s cannot start in "
                      "thread %s: %s", record.id, pairing.board, pairing.round, thread_id,
                      error)
            return False
        return True
