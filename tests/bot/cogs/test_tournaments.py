"""`/tournament` (`bot/cogs/tournaments.py`) through discord.py's command tree, requests
captured by `FakeDiscord`, real SQLite file: the commands as registered, who may organise
(Manage Server or the server's organiser role), the sign-up post, Join and Leave by the
buttons and by the commands, and presses a hostile or late client sends. A whole
tournament with its threads is played through the stand-in
(tests/e2e/test_tournaments.py)."""

from __future__ import annotations

import copy
from datetime import timedelta
from typing import Any

from bot.messages import Msg, text
from tests.support.discord_harness import (
    DAVE,
    OTHER_CHANNEL,
    OTHER_GUILD,
    Harness,
    forged_press,
    press,
    run,
    slash,
)
from tests.support.fake_discord import (
    EVERYTHING,
    GUILD_ID,
    MEMBER,
    TIMESTAMP,
    Call,
    option,
    user_option,
)
from tests.support.services import ALICE, BOB, CAROL, CHANNEL

MANAGE_GUILD = 0x20
"""Discord's MANAGE_GUILD permission bit (API v10, "Permissions")."""
CREATE_EVENTS = 1 << 44
"""Discord's CREATE_EVENTS permission bit (API v10, "Permissions")."""
ADMIN = str(int(MEMBER) | MANAGE_GUILD)
ORGANISERS = 9_100
"""The id of a role the tests name the server's organiser role."""
SUBCOMMAND, INTEGER, BOOLEAN, ROLE = 1, 4, 5, 8


def _sub(name: str, *options: dict[str, Any]) -> list[dict[str, Any]]:
    """The options of `/tournament <name>` with `options`."""
    return [{"type": SUBCOMMAND, "name": name, "options": list(options)}]


def _role(role_id: int, name: str = "organisers") -> dict[str, Any]:
    return {"id": str(role_id), "name": name, "color": 0, "hoist": False, "position": 1,
            "permissions": "0", "managed": False, "mentionable": False, "flags": 0}


def _tournament(h: Harness, sub: str, *options: dict[str, Any], user: int = ALICE,
                permissions: str = MEMBER, roles: tuple[int, ...] = (),
                resolved: dict[str, Any] | None = None, **kwargs: Any) -> dict[str, Any]:
    """`/tournament <sub>` by `user` with `permissions` and `roles`."""
    payload = slash(h, "tournament", _sub(sub, *options), user=user, permissions=permissions,
                    resolved=resolved, **kwargs)
    if "member" in payload:
        payload["member"]["roles"] = [str(role) for role in roles]
    return payload


async def _create(h: Harness, *options: dict[str, Any], user: int = ALICE,
                  permissions: str = ADMIN, roles: tuple[int, ...] = ()) -> list[Call]:
    given = options or (option("name", "Friday Swiss"), option("format", "swiss"),
                        option("variant", "turkish"))
    return await run(h, _tournament(h, "create", *given, user=user, permissions=permissions,
                                    roles=roles))


def _signup_post(h: Harness) -> dict[str, Any]:
    """The newest message with a Join button in the test's channel."""
    posts = [m for m in h.discord.messages.values()
             if m["channel_id"] == str(CHANNEL) and any(
                 c.get("custom_id", "").startswith("dama:tjoin:")
                 for row in m.get("components") or [] for c in row["components"])]
    assert posts, "no sign-up post"
    return posts[-1]


def _players_field(message: dict[str, Any]) -> str:
    return str(message["embeds"][0]["fields"][0]["value"])


def _private(calls: list[Call]) -> Call:
    """The one private answer among `calls`."""
    answers = [c for c in calls if c.callback_type == 4 or c.path.startswith("/webhooks")]
    assert len(answers) == 1, [(c.method, c.path) for c in calls]
    assert answers[0].ephemeral, answers[0].payload
    return answers[0]


