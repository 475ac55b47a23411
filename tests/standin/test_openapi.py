"""The stand-in's test mode against Discord's OpenAPI specification (standin/openapi.py): the
operation found by route and method, request and answer bodies validated, each failure
reported with its route, JSON pointer and message, and the allow-list of the
specification's own gaps doing what it says and nothing more."""

from __future__ import annotations

import asyncio

import aiohttp
import pytest
from yarl import URL

from standin import StandIn
from standin.openapi import (
    Direction,
    OpenApiCheck,
    Violation,
    checking_by_default,
    default_check,
)
from tests.support.discord_spec import SPEC_PATH

MESSAGES = "/api/v10/channels/1/messages"


@pytest.fixture(scope="module")
def check() -> OpenApiCheck:
    """A check of its own (the shared one collects the other tests' traffic)."""
    return OpenApiCheck(SPEC_PATH)


@pytest.fixture(scope="module")
def unamended() -> OpenApiCheck:
    """The specification as published, without the allow-list's amendments."""
    return OpenApiCheck(SPEC_PATH, gaps=())


def test_the_route_with_more_literal_segments_wins(check: OpenApiCheck) -> None:
    assert check.route("/api/v10/users/@me") == "/users/@me"
    assert check.route("/api/v10/users/42") == "/users/{user_id}"
    assert (check.route("/api/v10/webhooks/1/abc/messages/@original")
            == "/webhooks/{webhook_id}/{webhook_token}/messages/@original")
    assert check.route("/api/v10/no/such/route") is None


def test_a_request_failure_names_the_route_the_pointer_and_the_message(
    check: OpenApiCheck,
) -> None:
    check.take_violations()
    check.check_request("POST", MESSAGES, "application/json",
                        {"content": "hi", "embeds": [{"title": 7}]})
    (violation,) = check.take_violations()
    assert violation == Violation(Direction.REQUEST, "POST", "/channels/{channel_id}/messages",
                                  None, "/embeds/0/title", violation.message)
    assert "7 is not of type 'string'" in violation.message
    assert str(violation).startswith(
        "POST /channels/{channel_id}/messages request at /embeds/0/title: ")


def test_a_valid_request_and_answer_pass(check: OpenApiCheck) -> None:
    check.take_violations()
    check.check_request("POST", MESSAGES, "application/json", {"content": "hi"})
    check.check_response("POST", MESSAGES, 400, {"code": 50035, "message": "Invalid Form Body",
                                                 "errors": {"content": {"_errors": [
                                                     {"code": "BASE_TYPE_MAX_LENGTH",
                                                      "message": "Must be 2000 or fewer."}]}}})
    check.check_response("DELETE", "/api/v10/channels/1/messages/2", 204, None)
    assert check.take_violations() == []


def test_unknown_routes_methods_and_statuses_are_reported(check: OpenApiCheck) -> None:
    check.take_violations()
    check.check_request("GET", "/api/v10/no/such/route", "", None)
    check.check_request("PUT", MESSAGES, "application/json", {})
    check.check_response("GET", "/api/v10/users/@me", 302, None)
    check.check_response("DELETE", "/api/v10/channels/1/messages/2", 204, {"id": "2"})
    messages = [(v.direction, v.route, v.message) for v in check.take_violations()]
    assert messages[0] == (Direction.REQUEST, "/api/v10/no/such/route",
                           "no such route in the specification")
    assert messages[1][2] == "the specification has no PUT for /channels/{channel_id}/messages"
    assert messages[2][2].startswith("the specification lists no status 302 here")
    assert messages[3] == (Direction.RESPONSE, "/channels/{channel_id}/messages/{message_id}",
                           "the specification has no body for this status")


def test_an_answer_of_the_wrong_shape_is_reported_at_the_failing_field(
    check: OpenApiCheck,
) -> None:
    check.take_violations()
    check.check_response("POST", "/api/v10/interactions/1/token/callback", 200,
                         {"interaction": {"id": "1", "type": 2},
                          "resource": {"type": 8}})
    violations = check.take_violations()
    assert violations and all(v.pointer.startswith("/resource") for v in violations)
    assert all(v.status == 200 and v.direction is Direction.RESPONSE for v in violations)


@pytest.mark.parametrize(
    "body",
    [
        {"content": "x", "attachments": [{"id": 0}]},
        {"content": "x", "message_reference": {"message_id": 42, "channel_id": 7}},
    ],
    ids=["attachment index", "reply reference"],
)
def test_integer_snowflakes_from_discord_py_are_allowed_only_by_the_allow_list(
    check: OpenApiCheck, unamended: OpenApiCheck, body: dict[str, object]
) -> None:
    for each in (check, unamended):
        each.take_violations()
        each.check_request("POST", MESSAGES, "application/json", body)
    assert check.take_violations() == []
    assert unamended.take_violations()


