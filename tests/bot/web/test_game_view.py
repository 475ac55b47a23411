"""A game's page as one value in one language (bot/web/game_view.py), for games played
through the services on a real SQLite file: the time control, the moves in the game's
notation, how a game ended, the computer's seat, a casual game."""

from __future__ import annotations

from bot.language import Language
from bot.services.replay import replay_game
from bot.web.game_view import GameView, game_view
from bot.web.pages.game import load_inputs
from storage import Seat, TimeControl
from tests.support.services import ALICE, BOB, CHANNEL, OpenServices, Services, start_game
from tests.support.web import web_server


async def _view(s: Services, game_id: int, language: Language = Language.ENGLISH) -> GameView:
    record = await s.storage.games.get(game_id)
    assert record is not None
    async with web_server(s) as face:
        inputs = await load_inputs(face.context, record)
    return game_view(inputs, replay_game(inputs.record, inputs.moves), language)


async def test_an_italian_game_with_clocks_is_written_in_the_federations_numbers(
        open_services: OpenServices) -> None:
    s = await open_services()
    record = await start_game(s, "italian", time_control=TimeControl(300, 3))
    await s.games.play(CHANNEL, ALICE, "b3-c4")
    await s.games.play(CHANNEL, BOB, "c6-d5")
    view = await _view(s, record.id)
    assert view.time_control == "clocks of 5+3 (minutes + seconds a move)"
    assert [move.text for move in view.moves] == ["1. 21-18", "1... 10-14"]


async def test_a_time_per_move_is_written_in_the_pages_language(
        open_services: OpenServices) -> None:
    s = await open_services()
    record = await start_game(s, "turkish", move_seconds=600)
    assert (await _view(s, record.id)).time_control == "10 minutes per move"
    french = (await _view(s, record.id, Language.FRENCH)).time_control
    assert french is not None and french.startswith("10 minutes")  # Babel's words, CLDR


async def test_a_draw_by_agreement_and_an_aborted_game_say_how_they_ended(
        open_services: OpenServices) -> None:
    s = await open_services()
    drawn = await start_game(s, "turkish")
    await s.games.play(CHANNEL, ALICE, "a3-a4")
    await s.games.draw(CHANNEL, BOB)
    await s.games.draw(CHANNEL, ALICE)
    aborted = await start_game(s, "turkish", channel=CHANNEL + 1)
    await s.games.abort(CHANNEL + 1, ALICE)
    # rated, but too early for its result to count (docs/RULES.md, "Early results")
    assert (await _view(s, drawn.id)).result == (
        "Draw (½-½): by agreement. Not rated: the game ended before each side had made two "
        "moves of its own, so no rating changes.")
    # its kind says what counted, as its result does
    assert (await _view(s, drawn.id)).kind == "casual"
    view = await _view(s, aborted.id)
    assert (view.result, view.over, view.moves) == ("No result: aborted.", True, ())


async def test_a_casual_game_against_the_computer_names_its_level_and_no_rating(
        open_services: OpenServices) -> None:
    s = await open_services()
    record = await start_game(s, "turkish", black=Seat.computer(3), rated=False)
    view = await _view(s, record.id)
    # no move time: the inactivity limit ends it (docs/RULES.md: 3 days by default)
    assert (view.kind, view.time_control) == (
        "casual", "no move time; 3 days without a move loses on time")
    assert [(side.name, side.rating) for side in view.sides] == [
        ("1001", None), ("Computer (level 3)", None)]
    assert view.start_alt == "Turkish draughts board, the start position: White to move."
