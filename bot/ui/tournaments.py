"""The buttons of tournaments (`bot.ui.components.Component`s): their `custom_id` names
the tournament, so they work after a restart.

- the sign-up post: `dama:tjoin:<tournament_id>` and `dama:tleave:<tournament_id>` (Join
  and Leave: the service checks who may join, and when), and, once it runs,
  `dama:tstandings:<tournament_id>`;
- a round's results in the tournament's thread: `dama:tstandings:<tournament_id>` (the
  standings, answered to the presser alone).

A press becomes a `Press[TournamentAction]`; the router checks that the tournament is
this server's and that the press comes from its channel or its thread
(`bot.services.press_targets.PressTargets.tournament`), then hands it to the
`Tournaments` cog (`Tournaments.press`). The words of the posts are in
`bot.ui.tournament_texts`, the posts themselves in `bot.ui.tournament_posts`.
"""

from __future__ import annotations

import enum
import re
from typing import Any, Self

import discord

from bot.messages import Msg, text
from bot.ui.components import Component, Placement, Press, custom_id

Interaction = discord.Interaction[Any]
Button = discord.ui.Button[Any]


class TournamentAction(enum.Enum):
    """What a tournament's button does; the value is the action part of its `custom_id`."""

    JOIN = "tjoin"
    LEAVE = "tleave"
    STANDINGS = "tstandings"


class TournamentButton(Component[Button], template=r"dama:tbase:(?P<id>[0-9]+)"):
    """A button that names one tournament: `dama:<action>:<tournament_id>`. A subclass
    gives its `template`, `action`, the message of its `label_key` and its `style`."""

    action = TournamentAction.STANDINGS
    label_key = Msg.TOURNAMENT_BUTTON_STANDINGS
    style = discord.ButtonStyle.secondary

    def __init__(self, tournament_id: int, locale: str | None = None) -> None:
        super().__init__(
            discord.ui.Button(label=text(self.label_key, locale), style=self.style,
                              custom_id=custom_id(self.action, tournament_id)),
            Press(self.action, placement=Placement.ANYWHERE, tournament_id=tournament_id))

    @classmethod
    async def from_custom_id(cls, interaction: Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> Self:
        return cls(int(match["id"]))


class JoinButton(TournamentButton, template=r"dama:tjoin:(?P<id>[0-9]+)"):
    """Join: signs the presser up (or back in an arena under way)."""

    action = TournamentAction.JOIN
    label_key = Msg.TOURNAMENT_BUTTON_JOIN
    style = discord.ButtonStyle.success


class LeaveButton(TournamentButton, template=r"dama:tleave:(?P<id>[0-9]+)"):
    """Leave: the presser is paired no more; their games so far count."""

    action = TournamentAction.LEAVE
    label_key = Msg.TOURNAMENT_BUTTON_LEAVE
    style = discord.ButtonStyle.secondary


class StandingsButton(TournamentButton, template=r"dama:tstandings:(?P<id>[0-9]+)"):
    """Standings: the tournament's standings now, answered to the presser alone."""

    action = TournamentAction.STANDINGS
    label_key = Msg.TOURNAMENT_BUTTON_STANDINGS
    style = discord.ButtonStyle.primary


COMPONENTS: tuple[type[Component[Any]], ...] = (JoinButton, LeaveButton, StandingsButton)
"""The tournaments' buttons, registered by the client as dynamic items."""


def signup_view(tournament_id: int, locale: str | None, *, joining: bool,
                standings: bool) -> discord.ui.View | None:
    """The buttons of a tournament's sign-up post: Join and Leave while players may join
    (`joining`: in sign-up, and while an arena runs), Standings once it has started
    (`standings`); None when it has none (a finished tournament's post)."""
    buttons: list[TournamentButton] = []
    if joining:
        buttons += [JoinButton(tournament_id, locale), LeaveButton(tournament_id, locale)]
    if standings:
        buttons.append(StandingsButton(tournament_id, locale))
    if not buttons:
        return None
    view = discord.ui.View(timeout=None)
    for button in buttons:
        view.add_item(button)
    return view


def standings_view(tournament_id: int, locale: str | None) -> discord.ui.View:
    """The Standings button under a round's results."""
    view = discord.ui.View(timeout=None)
    view.add_item(StandingsButton(tournament_id, locale))
    return view
