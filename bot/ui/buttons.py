"""The buttons of challenges and boards (`bot.ui.components.Component`s): their
`custom_id` carries what they act on, so they work after a restart.

- challenge messages: `dama:accept:<challenge_id>`, `dama:decline:<id>`, `dama:cancel:<id>`
- board messages: `dama:resign:<game_id>:<ply>`, `dama:draw:<game_id>:<ply>`, the ply
  the board was drawn for: the service acts on a press only at that ply. The draw button
  reads "Accept draw" while a draw is offered. A finished game's board has
  `dama:rematch:<id>` and `dama:replay:<id>` (the game as an animated GIF,
  `bot.ui.replay`).
- a board in an INTERACTIONS place (docs/ARCHITECTURE.md, "Places") also carries the
  move select `dama:move:<game_id>:<ply>`: the legal moves (at most 25, Discord's limit
  of a select; with more it is disabled and says to use /move), so a player who has not
  installed the app can play from the board; a move picked there edits the board in
  place.
- the resign question (ephemeral, asked by Resign and /resign):
  `dama:resignyes:<game_id>:<ply>:<asked>:<user_id>` (`asked`: when the question was
  asked, Unix seconds; it lapses a minute later, or when the game is no longer at `ply`;
  only `user_id`, who was asked, can confirm) and `dama:keep:<game_id>:<ply>`.

A press becomes a `Press[GameAction]` and goes through the client's component router to
the `Play` cog (`Play.press`).
"""

from __future__ import annotations

import enum
import re
from typing import Any

import discord

from bot.messages import Msg, plain_text, text
from bot.services import MoveChoice
from bot.ui.components import Component, GameButton, Press, custom_id, picked_value

Interaction = discord.Interaction[Any]
Button = discord.ui.Button[Any]


class GameAction(enum.Enum):
    """What a challenge's or board's button does; the value is the action part of its
    `custom_id`."""

    ACCEPT = "accept"
    DECLINE = "decline"
    CANCEL = "cancel"
    RESIGN = "resign"
    DRAW = "draw"
    RESIGN_CONFIRM = "resignyes"
    KEEP_PLAYING = "keep"
    REMATCH = "rematch"
    REPLAY = "replay"
    MOVE = "move"


def _button(label: str, style: discord.ButtonStyle, action: GameAction,
            *parts: object) -> Button:
    return discord.ui.Button(label=label, style=style, custom_id=custom_id(action, *parts))


