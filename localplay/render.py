"""The bot's messages as terminal text: content, embed, buttons, picture, text board.

`MessageText` turns a stand-in `MessageRecord` into lines a person can read: user
mentions `<@id>` become `@name`, channel mentions `<#id>` `#name`, command mentions
`</name:id>` `/name` (as every Discord client shows them, `standin.shown_text`), Discord timestamps
`<t:unix:R>` become UTC times, bold markers are dropped, the embed's title, description,
fields and footer follow the text, buttons are shown as `[Accept] [Decline]`, a select
menu as `<Pick a move: 12-15?? | 21-18?>` (its placeholder, then its options' labels;
`select_menus` reads them for the `select` command), and an
uploaded picture is named by the file it was saved to. `terminal_board` is the text board
printed under a board message: the renderer's `render_text` (the one text board, which the
bot also posts where it may not attach pictures) and a line saying whose turn it is; the
caller reads the position from the database.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from engine import Color, Position, Variant
from renderer import render_text
from standin import ComponentType, MessageRecord, shown_text

_MENTION = re.compile(r"<@!?(\d+)>")
_CHANNEL = re.compile(r"<#(\d+)>")
_TIMESTAMP = re.compile(r"<t:(-?\d+)(?::[tTdDfFR])?>")
_BOLD = re.compile(r"\*\*(.+?)\*\*")
_GAME_ID = re.compile(r"\bgame #(\d+)\b")
_BUTTON_GAME = re.compile(r"^dama:(?:(?:resign|draw):(\d+):\d+|rematch:(\d+))$")


@dataclass(frozen=True)
class MenuOption:
    """One option of a select menu: the label shown and the value sent when picked."""

    label: str
    value: str


@dataclass(frozen=True)
class SelectMenu:
    """A string select menu of a message (Discord's component type 3)."""

    custom_id: str
    placeholder: str
    options: tuple[MenuOption, ...]
    disabled: bool


def select_menus(message: MessageRecord) -> tuple[SelectMenu, ...]:
    """The string select menus of `message`, in reading order (action rows, sections and
    containers walked)."""
    found: list[SelectMenu] = []
    _walk_selects(message.components, found)
    return tuple(found)


def _walk_selects(components: Any, found: list[SelectMenu]) -> None:
    for comp in components or ():
        if not isinstance(comp, Mapping):
            continue
        if comp.get("type") == ComponentType.STRING_SELECT:
            options = tuple(MenuOption(str(o.get("label", "")), str(o.get("value", "")))
                            for o in comp.get("options") or () if isinstance(o, Mapping))
            found.append(SelectMenu(str(comp.get("custom_id", "")),
                                    str(comp.get("placeholder") or ""), options,
                                    bool(comp.get("disabled", False))))
        _walk_selects(comp.get("components"), found)


def game_id_of(message: MessageRecord) -> int | None:
    """The id of the game a board message shows: from a game button's custom_id
    (`dama:resign:<id>:<ply>`, `dama:draw:<id>:<ply>`; a finished board's
    `dama:rematch:<id>`), else from the embed title (`... game #<id> ...`); None if
    neither."""
    for button in message.buttons:
        match = _BUTTON_GAME.match(button.custom_id or "")
        if match:
            return int(match.group(1) or match.group(2))
    for embed in message.embeds:
        match = _GAME_ID.search(str(embed.get("title") or ""))
        if match:
            return int(match.group(1))
    return None


def terminal_board(position: Position, variant: Variant, *, over: bool = False) -> str:
    """`position` as the terminal shows it: `renderer.render_text` from White's side (each
    empty square of a numbered board, Italian, showing its square number, as the moves are
    written), then a legend with whose turn it is, or that the game is over (`over`: a
    finished game has no side to move). Output: 11 lines joined by newlines, no trailing
    one. Raises `renderer.RenderError` for a position the variant cannot hold."""
    board = render_text(position, variant, numbers=variant.numeric_notation)
    side = "White" if position.turn is Color.WHITE else "Black"
    turn = "game over" if over else f"{side} to move"
    return f"{board}\n    w/b men, W/B kings; {turn}"


def mentioned_users(message: MessageRecord) -> set[int]:
    """The ids of the users `message` mentions (`<@id>`) in its text and embeds."""
    texts = [message.content or ""]
    for embed in message.embeds:
        texts += [str(embed.get("title") or ""), str(embed.get("description") or "")]
        for field in embed.get("fields") or []:
            texts += [str(field.get("name", "")), str(field.get("value", ""))]
        texts.append(str((embed.get("footer") or {}).get("text") or ""))
    return {int(found) for text in texts for found in _MENTION.findall(text)}


class MessageText:
    """Formats messages; `name_of(user_id)` gives a user's shown name and
    `channel_of(channel_id)` a channel mention as shown, `#general` or a DM's place
    `dm:@alice,@bob` (None: unknown, the mention stays as it is)."""

    def __init__(self, name_of: Callable[[int], str | None],
                 channel_of: Callable[[int], str | None] = lambda _: None) -> None:
        self.name_of = name_of
        self.channel_of = channel_of

    def inline(self, text: str) -> str:
        """Mentions (of users, channels and commands), timestamps and bold markers of one
        text made readable."""

        def user(match: re.Match[str]) -> str:
            name = self.name_of(int(match.group(1)))
            return f"@{name}" if name else match.group(0)

        def moment(match: re.Match[str]) -> str:
            when = datetime.fromtimestamp(int(match.group(1)), UTC)
            return when.strftime("%Y-%m-%d %H:%M UTC")

        def channel(match: re.Match[str]) -> str:
            name = self.channel_of(int(match.group(1)))
            return name or match.group(0)

        text = shown_text(text)
        text = _MENTION.sub(user, text)
        text = _CHANNEL.sub(channel, text)
        text = _TIMESTAMP.sub(moment, text)
        return _BOLD.sub(r"\1", text)

    def lines(
        self,
        message: MessageRecord,
        *,
        pictures: Mapping[int, str] | None = None,
        buttons: bool = True,
    ) -> list[str]:
        """The message as lines (no header). `pictures` maps attachment ids to the paths
        they were saved to; `buttons=False` leaves the buttons line out."""
        out: list[str] = []
        if message.content:
            out.extend(self.inline(message.content).splitlines())
        for embed in message.embeds:
            out.extend(self._embed_lines(embed))
        saved = pictures or {}
        for attachment in message.attachments:
            where = saved.get(attachment.id)
            size = f"{attachment.width}x{attachment.height} " if attachment.width else ""
            out.append(
                f"  [file {attachment.filename}, {size}{attachment.size} bytes"
                + (f", saved to {where}]" if where else "]")
            )
        shown = [b for b in message.buttons if b.label] if buttons else []
        if shown:
            out.append("  " + " ".join(
                f"[{b.label}{f': {b.url}' if b.url else ''}"
                f"{' (disabled)' if b.disabled else ''}]" for b in shown
            ))
        for menu in select_menus(message) if buttons else ():
            head = f"{menu.placeholder}: " if menu.placeholder else ""
            labels = " | ".join(option.label for option in menu.options)
            out.append(f"  <{head}{labels}{' (disabled)' if menu.disabled else ''}>")
        return out

    def _embed_lines(self, embed: Mapping[str, Any]) -> list[str]:
        out: list[str] = []
        if embed.get("title"):
            out.append(f"  == {self.inline(str(embed['title']))} ==")
        if embed.get("description"):
            out.extend("  " + line for line in self.inline(str(embed["description"])).splitlines())
        for field in embed.get("fields") or []:
            value = self.inline(str(field.get("value", ""))).splitlines() or [""]
            out.append(f"  {self.inline(str(field.get('name', '')))}: {value[0]}")
            out.extend("    " + line for line in value[1:])
        footer = (embed.get("footer") or {}).get("text")
        if footer:
            out.append(f"  ({self.inline(str(footer))})")
        return out