async def test_the_group_as_registered(harness: Harness) -> None:
    [sync] = [c for c in harness.discord.calls if c.method == "PUT"]
    [group] = [c for c in sync.payload if c["name"] == "tournament"]
    assert group["contexts"] == [0]  # servers only
    assert group.get("default_member_permissions") is None  # everyone joins; organisers act
    subs = {s["name"]: s for s in group["options"]}
    assert list(subs) == ["create", "start", "pause", "resume", "end", "remove", "join",
                          "leave", "standings", "info", "list", "history", "export"]
    assert all(s["type"] == SUBCOMMAND for s in subs.values())
    create = {o["name"]: o for o in subs["create"]["options"]}
    assert list(create) == ["name", "format", "variant", "rounds", "double", "duration",
                            "move_time", "rated", "start_in", "player_limit", "role",
                            "event"]
    assert [n for n, o in create.items() if o.get("required")] == ["name", "format", "variant"]
    assert (create["name"]["min_length"], create["name"]["max_length"]) == (1, 100)
    assert [c["value"] for c in create["format"]["choices"]] == ["arena", "swiss",
                                                                "round_robin"]
    assert [c["name"] for c in create["format"]["choices"]] == ["Arena", "Swiss system",
                                                               "Round robin"]
    assert (create["rounds"]["type"], create["rounds"]["min_value"],
            create["rounds"]["max_value"]) == (INTEGER, 1, 20)
    assert create["double"]["type"] == BOOLEAN and create["role"]["type"] == ROLE
    assert [c["value"] for c in create["duration"]["choices"]][[0, -1][0]] == "10m"
    assert [c["value"] for c in create["duration"]["choices"]][-1] == "24h"
    assert [c["value"] for c in create["move_time"]["choices"]] == ["40s", "5m", "1h", "1d"]
    assert (create["start_in"]["min_value"], create["start_in"]["max_value"]) == (1, 43200)
    assert (create["player_limit"]["min_value"],
            create["player_limit"]["max_value"]) == (2, 500)
    for name in ("start", "pause", "resume", "end", "join", "leave", "standings", "info",
                 "export"):
        [number] = subs[name]["options"]
        assert number["name"] == "tournament" and number["type"] == INTEGER
        assert number["autocomplete"] and not number.get("required")
    assert [o["name"] for o in subs["remove"]["options"]] == ["player", "tournament"]
    assert "options" not in subs["list"] or not subs["list"]["options"]


async def test_a_member_without_manage_server_or_the_role_may_not_create(
    harness: Harness,
) -> None:
    h = harness
    answer = _private(await _create(h, permissions=MEMBER))
    assert answer.content == text(Msg.TOURNAMENT_NOT_ORGANISER, "en")
    assert not [c for c in h.discord.calls if c.method == "POST"
                and c.path == f"/channels/{CHANNEL}/messages"]


async def test_manage_server_creates_and_the_signup_post_appears(harness: Harness) -> None:
    h = harness
    answer = _private(await _create(h))
    post = _signup_post(h)
    assert f"https://discord.com/channels/{GUILD_ID}/{CHANNEL}/{post['id']}" in answer.content
    [embed] = post["embeds"]
    assert embed["title"].endswith(": Friday Swiss")
    assert "Swiss system, 5 rounds · Turkish draughts · 5 minutes per move" in \
        embed["description"]
    assert [c["label"] for row in post["components"] for c in row["components"]] == [
        "Join", "Leave"]
    assert _players_field(post) == "No one has joined yet."
    # One tournament at a time per channel.
    again = _private(await _create(h))
    assert again.content.startswith("This channel already has a tournament")


async def test_the_servers_organiser_role_may_create(harness: Harness) -> None:
    h = harness
    role, resolved = option("organiser_role", str(ORGANISERS), ROLE), {
        "roles": {str(ORGANISERS): _role(ORGANISERS)}}
    [saved] = await run(h, slash(h, "server-settings", [role], permissions=ADMIN,
                                 resolved=resolved))
    assert f"Manage Server): **<@&{ORGANISERS}>**" in saved.embeds[0]["description"]
    refused = _private(await _create(h, user=BOB, permissions=MEMBER, roles=(9_999,)))
    assert refused.content == text(Msg.TOURNAMENT_NOT_ORGANISER, "en")
    _private(await _create(h, user=BOB, permissions=MEMBER, roles=(ORGANISERS,)))
    assert _signup_post(h)["embeds"][0]["description"].count(f"<@{BOB}>") == 1  # organiser


