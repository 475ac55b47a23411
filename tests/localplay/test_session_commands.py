"""The local mode's commands against the real bot: numbered messages and `press N`,
choice values as players type them, `suggest` without a value, the range of a number, and
`select` on an analysis card's select menu of mistakes, `later` and `close dms`."""

from __future__ import annotations

import asyncio
import re
from datetime import UTC, datetime, timedelta
from pathlib import Path

from engine import Position, format_move, get_variant, legal_moves
from localplay.server import LocalDiscord
from localplay.session import TerminalSession
from tests.support.local_discord import ANSWER_TIMEOUT


def _session(local: LocalDiscord, tmp_path: Path, out: list[str],
             locale: str = "en-US") -> TerminalSession:
    """A terminal session on `local` whose lines go to `out`, its boards under
    `tmp_path`, waiting `ANSWER_TIMEOUT` for each answer, in `locale`'s client."""
    return TerminalSession(local, boards_dir=tmp_path / "boards", emit=out.append,
                           locale=locale, timeout=ANSWER_TIMEOUT)


async def test_press_reaches_an_older_message_by_its_number(
    local: LocalDiscord, tmp_path: Path
) -> None:
    out: list[str] = []
    async with _session(local, tmp_path, out) as session:
        # Two challenges wait for bob: alice's (message [1]) and carol's (message [2]).
        assert await session.run_line("/challenge @bob Italian color:white")
        assert await session.run_line("as carol")
        assert await session.run_line("/challenge @bob dama")
        headers = [line for line in out if line.startswith("--- [")]
        assert headers[:2] == ["--- [1] dama-bot in #general, answering @alice /challenge ---",
                               "--- [2] dama-bot in #general, answering @carol /challenge ---"]
        assert await session.run_line("as bob")
        # A number not shown, and a button message [1] lacks, are refused with what there is.
        assert not await session.run_line("press 9 Accept")
        assert "! no message [9] of dama-bot: they are numbered 1 to 2" in out
        assert not await session.run_line("press 1 Resign")
        assert "! message [1] has no button 'Resign'; its buttons: [Accept] [Decline] " \
               "[Cancel]" in out
        # `press Accept` alone would take the newest (carol's); [1] is alice's.
        assert await session.run_line("press 1 Accept")
        await session.finish()
    begins = [line for line in out if "the game begins" in line]
    assert begins == ["@alice (White) vs @bob (Black): the game begins."], out
    # The edited challenge keeps its number.
    assert any(line.startswith("--- [1] dama-bot in #general") and line.endswith("edited ---")
               for line in out), out


async def test_typed_choices_suggestions_and_ranges(local: LocalDiscord, tmp_path: Path) -> None:
    out: list[str] = []
    async with _session(local, tmp_path, out) as session:
        # Variants and choices as players type them.
        assert await session.run_line("/rules dama")
        assert "== Turkish draughts ==" in "\n".join(out), out
        assert await session.run_line("/leaderboard Italian everyone")
        assert "== Italian draughts leaderboard · everywhere ==" in "\n".join(out), out
        assert await session.run_line("/rules checkers")  # an alias of English checkers
        assert "== English checkers ==" in "\n".join(out), out
        failures = session.failures
        assert not await session.run_line("/rules chess")  # still refused, with the list
        assert session.failures == failures + 1
        assert "must be one of its choices: Turkish draughts (turkish)" in out[-1]
        # A number below the option's minimum: the real range.
        assert not await session.run_line("/export game:-1")
        assert out[-1] == "! /export option 'game' must be at least 1, not '-1'"
        # Suggestions for /move with no value, an empty field, or a beginning.
        for line in ("/challenge @bob italian color:white", "as bob", "press Accept",
                     "as alice"):
            assert await session.run_line(line)
        italian = get_variant("italian")
        start = Position.start(italian)
        every = sorted(format_move(m, start, italian) for m in legal_moves(start, italian))
        for line in ("suggest /move", "suggest /move move:", 'suggest /move ""'):
            assert await session.run_line(line), out[-3:]
            shown = out[-1].removeprefix("(suggestions: ").removesuffix(")")
            # Each labelled "numeric (algebraic)", the bot's default for Italian.
            labels = [item.split(" (")[1].rstrip(")") for item in shown.split(", ")]
            assert sorted(labels) == every, out[-1]
        assert await session.run_line("suggest /move 22")
        assert out[-1] == "(suggestions: 22-18 (d3-c4), 22-19 (d3-e4))"
        await session.finish()


