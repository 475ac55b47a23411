"""The catalog checks (`bot/locales`, `bot/messages/`): every message id in every
language, the same placeholders as the English, every plural form written, no English
left in a translation except names and notation, Arabic notation isolated, and command
names within Discord's rules. A message added to `bot.messages` without translations
fails here (`test_a_new_message_without_translations_is_reported`).

And the rules that keep sentences right in every language (docs/LANGUAGES.md): a count
only in a plural message or a count-free wording; a variant's title form only as a label
in Italian and French; no enum's value in a sentence; one register per catalog (Turkish
"sen", Italian "tu", French "vous"); in Arabic every Latin run isolated and no value
whose direction carries meaning (an arrow, a ratio, a range, a "?") left to the
surrounding right-to-left line; every message id used by the code. Each rule is shown
catching a planted defect."""

from __future__ import annotations

import ast
import re
from collections.abc import Iterable, Mapping
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog, Message
from babel.messages.pofile import read_po
from bidi import get_display

from bot.locales import DOMAINS, catalog_path, command_entries, template
from bot.locales.__main__ import merge
from bot.messages import (
    COMMAND_TEXT,
    COUNT_FIELDS,
    ENGLISH,
    FSI,
    LRI,
    PDI,
    RLI,
    VARIANT_NAMES,
    VARIANT_NAMES_IN_SENTENCE,
    Msg,
    Plural,
    isolate,
    template_fields,
    text,
    variant_in_sentence,
    variant_name,
)
from bot.services.move_text import MOVE_PROBLEMS
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

SPELLED_AS_IN_ENGLISH = {
    ("fr", "duration.minutes"),
    ("fr", "tournament.picture_score"),
    ("fr", "tiebreak.short_buchholz_cut_1"),
    ("fr", "tiebreak.short_sonneborn_berger"),
    ("fr", "tiebreak.short_performance"),
    ("fr", "web.player.date"),
    *(("it", f"tiebreak.{key}") for key in (
        "buchholz_cut_1", "sonneborn_berger", "performance",
        "short_buchholz_cut_1", "short_sonneborn_berger", "short_performance")),
}
"""Translations that are rightly the English spelling: French "1 minute", "2 minutes", the
standings picture's "Points" column, the tie-breaks' abbreviations "Bu-1", "SB" and "Perf."
as French tournament tables write them, and a player's games' "Date" column; the
tie-breaks as Italian tournament regulations name them ("Buchholz Cut 1",
"Sonneborn-Berger", "performance") and their short forms."""

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
    value = re.sub(r"/[a-z_][-a-z_]*(?: [a-z_]+)?", " ", value)
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


def test_a_hyphenated_command_name_is_not_read_as_english_words() -> None:
    stripped = strip_names_and_notation("**/puzzle-daily-stop** arrête le puzzle du jour.")
    assert "daily" not in stripped and "stop" not in stripped
    assert "arrête" in stripped


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
        "1 partita", "2 partite", "1.000.000 di partite"]
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
        "\u2067\u2068<@7>\u2069: من \u20681500?\u2069 إلى \u20681523?\u2069 "
        "(\u2068+23\u2069)\u2069")
    assert text(Msg.BOARD_TITLE, "ar", variant="X", game_id=12, kind="Y") == (
        "\u2068X\u2069 · المباراة \u2066#\u206812\u2069\u2069 · \u2068Y\u2069")
    assert isolate("d3-d4") == "\u2068d3-d4\u2069"
    # No `!r` in Arabic: repr would print an isolate as the escape "\u2068".
    assert "\\" not in text(Msg.UNKNOWN_VARIANT, "ar", name="xx", valid="turkish")
    # Other languages are left to right: nothing is added.
    assert text(Msg.MOVE_PLAYED, "fr", player="<@42>", move="22x13") == "<@42> a joué **22x13**."


