"""The fixed choices of the command options (`bot/cogs/choices.py`): every move time
offered to /challenge within Discord's 25 choices, the correspondence ones kept from
games against the computer, and the server's default for those."""

from __future__ import annotations

from bot.cogs.choices import (
    COMPUTER_MOVE_TIME_CHOICES,
    MOVE_TIME_CHOICES,
    computer_default,
)
from bot.messages import COMMAND_TEXT
from bot.services.models import MoveTime

DISCORD_MAX_CHOICES = 25


def test_every_move_time_is_a_named_choice_within_discords_limit() -> None:
    assert [c.value for c in MOVE_TIME_CHOICES] == [m.value for m in MoveTime]
    assert len(MOVE_TIME_CHOICES) <= DISCORD_MAX_CHOICES
    for limit in MoveTime:
        assert COMMAND_TEXT[f"choice.{limit.value}"]


def test_games_against_the_computer_have_no_correspondence_time() -> None:
    offered = [MoveTime(c.value) for c in COMPUTER_MOVE_TIME_CHOICES]
    assert offered == [MoveTime.NONE, MoveTime.SECONDS_40, MoveTime.MINUTES_5,
                       MoveTime.HOUR_1]
    assert computer_default(MoveTime.DAYS_7) is MoveTime.NONE
    assert computer_default(MoveTime.DAY_1) is MoveTime.NONE
    assert computer_default(MoveTime.HOUR_1) is MoveTime.HOUR_1
