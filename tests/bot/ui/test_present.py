"""Texts of the board and of game ends (`bot/ui/present.py`): result lines, durations, the
move clock's deadline."""

from __future__ import annotations

import dataclasses
from datetime import UTC, datetime, timedelta

import pytest

import engine
from bot.messages import LRI, PDI, Msg
from bot.messages.durations import duration_text
from bot.services import (
    BoardState,
    Ending,
    EndReason,
    GameUpdate,
    PlayerError,
    SeatView,
    UpdateKind,
)
from bot.services.errors import Quoted
from bot.ui.present import (
    WHITE_VIEW,
    Permission,
    Perspective,
    Presenter,
    clock_text,
    shown_move,
)
from storage import GameResult, GameStatus, Seat
from tests.support.clock import FakeClock
from tests.support.services import CHANNEL, OpenServices, start_game


def _state(reason: EndReason, winner: engine.Color | None, result: GameResult | None,
           by_user: int | None = None) -> BoardState:
    variant = engine.get_variant("turkish")
    return BoardState(
        game_id=7, channel_id=1, guild_id=2, variant=variant, rated=False, move_seconds=None,
        status=GameStatus.FINISHED if result else GameStatus.ABORTED,
        position=engine.Position.start(variant), before=None, last_move=None,
        last_move_text=None, ply=0,
        white=SeatView(Seat.human(11), engine.Color.WHITE, None),
        black=SeatView(Seat.human(22), engine.Color.BLACK, None),
        draw_offer_by=None, deadline=None, ending=Ending(reason, winner, result, by_user),
        board_message_id=None,
    )


@pytest.mark.parametrize(("reason", "winner", "expected"), [
    (EndReason.NO_PIECES, engine.Color.WHITE, "<@11> wins (1-0). <@22> has no pieces left."),
    (EndReason.NO_LEGAL_MOVE, engine.Color.BLACK, "<@22> wins (0-1). <@11> has no legal move."),
    (EndReason.REPETITION, None, "Draw (½-½). The same position occurred three times."),
    (EndReason.ONE_PIECE_EACH, None, "Draw (½-½). Each side has one piece left."),
    (EndReason.MOVE_LIMIT, None, "Draw (½-½). The move limit"),
    (EndReason.RESIGNATION, engine.Color.WHITE, "<@11> wins (1-0). <@22> resigned."),
    (EndReason.AGREEMENT, None, "Draw (½-½). The players agreed to a draw."),
    (EndReason.TIME_FORFEIT, engine.Color.BLACK, "<@22> wins (0-1). <@11> ran out of time."),
    (EndReason.INACTIVITY, engine.Color.WHITE, "<@22> did not move for 3 days"),
])
def test_every_ending_has_a_result_line(reason: EndReason, winner: engine.Color | None,
                                        expected: str) -> None:
    result = {engine.Color.WHITE: GameResult.WHITE_WINS,
              engine.Color.BLACK: GameResult.BLACK_WINS, None: GameResult.DRAW}[winner]
    line = Presenter().result_text(_state(reason, winner, result), None)
    assert expected in line


def test_the_board_title_says_rated_only_when_the_result_counts_for_ratings() -> None:
    # A rated game that ended before each side made two moves, or was aborted, changed
    # no rating (docs/RULES.md, "Early results"): its title must not say "rated".
    draw = _state(EndReason.AGREEMENT, None, GameResult.DRAW)
    counted = dataclasses.replace(draw, rated=True)
    early = dataclasses.replace(counted, ending=Ending(EndReason.AGREEMENT, None,
                                                       GameResult.DRAW, unrated_early=True))
    aborted = dataclasses.replace(_state(EndReason.ABORTED, None, None, by_user=11),
                                  rated=True)
    presenter = Presenter()
    titles = [presenter.board_embed(state, None).title
              for state in (draw, counted, early, aborted)]
    assert titles == ["Turkish draughts · game #7 · casual",
                      "Turkish draughts · game #7 · rated",
                      "Turkish draughts · game #7 · not rated",
                      "Turkish draughts · game #7 · not rated"]


