"""The tournaments' buttons (`bot/ui/tournaments.py`): their `custom_id`s name the
tournament, discord.py's dynamic items read them back into the same press after a restart,
and the sign-up post shows the buttons its state allows. Presses through the router
(forged, from another server or channel, late): tests/bot/cogs/test_tournaments.py."""

from __future__ import annotations

import re

import discord
import pytest

from bot.ui.components import Press
from bot.ui.tournaments import (
    COMPONENTS,
    JoinButton,
    LeaveButton,
    StandingsButton,
    TournamentAction,
    TournamentButton,
    signup_view,
    standings_view,
)


def _custom_ids(view: discord.ui.View | None) -> list[str]:
    assert view is not None
    return [str(getattr(item, "custom_id", "")) for item in view.children]


def _labels(view: discord.ui.View) -> list[str]:
    """The labels of the view's buttons (a dynamic item wraps its button)."""
    return [str(getattr(getattr(item, "item", item), "label", "")) for item in view.children]


@pytest.mark.parametrize(("button", "action"), [
    (JoinButton, TournamentAction.JOIN), (LeaveButton, TournamentAction.LEAVE),
    (StandingsButton, TournamentAction.STANDINGS)])
async def test_a_button_names_its_tournament_and_reads_back_after_a_restart(
    button: type[TournamentButton], action: TournamentAction,
) -> None:
    made = button(42, "en")
    assert made.custom_id == f"dama:{action.value}:42"
    assert made.press == Press(action, placement=made.press.placement, tournament_id=42)
    # What discord.py does with a pressed message's component: match a registered
    # template, then build the item from the match.
    [registered] = [c for c in COMPONENTS if c.__discord_ui_compiled_template__.fullmatch(
        made.custom_id)]
    match = registered.__discord_ui_compiled_template__.fullmatch(made.custom_id)
    assert isinstance(match, re.Match)
    again = await registered.from_custom_id(None, made.item, match)  # type: ignore[arg-type]
    assert again.press == made.press


def test_the_templates_take_only_digits() -> None:
    for component in COMPONENTS:
        template = component.__discord_ui_compiled_template__
        assert not template.fullmatch(f"dama:{component.action.value}:12a")  # type: ignore[attr-defined]
        assert not template.fullmatch(f"dama:{component.action.value}:")  # type: ignore[attr-defined]


def test_the_signup_post_has_the_buttons_its_state_allows() -> None:
    assert _custom_ids(signup_view(7, "en", joining=True, standings=False)) == [
        "dama:tjoin:7", "dama:tleave:7"]
    # An arena under way: still open, and its standings.
    assert _custom_ids(signup_view(7, "en", joining=True, standings=True)) == [
        "dama:tjoin:7", "dama:tleave:7", "dama:tstandings:7"]
    assert _custom_ids(signup_view(7, "en", joining=False, standings=True)) == [
        "dama:tstandings:7"]
    assert signup_view(7, "en", joining=False, standings=False) is None


def test_labels_are_in_the_readers_language() -> None:
    view = signup_view(7, "en", joining=True, standings=False)
    assert view is not None and _labels(view) == ["Join", "Leave"]
    assert _labels(standings_view(7, "en")) == ["Standings"]