def test_channel_type_16_is_allowed_only_by_the_allow_list(
    check: OpenApiCheck, unamended: OpenApiCheck
) -> None:
    command = [{"name": "where", "description": "Where", "options": [
        {"type": 7, "name": "channel", "description": "A channel", "channel_types": [0, 16]}]}]
    for each in (check, unamended):
        each.take_violations()
        each.check_request("PUT", "/api/v10/applications/1/commands", "application/json",
                           command)
    assert check.take_violations() == []
    (violation,) = unamended.take_violations()
    assert violation.pointer == "/0/options/0/channel_types/1"


def test_the_allow_list_still_catches_a_wrong_snowflake(check: OpenApiCheck) -> None:
    check.take_violations()
    check.check_request("POST", MESSAGES, "application/json",
                        {"content": "x", "attachments": [{"id": -1}]})
    assert [v.pointer for v in check.take_violations()] == ["/attachments/0/id"]


async def test_the_stand_in_reports_a_bad_request_and_still_answers_as_before() -> None:
    own = OpenApiCheck(SPEC_PATH)
    async with StandIn(openapi_check=own) as standin:
        await standin.add_guild("Dama Club", channels=("general",))
        url = f"{standin.rest_base}/channels/{standin.channel('general').id}/messages"
        headers = {"Authorization": f"Bot {standin.token}"}
        async with aiohttp.ClientSession(headers=headers) as http:
            async with http.post(url, json={"content": "hi", "tts": "loud"}) as resp:
                assert resp.status == 200
            async with http.post(url, json={"content": 5}) as resp:
                assert resp.status == 400
    violations = own.take_violations()
    assert [(v.direction, v.route, v.pointer) for v in violations] == [
        (Direction.REQUEST, "/channels/{channel_id}/messages", "/tts"),
        (Direction.REQUEST, "/channels/{channel_id}/messages", "/content"),
    ], violations


def test_a_stand_in_uses_the_default_check_only_within_its_block(
    check: OpenApiCheck,
) -> None:
    before = default_check()
    with checking_by_default(check):
        assert StandIn().rest.openapi_check is check
    assert default_check() is before
    assert StandIn(openapi_check=check).rest.openapi_check is check


def test_a_wrong_component_is_reported_at_its_own_field(check: OpenApiCheck) -> None:
    """Components are a union told apart by `type`: a wrong field of a button is reported
    at that field, and a type no branch has still fails."""
    check.take_violations()
    button = {"type": 2, "style": "big", "label": "A", "custom_id": "a"}
    check.check_request("POST", MESSAGES, "application/json",
                        {"components": [{"type": 1, "components": [button]}]})
    assert {v.pointer for v in check.take_violations()} == {
        "/components/0/components/0/style"}
    check.check_request("POST", MESSAGES, "application/json",
                        {"components": [{"type": 1, "components": [{"type": 99}]}]})
    assert check.take_violations()
    check.check_request("POST", MESSAGES, "application/json",
                        {"components": [{"type": 1, "components": [{**button, "style": 1}]}]})
    assert check.take_violations() == []


@pytest.mark.parametrize(
    ("content_type", "partial_body"),
    [
        ("multipart/form-data; boundary=b0", b'--b0\r\nContent-Disposition: form-data; name="pay'),
        ("application/json", b'{"type": 4, "data": {"cont'),
    ],
)
async def test_a_request_whose_client_dies_mid_body_is_neither_checked_nor_a_failure(
    content_type: str, partial_body: bytes
) -> None:
    """A bot killed while it sends a request leaves half a body: Discord never receives such
    a request, so the stand-in neither reports it as breaking the specification nor counts
    it among its own failures."""
    own = OpenApiCheck(SPEC_PATH)
    async with StandIn(openapi_check=own) as standin:
        url = URL(standin.rest_base)
        path = f"{url.path}/interactions/1/token/callback"
        _reader, writer = await asyncio.open_connection(url.host, url.port)
        writer.write(
            f"POST {path} HTTP/1.1\r\nHost: {url.host}\r\nContent-Type: {content_type}\r\n"
            f"Content-Length: 4096\r\n\r\n".encode() + partial_body
        )
        await writer.drain()
        await asyncio.sleep(0.2)  # the handler is now waiting for the rest of the body
        writer.close()
        await writer.wait_closed()
        for _ in range(100):
            if standin.rest.request_log:
                break
            await asyncio.sleep(0.02)
        assert standin.rest.request_log == [("POST", path, 499)]
        assert standin.rest.internal_errors == []
    assert own.take_violations() == []
