"""The stand-in refuses what Discord's documentation refuses (standin/limits.py): select menus
over 25 options, option labels over 100 characters, placeholders over 150, choice names and
values over 100, a command over 8,000 characters, more than 100 commands; each with
Discord's 400 answer and the `errors` tree naming the field. The largest size allowed is
accepted, so each limit is where the documentation puts it."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import aiohttp
import pytest
import pytest_asyncio

from standin import StandIn
from standin.limits import command_size

Json = dict[str, Any]


@pytest_asyncio.fixture
async def http(standin: StandIn) -> AsyncIterator[aiohttp.ClientSession]:
    headers = {"Authorization": f"Bot {standin.token}"}
    async with aiohttp.ClientSession(headers=headers) as session:
        yield session


def _select(options: int = 3, label: str = "A", placeholder: str | None = None) -> Json:
    select: Json = {
        "type": 3,
        "custom_id": "pick",
        "options": [{"label": label if i == 0 else f"o{i}", "value": f"v{i}"}
                    for i in range(options)],
    }
    if placeholder is not None:
        select["placeholder"] = placeholder
    return {"components": [{"type": 1, "components": [select]}]}


async def _post(http: aiohttp.ClientSession, url: str, body: Any, method: str = "POST",
                ) -> tuple[int, Json]:
    async with http.request(method, url, json=body) as resp:
        assert resp.headers["Content-Type"] == "application/json"
        return resp.status, await resp.json()


def _errors_at(body: Json, *path: str) -> list[Json]:
    assert body["code"] == 50035 and body["message"] == "Invalid Form Body", body
    node = body["errors"]
    for key in path:
        node = node[key]
    errors: list[Json] = node["_errors"]
    return errors


@pytest.mark.parametrize(
    ("message", "path"),
    [
        (_select(options=26), ("components", "0", "components", "0", "options")),
        (_select(label="x" * 101), ("components", "0", "components", "0", "options", "0",
                                    "label")),
        (_select(placeholder="p" * 151), ("components", "0", "components", "0",
                                          "placeholder")),
    ],
    ids=["26 options", "label of 101", "placeholder of 151"],
)
async def test_a_select_over_discords_limits_is_refused(
    standin: StandIn, http: aiohttp.ClientSession, message: Json, path: tuple[str, ...]
) -> None:
    url = f"{standin.rest_base}/channels/{standin.channel('general').id}/messages"
    status, body = await _post(http, url, {"content": "pick one", **message})
    assert status == 400
    assert _errors_at(body, *path)[0]["code"] == "BASE_TYPE_MAX_LENGTH"
    assert standin.messages("general") == []


async def test_a_select_at_discords_limits_is_accepted_with_its_defaults(
    standin: StandIn, http: aiohttp.ClientSession
) -> None:
    url = f"{standin.rest_base}/channels/{standin.channel('general').id}/messages"
    message = _select(options=25, label="x" * 100, placeholder="p" * 150)
    status, body = await _post(http, url, {"content": "pick one", **message})
    assert status == 200, body
    select = body["components"][0]["components"][0]
    assert len(select["options"]) == 25 and select["options"][0]["label"] == "x" * 100
    # Discord answers a select with its value counts and every component with an id.
    assert (select["min_values"], select["max_values"]) == (1, 1)
    assert body["components"][0]["id"] == 1 and select["id"] == 2


def _command(name: str = "pick", choices: list[Json] | None = None,
             description: str = "Pick one") -> Json:
    option: Json = {"type": 3, "name": "what", "description": "What", "required": True}
    if choices is not None:
        option["choices"] = choices
    return {"name": name, "description": description, "options": [option]}


@pytest.mark.parametrize(
    ("choice", "field"),
    [({"name": "n" * 101, "value": "v"}, "name"), ({"name": "n", "value": "v" * 101}, "value")],
    ids=["name of 101", "value of 101"],
)
async def test_a_choice_over_100_characters_is_refused(
    standin: StandIn, http: aiohttp.ClientSession, choice: Json, field: str
) -> None:
    url = f"{standin.rest_base}/applications/{standin.application_id}/commands"
    status, body = await _post(http, url, [_command(choices=[choice])], "PUT")
    assert status == 400
    assert _errors_at(body, "0", "options", "0", "choices", "0", field)
    assert standin.commands() == []
    at_limit = {"name": "n" * 100, "value": "v" * 100}
    status, body = await _post(http, url, [_command(choices=[at_limit])], "PUT")
    assert status == 200, body


def _choices(prefix: str, count: int) -> list[Json]:
    """`count` choices of 100-character names and values (200 counted characters each)."""
    return [{"name": f"{prefix}{i:02}".ljust(100, "n"), "value": f"{prefix}{i:02}".ljust(100, "v")}
            for i in range(count)]


def _command_of_size(size: int) -> Json:
    """A command of exactly `size` counted characters (7,808 to 8,006), each field within
    its own limit."""
    command: Json = {"name": "big", "description": "d", "options": [
        {"type": 3, "name": "a", "description": "a", "choices": _choices("a", 25)},
        {"type": 3, "name": "b", "description": "b", "choices": _choices("b", 14)},
    ]}
    pad = size - command_size(command)
    assert 0 <= pad <= 198
    command["description"] += "d" * min(99, pad)
    command["options"][1]["description"] += "b" * (pad - min(99, pad))
    assert command_size(command) == size
    return command


async def test_a_command_over_8000_characters_is_refused(
    standin: StandIn, http: aiohttp.ClientSession
) -> None:
    url = f"{standin.rest_base}/applications/{standin.application_id}/commands"
    status, body = await _post(http, url, [_command_of_size(8001)], "PUT")
    assert status == 400
    assert _errors_at(body, "0")[0]["code"] == "APPLICATION_COMMAND_TOO_LARGE"
    status, body = await _post(http, url, _command_of_size(8001))
    assert status == 400 and _errors_at(body)[0]["code"] == "APPLICATION_COMMAND_TOO_LARGE"
    assert standin.commands() == []
    status, body = await _post(http, url, [_command_of_size(8000)], "PUT")
    assert status == 200, body


def test_the_command_size_counts_the_longest_localization() -> None:
    command = {"name": "abc", "description": "d" * 10,
               "description_localizations": {"fr": "f" * 40, "tr": "t" * 20},
               "options": [{"type": 3, "name": "o", "description": "x",
                            "choices": [{"name": "n", "value": 12345,
                                         "name_localizations": {"it": "ii"}}]}]}
    assert command_size(command) == 3 + 40 + (1 + 1 + (2 + 5))


async def test_more_than_100_commands_are_refused(
    standin: StandIn, http: aiohttp.ClientSession
) -> None:
    url = f"{standin.rest_base}/applications/{standin.application_id}/commands"
    commands = [_command(name=f"c{i:03}") for i in range(101)]
    status, body = await _post(http, url, commands, "PUT")
    assert status == 400
    assert _errors_at(body)[0]["message"] == "Must be 100 or fewer in length."
    assert standin.commands() == []
    status, body = await _post(http, url, commands[:100], "PUT")
    assert status == 200 and len(body) == 100
    status, body = await _post(http, url, commands[100])
    assert status == 400 and body["code"] == 30032
    status, body = await _post(http, url, commands[0])  # replacing one stays allowed
    assert status == 200
    assert len(standin.commands()) == 100
