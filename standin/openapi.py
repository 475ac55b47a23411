"""A test mode: every REST request to the stand-in and every answer it gives, checked against
Discord's own OpenAPI 3.1 specification (github.com/discord/discord-api-spec,
`specs/openapi.json`).

    check = OpenApiCheck(Path("tests/data/discord-api-spec/openapi.json"))
    async with StandIn(openapi_check=check) as standin:
        ...
    assert not check.take_violations()

A request's path (under `/api/v10`) and method name the specification's operation (the
template with the most literal segments wins: `/users/@me` over `/users/{user_id}`); its
JSON body (or a multipart body's `payload_json`) is validated against the operation's
request schema, and the answer's body against the schema of its status (exact, then `4XX`,
then `default`). Every failure is kept as a `Violation` (route, JSON pointer, message);
the stand-in's behaviour does not change.

The JSON Schema 2020-12 validator is the `jsonschema` package (with `referencing`), imported
only when an `OpenApiCheck` is made: the stand-in itself needs only aiohttp and the
standard library (docs/ARCHITECTURE.md, import directions). `KNOWN_GAPS` lists where the
specification itself is wrong and how it is amended before use.
"""

from __future__ import annotations

import enum
import importlib
import json
import re
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

API_PREFIX = "/api/v10"
"""The stand-in's REST prefix; the specification's paths start after it."""

SPEC_URI = "https://discord.com/api/v10/openapi.json"
"""The identifier the specification document is registered under for `$ref` resolution."""

MESSAGE_LIMIT = 300
"""Characters of a validator message kept (its messages quote whole instances)."""


class Direction(enum.Enum):
    """Which half of an exchange a violation is in."""

    REQUEST = "request"
    RESPONSE = "response"


@dataclass(frozen=True)
class Violation:
    """One failure of the specification: `route` is the specification's path template (or
    the request's path when no template matches), `status` the answer's status (None for a
    request), `pointer` the JSON pointer (RFC 6901) of the failing value in the body."""

    direction: Direction
    method: str
    route: str
    status: int | None
    pointer: str
    message: str

    def __str__(self) -> str:
        where = self.direction.value if self.status is None else f"answer {self.status}"
        return f"{self.method} {self.route} {where} at {self.pointer or '/'}: {self.message}"


Json = dict[str, Any]


@dataclass(frozen=True)
class KnownGap:
    """A place where Discord's specification disagrees with Discord, and the amendment made
    to the loaded specification (`amend` changes `components.schemas` in place)."""

    reason: str
    amend: Callable[[Json], None]


def _channel_type_16(schemas: Json) -> None:
    schemas["ChannelTypes"]["oneOf"].append(
        {"title": "GUILD_MEDIA", "description": "Channel that can only contain threads, "
         "similar to GUILD_FORUM channels", "const": 16}
    )


INTEGER_SNOWFLAKES = {
    "MessageAttachmentRequest": ("id",),
    "MessageReferenceRequest": ("message_id", "channel_id", "guild_id"),
    "CreatePrivateChannelRequest": ("recipient_id",),
}
"""Request fields where discord.py sends a snowflake (or an attachment's index) as an
integer."""


def _integer_snowflakes(schemas: Json) -> None:
    for schema, fields in INTEGER_SNOWFLAKES.items():
        for name in fields:
            schemas[schema]["properties"][name] = {
                "anyOf": [schemas[schema]["properties"][name], {"type": "integer", "minimum": 0}]
            }


def _field_error_codes(schemas: Json) -> None:
    schemas["InnerErrors"]["properties"]["_errors"]["items"] = {
        "type": "object",
        "properties": {"code": {"type": "string"}, "message": {"type": "string"}},
        "required": ["code", "message"],
    }


KNOWN_GAPS: tuple[KnownGap, ...] = (
    KnownGap(
        "The channel type 16, GUILD_MEDIA (Discord developer docs, Resources > Channel, "
        "Channel Types), is missing from the specification's `ChannelTypes`; discord.py "
        "offers it among a channel option's `channel_types`.",
        _channel_type_16,
    ),
    KnownGap(
        "discord.py sends some snowflakes as integers (`INTEGER_SNOWFLAKES`: an attachment's "
        "`id` in `attachments`, the index of a new file or a kept one's id; a reply's "
        "`message_reference`; a DM's `recipient_id`), which Discord accepts; the "
        "specification types them as snowflake strings only (its README: \"Some fields "
        "typed as strings in our docs may be typed as ints in the spec\", and the reverse "
        "holds here).",
        _integer_snowflakes,
    ),
    KnownGap(
        "A field's errors in an `errors` tree carry a string code (\"BASE_TYPE_REQUIRED\": "
        "Discord developer docs, Topics > Opcodes and Status Codes, Example JSON Error "
        "Response); the specification types every error's `code` as an integer.",
        _field_error_codes,
    ),
)
"""The allow-list: the specification's own known gaps, amended before any check."""