async def test_join_and_leave_by_the_buttons_and_the_commands(harness: Harness) -> None:
    h = harness
    await _create(h)
    post = _signup_post(h)
    post_id = int(post["id"])
    tournament_id = int(post["components"][0]["components"][0]["custom_id"].split(":")[2])
    joined = _private(await run(h, press(h, post_id, f"dama:tjoin:{tournament_id}",
                                         user=BOB)))
    assert joined.content.startswith("You joined Friday Swiss.")
    assert _players_field(h.discord.messages[post_id]) == f"<@{BOB}>"
    await run(h, _tournament(h, "join", user=CAROL))  # the channel's tournament
    assert _players_field(h.discord.messages[post_id]) == f"<@{BOB}>, <@{CAROL}>"
    twice = _private(await run(h, press(h, post_id, f"dama:tjoin:{tournament_id}", user=BOB)))
    assert twice.content == text(Msg.TOURNAMENT_ALREADY_IN, "en")
    left = _private(await run(h, press(h, post_id, f"dama:tleave:{tournament_id}", user=BOB)))
    assert left.content == "You left Friday Swiss."
    assert _players_field(h.discord.messages[post_id]) == f"<@{CAROL}>"
    numbered = _private(await run(h, _tournament(
        h, "leave", option("tournament", tournament_id, INTEGER), user=CAROL)))
    assert numbered.content.startswith("You left")


async def test_a_forged_press_is_refused_as_a_missing_tournament(harness: Harness) -> None:
    h = harness
    await _create(h)
    post = _signup_post(h)
    post_id = int(post["id"])
    tournament_id = int(post["components"][0]["components"][0]["custom_id"].split(":")[2])
    before = copy.deepcopy(h.discord.messages[post_id])
    for custom_id, guild, user in (
        (f"dama:tjoin:{tournament_id + 1}", GUILD_ID, BOB),  # no such tournament
        (f"dama:tjoin:{2**70}", GUILD_ID, BOB),  # beyond the databases' ids
        (f"dama:tjoin:{tournament_id}", OTHER_GUILD, DAVE),  # another server's
    ):
        calls = await run(h, forged_press(h, post_id, custom_id, user=user, guild_id=guild))
        answer = _private(calls)
        assert answer.content.startswith("There is no tournament #"), answer.content
    # Pressed in a channel that is neither its channel nor its thread.
    elsewhere = copy.deepcopy(h.discord.messages[post_id])
    elsewhere["channel_id"] = str(OTHER_CHANNEL)
    answer = _private(await run(h, press(h, post_id, f"dama:tjoin:{tournament_id}",
                                         user=BOB, snapshot=elsewhere)))
    assert answer.content.startswith("There is no tournament #")
    assert h.discord.messages[post_id] == before  # nothing changed, nobody joined


async def test_a_press_after_the_tournament_is_over_changes_nothing(harness: Harness) -> None:
    h = harness
    await _create(h)
    post = _signup_post(h)
    post_id = int(post["id"])
    join_id = post["components"][0]["components"][0]["custom_id"]
    ended = _private(await run(h, _tournament(h, "end", permissions=ADMIN)))
    assert ended.content == "Friday Swiss is cancelled: it had not started."
    # The post lost its buttons; a client still showing the old post presses Join.
    assert not h.discord.messages[post_id].get("components")
    late = _private(await run(h, press(h, post_id, join_id, user=BOB, snapshot=post)))
    assert late.content == text(Msg.TOURNAMENT_OVER, "en")
    assert _players_field(h.discord.messages[post_id]) == "No one has joined yet."
    # Cancelled before it had a thread: said in its channel, once.
    said = [m for m in h.discord.messages.values() if m["channel_id"] == str(CHANNEL)
            and m["content"] == text(Msg.TOURNAMENT_POST_CANCELLED, "en")]
    assert len(said) == 1


async def test_a_tournament_is_named_or_found_from_the_channel(harness: Harness) -> None:
    h = harness
    unknown = _private(await run(h, _tournament(h, "info")))
    assert unknown.content == text(Msg.TOURNAMENT_WHICH, "en")
    await _create(h)
    [info] = await run(h, _tournament(h, "info"))
    assert info.embeds[0]["title"].endswith(": Friday Swiss")
    missing = _private(await run(h, _tournament(h, "info", option("tournament", 999, INTEGER))))
    assert missing.content == text(Msg.TOURNAMENT_UNKNOWN, "en", tournament_id=999)
    # From another server, this server's tournament is a missing one.
    tournament_id = int(info.embeds[0]["title"].split("#")[1].split(":")[0])
    hidden = _private(await run(h, _tournament(
        h, "info", option("tournament", tournament_id, INTEGER), user=DAVE,
        guild_id=OTHER_GUILD, channel=OTHER_CHANNEL)))
    assert hidden.content == text(Msg.TOURNAMENT_UNKNOWN, "en", tournament_id=tournament_id)
    [listed] = await run(h, _tournament(h, "list"))
    assert f"**#{tournament_id}** Friday Swiss" in listed.embeds[0]["description"]


