"""The stand-in's engine room: messages, interactions and commands, with gateway dispatch.

REST handlers (`rest`) and the driver (`standin`) both go through `Core`, so a message the
bot posts and one a driver user posts are recorded, dispatched and observed the same way.
"""

from __future__ import annotations

import copy
import logging
import time
from collections.abc import Callable

from .bodies import Body, UploadedFile
from .components import stored_components
from .dm_limits import DmBudget, DmLimit
from .errors import ApiError, JsonErrorCode, field_error, form_error, not_found
from .gateway import GatewayHub, GatewaySession, Intent
from .interaction_state import (
    INTERACTION_TOKEN_LIFETIME,
    MAX_FOLLOW_UPS,
    VALID_CALLBACKS,
    InteractionState,
    text_inputs,
)
from .message_parts import (
    attachments_from,
    check_body,
    mentions,
    resolve_embed_files,
    store_upload,
)
from .model import Attachment, Channel, ChannelType, Json, Message, World, new_token
from .nonces import DEFAULT_WINDOW, NonceRegistry
from .payloads import (
    FLAG_EPHEMERAL,
    FLAG_IS_COMPONENTS_V2,
    FLAG_LOADING,
    FLAG_SUPPRESS_EMBEDS,
    FLAG_SUPPRESS_NOTIFICATIONS,
    MESSAGE_CHAT_INPUT_COMMAND,
    MESSAGE_DEFAULT,
    MESSAGE_REPLY,
    Payloads,
)
from .records import (
    AttachmentRecord,
    CallbackType,
    Choice,
    EventKind,
    InteractionKind,
    InteractionResult,
    MessageEvent,
    MessageOrigin,
    MessageRecord,
    ModalRecord,
)
from .snowflakes import now_iso
from .validation import (
    check_choices,
    check_flags,
    check_modal,
    empty_message,
    raise_if,
)

_log = logging.getLogger(__name__)

CHANNEL_MESSAGE_FLAGS = FLAG_SUPPRESS_EMBEDS | FLAG_SUPPRESS_NOTIFICATIONS | FLAG_IS_COMPONENTS_V2
RESPONSE_FLAGS = CHANNEL_MESSAGE_FLAGS | FLAG_EPHEMERAL
EDIT_FLAGS = FLAG_SUPPRESS_EMBEDS | FLAG_IS_COMPONENTS_V2

MessageListener = Callable[[MessageEvent], None]