ARROWS = re.compile("[\u2190-\u21ff\u27f0-\u27ff\u2900-\u297f]")
"""Arrows (Unicode blocks Arrows, Supplemental Arrows-A and -B): an arrow points the same
way in a right-to-left line as in a left-to-right one, so it reverses what it says."""

BETWEEN_VALUES = re.compile(r"(?:\}|\d)(?:\s*[-\u2013\u2014/]\s*|:)(?:\{|\d)")
"""Two values joined by a hyphen, a dash, a slash or a colon without a space (a range
"1-5", a ratio "{found}/{total}", a score, a time "5:00"): in a right-to-left line,
outside an LRI isolate, the second value is shown to the left of the first (UAX #9, rule
W4 joins digits only across a single separator that has a digit on each side, and an
isolated parameter is no digit)."""


DURATION_AFTER_PREPOSITION = re.compile(
    r"(?:بعد|قبل|طوال|خلال|لمدة|منذ|مدة|في)\s*\{(?:wait|limit|inactivity|move_time)\}")
"""An Arabic duration (`duration_text`: "دقيقتان", "يومان") right after a preposition or
a noun it depends on: there a dual takes the genitive ("بعد دقيقتين"), which the duration
messages, written once for every use, do not have; a duration stands as a label instead
("(الانتظار المتوقع: {wait})")."""


def arabic_problems(catalog: Catalog) -> list[str]:
    """What in the Arabic `catalog` would read wrong in a right-to-left line (the Unicode
    Bidirectional Algorithm, UAX #9): a Latin run not in an LRI isolate (`/solve`, `d3`);
    an arrow; two values joined by a separator (a range, a ratio) outside an LRI isolate;
    an ASCII "?" after a value (the provisional rating's mark) outside an isolate, where
    it moves to the value's other side; a duration after a preposition
    (`DURATION_AFTER_PREPOSITION`)."""
    problems: list[str] = []
    for message in catalog:
        for string in forms(message.string) if message.id else []:
            outside = re.sub(f"{LRI}[^{PDI}]*{PDI}", " ", string)
            latin = re.sub(r"\{[^}]*\}|`[^`]*`|\(thread\)", "", outside)
            if re.search(r"[A-Za-z]", latin):
                problems.append(f"{message.context}: a Latin run outside an isolate")
            if ARROWS.search(outside):
                problems.append(f"{message.context}: an arrow")
            if BETWEEN_VALUES.search(outside):
                problems.append(f"{message.context}: a range or a ratio outside an isolate")
            if re.search(r"(?:\}|\d)\?", outside):
                problems.append(f"{message.context}: a \"?\" after a value outside an isolate")
            if DURATION_AFTER_PREPOSITION.search(string):
                problems.append(f"{message.context}: a duration after a preposition")
    return problems


def test_arabic_templates_read_right_to_left() -> None:
    assert arabic_problems(read("messages", "ar")) == []


def test_arabic_checks_catch_latin_arrows_ranges_and_question_marks() -> None:
    planted = {
        Msg.MOVE_PLAYED.value: "{player} لعب **{move}** بالأمر /move.",
        Msg.RATING_CHANGE_LINE.value: "{player}: {before} ← {after} ({delta})",
        Msg.BOARD_MOVE.value: "النقلات 1-5",
        Msg.PUZZLE_TASK.value: "الدور على {color}. (النقلات التي وجدتها: {found}/{total})",
        Msg.LEADERBOARD_YOU_PROVISIONAL.value: "تصنيفك مؤقت، {rating}?: يلزمك {needs}.",
        Msg.COMPUTER_BUSY.value: "الكمبيوتر مشغول. حاول مرة أخرى بعد {wait} تقريبًا.",
    }
    catalog = _planted("ar", planted)
    assert sorted(arabic_problems(catalog)) == sorted([
        "board.move_played: a Latin run outside an isolate",
        "board.rating_change_line: an arrow",
        "board.move: a range or a ratio outside an isolate",
        "puzzle.task: a range or a ratio outside an isolate",
        'leaderboard.you_provisional: a "?" after a value outside an isolate',
        "error.computer_busy: a duration after a preposition",
    ])