@dataclass(frozen=True)
class _Operation:
    route: str
    request: tuple[Json, str] | None  # the request body object and its pointer
    responses: dict[str, tuple[Json, str]]  # status key -> response object and its pointer


def _literal_count(template: str) -> tuple[bool, ...]:
    return tuple(not segment.startswith("{") for segment in template.strip("/").split("/"))


class OpenApiCheck:
    """The specification loaded from `spec_path`, amended by `gaps`, and the violations seen.

    Raises `ImportError` when `jsonschema` is not installed (it is in the `test` extra),
    `OSError` or `ValueError` when the file cannot be read as JSON. `violations` is guarded
    by a lock: stand-ins on several threads' loops may share one check.
    """

    def __init__(self, spec_path: Path, *, gaps: tuple[KnownGap, ...] = KNOWN_GAPS) -> None:
        # Test mode only (see the module docstring). jsonschema has no type stubs: its
        # validator class is used as `Any`.
        jsonschema = importlib.import_module("jsonschema")
        import referencing
        import referencing.jsonschema

        self.spec_path = spec_path
        spec: Json = json.loads(spec_path.read_text(encoding="utf-8"))
        for gap in gaps:
            gap.amend(spec["components"]["schemas"])
        _mark_type_unions(spec, spec)
        self._spec = spec
        resource = referencing.Resource.from_contents(
            spec, default_specification=referencing.jsonschema.DRAFT202012
        )
        self._registry: Any = referencing.Registry().with_resource(SPEC_URI, resource)
        base = jsonschema.Draft202012Validator
        self._validator_class: Any = jsonschema.validators.extend(base, {
            "oneOf": _by_type(base.VALIDATORS["oneOf"]),
            "anyOf": _by_type(base.VALIDATORS["anyOf"]),
        })
        self._templates: list[tuple[re.Pattern[str], str]] = []
        for template in sorted(spec["paths"], key=_literal_count, reverse=True):
            pattern = re.sub(r"\\\{[^/]+?\\\}", "[^/]+", re.escape(template))
            self._templates.append((re.compile(f"^{pattern}/?$"), template))
        self._validators: dict[str, Any] = {}
        self._lock = threading.Lock()
        self.violations: list[Violation] = []

    # ---- looking up -----------------------------------------------------------------
    def _resolve(self, node: Any, pointer: str) -> tuple[Any, str]:
        """A node of the specification and its pointer, following `$ref`s."""
        while isinstance(node, dict) and set(node) == {"$ref"}:
            pointer = node["$ref"].removeprefix("#")
            node = self._spec
            for part in pointer.removeprefix("/").split("/"):
                node = node[_unescape(part)]
        return node, pointer

    def route(self, path: str) -> str | None:
        """The specification's path template for a request path (with or without the
        `/api/v10` prefix); None when no template matches."""
        path = path.removeprefix(API_PREFIX)
        for pattern, template in self._templates:
            if pattern.match(path):
                return template
        return None

    def _operation(self, method: str, path: str) -> _Operation | str:
        route = self.route(path)
        if route is None:
            return "no such route in the specification"
        operation = self._spec["paths"][route].get(method.lower())
        if operation is None:
            return f"the specification has no {method} for {route}"
        at = f"/paths/{_escape(route)}/{method.lower()}"
        body = operation.get("requestBody")
        responses = {
            key: self._resolve(value, f"{at}/responses/{_escape(key)}")
            for key, value in operation.get("responses", {}).items()
        }
        return _Operation(
            route=route,
            request=None if body is None else self._resolve(body, f"{at}/requestBody"),
            responses=responses,
        )

    def _media_schema(self, holder: tuple[Json, str], content_type: str) -> str | None:
        """The pointer of the schema for `content_type` (else JSON's) in a request body or
        response object; None when it has none."""
        node, pointer = holder
        content = node.get("content") or {}
        for media in (content_type, "application/json", *content):
            if media in content:
                return f"{pointer}/content/{_escape(media)}/schema"
        return None

    def _errors(self, schema_pointer: str, instance: Any) -> Iterator[tuple[str, str]]:
        """(JSON pointer, message) of each failure of `instance` against the schema at
        `schema_pointer` in the specification (a failed union: its likely branch's, `_leaves`)."""
        validator = self._validators.get(schema_pointer)
        if validator is None:
            validator = self._validator_class({"$ref": f"{SPEC_URI}#{schema_pointer}"},
                                              registry=self._registry)
            self._validators[schema_pointer] = validator
        for error in validator.iter_errors(instance):
            for leaf in _leaves(error):
                pointer = "".join("/" + _escape(str(part)) for part in leaf.absolute_path)
                message = leaf.message
                if len(message) > MESSAGE_LIMIT:
                    message = message[:MESSAGE_LIMIT] + "..."
                yield pointer, message

    def _add(self, violation: Violation) -> None:
        with self._lock:
            self.violations.append(violation)

    # ---- checking ---------------------------------------------------------------------
    def check_request(self, method: str, path: str, content_type: str, body: Any) -> None:
        """Check a request: its route and method, and its body (`body` is the parsed JSON,
        a multipart body's `payload_json`, or None when there is none)."""
        operation = self._operation(method, path)
        if isinstance(operation, str):
            self._add(Violation(Direction.REQUEST, method, path, None, "", operation))
            return
        if body is None:
            if operation.request is not None and operation.request[0].get("required"):
                self._add(Violation(Direction.REQUEST, method, operation.route, None, "",
                                    "the specification requires a body"))
            return
        schema = None if operation.request is None else self._media_schema(
            operation.request, content_type)
        if schema is None:
            self._add(Violation(Direction.REQUEST, method, operation.route, None, "",
                                "the specification takes no body here"))
            return
        for pointer, message in self._errors(schema, body):
            self._add(Violation(Direction.REQUEST, method, operation.route, None, pointer,
                                message))

    def check_response(self, method: str, path: str, status: int, body: Any) -> None:
        """Check an answer to a request on a route of the specification (others are not
        checked): its status is one the operation lists, its body (None: none) matches that
        status's schema."""
        operation = self._operation(method, path)
        if isinstance(operation, str):
            return  # reported with the request
        response = (operation.responses.get(str(status))
                    or operation.responses.get(f"{status // 100}XX")
                    or operation.responses.get("default"))
        if response is None:
            self._add(Violation(Direction.RESPONSE, method, operation.route, status, "",
                                f"the specification lists no status {status} here "
                                f"(only {', '.join(operation.responses)})"))
            return
        schema = self._media_schema(response, "application/json")
        if schema is None:
            if body is not None:
                self._add(Violation(Direction.RESPONSE, method, operation.route, status, "",
                                    "the specification has no body for this status"))
            return
        if body is None:
            self._add(Violation(Direction.RESPONSE, method, operation.route, status, "",
                                "the specification requires a body for this status"))
            return
        for pointer, message in self._errors(schema, body):
            self._add(Violation(Direction.RESPONSE, method, operation.route, status, pointer,
                                message))

    def take_violations(self) -> list[Violation]:
        """The violations seen since the last call, oldest first; forgets them."""
        with self._lock:
            taken, self.violations = self.violations, []
        return taken


