"""What a test sees of the stand-in: messages, registered commands, uploaded files,
message events and typing, as frozen records or copies (the driver's "Looking" calls).

`Inspection` adds these to `Directory`; `StandIn` is one.
"""

from __future__ import annotations

import asyncio
import contextlib
import copy
from collections.abc import Callable

from .directory import ChannelRef, GuildRef, MessageRef, UserRef
from .errors import BotDidNotAnswer, StandInError
from .model import Json
from .options import descend, split_command
from .payloads import FLAG_EPHEMERAL
from .places import Places
from .records import AttachmentRecord, MessageEvent, MessageRecord


class Inspection(Places):
    """The stand-in's records read back: messages, commands, files, events, typing."""

    def messages(
        self,
        channel: ChannelRef,
        *,
        include_ephemeral: bool = True,
        visible_to: UserRef | None = None,
    ) -> list[MessageRecord]:
        """The channel's messages, oldest first (deleted ones left out).

        With `visible_to`, only what that user sees (others' ephemeral messages left out).
        """
        ch = self._channel(channel)
        viewer = self._user(visible_to, create=False).id if visible_to is not None else None
        result = []
        for msg in self.world.channel_messages(ch.id):
            hidden = not include_ephemeral or (viewer is not None and msg.visible_to != viewer)
            if msg.flags & FLAG_EPHEMERAL and hidden:
                continue
            result.append(self.core.record(msg))
        return result

    def message(self, message: MessageRef) -> MessageRecord:
        """The current state of a message (also when deleted: `deleted` is then True)."""
        ident = message.id if isinstance(message, MessageRecord) else message
        msg = self.world.messages.get(ident)
        if msg is None:
            raise StandInError(f"no message with id {ident}")
        return self.core.record(msg)

    def last_message(
        self, channel: ChannelRef, *, with_buttons: bool = False, visible_to: UserRef | None = None
    ) -> MessageRecord:
        """The newest message of a channel (optionally the newest that has buttons)."""
        for record in reversed(self.messages(channel, visible_to=visible_to)):
            if not with_buttons or record.buttons:
                return record
        what = "with buttons " if with_buttons else ""
        raise StandInError(f"no message {what}in #{self._channel(channel).name}")

    def commands(self, guild: GuildRef | None = None) -> list[Json]:
        """Registered commands: global ones, or a guild's own (copies of what Discord keeps)."""
        if guild is None:
            return copy.deepcopy(list(self.core.global_commands.values()))
        g = self._guild(guild)
        return copy.deepcopy(list(self.core.guild_commands.get(g.id, {}).values()))

    def options_of(self, command: str, channel: ChannelRef | None = None) -> list[Json]:
        """The option schema (in order) of a registered slash command or sub-command.

        `command` is e.g. "move" or "game move"; with `channel`, that guild's own commands
        come first (as in the Discord client), then the global ones. Raises `StandInError`
        when no such command is registered.
        """
        path = split_command(command)
        pools: list[Json] = []
        ch = self._channel(channel) if channel is not None else None
        if ch is not None and ch.guild_id is not None:
            pools.extend(self.core.guild_commands.get(ch.guild_id, {}).values())
        pools.extend(self.core.global_commands.values())
        found = next((c for c in pools if c["name"] == path[0] and c["type"] == 1), None)
        if found is None:
            names = sorted({"/" + c["name"] for c in pools if c["type"] == 1})
            raise StandInError(
                f"no slash command /{path[0]}; registered: {', '.join(names) or 'none'}"
            )
        schema, _ = descend(found, path)
        return copy.deepcopy(schema)

    def attachment_bytes(self, attachment: AttachmentRecord | int | str) -> bytes:
        """The bytes of an uploaded file (by record, id or its URL)."""
        if isinstance(attachment, AttachmentRecord):
            ident = attachment.id
        elif isinstance(attachment, int):
            ident = attachment
        else:
            try:
                ident = int(attachment.rstrip("/").split("/")[-2])
            except (IndexError, ValueError):
                raise StandInError(
                    f"{attachment!r} is not an attachment URL of the stand-in"
                ) from None
        att = self.world.attachments.get(ident)
        if att is None:
            raise StandInError(f"no attachment {ident}")
        return att.data

    @property
    def events(self) -> list[MessageEvent]:
        """Every message event so far (created, edited, deleted), in order."""
        return list(self.core.events)

    def add_listener(self, listener: Callable[[MessageEvent], None]) -> None:
        """Call `listener` on every message event from now on (e.g. to print answers)."""
        self.core.listeners.append(listener)

    def remove_listener(self, listener: Callable[[MessageEvent], None]) -> None:
        """Stop calling `listener`."""
        with contextlib.suppress(ValueError):
            self.core.listeners.remove(listener)

    @property
    def event_count(self) -> int:
        """How many message events there have been (a mark for `wait_for_message(since=)`)."""
        return len(self.core.events)

    async def wait_for_message(
        self,
        predicate: Callable[[MessageEvent], bool],
        *,
        timeout: float = 10.0,
        since: int | None = None,
    ) -> MessageEvent:
        """The first message event matching `predicate`: among the events from index `since`
        on (see `event_count`) when given, else the next one to happen.

        Raises `BotDidNotAnswer` after `timeout` seconds.
        """
        if since is not None:
            for event in self.core.events[since:]:
                if predicate(event):
                    return event
        loop = asyncio.get_running_loop()
        future: asyncio.Future[MessageEvent] = loop.create_future()

        def listener(event: MessageEvent) -> None:
            if not future.done() and predicate(event):
                future.set_result(event)

        self.add_listener(listener)
        try:
            return await asyncio.wait_for(future, timeout)
        except TimeoutError:
            raise BotDidNotAnswer(f"no matching message event within {timeout} s") from None
        finally:
            self.remove_listener(listener)

    def typing_count(self, channel: ChannelRef) -> int:
        """How often the bot said it was typing in a channel."""
        return self.core.typing.get(self._channel(channel).id, 0)
