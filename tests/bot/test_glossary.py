"""docs/GLOSSARY.md and the catalogs agree: every catalog text whose English holds a term
of the glossary's "Puzzles and analysis" table uses one of the forms the glossary lists for
that language (so a translator who changes a word changes it in the glossary first, and a
term is never translated two ways)."""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from bot.locales import DOMAINS

ROOT = Path(__file__).resolve().parents[2]
GLOSSARY = ROOT / "docs" / "GLOSSARY.md"
LOCALES = ROOT / "bot" / "locales"
SECTION = "## Puzzles and analysis"
LANGUAGES = DOMAINS["messages"]
"""The catalog languages (`bot.language.Language`), in the order of the glossary's columns
after English."""

_NOTE = re.compile(r"\([^)]*\)")
_COMMAND = re.compile(r"/[a-z][a-z-]*")
_PLACEHOLDER = re.compile(r"\{[^}]*\}")
_ARABIC_MARKS = re.compile("[\u064b-\u0652\u0670]")  # harakat, tanween, shadda, sukun


@dataclass(frozen=True)
class Term:
    english: tuple[str, ...]
    forms: dict[str, tuple[str, ...]]


def _forms(cell: str) -> tuple[str, ...]:
    """A cell's forms: notes in parentheses dropped, split on commas (Arabic or Latin)."""
    text = _NOTE.sub("", cell)
    return tuple(f.strip() for f in re.split(r"[,،]", text) if f.strip())


def _fold(text: str, language: str) -> str:
    """`text` lower-cased as the language does (Turkish dotted and dotless i), without
    Arabic vowel marks, for a containment check."""
    if language == "tr":
        text = text.replace("İ", "i").replace("I", "ı")
    text = unicodedata.normalize("NFC", text).lower()
    if language == "ar":
        text = _ARABIC_MARKS.sub("", text)
    return text


def glossary_terms() -> list[Term]:
    """The rows of the glossary's "Puzzles and analysis" table."""
    text = GLOSSARY.read_text(encoding="utf-8")
    start = text.index(SECTION)
    end = text.index("\n## ", start + len(SECTION))
    terms = []
    for line in text[start:end].splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if not line.startswith("|") or len(cells) != len(LANGUAGES) + 2 or cells[0] in (
                "English", "---"):
            continue
        terms.append(Term(_forms(cells[0]), {
            language: _forms(cell) for language, cell in zip(LANGUAGES, cells[1:-1], strict=True)
        }))
    return terms


def catalog_texts(language: str) -> list[tuple[str, str]]:
    """(English, translation) of every message and command text in `language`, each
    plural form apart."""
    pairs: list[tuple[str, str]] = []
    for kind in ("messages", "commands"):
        path = LOCALES / kind / f"{language}.po"
        if not path.exists():  # Arabic has no command names (docs/GLOSSARY.md, Commands)
            continue
        with path.open("rb") as file:
            catalog = read_po(file)
        for message in catalog:
            if not message.id:
                continue
            ids = [str(i) for i in
                   (message.id if isinstance(message.id, tuple | list) else [message.id])]
            strings = [str(s) for s in (message.string if isinstance(message.string, tuple | list)
                                        else [message.string])]
            # A plural's translations are checked against its English plural form.
            english = ids[-1]
            pairs.extend((english, string) for string in strings if string)
    return pairs


def _mentions(english: str, term: Term) -> bool:
    """Whether the English text uses `term` (command names and placeholders aside)."""
    text = _PLACEHOLDER.sub(" ", _COMMAND.sub(" ", english)).lower()
    return any(re.search(r"\b" + re.escape(form.lower()), text) for form in term.english)


def test_the_table_has_every_language() -> None:
    terms = glossary_terms()
    heads = {t.english[0] for t in terms}
    for wanted in ("puzzle", "shot", "solution", "streak", "hint", "Reveal", "puzzle rating",
                   "daily puzzle", "inaccuracy", "mistake", "blunder", "accuracy",
                   "evaluation", "analysis"):
        assert wanted in heads, wanted
    for term in terms:
        for language in LANGUAGES:
            assert term.forms[language], (term.english, language)


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_catalog_uses_the_glossarys_words(language: str) -> None:
    texts = catalog_texts(language)
    terms = glossary_terms()
    checked = 0
    wrong = []
    for english, translated in texts:
        folded = _fold(translated, language)
        for term in terms:
            if not _mentions(english, term):
                continue
            checked += 1
            if not any(_fold(form, language) in folded for form in term.forms[language]):
                wrong.append(f"{term.english[0]!r} in {english!r}: {translated!r}")
    assert not wrong, "\n".join(wrong)
    assert checked >= 20  # the table's terms are used: the check is not empty


def test_a_text_using_another_word_is_caught() -> None:
    # The check itself: "enigma" is not the glossary's Italian word for a puzzle.
    [puzzle] = [t for t in glossary_terms() if t.english[0] == "puzzle"]
    assert _mentions("Puzzle {puzzle} ({variant})", puzzle)
    assert not _mentions("Start one with /puzzle.", puzzle)  # a command name is no term
    assert not any(_fold(f, "it") in _fold("Enigma 7", "it") for f in puzzle.forms["it"])
    assert any(_fold(f, "tr") in _fold("İPUCU", "tr") for f in ("ipucu",))
