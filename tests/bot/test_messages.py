"""The message catalog (`bot/messages/`): every message present, English fallback, the
fields each template needs, and every player-facing text taken from the reader's locale."""

from __future__ import annotations

import re
from pathlib import Path

from bot.messages import ENGLISH, Msg, Plural, fields, template, text
from tests.support.discord_harness import (
    Harness,
    challenge_and_accept,
    press,
    response_message_id,
    run,
    slash,
)
from tests.support.fake_discord import option, user_option
from tests.support.services import BOB


async def test_durations_statuses_and_variant_names_come_from_the_catalog(
    harness: Harness
) -> None:
    # Every player-facing text comes from the message catalog in the reader's locale:
    # the French catalog shows up in durations, challenge statuses and /export.
    h = harness
    [answer] = await run(h, slash(h, "help", locale="fr"))
    assert "3 jours" in answer.embeds[0]["description"]
    bob, resolved = user_option("opponent", BOB)
    [made] = await run(h, slash(h, "challenge", [bob, option("variant", "arab")],
                                resolved=resolved))
    message = response_message_id(h, made)
    cid = made.custom_ids[0].split(":")[2]
    snapshot = dict(h.discord.messages[message])
    await run(h, press(h, message, f"dama:decline:{cid}", user=BOB))
    payload = press(h, message, f"dama:accept:{cid}", user=BOB, snapshot=snapshot)
    payload["locale"] = "fr"
    reply, _strip = await run(h, payload)
    assert reply.ephemeral and "refusé" in reply.content and "declined" not in reply.content
    await challenge_and_accept(h)
    [export] = await run(h, slash(h, "export"))
    assert "Turkish draughts" in export.content and "(turkish)" not in export.content


def test_catalog_has_every_message_and_falls_back_to_english() -> None:
    assert set(ENGLISH) == set(Msg)
    for key, source in ENGLISH.items():
        english = source.other if isinstance(source, Plural) else source
        for locale in ("en-GB", "en-US", "de", None):  # German has no catalog: English
            assert template(key, locale, 2) == english
    assert text(Msg.NOT_YOUR_TURN, "de", player="<@1>", color="White").startswith("It is not")
    assert text(Msg.NOT_YOUR_TURN, "tr", player="<@1>", color="Beyaz").startswith("Sıra sende")
    assert fields(Msg.MOVE_AMBIGUOUS) == {"text", "candidates"}


def test_service_errors_fill_their_templates() -> None:
    """Every `PlayerError` the services raise names exactly the fields its message uses."""
    root = Path(__file__).resolve().parents[2] / "bot" / "services"
    pattern = re.compile(r"PlayerError\(\s*Msg\.([A-Z_]+)((?:[^()]|\([^()]*\))*)\)", re.S)
    seen = 0
    for source in root.glob("*.py"):
        for match in pattern.finditer(source.read_text()):
            key = Msg[match.group(1)]
            given = set(re.findall(r"(\w+)=", match.group(2)))
            assert fields(key) <= given, (key, given)
            seen += 1
    assert seen >= 15


def _isolates_balanced(message: str) -> bool:
    depth = 0
    for char in message:
        if char in "\u2066\u2067\u2068":
            depth += 1
        elif char == "\u2069":
            depth -= 1
            if depth < 0:
                return False
    return depth == 0


def test_arabic_isolates_stay_balanced_whatever_a_name_holds() -> None:
    # Display names are the user's: a stray isolate or PDI in one must neither close the
    # bot's isolate early nor leave one open over the rest of the sentence.
    for value in ("\u2068name", "name\u2069", "\u2069\u2069<@1>", "\u2067\u2066a\u2069"):
        for key, source in ENGLISH.items():
            names = fields(key, "ar", 11) | fields(key, "en", 11)
            params: dict[str, object] = {name: value for name in names}
            if isinstance(source, Plural):
                params[source.count] = 11
            formatted = text(key, "ar", **params)
            assert _isolates_balanced(formatted), (key, value, formatted)


def test_a_link_in_an_arabic_text_is_not_isolated() -> None:
    # An isolate inside a masked link's parentheses breaks the link, and one after a bare
    # address would be read as part of it.
    link = "https://discord.com/channels/@me/11/12"
    turn = text(Msg.NOTIFICATION_TURN, "ar", game=7, opponent="<@1>", link=link)
    assert link in turn and "\u2068https" not in turn and link + "\u2069" not in turn
    line = text(Msg.GAMES_LINE, "ar", **{name: "x" for name in fields(Msg.GAMES_LINE, "ar", 1)}
                | {"link": link})
    assert f"]({link})" in line
    assert "\u2068x\u2069" in line  # the other values are still isolated
