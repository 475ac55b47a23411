"""Whole games through slash commands in every variant, ended by the rules, rated."""

from __future__ import annotations

import re

import pytest

from engine import VARIANTS, Color, Termination, get_variant
from localplay.server import LocalDiscord
from localplay.stored import StoredGames
from renderer import render_png
from tests.support.forced_games import forced_game
from tests.support.local_discord import ANSWER_TIMEOUT
from tests.support.standin_play import PNG_MAGIC, move_text, play_move, start_game

_RATING = re.compile(r"(\d{3,4})\??\s*\(deviation")
_ENDING_WORDS = {
    Termination.NO_PIECES: "has no pieces left",
    Termination.NO_LEGAL_MOVE: "has no legal move",
}


async def _rating_of(local: LocalDiscord, user: str, variant: str) -> str:
    answer = await local.standin.slash(user, "general", "rating",
                                       {"user": user, "variant": variant},
                                       timeout=ANSWER_TIMEOUT)
    return answer.reply.text()


@pytest.mark.parametrize("key", sorted(VARIANTS))
async def test_a_whole_game_ends_by_the_rules_and_is_rated(
    local: LocalDiscord, key: str
) -> None:
    variant = get_variant(key)
    forced = forced_game(variant, seeds=40)
    standin = local.standin
    alice, bob = standin.user("alice"), standin.user("bob")
    channel = local.channel
    assert "no rated games" in (await _rating_of(local, "alice", key))

    game_id, first = await start_game(local, channel, alice, bob, variant)
    assert [b.label for b in first.buttons] == ["Resign", "Offer draw"]
    players = {Color.WHITE: alice, Color.BLACK: bob}
    answer = None
    for position, move in forced.moves:
        answer = await play_move(local, players[position.turn], channel,
                                 move_text(move, position, variant))
    assert answer is not None
    final = answer.reply
    winner, loser = players[forced.winner], players[forced.winner.opponent]
    text = final.text()
    assert f"<@{winner.id}> wins" in text, text
    assert f"<@{loser.id}> {_ENDING_WORDS[forced.termination]}" in text, text
    assert "Rating changes" in text
    assert [b.label for b in final.buttons] == ["Rematch", "Replay", "Analyze"], \
        "a finished board offers Rematch, Replay and Analyze"

    # The final picture: a PNG of the final position as the renderer draws it.
    picture = final.attachments[0]
    data = standin.attachment_bytes(picture)
    assert data.startswith(PNG_MAGIC) and picture.width == picture.height
    last_position, last_move = forced.moves[-1]
    async with StoredGames(local.process.database) as games:
        stored = await games.load(game_id)
    assert stored.record.status.value == "finished"
    assert stored.record.result is not None
    assert stored.record.result.value == ("1-0" if forced.winner is Color.WHITE else "0-1")
    assert stored.record.termination == forced.termination.name.lower()
    assert len(stored.moves) == len(forced.moves)
    # Drawn from the side of the player to move (who would answer it), Italian squares
    # numbered (the default notation).
    expected_png = render_png(stored.position, variant, last_move=last_move,
                              before=last_position, size=picture.width or 512,
                              perspective=stored.position.turn,
                              numbers=variant.numeric_notation,
                              show_turn=False)  # a finished game has no side to move
    assert data == expected_png

    # /rating shows the change: the winner above the 1500 start, the loser below it.
    won = _RATING.search(await _rating_of(local, "alice" if winner is alice else "bob", key))
    lost = _RATING.search(await _rating_of(local, "bob" if winner is alice else "alice", key))
    assert won is not None and lost is not None
    assert int(won.group(1)) > 1500 > int(lost.group(1))
