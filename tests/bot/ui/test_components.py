"""The component router (`bot/ui/components.py`): every press is checked before its
handler acts. A `custom_id` naming a game the presser may not see, or one that does not
exist, gets exactly the answer a missing game gets, privately, and no message changes
(docs/ARCHITECTURE.md, "Buttons and other components"). Real `DamaBot` through
discord.py against `FakeDiscord`, real SQLite file."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from bot.messages import Msg, text
from bot.ui import analysis, buttons, puzzles
from tests.support.discord_harness import (
    Harness,
    challenge_and_accept,
    resign,
    response_message_id,
    run,
    slash,
)
from tests.support.fake_discord import Call, option, user_option
from tests.support.services import ALICE, BOB, CAROL, CHANNEL

OTHER_GUILD, OTHER_CHANNEL = 777, 778
DAVE = 1004
MISSING = 999_999


async def _challenge_elsewhere(h: Harness) -> tuple[int, int]:
    """Carol challenges Dave in another server; returns (the challenge's id, its message
    id): a message with buttons, in a channel where the presser may act."""
    opponent, resolved = user_option("opponent", DAVE)
    [answer] = await run(h, slash(h, "challenge", [opponent, option("variant", "turkish")],
                                  user=CAROL, resolved=resolved, guild_id=OTHER_GUILD,
                                  channel=OTHER_CHANNEL))
    return int(answer.custom_ids[0].split(":")[2]), response_message_id(h, answer)


def _forged(h: Harness, message_id: int, custom_id: str, *, user: int,
            guild_id: int | None, values: list[str] | None = None) -> dict[str, Any]:
    """A press of `custom_id` on message `message_id`, as a hostile client sends it: the
    message as the payload shows it carries that component (discord.py dispatches only
    a component the message has), though the stored message does not."""
    message = copy.deepcopy(h.discord.messages[message_id])
    data: dict[str, Any] = {"custom_id": custom_id, "component_type": 2}
    component: dict[str, Any] = {"type": 2, "style": 1, "label": "x", "custom_id": custom_id}
    if values is not None:
        data.update(component_type=3, values=values)
        component = {"type": 3, "custom_id": custom_id, "min_values": 1, "max_values": 1,
                     "options": [{"label": v, "value": v} for v in values]}
    message["components"] = [{"type": 1, "components": [component]}]
    return h.discord.interaction(3, data, user_id=user, channel_id=int(message["channel_id"]),
                                 guild_id=guild_id, message=message)


def _private_answer_only(calls: list[Call]) -> Call:
    """The one request of a refused press: a new private message (no update of the
    pressed message, no edit elsewhere)."""
    assert len(calls) == 1, [(c.method, c.path) for c in calls]
    [answer] = calls
    assert answer.callback_type == 4 and answer.ephemeral, answer.payload
    return answer


def _game_ids(game_id: int) -> list[str]:
    """Every component that names a game, as its message would carry it."""
    return [f"dama:rematch:{game_id}", f"dama:replay:{game_id}", f"dama:stopanalysis:{game_id}",
            f"dama:analyze:{game_id}", f"dama:resign:{game_id}:0", f"dama:draw:{game_id}:0",
            f"dama:keep:{game_id}:0", f"dama:resignyes:{game_id}:0:1700000000:{CAROL}",
            f"dama:mistake:{game_id}"]


async def test_a_press_naming_another_servers_game_is_answered_as_a_missing_game(
    harness: Harness,
) -> None:
    h = harness
    await challenge_and_accept(h)
    game_id = h.bot.services.games.current(CHANNEL).game_id
    _, message = await _challenge_elsewhere(h)
    before = copy.deepcopy(h.discord.messages[message])
    for hidden, missing in zip(_game_ids(game_id), _game_ids(MISSING), strict=True):
        values = ["1"] if hidden.startswith("dama:mistake:") else None
        answers = [
            _private_answer_only(await run(h, _forged(h, message, custom_id, user=CAROL,
                                                      guild_id=OTHER_GUILD, values=values)))
            for custom_id in (hidden, missing)
        ]
        assert answers[0].content == text(Msg.UNKNOWN_GAME, "en-US", game_id=game_id), hidden
        assert answers[1].content == text(Msg.UNKNOWN_GAME, "en-US", game_id=MISSING), missing
    assert h.discord.messages[message] == before
    # Nothing happened to the game either.
    state = h.bot.services.games.current(CHANNEL)
    assert state.game_id == game_id and state.ply == 0 and state.draw_offer_by is None


async def test_a_press_naming_a_missing_game_or_challenge_leaves_the_pressed_board_alone(
    harness: Harness,
) -> None:
    h = harness
    _, board = await challenge_and_accept(h)
    before = copy.deepcopy(h.discord.messages[board])
    for custom_id in (f"dama:resign:{MISSING}:0", f"dama:draw:{MISSING}:0",
                      f"dama:rematch:{MISSING}", f"dama:accept:{MISSING}",
                      f"dama:decline:{MISSING}", f"dama:cancel:{MISSING}"):
        answer = _private_answer_only(await run(h, _forged(h, board, custom_id, user=BOB,
                                                           guild_id=500)))
        assert str(MISSING) in answer.content or "challenge" in answer.content, custom_id
    assert h.discord.messages[board] == before
    assert h.bot.services.games.current(CHANNEL).ply == 0


async def test_a_challenge_of_another_channel_cannot_be_accepted_from_here(
    harness: Harness,
) -> None:
    h = harness
    _, board = await challenge_and_accept(h)
    challenge_id, _ = await _challenge_elsewhere(h)
    before = copy.deepcopy(h.discord.messages[board])
    answer = _private_answer_only(await run(h, _forged(h, board, f"dama:accept:{challenge_id}",
                                                       user=DAVE, guild_id=500)))
    assert answer.content == text(Msg.CHALLENGE_UNKNOWN, "en-US")
    assert h.discord.messages[board] == before
    assert (await h.bot.services.challenges.get(challenge_id)).status.value == "pending"  # type: ignore[union-attr]


async def test_a_board_button_of_a_game_played_in_another_channel_does_nothing(
    harness: Harness,
) -> None:
    h = harness
    await challenge_and_accept(h)
    game_id = h.bot.services.games.current(CHANNEL).game_id
    await resign(h, user=BOB)
    # A message of another channel of the same server, pressed with this game's buttons.
    [answer] = await run(h, slash(h, "rules", user=ALICE, channel=CHANNEL + 50))
    message = response_message_id(h, answer)
    for custom_id in (f"dama:rematch:{game_id}", f"dama:analyze:{game_id}"):
        refused = _private_answer_only(await run(h, _forged(h, message, custom_id, user=ALICE,
                                                            guild_id=500)))
        assert refused.content == text(Msg.GAME_ELSEWHERE, "en-US", game_id=game_id)


def test_every_action_has_its_component_and_the_bot_routes_every_feature(
    harness: Harness,
) -> None:
    for components, actions in ((buttons.COMPONENTS, buttons.GameAction),
                                (puzzles.COMPONENTS, puzzles.PuzzleAction),
                                (analysis.COMPONENTS, analysis.AnalysisAction)):
        prefixes = {item.__discord_ui_compiled_template__.pattern.split(":")[1]
                    for item in components}
        assert prefixes == {action.value for action in actions}
    kinds = [buttons.GameAction, puzzles.PuzzleAction, analysis.AnalysisAction]
    assert harness.bot.router.unrouted(kinds) == []
    with pytest.raises(ValueError):
        harness.bot.router.route(buttons.GameAction, harness.bot.get_cog("Play").press)  # type: ignore[union-attr]