def _leaves(error: Any) -> list[Any]:
    """The errors to report for one validation error: itself, or for a failed `anyOf` or
    `oneOf` the errors of the branch the value was most likely meant for (the one whose
    kind, a `const`, `enum` or `type` at the value itself, fits, with the fewest errors).
    A `oneOf` every branch of which fits, and a union of constants, are reported as they
    are."""
    if not error.context or CONSTANTS in error.schema:
        return [error]  # none of the constants: the union's own message says so
    depth = len(error.absolute_path)
    branches: dict[Any, list[Any]] = {}
    for sub in error.context:
        branches.setdefault(sub.relative_schema_path[0], []).append(sub)
    if error.validator == "oneOf" and len(branches) < len(error.validator_value):
        return [error]  # more than one branch matched

    def wrong_kind(sub: Any) -> bool:
        at = len(sub.absolute_path) - depth
        return (sub.validator in ("const", "enum") and at <= 1) or (
            sub.validator == "type" and at == 0)

    chosen = min(branches.values(),
                 key=lambda subs: (any(wrong_kind(sub) for sub in subs), len(subs)))
    return [leaf for sub in chosen for leaf in _leaves(sub)]


TYPE_BRANCHES = "x-standin-type-branches"
"""Added to a union whose branches are objects told apart by the value of their `type`
(components, interaction callbacks...): that value -> the branch's index."""

