"""Commands named as the reader's client shows them (`bot/messages/mentions.py`): localized
names in Turkish, Italian and French, command mentions in English and Arabic once the ids
are known, nothing rewritten in code spans, URLs or the values filled in; and every
command and option a template names, in every language, is a registered one."""

from __future__ import annotations

import gettext
from collections.abc import Iterator
from typing import Any

import pytest

from bot.language import Language
from bot.messages import (
    ENGLISH,
    LRI,
    PDI,
    Msg,
    Plural,
    plain_text,
    template,
    text,
    translations,
)
from bot.messages.mentions import (
    COMMAND_KEYS,
    NO_COMMAND_IDS,
    CommandIds,
    install_command_ids,
    installed_command_ids,
    name_commands,
    option_key,
    references,
)
from tests.support.discord_harness import Harness

IDS = CommandIds.of({"play": 101, "challenge": 102, "settings": 103, "analyze": 104,
                     "move": 105, "history": 106})


@pytest.fixture
def mentioned() -> Iterator[CommandIds]:
    """`IDS` installed for the test's texts, and none again after it."""
    install_command_ids(IDS)
    try:
        yield IDS
    finally:
        install_command_ids(NO_COMMAND_IDS)


def test_before_the_ids_are_known_english_names_commands_as_plain_slashes() -> None:
    assert installed_command_ids() == NO_COMMAND_IDS
    assert text(Msg.NO_GAME_HERE, "en-US") == (
        "There is no game in this channel. Start one with /play (against the computer) or "
        "/challenge a player.")


def test_english_mentions_the_commands_by_their_ids(mentioned: CommandIds) -> None:
    assert text(Msg.NO_GAME_HERE, "en-US") == (
        "There is no game in this channel. Start one with </play:101> (against the "
        "computer) or </challenge:102> a player.")
    assert text(Msg.SETTINGS_LANGUAGE, "en", value="English") == (
        "Language: **English** (change it with </settings:103> language:)")


def test_turkish_italian_and_french_name_commands_and_options_as_their_clients_show(
    mentioned: CommandIds
) -> None:
    # No mention: a client shows a mention by the (English) name written in it.
    assert "/oyna" in text(Msg.NO_GAME_HERE, "tr") and "/meydan-oku" in text(
        Msg.NO_GAME_HERE, "tr")
    assert "(/ayarlar dil: ile" in text(Msg.SETTINGS_LANGUAGE, "tr", value="Türkçe")
    assert "/impostazioni lingua:" in text(Msg.SETTINGS_LANGUAGE, "it", value="Italiano")
    assert "/paramètres langue:" in text(Msg.SETTINGS_LANGUAGE, "fr", value="Français")
    for language in ("tr", "it", "fr"):
        written = text(Msg.NO_GAME_HERE, language)
        assert "</" not in written and "/play" not in written, written


def test_an_option_with_its_value_is_localized_and_the_value_kept(
    mentioned: CommandIds
) -> None:
    key = Msg.ANALYSIS_STOPPED
    assert "/analyze game:{game_id}" in template(key, "en")
    assert "</analyze:104> game:42" in text(key, "en", game_id=42)
    assert "/analizza partita:42" in text(key, "it", game_id=42)
    assert "/analyser partie:42" in text(key, "fr", game_id=42)


def test_arabic_mentions_commands_with_the_registered_option_names_inside_the_isolate(
    mentioned: CommandIds
) -> None:
    written = text(Msg.SETTINGS_LANGUAGE, "ar", value="العربية")
    assert f"{LRI}</settings:103> language:{PDI}" in written, written


def test_an_option_a_template_writes_in_its_language_is_kept_in_that_language(
    mentioned: CommandIds
) -> None:
    catalog = translations("commands", "fr")
    assert name_commands("avec /settings langue: ou /settings language:", IDS, catalog) == (
        "avec /paramètres langue: ou /paramètres langue:")
    assert name_commands("/settings côté-damier:", IDS, catalog) == "/paramètres côté-damier:"
    assert name_commands("/settings langue:", IDS, None) == "</settings:103> langue:"


def test_values_filled_in_are_never_rewritten(mentioned: CommandIds) -> None:
    written = text(Msg.MOVE_NOT_LEGAL, "tr", text="/play")
    assert "**/play**" in written  # what the player typed, quoted as typed
    assert "/hamle" in written  # the template's own /move


