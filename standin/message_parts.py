"""A message's parts from a create or edit request body: checks, attachments, embeds'
file references and mentions (Discord docs, Create Message and Edit Webhook Message).

`core.Core` builds and edits messages with these; they keep no state of their own.
"""

from __future__ import annotations

import copy
from typing import Any

from .bodies import Body, UploadedFile, image_size, sniff_content_type
from .errors import field_error, form_error, merge_errors
from .model import Attachment, Json, World
from .payloads import FLAG_IS_COMPONENTS_V2, Payloads
from .validation import (
    check_components,
    check_content,
    check_embeds,
    check_flags,
    check_nonce,
    raise_if,
)

_EMBED_MEDIA = ("image", "thumbnail")
_EMBED_ICONS = (("author", "icon_url"), ("footer", "icon_url"))


def attachments_from(
    world: World,
    body: Body,
    existing: list[Attachment],
    *,
    ephemeral: bool,
    editing: bool,
) -> list[Attachment] | None:
    """The attachment list after a create/edit, or None when an edit leaves it alone.

    Discord (Edit Webhook Message): `attachments` lists what remains, retained ones by
    id and new uploads by file index; without it, uploads are appended. The uploads are
    stored in `world`. Raises `ApiError` (400, Invalid Form Body) when `attachments` is no
    list or names an attachment neither uploaded nor already on the message.
    """
    files = body.files
    listed = body.json.get("attachments")
    new: dict[int, Attachment] = {}
    for index, upload in sorted(files.items()):
        new[index] = store_upload(world, upload, ephemeral=ephemeral)
    if listed is None:
        if editing and not files:
            return None
        return [*existing, *new.values()] if editing else list(new.values())
    if not isinstance(listed, list):
        raise form_error(
            field_error(("attachments",), "BASE_TYPE_BAD_TYPE", "Must be an array.")
        )
    by_id = {a.id: a for a in existing}
    result: list[Attachment] = []
    errors: Json = {}
    for i, item in enumerate(listed):
        if not isinstance(item, dict) or "id" not in item:
            merge_errors(
                errors,
                field_error(
                    ("attachments", i, "id"), "BASE_TYPE_REQUIRED", "This field is required"
                ),
            )
            continue
        try:
            ident = int(item["id"])
        except (TypeError, ValueError):
            merge_errors(
                errors,
                field_error(
                    ("attachments", i, "id"),
                    "NUMBER_TYPE_COERCE",
                    f'Value "{item["id"]}" is not snowflake.',
                ),
            )
            continue
        if ident in new:
            att = new[ident]
            if item.get("description") is not None:
                att.description = str(item["description"])
            if item.get("filename"):
                att.filename = str(item["filename"])
            result.append(att)
        elif ident in by_id:
            result.append(by_id[ident])
        else:
            merge_errors(
                errors,
                field_error(
                    ("attachments", i, "id"),
                    "ATTACHMENT_NOT_FOUND",
                    f"Attachment {ident} is neither uploaded here nor on the message",
                ),
            )
    if errors:
        raise form_error(errors)
    return result


def store_upload(world: World, upload: UploadedFile, *, ephemeral: bool) -> Attachment:
    """Store an uploaded file as a new attachment of `world` (its id, content type sniffed
    from name and bytes, an image's size); the attachment is returned."""
    size = image_size(upload.data)
    att = Attachment(
        id=world.ids.next(),
        filename=upload.filename,
        data=upload.data,
        content_type=sniff_content_type(upload.filename, upload.data, upload.content_type),
        width=size[0] if size else None,
        height=size[1] if size else None,
        ephemeral=ephemeral,
    )
    world.attachments[att.id] = att
    return att


def resolve_embed_files(
    payloads: Payloads, embeds: list[Json], attachments: list[Attachment]
) -> list[Json]:
    """Replace `attachment://name` in embeds with the uploaded file's URL and size."""
    by_name = {a.filename: a for a in attachments}
    result = copy.deepcopy(embeds)
    for embed in result:
        embed.setdefault("type", "rich")
        for key in _EMBED_MEDIA:
            media = embed.get(key)
            if isinstance(media, dict):
                _resolve_url(payloads, media, "url", by_name, with_size=True)
        for key, url_key in _EMBED_ICONS:
            part = embed.get(key)
            if isinstance(part, dict):
                _resolve_url(payloads, part, url_key, by_name, with_size=False)
    return result


def _resolve_url(
    payloads: Payloads, obj: Json, key: str, by_name: dict[str, Attachment], *, with_size: bool
) -> None:
    url = obj.get(key)
    if not isinstance(url, str) or not url.startswith("attachment://"):
        return
    att = by_name.get(url[len("attachment://") :])
    if att is None:
        return
    real = payloads.attachment(att)["url"]
    obj[key] = real
    obj["proxy_url" if key == "url" else f"proxy_{key}"] = real
    if with_size and att.width is not None:
        obj["width"] = att.width
        obj["height"] = att.height
        obj["content_type"] = att.content_type
        obj["flags"] = 0


def check_body(body: Body, allowed_flags: int) -> None:
    """Validate a create/edit request's content, embeds, nonce, flags (`allowed_flags`) and
    components, the legacy fields forbidden beside IS_COMPONENTS_V2 included.

    Raises `ApiError` (400, Invalid Form Body) listing every field error found.
    """
    data = body.json
    errors: Json = {}
    merge_errors(errors, check_content(data.get("content")))
    merge_errors(errors, check_embeds(data.get("embeds")))
    merge_errors(errors, check_nonce(data.get("nonce"), data.get("enforce_nonce")))
    flags = data.get("flags")
    merge_errors(errors, check_flags(flags, allowed_flags))
    v2 = isinstance(flags, int) and bool(flags & FLAG_IS_COMPONENTS_V2)
    merge_errors(errors, check_components(data.get("components"), components_v2=v2))
    if v2:
        for key in ("content", "embeds", "poll"):
            if data.get(key):
                merge_errors(
                    errors,
                    field_error(
                        (key,),
                        "MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2",
                        "The 'content', 'embeds' and 'poll' fields cannot be used "
                        "when using the IS_COMPONENTS_V2 flag",
                    ),
                )
    raise_if(errors)


def mentions(world: World, content: str, allowed: Any) -> list[int]:
    """The ids of `world`'s users that `content` mentions and `allowed` (a request's
    `allowed_mentions`, Discord's Allowed Mentions Object) lets ping."""
    ids: list[int] = []
    parse = None
    users_allowed: list[int] | None = None
    if isinstance(allowed, dict):
        parse = allowed.get("parse")
        users_allowed = [int(u) for u in allowed.get("users") or []]
    for user_id in world.users:
        mentioned = f"<@{user_id}>" in content or f"<@!{user_id}>" in content
        if mentioned and (
            parse is None
            or "users" in parse
            or (users_allowed is not None and user_id in users_allowed)
        ):
            ids.append(user_id)
    return ids
