"""The component router (`bot/ui/components.py`): every press is checked before its
handler acts. A `custom_id` naming a game the presser may not see, or one that does not
exist, gets exactly the answer a missing game gets, privately, and no message changes
(docs/ARCHITECTURE.md, "Buttons and other components"). Real `DamaBot` through
discord.py against `FakeDiscord`, real SQLite file."""

from __future__ import annotations

import copy

import pytest

from bot.messages import Msg, text
from bot.ui import analysis, buttons, puzzles
from tests.support.discord_harness import (
    DAVE,
    OTHER_GUILD,
    Harness,
    challenge_and_accept,
    challenge_elsewhere,
    forged_press,
    play_plies,
    resign,
    response_message_id,
    run,
    slash,
)
from tests.support.fake_discord import Call
from tests.support.services import ALICE, BOB, CAROL, CHANNEL

MISSING = 999_999


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
    _, message = await challenge_elsewhere(h)
    before = copy.deepcopy(h.discord.messages[message])
    for hidden, missing in zip(_game_ids(game_id), _game_ids(MISSING), strict=True):
        values = ["1"] if hidden.startswith("dama:mistake:") else None
        answers = [
            _private_answer_only(await run(h, forged_press(h, message, custom_id, user=CAROL,
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
        answer = _private_answer_only(await run(h, forged_press(h, board, custom_id, user=BOB,
                                                           guild_id=500)))
        assert str(MISSING) in answer.content or "challenge" in answer.content, custom_id
    assert h.discord.messages[board] == before
    assert h.bot.services.games.current(CHANNEL).ply == 0


async def test_a_challenge_of_another_channel_cannot_be_accepted_from_here(
    harness: Harness,
) -> None:
    h = harness
    _, board = await challenge_and_accept(h)
    challenge_id, _ = await challenge_elsewhere(h)
    before = copy.deepcopy(h.discord.messages[board])
    answer = _private_answer_only(await run(h, forged_press(h, board, f"dama:accept:{challenge_id}",
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
        refused = _private_answer_only(await run(h, forged_press(h, message, custom_id, user=ALICE,
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


async def test_a_keep_playing_press_on_a_public_board_leaves_it_alone(
    harness: Harness,
) -> None:
    # Keep playing belongs to the resign question, a private message: pressed on the
    # channel's board (a forged custom_id), it must not replace the board.
    h = harness
    _, board = await challenge_and_accept(h)
    game_id = h.bot.services.games.current(CHANNEL).game_id
    before = copy.deepcopy(h.discord.messages[board])
    for user in (CAROL, ALICE):
        answer = _private_answer_only(await run(h, forged_press(h, board, f"dama:keep:{game_id}:0",
                                                           user=user, guild_id=500)))
        assert answer.content == text(Msg.RESIGN_KEPT, "en-US", game_id=game_id)
    assert h.discord.messages[board] == before


async def test_a_press_naming_a_game_id_beyond_the_databases_integers_is_a_missing_game(
    harness: Harness,
) -> None:
    h = harness
    _, board = await challenge_and_accept(h)
    before = copy.deepcopy(h.discord.messages[board])
    for huge in (2**63, 2**64, 10**30):
        for custom_id in (*_game_ids(huge), f"dama:accept:{huge}", f"dama:cancel:{huge}"):
            values = ["1"] if custom_id.startswith("dama:mistake:") else None
            answer = _private_answer_only(await run(h, forged_press(h, board, custom_id, user=BOB,
                                                               guild_id=500, values=values)))
            expected = (text(Msg.CHALLENGE_UNKNOWN, "en-US") if ":accept:" in custom_id
                        or ":cancel:" in custom_id
                        else text(Msg.UNKNOWN_GAME, "en-US", game_id=huge))
            assert answer.content == expected, custom_id
    assert h.discord.messages[board] == before


async def test_a_forged_ply_or_an_ended_games_id_leaves_the_current_boards_buttons(
    harness: Harness,
) -> None:
    # The board of the channel's game is not out of date, whatever ply or ended game of
    # the channel a forged custom_id names: its buttons stay.
    h = harness
    await challenge_and_accept(h)
    ended = h.bot.services.games.current(CHANNEL).game_id
    await resign(h, user=BOB)
    _, board = await challenge_and_accept(h)
    game_id = h.bot.services.games.current(CHANNEL).game_id
    before = copy.deepcopy(h.discord.messages[board])
    for custom_id in (f"dama:resign:{game_id}:3", f"dama:draw:{game_id}:7",
                      f"dama:resign:{ended}:0", f"dama:draw:{ended}:0",
                      f"dama:keep:{ended}:0"):
        await run(h, forged_press(h, board, custom_id, user=CAROL, guild_id=500))
        assert h.discord.messages[board] == before, custom_id


async def test_analysis_components_pressed_on_a_board_leave_it_alone(
    harness: Harness,
) -> None:
    # The analysis components belong to an analysis's own messages: a forged custom_id
    # naming a visible game, pressed on the channel's board, must not rewrite the board.
    h = harness
    await challenge_and_accept(h)
    ended = h.bot.services.games.current(CHANNEL).game_id
    await resign(h, user=BOB)
    _, board = await challenge_and_accept(h)
    before = copy.deepcopy(h.discord.messages[board])
    for custom_id in (f"dama:stopanalysis:{ended}", f"dama:mistake:{ended}"):
        values = ["1"] if custom_id.startswith("dama:mistake:") else None
        await run(h, forged_press(h, board, custom_id, user=CAROL, guild_id=500, values=values))
        assert h.discord.messages[board] == before, custom_id


async def test_an_earlier_ply_pressed_on_the_current_board_is_stale_and_keeps_its_buttons(
    harness: Harness,
) -> None:
    h = harness
    await challenge_and_accept(h)
    await play_plies(h, 2)
    state = h.bot.services.games.current(CHANNEL)
    board = state.board_message_id
    assert board is not None
    before = copy.deepcopy(h.discord.messages[board])
    answer = _private_answer_only(await run(h, forged_press(
        h, board, f"dama:draw:{state.game_id}:1", user=ALICE, guild_id=500)))
    assert answer.content == text(Msg.STALE_BOARD, "en-US")
    assert h.discord.messages[board] == before
    assert h.bot.services.games.current(CHANNEL).draw_offer_by is None
