"""Command mentions (`</name:id>`, `</name sub:id>`, `</name group sub:id>`) as a Discord
client shows them (Discord's developer docs, Reference > Message Formatting).

A client shows a command mention as a slash and the name written in it, whatever its own
language: it does not replace the name by the command's `name_localizations`
(docs/LANGUAGES.md, "Command names in texts", with Discord's own word on it). Clicking
it opens the command whose id it carries, if that command has the name written;
otherwise nothing happens (the same section). `shown_text` is what the reader sees;
`unknown_mentions` finds the mentions that would not open a command.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

COMMAND_MENTION = re.compile(r"</([-_'\w]+(?: [-_'\w]+){0,2}):(\d+)>")
"""A command mention: a name of one to three words (command, group, subcommand), an id."""


@dataclass(frozen=True)
class CommandMention:
    """One command mention: the name written in it ("settings", "tournament create") and
    the id it carries."""

    name: str
    command_id: int

    @property
    def command(self) -> str:
        """The top-level command's name (the first word)."""
        return self.name.split(" ", 1)[0]


def command_mentions(text: str) -> list[CommandMention]:
    """The command mentions of `text`, in order."""
    return [CommandMention(m.group(1), int(m.group(2))) for m in COMMAND_MENTION.finditer(text)]


def shown_text(text: str) -> str:
    """`text` as a client shows it: each command mention as `/` and its written name
    (`</settings:12>` -> `/settings`), in every client language."""
    return COMMAND_MENTION.sub(lambda m: f"/{m.group(1)}", text)


def unknown_mentions(
    text: str, commands: Iterable[Mapping[str, Any]]
) -> list[CommandMention]:
    """The mentions of `text` a click would not open: no chat-input command among
    `commands` (registered command objects, as `StandIn.commands` returns them) has the
    mention's id and its first word as name, or the words after it are not a path of that
    command's subcommand groups ending at a subcommand."""
    by_id = {int(c["id"]): c for c in commands if int(c.get("type", 1)) == 1}
    return [m for m in command_mentions(text) if not _opens(m, by_id.get(m.command_id))]


def _opens(mention: CommandMention, command: Mapping[str, Any] | None) -> bool:
    words = mention.name.split(" ")
    if command is None or command.get("name") != words[0]:
        return False
    level: Mapping[str, Any] = command
    for word in words[1:]:
        found = next((o for o in level.get("options") or ()
                      if o.get("type") in (1, 2) and o.get("name") == word), None)
        if found is None:
            return False
        level = found
    return len(words) == 1 or level.get("type") == 1  # a group alone runs nothing
