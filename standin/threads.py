"""What threads allow: posting in archived and locked threads, archiving, locking and
renaming them, for the bot's REST requests and the driver's users alike (Discord developer
docs, Topics > Threads: "Locked Threads", "Active & Archived Threads", "Editing & Deleting
Threads"; Resources > Channel, Modify Channel and Start Thread).

- Sending a message unarchives an archived thread, unless it is locked: a locked thread
  (archived or not) takes messages only from those with MANAGE_THREADS.
- Nothing but unarchiving can be done to an archived thread (50083 "Thread is archived"):
  no edit of its messages, reaction, join, or change of its other fields unless the same
  request sets `archived` to false.
- Changing `locked` or `rate_limit_per_user` needs MANAGE_THREADS; `name`, `archived` and
  `auto_archive_duration` the thread's creator or MANAGE_THREADS; unarchiving an unlocked
  thread only what sending a message there needs. A locked thread is changed only with
  MANAGE_THREADS.
"""

from __future__ import annotations

from typing import Any

from .core import Core
from .errors import ApiError, JsonErrorCode, field_error, form_error, merge_errors
from .gateway import Intent
from .model import Channel, Json, Permission
from .snowflakes import now_iso

AUTO_ARCHIVE_DURATIONS = (60, 1440, 4320, 10080)
"""The minutes a thread may stay in the channel list without activity (Resources >
Channel, Thread Metadata Object, `auto_archive_duration`)."""
NAME_LENGTH = (1, 100)
"""A thread's name, 1 to 100 characters (Start Thread, Modify Channel)."""


def thread_archived() -> ApiError:
    """403 Thread is archived (50083): what Discord answers to anything but unarchiving
    in an archived thread."""
    return ApiError(403, JsonErrorCode.THREAD_ARCHIVED, "Thread is archived")


def thread_locked() -> ApiError:
    """403 Thread is locked (160005): a message in a locked thread without
    MANAGE_THREADS."""
    return ApiError(403, JsonErrorCode.THREAD_LOCKED, "Thread is locked")


def missing_permissions() -> ApiError:
    """403 Missing Permissions (50013)."""
    return ApiError(403, JsonErrorCode.MISSING_PERMISSIONS, "Missing Permissions")


def check_name(value: Any, errors: Json) -> None:
    """A thread name of 1-100 characters; otherwise an entry in `errors`."""
    low, high = NAME_LENGTH
    if not isinstance(value, str) or not low <= len(value) <= high:
        merge_errors(errors, field_error(
            ("name",), "BASE_TYPE_BAD_LENGTH", f"Must be between {low} and {high} in length."
        ))


def check_auto_archive_duration(value: Any, errors: Json) -> None:
    """One of `AUTO_ARCHIVE_DURATIONS` (None: not given); otherwise an entry in `errors`."""
    if value is not None and value not in AUTO_ARCHIVE_DURATIONS:
        merge_errors(errors, field_error(
            ("auto_archive_duration",), "BASE_TYPE_CHOICES",
            f"Value must be one of {AUTO_ARCHIVE_DURATIONS}.",
        ))


def require_active(thread: Channel) -> None:
    """403 Thread is archived (50083) for an archived thread (editing a message, adding
    a reaction, joining)."""
    if thread.archived:
        raise thread_archived()


def may_manage(core: Core, thread: Channel, user_id: int) -> bool:
    """True when `user_id` has MANAGE_THREADS in the thread."""
    return bool(core.world.permissions_in(thread, user_id) & Permission.MANAGE_THREADS)


async def dispatch_update(core: Core, thread: Channel) -> Json:
    """THREAD_UPDATE to the sessions with the guilds intent; returns the thread's payload."""
    payload = core.payloads.channel(thread)
    await core.hub.dispatch("THREAD_UPDATE", lambda s: payload if s.wants(Intent.GUILDS) else None)
    return payload


async def open_for_message(core: Core, thread: Channel, user_id: int) -> None:
    """Before `user_id` posts in `thread`: a locked thread refuses them without
    MANAGE_THREADS (403 50083 when archived, 403 160005 when active); an archived one is
    unarchived by the message (THREAD_UPDATE)."""
    if thread.locked and not may_manage(core, thread, user_id):
        raise thread_archived() if thread.archived else thread_locked()
    if thread.archived:
        thread.archived = False
        thread.archive_timestamp = now_iso()
        await dispatch_update(core, thread)


def _edit_permission(core: Core, thread: Channel, data: Json, user_id: int) -> None:
    """403 Missing Permissions unless `user_id` may make every change in `data`."""
    if may_manage(core, thread, user_id):
        return
    if thread.locked:
        raise missing_permissions()  # locked: only MANAGE_THREADS changes anything
    changes = {k for k in data if k != "archived" or data[k] is not thread.archived}
    if changes & {"locked", "rate_limit_per_user"}:
        raise missing_permissions()
    only_unarchiving = changes <= {"archived"} and data.get("archived") is False
    if only_unarchiving:
        if not core.world.permissions_in(thread, user_id) & Permission.SEND_MESSAGES_IN_THREADS:
            raise missing_permissions()
        return
    if changes and thread.owner_id != user_id:
        raise missing_permissions()


async def edit_thread(core: Core, thread: Channel, data: Json, user_id: int) -> Json:
    """Apply a Modify Channel body to a thread as `user_id`; dispatches THREAD_UPDATE and
    returns the thread's payload. Raises `ApiError`: 403 50083 when the thread is
    archived and the body does not unarchive it, 403 Missing Permissions for a change
    the user may not make, 400 Invalid Form Body for a bad name or archive duration."""
    if thread.archived and data.get("archived") is not False:
        raise thread_archived()
    _edit_permission(core, thread, data, user_id)
    errors: Json = {}
    if "name" in data:
        check_name(data["name"], errors)
    check_auto_archive_duration(data.get("auto_archive_duration"), errors)
    if errors:
        raise form_error(errors)
    if "name" in data:
        thread.name = str(data["name"])
    if "locked" in data:
        thread.locked = bool(data["locked"])
    archived = bool(data.get("archived", thread.archived))
    duration = data.get("auto_archive_duration")
    if archived is not thread.archived or (duration and duration != thread.auto_archive_duration):
        thread.archive_timestamp = now_iso()
    thread.archived = archived
    if duration:
        thread.auto_archive_duration = int(duration)
    if data.get("rate_limit_per_user") is not None:
        thread.rate_limit_per_user = int(data["rate_limit_per_user"])
    return await dispatch_update(core, thread)
