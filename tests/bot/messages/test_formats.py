"""Numbers and lists in the reader's language (`bot/messages/formats.py`, Babel's CLDR
data; docs/LANGUAGES.md, "Numbers and lists")."""

from __future__ import annotations

import pytest

from bot.messages import Conjunction, Msg, decimal, join_list, percent, text

ARABIC_INDIC_DIGITS = "٠١٢٣٤٥٦٧٨٩"


@pytest.mark.parametrize(("locale", "thirty_thousand", "eighty_seven"), [
    ("en-US", "30,000", "87%"),
    ("tr", "30.000", "%87"),
    ("it", "30.000", "87%"),
    ("fr", "30\u202f000", "87\u00a0%"),
    ("ar", "30,000", "87%"),
    (None, "30,000", "87%"),
])
def test_numbers_are_grouped_and_percentages_signed_as_the_language_writes_them(
    locale: str | None, thirty_thousand: str, eighty_seven: str,
) -> None:
    assert decimal(30_000, locale) == thirty_thousand
    assert percent(87.4, locale) == eighty_seven
    assert percent(86.6, locale) == eighty_seven


def test_arabic_numbers_are_written_with_latin_digits() -> None:
    # Arabic Discord users write Latin digits; CLDR's default for ar-EG is Arabic-Indic.
    for locale in ("ar", "ar-EG", "ar-SA"):
        written = decimal(1_234_567, locale) + percent(42, locale)
        assert not set(written) & set(ARABIC_INDIC_DIGITS), written


@pytest.mark.parametrize(("locale", "all_of", "one_of"), [
    ("en-US", "a, b, and c", "a, b, or c"),
    ("tr", "a, b ve c", "a, b veya c"),
    ("it", "a, b e c", "a, b o c"),
    ("fr", "a, b et c", "a, b ou c"),
    ("ar", "a وb وc", "a أو b أو c"),
])
def test_lists_are_joined_as_the_language_joins_them(
    locale: str, all_of: str, one_of: str,
) -> None:
    assert join_list(["a", "b", "c"], locale) == all_of
    assert join_list(["a", "b", "c"], locale, Conjunction.OR) == one_of
    assert join_list(["a"], locale) == "a"
    assert join_list([], locale) == ""


def test_the_count_of_a_plural_message_is_grouped_in_the_readers_language() -> None:
    assert text(Msg.GAMES, "en-US", count=12_000) == "12,000 games"
    assert text(Msg.GAMES, "tr", count=12_000).startswith("12.000 ")
    assert text(Msg.GAMES, "fr", count=12_000).startswith("12\u202f000 ")