CONSTANTS = "x-standin-constants"
"""Added to a union of distinct constants (Discord's enumerations: `{"title": "DM",
"const": 1}`, ...): the constants, as JSON texts."""

_CONSTANT_KEYS = frozenset({"const", "title", "description"})


def _mark_type_unions(spec: Json, node: Any) -> None:
    """Mark, in place, every `oneOf`/`anyOf` of the specification whose branches are named
    schemas with a distinct single `type` value each (`const` or a one-value `enum`)."""
    if isinstance(node, list):
        for item in node:
            _mark_type_unions(spec, item)
        return
    if not isinstance(node, dict):
        return
    for key in ("oneOf", "anyOf"):
        branches = node.get(key)
        if isinstance(branches, list) and len(branches) > 1:
            values = [_type_value(spec, branch) for branch in branches]
            if None not in values and len(set(values)) == len(values):
                node[TYPE_BRANCHES] = {value: index for index, value in enumerate(values)}
            constants = [json.dumps(branch["const"]) for branch in branches
                         if isinstance(branch, dict) and "const" in branch
                         and set(branch) <= _CONSTANT_KEYS]
            if len(constants) == len(branches) == len(set(constants)):
                node[CONSTANTS] = frozenset(constants)
    for value in node.values():
        _mark_type_unions(spec, value)


def _type_value(spec: Json, branch: Any) -> str | None:
    """The one value of a named object schema's `type` property, as a string; else None."""
    ref = branch.get("$ref") if isinstance(branch, dict) else None
    if not isinstance(ref, str) or not ref.startswith("#/components/schemas/"):
        return None
    target = spec["components"]["schemas"].get(ref.rsplit("/", 1)[1], {})
    prop = (target.get("properties") or {}).get("type")
    if not isinstance(prop, dict):
        return None
    if "const" in prop:
        return json.dumps(prop["const"])
    enum_values = prop.get("enum")
    if isinstance(enum_values, list) and len(enum_values) == 1:
        return json.dumps(enum_values[0])
    return None


def _by_type(keyword: Callable[..., Any]) -> Callable[..., Any]:
    """A `oneOf`/`anyOf` keyword that answers the unions marked by `_mark_type_unions`
    faster, with the same answer: a value equal to one of distinct constants is valid; an
    object whose `type` names a branch is validated against that branch only (the others
    fail on `type`), so its errors are the branch's own. Otherwise the standard keyword
    (Discord's unions of components were validated against every branch, ~45 ms a
    message)."""

    def validate(validator: Any, branches: Any, instance: Any, schema: Json) -> Any:
        constants = schema.get(CONSTANTS)
        if constants is not None and _json_text(instance) in constants:
            return  # equal to exactly one of distinct constants: valid under one branch
        marks = schema.get(TYPE_BRANCHES)
        if marks is not None and isinstance(instance, dict) and "type" in instance:
            index = marks.get(json.dumps(instance["type"]))
            if index is not None:
                yield from validator.descend(instance, branches[index], schema_path=index)
                return
        yield from keyword(validator, branches, instance, schema)

    return validate


def _json_text(value: Any) -> str | None:
    """`value` as JSON text, None for a value JSON has no text for."""
    try:
        return json.dumps(value)
    except (TypeError, ValueError):
        return None


def _escape(part: str) -> str:
    """A JSON pointer's reference token (RFC 6901)."""
    return part.replace("~", "~0").replace("/", "~1")


def _unescape(part: str) -> str:
    return part.replace("~1", "/").replace("~0", "~")


_default: OpenApiCheck | None = None


def default_check() -> OpenApiCheck | None:
    """The check a `StandIn` made without `openapi_check` uses (`checking_by_default`)."""
    return _default


@contextmanager
def checking_by_default(check: OpenApiCheck) -> Iterator[OpenApiCheck]:
    """Within the block, every `StandIn` made without `openapi_check` uses `check`
    (a test fixture's switch: the stand-ins made inside helpers are checked too)."""
    global _default
    before = _default
    _default = check
    try:
        yield check
    finally:
        _default = before


__all__ = [
    "KNOWN_GAPS",
    "Direction",
    "KnownGap",
    "OpenApiCheck",
    "Violation",
    "checking_by_default",
    "default_check",
]