async def test_a_turkish_client_types_turkish_command_names(
    local: LocalDiscord, tmp_path: Path
) -> None:
    # `dama-bot local --locale tr`: the users' interactions carry the Turkish client
    # locale, and command, option and choice names are typed as a Turkish Discord shows
    # them (name_localizations), or in English. The server (preferred locale en-US here)
    # is made Turkish by its owner, so the game's posts are Turkish too.
    out: list[str] = []
    async with _session(local, tmp_path, out, locale="tr") as session:
        assert await session.run_line("as owner")
        assert await session.run_line("/sunucu-ayarları dil:Türkçe")
        assert await session.run_line("as alice")
        # A mistyped command is refused with the names a Turkish client shows.
        assert not await session.run_line("/terk")
        # An option name with a hyphen and an accent, as the Turkish client shows it.
        assert await session.run_line(
            "/meydan-oku rakip:@bob tür:turkish renk:Beyaz hamle-süresi:5m")
        assert await session.run_line("as bob")
        assert await session.run_line("press Kabul et")
        assert await session.run_line("/hamle d6-d5")  # bob plays Black: not his turn yet
        assert await session.run_line("/help")  # the English name works too
        await session.finish()
    refusal = next(line for line in out if "/terk" in line)
    assert "/meydan-oku" in refusal and "/hamle" in refusal, refusal
    assert "/challenge" not in refusal and "/move" not in refusal, refusal
    assert "  @alice oyuncusunun rengi: Beyaz. Hamle süresi: 5 dakika." in out, out
    assert "@alice (Beyaz) - @bob (Siyah): oyun başlıyor." in out, out
    assert "Sıra sende değil: hamle sırası @alice (Beyaz) oyuncusunda. Hamlesini bekle." in out
    assert "  == Burada nasıl dama oynanır ==" in out, out


async def test_the_computers_moves_are_posted_in_the_servers_language(
    local: LocalDiscord, tmp_path: Path
) -> None:
    # No interaction asks for the computer's move: its post takes the server's language
    # (the owner, an admin, chose French), whatever the players' clients are (English).
    out: list[str] = []
    async with _session(local, tmp_path, out) as session:
        assert await session.run_line("as owner")
        assert await session.run_line("/server-settings language:fr")
        assert await session.run_line("as alice")
        assert await session.run_line("/play turkish level:1 color:white")
        assert await session.run_line("/move d3-d4")
        await session.finish()
    computer = [line for line in out if line.startswith("Ordinateur (niveau 1) a joué")]
    assert computer, out
    assert "@alice a joué d3-d4." in out, out


async def test_select_shows_a_mistake_of_an_analysed_game(
    local: LocalDiscord, tmp_path: Path
) -> None:
    """bob's 9-13 hangs a man (alice takes it, 18x9): the analysis card lists it in its
    select menu, shown under the card, and `select` picks it, the bot answering with the
    mistake's board."""
    out: list[str] = []
    async with _session(local, tmp_path, out) as session:
        for line in ("/challenge @bob italian color:white", "as bob", "press Accept",
                     "as alice", "/move 21-18", "as bob", "/move 9-13", "as alice",
                     "/move 18x9", "as bob", "/resign", "press Resign"):
            assert await session.run_line(line), line
        assert await session.run_line("/analyze")
        # The analysis card replaces its progress message when the analysis is done.
        for _ in range(60):
            menus = [line for line in out if line.startswith("  <")]
            if menus:
                break
            await asyncio.sleep(2.0)
            await session.quiet()
        assert menus and "9-13??" in menus[-1], "\n".join(out)
        assert not await session.run_line("select 30-26")
        assert "! no message in #general has an option '30-26' to select" in out
        before = len(out)
        assert await session.run_line("select 9-13")
        await session.finish()
    shown = "\n".join(out[before:])
    # The bot heard the pick (a component interaction with the option's value, the ply)
    # and answered with that ply's board, for bob only.
    assert "answering @bob select menu 'Show a mistake on the board', only @bob sees " \
           "this" in shown, shown
    assert "1... 9-13 (blunder, @bob). Better: 10-13" in shown, shown
    assert "mistake.png" in shown, shown


async def test_in_my_game_goes_to_the_players_game_and_wait_finds_a_post(
    local: LocalDiscord, tmp_path: Path
) -> None:
    out: list[str] = []
    async with _session(local, tmp_path, out) as session:
        assert not await session.run_line("in my game")
        assert out[-1] == "! @alice has no game under way"
        # `or skip`: the lines up to the next `as`, `in` or `wait` are skipped, not failed.
        assert await session.run_line("in my game or skip")
        assert await session.run_line("/resign")
        assert out[-1] == "(skipped: @alice has no game under way)"
        assert session.failures == 1
        assert await session.run_line("in general")
        assert await session.run_line("/challenge @bob Italian color:white")
        assert await session.run_line("as bob")
        assert await session.run_line("press Accept")
        assert await session.run_line("as carol")
        assert await session.run_line("as bob")
        # The board of the accepted challenge arrived during an earlier command: `wait`
        # looks on from the previous wait's post (here: from the start), and finds it once.
        assert await session.run_line('wait "the game begins" 5s')
        assert not await session.run_line('wait "the game begins" 1s')
        assert out[-1] == "! no message of the bot said 'the game begins' within 1 s"
        assert await session.run_line("in games")
        assert await session.run_line("in my game")
        assert out[-1].startswith("(you are in #general, game #")
        assert session.channel == "general"
        # A second game of bob's, elsewhere: `in my game` cannot choose, and says where.
        assert await session.run_line("in games")
        assert await session.run_line("/challenge @carol dama")
        assert await session.run_line("as carol")
        assert await session.run_line("press Accept")
        assert await session.run_line("as bob")
        assert not await session.run_line("in My  Game")
        assert out[-1] == ("! @bob has 2 games under way, in #general, #games: write "
                           "`in CHANNEL` for one of them")
        await session.finish()