async def test_removing_a_player_needs_an_organiser(harness: Harness) -> None:
    h = harness
    await _create(h)
    await run(h, _tournament(h, "join", user=BOB))
    player, resolved = user_option("player", BOB)
    refused = _private(await run(h, _tournament(h, "remove", player, user=CAROL,
                                                resolved=resolved)))
    assert refused.content == text(Msg.TOURNAMENT_NOT_ITS_ORGANISER, "en")
    done = _private(await run(h, _tournament(h, "remove", player, permissions=ADMIN,
                                             resolved=resolved)))
    assert done.content == f"<@{BOB}> was removed from Friday Swiss."
    assert _players_field(_signup_post(h)) == "No one has joined yet."


async def test_the_tournament_option_suggests_this_servers_tournaments(
    harness: Harness,
) -> None:
    h = harness
    await _create(h)
    await run(h, _tournament(h, "create", option("name", "Sunday Arena"),
                             option("format", "arena"), option("variant", "italian"),
                             permissions=ADMIN, channel=CHANNEL + 50))

    async def suggested(typed: str, **where: Any) -> list[dict[str, Any]]:
        data = {"id": "1", "name": "tournament", "type": 1, "options": _sub(
            "info", option("tournament", typed, INTEGER, focused=True))}
        [auto] = await run(h, h.discord.interaction(4, data, user_id=BOB, **where))
        assert auto.callback_type == 8
        return list(auto.payload["data"]["choices"])

    listed = await suggested("", channel_id=CHANNEL)
    assert sorted(c["name"].split(" ", 1)[1] for c in listed) == ["Friday Swiss",
                                                                  "Sunday Arena"]
    assert [c["name"] for c in await suggested("sun", channel_id=CHANNEL)] == [
        f"#{c['value']} Sunday Arena" for c in listed if "Sunday" in c["name"]]
    assert await suggested("", channel_id=OTHER_CHANNEL, guild_id=OTHER_GUILD) == []


async def test_a_channel_where_the_bot_cannot_open_threads_is_refused(
    harness: Harness,
) -> None:
    h = harness
    create_public_threads, send_in_threads = 1 << 35, 1 << 38
    without = str(int(EVERYTHING) & ~(create_public_threads | send_in_threads))
    payload = _tournament(h, "create", option("name", "Friday Swiss"),
                          option("format", "swiss"), option("variant", "turkish"),
                          permissions=ADMIN, app_permissions=without)
    answer = _private(await run(h, payload))
    assert answer.content == text(Msg.TOURNAMENT_NO_THREADS, "en", channel=f"<#{CHANNEL}>")
    [listed] = await run(h, _tournament(h, "list"))
    assert listed.embeds[0]["description"].startswith("No tournament is open")


async def test_a_tournament_is_created_in_a_text_channel_only(harness: Harness) -> None:
    h = harness
    payload = _tournament(h, "create", option("name", "Friday Swiss"),
                          option("format", "swiss"), option("variant", "turkish"),
                          permissions=ADMIN)
    payload["channel"].update(  # a public thread of the channel
        type=11, parent_id=str(CHANNEL), owner_id=str(ALICE), message_count=0,
        member_count=1, thread_metadata={"archived": False, "auto_archive_duration": 1440,
                                         "archive_timestamp": TIMESTAMP, "locked": False})
    answer = _private(await run(h, payload))
    assert answer.content == text(Msg.TOURNAMENT_TEXT_CHANNEL, "en")