def _shown(line: str, base: str) -> str:
    """`line` as a client lays it out in a paragraph of direction `base` ("L", "R"), left
    to right on the screen, the invisible isolates left out."""
    return re.sub(f"[{LRI}{RLI}{FSI}{PDI}]", "", get_display(line, base_dir=base))


@pytest.mark.parametrize("key", [Msg.RATING_CHANGE_LINE, Msg.PUZZLE_RATING_CHANGE])
def test_an_arabic_rating_change_reads_from_the_old_rating_to_the_new(key: Msg) -> None:
    # Laid out by the Unicode Bidirectional Algorithm (python-bidi: the Rust crate
    # unicode-bidi): the same on the screen whether the client gives the paragraph a
    # left-to-right or a right-to-left direction (Discord's is left to right), and read
    # from the right, the old rating comes first.
    line = text(key, "ar", player="<@7>", before="1500?", after="1523", delta="+23",
                streak=2)
    shown = _shown(line, "R")
    assert _shown(line, "L") == shown
    assert shown.index("1500?") > shown.index("1523") > shown.index("+23"), shown
    # An arrow would point the wrong way: "1500? ← 1523" shown left to right.
    arrow = f"{FSI}1500?{PDI} ← {FSI}1523{PDI}"
    assert _shown(arrow, "L").index("1500?") < _shown(arrow, "L").index("1523")


def test_an_arabic_ratio_keeps_its_order() -> None:
    found = text(Msg.PUZZLE_TASK, "ar", color="الأبيض", found=1, total=3)
    assert "1/3" in _shown(found, "R") and "1/3" in _shown(found, "L")
    # Each value isolated alone, the ratio turns round in a right-to-left line.
    assert "3/1" in _shown(f"وجدت: {isolate('1')}/{isolate('3')}", "R")


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
    for parent in names:  # a command's subcommands and options, each subcommand's options
        children = [k for k in names if k.rpartition(".")[0] == parent]
        assert len({names[c] for c in children}) == len(children), parent


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


def _planted(language: str, planted: Mapping[str, str | tuple[str, ...]]) -> Catalog:
    """The messages catalog of `language` with the entries of `planted` (by context)
    replaced."""
    catalog = read("messages", language)
    changed = Catalog(locale=language, domain="messages")
    for message in catalog:
        if message.id:
            changed.add(message.id, planted.get(str(message.context), message.string),
                        context=message.context)
    return changed


SINGLE_FORM_NOUNS = frozenset({"tr"})
"""Languages whose nouns keep one form after every number (Turkish "1 oyun", "5 oyun"):
a count beside a noun reads right there without a plural message."""


def _counts_beside_words(string: str, names: Iterable[str]) -> list[str]:
    """The fields of `names` that `string` writes next to a word ("{count} games", "more
    of the {min_games}"), isolates aside."""
    string = re.sub(f"[{LRI}{FSI}{PDI}\u2067]", "", string)
    return sorted(
        name for name in names
        if re.search(r"[^\W\d_]\s*\{" + name + r"\}|\{" + name + r"\}\s*[^\W\d_]", string)
    )


def count_problems(language: str, catalog: Catalog | None = None) -> list[str]:
    """The messages of `language` (English when `catalog` is None) that write a count
    (`COUNT_FIELDS`) beside a word outside a plural message by that count: "1 mosse",
    "1 coups", "من 1 نقلات" (docs/LANGUAGES.md, "Counts")."""
    if language in SINGLE_FORM_NOUNS:
        return []
    entries: list[tuple[str, str | Plural | None, list[str]]]
    if catalog is None:
        entries = [(key.value, source, forms((source.one, source.other))
                    if isinstance(source, Plural) else [source])
                   for key, source in ENGLISH.items()]
    else:
        ids = {key.value: key for key in Msg}
        entries = [(str(m.context), ENGLISH[ids[str(m.context)]], forms(m.string))
                   for m in catalog if m.id and str(m.context) in ids]
    problems: list[str] = []
    for context, source, strings in entries:
        names = COUNT_FIELDS - {source.count} if isinstance(source, Plural) else COUNT_FIELDS
        for name in sorted({n for s in strings for n in _counts_beside_words(s, names)}):
            problems.append(f"{context}: {{{name}}} beside a word outside a plural message")
    return problems


