"""Request bodies: JSON, or multipart with a `payload_json` part and `files[N]` parts.

See Discord's developer docs, Reference > Uploading Files.
"""

from __future__ import annotations

import json
import re
import struct
from dataclasses import dataclass
from typing import Any

from aiohttp import BodyPartReader, web

from .errors import ApiError, JsonErrorCode, field_error, form_error

_FILE_FIELD = re.compile(r"^files\[(\d+)\]$")

PAYLOAD_JSON = web.RequestKey("standin.payload_json", dict[str, Any])
"""The request key under which a multipart body's parsed `payload_json` is kept (the body
can be read only once; the OpenAPI check reads it there, `standin/openapi.py`)."""


@dataclass(frozen=True)
class UploadedFile:
    """One `files[N]` part."""

    index: int
    filename: str
    content_type: str | None
    data: bytes


@dataclass(frozen=True)
class Body:
    """A parsed request body: the JSON object and the uploaded files by index."""

    json: dict[str, Any]
    files: dict[int, UploadedFile]


async def read_body(request: web.Request, *, max_file_size: int) -> Body:
    """Parse a JSON or multipart body.

    Raises `ApiError` 400 (50035 or 50109 style) for malformed JSON, a missing
    `payload_json`, or a non-object body, and 413 (40005) for a file over `max_file_size`.
    """
    ctype = request.content_type
    if ctype.startswith("multipart/"):
        return await _read_multipart(request, max_file_size)
    raw = await request.read()
    if not raw:
        return Body({}, {})
    try:
        data = json.loads(raw)
    except ValueError as exc:
        raise ApiError(
            400, JsonErrorCode.GENERAL, f"The request body contains invalid JSON ({exc})"
        ) from None
    if not isinstance(data, dict):
        raise form_error(field_error(("_root",), "BASE_TYPE_BAD_TYPE", "Must be an object."))
    return Body(data, {})


async def read_json_any(request: web.Request) -> Any:
    """The JSON value of a body (for endpoints taking arrays); 400 when not JSON."""
    try:
        return json.loads(await request.read() or b"null")
    except ValueError as exc:
        raise ApiError(
            400, JsonErrorCode.GENERAL, f"The request body contains invalid JSON ({exc})"
        ) from None


async def _read_multipart(request: web.Request, max_file_size: int) -> Body:
    reader = await request.multipart()
    payload: dict[str, Any] = {}
    files: dict[int, UploadedFile] = {}
    while True:
        part = await reader.next()
        if part is None:
            break
        if not isinstance(part, BodyPartReader):
            continue
        name = part.name or ""
        if name == "payload_json":
            text = await part.text()
            try:
                value = json.loads(text)
            except ValueError as exc:
                raise ApiError(
                    400, JsonErrorCode.GENERAL, f"payload_json is not valid JSON ({exc})"
                ) from None
            if not isinstance(value, dict):
                raise form_error(
                    field_error(("payload_json",), "BASE_TYPE_BAD_TYPE", "Must be an object.")
                )
            payload = value
            request[PAYLOAD_JSON] = value
            continue
        match = _FILE_FIELD.match(name)
        if match is None and name != "file":
            continue
        data = bytes(await part.read())
        if len(data) > max_file_size:
            raise ApiError(413, JsonErrorCode.REQUEST_ENTITY_TOO_LARGE, "Request entity too large")
        index = int(match.group(1)) if match else len(files)
        ptype = part.headers.get("Content-Type")
        files[index] = UploadedFile(index, part.filename or f"file{index}", ptype, data)
    return Body(payload, files)


def sniff_content_type(filename: str, data: bytes, declared: str | None) -> str | None:
    """The content type Discord would report: from the bytes' signature, else the name."""
    if data.startswith(b"\x89PNG\r\n\x1a\n"):
        return "image/png"
    if data[:6] in (b"GIF87a", b"GIF89a"):
        return "image/gif"
    if data.startswith(b"\xff\xd8\xff"):
        return "image/jpeg"
    lower = filename.lower()
    for ext, kind in (
        (".pdn", "text/plain; charset=utf-8"),
        (".txt", "text/plain; charset=utf-8"),
        (".json", "application/json"),
        (".svg", "image/svg+xml"),
        (".webp", "image/webp"),
    ):
        if lower.endswith(ext):
            return kind
    if declared and declared != "application/octet-stream":
        return declared
    return None


def image_size(data: bytes) -> tuple[int, int] | None:
    """Width and height of a PNG or GIF from its header (the fields Discord reports)."""
    if data.startswith(b"\x89PNG\r\n\x1a\n") and len(data) >= 24:
        width, height = struct.unpack(">II", data[16:24])
        return int(width), int(height)
    if data[:6] in (b"GIF87a", b"GIF89a") and len(data) >= 10:
        width, height = struct.unpack("<HH", data[6:10])
        return int(width), int(height)
    return None
