"""The daily post's Solve it pressed by a solver who met that puzzle already: the puzzle
is given again unrated, and the answer says so, as `/puzzle` does (before, it said
nothing, so the solver believed the second solve was rated). Through discord.py's command
tree against `FakeDiscord`; real SQLite file; the hand-made puzzle of
tests/support/puzzles.py."""

from __future__ import annotations

from pathlib import Path

from tests.support.discord_harness import (
    OpenBot,
    embed_description,
    only_answer,
    press,
    response_message_id,
    run,
    settings_for,
    slash,
)
from tests.support.fake_discord import option
from tests.support.puzzles import shot_puzzle
from tests.support.services import BOB


async def test_solve_it_on_a_puzzle_met_before_says_it_is_not_rated(
    open_bot: OpenBot, tmp_path: Path
) -> None:
    h = await open_bot(settings_for(tmp_path / "db.sqlite3"),
                       puzzle_banks={"italian": [shot_puzzle()]})
    answer = only_answer(await run(h, slash(h, "puzzle", user=BOB)))
    message = response_message_id(h, answer)
    assert "not rated" not in embed_description(answer)
    await run(h, slash(h, "solve", [option("move", "c4-d5")], user=BOB))
    solved = only_answer(await run(h, slash(h, "solve", [option("move", "f3xf7")], user=BOB)))
    assert "solved" in embed_description(solved)
    post = {**h.discord.messages[message], "components": [{"type": 1, "components": [
        {"type": 2, "style": 3, "label": "Solve it",
         "custom_id": f"dama:psolve:{shot_puzzle().id}"}]}]}
    again = only_answer(await run(h, press(h, message, f"dama:psolve:{shot_puzzle().id}",
                                           user=BOB, snapshot=post)))
    assert "You have met this puzzle before: this time is not rated." in embed_description(again)