async def test_later_moves_the_bots_clock_and_close_dms_closes_them(
    local: LocalDiscord, tmp_path: Path
) -> None:
    out: list[str] = []
    async with _session(local, tmp_path, out) as session:
        assert await session.run_line("later 2d")
        assert out[-1] == ("(time passes: 2 d later; the clocks are 2 d ahead of the real "
                           "time)")
        # The bot process tells the time by the moved clock: a challenge made now expires
        # more than two days from the real now.
        real_now = datetime.now(UTC)
        assert await session.run_line("/challenge @bob italian")
        [expiry] = [found.group(1) for line in out
                    if (found := re.search(r"expires (\d{4}-\d\d-\d\d \d\d:\d\d) UTC", line))]
        expires = datetime.strptime(expiry, "%Y-%m-%d %H:%M").replace(tzinfo=UTC)
        assert expires > real_now + timedelta(days=2), (expiry, real_now)
        assert await session.run_line("close dms @bob")
        assert local.standin.user("bob").id in local.standin.world.closed_dms
        assert await session.run_line("open dms @bob")
        assert local.standin.user("bob").id not in local.standin.world.closed_dms
        await session.finish()


async def test_a_group_dm_is_the_same_whoever_of_its_people_names_it(
    local: LocalDiscord, tmp_path: Path
) -> None:
    out: list[str] = []
    async with _session(local, tmp_path, out) as session:
        assert await session.run_line("as carol in group:@bob,@carol")  # carol and bob
        pair = session.where
        assert await session.run_line("as alice in group:@bob,@carol")
        first = session.where
        assert first != pair
        assert await session.run_line("as carol in group:@alice,@bob,@carol")
        assert session.where == first
        assert await session.run_line("as bob in group:@carol,@alice")
        assert session.where == first
        await session.finish()


async def test_press_without_the_button_names_the_dm_and_its_buttons(
    local: LocalDiscord, tmp_path: Path
) -> None:
    out: list[str] = []
    async with _session(local, tmp_path, out) as session:
        assert await session.run_line("install")
        assert await session.run_line("in dm:@bob")
        assert not await session.run_line("press Accept")
        assert out[-1] == ("! no message in dm:@alice,@bob has a button 'Accept'; no "
                           "message there has buttons")
        assert await session.run_line("/challenge @bob italian")
        assert not await session.run_line("press Resign")
        assert out[-1] == ("! no message in dm:@alice,@bob has a button 'Resign'; the "
                           "buttons there: [Accept] [Decline] [Cancel]")
        await session.finish()


async def test_a_dm_is_named_the_same_whoever_of_its_people_is_in_it(
    local: LocalDiscord, tmp_path: Path
) -> None:
    out: list[str] = []
    async with _session(local, tmp_path, out) as session:
        assert await session.run_line("as bob in dm:@alice")  # bob opens it
        assert out[-1] == "(you are in dm:@alice,@bob)"
        dm = session.where
        assert await session.run_line("as alice in dm:@bob")
        assert (session.where, out[-1]) == (dm, "(you are in dm:@alice,@bob)")
        assert await session.run_line("as carol in group:@bob,@alice")
        assert out[-1] == "(you are in group:@alice,@bob,@carol)"
        assert session.prompt() == "carol in group:@alice,@bob,@carol > "
        await session.finish()


async def test_play_against_the_computer_in_the_bots_own_dm(
    local: LocalDiscord, tmp_path: Path
) -> None:
    out: list[str] = []
    async with _session(local, tmp_path, out) as session:
        assert await session.run_line("in dm:@dama-bot")
        assert out[-1] == "(you are in the DM of @alice with dama-bot)"
        assert session.where.id == (await local.standin.dm_channel("alice")).id
        assert await session.run_line("/play italian")
        await session.finish()
    headers = [line for line in out if line.startswith("--- [")]
    assert headers and all(" in the DM of @alice with dama-bot" in h for h in headers), out
    assert any("W/B kings" in line for line in out), out


async def test_a_dm_mentioned_by_the_bot_is_named_as_its_place(
    local: LocalDiscord, tmp_path: Path
) -> None:
    out: list[str] = []
    async with _session(local, tmp_path, out) as session:
        for line in ("install", "install @bob", "in dm:@bob",
                     "/challenge @bob italian color:white", "as bob press Accept",
                     "as alice in general /board"):
            assert await session.run_line(line), line
        await session.finish()
    assert any("yours (#1) is in dm:@alice,@bob." in line for line in out), out