class _ChallengeButton(Component[Button], template=r"dama:challenge:(?P<id>[0-9]+)"):
    """A challenge message's button: `dama:<action>:<challenge_id>`."""

    action = GameAction.CANCEL
    label_key = Msg.BUTTON_CANCEL
    style = discord.ButtonStyle.secondary

    def __init__(self, challenge_id: int, locale: str | None = None) -> None:
        super().__init__(
            _button(text(self.label_key, locale), self.style, self.action, challenge_id),
            Press(self.action, challenge_id=challenge_id))

    @classmethod
    async def from_custom_id(cls, interaction: Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> _ChallengeButton:
        return cls(int(match["id"]))


class AcceptButton(_ChallengeButton, template=r"dama:accept:(?P<id>[0-9]+)"):
    action = GameAction.ACCEPT
    label_key = Msg.BUTTON_ACCEPT
    style = discord.ButtonStyle.success


class DeclineButton(_ChallengeButton, template=r"dama:decline:(?P<id>[0-9]+)"):
    action = GameAction.DECLINE
    label_key = Msg.BUTTON_DECLINE
    style = discord.ButtonStyle.danger


class CancelButton(_ChallengeButton, template=r"dama:cancel:(?P<id>[0-9]+)"):
    action = GameAction.CANCEL
    label_key = Msg.BUTTON_CANCEL
    style = discord.ButtonStyle.secondary


class _BoardButton(Component[Button], template=r"dama:board:(?P<id>[0-9]+):(?P<ply>[0-9]+)"):
    """A board's button: `dama:<action>:<game_id>:<ply>`, the ply the board was drawn
    for."""

    action = GameAction.RESIGN
    label_key = Msg.BUTTON_RESIGN
    style = discord.ButtonStyle.danger

    def __init__(self, game_id: int, ply: int, locale: str | None = None,
                 *, label: Msg | None = None) -> None:
        super().__init__(
            _button(text(label or self.label_key, locale), self.style, self.action,
                    game_id, ply),
            Press(self.action, game_id=game_id, ply=ply))

    @classmethod
    async def from_custom_id(cls, interaction: Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> _BoardButton:
        return cls(int(match["id"]), int(match["ply"]))


class ResignButton(_BoardButton, template=r"dama:resign:(?P<id>[0-9]+):(?P<ply>[0-9]+)"):
    action = GameAction.RESIGN
    label_key = Msg.BUTTON_RESIGN
    style = discord.ButtonStyle.danger


class DrawButton(_BoardButton, template=r"dama:draw:(?P<id>[0-9]+):(?P<ply>[0-9]+)"):
    action = GameAction.DRAW
    label_key = Msg.BUTTON_DRAW
    style = discord.ButtonStyle.secondary


class KeepPlayingButton(_BoardButton, template=r"dama:keep:(?P<id>[0-9]+):(?P<ply>[0-9]+)"):
    """The resign question's "Keep playing": closes the question, nothing else."""

    action = GameAction.KEEP_PLAYING
    label_key = Msg.BUTTON_KEEP_PLAYING
    style = discord.ButtonStyle.secondary


class ResignConfirmButton(
    Component[Button],
    template=r"dama:resignyes:(?P<id>[0-9]+):(?P<ply>[0-9]+):(?P<asked>[0-9]+):(?P<user>[0-9]+)",
):
    """The resign question's "Resign": resigns the game if it is still at `ply`, the
    question, asked at `asked` (Unix seconds), has not lapsed, and the presser is `asker`,
    the user it was asked of."""

    def __init__(self, game_id: int, ply: int, asked: int, asker: int,
                 locale: str | None = None) -> None:
        action = GameAction.RESIGN_CONFIRM
        super().__init__(
            _button(text(Msg.BUTTON_RESIGN_CONFIRM, locale), discord.ButtonStyle.danger,
                    action, game_id, ply, asked, asker),
            Press(action, game_id=game_id, ply=ply, asked=asked, asker=asker))

    @classmethod
    async def from_custom_id(cls, interaction: Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> ResignConfirmButton:
        return cls(int(match["id"]), int(match["ply"]), int(match["asked"]),
                   int(match["user"]))


class RematchButton(GameButton, template=r"dama:rematch:(?P<id>[0-9]+)"):
    """A finished game's "Rematch": the same game again, colours swapped."""

    action = GameAction.REMATCH
    label_key = Msg.BUTTON_REMATCH
    style = discord.ButtonStyle.primary


class ReplayButton(GameButton, template=r"dama:replay:(?P<id>[0-9]+)"):
    """A finished game's "Replay": the game as an animated GIF, sent to the presser."""

    action = GameAction.REPLAY
    label_key = Msg.BUTTON_REPLAY


class MoveSelect(Component[discord.ui.Select[Any]],
                 template=r"dama:move:(?P<id>[0-9]+):(?P<ply>[0-9]+)"):
    """A board's move select in an INTERACTIONS place: the legal moves at the ply the
    board was drawn for (values: the moves' text, as `/move` takes it). Without
    `options` (empty or None: more moves than a select holds) it is disabled and its
    placeholder says to use /move."""

    def __init__(self, game_id: int, ply: int, locale: str | None = None,
                 options: tuple[MoveChoice, ...] | None = None,
                 picked: str | None = None) -> None:
        action = GameAction.MOVE
        if options:
            select: discord.ui.Select[Any] = discord.ui.Select(
                placeholder=plain_text(Msg.MOVE_SELECT, locale),
                custom_id=custom_id(action, game_id, ply), min_values=1, max_values=1,
                options=[discord.SelectOption(label=o.name[:100], value=o.value[:100])
                         for o in options[:MOVE_OPTIONS]])
        else:
            select = discord.ui.Select(
                placeholder=plain_text(Msg.MOVE_SELECT_TOO_MANY, locale)[:150],
                custom_id=custom_id(action, game_id, ply), disabled=True,
                options=[discord.SelectOption(label="/move", value="-")])
        super().__init__(select, Press(action, game_id=game_id, ply=ply, picked=picked))

    @classmethod
    async def from_custom_id(cls, interaction: Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> MoveSelect:
        return cls(int(match["id"]), int(match["ply"]), picked=picked_value(interaction))


MOVE_OPTIONS = 25
"""The most options a select holds (Discord's documentation, "Component Reference",
String Select)."""


COMPONENTS: tuple[type[Component[Any]], ...] = (
    AcceptButton, DeclineButton, CancelButton, ResignButton, DrawButton,
    ResignConfirmButton, KeepPlayingButton, RematchButton, ReplayButton, MoveSelect,
)
"""The buttons of challenges and boards, registered by the client as dynamic items."""


def challenge_view(challenge_id: int, locale: str | None) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    for cls in (AcceptButton, DeclineButton, CancelButton):
        view.add_item(cls(challenge_id, locale))
    return view


def board_view(
    game_id: int, ply: int, locale: str | None, *, draw: bool = True,
    draw_offered: bool = False, moves: tuple[MoveChoice, ...] | None = None,
) -> discord.ui.View:
    """The buttons of a board drawn for game `game_id` at `ply`: Resign, and Offer draw
    unless `draw` is False (games with a computer seat: the computer never takes draws),
    labelled Accept draw while a draw is offered (`draw_offered`). `moves`: the move
    select's options (None: no move select, as in a CHANNEL place; empty: more moves than
    it holds, the select says to use /move)."""
    view = discord.ui.View(timeout=None)
    if moves is not None:
        view.add_item(MoveSelect(game_id, ply, locale, options=moves))
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
    """The buttons of a finished game's board: Rematch and Replay."""
    view = discord.ui.View(timeout=None)
    view.add_item(RematchButton(game_id, locale))
    view.add_item(ReplayButton(game_id, locale))
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
