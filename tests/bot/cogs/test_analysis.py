"""/analyze and its components through discord.py (`bot/cogs/analysis.py`), requests
captured by `FakeDiscord`, the computer's real worker processes reviewing the positions.

The game is the Italian planted blunder of tests/engine/test_analysis.py: Black's g6-f5
(12-15) lets White's ladder shot take a king and a man; the better move is e6-d5
(11-14)."""

from __future__ import annotations

import copy
from typing import Any

from bot.messages import ENGLISH, Msg, text
from engine import Color, Game, Position, get_variant
from storage import GameResult, NewGame, Seat
from tests.support.discord_harness import (
    PNG,
    Harness,
    press_button,
    response_message_id,
    run,
    slash,
)
from tests.support.fake_discord import option
from tests.support.services import ALICE, BOB, CAROL, CHANNEL, GUILD

FEN = "B:We2,c4,Kd3:Bc6,g6,Ke6"
MOVES = ("g6-f5", "c4-d5", "e6xc4", "d3xb5xd7")


async def _finished_game(h: Harness, channel: int = CHANNEL) -> int:
    variant = get_variant("italian")
    game = Game(variant, Position.from_fen(FEN, variant))
    for move in MOVES:
        game.play(move)
    storage = h.bot.services.storage
    record = await storage.games.create(NewGame(
        "italian", channel, GUILD, Seat.human(ALICE), Seat.human(BOB), FEN))
    for ply, move in enumerate(MOVES[:-1], start=1):
        await storage.games.append_move(record.id, ply=ply, text=move)
    await storage.games.append_final_move(record.id, ply=len(MOVES), text=MOVES[-1],
                                          result=GameResult.WHITE_WINS,
                                          termination="resignation")
    return record.id


def _select(h: Harness, message: dict[str, Any], game_id: int, ply: int,
            user: int) -> dict[str, Any]:
    return h.discord.interaction(
        3, {"custom_id": f"dama:mistake:{game_id}", "component_type": 3,
            "values": [str(ply)]},
        user_id=user, channel_id=CHANNEL, message=message)


async def test_analyze_shows_progress_then_the_graph_and_the_blunder(harness: Harness) -> None:
    h = harness
    game_id = await _finished_game(h)
    calls = await run(h, slash(h, "analyze", []))
    first = calls[0]
    assert first.callback_type == 4 and not first.ephemeral
    assert f"game #{game_id}" in first.content and "ply 0 of 4" in first.content
    assert first.custom_ids == [f"dama:stopanalysis:{game_id}"]
    final = calls[-1]
    assert final.method == "PATCH" and final.path.endswith("/messages/@original")
    [embed] = final.embeds
    assert embed["title"] == f"Analysis of game #{game_id} (Italian draughts)"
    description = embed["description"]
    assert "(Black): accuracy" in description and "blunders: 1" in description, description
    # Italian moves shown in the federation's numbers (docs/RULES.md: g6 = 12, f5 = 15,
    # e6 = 11, d5 = 14).
    assert "12-15??" in description and "better 11-14" in description
    name, data = final.files[0]
    assert name == "analysis.png" and data.startswith(PNG)
    assert final.custom_ids == [f"dama:mistake:{game_id}"]
    # Stored: asked again, it is shown at once, with no progress message.
    [again] = await run(h, slash(h, "analyze", [option("game", game_id, 4)]))
    assert again.callback_type == 4 and again.embeds[0]["description"] == description
    assert again.files[0][1].startswith(PNG)
    # The blunder as a board, for the one who picks it.
    message = h.discord.messages[max(h.discord.messages)]
    [board] = await run(h, _select(h, message, game_id, 1, user=CAROL))
    assert board.ephemeral and board.files[0][1].startswith(PNG)
    assert "12-15" in board.content and "**11-14**" in board.content
    # Its result shown, it is no longer under way.
    assert await h.bot.services.storage.analyses.under_way() == []


async def test_analyze_refuses_what_it_cannot_analyse(harness: Harness) -> None:
    h = harness
    [none] = await run(h, slash(h, "analyze", []))
    assert none.ephemeral and none.content == ENGLISH[Msg.NO_GAME_TO_ANALYZE]
    [unknown] = await run(h, slash(h, "analyze", [option("game", 999, 4)]))
    assert unknown.ephemeral and "999" in unknown.content
    # Another server's game is refused as if it did not exist.
    game_id = await _finished_game(h, channel=CHANNEL)
    [hidden] = await run(h, slash(h, "analyze", [option("game", game_id, 4)], user=CAROL,
                                  guild_id=777, channel=778))
    assert hidden.ephemeral and hidden.embeds == [] and f"#{game_id}" in hidden.content


