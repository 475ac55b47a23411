"""The command language of the local play mode, one command per line.

    as bob                                   switch to user bob (created on first use)
    in games                                 switch to channel #games (created if missing)
    /challenge opponent:@bob variant:italian a slash command, as Discord shows it
    /challenge @bob italian                  option names may be left out, in schema order
    /move 22-18
    press Accept                             press a button on the newest message having it
    suggest /move 22                         show what autocomplete offers for the last option
    # a comment                              (blank lines are skipped too)
    help                                     this list;  quit: the end (as the input's end)

Values with spaces are quoted: `/rating user:"Giocatore 01"`. `parse_line` only splits a
line; which option a bare value fills is decided by `resolve_options` against the command's
registered schema.
"""

from __future__ import annotations

import shlex
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any


class ScriptError(ValueError):
    """A line that is not a command of the local mode; the message says what to write."""


@dataclass(frozen=True)
class AsUser:
    """`as NAME`: act as this user from now on."""

    name: str


@dataclass(frozen=True)
class InChannel:
    """`in CHANNEL`: act in this text channel from now on."""

    name: str


@dataclass(frozen=True)
class Press:
    """`press LABEL`: press the button with this label (or custom_id)."""

    label: str


@dataclass(frozen=True)
class Slash:
    """`/name args...`: `named` options given as `name:value`, `bare` values in order.

    With `suggest`, the bot's autocomplete suggestions for the last option are asked for
    instead of running the command.
    """

    name: str
    named: tuple[tuple[str, str], ...]
    bare: tuple[str, ...]
    suggest: bool = False


Command = AsUser | InChannel | Press | Slash

HELP = __doc__.split("\n\n", 1)[1].split("\n\nValues", 1)[0] if __doc__ else ""


def parse_line(line: str) -> Command | None:
    """One line -> a command, or None for blank lines and `#` comments.

    Raises `ScriptError` for anything else that is not a command.
    """
    text = line.strip()
    if not text or text.startswith("#"):
        return None
    head, _, rest = text.partition(" ")
    rest = rest.strip()
    keyword = head.lower()
    if keyword == "as":
        user = _unquote(rest).lstrip("@").strip()
        if not user:
            raise ScriptError("write `as NAME`, e.g. `as bob`")
        return AsUser(user)
    if keyword == "in":
        channel = _unquote(rest).lstrip("#").strip()
        if not channel:
            raise ScriptError("write `in CHANNEL`, e.g. `in games`")
        return InChannel(channel)
    if keyword == "press":
        if not rest:
            raise ScriptError("write `press LABEL`, e.g. `press Accept`")
        return Press(_unquote(rest))
    if keyword == "suggest":
        if not rest.startswith("/"):
            raise ScriptError("write `suggest /COMMAND ...`, e.g. `suggest /move 22`")
        command = _slash(rest)
        return Slash(command.name, command.named, command.bare, suggest=True)
    if text.startswith("/"):
        return _slash(text)
    raise ScriptError(
        f"{text[:40]!r} is not a command: write a slash command (`/move 22-18`), "
        "`as NAME`, `in CHANNEL`, `press LABEL` or `suggest /COMMAND ...`"
    )


def _unquote(text: str) -> str:
    try:
        parts = shlex.split(text)
    except ValueError:
        return text.strip()
    return " ".join(parts)


def _slash(text: str) -> Slash:
    try:
        tokens = shlex.split(text)
    except ValueError as error:
        raise ScriptError(f"cannot read {text[:40]!r}: {error} (close the quotes)") from None
    name = tokens[0].lstrip("/").lower()
    if not name:
        raise ScriptError("write the command name right after the slash, e.g. `/board`")
    named: list[tuple[str, str]] = []
    bare: list[str] = []
    for token in tokens[1:]:
        key, sep, value = token.partition(":")
        if sep and key.isidentifier() and value:
            named.append((key.lower(), value))
        else:
            bare.append(token)
    return Slash(name, tuple(named), tuple(bare))


def resolve_options(command: Slash, schema: Sequence[Mapping[str, Any]]) -> dict[str, str]:
    """The options of `command` by name: named ones as given, bare values filling the
    options not named yet in schema order (required ones first, as Discord lists them).

    A name that is not an option of its own is taken as a bare value (so `/move 22:18`
    still reaches the bot). Raises `ScriptError` for a repeated option or extra values.
    """
    names = [str(option["name"]) for option in schema]
    given: dict[str, str] = {}
    bare = list(command.bare)
    for key, value in command.named:
        if key not in names:
            bare.append(f"{key}:{value}")
            continue
        if key in given:
            raise ScriptError(f"/{command.name}: option {key} is given twice")
        given[key] = value
    free = [name for name in names if name not in given]
    if len(bare) > len(free):
        listed = " ".join(f"{n}:..." for n in names) or "no options"
        raise ScriptError(
            f"/{command.name} takes {listed}; too many values: {' '.join(bare)}"
        )
    for name, value in zip(free, bare, strict=False):
        given[name] = value
    return given
