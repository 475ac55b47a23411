"""Regression tests for gaps found polishing the bot (issues 5 and 7): what a channel whose
game has just ended answers, the buttons of games against the computer, /history's aborted
games, the leaderboard's footer, /export in direct messages, and the computer's move for an
absent player thinking outside the channel's lock."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.messages import Msg
from bot.services import PlayerError
from bot.services.stats import Leaderboard
from bot.ui.info import leaderboard_embed
from storage import Eligibility
from tests.bot.conftest import Harness
from tests.support.fake_discord import option
from tests.support.services import FakeClock, build_services, start_game
from tests.bot.cogs.test_play import (
    ALICE,
    BOB,
    challenge_and_accept,
    press,
    response_message_id,
    run,
    slash,
)
from tests.bot.cogs.test_computer import channel_posts, computer_done
from tests.bot.cogs.test_computer import h as h  # the /play harness fixture


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


def _actions(custom_ids: list[str]) -> set[str]:
    return {i.rsplit(":", 1)[0] for i in custom_ids}


async def test_boards_of_games_against_the_computer_offer_no_draw(h: Harness) -> None:
    # The computer never takes draws (COMPUTER_NO_DRAW), so an "Offer draw" button on a
    # /play board only leads to a refusal; Resign stays.
    calls = await run(h, slash(h, "play", [option("variant", "turkish"), option("level", 1, 4),
                                           option("color", "black")]))
    [start] = [c for c in calls if c.callback_type == 4]
    assert _actions(start.custom_ids) == {"dama:resign"}
    assert response_message_id(h, start)
    since = len(h.discord.calls)
    await computer_done(h)
    [reply] = channel_posts(h.discord.calls[since:])
    assert _actions(reply.custom_ids) == {"dama:resign"}
    # A game between two people keeps both buttons.
    calls = await run(h, slash(h, "resign", []))
    assert any(c.callback_type == 4 and "resigned" in c.content for c in calls)
    _, board = await challenge_and_accept(h)
    buttons = h.discord.messages[board]["components"][0]["components"]
    assert {b["custom_id"].rsplit(":", 1)[0] for b in buttons} == {"dama:resign", "dama:draw"}


async def test_history_says_aborted_once(harness: Harness) -> None:
    h = harness
    await challenge_and_accept(h, rated=False)
    calls = await run(h, slash(h, "abort", []))
    assert any(c.callback_type == 4 and "aborted" in c.content.lower() for c in calls)
    [answer] = await run(h, slash(h, "history", []))
    [line] = answer.embeds[0]["description"].splitlines()
    assert line.lower().count("aborted") == 1, line
    assert f"<@{BOB}>" in line


@pytest.mark.parametrize(("min_games", "phrase"), [
    (1, "at least 1 rated game and"), (2, "at least 2 rated games and"),
])
def test_leaderboard_footer_counts_games_in_good_english(min_games: int, phrase: str) -> None:
    board = Leaderboard("turkish", 1, [], None, None, 0, Eligibility(min_games, 110.0))
    footer = leaderboard_embed(board, "en-US").footer.text
    assert footer is not None and phrase in footer, footer


async def test_export_in_direct_messages_picks_the_callers_game(harness: Harness) -> None:
    h = harness
    dm = 9100

    async def export_in_dm() -> tuple[str, str | None]:
        [answer] = await run(h, slash(h, "export", [], channel=dm, guild_id=None))
        return answer.content, answer.files[0][0] if answer.files else None

    # No game at all: a clear message, no file.
    content, file = await export_in_dm()
    assert file is None and "no game" in content.lower() and "/history" in content
    # Only a finished game: it is the most recent one, and the answer says so.
    await challenge_and_accept(h)
    first = h.bot.games.current(600).game_id
    await run(h, slash(h, "resign", []))
    content, file = await export_in_dm()
    assert file == f"dama-turkish-{first}.pdn", (content, file)
    assert f"#{first}" in content and "most recent" in content, content
    # Exactly one game in progress: that one, saying so.
    calls = await run(h, slash(h, "play", [option("variant", "arab"), option("level", 1, 4),
                                           option("color", "white")], channel=601))
    assert any(c.callback_type == 4 and not c.ephemeral for c in calls)
    second = h.bot.games.current(601).game_id
    content, file = await export_in_dm()
    assert file == f"dama-arab-{second}.pdn", (content, file)
    assert f"#{second}" in content and "in progress" in content, content
    # Two games in progress: neither is guessed; the most recent (finished) game is
    # exported, saying which, and how to export a game in progress.
    await challenge_and_accept(h)
    third = h.bot.games.current(600).game_id
    content, file = await export_in_dm()
    assert file == f"dama-turkish-{first}.pdn", (content, file)
    assert "most recent" in content and f"#{second}" in content and f"#{third}" in content


async def test_export_in_direct_messages_with_several_games_and_none_ended(
    tmp_path: Path,
) -> None:
    s = await build_services(tmp_path / "db.sqlite3", FakeClock())
    try:
        one = await start_game(s, "turkish", channel=700)
        two = await start_game(s, "italian", channel=701)
        with pytest.raises(PlayerError) as info:
            await s.stats.export(ALICE, channel_id=9100, direct=True)
        assert info.value.key is Msg.NO_GAME_TO_EXPORT_SEVERAL
        assert info.value.params["games"] == f"#{one.id}, #{two.id}"
        # In a server channel without a game, the old rule stands: the most recent ended
        # game (there is none).
        with pytest.raises(PlayerError) as info:
            await s.stats.export(ALICE, channel_id=9100)
        assert info.value.key is Msg.NO_GAME_TO_EXPORT
    finally:
        await s.storage.close()
