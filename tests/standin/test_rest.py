"""REST answers as Discord gives them: auth, Content-Type, error codes, validation limits,
multipart uploads and the attachment rules of edits (Discord developer docs)."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from typing import Any

import aiohttp
import pytest
import pytest_asyncio

from standin import Permission, StandIn

Json = dict[str, Any]


@pytest_asyncio.fixture
async def http(standin: StandIn) -> AsyncIterator[aiohttp.ClientSession]:
    headers = {"Authorization": f"Bot {standin.token}"}
    async with aiohttp.ClientSession(headers=headers) as session:
        yield session


async def _json(resp: aiohttp.ClientResponse) -> Json:
    assert resp.headers["Content-Type"] == "application/json"
    return dict(await resp.json())


def _multipart(payload: Json, files: list[tuple[str, bytes]]) -> aiohttp.FormData:
    form = aiohttp.FormData(quote_fields=False)
    form.add_field("payload_json", json.dumps(payload))
    for index, (name, data) in enumerate(files):
        form.add_field(
            f"files[{index}]", data, filename=name, content_type="application/octet-stream"
        )
    return form


async def test_auth_and_unknown_routes(standin: StandIn, http: aiohttp.ClientSession) -> None:
    async with (
        aiohttp.ClientSession() as anonymous,
        anonymous.get(f"{standin.rest_base}/users/@me") as resp,
    ):
        assert resp.status == 401
        assert (await _json(resp))["code"] == 0
    async with http.get(f"{standin.rest_base}/users/@me") as resp:
        assert resp.status == 200 and (await _json(resp))["id"] == str(standin.bot.id)
    async with http.get(f"{standin.rest_base}/no/such/route") as resp:
        assert resp.status == 404 and await _json(resp) == {"message": "404: Not Found", "code": 0}
    async with http.get(f"{standin.rest_base}/channels/42/messages") as resp:
        assert resp.status == 404 and (await _json(resp))["code"] == 10003
    async with http.post(
        f"{standin.rest_base}/interactions/42/nope/callback", json={"type": 4}
    ) as resp:
        assert resp.status == 404 and (await _json(resp))["code"] == 10062
    async with http.post(f"{standin.rest_base}/webhooks/{standin.application_id}/nope") as resp:
        assert resp.status == 404 and (await _json(resp))["code"] == 10015


@pytest.mark.parametrize(
    ("commands", "path"),
    [
        ([{"name": "Bad Name", "description": "x"}], ("0", "name")),
        ([{"name": "move", "description": ""}], ("0", "description")),
        (
            [
                {
                    "name": "move",
                    "description": "x",
                    "options": [
                        {"type": 3, "name": "a", "description": "a"},
                        {"type": 3, "name": "b", "description": "b", "required": True},
                    ],
                }
            ],
            ("0", "options", "1", "required"),
        ),
        (
            [{"name": "move", "description": "x"}, {"name": "move", "description": "y"}],
            ("1", "name"),
        ),
        ([{"name": "move", "description": "x", "type": "chat"}], ("0", "type")),
        (
            [{"name": "move", "description": "x", "options": [{"name": "a", "description": "a"}]}],
            ("0", "options", "0", "type"),
        ),
        # Localizations (Discord's Localization rules): a real locale (none for Arabic),
        # a name under the name rules, a description of 1-100, names unique per locale.
        (
            [{"name": "move", "description": "x", "name_localizations": {"ar": "نقلة"}}],
            ("0", "name_localizations", "ar"),
        ),
        (
            [{"name": "move", "description": "x", "name_localizations": {"tr": "Hamle Yap"}}],
            ("0", "name_localizations", "tr"),
        ),
        (
            [{"name": "move", "description": "x", "description_localizations": {"fr": ""}}],
            ("0", "description_localizations", "fr"),
        ),
        (
            [{"name": "move", "description": "x", "options": [
                {"type": 3, "name": "a", "description": "a",
                 "name_localizations": {"it": "x" * 33}}]}],
            ("0", "options", "0", "name_localizations", "it"),
        ),
        (
            [{"name": "move", "description": "x", "options": [
                {"type": 3, "name": "a", "description": "a",
                 "choices": [{"name": "A", "value": "a", "name_localizations": {"fr": ""}}]}]}],
            ("0", "options", "0", "choices", "0", "name_localizations", "fr"),
        ),
        (
            [{"name": "move", "description": "x", "name_localizations": {"it": "mossa"}},
             {"name": "play", "description": "y", "name_localizations": {"it": "mossa"}}],
            ("1", "name_localizations", "it"),
        ),
        (
            [{"name": "move", "description": "x", "options": [
                {"type": 3, "name": "a", "description": "a", "name_localizations": {"fr": "b"}},
                {"type": 3, "name": "b", "description": "b"}]}],
            ("0", "options", "1", "name_localizations", "fr"),
        ),
    ],
)
async def test_invalid_commands_are_refused(
    standin: StandIn, http: aiohttp.ClientSession, commands: list[Json], path: tuple[str, ...]
) -> None:
    url = f"{standin.rest_base}/applications/{standin.application_id}/commands"
    async with http.put(url, json=commands) as resp:
        assert resp.status == 400
        body = await _json(resp)
    assert body["code"] == 50035 and body["message"] == "Invalid Form Body"
    node = body["errors"]
    for key in path:
        node = node[key]
    assert node["_errors"]
    assert standin.commands() == []


async def test_message_limits(standin: StandIn, http: aiohttp.ClientSession) -> None:
    url = f"{standin.rest_base}/channels/{standin.channel('general').id}/messages"
    button: Json = {"type": 2, "style": 1, "label": "A", "custom_id": "a"}
    row: Json = {"type": 1, "components": [button]}
    bad = [
        {"content": "x" * 2001},
        {"embeds": [{"title": "t"}] * 11},
        {"embeds": [{"description": "d" * 4097}]},
        {"components": [row] * 6},
        {"components": [{"type": 1, "components": [{"type": 2, "style": 1, "label": "A"}]}]},
        {"components": [{"type": 1, "components": [button] * 2}]},
        {"content": "x", "flags": 64},  # ephemeral exists only for interaction answers
        {"content": "x", "flags": 1 << 15, "components": [{"type": 10, "content": "t"}]},
    ]
    for body in bad:
        async with http.post(url, json=body) as resp:
            assert resp.status == 400, body
            assert (await _json(resp))["code"] == 50035
    reply = {"content": "x", "message_reference": {"message_id": "not a number"}}
    async with http.post(url, json=reply) as resp:
        assert resp.status == 400 and (await _json(resp))["code"] == 50035
    async with http.post(url, json={"content": ""}) as resp:
        assert resp.status == 400 and (await _json(resp))["code"] == 50006
    rows = [
        {
            "type": 1,
            "components": [
                {"type": 2, "style": 1, "label": "A", "custom_id": f"r{r}b{b}"} for b in range(5)
            ],
        }
        for r in range(5)
    ]
    async with http.post(url, json={"content": "x" * 2000, "components": rows}) as resp:
        assert resp.status == 200
    assert len(standin.messages("general")) == 1
    assert standin.internal_errors == []


async def test_uploads_and_attachment_edits(standin: StandIn, http: aiohttp.ClientSession) -> None:
    channel = standin.channel("general")
    url = f"{standin.rest_base}/channels/{channel.id}/messages"
    form = _multipart(
        {"content": "files", "attachments": [{"id": 0, "description": "first"}, {"id": 1}]},
        [("a.txt", b"alpha"), ("b.pdn", b"[Event]")],
    )
    async with http.post(url, data=form) as resp:
        message = await _json(resp)
    first, second = message["attachments"]
    assert (first["filename"], first["size"], first["description"]) == ("a.txt", 5, "first")
    async with http.get(second["url"]) as resp:
        assert await resp.read() == b"[Event]"
    # Keep only the second one and add a new file (Edit Message: attachments = what stays).
    form = _multipart({"attachments": [{"id": second["id"]}, {"id": 0}]}, [("c.txt", b"gamma")])
    async with http.patch(f"{url}/{message['id']}", data=form) as resp:
        edited = await _json(resp)
    assert [a["filename"] for a in edited["attachments"]] == ["b.pdn", "c.txt"]
    assert edited["content"] == "files" and edited["edited_timestamp"] is not None
    # Without `attachments`, uploads are appended.
    async with http.patch(f"{url}/{message['id']}", data=_multipart({}, [("d.txt", b"d")])) as resp:
        assert [a["filename"] for a in (await _json(resp))["attachments"]] == [
            "b.pdn",
            "c.txt",
            "d.txt",
        ]
    async with http.get(f"{standin.url}/attachments/1/missing.png") as resp:
        assert resp.status == 404


async def test_permissions_and_other_users_messages(
    standin: StandIn, http: aiohttp.ClientSession
) -> None:
    games = standin.channel("games")
    await standin.set_permissions(games, standin.bot, deny=int(Permission.SEND_MESSAGES))
    async with http.post(
        f"{standin.rest_base}/channels/{games.id}/messages", json={"content": "hi"}
    ) as resp:
        assert resp.status == 403 and (await _json(resp))["code"] == 50013
    said = await standin.say("alice", "general", "mine")
    base = f"{standin.rest_base}/channels/{said.channel_id}/messages/{said.id}"
    async with http.patch(base, json={"content": "changed"}) as resp:
        assert resp.status == 403 and (await _json(resp))["code"] == 50005
    async with http.delete(base) as resp:  # the bot lacks Manage Messages by default
        assert resp.status == 403 and (await _json(resp))["code"] == 50013
    async with http.get(f"{base}") as resp:
        assert (await _json(resp))["content"] == "mine"


async def test_uploads_over_the_limit_are_refused() -> None:
    async with StandIn(attachment_size_limit=8) as standin:
        await standin.add_guild("Small")
        url = f"{standin.rest_base}/channels/{standin.channel('general').id}/messages"
        headers = {"Authorization": f"Bot {standin.token}"}
        async with aiohttp.ClientSession(headers=headers) as http:
            form = _multipart({"content": "big"}, [("big.bin", b"123456789")])
            async with http.post(url, data=form) as resp:
                assert resp.status == 413 and (await _json(resp))["code"] == 40005
            form = _multipart({"content": "small"}, [("small.bin", b"12345678")])
            async with http.post(url, data=form) as resp:
                assert resp.status == 200


async def test_threads_by_rest(standin: StandIn, http: aiohttp.ClientSession) -> None:
    general = standin.channel("general")
    api = standin.rest_base
    async with http.post(
        f"{api}/channels/{general.id}/messages", json={"content": "game starts"}
    ) as resp:
        start = await _json(resp)
    async with http.post(
        f"{api}/channels/{general.id}/messages/{start['id']}/threads", json={"name": "game 1"}
    ) as resp:
        assert resp.status == 201
        thread = await _json(resp)
    assert thread["id"] == start["id"] and thread["type"] == 11  # named after its message
    async with http.patch(f"{api}/channels/{thread['id']}", json={"archived": True}) as resp:
        assert (await _json(resp))["thread_metadata"]["archived"] is True
    # Posting in an archived (unlocked) thread opens it again, as on Discord.
    async with http.post(f"{api}/channels/{thread['id']}/messages", json={"content": "1."}):
        pass
    async with http.get(f"{api}/channels/{thread['id']}") as resp:
        assert (await _json(resp))["thread_metadata"]["archived"] is False
    async with http.get(f"{api}/guilds/{general.guild_id}/threads/active") as resp:
        assert [t["name"] for t in (await _json(resp))["threads"]] == ["game 1"]
