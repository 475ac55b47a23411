"""The catalog checks (`bot/locales`, `bot/messages/`): every message id in every
language, the same placeholders as the English, every plural form written, no English
left in a translation except names and notation, Arabic notation isolated, and command
names within Discord's rules. A message added to `bot.messages` without translations
fails here (`test_a_new_message_without_translations_is_reported`)."""

from __future__ import annotations

import re

import pytest
from babel.messages.catalog import Catalog, Message
from babel.messages.pofile import read_po

from bot.locales import DOMAINS, catalog_path, command_entries, template
from bot.locales.__main__ import merge
from bot.messages import (
    COMMAND_TEXT,
    ENGLISH,
    FSI,
    LRI,
    PDI,
    VARIANT_NAMES,
    Msg,
    Plural,
    isolate,
    template_fields,
    text,
    variant_name,
)
from engine import VARIANTS

CASES = [(domain, language) for domain, languages in DOMAINS.items() for language in languages]

ENGLISH_WORDS = {
    "the", "you", "your", "game", "games", "move", "moves", "is", "are", "and", "with",
    "this", "that", "not", "please", "player", "turn", "board", "rated", "wins", "draw",
    "offer", "accept", "resign", "time", "challenge", "level", "show",
}
"""Common English words that never belong in a Turkish, Arabic, Italian or French text
(checked as whole words outside placeholders, commands, code and isolated runs). Not
"computer": Italian writes it so."""

SPELLED_AS_IN_ENGLISH = {("fr", "duration.minutes")}
"""Translations that are rightly the English spelling: French "1 minute", "2 minutes"."""

NAME = re.compile(r"^[-_\w]{1,32}$")
"""Discord's rule for command and option names (`^[-_\\p{L}\\p{N}...]{1,32}$`, lower case)."""


def read(domain: str, language: str) -> Catalog:
    with catalog_path(domain, language).open("rb") as source:
        return read_po(source, locale=language, domain=domain)


def forms(string: str | tuple[str, ...] | list[str] | None) -> list[str]:
    if string is None:
        return [""]
    return [string] if isinstance(string, str) else list(string)


def strip_names_and_notation(value: str) -> str:
    """`value` without placeholders, isolated runs, `code`, /commands and notation."""
    value = re.sub(f"[{LRI}{FSI}][^{PDI}]*{PDI}", " ", value)
    value = re.sub(r"\{[^}]*\}", " ", value)
    value = re.sub(r"`[^`]*`", " ", value)
    value = re.sub(r"/[a-z_]+(?: [a-z_]+)?", " ", value)
    return re.sub(r"\b[a-h][1-8](?:[-x][a-h][1-8])*\b|\bPDN\b", " ", value)


def catalog_problems(
    domain: str, language: str, catalog: Catalog, pot: Catalog | None = None
) -> list[str]:
    """What keeps `catalog` from being complete against the English template (`pot`,
    default: the one built from `bot.messages`)."""
    problems: list[str] = []
    pot = template(domain) if pot is None else pot
    expected = {entry.context: entry for entry in pot if entry.id}
    found = {message.context: message for message in catalog if message.id}
    problems += [f"{context}: missing" for context in expected.keys() - found.keys()]
    problems += [f"{context}: not in the English" for context in found.keys() - expected.keys()]
    for context, entry in expected.items():
        message = found.get(context)
        if message is None:
            continue
        if message.id != entry.id:
            problems.append(f"{context}: translated from an older English text")
        if message.fuzzy:
            problems.append(f"{context}: fuzzy")
        strings = forms(message.string)
        if entry.pluralizable and len(strings) != catalog.num_plurals:
            problems.append(f"{context}: {len(strings)} plural forms, not {catalog.num_plurals}")
        if not all(strings):
            problems.append(f"{context}: untranslated")
            continue
        english = forms(entry.id)
        wanted = set().union(*(template_fields(e) for e in english))
        written = [template_fields(s) for s in strings]
        if entry.pluralizable:
            if set().union(*written) != wanted or any(not w <= wanted for w in written):
                problems.append(f"{context}: placeholders {written} for {wanted}")
        elif written[0] != wanted:
            problems.append(f"{context}: placeholders {written[0]} for {wanted}")
        for string in strings:
            rest = strip_names_and_notation(string)
            words = set(re.findall(r"[^\W\d_]+", rest.lower())) & ENGLISH_WORDS
            if domain == "messages" and words:
                problems.append(f"{context}: English words {sorted(words)}")
            if (domain == "messages" and string in english and re.search(r"[A-Za-z]", rest)
                    and (language, context) not in SPELLED_AS_IN_ENGLISH):
                problems.append(f"{context}: still the English text")
    return problems


@pytest.mark.parametrize(("domain", "language"), CASES)
def test_every_catalog_is_complete_and_matches_the_english(domain: str, language: str) -> None:
    catalog = read(domain, language)
    assert catalog_problems(domain, language, catalog) == []


def test_a_new_message_without_translations_is_reported() -> None:
    catalog = read("messages", "fr")
    pot = template("messages")
    pot.add("A brand new text for {user}.", context="new.message")
    merged = merge(pot, catalog, "fr", "messages")
    assert catalog_problems("messages", "fr", merged, pot) == ["new.message: untranslated"]
    assert "new.message: missing" in catalog_problems("messages", "fr", catalog, pot)
    # An English text changed after translation: the old translation is kept, fuzzy.
    pot = template("messages")
    changed = pot.get(str(ENGLISH[Msg.BOARD_MOVE]), context=Msg.BOARD_MOVE.value)
    assert isinstance(changed, Message)
    pot.delete(changed.id, context=Msg.BOARD_MOVE.value)
    pot.add("Move played", context=Msg.BOARD_MOVE.value)
    merged = merge(pot, catalog, "fr", "messages")
    fuzzy = merged.get("Move played", context=Msg.BOARD_MOVE.value)
    assert fuzzy is not None and fuzzy.fuzzy and fuzzy.string == "Coup"
    # ... and gettext leaves fuzzy entries out, so English shows until it is looked at.


