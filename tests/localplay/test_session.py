"""The local mode's session against the real bot: nothing is lost at the end of the input,
and a board printed late still shows its own position."""

from __future__ import annotations

import asyncio
from pathlib import Path

from localplay.server import LOCAL_ID_SEED, LocalDiscord
from localplay.session import TerminalSession
from standin import MessageEvent, MessageRecord
from tests.support.local_discord import ANSWER_TIMEOUT, READY_TIMEOUT


def _with_button(session: TerminalSession, label: str) -> MessageRecord:
    for message in reversed(session.standin.messages(session.channel)):
        if any(button.label == label for button in message.buttons):
            return message
    raise AssertionError(f"no message has a button {label!r}")


async def test_answers_still_on_their_way_at_the_end_are_printed(
    local: LocalDiscord, tmp_path: Path
) -> None:
    """The input ends right after `press Accept`: the board the bot posts after updating
    the challenge must still be printed (it was lost when the bot was stopped at once)."""
    out: list[str] = []
    async with TerminalSession(local, boards_dir=tmp_path / "boards", emit=out.append,
                       timeout=ANSWER_TIMEOUT) as session:
        assert await session.run_line("/challenge @bob italian color:white")
        challenge = _with_button(session, "Accept")
        # Pressed without waiting for the follow-ups, as the last line of a script.
        await session.standin.press("bob", challenge, "Accept", timeout=ANSWER_TIMEOUT)
        await session.finish()
    text = "\n".join(out)
    assert "the game begins" in text, text
    assert "w/b men, W/B kings; White to move" in text, text
    assert not local.process.running


async def test_a_board_printed_late_shows_the_position_it_was_posted_for(
    local: LocalDiscord, tmp_path: Path
) -> None:
    out: list[str] = []
    async with TerminalSession(local, boards_dir=tmp_path / "boards", emit=out.append,
                       timeout=ANSWER_TIMEOUT) as session:
        for line in ("/challenge @bob italian color:white", "as bob", "press Accept"):
            assert await session.run_line(line)
        # Hold the printer back while two moves are played: their boards are printed
        # after both moves are stored.
        gate = asyncio.Event()
        show = session.transcript._print_event

        async def late(*args: object) -> None:
            await gate.wait()
            await show(*args)  # type: ignore[arg-type]

        session.transcript._print_event = late  # type: ignore[method-assign,assignment]
        arrived: list[MessageEvent] = []
        session.standin.add_listener(arrived.append)
        channel = session.channel
        await session.standin.slash("alice", channel, "move", {"move": "22-18"},
                                    timeout=ANSWER_TIMEOUT)
        await session.standin.slash("bob", channel, "move", {"move": "11-15"},
                                    timeout=ANSWER_TIMEOUT)
        for _ in range(300):  # both boards have arrived
            if sum(1 for e in arrived if e.message.attachments) >= 2:
                break
            await asyncio.sleep(0.1)
        gate.set()
        await session.finish()
    boards = [line for line in out if "W/B kings" in line]
    # Start (White to move), after 22-18 (Black to move), after 11-15 (White to move).
    assert [b.split("; ")[1] for b in boards[-2:]] == ["Black to move", "White to move"], out


async def test_players_of_an_earlier_run_are_named_on_an_analysis_card(
    tmp_path: Path
) -> None:
    """bob played in an earlier run and has not typed nor been mentioned in this one: the
    analysis card names him from the bot's database, as `@bob`, not `<@id>`."""

    def local_discord() -> LocalDiscord:
        return LocalDiscord(database=tmp_path / "bot.sqlite3", log_path=tmp_path / "bot.log",
                            ready_timeout=READY_TIMEOUT, id_seed=LOCAL_ID_SEED)

    script = ("/challenge @bob italian color:white", "as bob", "press Accept", "as alice",
              "/move 22-18", "as bob", "/resign", "press Resign")
    earlier = local_discord()
    async with earlier, TerminalSession(earlier, boards_dir=tmp_path / "boards", emit=print,
                                        timeout=ANSWER_TIMEOUT) as session:
        for line in script:
            assert await session.run_line(line), line
        await session.finish()
    out: list[str] = []
    later = local_discord()
    async with later, TerminalSession(later, boards_dir=tmp_path / "boards",
                                      emit=out.append, timeout=ANSWER_TIMEOUT) as session:
        assert "bob" not in {u.username for u in later.standin.world.users.values()}
        assert await session.run_line("/analyze game:1")
        await session.finish(settle=5.0, timeout=120.0)
    text = "\n".join(out)
    assert "@alice" in text and "@bob" in text, text
    assert "<@" not in text, text
