"""The fixed choices of the slash command options."""

from __future__ import annotations

from discord import app_commands

from bot.config import MoveTime
from bot.messages import command_text
from engine import VARIANTS
from storage import ColorChoice

VARIANT_CHOICES = [app_commands.Choice(name=v.name, value=v.key) for v in VARIANTS.values()]
COLOR_CHOICES = [
    app_commands.Choice(name=command_text(f"choice.{c.value}"), value=c.value) for c in ColorChoice
]
MOVE_TIME_CHOICES = [
    app_commands.Choice(name=command_text(f"choice.{m.value}"), value=m.value) for m in MoveTime
]
SCOPE_CHOICES = [
    app_commands.Choice(name=command_text("choice.server"), value="server"),
    app_commands.Choice(name=command_text("choice.global"), value="global"),
]
DEFAULT_VARIANT = "turkish"
