"""A puzzle under way survives a restart of the bot (discord.py's command tree against
`FakeDiscord`, a real SQLite file): after the restart the old puzzle message's Hint button,
`/solve`'s autocomplete and `/solve` continue where the solver was, and the rated result
is stored once. A bank regenerated without the puzzle ends it with a message saying so.
Bank: the hand-made puzzle of tests/support/puzzles.py (1. c4-d5 c6xe4 2. f3xd5xf7)."""

from __future__ import annotations

from pathlib import Path

from tests.support.clock import FakeClock
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
from tests.support.services import BOB, CHANNEL


async def test_a_puzzle_continues_after_a_restart_and_is_rated_once(
    open_bot: OpenBot, tmp_path: Path
) -> None:
    path, clock, bank = tmp_path / "db.sqlite3", FakeClock(), {"italian": [shot_puzzle()]}
    h = await open_bot(settings_for(path), clock=clock, puzzle_banks=bank)
    answer = only_answer(await run(h, slash(h, "puzzle", [option("variant", "italian")],
                                            user=BOB)))
    puzzle_message = response_message_id(h, answer)
    answer = only_answer(await run(h, slash(h, "solve", [option("move", "c4-d5")], user=BOB)))
    # Italian texts are numbered by default (c6 = 10, e4 = 19, f3 = 23; docs/RULES.md).
    assert "The defence: **10x19**" in embed_description(answer)
    await h.bot.close()

    h = await open_bot(settings_for(path), clock=clock, puzzle_banks=bank)
    [auto] = await run(h, h.discord.interaction(4, {
        "id": "1", "name": "solve", "type": 1,
        "options": [option("move", "", focused=True)]}, user_id=BOB, channel_id=CHANNEL))
    # The position after 1. c4-d5 c6xe4: the capture is compulsory, f3's is the only one.
    assert [c["value"] for c in auto.payload["data"]["choices"]] == ["f3xf7"]
    # The Hint button of the message posted before the restart names the next piece.
    hint = f"dama:phint:{BOB}:{shot_puzzle().id}"
    answer = only_answer(await run(h, press(h, puzzle_message, hint,
                                            user=BOB)))
    assert answer.ephemeral and "move the piece on **23**" in embed_description(answer)
    answer = only_answer(await run(h, slash(h, "solve", [option("move", "f3xf7")], user=BOB)))
    assert answer.ephemeral and "solved" in embed_description(answer)
    rating = await h.bot.services.storage.puzzles.rating(BOB, "italian")
    assert rating is not None and (rating.attempts, rating.solved) == (1, 0)  # hinted
    await h.bot.close()

    h = await open_bot(settings_for(path), clock=clock, puzzle_banks=bank)
    answer = only_answer(await run(h, slash(h, "solve", [option("move", "f3xf7")], user=BOB)))
    assert answer.ephemeral and "no puzzle under way" in answer.content
    rating = await h.bot.services.storage.puzzles.rating(BOB, "italian")
    assert rating is not None and rating.attempts == 1


async def test_a_puzzle_the_new_bank_lacks_is_ended_with_a_message(
    open_bot: OpenBot, tmp_path: Path
) -> None:
    path, clock = tmp_path / "db.sqlite3", FakeClock()
    h = await open_bot(settings_for(path), clock=clock,
                       puzzle_banks={"italian": [shot_puzzle()]})
    await run(h, slash(h, "puzzle", [option("variant", "italian")], user=BOB))
    await h.bot.close()
    other = shot_puzzle(("c4-d5", "e6xc4", "b3xd5xb7"))
    h = await open_bot(settings_for(path), clock=clock, puzzle_banks={"italian": [other]})
    answer = only_answer(await run(h, slash(h, "solve", [option("move", "c4-d5")], user=BOB)))
    assert answer.ephemeral
    assert f"The puzzle you were solving ({other.id}) was changed or removed" in answer.content
    answer = only_answer(await run(h, slash(h, "solve", [option("move", "c4-d5")], user=BOB)))
    assert "no puzzle under way" in answer.content
