"""Command mentions as a Discord client shows them (`standin/mentions.py`): the name
written in the mention, in every client language, and the mentions a click would not
open."""

from __future__ import annotations

from standin import CommandMention, command_mentions, shown_text, unknown_mentions

SETTINGS = {"id": "12", "type": 1, "name": "settings",
            "name_localizations": {"tr": "ayarlar", "fr": "paramètres"}, "options": []}
TOURNAMENT = {"id": "34", "type": 1, "name": "tournament", "options": [
    {"type": 1, "name": "create"},
    {"type": 2, "name": "round", "options": [{"type": 1, "name": "start"}]},
]}
USER_MENU = {"id": "56", "type": 2, "name": "Challenge"}


def test_a_mention_shows_the_name_written_in_it_whatever_the_clients_language() -> None:
    # Discord does not localize command mentions (docs/LANGUAGES.md, "Command names in texts"):
    # a Turkish client shows </settings:12> as /settings, not /ayarlar.
    text = "Change them with </settings:12> language: or </tournament round start:34>."
    assert shown_text(text) == "Change them with /settings language: or /tournament round start."
    assert command_mentions(text) == [CommandMention("settings", 12),
                                      CommandMention("tournament round start", 34)]
    assert shown_text("<@5> <#6> </ settings:1> plain /play") == (
        "<@5> <#6> </ settings:1> plain /play")


def test_a_mention_opens_a_command_only_with_its_id_and_registered_names() -> None:
    commands = [SETTINGS, TOURNAMENT, USER_MENU]
    good = "</settings:12> </tournament create:34> </tournament round start:34>"
    assert unknown_mentions(good, commands) == []
    bad = ("</ayarlar:12> </settings:34> </play:99> </tournament delete:34> "
           "</tournament round:34> </Challenge:56>")
    assert unknown_mentions(bad, commands) == [
        CommandMention("ayarlar", 12), CommandMention("settings", 34),
        CommandMention("play", 99), CommandMention("tournament delete", 34),
        CommandMention("tournament round", 34), CommandMention("Challenge", 56)]