async def test_an_arenas_signup_post_and_the_standings_button(harness: Harness) -> None:
    h = harness
    await _create(h, option("name", "Blitz"), option("format", "arena"),
                  option("variant", "russian"), option("duration", "30m"),
                  option("rounds", 9, INTEGER))  # rounds: not an arena's, not used
    post = _signup_post(h)
    body = post["embeds"][0]["description"]
    assert body.startswith("Arena, 30 minutes · Russian draughts · 40 seconds per move")
    assert "You can also join while it runs." in body
    tournament_id = int(post["components"][0]["components"][0]["custom_id"].split(":")[2])
    # The Standings button of a results post, pressed in the tournament's channel.
    shown = _private(await run(h, forged_press(h, int(post["id"]),
                                               f"dama:tstandings:{tournament_id}", user=BOB,
                                               guild_id=GUILD_ID)))
    assert shown.embeds[0]["title"] == "Blitz: standings"
    assert shown.embeds[0]["description"] == "No results yet."


async def test_a_timed_start_is_told_to_the_organiser(harness: Harness) -> None:
    h = harness
    answer = _private(await _create(h, option("name", "Friday Swiss"),
                                    option("format", "swiss"), option("variant", "turkish"),
                                    option("start_in", 90, INTEGER)))
    starts = int((h.clock() + timedelta(minutes=90)).timestamp())
    assert f"It starts by itself <t:{starts}:R>" in answer.content
    assert f"Starts <t:{starts}:f>" in _signup_post(h)["embeds"][0]["description"]


async def test_an_event_without_create_events_is_not_made_and_the_answer_says_so(
    harness: Harness,
) -> None:
    h = harness
    without = str(int(EVERYTHING) & ~CREATE_EVENTS)
    calls = await run(h, _tournament(
        h, "create", option("name", "Friday Swiss"), option("format", "swiss"),
        option("variant", "turkish"), option("start_in", 30, INTEGER),
        option("event", True, BOOLEAN), permissions=ADMIN, app_permissions=without))
    answer = _private(calls)
    assert "is created" in answer.content
    assert answer.content.endswith(text(Msg.TOURNAMENT_EVENT_NO_PERMISSION, "en"))
    assert not [c for c in h.discord.calls if "scheduled-events" in c.path]
    _signup_post(h)  # the tournament is made all the same


async def test_an_event_without_a_start_time_is_not_made(harness: Harness) -> None:
    h = harness
    answer = _private(await run(h, _tournament(
        h, "create", option("name", "Friday Swiss"), option("format", "swiss"),
        option("variant", "turkish"), option("event", True, BOOLEAN), permissions=ADMIN)))
    assert answer.content.endswith(text(Msg.TOURNAMENT_EVENT_NO_START, "en"))
    assert not [c for c in h.discord.calls if "scheduled-events" in c.path]


async def test_ending_an_arena_says_its_games_under_way_no_longer_count(
        harness: Harness) -> None:
    """An arena's end is now: the answer does not promise final standings after the
    games under way, which do not count (docs/RULES.md, "Arena")."""
    h = harness
    await _create(h, option("name", "Blitz"), option("format", "arena"),
                  option("variant", "turkish"))
    for player in (BOB, CAROL):
        await run(h, _tournament(h, "join", user=player))
    await run(h, _tournament(h, "start", permissions=ADMIN))
    ended = _private(await run(h, _tournament(h, "end", permissions=ADMIN)))
    assert ended.content == text(Msg.TOURNAMENT_ENDED_ARENA, "en", name="Blitz")
    assert "no longer counts" in ended.content


async def test_a_channel_where_the_bot_cannot_post_embeds_and_pictures_is_refused(
    harness: Harness,
) -> None:
    """The sign-up post is an embed, the standings an embed with a picture: without
    Embed Links or Attach Files the post would show nothing but its buttons."""
    h = harness
    embed_links, attach_files = 1 << 14, 1 << 15
    without = str(int(EVERYTHING) & ~(embed_links | attach_files))
    payload = _tournament(h, "create", option("name", "Friday Swiss"),
                          option("format", "swiss"), option("variant", "turkish"),
                          permissions=ADMIN, app_permissions=without)
    answer = _private(await run(h, payload))
    assert answer.content.startswith(f"I cannot run a tournament in <#{CHANNEL}>: I am "
                                     "missing Embed Links and Attach Files there")
    [listed] = await run(h, _tournament(h, "list"))
    assert listed.embeds[0]["description"].startswith("No tournament is open")