def test_checks_catch_wrong_placeholders_english_and_missing_plural_forms() -> None:
    catalog = read("messages", "it")
    broken = Catalog(locale="it", domain="messages")
    for message in catalog:
        if not message.id:
            continue
        string = message.string
        if message.context == Msg.MOVE_PLAYED.value:
            string = "{giocatore} ha giocato **{move}**."
        elif message.context == Msg.BOARD_LAST_MOVE.value:
            string = "Last move"
        elif message.context == Msg.DAYS.value:
            string = ("{count} giorno", "", "{count} giorni")
        broken.add(message.id, string, context=message.context)
    problems = catalog_problems("messages", "it", broken)
    assert any(p.startswith("board.move_played: placeholders") for p in problems)
    assert "board.last_move: English words ['move']" in problems
    assert "duration.days: untranslated" in problems


def test_plural_forms_follow_each_language_rule() -> None:
    # CLDR plural rules (Unicode Language Plural Rules): Arabic zero, one, two, few
    # (3-10), many (11-99), other (100-102); Turkish one/other with the singular noun;
    # Italian and French one, many (millions), other; French counts 0 as one.
    assert [text(Msg.DAYS, "ar", count=n).replace(FSI, "").replace(PDI, "")
            for n in (0, 1, 2, 3, 11, 100)] == [
        "0 يوم", "يوم واحد", "يومان", "3 أيام", "11 يومًا", "100 يوم"]
    assert [text(Msg.GAMES, "tr", count=n) for n in (1, 5)] == ["1 oyun", "5 oyun"]
    assert [text(Msg.GAMES, "it", count=n) for n in (1, 2, 1_000_000)] == [
        "1 partita", "2 partite", "1000000 di partite"]
    assert [text(Msg.HOURS, "fr", count=n) for n in (0, 1, 2)] == [
        "0 heure", "1 heure", "2 heures"]
    assert text(Msg.LEADERBOARD_RULE, "en", min_games=1, max_deviation="110").startswith(
        "Listed: at least 1 rated game and")


def test_arabic_isolates_notation_mentions_and_ratings() -> None:
    # Unicode Bidirectional Algorithm (UAX #9, 2.7): FSI U+2068 ... PDI U+2069 around
    # each parameter; LRI U+2066 ... PDI around notation written into the template.
    assert text(Msg.MOVE_PLAYED, "ar", player="<@42>", move="22x13") == (
        "\u2068<@42>\u2069 لعب **\u206822x13\u2069**.")
    assert text(Msg.RATING_CHANGE_LINE, "ar", player="<@7>", before="1500?",
                after="1523?", delta="+23") == (
        "\u2068<@7>\u2069: من \u20681500?\u2069 إلى \u20681523?\u2069 (\u2068+23\u2069)")
    assert text(Msg.BOARD_TITLE, "ar", variant="X", game_id=12, kind="Y") == (
        "\u2068X\u2069 · المباراة \u2066#\u206812\u2069\u2069 · \u2068Y\u2069")
    assert isolate("d3-d4") == "\u2068d3-d4\u2069"
    # No `!r` in Arabic: repr would print an isolate as the escape "\u2068".
    assert "\\" not in text(Msg.UNKNOWN_VARIANT, "ar", name="xx", valid="turkish")
    # Other languages are left to right: nothing is added.
    assert text(Msg.MOVE_PLAYED, "fr", player="<@42>", move="22x13") == "<@42> a joué **22x13**."


def test_arabic_templates_isolate_every_latin_run() -> None:
    catalog = read("messages", "ar")
    for message in catalog:
        for string in forms(message.string) if message.id else []:
            outside = re.sub(f"{LRI}[^{PDI}]*{PDI}", "", string)
            outside = re.sub(r"\{[^}]*\}|`[^`]*`|\(thread\)", "", outside)
            assert not re.search(r"[A-Za-z]", outside), (message.context, string)


@pytest.mark.parametrize("language", DOMAINS["commands"])
def test_command_names_follow_discords_rules(language: str) -> None:
    catalog = read("commands", language)
    names: dict[str, str] = {}
    for context, _english in command_entries():
        message = catalog.get(_english, context=context)
        assert isinstance(message, Message) and isinstance(message.string, str)
        kind, _, key = context.partition(":")
        if kind == "name":
            assert NAME.match(message.string) and message.string == message.string.lower()
            names[key] = message.string
        else:
            assert 1 <= len(message.string) <= 100, context
    commands = [key for key in names if "." not in key]
    assert len({names[c] for c in commands}) == len(commands)  # unique per locale
    for command in commands:
        options = [k for k in names if k.startswith(command + ".")]
        assert len({names[o] for o in options}) == len(options)


def test_every_plural_message_names_its_number() -> None:
    for key, source in ENGLISH.items():
        if isinstance(source, Plural):
            assert source.count in template_fields(source.one) | template_fields(source.other), key


def test_variant_names_cover_every_variant_in_english_as_the_engine_names_them() -> None:
    assert set(VARIANT_NAMES) == set(VARIANTS)
    for key, variant in VARIANTS.items():
        assert variant_name(key) == variant.name
    assert variant_name("turkish", "tr") == "Türk daması"
    assert variant_name("italian", "fr") == "Dames italiennes"


def test_choice_names_are_unique_in_english() -> None:
    # The translator finds a choice's catalog entry by its English name.
    names = [english for key, english in COMMAND_TEXT.items() if key.startswith("choice.")]
    assert len(names) == len(set(names))
