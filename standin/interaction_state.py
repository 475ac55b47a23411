"""One interaction's state from dispatch to answer, and the rules on its callbacks
(Discord docs, Receiving and Responding: Interaction Callback Type, token lifetime)."""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass, field
from typing import Any

from .model import Json
from .records import CallbackType, Choice, ComponentType, InteractionKind

INTERACTION_TOKEN_LIFETIME = 15 * 60.0
"""Seconds an interaction token stays valid for webhooks (Discord: 15 minutes)."""

MAX_FOLLOW_UPS = 5
"""Follow-ups an interaction takes where the app is user-installed only (Discord developer
docs, Receiving and Responding, Followup Messages: "Apps are limited to 5 followup
messages per interaction if it was initiated from a user-installed app and isn't installed
in the server (meaning the authorizing integration owners object only contains
USER_INSTALL)"); the sixth is refused with 40094 ("This interaction has hit the maximum
number of follow up messages", JSON Error Codes; the status, undocumented, is 400 as for
the other 40xxx codes of a refused request)."""

VALID_CALLBACKS: dict[InteractionKind, frozenset[CallbackType]] = {
    InteractionKind.APPLICATION_COMMAND: frozenset(
        {CallbackType.CHANNEL_MESSAGE, CallbackType.DEFERRED_CHANNEL_MESSAGE, CallbackType.MODAL}
    ),
    InteractionKind.MESSAGE_COMPONENT: frozenset(
        {
            CallbackType.CHANNEL_MESSAGE,
            CallbackType.DEFERRED_CHANNEL_MESSAGE,
            CallbackType.DEFERRED_UPDATE_MESSAGE,
            CallbackType.UPDATE_MESSAGE,
            CallbackType.MODAL,
        }
    ),
    InteractionKind.AUTOCOMPLETE: frozenset({CallbackType.AUTOCOMPLETE_RESULT}),
    InteractionKind.MODAL_SUBMIT: frozenset(
        {
            CallbackType.CHANNEL_MESSAGE,
            CallbackType.DEFERRED_CHANNEL_MESSAGE,
            CallbackType.DEFERRED_UPDATE_MESSAGE,
            CallbackType.UPDATE_MESSAGE,
        }
    ),
}

"""The callback types each kind of interaction may answer with."""


@dataclass
class InteractionState:
    """One interaction from dispatch to answer."""

    id: int
    token: str
    kind: InteractionKind
    name: str
    user_id: int
    channel_id: int
    guild_id: int | None
    payload: Json
    component_message_id: int | None = None
    opened_by: int | None = None  # a modal submit's: the interaction that opened the modal
    # The installations that authorized it: "0" -> guild id ("0" in the bot's DM),
    # "1" -> user id (Interaction Object, Authorizing Integration Owners Object).
    owners: dict[str, str] = field(default_factory=dict)
    # Every answer ephemeral: the app is only user-installed in this server and the member
    # may not use external apps (USE_EXTERNAL_APPS).
    forced_ephemeral: bool = False
    created: float = field(default_factory=time.monotonic)
    callback: CallbackType | None = None
    callback_at: float | None = None
    original_message_id: int | None = None
    followup_ids: list[int] = field(default_factory=list)
    choices: list[Choice] = field(default_factory=list)
    modal: Json | None = None
    awaiting_followup: bool = False
    # A deferred update whose pressed message was not edited (yet): that message is no
    # part of the answer; a follow-up is.
    pressed_unchanged: bool = False
    answered: asyncio.Event = field(default_factory=asyncio.Event)
    acknowledged: asyncio.Event = field(default_factory=asyncio.Event)
    expired: bool = False

    @property
    def followups_limited(self) -> bool:
        """True when `MAX_FOLLOW_UPS` applies: a user-installed app where it is not
        installed to the server (no guild installation authorized the interaction)."""
        return "1" in self.owners and "0" not in self.owners


def text_inputs(components: list[Any]) -> list[str]:
    """The custom ids of the text inputs in a modal's `components`, at any depth."""
    found: list[str] = []
    for comp in components:
        if not isinstance(comp, dict):
            continue
        if comp.get("type") == ComponentType.TEXT_INPUT and comp.get("custom_id"):
            found.append(str(comp["custom_id"]))
        found.extend(text_inputs(comp.get("components") or []))
        inner = comp.get("component")
        if isinstance(inner, dict):
            found.extend(text_inputs([inner]))
    return found
