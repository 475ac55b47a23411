"""The `/games` embed (`bot/ui/games_list.py`): a true "and N more" line, within Discord's
embed limit, places named or not, boards linked."""

from __future__ import annotations

from datetime import UTC, datetime

from bot.messages import Msg, text
from bot.services.under_way import GamesUnderWay, GameUnderWay
from bot.ui.games_list import MAX_DESCRIPTION, board_link, games_embed, place_text
from engine import Color
from storage import Seat

LONG_NAME = "A" * 100


def _game(number: int, guild: int | None = 10, board: int | None = None) -> GameUnderWay:
    return GameUnderWay(
        game_id=number, variant="turkish", guild_id=guild, channel_id=20 + number,
        board_message_id=board, color=Color.WHITE, opponent=Seat.computer(3),
        turn=Color.WHITE, deadline=datetime(2026, 12, 7, tzinfo=UTC))


def test_the_games_left_out_are_counted() -> None:
    embed = games_embed(GamesUnderWay((_game(1), _game(2)), more=3), {}, None)
    assert embed.description is not None
    assert embed.description.endswith(text(Msg.GAMES_MORE, None, count=3))
    assert embed.description.count("[#") == 2


def test_lines_that_would_not_fit_are_counted_with_the_others() -> None:
    games = tuple(_game(i) for i in range(1, 41))
    embed = games_embed(GamesUnderWay(games, more=2), {10: LONG_NAME}, None)
    description = embed.description
    assert description is not None and len(description) <= MAX_DESCRIPTION
    shown = description.count("[#")
    assert 0 < shown < 40
    assert description.endswith(text(Msg.GAMES_MORE, None, count=40 - shown + 2))


def test_places_and_links() -> None:
    assert place_text(_game(1, guild=None), {}, None) == text(Msg.GAMES_IN_DIRECT_MESSAGES)
    assert place_text(_game(1), {}, None) == text(Msg.GAMES_IN_A_SERVER)
    assert place_text(_game(1), {10: "**Club** @everyone"}, None) == (
        "in \\*\\*Club\\*\\* @\u200beveryone")
    assert board_link(_game(1, board=99)) == "https://discord.com/channels/10/21/99"
    assert board_link(_game(2, guild=None)) == "https://discord.com/channels/@me/22"


def test_no_game_under_way_says_so() -> None:
    embed = games_embed(GamesUnderWay((), more=0), {}, None)
    assert embed.description == text(Msg.GAMES_NONE, None)
