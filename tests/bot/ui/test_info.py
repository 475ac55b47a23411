"""Counts in the information embeds read as English does: `1 rated game`, `2 rated games`."""

from __future__ import annotations

from bot.messages import Msg
from bot.ui.info import count_text, ratings_embed
from storage import Rating


def _rating(games: int) -> Rating:
    return Rating(1001, "italian", 1562.0, 80.0, 0.06, games, games, 0, 0, None)


def test_a_single_rated_game_is_singular() -> None:
    embed = ratings_embed(1001, [_rating(1)], None, "en-US")
    assert embed.description is not None
    assert "1 rated game:" in embed.description
    assert "rated games" not in embed.description


def test_several_rated_games_are_plural() -> None:
    embed = ratings_embed(1001, [_rating(12)], "italian", None)
    assert embed.description is not None and "12 rated games:" in embed.description


def test_leaderboard_game_counts() -> None:
    assert count_text(1, Msg.GAMES_ONE, Msg.GAMES_MANY, None) == "1 game"
    assert count_text(0, Msg.GAMES_ONE, Msg.GAMES_MANY, None) == "0 games"
    assert count_text(3, Msg.GAMES_ONE, Msg.GAMES_MANY, "en-GB") == "3 games"
