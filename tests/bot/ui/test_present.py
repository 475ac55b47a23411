"""Texts of the board and of game ends (`bot/ui/present.py`): result lines, durations, the
move clock's deadline."""

from __future__ import annotations

from datetime import timedelta

import pytest

import engine
from bot.services import BoardState, Ending, EndReason, SeatView
from bot.ui.present import Presenter, duration_text
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