@pytest.mark.parametrize("language", ["en", *DOMAINS["messages"]])
def test_counts_are_plural_messages_or_count_free(language: str) -> None:
    catalog = None if language == "en" else read("messages", language)
    assert count_problems(language, catalog) == []


def test_a_count_beside_a_noun_outside_a_plural_message_is_reported() -> None:
    catalog = _planted("it", {
        Msg.PUZZLE_TASK.value: "Muove il {color}. Rispondi con /solve ({found} mosse trovate "
                               "su {total}).",
        Msg.RATING_LINE.value: "**{variant}**: {rating} (deviazione {deviation}) · {games} · "
                               "{wins} vinte · perse: {losses} · patte: {draws}",
        # the plural message's own count may stand beside its noun; another count may not
        Msg.LEADERBOARD_NEEDS_GAMES.value: ("ancora {count} partita delle {min_games} valide",
                                            "ancora {count} di partite (minimo: {min_games})",
                                            "ancora {count} partite (minimo: {min_games})"),
    })
    assert count_problems("it", catalog) == [
        "rating.line: {wins} beside a word outside a plural message",
        "leaderboard.needs_games: {min_games} beside a word outside a plural message",
        "puzzle.task: {found} beside a word outside a plural message",
    ]
    assert count_problems("tr", _planted("tr", {
        Msg.PUZZLE_TASK.value: "Hamle sırası: {color}. /solve ile yanıtla ({found} hamle "
                               "bulundu, {total} hamleden)."})) == []


LABEL_LANGUAGES = ("it", "fr")
"""Languages whose variant titles ("Dama turca", "Dames turques") cannot stand inside a
sentence: an article, a preposition's contraction ("nella", "aux") or lower case is
needed there, so a sentence takes `{variant_in_sentence}`."""

LABEL_BEFORE = r"(?:^|\(|·\s|\*\*|:\s|\n)"
LABEL_AFTER = r"(?:$|\)|\s·|\*\*|\n)"


def variant_problems(language: str, catalog: Catalog) -> list[str]:
    """The entries of `catalog` that put a variant's title form (`{variant}`) inside a
    sentence rather than as a label: alone, after a colon, in parentheses, in bold or
    between `·` separators (docs/LANGUAGES.md, "Variant names")."""
    if language not in LABEL_LANGUAGES:
        return []
    label = re.compile(LABEL_BEFORE + r"\{variant\}" + LABEL_AFTER)
    problems: list[str] = []
    for message in catalog:
        for string in forms(message.string) if message.id else []:
            if string.count("{variant}") != len(label.findall(string)):
                problems.append(f"{message.context}: {{variant}} inside a sentence")
    return problems


@pytest.mark.parametrize("language", DOMAINS["messages"])
def test_variant_titles_stand_only_as_labels(language: str) -> None:
    assert variant_problems(language, read("messages", language)) == []


def test_a_variant_title_inside_a_sentence_is_reported() -> None:
    catalog = _planted("fr", {Msg.LEADERBOARD_TITLE_SERVER.value: "Classement {variant} · ce "
                                                                  "serveur"})
    assert variant_problems("fr", catalog) == [
        "leaderboard.title_server: {variant} inside a sentence"]


