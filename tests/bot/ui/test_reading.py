"""Every option checked at the boundary (`bot/ui/reading.py` `check_options`, called by
`DamaTree.interaction_check`; docs/ARCHITECTURE.md): raw interactions a hostile client
could send, through the real bot logged in to `FakeDiscord`. Each is refused privately
with BAD_OPTION, nothing is stored, nothing is logged as a failure."""

from __future__ import annotations

import logging
from typing import Any

import pytest

from bot.messages import Msg, text
from tests.support.discord_harness import (
    Harness,
    challenge_and_accept,
    press,
    response_message_id,
    run,
    slash,
)
from tests.support.fake_discord import MEMBER, option, user_option
from tests.support.services import ALICE, BOB, CAROL, CHANNEL, GUILD


def _bob() -> tuple[dict[str, Any], dict[str, Any]]:
    return user_option("opponent", BOB)


def _hostile() -> list[tuple[str, str, str, list[dict[str, Any]], dict[str, Any] | None]]:
    """(what, the option refused, command, options, resolved) a Discord client never
    sends."""
    bob, resolved = _bob()
    return [
        ("rated as a string", "rated", "challenge",
         [bob, option("variant", "turkish"), option("rated", "maybe", 5)], resolved),
        ("rated with the string type", "rated", "challenge",
         [bob, option("variant", "turkish"), option("rated", "maybe")], resolved),
        ("a variant outside the choices", "variant", "challenge",
         [bob, option("variant", "checkers")], resolved),
        ("a move time outside the choices", "move_time", "challenge",
         [bob, option("variant", "turkish"), option("move_time", "9y")], resolved),
        ("a variant given as an integer", "variant", "challenge",
         [bob, option("variant", 3, 4)], resolved),
        ("an unresolved user", "opponent", "challenge",
         [option("opponent", str(CAROL), 6), option("variant", "turkish")], resolved),
        ("a non-numeric user id", "opponent", "challenge",
         [option("opponent", "bob", 6), option("variant", "turkish")],
         {"users": {"bob": resolved["users"][str(BOB)]}}),
        ("a user id of 2^64", "opponent", "challenge",
         [option("opponent", str(2**64), 6), option("variant", "turkish")],
         {"users": {str(2**64): resolved["users"][str(BOB)]}}),
        ("a missing required option", "opponent", "challenge",
         [option("variant", "turkish")], None),
        ("an unknown option", "stake", "challenge",
         [bob, option("variant", "turkish"), option("stake", "1")], resolved),
        ("an option given twice", "variant", "challenge",
         [bob, option("variant", "turkish"), option("variant", "arab")], resolved),
        ("an integer of 2^63", "game", "export", [option("game", 2**63, 4)], None),
        ("an integer below the range", "game", "export", [option("game", 0, 4)], None),
        ("a float for an integer", "game", "export", [option("game", 1.5, 4)], None),
        ("a boolean for an integer", "game", "export", [option("game", True, 4)], None),
        ("a string for an integer", "game", "export", [option("game", "1", 4)], None),
        ("a level outside its range", "level", "play",
         [option("variant", "turkish"), option("level", 99, 4)], None),
        ("an option without a value", "move", "move", [{"name": "move", "type": 3}], None),
    ]


@pytest.mark.parametrize(("what", "refused", "command", "options", "resolved"), _hostile(),
                         ids=[case[0] for case in _hostile()])
async def test_a_value_no_discord_client_sends_is_refused(
    harness: Harness, caplog: pytest.LogCaptureFixture, what: str, refused: str,
    command: str, options: list[dict[str, Any]], resolved: dict[str, Any] | None,
) -> None:
    h = harness
    with caplog.at_level(logging.ERROR):
        calls = await run(h, slash(h, command, options, resolved=resolved))
    [answer] = calls
    assert answer.ephemeral, what
    assert answer.content == text(Msg.BAD_OPTION, option=refused), what
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR], what
    assert await h.bot.services.storage.challenges.pending() == [], what
    assert not h.bot.services.games.has_game(CHANNEL), what


async def test_the_same_command_with_good_values_still_runs(harness: Harness) -> None:
    h = harness
    bob, resolved = _bob()
    [answer] = await run(h, slash(h, "challenge", [
        bob, option("variant", "turkish"), option("rated", False, 5)], resolved=resolved))
    assert not answer.ephemeral and f"<@{BOB}>" in answer.content


