"""Persistent buttons: their `custom_id` carries what they act on, so they work after a
restart (`discord.ui.DynamicItem`, registered once in `setup_hook`).

- challenge messages: `dama:accept:<challenge_id>`, `dama:decline:<id>`, `dama:cancel:<id>`
- board messages: `dama:resign:<game_id>:<ply>`, `dama:draw:<game_id>:<ply>`, the ply
  the board was drawn for: the service acts on a press only at that ply. Boards posted
  before buttons carried their ply (`dama:resign:<game_id>`) still match; their press
  has no ply (None), shows the current board and acts on nothing. The draw button reads
  "Accept draw" while a draw is offered. A finished game's board has `dama:rematch:<id>`.
- the resign question (ephemeral, asked by Resign and /resign):
  `dama:resignyes:<game_id>:<ply>:<asked>:<user_id>` (`asked`: when the question was
  asked, Unix seconds; it lapses a minute later, or when the game is no longer at `ply`;
  only `user_id`, who was asked, can confirm) and `dama:keep:<game_id>:<ply>`.

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
    RESIGN_CONFIRM = "resignyes"
    KEEP_PLAYING = "keep"
    REMATCH = "rematch"


class PressHandler(Protocol):
    async def press(
        self, action: ButtonAction, target_id: int, interaction: discord.Interaction[Any],
        *, ply: int | None = None, asked: int | None = None, asker: int | None = None,
    ) -> None:
        """Act on a press of button `action` for challenge or game `target_id` (a board's
        button: drawn at `ply`, None for a board from before buttons carried their ply;
        the resign question's: `asked`, when it was asked, in Unix seconds, and `asker`,
        the user it was asked of)."""
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
        self, target_id: int, locale: str | None = None, *, suffix: str = "",
        label: Msg | None = None,
    ) -> None:
        super().__init__(
            discord.ui.Button(
                label=text(label or self.label_key, locale),
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

    def __init__(self, game_id: int, ply: int | None, locale: str | None = None,
                 *, label: Msg | None = None) -> None:
        super().__init__(game_id, locale, suffix="" if ply is None else f":{ply}",
                         label=label)
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


class KeepPlayingButton(_BoardButton, template=r"dama:keep:(?P<id>[0-9]+)(?::(?P<ply>[0-9]+))?"):
    """The resign question's "Keep playing": closes the question, nothing else."""

    action = ButtonAction.KEEP_PLAYING
    label_key = Msg.BUTTON_KEEP_PLAYING
    style = discord.ButtonStyle.secondary


class ResignConfirmButton(
    _IdButton,
    template=r"dama:resignyes:(?P<id>[0-9]+):(?P<ply>[0-9]+):(?P<asked>[0-9]+):(?P<user>[0-9]+)",
):
    """The resign question's "Resign": resigns the game if it is still at `ply`, the
    question, asked at `asked` (Unix seconds), has not lapsed, and the presser is `asker`,
    the user it was asked of."""

    action = ButtonAction.RESIGN_CONFIRM
    label_key = Msg.BUTTON_RESIGN_CONFIRM
    style = discord.ButtonStyle.danger

    def __init__(self, game_id: int, ply: int, asked: int, asker: int,
                 locale: str | None = None) -> None:
        super().__init__(game_id, locale, suffix=f":{ply}:{asked}:{asker}")
        self.ply = ply
        self.asked = asked
        self.asker = asker

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any],
        match: re.Match[str], /,
    ) -> ResignConfirmButton:
        return cls(int(match["id"]), int(match["ply"]), int(match["asked"]),
                   int(match["user"]), str(interaction.locale))

    async def pressed(self, presses: PressHandler, interaction: discord.Interaction[Any]) -> None:
        await presses.press(self.action, self.target_id, interaction, ply=self.ply,
                            asked=self.asked, asker=self.asker)


class RematchButton(_IdButton, template=r"dama:rematch:(?P<id>[0-9]+)"):
    """A finished game's "Rematch": the same game again, colours swapped."""

    action = ButtonAction.REMATCH
    label_key = Msg.BUTTON_REMATCH
    style = discord.ButtonStyle.primary


DYNAMIC_ITEMS: tuple[type[_IdButton], ...] = (
    AcceptButton, DeclineButton, CancelButton, ResignButton, DrawButton,
    ResignConfirmButton, KeepPlayingButton, RematchButton,
)


def challenge_view(challenge_id: int, locale: str | None) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    for cls in (AcceptButton, DeclineButton, CancelButton):
        view.add_item(cls(challenge_id, locale))
    return view


def board_view(
    game_id: int, ply: int, locale: str | None, *, draw: bool = True,
    draw_offered: bool = False,
) -> discord.ui.View:
    """The buttons of a board drawn for game `game_id` at `ply`: Resign, and Offer draw
    unless `draw` is False (games with a computer seat: the computer never takes draws),
    labelled Accept draw while a draw is offered (`draw_offered`)."""
    view = discord.ui.View(timeout=None)
    view.add_item(ResignButton(game_id, ply, locale))
    if draw:
        label = Msg.BUTTON_ACCEPT_DRAW if draw_offered else None
        view.add_item(DrawButton(game_id, ply, locale, label=label))
    return view


def accept_draw_view(game_id: int, ply: int, locale: str | None) -> discord.ui.View:
    """The button of a draw offer's message: Accept draw (game `game_id` at `ply`)."""
    view = discord.ui.View(timeout=None)
    view.add_item(DrawButton(game_id, ply, locale, label=Msg.BUTTON_ACCEPT_DRAW))
    return view


def finished_view(game_id: int, locale: str | None) -> discord.ui.View:
    """The button of a finished game's board: Rematch."""
    view = discord.ui.View(timeout=None)
    view.add_item(RematchButton(game_id, locale))
    return view


def resign_question_view(
    game_id: int, ply: int, asked: int, asker: int, locale: str | None
) -> discord.ui.View:
    """The buttons of the resign question about game `game_id` at `ply`, asked of user
    `asker` at `asked` (Unix seconds): Resign and Keep playing."""
    view = discord.ui.View(timeout=None)
    view.add_item(ResignConfirmButton(game_id, ply, asked, asker, locale))
    view.add_item(KeepPlayingButton(game_id, ply, locale))
    return view