def test_variant_names_have_an_in_sentence_form_in_every_language() -> None:
    assert set(VARIANT_NAMES_IN_SENTENCE) == set(VARIANTS)
    assert variant_in_sentence("turkish", "it") == "dama turca"
    assert variant_in_sentence("turkish", "fr") == "dames turques"
    assert text(Msg.PUZZLE_NO_BANK, "it", variant_in_sentence=variant_in_sentence(
        "italian", "it")) == ("Non ci sono ancora problemi di dama italiana. Prova "
                              "un'altra variante.")


REGISTERS: Mapping[str, re.Pattern[str]] = {
    "tr": re.compile(
        r"\b(?:siz|sizi|size|sizin|sizde|sizden|sizinle)\b|\b\w+(?:iniz|ınız|unuz|ünüz)\b"
        r"|\b(?!(?:henüz|deniz|yalnız)\b)\w+[aeıioöuü](?:niz|nız|nuz|nüz)\b"
        r"|\b(?:deneyin|seçin|bekleyin|verin|kullanın|yazın|basın|oynayın|başlatın|gönderin"
        r"|bakın|girin|yapın|ekleyin|tıklayın|yanıtlayın|edin|olun)\b", re.IGNORECASE),
    "it": re.compile(
        r"\b(?:Lei|Suo|Sua|Suoi|Sue)\b|\b(?:provi|riprovi|scelga|attenda|usi|indichi|prema"
        r"|invii|aspetti|selezioni|scriva|faccia|ritiri)\b"),
    "fr": re.compile(r"\b(?:tu|te|toi|ton|ta|tes)\b|\bt'", re.IGNORECASE),
}
"""Each catalog addresses the reader in one register: Turkish "sen", Italian "tu", French
"vous" (docs/LANGUAGES.md, "Register"). The words of the other register: Turkish "siz",
its possessives (-iniz) and plural imperatives (deneyin); Italian "Lei" and its
imperatives (provi, scelga); French "tu" and its pronouns."""


def register_problems(language: str, catalog: Catalog) -> list[str]:
    """The entries of `catalog` that use a word of the register `language`'s catalog does
    not use (`REGISTERS`), placeholders and code aside."""
    pattern = REGISTERS.get(language)
    problems: list[str] = []
    for message in catalog if pattern else []:
        for string in forms(message.string) if message.id else []:
            words = pattern.findall(re.sub(r"\{[^}]*\}|`[^`]*`", " ", string)) if pattern else []
            if words:
                problems.append(f"{message.context}: {sorted(set(words))}")
    return problems


@pytest.mark.parametrize("language", DOMAINS["messages"])
def test_each_catalog_keeps_one_register(language: str) -> None:
    assert register_problems(language, read("messages", language)) == []


def test_a_word_of_the_other_register_is_reported() -> None:
    assert register_problems("tr", _planted("tr", {
        Msg.PUZZLE_NONE.value: "Süren bulmacanız yok. /puzzle ile başlatın."})) == [
        "error.puzzle_none: ['başlatın', 'bulmacanız']"]
    assert register_problems("fr", _planted("fr", {
        Msg.PUZZLE_NONE.value: "Tu n'as pas de problème en cours."})) == [
        "error.puzzle_none: ['Tu']"]
    assert register_problems("it", _planted("it", {
        Msg.PUZZLE_NONE.value: "Non ha problemi in corso: ne scelga uno con /puzzle."})) == [
        "error.puzzle_none: ['scelga']"]


BOT = Path(__file__).resolve().parents[2] / "bot"

NOT_ENUM_VALUES: Mapping[tuple[str, str], str] = {
    ("services/games/moves.py", "str(move)"): "a move in notation, as the player wrote it",
    ("ui/present.py", "ending.result.value"): "PDN's result notation (1-0), the same in "
                                              "every language",
    ("web/game_view.py", "record.result.value"): "PDN's result notation (1-0), the same "
                                                 "in every language",
    ("ui/puzzles.py", "src.name"): "a recorded game's name",
    **{(path, expression): "a tournament's name, as its organiser wrote it"
       for path, expression in (
           ("ui/tournament_texts.py", "view.name"),
           ("ui/tournament_texts.py", "standings.name"),
           ("ui/tournament_picture.py", "standings.name"),
           ("ui/tournament_posts.py", "view.name"),
           ("cogs/tournaments.py", "view.name"),
           ("services/tournaments/signup.py", "existing.name"))},
}
"""The `.value`, `.name` and `str()` arguments of `text()` and `PlayerError` that are not
an enum's English word, with why each is the same in every language."""


