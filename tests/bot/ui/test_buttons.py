"""Board buttons that know their ply (`bot/ui/buttons.py`), through the Discord layer: a
board's buttons carry the game and the ply they were drawn for; a press acts only at that
ply, whether or not the board's message id was stored; an older board answers "out of
date" with the current board; a board from before buttons carried their ply shows the
current board and acts on nothing."""

from __future__ import annotations

import copy

from storage import GameStatus
from tests.support.discord_harness import (
    PNG,
    Harness,
    button_id,
    challenge_and_accept,
    press,
    press_button,
    resign,
    response_message_id,
    run,
    slash,
)
from tests.support.fake_discord import Call, option
from tests.support.services import ALICE, BOB, CHANNEL


def _answer(calls: list[Call]) -> Call:
    [answer] = [c for c in calls if c.callback_type is not None]
    return answer


async def _refuse_writes(h: Harness, refuse: bool) -> None:
    """The bot's real SQLite connection refuses writes (`PRAGMA query_only`) or takes
    them again."""
    async with h.bot.services.storage.db.read() as conn:
        await conn.fetchval(f"PRAGMA query_only = {int(refuse)}")


async def test_a_boards_buttons_carry_its_game_and_ply(harness: Harness) -> None:
    h = harness
    _, first = await challenge_and_accept(h)
    game_id = h.bot.services.games.current(CHANNEL).game_id
    first_board = h.discord.messages[first]
    assert button_id(first_board, "resign") == f"dama:resign:{game_id}:0"
    assert button_id(first_board, "draw") == f"dama:draw:{game_id}:0"
    calls = await run(h, slash(h, "move", [option("move", "a3-a4")]))
    second = h.discord.messages[response_message_id(h, _answer(calls))]
    assert button_id(second, "resign") == f"dama:resign:{game_id}:1"
    assert button_id(second, "draw") == f"dama:draw:{game_id}:1"


async def test_the_newest_board_acts_though_its_message_id_was_not_stored(
    harness: Harness,
) -> None:
    """The move is committed, then the board's message id cannot be stored (the database
    refuses writes while the board is posted): the newest board's buttons still act."""
    h = harness
    await challenge_and_accept(h)
    payload = slash(h, "move", [option("move", "a3-a4")])
    callback = f"/interactions/{payload['id']}/{payload['token']}/callback"

    async def refuse_when_answered(call: Call) -> None:
        if call.path == callback:
            await _refuse_writes(h, True)

    h.discord.observers.append(refuse_when_answered)
    calls = await run(h, payload)
    h.discord.observers.clear()
    await _refuse_writes(h, False)
    newest = response_message_id(h, _answer(calls))
    state = h.bot.services.games.current(CHANNEL)
    assert state.ply == 1 and state.board_message_id != newest
    calls = await resign(h, user=BOB, board=newest)
    final = _answer(calls)
    assert not final.ephemeral and "resigned" in final.content
    stored = await h.bot.services.storage.games.get(state.game_id)
    assert stored is not None and stored.status is GameStatus.FINISHED


async def test_an_older_board_is_out_of_date_and_shows_the_current_board(
    harness: Harness,
) -> None:
    h = harness
    _, first = await challenge_and_accept(h)
    old = dict(h.discord.messages[first])  # as a client still showing its buttons has it
    await run(h, slash(h, "move", [option("move", "a3-a4")]))
    for action, user in (("resign", BOB), ("draw", BOB), ("resign", ALICE)):
        calls = await run(h, press_button(h, first, action, user=user, snapshot=old))
        stale = _answer(calls)
        assert stale.ephemeral and "out of date" in stale.content
        assert stale.files and stale.files[0][1].startswith(PNG)
        assert stale.embeds and "Move" in {f["name"] for f in stale.embeds[0]["fields"]}
        assert stale.custom_ids == []
    state = h.bot.services.games.current(CHANNEL)
    assert state.ply == 1 and state.status is GameStatus.ACTIVE
    assert state.draw_offer_by is None


async def test_a_board_from_before_buttons_carried_their_ply_acts_on_nothing(
    harness: Harness,
) -> None:
    """A board posted by an older version (`dama:resign:<game>`, no ply), even one showing
    the current position: a press shows the current board, does nothing, and the pressed
    board loses its buttons."""
    h = harness
    _, board = await challenge_and_accept(h)
    game_id = h.bot.services.games.current(CHANNEL).game_id
    # The same board as an older version drew it: buttons without the ply.
    legacy = copy.deepcopy(h.discord.messages[board])
    for row in legacy["components"]:
        for button in row["components"]:
            button["custom_id"] = button["custom_id"].rsplit(":", 1)[0]
    assert button_id(legacy, "resign") == f"dama:resign:{game_id}"
    for action in ("resign", "draw"):
        calls = await run(h, press(h, board, f"dama:{action}:{game_id}", user=BOB,
                                   snapshot=legacy))
        stale = _answer(calls)
        assert stale.ephemeral and "out of date" in stale.content
        assert stale.files and stale.files[0][1].startswith(PNG)
        [strip] = [c for c in calls if c.method == "PATCH"]
        assert strip.path.endswith(f"/{board}") and strip.body["components"] == []
    state = h.bot.services.games.current(CHANNEL)
    assert state.status is GameStatus.ACTIVE and state.ply == 0
    assert state.draw_offer_by is None
    # The buttons of the board as drawn now still act.
    calls = await run(h, slash(h, "board", user=BOB))
    current = response_message_id(h, _answer(calls))
    calls = await run(h, press_button(h, current, "draw", user=BOB))
    assert "offers a draw" in _answer(calls).content
