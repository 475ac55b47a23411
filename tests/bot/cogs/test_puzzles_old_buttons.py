"""A puzzle message's Hint and Reveal act on the puzzle that message shows: pressed on an
old puzzle's message after the solver moved on to another puzzle, they change nothing
and say why (before, they hinted or revealed, and rated as lost, the other puzzle).
Through discord.py's command tree against `FakeDiscord`; real SQLite file; a bank of two
copies of the hand-made puzzle of tests/support/puzzles.py."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from tests.support.discord_harness import (
    OpenBot,
    button_id,
    only_answer,
    press,
    response_message_id,
    run,
    settings_for,
    slash,
)
from tests.support.fake_discord import Call
from tests.support.puzzles import shot_puzzle
from tests.support.services import ALICE


def _text(call: Call) -> str:
    embeds = call.body.get("embeds") or []
    return str(embeds[0]["description"]) if embeds else call.content


async def test_an_old_puzzles_buttons_leave_the_new_puzzle_alone(
    open_bot: OpenBot, tmp_path: Path
) -> None:
    first, second = shot_puzzle(), replace(shot_puzzle(), id="italian-0000000002")
    h = await open_bot(settings_for(tmp_path / "db.sqlite3"),
                       puzzle_banks={"italian": [first, second]})
    answer = only_answer(await run(h, slash(h, "puzzle", user=ALICE)))
    old = response_message_id(h, answer)
    shown = (await h.bot.services.storage.puzzles.session(ALICE))
    assert shown is not None
    other = second.id if shown.puzzle_id == first.id else first.id
    # Alice moves on to the other puzzle (a daily post's Solve it, as a message showing
    # that button: the daily post's own shape is tests/bot/cogs/test_puzzles.py's).
    post = {**h.discord.messages[old], "components": [{"type": 1, "components": [
        {"type": 2, "style": 3, "label": "Solve it", "custom_id": f"dama:psolve:{other}"}]}]}
    moved = only_answer(await run(h, press(h, old, f"dama:psolve:{other}", user=ALICE,
                                           snapshot=post)))
    assert other in str(moved.body["embeds"][0]["title"])
    for action in ("preveal", "phint"):
        answer = only_answer(await run(h, press(h, old, button_id(h.discord.messages[old],
                                                                  action), user=ALICE)))
        assert answer.ephemeral and shown.puzzle_id in _text(answer), _text(answer)
    now = await h.bot.services.storage.puzzles.session(ALICE)
    assert now is not None and now.puzzle_id == other and not now.hinted
    assert await h.bot.services.storage.puzzles.rating(ALICE, "italian") is None


async def test_a_hint_button_of_an_older_version_acts_on_the_puzzle_under_way(
    open_bot: OpenBot, tmp_path: Path
) -> None:
    # Messages sent before the buttons named their puzzle carry the user id alone: they
    # go on working, on the puzzle under way.
    h = await open_bot(settings_for(tmp_path / "db.sqlite3"),
                       puzzle_banks={"italian": [shot_puzzle()]})
    answer = only_answer(await run(h, slash(h, "puzzle", user=ALICE)))
    message = response_message_id(h, answer)
    older = {**h.discord.messages[message], "components": [{"type": 1, "components": [
        {"type": 2, "style": 2, "label": "Hint", "custom_id": f"dama:phint:{ALICE}"}]}]}
    answer = only_answer(await run(h, press(h, message, f"dama:phint:{ALICE}", user=ALICE,
                                            snapshot=older)))
    assert "move the piece on **18**" in _text(answer)
    session = await h.bot.services.storage.puzzles.session(ALICE)
    assert session is not None and session.hinted
