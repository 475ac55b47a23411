"""Game clocks with an increment (docs/PLAYING.md, "Clocks"; docs/RULES.md, "Project-wide
game rules", Time): each player has a clock that runs only while they are to move; after
each of their moves the increment is added to it (Fischer's increment, FIDE Laws of Chess
art. 6.1 and 6.3: a time for all moves with "an additional amount of time ... for each
move", added once the move is completed). A player whose clock reaches zero loses on time
(art. 6.9; the FMJD's rules for draughts say the same).

How it is kept: a game's `ClockState` holds each player's remaining time as of its last
step (the start, or the last move) and `deadline`, the moment the player to move runs
out: that step's time plus their remaining time. So the running clock needs no writes
while it runs, survives a restart, and the time the bot was down counts against the
player to move (the `GameDeadlines` end the game when `deadline` passes).
"""

from __future__ import annotations

import dataclasses
import re
from datetime import datetime, timedelta

from engine import Color
from storage import ClockState, TimeControl

CLOCK_PRESETS = ("3+2", "5+3", "10+5", "15+10")
"""The time controls `/challenge` and `/play` offer, as players write them: minutes per
player + seconds of increment per move (the usual blitz and rapid ones)."""

_NOTATION = re.compile(r"\s*(\d{1,3})\s*\+\s*(\d{1,3})\s*")


def parse_time_control(text: str) -> TimeControl:
    """The time control written `text` ("5+3": 5 minutes each, 3 seconds added per move).
    Raises `ValueError` for any other text, a base of 0 minutes or over 180 minutes, or
    an increment over 180 seconds."""
    found = _NOTATION.fullmatch(text)
    if found is None:
        raise ValueError(f"a clock is written minutes+seconds, like 5+3, not {text!r}")
    minutes, seconds = int(found.group(1)), int(found.group(2))
    if not 0 < minutes <= 180 or seconds > 180:
        raise ValueError(f"no clock of {minutes} minutes + {seconds} seconds")
    return TimeControl(minutes * 60, seconds)


def time_control_text(control: TimeControl) -> str:
    """`control` as players write it: "5+3" (minutes+seconds; seconds when the base is not
    whole minutes, as "90s+2")."""
    minutes, rest = divmod(control.base_seconds, 60)
    base = f"{minutes}" if rest == 0 else f"{control.base_seconds}s"
    return f"{base}+{control.increment_seconds}"


def starting_clock(control: TimeControl, now: datetime) -> ClockState:
    """The clock of a game starting at `now`: both players at the base time, the first
    mover's running (the deadline is theirs)."""
    return ClockState(deadline=now + control.base, white_left=control.base,
                      black_left=control.base)


def left_of(clock: ClockState, color: Color) -> timedelta | None:
    """`color`'s remaining time as of the last step (None: the game has no clock)."""
    return clock.white_left if color is Color.WHITE else clock.black_left


def remaining(clock: ClockState, color: Color, turn: Color, now: datetime) -> timedelta | None:
    """`color`'s remaining time at `now` when `turn` is to move: the running clock counts
    down to its deadline (never below zero), the other stands. None without a clock."""
    left = left_of(clock, color)
    if left is None or color is not turn or clock.deadline is None:
        return left
    return max(clock.deadline - now, timedelta(0))


def flag_fell(clock: ClockState, now: datetime) -> bool:
    """Whether the player to move has no time left at `now` (a game with a clock)."""
    return clock.white_left is not None and clock.deadline is not None and clock.deadline <= now


CLOCK_SHARE = 20
"""A computer seat with a clock thinks at most its remaining time over this (a twentieth:
the usual share of engines in games with an increment), so it plays within its clock."""


def thinking_budget(own_seconds: float, left: timedelta) -> float:
    """The seconds a computer may think on a move with `left` on its clock, given its
    level's own budget `own_seconds`: the smaller of the two budgets."""
    return min(own_seconds, max(left.total_seconds(), 0.0) / CLOCK_SHARE)


def after_move(
    clock: ClockState, control: TimeControl, mover: Color, now: datetime
) -> ClockState:
    """The clock after `mover` moved at `now` (their clock was running): their remaining
    time is what was left at `now` plus the increment; the opponent's clock starts, so the
    new deadline is `now` plus the opponent's remaining time. The computer-move counts
    are kept (the caller sets them)."""
    running = remaining(clock, mover, mover, now)
    opponent = left_of(clock, mover.opponent)
    if running is None or opponent is None:
        raise ValueError("after_move needs a game with a clock")
    left = running + control.increment
    if mover is Color.WHITE:
        return dataclasses.replace(clock, deadline=now + opponent, white_left=left)
    return dataclasses.replace(clock, deadline=now + opponent, black_left=left)