def interpolated_values(sources: Mapping[str, str]) -> list[tuple[str, str]]:
    """(file, expression) of each keyword argument of a `text(...)` or `PlayerError(...)`
    call in `sources` (path: code) that is `X.value`, `X.name` or `str(X)`: an enum's
    English value in a sentence unless it is one of `NOT_ENUM_VALUES`."""
    found: list[tuple[str, str]] = []
    for path, code in sources.items():
        for node in ast.walk(ast.parse(code)):
            if not isinstance(node, ast.Call):
                continue
            func = node.func
            name = (func.id if isinstance(func, ast.Name)
                    else func.attr if isinstance(func, ast.Attribute) else "")
            if name not in ("text", "PlayerError"):
                continue
            for keyword in node.keywords:
                value = keyword.value
                if ((isinstance(value, ast.Attribute) and value.attr in ("value", "name"))
                        or (isinstance(value, ast.Call) and isinstance(value.func, ast.Name)
                            and value.func.id == "str")):
                    found.append((path, ast.unparse(value)))
    return [item for item in found if item not in NOT_ENUM_VALUES]


def _bot_sources() -> dict[str, str]:
    return {str(path.relative_to(BOT)): path.read_text() for path in BOT.rglob("*.py")}


def test_no_enum_value_is_interpolated_into_a_sentence() -> None:
    assert interpolated_values(_bot_sources()) == []


def test_an_enum_value_in_a_sentence_is_reported() -> None:
    code = ("note = text(Msg.TEXT_BOARD_MISSING, locale, permission=missing[0].value)\n"
            "raise PlayerError(Msg.NOT_YOUR_TURN, player=p, color=str(turn))\n"
            "x = text(Msg.BOARD_MOVE, locale, kind=state.kind.name)\n")
    assert interpolated_values({"ui/x.py": code}) == [
        ("ui/x.py", "missing[0].value"), ("ui/x.py", "str(turn)"), ("ui/x.py", "state.kind.name")]


def unused_ids(sources: Mapping[str, str]) -> list[str]:
    """The message ids no code in `sources` (path: code) names as `Msg.X`, apart from the
    ids the engine's refusal reasons reach (`bot.services.move_text.MOVE_PROBLEMS`). The
    files that define the ids (`messages/ids.py` and the English, `messages/english*.py`)
    do not count; the web pages' templates (`web/templates/*.html`) name ids too."""
    named = set()
    for path, code in sources.items():
        if path != "messages/ids.py" and not re.fullmatch(r"messages/english\w*\.py", path):
            named |= set(re.findall(r"\bMsg\.([A-Z0-9_]+)\b", code))
    reached = {key.name for key in MOVE_PROBLEMS.values()}
    return sorted(key.value for key in Msg if key.name not in named | reached)


def _sources_naming_ids() -> dict[str, str]:
    """The bot's code and the web pages' templates (path: text)."""
    templates = {str(path.relative_to(BOT)): path.read_text()
                 for path in BOT.rglob("web/templates/*.html")}
    return _bot_sources() | templates


def test_every_message_id_is_used() -> None:
    assert unused_ids(_sources_naming_ids()) == []


def test_a_message_id_no_code_uses_is_reported() -> None:
    sources = _sources_naming_ids()
    sources["ui/analysis.py"] = sources["ui/analysis.py"].replace("Msg.ANALYSIS_FOOTER", "None")
    assert unused_ids(sources) == ["analysis.footer"]
