"""The fixed choices of the slash command options."""

from __future__ import annotations

from discord import app_commands

from bot.config import MoveTime
from bot.messages import Msg, command_text
from bot.services.errors import PlayerError
from bot.services.games.clock import CLOCK_PRESETS, parse_time_control
from engine import VARIANTS
from storage import ColorChoice, TimeControl

CLOCK_CHOICES = [app_commands.Choice(name=preset, value=preset) for preset in CLOCK_PRESETS]
"""The clocks offered (docs/PLAYING.md, "Clocks"), written as players write them ("5+3"),
the same in every language, like notation."""
VARIANT_CHOICES = [app_commands.Choice(name=v.name, value=v.key) for v in VARIANTS.values()]
COLOR_CHOICES = [
    app_commands.Choice(name=command_text(f"choice.{c.value}"), value=c.value) for c in ColorChoice
]
MOVE_TIME_CHOICES = [
    app_commands.Choice(name=command_text(f"choice.{m.value}"), value=m.value) for m in MoveTime
]
"""Every per-move time (`MoveTime`), correspondence ones too (a game between two players;
docs/RULES.md, "Project-wide game rules", Time)."""
COMPUTER_MOVE_TIME_CHOICES = [
    choice for choice in MOVE_TIME_CHOICES if not MoveTime(choice.value).is_correspondence
]
"""The per-move times of a game against the computer: under a day (the computer answers
at once, so a game against it is played in one sitting; a correspondence game is between
two players)."""
SCOPE_CHOICES = [
    app_commands.Choice(name=command_text("choice.server"), value="server"),
    app_commands.Choice(name=command_text("choice.global"), value="global"),
]
DEFAULT_VARIANT = "turkish"


def computer_default(default: MoveTime) -> MoveTime:
    """The per-move time a game against the computer takes without `move_time`: the
    server's `default`, or none when that is a correspondence time (those are offered
    for games between two players only, `COMPUTER_MOVE_TIME_CHOICES`)."""
    return MoveTime.NONE if default.is_correspondence else default


def game_timing(
    default: MoveTime, move_time: str | None, clock: str | None
) -> tuple[MoveTime, TimeControl | None]:
    """The per-move time and the players' clocks of a new game from a command's options
    `move_time` and `clock` (None: not given): a clock replaces the per-move time, else
    the per-move time given or `default` (the server's). Raises
    `PlayerError(CLOCK_WITH_MOVE_TIME)` when both are given."""
    if clock is None:
        return (default if move_time is None else MoveTime(move_time)), None
    if move_time is not None:
        raise PlayerError(Msg.CLOCK_WITH_MOVE_TIME)
    return MoveTime.NONE, parse_time_control(clock)