async def test_finished_board_has_an_analyze_button(harness: Harness) -> None:
    from tests.support.discord_harness import challenge_and_accept, play_plies, resign

    h = harness
    await challenge_and_accept(h, rated=False)
    game_id = h.bot.services.games.current(CHANNEL).game_id
    await play_plies(h, 1)
    calls = await resign(h, user=BOB)
    boards = [c for c in calls if f"dama:analyze:{game_id}" in c.custom_ids]
    assert boards, [c.custom_ids for c in calls]
    message = h.discord.messages[max(h.discord.messages)]
    for m in h.discord.messages.values():
        if any(f"dama:analyze:{game_id}" in str(c) for c in m.get("components") or []):
            message = m
    calls = await run(h, press_button(h, int(message["id"]), "analyze", user=CAROL))
    assert calls[0].callback_type == 4 and "ply 0 of 1" in calls[0].content
    assert calls[-1].embeds and calls[-1].files[0][0] == "analysis.png"


async def test_cancel_stops_the_analysis(harness: Harness) -> None:
    import asyncio

    h = harness
    h.bot.services.analyses.nodes = 10**9  # long enough to be cancelled while it runs
    game_id = await _finished_game(h)
    payload = slash(h, "analyze", [])
    h.bot._connection.parse_interaction_create(payload)  # type: ignore[arg-type]
    for _ in range(200):
        if h.bot.services.analyses.is_running(game_id) and any(
                f"dama:stopanalysis:{game_id}" in str(m.get("components"))
                for m in h.discord.messages.values()):
            break
        await asyncio.sleep(0.05)
    message = next(m for m in h.discord.messages.values()
                   if f"dama:stopanalysis:{game_id}" in str(m.get("components")))
    # Under way, with where its progress shows, for a restart to correct after a kill.
    for _ in range(200):
        under_way = await h.bot.services.storage.analyses.under_way()
        if under_way and under_way[0].message_id is not None:
            break
        await asyncio.sleep(0.05)
    [stored] = under_way
    assert (stored.game_id, stored.requester_id, stored.guild_id, stored.channel_id,
            stored.message_id, stored.locale) == (
        game_id, ALICE, GUILD, CHANNEL, int(message["id"]), "en")
    # Only the one who asked may cancel (the analysis goes on: no waiting for the bot
    # to be idle here).
    since = len(h.discord.calls)
    refusal = press_button(h, int(message["id"]), "stopanalysis", user=CAROL)
    h.bot._connection.parse_interaction_create(refusal)  # type: ignore[arg-type]
    for _ in range(200):
        refusals = [c for c in h.discord.calls[since:] if c.callback_type is not None]
        if refusals:
            break
        await asyncio.sleep(0.05)
    [refused] = refusals
    assert refused.ephemeral and f"<@{ALICE}>" in refused.content
    assert h.bot.services.analyses.is_running(game_id)
    calls = await run(h, press_button(h, int(message["id"]), "stopanalysis", user=ALICE))
    assert any("was cancelled" in c.content for c in calls)
    assert not h.bot.services.analyses.is_running(game_id)
    assert await h.bot.services.storage.analyses.get(game_id) is None
    assert await h.bot.services.storage.analyses.under_way() == []


async def test_export_includes_the_analysis_as_comments(harness: Harness) -> None:
    h = harness
    game_id = await _finished_game(h)
    [plain] = await run(h, slash(h, "export", [option("game", game_id, 4),
                                               option("analysis", True, 5)]))
    assert b"{" not in plain.files[0][1]  # not analysed yet: nothing to add, and it says so
    assert "has no analysis yet" in plain.content, plain.content
    await run(h, slash(h, "analyze", [option("game", game_id, 4)]))
    [export] = await run(h, slash(h, "export", [option("game", game_id, 4),
                                                option("analysis", True, 5)]))
    data = export.files[0][1].decode()
    # Italian records are written in numbers, the analysis too: e6-d5 is 11-14.
    assert "{[%eval" in data and "blunder; better 11-14" in data
    assert "no analysis" not in export.content
    [without] = await run(h, slash(h, "export", [option("game", game_id, 4)]))
    assert "no analysis" not in without.content  # not asked for: nothing to say
    assert b"%eval" not in without.files[0][1]