@pytest.mark.parametrize(
    ("template_text", "written"),
    [
        ("type `/play` there", "type `/play` there"),  # a code span
        ("type ``/play`` there", "type ``/play`` there"),  # one opened by two backticks
        ("``a ` /play`` and /play", "``a ` /play`` and </play:101>"),
        ("```\n/play\n``` then /play", "```\n/play\n``` then </play:101>"),  # a block
        ("a lone ` and /play", "a lone ` and </play:101>"),  # a backtick opening nothing
        ("see https://example.com/play and /play", "see https://example.com/play and "
                                                   "</play:101>"),
        ("a/play, x:/play, </play:101>", "a/play, x:/play, </play:101>"),
        ("/playing and /nothing stay", "/playing and /nothing stay"),
        ("**/play** (or /play).", "**</play:101>** (or </play:101>)."),
        ("/settings colour: stays apart", "</settings:103> colour: stays apart"),
        ("/move shows the move", "</move:105> shows the move"),
    ],
)
def test_only_registered_commands_outside_code_spans_and_urls_are_rewritten(
    template_text: str, written: str
) -> None:
    assert name_commands(template_text, IDS, None) == written


def test_a_subcommand_is_mentioned_with_its_commands_id_and_localized_as_a_path() -> None:
    keys = frozenset({"tournament", "tournament.create", "tournament.create.variant"})
    ids = CommandIds.of({"tournament": 7})
    assert name_commands("Use /tournament create variant:italian now.", ids, None, keys) == (
        "Use </tournament create:7> variant:italian now.")
    assert name_commands("/tournament list", ids, None, keys) == "</tournament:7> list"

    class Catalog(gettext.NullTranslations):
        def pgettext(self, context: str, message: str) -> str:
            return {"name:tournament": "turnuva", "name:tournament.create": "oluştur",
                    "name:tournament.create.variant": "tür"}.get(context, message)

    assert name_commands("/tournament create variant:x", ids, Catalog(),
                         keys) == "/turnuva oluştur tür:x"


def _templates() -> Iterator[tuple[Msg, str, str]]:
    """Every template of every message in every language (each plural form)."""
    for key, source in ENGLISH.items():
        counts = (1, 2, 5, 11, 100) if isinstance(source, Plural) else (1,)
        for language in Language:
            for count in counts:
                yield key, language.value, template(key, language.value, count)


def _registered(payload: list[dict[str, Any]]) -> set[str]:
    """The keys (`name`, `name.sub`, `name.option`) of the commands as registered."""
    keys: set[str] = set()

    def walk(prefix: str, options: list[dict[str, Any]]) -> None:
        for option in options:
            key = f"{prefix}.{option['name']}"
            keys.add(key)
            if option.get("type") in (1, 2):
                walk(key, option.get("options") or [])

    for command in payload:
        keys.add(command["name"])
        walk(command["name"], command.get("options") or [])
    return keys


async def test_every_command_and_option_a_template_names_is_registered(
    harness: Harness
) -> None:
    [sync] = [c for c in harness.discord.calls if c.method == "PUT"]
    registered = _registered(sync.payload)
    assert registered == COMMAND_KEYS  # the renderer's list is the registered commands
    wrong: list[str] = []
    for key, language, written in _templates():
        catalog = (translations("commands", language)
                   if Language.of(language).commands_translated else None)
        for found in references(written):
            name, sub, option = found["name"], found["sub"], (found["option"] or "").strip()
            if name not in registered:
                wrong.append(f"{key.value} [{language}]: /{name} is no command")
            elif option and not sub and option_key([name], option, catalog) is None:
                wrong.append(f"{key.value} [{language}]: {option}: is no option of /{name}")
    assert not wrong, "\n".join(wrong)



def test_a_select_placeholder_names_commands_as_plain_words(mentioned: CommandIds) -> None:
    # Discord shows a select's placeholder as it is: a mention there would read </move:105>.
    assert "</move:105>" in text(Msg.MOVE_SELECT_TOO_MANY, "en")
    assert plain_text(Msg.MOVE_SELECT_TOO_MANY, "en").endswith("/move")
    assert "</" not in plain_text(Msg.MOVE_SELECT_TOO_MANY, "ar")
