"""Frozen snapshots the driver hands out: messages, attachments, buttons, interaction results.

A snapshot shows one moment; ask the stand-in again for the current state.
"""

from __future__ import annotations

import enum
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any


class CallbackType(enum.IntEnum):
    """How the bot answered an interaction (Interaction Callback Type)."""

    PONG = 1
    CHANNEL_MESSAGE = 4
    DEFERRED_CHANNEL_MESSAGE = 5
    DEFERRED_UPDATE_MESSAGE = 6
    UPDATE_MESSAGE = 7
    AUTOCOMPLETE_RESULT = 8
    MODAL = 9


class InteractionKind(enum.IntEnum):
    """Interaction types the driver sends."""

    APPLICATION_COMMAND = 2
    MESSAGE_COMPONENT = 3
    AUTOCOMPLETE = 4
    MODAL_SUBMIT = 5


class ComponentType(enum.IntEnum):
    """Component types the stand-in looks into (Components > Reference)."""

    ACTION_ROW = 1
    BUTTON = 2
    STRING_SELECT = 3
    TEXT_INPUT = 4
    LABEL = 18


class ButtonStyle(enum.IntEnum):
    """Button styles (Components > Reference > Button Styles)."""

    PRIMARY = 1
    SECONDARY = 2
    SUCCESS = 3
    DANGER = 4
    LINK = 5
    PREMIUM = 6


class MessageFlag(enum.IntFlag):
    """Message flags the driver reports (Resources > Message > Message Flags)."""

    EPHEMERAL = 1 << 6
    LOADING = 1 << 7


class MessageOrigin(enum.Enum):
    """How a message came to be."""

    USER = "user"  # a person posted it (driver `say`)
    BOT_CHANNEL = "bot_channel"  # the bot posted it with POST /channels/{id}/messages
    INTERACTION_RESPONSE = "response"  # the original response to an interaction
    FOLLOWUP = "followup"  # a follow-up through the interaction webhook


class EventKind(enum.Enum):
    """What happened to a message."""

    CREATE = "create"
    UPDATE = "update"
    DELETE = "delete"


@dataclass(frozen=True)
class AttachmentRecord:
    """An uploaded file; `url` serves `data` from the stand-in."""

    id: int
    filename: str
    size: int
    content_type: str | None
    description: str | None
    url: str
    width: int | None
    height: int | None
    data: bytes = field(repr=False)


@dataclass(frozen=True)
class ButtonRecord:
    """A button on a message (`custom_id` None for link buttons)."""

    custom_id: str | None
    label: str | None
    style: int
    disabled: bool
    url: str | None
    emoji: str | None


@dataclass(frozen=True)
class MessageRecord:
    """One message as it stands; `embeds` and `components` are Discord's JSON objects.

    `interaction_user_id` is whose interaction the message answers (None for plain channel
    messages); `visible_to` is set only for ephemeral messages (that same user).
    """

    id: int
    channel_id: int
    guild_id: int | None
    author_id: int
    content: str
    embeds: tuple[Mapping[str, Any], ...]
    components: tuple[Mapping[str, Any], ...]
    attachments: tuple[AttachmentRecord, ...]
    flags: int
    origin: MessageOrigin
    interaction_id: int | None
    interaction_user_id: int | None
    visible_to: int | None
    edited: bool
    deleted: bool

    @property
    def ephemeral(self) -> bool:
        """Only the interaction's user sees it (flag 64)."""
        return bool(self.flags & MessageFlag.EPHEMERAL)

    @property
    def loading(self) -> bool:
        """A deferred response still 'thinking' (flag 128)."""
        return bool(self.flags & MessageFlag.LOADING)

    @property
    def buttons(self) -> tuple[ButtonRecord, ...]:
        """Every button, in reading order (action rows, sections and containers walked)."""
        found: list[ButtonRecord] = []
        _walk_buttons(self.components, found)
        return tuple(found)

    def text(self) -> str:
        """Content, then each embed's title, description and fields, one per line."""
        lines = [self.content] if self.content else []
        for embed in self.embeds:
            for key in ("title", "description"):
                if embed.get(key):
                    lines.append(str(embed[key]))
            for fld in embed.get("fields") or []:
                lines.append(f"{fld.get('name')}: {fld.get('value')}")
            footer = (embed.get("footer") or {}).get("text")
            if footer:
                lines.append(str(footer))
        return "\n".join(lines)


def _walk_buttons(components: Any, found: list[ButtonRecord]) -> None:
    for comp in components or ():
        if not isinstance(comp, Mapping):
            continue
        if comp.get("type") == ComponentType.BUTTON:
            emoji = comp.get("emoji") or {}
            found.append(
                ButtonRecord(
                    custom_id=comp.get("custom_id"),
                    label=comp.get("label"),
                    style=int(comp.get("style", 1)),
                    disabled=bool(comp.get("disabled", False)),
                    url=comp.get("url"),
                    emoji=emoji.get("name") if isinstance(emoji, Mapping) else None,
                )
            )
        _walk_buttons(comp.get("components"), found)
        accessory = comp.get("accessory")
        if accessory is not None:
            _walk_buttons([accessory], found)


@dataclass(frozen=True)
class MessageEvent:
    """A message created, edited or deleted (as the stand-in saw it happen)."""

    kind: EventKind
    message: MessageRecord


@dataclass(frozen=True)
class Choice:
    """One autocomplete suggestion."""

    name: str
    value: str | int | float


@dataclass(frozen=True)
class ModalRecord:
    """A modal the bot opened: its id, title and text inputs' custom ids."""

    custom_id: str
    title: str
    inputs: tuple[str, ...]
    raw: Mapping[str, Any] = field(repr=False)


@dataclass(frozen=True)
class InteractionResult:
    """What the bot did with one interaction, once it had answered.

    `messages` are the messages this interaction's token created or edited, as they stood
    when the answer was complete: first the original response (for a component's update,
    callback 6 or 7, the message the component is on), then the follow-ups in order.
    `choices` holds autocomplete suggestions, `modal` a modal the bot opened.
    `latency` is seconds from dispatch to the interaction callback.
    """

    interaction_id: int
    kind: InteractionKind
    name: str
    user_id: int
    channel_id: int
    callback: CallbackType
    messages: tuple[MessageRecord, ...]
    choices: tuple[Choice, ...]
    modal: ModalRecord | None
    latency: float

    @property
    def reply(self) -> MessageRecord:
        """The message the user sees as the answer: the first one not deleted (a deferred
        "thinking" message deleted for an ephemeral follow-up leaves that follow-up), else
        the first; raises `LookupError` when there is none."""
        if not self.messages:
            raise LookupError(
                f"the answer to {self.name} has no message (callback {self.callback.name})"
            )
        return next((m for m in self.messages if not m.deleted), self.messages[0])

    @property
    def followups(self) -> tuple[MessageRecord, ...]:
        """The follow-up messages (those after the original response)."""
        return tuple(m for m in self.messages if m.origin is MessageOrigin.FOLLOWUP)

    @property
    def ephemeral(self) -> bool:
        """True when the answer the user sees (`reply`) is ephemeral."""
        return bool(self.messages) and self.reply.ephemeral