async def test_a_ply_not_in_the_analysis_is_answered_plainly(harness: Harness) -> None:
    h = harness
    game_id = await _finished_game(h)
    await run(h, slash(h, "analyze", [option("game", game_id, 4)]))
    message = h.discord.messages[max(h.discord.messages)]
    [answer] = await run(h, _select(h, message, game_id, 2, user=ALICE))  # ply 2 was good
    assert answer.ephemeral and "not in its stored analysis" in answer.content


def _option_labels(call: Any) -> list[str]:
    """The labels of the select of mistakes in a message the bot sent."""
    return [o["label"] for row in call.body["components"] for item in row["components"]
            for o in item.get("options", [])]


async def test_the_analysis_is_written_in_the_readers_notation(harness: Harness) -> None:
    # Bob reads Italian in algebraic (/settings notation:algebraic); Alice keeps the
    # default, the federation's numbers (docs/RULES.md: g6 = 12, f5 = 15, e6 = 11,
    # d5 = 14). The card, the select and the mistake's board are written for whoever asks;
    # the PDN export stays in numbers, as Italian records (GameType 22) are.
    from renderer import render_png

    h = harness
    game_id = await _finished_game(h)
    await run(h, slash(h, "settings", [option("notation", "algebraic")], user=BOB))
    calls = await run(h, slash(h, "analyze", [], user=BOB))
    description = calls[-1].embeds[0]["description"]
    assert "g6-f5??" in description and "better e6-d5" in description, description
    assert "12-15" not in description and "11-14" not in description
    assert _option_labels(calls[-1]) == ["1... g6-f5??"]
    # Stored: Alice is shown the same analysis at once, in numbers.
    [again] = await run(h, slash(h, "analyze", [option("game", game_id, 4)], user=ALICE))
    description = again.embeds[0]["description"]
    assert "12-15??" in description and "better 11-14" in description, description
    assert _option_labels(again) == ["1... 12-15??"]

    # The blunder as a board: Bob (Black) sees it from Black's side, unnumbered; Alice
    # from White's, numbered.
    variant = get_variant("italian")
    game = Game(variant, Position.from_fen(FEN, variant))
    for move in MOVES:
        game.play(move)
    positions = game.positions()

    def picture(side: Any, numbers: bool) -> bytes:
        return render_png(positions[1], variant, last_move=game.moves[0], before=positions[0],
                          perspective=side, numbers=numbers)

    message = h.discord.messages[max(h.discord.messages)]
    [bobs] = await run(h, _select(h, message, game_id, 1, user=BOB))
    assert "g6-f5" in bobs.content and "**e6-d5**" in bobs.content, bobs.content
    assert bobs.files[0][1] == picture(Color.BLACK, False)
    [alices] = await run(h, _select(h, message, game_id, 1, user=ALICE))
    assert "12-15" in alices.content and "**11-14**" in alices.content, alices.content
    assert alices.files[0][1] == picture(Color.WHITE, True)

    [export] = await run(h, slash(h, "export", [option("game", game_id, 4),
                                                option("analysis", True, 5)], user=BOB))
    data = export.files[0][1].decode()
    assert "blunder; better 11-14" in data and "12-15" in data and "g6-f5" not in data


async def test_the_computer_is_named_in_the_readers_language(harness: Harness) -> None:
    h = harness
    variant = get_variant("italian")
    game = Game(variant, Position.from_fen(FEN, variant))
    for move in MOVES:
        game.play(move)
    storage = h.bot.services.storage
    record = await storage.games.create(NewGame(
        "italian", CHANNEL, GUILD, Seat.computer(2), Seat.human(BOB), FEN))
    for ply, move in enumerate(MOVES[:-1], start=1):
        await storage.games.append_move(record.id, ply=ply, text=move)
    await storage.games.append_final_move(record.id, ply=len(MOVES), text=MOVES[-1],
                                          result=GameResult.WHITE_WINS,
                                          termination="resignation")
    calls = await run(h, slash(h, "analyze", [option("game", record.id, 4)], locale="fr"))
    [embed] = calls[-1].embeds
    assert "Ordinateur (niveau 2)" in embed["description"], embed["description"]
    assert "Computer level" not in embed["description"]


