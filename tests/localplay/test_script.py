"""The local mode's command language: lines to commands, bare values to option names."""

from __future__ import annotations

import re
import unicodedata
from typing import Any

import pytest
from babel.messages.pofile import read_po

from bot.locales import catalog_path
from localplay.script import (
    AsUser,
    InChannel,
    InMyGame,
    Later,
    Press,
    ScriptError,
    Select,
    Slash,
    Wait,
    canonical_command,
    parse_line,
    resolve_options,
    typed_choice,
)

CHALLENGE_SCHEMA = [
    {"name": "opponent", "type": 6, "required": True},
    {"name": "variant", "type": 3, "required": True},
    {"name": "rated", "type": 5},
    {"name": "color", "type": 3},
    {"name": "move_time", "type": 3},
]


@pytest.mark.parametrize("line", ["", "   ", "# a comment", "  #/move 22-18"])
def test_blank_lines_and_comments_are_no_command(line: str) -> None:
    assert parse_line(line) is None


def test_keywords() -> None:
    assert parse_line("as bob") == AsUser("bob")
    assert parse_line("AS @bob") == AsUser("bob")
    assert parse_line('as "Giocatore 01"') == AsUser("Giocatore 01")
    assert parse_line("in #games") == InChannel("games")
    assert parse_line('in "Dama Annex#lobby"') == InChannel("lobby", "Dama Annex")
    assert parse_line("in Annex#tables") == InChannel("tables", "Annex")
    assert parse_line("press Offer draw") == Press("Offer draw")
    assert parse_line("in my game") == parse_line("IN  My Game") == InMyGame()
    assert parse_line("in my game or skip") == parse_line("in My Game  OR skip") == InMyGame(
        or_skip=True)
    assert parse_line("in my-game") == InChannel("my-game")


def test_wait_takes_a_text_and_an_optional_time_in_seconds() -> None:
    assert parse_line('wait "Round 2" 120s') == Wait("Round 2", 120.0)
    assert parse_line("wait Round 2") == Wait("Round 2", 60.0)
    assert parse_line("wait Round 2 1.5S") == Wait("Round 2", 1.5)
    assert parse_line("wait 3s") == Wait("3s", 60.0)
    for line, says in [("wait", "write `wait TEXT [SECONDSs]`"),
                       ('wait "Round 2" 0s', "more than 0 s and at most 3600 s, not 0s"),
                       ('wait "Round 2" 7200s', "not 7200s"),
                       ('wait "Round 2', "close the quotes")]:
        with pytest.raises(ScriptError, match=re.escape(says)):
            parse_line(line)


def test_later_takes_a_duration_in_seconds_minutes_hours_or_days() -> None:
    assert parse_line("later 90s") == Later(90.0)
    assert parse_line("later 5m") == Later(300.0)
    assert parse_line("later 18h") == Later(64800.0)
    assert parse_line("later 1.5D") == Later(129600.0)


@pytest.mark.parametrize("line", ["later", "later 18", "later h", "later 2w", "later 0h",
                                  "later -1h", "later 400d"])
def test_later_refuses_what_is_not_a_time_that_moves_on(line: str) -> None:
    with pytest.raises(ScriptError, match=r"later DURATION|more than 0 s"):
        parse_line(line)


def test_slash_commands_as_discord_shows_them() -> None:
    command = parse_line("/challenge opponent:@bob variant:italian")
    assert command == Slash("challenge", (("opponent", "@bob"), ("variant", "italian")), ())
    assert resolve_options(command, CHALLENGE_SCHEMA) == {"opponent": "@bob",
                                                          "variant": "italian"}


def test_option_names_may_be_left_out_in_schema_order() -> None:
    command = parse_line("/challenge @bob italian color:white")
    assert isinstance(command, Slash)
    assert resolve_options(command, CHALLENGE_SCHEMA) == {
        "opponent": "@bob", "variant": "italian", "color": "white"}
    named_later = parse_line("/challenge variant:turkish @carol true")
    assert isinstance(named_later, Slash)
    assert resolve_options(named_later, CHALLENGE_SCHEMA) == {
        "variant": "turkish", "opponent": "@carol", "rated": "true"}


def test_move_text_with_a_colon_is_a_value_not_an_option() -> None:
    command = parse_line("/move 22:18")
    assert isinstance(command, Slash)
    assert resolve_options(command, [{"name": "move", "type": 3}]) == {"move": "22:18"}


def test_quoted_values_keep_their_spaces() -> None:
    command = parse_line('/rating user:"Giocatore 01" italian')
    assert isinstance(command, Slash)
    schema = [{"name": "user", "type": 6}, {"name": "variant", "type": 3}]
    assert resolve_options(command, schema) == {"user": "Giocatore 01", "variant": "italian"}


