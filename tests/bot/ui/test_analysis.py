"""The analysis messages (`bot/ui/analysis.py`): the players' names, the
result's embed and select of mistakes in the reader's notation, the progress message's
Cancel, the components' `custom_id`s, and the progress messages of analyses a killed
process left under way, corrected after the restart (through discord.py against
`FakeDiscord`). The analysis is the engine's own, of the
Italian planted blunder the cog's tests use (tests/bot/cogs/test_analysis.py): Black's
g6-f5 (12-15) is a blunder, e6-d5 (11-14) the better move."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import discord
import pytest

from bot.messages import Msg, text
from bot.ui.analysis import (
    COMPONENTS,
    AnalysisAction,
    MistakeSelect,
    analysis_embed,
    correct_interrupted,
    player_names,
    progress_view,
    result_view,
)
from bot.ui.present import Perspective
from engine import Color, Game, Position, get_variant
from engine.analysis import GameAnalysis, analyse_here
from storage import AnalysisUnderWay, GameRecord, NewGame, Seat, Storage
from tests.support.discord_harness import Harness
from tests.support.services import ALICE, BOB, CHANNEL, GUILD

FEN = "B:We2,c4,Kd3:Bc6,g6,Ke6"
MOVES = ("g6-f5", "c4-d5", "e6xc4", "d3xb5xd7")


@pytest.fixture(scope="module")
def analysis() -> GameAnalysis:
    variant = get_variant("italian")
    game = Game(variant, Position.from_fen(FEN, variant))
    for move in MOVES:
        game.play(move)
    return analyse_here(variant, game.start, game.moves, nodes=20_000)


async def test_players_are_mentioned_and_the_computer_named_in_the_readers_language(
    tmp_path: Path,
) -> None:
    async with await Storage.open(tmp_path / "db.sqlite3") as storage:
        record: GameRecord = await storage.games.create(NewGame(
            "italian", 600, 500, Seat.human(1001), Seat.computer(3), FEN))
    white, black = player_names(record, "fr")
    assert white == "<@1001>"
    assert black == text(Msg.COMPUTER, "fr", level=3) != text(Msg.COMPUTER, "en-US", level=3)


def test_the_result_names_the_blunder_and_the_better_move(analysis: GameAnalysis) -> None:
    algebraic = analysis_embed(analysis, 7, ("<@1>", "<@2>"), 20_000, "en-US",
                               Perspective(numeric=False))
    description = algebraic.description or ""
    assert "g6-f5??" in description and "e6-d5" in description, description
    assert algebraic.image.url == "attachment://analysis.png"
    numbered = analysis_embed(analysis, 7, ("<@1>", "<@2>"), 20_000, "en-US",
                              Perspective(numeric=True))
    description = numbered.description or ""
    assert "12-15??" in description and "11-14" in description, description


def test_the_select_lists_the_judged_plies_in_the_askers_notation(
    analysis: GameAnalysis,
) -> None:
    view = result_view(7, analysis, "en-US", Perspective(numeric=False))
    assert view is not None
    [select] = view.children
    assert isinstance(select, MistakeSelect)
    assert select.custom_id == "dama:mistake:7"
    assert isinstance(select.item, discord.ui.Select)
    labels = [option.label for option in select.item.options]
    assert any("g6-f5??" in label for label in labels), labels
    assert [option.value for option in select.item.options] == [
        str(p.ply) for p in analysis.judged()[:25]]


def test_the_progress_message_carries_cancel_for_its_game() -> None:
    [cancel] = progress_view(7, "it").children
    assert isinstance(cancel, discord.ui.DynamicItem)
    assert cancel.custom_id == "dama:stopanalysis:7"
    assert isinstance(cancel.item, discord.ui.Button)
    assert cancel.item.label == text(Msg.BUTTON_CANCEL_ANALYSIS, "it")


@pytest.mark.parametrize("locale", ["en-US", "tr", "ar", "it", "fr"])
def test_the_analysis_cancel_is_labelled_apart_from_a_challenges(locale: str) -> None:
    # A challenge's Cancel withdraws it (Turkish "Geri çek" once served both); the
    # analysis's Cancel stops the analysis and says so.
    [cancel] = progress_view(7, locale).children
    assert isinstance(cancel, discord.ui.DynamicItem)
    assert isinstance(cancel.item, discord.ui.Button)
    assert cancel.item.label == text(Msg.BUTTON_CANCEL_ANALYSIS, locale)
    assert cancel.item.label != text(Msg.BUTTON_CANCEL, locale)


def test_every_analysis_action_has_its_component() -> None:
    prefixes = {item.__discord_ui_compiled_template__.pattern.split(":")[1]
                for item in COMPONENTS}
    assert prefixes == {action.value for action in AnalysisAction}


def _progress(h: Harness, channel: int, game_id: int) -> int:
    """A progress message of the bot's in `channel`, with game `game_id`'s Cancel."""
    message = h.discord.message(channel, {
        "content": f"Analysing game #{game_id} (Italian draughts): ply 3 of 9.",
        "components": [{"type": 1, "components": [{
            "type": 2, "style": 2, "label": "Cancel",
            "custom_id": f"dama:stopanalysis:{game_id}"}]}],
    }, [])
    return int(message["id"])


async def test_progress_messages_left_by_a_killed_process_are_told_it_stopped(
    harness: Harness,
) -> None:
    h = harness
    storage = h.bot.services.storage
    game = await storage.games.create(NewGame(
        "italian", CHANNEL, GUILD, Seat.human(ALICE), Seat.human(BOB), FEN))
    other = await storage.games.create(NewGame(
        "italian", CHANNEL + 1, GUILD, Seat.human(ALICE), Seat.human(BOB), FEN))
    gone_channel, failing_channel = CHANNEL + 2, CHANNEL + 3

    async def under_way(game_id: int, channel: int, locale: str,
                        message_id: int | None) -> AnalysisUnderWay:
        row = await storage.analyses.begin(game_id, requester_id=ALICE, guild_id=GUILD,
                                           channel_id=channel, locale=locale)
        if message_id is not None:
            await storage.analyses.shown(row.id, message_id)
        return replace(row, message_id=message_id)

    recorded = _progress(h, CHANNEL, game.id)
    unrecorded = _progress(h, CHANNEL + 1, other.id)
    h.discord.message(CHANNEL + 1, {"content": "a later message"}, [])
    h.discord.gone_channels.add(gone_channel)
    failing = _progress(h, failing_channel, game.id)
    h.discord.fail_paths.add(f"/channels/{failing_channel}/messages/{failing}")
    rows = [
        await under_way(game.id, CHANNEL, "fr", recorded),
        await under_way(other.id, CHANNEL + 1, "tr", None),  # killed before its id was kept
        await under_way(game.id, gone_channel, "it", 12345),  # its channel deleted
        await under_way(game.id, failing_channel, "ar", failing),  # Discord fails: kept
    ]
    edited = await correct_interrupted(h.bot, h.bot.services.analyses, rows)
    assert edited == 2
    for message_id, game_id, locale in ((recorded, game.id, "fr"),
                                        (unrecorded, other.id, "tr")):
        shown = h.discord.messages[message_id]
        assert shown["content"] == text(Msg.ANALYSIS_RESTARTED, locale, game_id=game_id)
        assert shown["components"] == []
    assert h.discord.messages[failing]["components"] != []
    assert await storage.analyses.under_way() == [rows[3]]


async def test_a_recorded_message_already_showing_a_final_state_is_left_as_it_is(
    harness: Harness,
) -> None:
    # The process was killed (or its storage failed) after the progress message became
    # the result card, or said it was cancelled, but before the analysis was recorded as
    # ended: the message no longer carries the Cancel, and saying that a restart stopped
    # the analysis would contradict it.
    h = harness
    storage = h.bot.services.storage
    game = await storage.games.create(NewGame(
        "italian", CHANNEL, GUILD, Seat.human(ALICE), Seat.human(BOB), FEN))
    card = h.discord.message(CHANNEL, {
        "content": "", "embeds": [{"title": f"Analysis of game #{game.id}"}],
        "components": [],
    }, [])
    cancelled = h.discord.message(CHANNEL, {
        "content": f"The analysis of game #{game.id} was cancelled.", "components": [],
    }, [])
    rows = []
    for message in (card, cancelled):
        row = await storage.analyses.begin(game.id, requester_id=ALICE, guild_id=GUILD,
                                           channel_id=CHANNEL, locale="en-US")
        await storage.analyses.shown(row.id, int(message["id"]))
        rows.append(replace(row, message_id=int(message["id"])))
    before = [dict(h.discord.messages[int(m["id"])]) for m in (card, cancelled)]

    edited = await correct_interrupted(h.bot, h.bot.services.analyses, rows)

    assert edited == 0
    assert [h.discord.messages[int(m["id"])] for m in (card, cancelled)] == before
    assert await storage.analyses.under_way() == []


async def test_a_recorded_message_in_a_channel_whose_history_is_unreadable_is_still_told(
    harness: Harness,
) -> None:
    # Without Read Message History the bot cannot look at the message, but may still
    # edit its own: it is told, as when nothing could be checked.
    h = harness
    storage = h.bot.services.storage
    game = await storage.games.create(NewGame(
        "italian", CHANNEL, GUILD, Seat.human(ALICE), Seat.human(BOB), FEN))
    recorded = _progress(h, CHANNEL, game.id)
    h.discord.unreadable_channels.add(CHANNEL)
    row = await storage.analyses.begin(game.id, requester_id=ALICE, guild_id=GUILD,
                                       channel_id=CHANNEL, locale="it")
    await storage.analyses.shown(row.id, recorded)

    edited = await correct_interrupted(h.bot, h.bot.services.analyses,
                                       [replace(row, message_id=recorded)])

    assert edited == 1
    shown = h.discord.messages[recorded]
    assert shown["content"] == text(Msg.ANALYSIS_RESTARTED, "it", game_id=game.id)
    assert shown["components"] == []
    assert await storage.analyses.under_way() == []


@pytest.mark.parametrize(("locale", "percent_of", "thirty_thousand"), [
    ("en-US", "{}%", "30,000"),
    ("tr", "%{}", "30.000"),
    ("it", "{}%", "30.000"),
    ("fr", "{}\u00a0%", "30\u202f000"),
    ("ar", "{}%", "30,000"),
])
def test_accuracy_and_the_search_size_are_written_as_the_readers_language_writes_numbers(
    analysis: GameAnalysis, locale: str, percent_of: str, thirty_thousand: str,
) -> None:
    embed = analysis_embed(analysis, 7, ("<@1>", "<@2>"), 30_000, locale)
    description = embed.description or ""
    accuracies = [analysis.summary(color).accuracy for color in (Color.WHITE, Color.BLACK)]
    assert any(a is not None for a in accuracies)
    for accuracy in accuracies:
        if accuracy is not None:
            assert percent_of.format(round(accuracy)) in description, description
    assert thirty_thousand in (embed.footer.text or "")
    # Latin digits in every language, Arabic included.
    assert not any("\u0660" <= char <= "\u0669" for char in description + (embed.footer.text or ""))

