"""Regression tests for gaps found polishing the bot (issues 5 and 7): what a channel whose
game has just ended answers, the buttons of games against the computer, /history's aborted
games, the leaderboard's footer, /export in direct messages, and the computer's move for an
absent player thinking outside the channel's lock."""

from __future__ import annotations

from tests.bot.conftest import Harness
from tests.bot.fake_discord import option
from tests.bot.test_discord_layer import ALICE, BOB, challenge_and_accept, press, run, slash


async def test_commands_after_the_game_ended_say_it_is_over(harness: Harness) -> None:
    # Issue 5: a wrong /move is answered with why, "game over" among the reasons; the
    # channel's game has just ended, so "there is no game here" would be wrong.
    h = harness
    _, board_message = await challenge_and_accept(h)
    game_id = h.bot.games.current(600).game_id
    calls = await run(h, press(h, board_message, f"dama:resign:{game_id}", user=BOB))
    assert not calls[0].ephemeral
    for name, options in [("move", [option("move", "a6-a5")]), ("resign", []), ("draw", []),
                          ("board", [])]:
        [reply] = await run(h, slash(h, name, options, user=BOB))
        assert reply.ephemeral, name
        content = reply.content
        assert "no game in this channel" not in content, (name, content)
        assert "over" in content and f"#{game_id}" in content, (name, content)
        assert f"<@{ALICE}> wins (1-0)" in content and "resigned" in content, (name, content)
        assert "/challenge" in content and "/play" in content, (name, content)