def test_suggest_asks_for_autocomplete() -> None:
    assert parse_line("suggest /move 2") == Slash("move", (), ("2",), suggest=True)


@pytest.mark.parametrize(
    ("line", "hint"),
    [
        ("move 22-18", "is not a command"),
        ("as", "as NAME"),
        ("press", "press LABEL"),
        ("select", "select OPTION"),
        ("/", "right after the slash"),
        ('/move "22-18', "close the quotes"),
        ("suggest move", "suggest /COMMAND"),
    ],
)
def test_bad_lines_say_what_to_write(line: str, hint: str) -> None:
    with pytest.raises(ScriptError, match=hint):
        parse_line(line)


@pytest.mark.parametrize(
    ("line", "hint"), [("in #", "in CHANNEL"), ('in "#"', "in CHANNEL"), ("as @", "as NAME"),
                       ('as ""', "as NAME")],
)
def test_a_name_that_is_only_its_sign_is_refused(line: str, hint: str) -> None:
    """`in #` or `as @` names nothing: refused with the hint, not a channel or user with
    an empty name created."""
    with pytest.raises(ScriptError, match=hint):
        parse_line(line)


def test_too_many_values_and_repeated_options_are_refused() -> None:
    too_many = parse_line("/move 22-18 21-17")
    assert isinstance(too_many, Slash)
    with pytest.raises(ScriptError, match="too many values"):
        resolve_options(too_many, [{"name": "move", "type": 3}])
    twice = parse_line("/move move:22-18 move:21-17")
    assert isinstance(twice, Slash)
    with pytest.raises(ScriptError, match="given twice"):
        resolve_options(twice, [{"name": "move", "type": 3}])


VARIANT_OPTION = {"name": "variant", "type": 3, "choices": [
    {"name": "Turkish draughts", "value": "turkish"}, {"name": "Arab Dama", "value": "arab"},
    {"name": "Moroccan draughts", "value": "moroccan"},
    {"name": "Italian draughts", "value": "italian"},
]}
SCOPE_OPTION = {"name": "scope", "type": 3, "choices": [
    {"name": "This server", "value": "server"}, {"name": "Everyone", "value": "global"},
]}


def test_press_may_name_the_message_by_its_number() -> None:
    assert parse_line("press 3 Accept") == Press("Accept", 3)
    assert parse_line("press [3] Offer draw") == Press("Offer draw", 3)
    assert parse_line("press Accept") == Press("Accept")
    assert parse_line("press 3") == Press("3")  # a number alone is a label


def test_select_names_an_option_and_maybe_the_message() -> None:
    assert parse_line('select 2 "1... 9-13??"') == Select("1... 9-13??", 2)
    assert parse_line("select [2] 9-13") == Select("9-13", 2)
    assert parse_line("select 9-13") == Select("9-13")
    assert parse_line("select 12") == Select("12")  # a number alone is an option


@pytest.mark.parametrize(
    ("typed", "value"),
    [("italian", "italian"), ("Italian", "italian"), ("TURKISH", "turkish"),
     ("Turkish draughts", "turkish"), ("dama", "turkish"), ("arab dama", "arab"),
     ("italian-draughts", "italian")],
)
def test_variants_as_players_type_them(typed: str, value: str) -> None:
    command = parse_line(f'/rules "{typed}"')
    assert isinstance(command, Slash)
    assert resolve_options(command, [VARIANT_OPTION]) == {"variant": value}


def test_choice_names_in_any_case_and_unknown_values_left_for_the_refusal() -> None:
    command = parse_line("/leaderboard everyone")
    assert isinstance(command, Slash)
    assert resolve_options(command, [SCOPE_OPTION]) == {"scope": "global"}
    command = parse_line("/leaderboard planet")
    assert isinstance(command, Slash)
    assert resolve_options(command, [SCOPE_OPTION]) == {"scope": "planet"}
    command = parse_line("/rules checkers")  # not a name of any variant
    assert isinstance(command, Slash)
    assert resolve_options(command, [VARIANT_OPTION]) == {"variant": "checkers"}


def test_an_option_named_with_an_empty_field() -> None:
    schema = [{"name": "move", "type": 3, "autocomplete": True}]
    suggest = parse_line("suggest /move move:")
    assert suggest == Slash("move", (("move", ""),), (), suggest=True)
    assert resolve_options(suggest, schema) == {"move": ""}  # the field being typed
    command = parse_line("/challenge opponent:@bob variant: italian")
    assert isinstance(command, Slash)
    assert resolve_options(command, CHALLENGE_SCHEMA) == {"opponent": "@bob",
                                                          "variant": "italian"}


