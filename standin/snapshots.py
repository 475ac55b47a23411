"""Frozen snapshots of the stand-in's messages and attachments, as tests and observers
read them (`MessageRecord`, `AttachmentRecord`)."""

from __future__ import annotations

import copy
from collections.abc import Callable

from .model import Attachment, Message
from .records import AttachmentRecord, MessageOrigin, MessageRecord


def attachment_snapshot(att: Attachment, url: str) -> AttachmentRecord:
    """A frozen snapshot of `att`, served at `url`."""
    return AttachmentRecord(
        id=att.id,
        filename=att.filename,
        size=len(att.data),
        content_type=att.content_type,
        description=att.description,
        url=url,
        width=att.width,
        height=att.height,
        data=att.data,
    )


def message_snapshot(
    msg: Message,
    origin: MessageOrigin,
    interaction_user_id: int | None,
    attachment: Callable[[Attachment], AttachmentRecord],
) -> MessageRecord:
    """A frozen snapshot of `msg`: `origin` says who made it, `interaction_user_id` who
    made the interaction it answers (None: none), `attachment` snapshots each file."""
    return MessageRecord(
        id=msg.id,
        channel_id=msg.channel_id,
        guild_id=msg.guild_id,
        author_id=msg.author_id,
        content=msg.content,
        embeds=tuple(copy.deepcopy(msg.embeds)),
        components=tuple(copy.deepcopy(msg.components)),
        attachments=tuple(attachment(a) for a in msg.attachments),
        flags=msg.flags,
        origin=origin,
        interaction_id=msg.interaction_id,
        interaction_user_id=interaction_user_id,
        visible_to=msg.visible_to,
        edited=msg.edited_timestamp is not None,
        deleted=msg.deleted,
    )
