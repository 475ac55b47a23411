"""Create Message with `nonce` and `enforce_nonce`, as Discord documents them
(developer docs, Messages resource, "Create Message" JSON params): "If true and nonce is
present, it will be checked for uniqueness in the past few minutes. If another message
was created by the same author with the same nonce, that message will be returned and no
new message will be created." The nonce is "an integer or string", "up to 25
characters", and appears in the message and its Message Create event. A nonce whose
message was deleted shortly before gives 404 (discord.py's `Messageable.send` docs).
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import aiohttp
import discord
import pytest
import pytest_asyncio

from standin import EventKind, StandIn
from tests.support.standin_probe_bot import ProbeBot, running

Json = dict[str, Any]


@pytest_asyncio.fixture
async def http(standin: StandIn) -> AsyncIterator[aiohttp.ClientSession]:
    headers = {"Authorization": f"Bot {standin.token}"}
    async with aiohttp.ClientSession(headers=headers) as session:
        yield session


async def _post(http: aiohttp.ClientSession, standin: StandIn, channel: str,
                body: Json) -> tuple[int, Json]:
    url = f"{standin.rest_base}/channels/{standin.channel(channel).id}/messages"
    async with http.post(url, json=body) as resp:
        return resp.status, dict(await resp.json())


def _created(standin: StandIn) -> int:
    return sum(1 for event in standin.events if event.kind is EventKind.CREATE)


async def test_same_nonce_enforced_returns_the_first_message(
    standin: StandIn, http: aiohttp.ClientSession
) -> None:
    body = {"content": "board after ply 12", "nonce": "game-7-ply-12", "enforce_nonce": True}
    status, first = await _post(http, standin, "general", body)
    assert status == 200 and first["nonce"] == "game-7-ply-12"
    created = _created(standin)
    status, again = await _post(http, standin, "general", {**body, "content": "changed"})
    assert status == 200
    assert again["id"] == first["id"] and again["content"] == "board after ply 12"
    assert _created(standin) == created  # no new message, no MESSAGE_CREATE
    assert len(standin.messages("general")) == 1


async def test_the_first_message_is_returned_as_it_is_now(
    standin: StandIn, http: aiohttp.ClientSession
) -> None:
    body = {"content": "v1", "nonce": "991", "enforce_nonce": True}
    _, first = await _post(http, standin, "general", body)
    url = f"{standin.rest_base}/channels/{first['channel_id']}/messages/{first['id']}"
    async with http.patch(url, json={"content": "v2"}) as resp:
        assert resp.status == 200
    _, again = await _post(http, standin, "general", {**body, "nonce": 991})  # same nonce
    assert again["id"] == first["id"] and again["content"] == "v2"


async def test_same_author_same_nonce_in_another_channel(
    standin: StandIn, http: aiohttp.ClientSession
) -> None:
    # The documentation scopes the check by author, not by channel.
    body = {"content": "hello", "nonce": "n-1", "enforce_nonce": True}
    _, first = await _post(http, standin, "general", body)
    _, again = await _post(http, standin, "games", body)
    assert again["id"] == first["id"] and again["channel_id"] == first["channel_id"]
    assert standin.messages("games") == []


async def test_without_enforce_nonce_every_create_is_a_new_message(
    standin: StandIn, http: aiohttp.ClientSession
) -> None:
    for enforce in (None, False):
        body: Json = {"content": "same", "nonce": f"plain-{enforce}"}
        if enforce is not None:
            body["enforce_nonce"] = enforce
        _, first = await _post(http, standin, "general", body)
        _, second = await _post(http, standin, "general", body)
        assert first["id"] != second["id"] and second["nonce"] == body["nonce"]
    _, no_nonce_1 = await _post(http, standin, "general",
                                {"content": "x", "enforce_nonce": True})
    _, no_nonce_2 = await _post(http, standin, "general",
                                {"content": "x", "enforce_nonce": True})
    assert no_nonce_1["id"] != no_nonce_2["id"] and "nonce" not in no_nonce_1
    assert len(standin.messages("general")) == 6


async def test_deleted_first_message_gives_unknown_message(
    standin: StandIn, http: aiohttp.ClientSession
) -> None:
    body = {"content": "gone soon", "nonce": "to-delete", "enforce_nonce": True}
    _, first = await _post(http, standin, "general", body)
    url = f"{standin.rest_base}/channels/{first['channel_id']}/messages/{first['id']}"
    async with http.delete(url) as resp:
        assert resp.status == 204
    status, error = await _post(http, standin, "general", body)
    assert status == 404 and error["code"] == 10008
    assert standin.messages("general") == []


async def test_nonce_forgotten_after_the_window() -> None:
    async with StandIn(nonce_window=120.0) as standin:
        now = [1000.0]
        standin.core.nonces.clock = lambda: now[0]  # the window's clock, moved by hand
        await standin.add_guild("Dama Club", channels=("general",))
        headers = {"Authorization": f"Bot {standin.token}"}
        async with aiohttp.ClientSession(headers=headers) as http:
            body = {"content": "once", "nonce": "short", "enforce_nonce": True}
            _, first = await _post(http, standin, "general", body)
            now[0] += 119.0
            _, within = await _post(http, standin, "general", body)
            now[0] += 2.0  # 121 s after the first
            _, after = await _post(http, standin, "general", body)
    assert within["id"] == first["id"] and after["id"] != first["id"]


@pytest.mark.parametrize(("nonce", "enforce", "field"), [
    ("x" * 26, True, "nonce"),
    (["a"], True, "nonce"),
    (True, True, "nonce"),
    ("fine", "yes", "enforce_nonce"),
])
async def test_invalid_nonce_is_a_form_error(
    standin: StandIn, http: aiohttp.ClientSession, nonce: object, enforce: object, field: str
) -> None:
    status, error = await _post(http, standin, "general",
                                {"content": "x", "nonce": nonce, "enforce_nonce": enforce})
    assert status == 400 and error["code"] == 50035 and field in error["errors"]
    assert standin.messages("general") == []


async def test_a_25_character_nonce_is_accepted(
    standin: StandIn, http: aiohttp.ClientSession
) -> None:
    status, message = await _post(http, standin, "general",
                                  {"content": "x", "nonce": "n" * 25, "enforce_nonce": True})
    assert status == 200 and message["nonce"] == "n" * 25


async def test_discord_py_send_with_a_nonce_twice_gives_one_message(standin: StandIn) -> None:
    """discord.py sends `nonce` with `enforce_nonce` on every `send`: a bot that sends the
    same announcement twice with its own nonce (after a restart, say) gets the first
    message back, and the channel shows it once."""
    bot = ProbeBot()
    async with running(standin, bot):
        channel = bot.get_channel(standin.channel("general").id)
        assert isinstance(channel, discord.TextChannel)
        first = await channel.send("board of game 7, ply 12", nonce="dama-7-12")
        again = await channel.send("board of game 7, ply 12", nonce="dama-7-12")
        other = await channel.send("board of game 7, ply 13", nonce="dama-7-13")
        unnamed_1 = await channel.send("no nonce of ours")
        unnamed_2 = await channel.send("no nonce of ours")
    assert again.id == first.id and other.id != first.id
    assert first.nonce == "dama-7-12"
    assert unnamed_1.id != unnamed_2.id  # discord.py's own random nonces differ
    texts = [m.content for m in standin.messages("general")]
    assert texts.count("board of game 7, ply 12") == 1 and len(texts) == 4