def test_the_board_says_what_its_deadline_costs() -> None:
    # With a time per move, the computer plays for the absent player when it runs out;
    # without one (and without clocks) the deadline is the inactivity limit, which loses
    # the game (docs/RULES.md, "Project-wide game rules").
    deadline = datetime(2026, 12, 9, 5, 0, tzinfo=UTC)
    playing = dataclasses.replace(_state(EndReason.AGREEMENT, None, None), ending=None,
                                  status=GameStatus.ACTIVE, deadline=deadline)
    when = f"<t:{int(deadline.timestamp())}:R>"
    untimed = Presenter().board_embed(playing, None).description or ""
    assert f"Without a move {when}, <@11> loses on time." in untimed
    assert "time for this move" not in untimed
    per_move = Presenter().board_embed(dataclasses.replace(playing, move_seconds=300),
                                       None).description or ""
    assert f"<@11>'s time for this move runs out {when}." in per_move
    assert "loses on time" not in per_move


def test_a_text_board_names_the_missing_permissions_in_the_readers_language() -> None:
    # Named as Discord's channel settings show them in each language; in Arabic also by
    # the English name an Arabic reader's (English) Discord client shows.
    update = GameUpdate(UpdateKind.MOVED, _state(EndReason.AGREEMENT, None, GameResult.DRAW))
    presenter = Presenter()
    both = (Permission.ATTACH_FILES, Permission.EMBED_LINKS)
    one = presenter.text_board(update, "tr", WHITE_VIEW, both[:1])
    assert "Dosya Ekle" in one and "Attach Files" not in one
    two = presenter.text_board(update, "it", WHITE_VIEW, both)
    assert "Allega file" in two and "Incorpora link" in two and "Attach Files" not in two
    arabic = presenter.text_board(update, "ar", WHITE_VIEW, both)
    assert f"إرفاق الملفات ({LRI}Attach Files{PDI})" in arabic
    assert f"تضمين الروابط ({LRI}Embed Links{PDI})" in arabic
    english = presenter.text_board(update, None, WHITE_VIEW, both)
    assert "denies me the Attach Files and Embed Links permissions" in english


def test_aborted_line_and_durations() -> None:
    line = Presenter().result_text(_state(EndReason.ABORTED, None, None, by_user=33), None)
    assert line.startswith("Game aborted") and "<@33>" in line
    assert duration_text(timedelta(minutes=10)) == "10 minutes"
    assert duration_text(timedelta(seconds=40)) == "40 seconds"
    assert duration_text(timedelta(days=1)) == "1 day"


async def test_board_shows_the_time_left(open_services: OpenServices) -> None:
    """The embed carries the deadline as a Discord relative timestamp."""
    clock = FakeClock()
    s = await open_services(clock=clock)
    await start_game(s, "turkish", move_seconds=300)
    state = s.games.current(CHANNEL)
    embed = Presenter().board_embed(state, None)
    unix = int((clock() + timedelta(seconds=300)).timestamp())
    assert embed.description is not None and f"<t:{unix}:R>" in embed.description


def test_italian_moves_are_shown_in_numbers_unless_the_reader_prefers_squares() -> None:
    italian = engine.get_variant("italian")
    assert shown_move("d3-c4", italian, Perspective()) == "22-18"
    assert shown_move("d3-c4", italian, Perspective(numeric=False)) == "d3-c4"
    # Other variants have no numbers, whatever the reader prefers.
    assert shown_move("d3-d4", engine.get_variant("turkish"), Perspective()) == "d3-d4"


def test_a_clocks_time_reads_as_a_clock_shows_it() -> None:
    assert clock_text(timedelta(minutes=4, seconds=5, milliseconds=999)) == "4:05"
    assert clock_text(timedelta(hours=1, minutes=2, seconds=3)) == "1:02:03"
    assert clock_text(timedelta(seconds=7)) == "0:07"
    assert clock_text(timedelta(seconds=-3)) == "0:00"


@pytest.mark.parametrize(("typed", "shown"), [
    ("**a3**", r"\*\*a3\*\*"),
    ("a3_a4", r"a3\_a4"),
    ("@everyone", "@\u200beveryone"),
])
def test_a_players_words_are_shown_back_literally(typed: str, shown: str) -> None:
    """A refusal quotes the move as typed, in bold: its markup must not end the bold or
    format the rest, and a mention in it must not read as one."""
    error = PlayerError(Msg.MOVE_NOT_A_MOVE, text=Quoted(typed), example_move="c3-c4",
                        example_capture="c3xc5")
    message = Presenter().error_text(error, "en")
    assert f"**{shown}**" in message
