"""Persistent buttons: their `custom_id` carries what they act on, so they work after a
restart (`discord.ui.DynamicItem`, registered once in `setup_hook`).

- challenge messages: `dama:accept:<challenge_id>`, `dama:decline:<id>`, `dama:cancel:<id>`
- board messages: `dama:resign:<game_id>`, `dama:draw:<game_id>`

A press is handed to the bot's `Table` (which calls one service method and answers);
errors go to the same reporter as slash commands, so a press is always answered.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any, Protocol

import discord

from bot.messages import Msg, text
from bot.ui.answer import Answer

if TYPE_CHECKING:
    from bot.ui.table import Table


class HasTable(Protocol):
    table: Table


def _table(interaction: discord.Interaction[Any]) -> Table:
    client: HasTable = interaction.client
    return client.table


class _IdButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"dama:none:(?P<id>[0-9]+)"
):
    """A button whose custom_id is `dama:<action>:<id>`."""

    action = "none"
    label_key = Msg.BUTTON_CANCEL
    style = discord.ButtonStyle.secondary

    def __init__(self, target_id: int, locale: str | None = None) -> None:
        super().__init__(
            discord.ui.Button(
                label=text(self.label_key, locale),
                style=self.style,
                custom_id=f"dama:{self.action}:{target_id}",
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
        table = _table(interaction)
        Answer.of(interaction)  # the deferral watchdog, from the press's arrival
        try:
            await self.act(table, interaction)
        except Exception as error:
            await table.report_error(interaction, error)

    async def act(self, table: Table, interaction: discord.Interaction[Any]) -> None:
        raise NotImplementedError


class AcceptButton(_IdButton, template=r"dama:accept:(?P<id>[0-9]+)"):
    action = "accept"
    label_key = Msg.BUTTON_ACCEPT
    style = discord.ButtonStyle.success

    async def act(self, table: Table, interaction: discord.Interaction[Any]) -> None:
        await table.accept(interaction, self.target_id)


class DeclineButton(_IdButton, template=r"dama:decline:(?P<id>[0-9]+)"):
    action = "decline"
    label_key = Msg.BUTTON_DECLINE
    style = discord.ButtonStyle.danger

    async def act(self, table: Table, interaction: discord.Interaction[Any]) -> None:
        await table.decline(interaction, self.target_id)


class CancelButton(_IdButton, template=r"dama:cancel:(?P<id>[0-9]+)"):
    action = "cancel"
    label_key = Msg.BUTTON_CANCEL
    style = discord.ButtonStyle.secondary

    async def act(self, table: Table, interaction: discord.Interaction[Any]) -> None:
        await table.cancel(interaction, self.target_id)


class ResignButton(_IdButton, template=r"dama:resign:(?P<id>[0-9]+)"):
    action = "resign"
    label_key = Msg.BUTTON_RESIGN
    style = discord.ButtonStyle.danger

    async def act(self, table: Table, interaction: discord.Interaction[Any]) -> None:
        await table.resign(interaction, game_id=self.target_id)


class DrawButton(_IdButton, template=r"dama:draw:(?P<id>[0-9]+)"):
    action = "draw"
    label_key = Msg.BUTTON_DRAW
    style = discord.ButtonStyle.secondary

    async def act(self, table: Table, interaction: discord.Interaction[Any]) -> None:
        await table.draw(interaction, game_id=self.target_id)


DYNAMIC_ITEMS: tuple[type[_IdButton], ...] = (
    AcceptButton, DeclineButton, CancelButton, ResignButton, DrawButton,
)


def challenge_view(challenge_id: int, locale: str | None) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    for cls in (AcceptButton, DeclineButton, CancelButton):
        view.add_item(cls(challenge_id, locale))
    return view


def board_view(game_id: int, locale: str | None, *, draw: bool = True) -> discord.ui.View:
    """A board message's buttons: Resign, and Offer draw unless `draw` is False (games
    with a computer seat: the computer never takes draws)."""
    view = discord.ui.View(timeout=None)
    view.add_item(ResignButton(game_id, locale))
    if draw:
        view.add_item(DrawButton(game_id, locale))
    return view
