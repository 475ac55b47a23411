"""The information embeds (`bot/ui/info.py`): counts read as English does (`1 rated game`,
`2 rated games`), the leaderboard's footer, and the end reasons' texts (one table)."""

from __future__ import annotations

import pytest

from bot.messages import ENGLISH, Msg, variant_name
from bot.services import EndReason
from bot.services.game_words import END_REASONS
from bot.services.stats import Leaderboard, Needs
from bot.ui.info import (
    count_text,
    leaderboard_embed,
    needs_text,
    ratings_embed,
    reason_text,
    rules_embed,
)
from engine import VARIANTS
from storage import Eligibility, Rating


def _rating(games: int) -> Rating:
    return Rating(1001, "italian", 1562.0, 80.0, 0.06, games, games, 0, 0, None)


def test_a_single_rated_game_is_singular() -> None:
    embed = ratings_embed(1001, [_rating(1)], None, "en-US")
    assert embed.description is not None
    assert "· 1 rated game ·" in embed.description
    assert "rated games" not in embed.description


def test_several_rated_games_are_plural() -> None:
    embed = ratings_embed(1001, [_rating(12)], "italian", None)
    assert embed.description is not None and "· 12 rated games ·" in embed.description


def test_leaderboard_game_counts() -> None:
    assert count_text(1, Msg.GAMES, None) == "1 game"
    assert count_text(0, Msg.GAMES, None) == "0 games"
    assert count_text(3, Msg.GAMES, "en-GB") == "3 games"


@pytest.mark.parametrize(("min_games", "phrase"), [
    (1, "at least 1 rated game and"), (2, "at least 2 rated games and"),
])
def test_leaderboard_footer_counts_games_in_good_english(min_games: int, phrase: str) -> None:
    board = Leaderboard("turkish", 1, [], None, None, 0, Eligibility(min_games, 110.0))
    footer = leaderboard_embed(board, "en-US").footer.text
    assert footer is not None and phrase in footer, footer


def test_history_says_each_end_reason_in_the_tables_short_words() -> None:
    """/history's words for how a game ended are the short words of `END_REASONS`
    (bot/services/game_words.py, the one table), any other ending "ended"."""
    for reason in EndReason:
        words = reason_text(reason.value, "en-US")
        assert words == ENGLISH[END_REASONS[reason].short] and "_" not in words
    assert reason_text("resignation", None) == ENGLISH[Msg.SHORT_RESIGNATION]
    assert reason_text("something-else", None) == ENGLISH[Msg.SHORT_OTHER]
    assert reason_text(None, None) == ENGLISH[Msg.SHORT_OTHER]


@pytest.mark.parametrize(("locale", "joined"), [
    ("en-US", " and "), ("tr", " ve "), ("it", " e "), ("fr", " et "), ("ar", " و"),
])
def test_what_a_provisional_player_needs_is_joined_as_their_language_joins_a_list(
    locale: str, joined: str,
) -> None:
    rules = Eligibility(10, 110.0)
    both = needs_text(Needs(games=3, deviation_games=7), 182.0, rules, locale)
    games = needs_text(Needs(games=3, deviation_games=0), 182.0, rules, locale)
    deviation = needs_text(Needs(games=0, deviation_games=7), 182.0, rules, locale)
    assert both == f"{games}{joined}{deviation}"


@pytest.mark.parametrize(("locale", "written"), [
    ("en-US", "87.5"), ("tr", "87,5"), ("it", "87,5"), ("fr", "87,5"), ("ar", "87.5"),
])
def test_the_deviation_limit_is_written_as_the_readers_language_writes_a_decimal(
    locale: str, written: str,
) -> None:
    # The operator may set any limit (DAMA_LEADERBOARD_MAX_DEVIATION), fractions too.
    rules = Eligibility(5, 87.5)
    board = Leaderboard("turkish", 1, [], None, None, 0, rules)
    footer = leaderboard_embed(board, locale).footer.text
    needs = needs_text(Needs(games=0, deviation_games=7), 182.0, rules, locale)
    for shown in (footer, needs):
        assert shown is not None and written in shown, shown
        assert written == "87.5" or "87.5" not in shown, shown


@pytest.mark.parametrize("key", list(VARIANTS))
def test_every_variant_has_its_rules_titled_by_its_name(key: str) -> None:
    embed = rules_embed(key, "fr")
    assert embed.title == variant_name(key, "fr")
    assert embed.description


def test_the_rules_of_english_checkers_say_black_moves_first() -> None:
    embed = rules_embed("checkers", None)
    assert embed.title == "English checkers"
    assert embed.description is not None and "Black first" in embed.description
