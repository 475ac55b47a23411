"""The real bot process killed with SIGKILL while a player is in the middle of a puzzle
(shipped Italian bank), and started again: `/solve`'s autocomplete offers the moves of the
position the solver reached, the next move of the solution is accepted, the Reveal button
of the message posted before the kill ends it, and the rated result is stored once."""

from __future__ import annotations

import re
import signal

from engine import get_variant, legal_moves, parse_move
from engine.movegen import play_unchecked
from localplay.server import LocalDiscord
from puzzles import load_bank
from storage import Storage
from tests.support.local_discord import ANSWER_TIMEOUT


async def test_sigkill_mid_puzzle_then_the_puzzle_carries_on(local: LocalDiscord) -> None:
    variant = get_variant("italian")
    bank = {p.id: p for p in load_bank("italian")}
    standin = local.standin
    alice = standin.user("alice")
    started = await standin.slash(alice, local.channel, "puzzle", {"variant": "italian"},
                                  timeout=ANSWER_TIMEOUT)
    assert started.ephemeral
    found = re.search(r"Puzzle (\S+) \(", started.reply.text())
    assert found is not None, started.reply.text()
    puzzle = bank[found.group(1)]
    first = await standin.slash(alice, local.channel, "solve", {"move": puzzle.solution[0]},
                                timeout=ANSWER_TIMEOUT)
    assert "is right" in first.reply.text(), first.reply.text()

    await local.process.kill()
    assert local.process.returncode == -signal.SIGKILL
    await local.start_bot()

    position = puzzle.position()
    for text in puzzle.solution[:2]:
        position = play_unchecked(position, parse_move(text, position, variant), variant)
    offered = await standin.autocomplete(alice, local.channel, "solve", {"move": ""},
                                         timeout=ANSWER_TIMEOUT)
    assert {parse_move(str(c.value), position, variant) for c in offered} == set(
        legal_moves(position, variant))
    # A move the solution does not play there is wrong (the attempt's rated loss), once.
    expected = parse_move(puzzle.solution[2], position, variant)
    other = next((m for m in legal_moves(position, variant) if m != expected), None)
    if other is not None:
        wrong = await standin.slash(alice, local.channel, "solve",
                                    {"move": next(str(c.value) for c in offered
                                                  if parse_move(str(c.value), position,
                                                                variant) == other)},
                                    timeout=ANSWER_TIMEOUT)
        assert "is not the winning move" in wrong.reply.text(), wrong.reply.text()
    right = await standin.slash(alice, local.channel, "solve", {"move": puzzle.solution[2]},
                                timeout=ANSWER_TIMEOUT)
    assert "is right" in right.reply.text() or "solved" in right.reply.text(), (
        right.reply.text())
    if len(puzzle.solution) > 3:
        # The Reveal button of the message posted before the kill ends the puzzle.
        revealed = await standin.press(alice, started.reply, "Reveal", timeout=ANSWER_TIMEOUT)
        assert "The solution:" in revealed.reply.text(), revealed.reply.text()
    store = await Storage.open(local.process.database, read_only=True)
    try:
        assert await store.puzzles.session(alice.id) is None
        rating = await store.puzzles.rating(alice.id, "italian")
        assert rating is not None and rating.attempts == 1
        assert rating.solved == (1 if other is None and len(puzzle.solution) == 3 else 0)
    finally:
        await store.close()