# A registered command as the bot declares it, with the French and Turkish names a client in
# those locales shows (bot/locales/commands/*.po).
VARIANT_FR: dict[str, Any] = {
    "name": "variant", "type": 3, "name_localizations": {"fr": "variante"},
    "choices": [
        {"name": "Turkish draughts", "value": "turkish",
         "name_localizations": {"fr": "Dames turques"}},
        {"name": "Moroccan draughts", "value": "moroccan",
         "name_localizations": {"fr": "Dames marocaines"}},
        {"name": "Italian draughts", "value": "italian",
         "name_localizations": {"fr": "Dames italiennes"}},
    ],
}
CHALLENGE = {"name": "challenge", "type": 1,
             "name_localizations": {"fr": "défi", "tr": "meydan-oku"},
             "options": [
                 {"name": "opponent", "type": 6, "name_localizations": {"fr": "adversaire"}},
                 VARIANT_FR,
                 {"name": "move_time", "type": 3,
                  "name_localizations": {"fr": "temps-par-coup", "tr": "hamle-süresi"}},
             ]}
MOVE = {"name": "move", "type": 1, "name_localizations": {"tr": "hamle"},
        "options": [{"name": "move", "type": 3, "name_localizations": {"tr": "hamle"}}]}
BOARD = {"name": "board", "type": 1, "name_localizations": {"tr": "tahta"}}
COMMANDS = [CHALLENGE, MOVE, BOARD]


@pytest.mark.parametrize(
    ("line", "locale"),
    [("/meydan-oku hamle-süresi:5m", "tr"), ("/défi temps-par-coup:5m", "fr")],
)
def test_localized_option_names_with_a_hyphen_or_an_accent_name_their_option(
    line: str, locale: str
) -> None:
    typed = parse_line(line)
    assert isinstance(typed, Slash)
    command = canonical_command(typed, COMMANDS, locale)
    assert command == Slash("challenge", (("move_time", "5m"),), ())


def test_an_accent_typed_as_a_combining_mark_is_the_accented_letter() -> None:
    decomposed = unicodedata.normalize("NFD", "/défi temps-par-coup:5m")
    assert decomposed != "/défi temps-par-coup:5m"
    typed = parse_line(decomposed)
    assert isinstance(typed, Slash)
    assert canonical_command(typed, COMMANDS, "fr") == Slash("challenge", (("move_time", "5m"),),
                                                             ())


def _localized_names(language: str) -> dict[str, str]:
    """The command and option names a client in `language` shows, by key (`challenge`,
    `challenge.move_time`), from the bot's commands catalog."""
    with catalog_path("commands", language).open("rb") as source:
        catalog = read_po(source)
    return {str(m.context).removeprefix("name:"): str(m.string) for m in catalog
            if m.context and str(m.context).startswith("name:") and m.string}


def _schema(names: dict[str, str], language: str, parent: str = "") -> list[dict[str, Any]]:
    """The registered commands (or a command's sub-commands and options) as Discord lists
    them, from the catalog's keys (`tournament`, `tournament.create`,
    `tournament.create.name`): a key with children of its own is a command or
    sub-command (type 1), and so is every child of a command that has sub-commands
    (Discord lets a command have sub-commands or options, not both); the others are
    options (type 3)."""
    children = [key for key in names
                if key.rpartition(".")[0] == parent and (parent or "." not in key)]
    grouping = any(key.startswith(child + ".") for child in children for key in names)
    return [{"name": child.rpartition(".")[2],
             "type": 1 if grouping or not parent else 3,
             "name_localizations": {language: names[child]},
             "options": _schema(names, language, child)}
            for child in children]


@pytest.mark.parametrize("language", ["tr", "it", "fr"])
def test_every_option_name_a_client_shows_is_read_as_an_option(language: str) -> None:
    # Every localized option of the bot's commands (sub-commands' options included), in
    # `name:value` form, as the client in that language shows it: hyphens, accents and
    # dotless i included.
    names = _localized_names(language)
    commands = _schema(names, language)
    options: list[tuple[list[str], str]] = []

    def collect(items: list[dict[str, Any]], path: list[str]) -> None:
        for item in items:
            if item["type"] == 1:
                collect(item["options"], [*path, item["name"]])
            else:
                options.append((path, item["name"]))

    collect(commands, [])
    assert options
    for path, option in options:
        keys = [".".join(path[:depth]) for depth in range(1, len(path) + 1)]
        key = ".".join([*path, option])
        line = f"/{' '.join(names[k] for k in keys)} {names[key]}:x"
        typed = parse_line(line)
        assert isinstance(typed, Slash) and typed.named == ((names[key].lower(), "x"),), line
        assert canonical_command(typed, commands, language) == Slash(
            " ".join(path), ((option, "x"),), ()), line