async def test_accepting_a_challenge_from_another_channel_is_refused(harness: Harness) -> None:
    h = harness
    bob, resolved = _bob()
    [answer] = await run(h, slash(h, "challenge", [bob, option("variant", "turkish")],
                                  resolved=resolved))
    challenge_id = answer.custom_ids[0].split(":")[2]
    message = dict(h.discord.messages[response_message_id(h, answer)])
    message["channel_id"] = str(CHANNEL + 1)
    calls = await run(h, press(h, 0, f"dama:accept:{challenge_id}", user=BOB,
                               snapshot=message))
    [refused] = [c for c in calls if c.callback_type == 4]
    assert refused.ephemeral
    assert refused.content == text(Msg.CHALLENGE_UNKNOWN)
    games = h.bot.services.games
    assert not games.has_game(CHANNEL) and not games.has_game(CHANNEL + 1)


async def test_a_refused_option_changes_no_game(harness: Harness) -> None:
    h = harness
    await challenge_and_accept(h)
    before = h.bot.services.games.current(CHANNEL)
    [answer] = await run(h, slash(h, "move", [option("move", 12, 4)], user=ALICE))
    assert answer.ephemeral and "`move`" in answer.content
    assert h.bot.services.games.current(CHANNEL) == before


@pytest.mark.parametrize(("locale", "shown"), [
    ("fr", "temps-par-coup"), ("tr", "hamle-süresi"), ("it", "tempo-mossa"),
    ("en-US", "move_time"),
])
async def test_a_refused_option_is_named_as_the_readers_client_names_it(
    harness: Harness, locale: str, shown: str,
) -> None:
    h = harness
    bob, resolved = _bob()
    [answer] = await run(h, slash(h, "challenge", [
        bob, option("variant", "turkish"), option("move_time", "9y")], resolved=resolved,
        locale=locale))
    assert answer.ephemeral
    assert f"`{shown}`" in answer.content


# --- places (docs/ARCHITECTURE.md, "Places") ---------------------------------------------

USE_EXTERNAL_APPS = 1 << 50
"""The permission Discord checks before a user-installed app may answer in public."""
DM, GROUP_DM = 9101, 9102
"""A DM and a group DM between users (the app is no member of either)."""


@pytest.mark.parametrize(("where", "kwargs", "expected"), [
    ("a server that installed the app", dict(context=0, owners={0: GUILD}), "channel"),
    ("a server that both installed", dict(context=0, owners={0: GUILD, 1: ALICE}),
     "channel"),
    ("a server only the player installed it to",
     dict(context=0, owners={1: ALICE}, permissions=str(int(MEMBER) | USE_EXTERNAL_APPS)),
     "interactions"),
    ("the bot's own DM", dict(guild_id=None, context=1, owners={1: ALICE}), "channel"),
    ("a DM between users", dict(guild_id=None, context=2, owners={1: ALICE}, channel=DM),
     "interactions"),
    ("a group DM", dict(guild_id=None, context=2, owners={1: ALICE}, channel=GROUP_DM,
                        channel_type=3), "interactions"),
])
async def test_a_game_is_played_in_the_place_kind_of_the_interaction_that_starts_it(
        harness: Harness, where: str, kwargs: dict[str, Any], expected: str) -> None:
    h = harness
    channel = kwargs.pop("channel", CHANNEL)
    if expected == "interactions":
        h.discord.memberless_channels.add(channel)
    calls = await run(h, slash(h, "play", [option("variant", "turkish"),
                                           option("color", "white")],
                               channel=channel, **kwargs))
    assert not calls[0].ephemeral, (where, calls[0].content)
    [game] = await h.bot.services.storage.games.active()
    assert game.place.value == expected, where
    assert game.guild_id == kwargs.get("guild_id", GUILD) and game.channel_id == channel
    assert not any(c.path.startswith(f"/channels/{channel}/") for c in calls), where


async def test_a_start_where_every_answer_would_be_private_is_refused_saying_why(
        harness: Harness) -> None:
    h = harness  # only Alice installed the app; the server denies her external apps
    h.discord.memberless_channels.add(CHANNEL)
    for command, options in (
            ("play", [option("variant", "turkish")]),
            ("challenge", [user_option("opponent", BOB)[0], option("variant", "turkish")])):
        resolved = user_option("opponent", BOB)[1] if command == "challenge" else None
        [answer] = await run(h, slash(h, command, options, resolved=resolved, context=0,
                                      owners={1: ALICE}))
        assert answer.ephemeral
        assert answer.content == text(Msg.EXTERNAL_APPS_OFF, "en"), command
        assert "direct messages" in answer.content
    assert await h.bot.services.storage.games.active() == []
