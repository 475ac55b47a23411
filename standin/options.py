"""Turn driver input (`{"move": "22-18"}`) into interaction options as Discord's client would.

The registered command schema decides each option's type; values are converted and checked
the way the Discord client does before it sends anything (choices, required options,
ranges), and users, channels and roles are added to `resolved` (Interactions > Receiving and
Responding > Resolved Data Structure; Application Commands > Option Type).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from .errors import StandInError
from .model import Json

SUB_COMMAND = 1
SUB_COMMAND_GROUP = 2
STRING = 3
INTEGER = 4
BOOLEAN = 5
USER = 6
CHANNEL = 7
ROLE = 8
MENTIONABLE = 9
NUMBER = 10
ATTACHMENT = 11


@dataclass
class Resolvers:
    """How option values naming users, channels, roles and files become objects.

    Each returns the id and adds the object to `resolved`.
    """

    user: Callable[[Any, Json], int]
    channel: Callable[[Any, Json], int]
    role: Callable[[Any, Json], int]
    attachment: Callable[[Any, Json], int]
    resolved: Json = field(default_factory=dict)


def split_command(text: str) -> list[str]:
    """`"/game move"` -> `["game", "move"]`."""
    parts = text.strip().lstrip("/").split()
    if not parts:
        raise StandInError("give a command name, e.g. 'move'")
    return parts


def _names(options: list[Json], kinds: tuple[int, ...]) -> list[str]:
    return [o["name"] for o in options if o.get("type") in kinds]


def descend(
    command: Json, path: list[str]
) -> tuple[list[Json], Callable[[list[Json]], list[Json]]]:
    """The option schema of the (sub)command at `path`, and a function nesting values in it."""
    schema: list[Json] = list(command.get("options") or [])
    wrappers: list[tuple[int, str]] = []
    for name in path[1:]:
        sub = next(
            (
                o
                for o in schema
                if o.get("name") == name and o.get("type") in (SUB_COMMAND, SUB_COMMAND_GROUP)
            ),
            None,
        )
        if sub is None:
            choices = _names(schema, (SUB_COMMAND, SUB_COMMAND_GROUP))
            raise StandInError(
                f"/{' '.join(path)}: no sub-command {name!r}; it has {', '.join(choices) or 'none'}"
            )
        wrappers.append((int(sub["type"]), name))
        schema = list(sub.get("options") or [])
    if any(o.get("type") in (SUB_COMMAND, SUB_COMMAND_GROUP) for o in schema):
        choices = _names(schema, (SUB_COMMAND, SUB_COMMAND_GROUP))
        raise StandInError(f"/{' '.join(path)} needs a sub-command: one of {', '.join(choices)}")

    def nest(values: list[Json]) -> list[Json]:
        for kind, name in reversed(wrappers):
            values = [{"type": kind, "name": name, "options": values}]
        return values

    return schema, nest


def build_options(
    label: str,
    schema: list[Json],
    values: Mapping[str, Any],
    resolvers: Resolvers,
    *,
    focused: str | None = None,
) -> list[Json]:
    """Option payloads for `values` (None values are left out, as options not filled in);
    `focused` marks the autocomplete option, sent raw as typed."""
    by_name = {o["name"]: o for o in schema}
    values = {k: v for k, v in values.items() if v is not None}  # None: left out
    for name in values:
        if name not in by_name:
            raise StandInError(
                f"{label} has no option {name!r}; its options are {', '.join(by_name) or 'none'}"
            )
    if focused is None:
        missing = [o["name"] for o in schema if o.get("required") and o["name"] not in values]
        if missing:
            raise StandInError(
                f"{label} needs option(s) {', '.join(missing)} "
                "(Discord does not send a command without its required options)"
            )
    result: list[Json] = []
    for opt in schema:
        name = opt["name"]
        if name not in values:
            continue
        kind = int(opt["type"])
        if name == focused:
            result.append({"type": kind, "name": name, "value": str(values[name]), "focused": True})
            continue
        result.append(
            {"type": kind, "name": name, "value": _convert(label, opt, values[name], resolvers)}
        )
    return result


def _convert(label: str, opt: Json, value: Any, resolvers: Resolvers) -> Any:
    kind = int(opt["type"])
    name = opt["name"]
    where = f"{label} option {name!r}"
    if kind == STRING:
        text = _choice(where, opt, str(value))
        lo, hi = opt.get("min_length"), opt.get("max_length")
        if (lo is not None and len(str(text)) < lo) or (hi is not None and len(str(text)) > hi):
            raise StandInError(f"{where} must be {lo or 0} to {hi or 6000} characters long")
        return text
    if kind in (INTEGER, NUMBER):
        picked = _choice(where, opt, value)
        try:
            number: int | float = int(picked) if kind == INTEGER else float(picked)
        except (TypeError, ValueError):
            raise StandInError(
                f"{where} must be {'an integer' if kind == INTEGER else 'a number'}, not {value!r}"
            ) from None
        lo, hi = opt.get("min_value"), opt.get("max_value")
        if (lo is not None and number < lo) or (hi is not None and number > hi):
            raise StandInError(f"{where} must be {_range(lo, hi)}, not {value!r}")
        return number
    if kind == BOOLEAN:
        if isinstance(value, bool):
            return value
        text = str(value).lower()
        if text not in ("true", "false", "yes", "no"):
            raise StandInError(f"{where} must be true or false, not {value!r}")
        return text in ("true", "yes")
    if kind == USER:
        return str(resolvers.user(value, resolvers.resolved))
    if kind == CHANNEL:
        return str(resolvers.channel(value, resolvers.resolved))
    if kind == ROLE:
        return str(resolvers.role(value, resolvers.resolved))
    if kind == MENTIONABLE:
        try:
            return str(resolvers.role(value, resolvers.resolved))
        except StandInError:
            return str(resolvers.user(value, resolvers.resolved))
    if kind == ATTACHMENT:
        return str(resolvers.attachment(value, resolvers.resolved))
    raise StandInError(f"{where} has option type {kind}, which the stand-in cannot send")


def _range(lo: float | None, hi: float | None) -> str:
    """`between 1 and 9`, `at least 1` or `at most 9` (one bound may be missing)."""
    if lo is not None and hi is not None:
        return f"between {lo} and {hi}"
    return f"at least {lo}" if lo is not None else f"at most {hi}"


def _choice(where: str, opt: Json, value: Any) -> Any:
    choices = opt.get("choices") or []
    if not choices:
        return value
    for choice in choices:
        if str(choice["value"]) == str(value) or str(choice["name"]) == str(value):
            return choice["value"]
    listed = ", ".join(f"{c['name']} ({c['value']})" for c in choices)
    raise StandInError(f"{where} must be one of its choices: {listed}; got {value!r}")
