"""A game in a DM between two users through the app installed to one player's account,
in the real bot process against the stand-in (docs/ARCHITECTURE.md, "Places"): the
stand-in refuses every channel request there (403 Missing Access), as Discord does, so
the whole game is played through interaction answers and the board's move select, which
the opponent, who has not installed the app, uses too."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from localplay.server import LocalDiscord
from standin import CallbackType, EventKind, MessageRecord
from tests.support.local_discord import ANSWER_TIMEOUT


def move_select(message: MessageRecord) -> Mapping[str, Any]:
    """The move select of a board message."""
    selects: list[Mapping[str, Any]] = [
        c for row in message.components for c in row.get("components", ())
        if str(c.get("custom_id", "")).startswith("dama:move:")]
    [select] = selects
    return select


async def test_a_challenge_in_a_dm_between_users_is_played_from_the_board(
        local: LocalDiscord) -> None:
    standin = local.standin
    alice, bob = standin.user("alice"), standin.user("bob")
    standin.install_for_user(alice)  # Bob has not installed the app
    dm = standin.dm_between(alice, bob)
    asked = await standin.slash(alice, dm, "challenge",
                                {"opponent": bob, "variant": "turkish", "color": "white"},
                                timeout=ANSWER_TIMEOUT)
    challenge = asked.reply
    [accept] = [b.custom_id for b in challenge.buttons
                if b.custom_id and b.custom_id.startswith("dama:accept:")]
    since = standin.event_count
    await standin.press(bob, challenge, accept, timeout=ANSWER_TIMEOUT)
    shown = await standin.wait_for_message(
        lambda event: (event.message.channel_id == dm.id and bool(event.message.attachments)
                       and event.kind is not EventKind.DELETE),
        since=since, timeout=ANSWER_TIMEOUT)
    board = shown.message
    for player in (alice, bob, alice):
        select = move_select(board)
        picked = await standin.select(player, board, select["custom_id"],
                                      [select["options"][0]["value"]],
                                      timeout=ANSWER_TIMEOUT)
        assert picked.callback in (CallbackType.UPDATE_MESSAGE,  # or deferred, then edited
                                   CallbackType.DEFERRED_UPDATE_MESSAGE)
        board = standin.message(board.id)
        assert move_select(board)["custom_id"] != select["custom_id"]  # the next ply's
    assert move_select(board)["custom_id"].endswith(":3")
    refused = [(method, path, status) for method, path, status in standin.request_log
               if f"/channels/{dm.id}" in path]
    assert refused == [], "never a channel request where the app is no member"
