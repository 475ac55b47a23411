"""Persistent buttons: their `custom_id` carries what they act on, so they work after a
restart (`discord.ui.DynamicItem`, registered once in `setup_hook`).

- challenge messages: `dama:accept:<challenge_id>`, `dama:decline:<id>`, `dama:cancel:<id>`
- board messages: `dama:resign:<game_id>:<ply>`, `dama:draw:<game_id>:<ply>`, the ply
  the board was drawn for: the service acts on a press only at that ply. Boards posted
  before buttons carried their ply (`dama:resign:<game_id>`) still match; their press
  has no ply (None), shows the current board and acts on nothing.

A press is handed to the client's `presses` (a `PressHandler`: the `Play` cog, which
calls one service method and answers); errors go to the client's `errors` reporter, as
for slash commands, so a press is always answered. This module imports neither: the
client is read through the `ButtonHost` protocol.
"""

from __future__ import annotations

import enum
import re
from typing import Any, Protocol

import discord

from bot.messages import Msg, text
from bot.ui.answer import Answer
from bot.ui.languages import LanguageChoices, settle


class ButtonAction(enum.Enum):
    """What a button does; the value is the action part of its `custom_id`."""

    ACCEPT = "accept"
    DECLINE = "decline"
    CANCEL = "cancel"
    RESIGN = "resign"
    DRAW = "draw"


class PressHandler(Protocol):
    async def press(
        self, action: ButtonAction, target_id: int, interaction: discord.Interaction[Any],
        *, ply: int | None = None,
    ) -> None:
        """Act on a press of button `action` for challenge or game `target_id` (a board's
        button: drawn at `ply`, None for a board from before buttons carried their ply)."""
        ...


class ErrorHandler(Protocol):
    async def report(self, interaction: discord.Interaction[Any], error: BaseException) -> None:
        ...


class ButtonHost(Protocol):
    """What a button needs of the client."""

    presses: PressHandler
    errors: ErrorHandler

    @property
    def language_choices(self) -> LanguageChoices | None: ...


class _IdButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"dama:none:(?P<id>[0-9]+)"
):
    """A button whose custom_id is `dama:<action>:<id>`."""

    action = ButtonAction.CANCEL
    label_key = Msg.BUTTON_CANCEL
    style = discord.ButtonStyle.secondary

    def __init__(
        self, target_id: int, locale: str | None = None, *, suffix: str = ""
    ) -> None:
        super().__init__(
            discord.ui.Button(
                label=text(self.label_key, locale),
                style=self.style,
                custom_id=f"dama:{self.action.value}:{target_id}{suffix}",
            )
        )
        self.target_id = target_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any],
        match: re.Match[str], /,
    ) -> _IdButton:
        return cls(int(match["id"]), str(interaction.locale))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        host: ButtonHost = interaction.client
        Answer.of(interaction)  # the deferral watchdog, from the press's arrival
        await settle(interaction, host.language_choices)
        try:
            await self.pressed(host.presses, interaction)
        except Exception as error:
            await host.errors.report(interaction, error)

    async def pressed(self, presses: PressHandler, interaction: discord.Interaction[Any]) -> None:
        await presses.press(self.action, self.target_id, interaction)


class _BoardButton(_IdButton, template=r"dama:none:(?P<id>[0-9]+)(?::(?P<ply>[0-9]+))?"):
    """A board's button: `dama:<action>:<game_id>:<ply>`; `ply` None for the form without
    it (boards posted before buttons carried their ply)."""

    def __init__(self, game_id: int, ply: int | None, locale: str | None = None) -> None:
        super().__init__(game_id, locale, suffix="" if ply is None else f":{ply}")
        self.ply = ply

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any],
        match: re.Match[str], /,
    ) -> _BoardButton:
        ply = match["ply"]
        return cls(int(match["id"]), None if ply is None else int(ply), str(interaction.locale))

    async def pressed(self, presses: PressHandler, interaction: discord.Interaction[Any]) -> None:
        await presses.press(self.action, self.target_id, interaction, ply=self.ply)


class AcceptButton(_IdButton, template=r"dama:accept:(?P<id>[0-9]+)"):
    action = ButtonAction.ACCEPT
    label_key = Msg.BUTTON_ACCEPT
    style = discord.ButtonStyle.success


class DeclineButton(_IdButton, template=r"dama:decline:(?P<id>[0-9]+)"):
    action = ButtonAction.DECLINE
    label_key = Msg.BUTTON_DECLINE
    style = discord.ButtonStyle.danger


class CancelButton(_IdButton, template=r"dama:cancel:(?P<id>[0-9]+)"):
    action = ButtonAction.CANCEL
    label_key = Msg.BUTTON_CANCEL
    style = discord.ButtonStyle.secondary


class ResignButton(_BoardButton, template=r"dama:resign:(?P<id>[0-9]+)(?::(?P<ply>[0-9]+))?"):
    action = ButtonAction.RESIGN
    label_key = Msg.BUTTON_RESIGN
    style = discord.ButtonStyle.danger


class DrawButton(_BoardButton, template=r"dama:draw:(?P<id>[0-9]+)(?::(?P<ply>[0-9]+))?"):
    action = ButtonAction.DRAW
    label_key = Msg.BUTTON_DRAW
    style = discord.ButtonStyle.secondary


DYNAMIC_ITEMS: tuple[type[_IdButton], ...] = (
    AcceptButton, DeclineButton, CancelButton, ResignButton, DrawButton,
)


def challenge_view(challenge_id: int, locale: str | None) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    for cls in (AcceptButton, DeclineButton, CancelButton):
        view.add_item(cls(challenge_id, locale))
    return view


def board_view(
    game_id: int, ply: int, locale: str | None, *, draw: bool = True
) -> discord.ui.View:
    """The buttons of a board drawn for game `game_id` at `ply`: Resign, and Offer draw
    unless `draw` is False (games with a computer seat: the computer never takes draws)."""
    view = discord.ui.View(timeout=None)
    view.add_item(ResignButton(game_id, ply, locale))
    if draw:
        view.add_item(DrawButton(game_id, ply, locale))
    return view