class Core:
    """Messages, interactions, commands; dispatches to the gateway and notifies listeners."""

    def __init__(
        self,
        world: World,
        payloads: Payloads,
        hub: GatewayHub,
        *,
        ack_deadline: float | None,
        attachment_size_limit: int,
        nonce_window: float = DEFAULT_WINDOW,
        token_lifetime: float = INTERACTION_TOKEN_LIFETIME,
        dm_limit: DmLimit | None = None,
    ) -> None:
        self.world = world
        self.token_lifetime = token_lifetime
        self.clock_offset = 0.0
        self.dms = DmBudget(dm_limit, self.now)
        self.payloads = payloads
        self.hub = hub
        self.ack_deadline = ack_deadline
        self.attachment_size_limit = attachment_size_limit
        self.interactions: dict[int, InteractionState] = {}
        self.interactions_by_token: dict[str, InteractionState] = {}
        self.global_commands: dict[int, Json] = {}
        self.guild_commands: dict[int, dict[int, Json]] = {}
        self.events: list[MessageEvent] = []
        self.listeners: list[MessageListener] = []
        self.origins: dict[int, MessageOrigin] = {}
        self.typing: dict[int, int] = {}
        self.nonces = NonceRegistry(nonce_window)

    def now(self) -> float:
        """The stand-in's clock in seconds: the monotonic clock, moved on by
        `StandIn.advance_clock` (token lifetimes, the answer deadline, DM budgets)."""
        return time.monotonic() + self.clock_offset

    @property
    def bot_id(self) -> int:
        """The bot user's id."""
        return self.payloads.app.bot_user_id

    # ---- snapshots and events ---------------------------------------------------------
    def attachment_record(self, att: Attachment) -> AttachmentRecord:
        """A frozen snapshot of an attachment."""
        data = self.payloads.attachment(att)
        return AttachmentRecord(
            id=att.id,
            filename=att.filename,
            size=len(att.data),
            content_type=att.content_type,
            description=att.description,
            url=data["url"],
            width=att.width,
            height=att.height,
            data=att.data,
        )

    def record(self, msg: Message) -> MessageRecord:
        """A frozen snapshot of a message."""
        return MessageRecord(
            id=msg.id,
            channel_id=msg.channel_id,
            guild_id=msg.guild_id,
            author_id=msg.author_id,
            content=msg.content,
            embeds=tuple(copy.deepcopy(msg.embeds)),
            components=tuple(copy.deepcopy(msg.components)),
            attachments=tuple(self.attachment_record(a) for a in msg.attachments),
            flags=msg.flags,
            origin=self.origins.get(msg.id, MessageOrigin.BOT_CHANNEL),
            interaction_id=msg.interaction_id,
            interaction_user_id=(
                self.interactions[msg.interaction_id].user_id
                if msg.interaction_id in self.interactions
                else None
            ),
            visible_to=msg.visible_to,
            edited=msg.edited_timestamp is not None,
            deleted=msg.deleted,
        )

    def _notify(self, kind: EventKind, msg: Message) -> None:
        event = MessageEvent(kind, self.record(msg))
        self.events.append(event)
        for listener in list(self.listeners):
            try:
                listener(event)
            except Exception:
                _log.exception("message listener failed")

    async def _dispatch_message(self, kind: EventKind, msg: Message) -> None:
        """Record the event and send it to sessions that would get it from Discord."""
        self._notify(kind, msg)
        if msg.flags & FLAG_EPHEMERAL:
            return
        channel = self.world.channels.get(msg.channel_id)
        if channel is not None and not self.world.bot_is_member(channel, self.bot_id):
            return  # a place the app is no member of: no gateway event reaches it
        is_dm = channel is not None and channel.type is ChannelType.DM
        intent = Intent.DIRECT_MESSAGES if is_dm else Intent.GUILD_MESSAGES
        if kind is EventKind.DELETE:
            data: Json = {"id": str(msg.id), "channel_id": str(msg.channel_id)}
            if msg.guild_id is not None:
                data["guild_id"] = str(msg.guild_id)
            await self.hub.dispatch("MESSAGE_DELETE", lambda s: data if s.wants(intent) else None)
            return
        event = "MESSAGE_CREATE" if kind is EventKind.CREATE else "MESSAGE_UPDATE"
        full = msg.author_id == self.bot_id or is_dm or self.bot_id in msg.mention_ids

        def build(session: GatewaySession) -> Json | None:
            if not session.wants(intent):
                return None
            with_content = full or session.wants(Intent.MESSAGE_CONTENT)
            return self.payloads.message_event(msg, with_content=with_content)

        await self.hub.dispatch(event, build)

    # ---- building messages from request bodies ------------------------------------
    def _store_upload(self, upload: UploadedFile, *, ephemeral: bool) -> Attachment:
        """Store an uploaded file as a new attachment (`message_parts.store_upload`)."""
        return store_upload(self.world, upload, ephemeral=ephemeral)

    def new_message(
        self,
        body: Body,
        *,
        channel: Channel,
        author_id: int,
        allowed_flags: int,
        visible_to: int | None = None,
        extra_flags: int = 0,
        require_content: bool = True,
    ) -> Message:
        """A validated message built from a create request (not yet stored)."""
        check_body(body, allowed_flags)
        data = body.json
        flags = int(data.get("flags") or 0) | extra_flags
        ephemeral = bool(flags & FLAG_EPHEMERAL)
        attachments = (
            attachments_from(self.world, body, [], ephemeral=ephemeral, editing=False) or []
        )
        content = data.get("content") or ""
        embeds = data.get("embeds") or []
        components = data.get("components") or []
        if require_content and not (
            content
            or embeds
            or components
            or attachments
            or data.get("sticker_ids")
            or data.get("poll")
        ):
            raise empty_message()
        msg = Message(
            id=self.world.ids.next(),
            channel_id=channel.id,
            guild_id=channel.guild_id,
            author_id=author_id,
            content=content,
            embeds=resolve_embed_files(self.payloads, embeds, attachments),
            components=stored_components(components),
            attachments=attachments,
            flags=flags,
            tts=bool(data.get("tts", False)),
            visible_to=visible_to if ephemeral else None,
            nonce=data.get("nonce"),
        )
        msg.mention_ids = mentions(self.world, content, data.get("allowed_mentions"))
        return msg

    async def store_message(self, msg: Message, origin: MessageOrigin) -> Message:
        """Store a new message, update its channel and dispatch MESSAGE_CREATE."""
        self.world.messages[msg.id] = msg
        self.origins[msg.id] = origin
        channel = self.world.channels[msg.channel_id]
        if not msg.flags & FLAG_EPHEMERAL:
            channel.last_message_id = msg.id
            if channel.type.is_thread:
                channel.message_count += 1
                channel.total_message_sent += 1
        await self._dispatch_message(EventKind.CREATE, msg)
        return msg

    async def edit_message(
        self, msg: Message, body: Body, *, allowed_flags: int = EDIT_FLAGS
    ) -> Message:
        """Apply an edit request (fields present replace, attachments per Discord's rules)."""
        check_body(body, allowed_flags | (msg.flags & ~EDIT_FLAGS))
        data = body.json
        ephemeral = bool(msg.flags & FLAG_EPHEMERAL)
        attachments = attachments_from(
            self.world, body, msg.attachments, ephemeral=ephemeral, editing=True
        )
        if attachments is not None:
            msg.attachments = attachments
        if "content" in data:
            msg.content = data["content"] or ""
            msg.mention_ids = mentions(self.world, msg.content, data.get("allowed_mentions"))
        if "embeds" in data:
            msg.embeds = resolve_embed_files(self.payloads, data["embeds"] or [], msg.attachments)
        elif attachments is not None:
            msg.embeds = resolve_embed_files(self.payloads, msg.embeds, msg.attachments)
        if "components" in data:
            msg.components = stored_components(data["components"] or [])
        if data.get("flags") is not None:
            keep = msg.flags & (FLAG_EPHEMERAL | FLAG_IS_COMPONENTS_V2)
            msg.flags = (int(data["flags"]) & EDIT_FLAGS) | keep
        msg.flags &= ~FLAG_LOADING
        if not (msg.content or msg.embeds or msg.components or msg.attachments):
            raise empty_message()
        msg.edited_timestamp = now_iso()
        await self._dispatch_message(EventKind.UPDATE, msg)
        return msg

    async def delete_message(self, msg: Message) -> None:
        """Mark a message deleted and dispatch MESSAGE_DELETE."""
        msg.deleted = True
        await self._dispatch_message(EventKind.DELETE, msg)

    def find_message(self, message_id: int, channel_id: int | None = None) -> Message:
        """A live, non-ephemeral message (as channel routes see them); 404 otherwise."""
        msg = self.world.messages.get(message_id)
        if (
            msg is None
            or msg.deleted
            or msg.flags & FLAG_EPHEMERAL
            or (channel_id is not None and msg.channel_id != channel_id)
        ):
            raise not_found(JsonErrorCode.UNKNOWN_MESSAGE, "Message")
        return msg

    # ---- interactions ---------------------------------------------------------------
    def register_interaction(self, state: InteractionState) -> None:
        """Keep an interaction so callbacks and webhooks can find it."""
        self.interactions[state.id] = state
        self.interactions_by_token[state.token] = state

    def new_interaction_ids(self) -> tuple[int, str]:
        """A fresh interaction id and token."""
        return self.world.ids.next(), "aW50ZXJhY3Rpb24" + new_token()

    def _interaction_meta(self, state: InteractionState) -> Json:
        user = self.world.users[state.user_id]
        meta: Json = {
            "id": str(state.id),
            "type": int(state.kind),
            "user": self.payloads.user(user),
            "authorizing_integration_owners": dict(state.owners),
        }
        if state.kind is InteractionKind.MESSAGE_COMPONENT and state.component_message_id:
            meta["interacted_message_id"] = str(state.component_message_id)
        opener = self.interactions.get(state.opened_by or 0)
        if state.kind is InteractionKind.MODAL_SUBMIT and opener is not None:
            meta["triggering_interaction_metadata"] = self._interaction_meta(opener)
        if state.original_message_id and state.kind is InteractionKind.APPLICATION_COMMAND:
            meta["name"] = state.name.lstrip("/")
            meta["command_type"] = 1
        return meta

    def _attach_interaction(self, msg: Message, state: InteractionState) -> None:
        msg.interaction_id = state.id
        msg.webhook_id = self.payloads.app.id
        msg.application_id = self.payloads.app.id
        msg.interaction_metadata = self._interaction_meta(state)
        if state.kind is InteractionKind.APPLICATION_COMMAND:
            msg.type = MESSAGE_CHAT_INPUT_COMMAND
            user = self.world.users[state.user_id]
            msg.interaction_legacy = {
                "id": str(state.id),
                "type": int(state.kind),
                "name": state.name.lstrip("/"),
                "user": self.payloads.user(user),
            }
        elif state.component_message_id is not None:
            # Answers to components carry a reference to the message the component is on
            # instead of `interaction` (Discord docs, Message Interaction Object).
            target = self.world.messages.get(state.component_message_id)
            msg.type = MESSAGE_REPLY
            msg.message_reference = {
                "type": 0,
                "message_id": str(state.component_message_id),
                "channel_id": str(target.channel_id if target else state.channel_id),
            }
            if state.guild_id is not None:
                msg.message_reference["guild_id"] = str(state.guild_id)
        else:
            msg.type = MESSAGE_DEFAULT

    def _check_deadline(self, state: InteractionState) -> None:
        if self.ack_deadline is not None and self.now() - state.created > self.ack_deadline:
            state.expired = True
            raise not_found(JsonErrorCode.UNKNOWN_INTERACTION, "interaction")

    async def interaction_callback(
        self, interaction_id: int, token: str, body: Body, with_response: bool
    ) -> Json | None:
        """POST /interactions/{id}/{token}/callback; the callback response or None (204)."""
        state = self.interactions.get(interaction_id)
        if state is None or state.token != token:
            raise not_found(JsonErrorCode.UNKNOWN_INTERACTION, "interaction")
        if state.callback is not None:
            raise ApiError(
                400,
                JsonErrorCode.INTERACTION_ALREADY_ACKNOWLEDGED,
                "Interaction has already been acknowledged.",
            )
        self._check_deadline(state)
        raw_type = body.json.get("type")
        try:
            ctype = CallbackType(int(raw_type))  # type: ignore[arg-type]
        except (TypeError, ValueError):
            raise form_error(
                field_error(
                    ("type",),
                    "BASE_TYPE_CHOICES",
                    f"Value must be one of (1, 4, 5, 6, 7, 8, 9, 12), not {raw_type!r}.",
                )
            ) from None
        if ctype not in VALID_CALLBACKS[state.kind]:
            raise ApiError(
                400,
                JsonErrorCode.INVALID_FORM_BODY,
                f"Interaction callback type {int(ctype)} is not valid for a "
                f"{state.kind.name.lower()} interaction",
                field_error(
                    ("type",),
                    "INTERACTION_RESPONSE_TYPE_INVALID",
                    "Invalid interaction response type",
                ),
            )
        state.callback = ctype  # taken now: a concurrent second callback gets 40060
        try:
            message = await self._apply_callback(state, ctype, body)
        except BaseException:
            state.callback = None  # a refused callback acknowledges nothing
            raise
        state.callback_at = self.now()
        state.acknowledged.set()
        if not state.awaiting_followup:
            state.answered.set()
        if not with_response:
            return None
        callback: Json = {"id": str(state.id), "type": int(state.kind)}
        result: Json = {"interaction": callback}
        if message is not None:
            callback["response_message_id"] = str(message.id)
            callback["response_message_loading"] = bool(message.flags & FLAG_LOADING)
            callback["response_message_ephemeral"] = bool(message.flags & FLAG_EPHEMERAL)
            # A resource only for the callbacks that create or update a message (Discord
            # developer docs, Interactions > Receiving and Responding, Interaction Callback
            # Resource Object; the OpenAPI specification's InteractionCallbackResponse).
            if ctype in (CallbackType.CHANNEL_MESSAGE, CallbackType.UPDATE_MESSAGE):
                result["resource"] = {"type": int(ctype),
                                      "message": self.payloads.message(message)}
        return result

    async def _apply_callback(
        self, state: InteractionState, ctype: CallbackType, body: Body
    ) -> Message | None:
        """Carry out one callback; returns the message it created or updated, if any."""
        data = body.json.get("data")
        inner = Body(data if isinstance(data, dict) else {}, body.files)
        if ctype is CallbackType.CHANNEL_MESSAGE:
            return await self._respond_message(state, inner)
        if ctype is CallbackType.DEFERRED_CHANNEL_MESSAGE:
            return await self._respond_deferred(state, inner)
        if ctype is CallbackType.DEFERRED_UPDATE_MESSAGE:
            state.original_message_id = self._component_message(state).id
            state.awaiting_followup = True
            state.pressed_unchanged = True
        elif ctype is CallbackType.UPDATE_MESSAGE:
            target = self._component_message(state)
            state.original_message_id = target.id
            return await self.edit_message(target, inner, allowed_flags=EDIT_FLAGS)
        elif ctype is CallbackType.AUTOCOMPLETE_RESULT:
            choices = inner.json.get("choices")
            raise_if(check_choices(choices))
            state.choices = [Choice(str(c["name"]), c["value"]) for c in choices or []]
        elif ctype is CallbackType.MODAL:
            raise_if(check_modal(data))
            state.modal = copy.deepcopy(data) if isinstance(data, dict) else None
        return None

    def _component_message(self, state: InteractionState) -> Message:
        msg = self.world.messages.get(state.component_message_id or 0)
        if msg is None or msg.deleted:
            raise not_found(JsonErrorCode.UNKNOWN_MESSAGE, "Message")
        return msg

    @staticmethod
    def _force_ephemeral(state: InteractionState, body: Body) -> None:
        """Make the answer ephemeral where Discord does (`InteractionState.forced_ephemeral`)."""
        if state.forced_ephemeral:
            flags = body.json.get("flags")
            body.json["flags"] = (flags if isinstance(flags, int) else 0) | FLAG_EPHEMERAL

    async def _respond_message(self, state: InteractionState, body: Body) -> Message:
        channel = self.world.channels[state.channel_id]
        self._force_ephemeral(state, body)
        msg = self.new_message(
            body,
            channel=channel,
            author_id=self.bot_id,
            allowed_flags=RESPONSE_FLAGS,
            visible_to=state.user_id,
        )
        self._attach_interaction(msg, state)
        state.original_message_id = msg.id
        return await self.store_message(msg, MessageOrigin.INTERACTION_RESPONSE)

    async def _respond_deferred(self, state: InteractionState, body: Body) -> Message:
        channel = self.world.channels[state.channel_id]
        raise_if(check_flags(body.json.get("flags"), FLAG_EPHEMERAL))
        self._force_ephemeral(state, body)
        ephemeral = int(body.json.get("flags") or 0) & FLAG_EPHEMERAL
        msg = Message(
            id=self.world.ids.next(),
            channel_id=channel.id,
            guild_id=channel.guild_id,
            author_id=self.bot_id,
            flags=FLAG_LOADING | ephemeral,
            visible_to=state.user_id if ephemeral else None,
        )
        self._attach_interaction(msg, state)
        state.original_message_id = msg.id
        state.awaiting_followup = True
        return await self.store_message(msg, MessageOrigin.INTERACTION_RESPONSE)

    def webhook_interaction(self, application_id: int, token: str) -> InteractionState:
        """The interaction behind a webhook route; 404 Unknown Webhook / 401 when expired."""
        state = self.interactions_by_token.get(token)
        if state is None or application_id != self.payloads.app.id:
            raise not_found(JsonErrorCode.UNKNOWN_WEBHOOK, "Webhook")
        if self.now() - state.created > self.token_lifetime:
            raise ApiError(401, JsonErrorCode.INVALID_WEBHOOK_TOKEN, "Invalid Webhook Token")
        if state.callback is None:
            raise not_found(JsonErrorCode.UNKNOWN_WEBHOOK, "Webhook")
        return state

    def webhook_message(self, state: InteractionState, message_ref: str) -> Message:
        """`@original` or a follow-up id of this interaction; 404 Unknown Message otherwise."""
        if message_ref == "@original":
            ident = state.original_message_id
        else:
            try:
                ident = int(message_ref)
            except ValueError:
                ident = None
            if ident not in state.followup_ids and ident != state.original_message_id:
                ident = None
        msg = self.world.messages.get(ident or 0)
        if msg is None or msg.deleted:
            raise not_found(JsonErrorCode.UNKNOWN_MESSAGE, "Message")
        return msg

    def _settle(self, state: InteractionState) -> None:
        if state.awaiting_followup:
            state.awaiting_followup = False
            state.answered.set()

    async def followup(self, state: InteractionState, body: Body) -> Message:
        """POST /webhooks/{app}/{token}: a follow-up, or the deferred answer (see docs)."""
        original = self.world.messages.get(state.original_message_id or 0)
        if (
            state.callback is CallbackType.DEFERRED_CHANNEL_MESSAGE
            and original is not None
            and original.flags & FLAG_LOADING
            and not original.deleted
        ):
            flags = body.json.get("flags")
            if isinstance(flags, int):
                body.json["flags"] = flags & ~FLAG_EPHEMERAL
            msg = await self.edit_message(
                original, body, allowed_flags=EDIT_FLAGS | FLAG_SUPPRESS_NOTIFICATIONS
            )
            self._settle(state)
            return msg
        if state.followups_limited and len(state.followup_ids) >= MAX_FOLLOW_UPS:
            raise ApiError(
                400,
                JsonErrorCode.MAX_FOLLOW_UP_MESSAGES,
                "This interaction has hit the maximum number of follow up messages",
            )
        channel = self.world.channels[state.channel_id]
        self._force_ephemeral(state, body)
        msg = self.new_message(
            body,
            channel=channel,
            author_id=self.bot_id,
            allowed_flags=RESPONSE_FLAGS,
            visible_to=state.user_id,
        )
        self._attach_interaction(msg, state)
        state.followup_ids.append(msg.id)
        await self.store_message(msg, MessageOrigin.FOLLOWUP)
        self._settle(state)
        return msg

    async def webhook_edit(self, state: InteractionState, message_ref: str, body: Body) -> Message:
        """PATCH a message of this interaction."""
        msg = self.webhook_message(state, message_ref)
        result = await self.edit_message(msg, body)
        if msg.id == state.original_message_id:
            state.pressed_unchanged = False
        self._settle(state)
        return result

    async def webhook_delete(self, state: InteractionState, message_ref: str) -> None:
        """DELETE a message of this interaction."""
        msg = self.webhook_message(state, message_ref)
        thinking = msg.id == state.original_message_id and bool(msg.flags & FLAG_LOADING)
        await self.delete_message(msg)
        if not thinking:
            # Deleting the "thinking" message of a deferral answers nothing yet: an
            # ephemeral answer after a public deferral is the follow-up that comes next.
            self._settle(state)

    def result(self, state: InteractionState) -> InteractionResult:
        """The driver's record of an answered interaction."""
        original = state.original_message_id if not state.pressed_unchanged else None
        ids = ([original] if original else []) + state.followup_ids
        messages = tuple(
            self.record(self.world.messages[i]) for i in ids if i in self.world.messages
        )
        modal = None
        if state.modal is not None:
            modal = ModalRecord(
                custom_id=str(state.modal.get("custom_id")),
                title=str(state.modal.get("title")),
                inputs=tuple(text_inputs(state.modal.get("components") or [])),
                raw=state.modal,
            )
        latency = (state.callback_at - state.created) if state.callback_at else float("nan")
        return InteractionResult(
            interaction_id=state.id,
            kind=state.kind,
            name=state.name,
            user_id=state.user_id,
            channel_id=state.channel_id,
            callback=state.callback or CallbackType.PONG,
            messages=messages,
            choices=tuple(state.choices),
            modal=modal,
            latency=latency,
        )