def _turkish_capitals(name: str) -> str:
    """`name` in capitals as Turkish writes them: i is İ, ı is I."""
    return name.replace("i", "İ").upper()


def test_names_typed_in_turkish_capitals_name_their_command_and_option() -> None:
    # A Turkish keyboard's capitals of `sıralama` and `dil` are SIRALAMA and DİL; neither
    # is the name in Python's (English) lower case, "siralama" and "di̇l".
    names = _localized_names("tr")
    commands = _schema(names, "tr")
    dotted = [key for key in names if "i" in names[key] or "ı" in names[key]]
    assert any("ı" in names[key] for key in dotted) and any("i" in names[key] for key in dotted)
    for key in dotted:
        path = key.split(".")
        items, item = commands, None
        for part in path:
            item = next(i for i in items if i["name"] == part)
            items = item["options"]
        assert item is not None
        keys = [".".join(path[:depth]) for depth in range(1, len(path) + 1)]
        shown = [_turkish_capitals(names[k]) for k in keys]
        if item["type"] == 1:
            line, wanted = "/" + " ".join(shown), Slash(" ".join(path), (), ())
        else:
            line = "/" + " ".join(shown[:-1]) + f" {shown[-1]}:x"
            wanted = Slash(" ".join(path[:-1]), ((path[-1], "x"),), ())
        typed = parse_line(line)
        assert isinstance(typed, Slash), line
        assert canonical_command(typed, commands, "tr") == wanted, line


@pytest.mark.parametrize(
    ("typed", "value"),
    [("marocaine", "moroccan"), ("Dames marocaines", "moroccan"), ("MAROC", "moroccan"),
     ("italiennes", "italian"), ("turques", "turkish")],
)
def test_a_choice_is_found_as_a_client_in_the_locale_offers_it(typed: str, value: str) -> None:
    # A Discord client lists the choices whose shown name holds what was typed.
    assert typed_choice(typed, VARIANT_FR["choices"], "fr") == value


def test_a_choice_typed_ambiguously_is_left_for_the_refusal() -> None:
    assert typed_choice("dames", VARIANT_FR["choices"], "fr") == "dames"  # all three


def test_an_unknown_command_is_refused_with_the_names_the_locale_shows() -> None:
    typed = parse_line("/terk")
    assert isinstance(typed, Slash)
    with pytest.raises(ScriptError) as refused:
        canonical_command(typed, COMMANDS, "tr")
    message = str(refused.value)
    assert "no slash command /terk" in message
    assert "/meydan-oku" in message and "/hamle" in message and "/tahta" in message
    assert "/challenge" not in message and "/board" not in message
    with pytest.raises(ScriptError, match=r"/défi.*/move"):  # no French name: as registered
        canonical_command(typed, COMMANDS, "fr")


def test_a_near_miss_of_a_command_is_named() -> None:
    typed = parse_line("/hamel e3-e4")
    assert isinstance(typed, Slash)
    with pytest.raises(ScriptError, match=r"did you mean /hamle\?"):
        canonical_command(typed, COMMANDS, "tr")


TOURNAMENT = {"name": "tournament", "type": 1, "name_localizations": {"fr": "tournoi"},
              "options": [
                  {"name": "create", "type": 1, "name_localizations": {"fr": "créer"},
                   "options": [{"name": "name", "type": 3,
                                "name_localizations": {"fr": "nom"}}]},
                  {"name": "start", "type": 1, "options": []},
              ]}


@pytest.mark.parametrize(
    ("line", "locale", "expected"),
    [("/tournament create name:Cup", None, Slash("tournament create", (("name", "Cup"),), ())),
     ("/tournoi créer nom:Cup", "fr", Slash("tournament create", (("name", "Cup"),), ())),
     ("/tournament start", None, Slash("tournament start", (), ())),
     # the name's value stays a value: only the words a sub-command is called are taken
     ("/tournament create Cup", None, Slash("tournament create", (), ("Cup",)))],
)
def test_sub_command_names_are_the_words_after_the_command(
    line: str, locale: str | None, expected: Slash
) -> None:
    typed = parse_line(line)
    assert isinstance(typed, Slash)
    assert canonical_command(typed, [*COMMANDS, TOURNAMENT], locale) == expected


def test_a_command_without_sub_commands_keeps_its_values() -> None:
    typed = parse_line("/challenge bob italian")
    assert isinstance(typed, Slash)
    assert canonical_command(typed, COMMANDS, None) == Slash("challenge", (), ("bob", "italian"))