async def test_cancel_on_a_progress_message_of_an_analysis_that_no_longer_runs(
    harness: Harness,
) -> None:
    # After a restart the progress message stays, with its Cancel button; nothing runs.
    # A press says so (and how to start it again) instead of claiming a cancellation.
    h = harness
    game_id = await _finished_game(h)
    message = {"id": "424242", "channel_id": str(CHANNEL), "type": 0,
               "content": f"Analysing game #{game_id} (Italian draughts): ply 2 of 4.",
               "author": {"id": str(h.bot.application_id), "username": "dama",
                          "discriminator": "0"},
               "attachments": [], "embeds": [], "mentions": [], "mention_roles": [],
               "pinned": False, "mention_everyone": False, "tts": False,
               "timestamp": "2026-12-01T00:00:00+00:00", "edited_timestamp": None, "flags": 0,
               "components": [{"type": 1, "components": [
                   {"type": 2, "style": 2, "label": "Cancel",
                    "custom_id": f"dama:stopanalysis:{game_id}"}]}]}
    h.discord.messages[424242] = message
    calls = await run(h, press_button(h, 424242, "stopanalysis", user=ALICE))
    texts = " ".join(c.content for c in calls)
    assert "was cancelled" not in texts, texts
    # The progress message now says the analysis stopped, without its Cancel button...
    [update] = [c for c in calls if c.callback_type == 7]
    assert update.content == text(Msg.ANALYSIS_STOPPED, "en-US", game_id=game_id)
    assert update.custom_ids == []
    # ...and the presser alone is told that nothing runs and how to start it again.
    public = [c for c in calls if c.callback_type != 7 and not c.ephemeral]
    assert public == [], public
    [private] = [c for c in calls if c.ephemeral]
    assert private.content == text(Msg.ANALYSIS_NOT_RUNNING, "en-US", game_id=game_id)


async def test_export_says_when_the_analysis_asked_for_is_not_there(harness: Harness) -> None:
    # /export analysis:True of a game never analysed: the file has no comments, and the
    # answer says why and what to run, instead of leaving the reader to find out.
    h = harness
    game_id = await _finished_game(h)
    [plain] = await run(h, slash(h, "export", [option("game", game_id, 4),
                                               option("analysis", True, 5)]))
    assert b"%eval" not in plain.files[0][1]
    assert f"/analyze game:{game_id}" in plain.content, plain.content
    [unasked] = await run(h, slash(h, "export", [option("game", game_id, 4)]))
    assert "/analyze" not in unasked.content
    await run(h, slash(h, "analyze", [option("game", game_id, 4)]))
    [export] = await run(h, slash(h, "export", [option("game", game_id, 4),
                                                option("analysis", True, 5)]))
    assert b"%eval" in export.files[0][1] and "/analyze" not in export.content


async def test_an_analysis_stopped_by_a_shutdown_says_so_without_its_cancel_button(
    harness: Harness,
) -> None:
    import asyncio

    h = harness
    h.bot.services.analyses.nodes = 10**9  # still running when the bot stops
    game_id = await _finished_game(h)
    h.bot._connection.parse_interaction_create(slash(h, "analyze", []))  # type: ignore[arg-type]
    for _ in range(200):
        if h.bot.services.analyses.is_running(game_id) and any(
                f"dama:stopanalysis:{game_id}" in str(m.get("components"))
                for m in h.discord.messages.values()):
            break
        await asyncio.sleep(0.05)
    [progress] = [m for m in h.discord.messages.values()
                  if f"dama:stopanalysis:{game_id}" in str(m.get("components"))]
    await h.bot.services.analyses.close()
    await h.settle()
    shown = h.discord.messages[int(progress["id"])]
    assert shown["content"] == text(Msg.ANALYSIS_STOPPED, "en-US", game_id=game_id)
    assert shown["components"] == []
    # Its message shows a final state: nothing is left for the next start to correct.
    assert await h.bot.services.storage.analyses.under_way() == []


async def test_a_cancel_pressed_on_a_message_that_is_no_progress_leaves_it(
    harness: Harness,
) -> None:
    # An analysis's progress is plain text; a Cancel custom_id forged onto a message with
    # a picture or an embed (a challenge, an answer) must not rewrite it.
    from tests.support.discord_harness import challenge_elsewhere, forged_press

    h = harness
    game_id = await _finished_game(h)
    _, challenge = await challenge_elsewhere(h)
    [helped] = await run(h, slash(h, "help", user=CAROL))
    for message, guild_id in ((challenge, 777), (response_message_id(h, helped), GUILD)):
        before = copy.deepcopy(h.discord.messages[message])
        calls = await run(h, forged_press(h, message, f"dama:stopanalysis:{game_id}", user=ALICE,
                                     guild_id=guild_id))
        assert h.discord.messages[message] == before
        [private] = calls
        assert private.ephemeral
        assert private.content == text(Msg.ANALYSIS_NOT_RUNNING, "en-US", game_id=game_id)
