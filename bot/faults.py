"""Named crash points for the crash-point tests (docs/ARCHITECTURE.md, "Crash points").

Every game step (a move, the move that ends a game, an accepted challenge, a resignation,
a draw offer or acceptance, an abort, a computer move, a move made for an absent player)
passes these points around each of its storage writes and Discord calls, in this order:

    STEP_COMMIT, STEP_COMMITTED        before and after the step's one transaction
    CHALLENGE_EDIT, CHALLENGE_EDITED   before and after the accepted challenge's message
                                       is edited (an accepted challenge only)
    BOARD_POST, BOARD_POSTED           before and after the board (or the step's text) is
                                       sent to Discord; after it, its id is not recorded yet
    BOARD_RECORDED                     after the board's message id is recorded
    BUTTONS_REMOVE, BUTTONS_REMOVED    before and after the replaced board loses its
                                       buttons (in the background, beside the rest)

A step of a puzzle under way (an answer, a hint, a reveal, a hinted puzzle left for
another) passes one:

    PUZZLE_COMMITTED                   after the step's one transaction (the session and
                                       any rated result), before the solver is answered

A tournament's steps (`bot.services.tournaments`) pass these:

    TOURNAMENT_ROUND_PAIRED            after a round (or an arena's pairing) is stored,
                                       before its games start
    TOURNAMENT_GAME_STORED             after a pairing's game is stored with its link,
                                       before its first board is posted
    TOURNAMENT_POST_CLAIMED            after a post is claimed in the ledger, before it
                                       is sent
    TOURNAMENT_POST_SENT               after a post is sent, before its message id is
                                       recorded
    TOURNAMENT_GAME_ENDED              after a tournament game's end is stored, before the
                                       tournament advances

A point does nothing unless the environment variable `DAMA_FAULT_POINT` names it when the
bot starts (`arm_from_environment`, called by `bot.app.run`): `DAMA_FAULT_POINT=board-posted`
or `board-posted:3` makes the process kill itself with SIGKILL (no clean-up at all, as a
power cut) the first (third) time it reaches that point. Unset, `reach` is one comparison.
A test facility, never for a server (docs/TESTING.md, "Crash points").
"""

from __future__ import annotations

import enum
import logging
import os
import signal
from collections.abc import Mapping

log = logging.getLogger(__name__)

ENVIRONMENT_VARIABLE = "DAMA_FAULT_POINT"


class FaultPoint(enum.StrEnum):
    """A named point of a game step (see the module docstring for where each one is)."""

    STEP_COMMIT = "step-commit"
    STEP_COMMITTED = "step-committed"
    CHALLENGE_EDIT = "challenge-edit"
    CHALLENGE_EDITED = "challenge-edited"
    BOARD_POST = "board-post"
    BOARD_POSTED = "board-posted"
    BOARD_RECORDED = "board-recorded"
    BUTTONS_REMOVE = "buttons-remove"
    BUTTONS_REMOVED = "buttons-removed"
    PUZZLE_COMMITTED = "puzzle-committed"
    TOURNAMENT_ROUND_PAIRED = "tournament-round-paired"
    TOURNAMENT_GAME_STORED = "tournament-game-stored"
    TOURNAMENT_POST_CLAIMED = "tournament-post-claimed"
    TOURNAMENT_POST_SENT = "tournament-post-sent"
    TOURNAMENT_GAME_ENDED = "tournament-game-ended"


class FaultSpecError(ValueError):
    """`DAMA_FAULT_POINT` is not `<point>` or `<point>:<n>` (n a positive integer)."""


_armed: FaultPoint | None = None
_remaining = 0


def parse(spec: str) -> tuple[FaultPoint, int]:
    """`"<point>[:<n>]"` as (point, n), n 1 when omitted. Raises `FaultSpecError`."""
    name, _, count = spec.strip().partition(":")
    try:
        point = FaultPoint(name.strip().lower())
    except ValueError:
        names = ", ".join(p.value for p in FaultPoint)
        raise FaultSpecError(f"{ENVIRONMENT_VARIABLE}={spec!r}: unknown point "
                             f"(one of {names}, optionally followed by :<n>)") from None
    if not count:
        return point, 1
    if not count.strip().isdigit() or int(count) < 1:
        raise FaultSpecError(f"{ENVIRONMENT_VARIABLE}={spec!r}: the count after ':' must be "
                             "a positive integer")
    return point, int(count)


def arm(point: FaultPoint | None, times: int = 1) -> None:
    """Kill the process when it reaches `point` the `times`-th time (None: disarm)."""
    global _armed, _remaining
    _armed, _remaining = point, times


def arm_from_environment(environ: Mapping[str, str] | None = None) -> None:
    """Arm the point `DAMA_FAULT_POINT` names, if it is set and not empty (logged as a
    warning: a process armed so is meant to die). Raises `FaultSpecError`."""
    spec = (os.environ if environ is None else environ).get(ENVIRONMENT_VARIABLE, "")
    if not spec.strip():
        arm(None)
        return
    point, times = parse(spec)
    log.warning("crash point armed: the process kills itself at %s (time %d); for tests only",
                point.value, times)
    arm(point, times)


def reach(point: FaultPoint) -> None:
    """The process is at `point`: if it is the armed point, count it, and at the armed
    count kill the process with SIGKILL at once. Nothing otherwise."""
    global _remaining
    if _armed is not point:
        return
    _remaining -= 1
    if _remaining <= 0:
        os.kill(os.getpid(), signal.SIGKILL)
