"""Guild scheduled events: creating, changing and deleting them, and users pressing
"Interested", with the gateway events Discord sends (Discord developer docs, Resources >
Guild Scheduled Event; Topics > Gateway Events, Guild Scheduled Event Create ... User
Remove, all under the GUILD_SCHEDULED_EVENTS intent).

The stand-in models no voice or stage channels, so only EXTERNAL events (entity type 3,
somewhere named by `entity_metadata.location`) can be made; a STAGE_INSTANCE or VOICE
event is refused on its `channel_id`. Statuses change only when asked (Discord starts and
ends external events at their times by itself; the stand-in does not).
"""

from __future__ import annotations

import copy
from datetime import UTC, datetime
from typing import Any

from .core import Core
from .errors import ApiError, JsonErrorCode, field_error, form_error, merge_errors, not_found
from .gateway import Intent
from .model import (
    Guild,
    Json,
    Permission,
    ScheduledEvent,
    ScheduledEventEntityType,
    ScheduledEventStatus,
)

MAX_UNFINISHED_EVENTS = 100
"""Events with SCHEDULED or ACTIVE status a guild may have at once (Create Guild
Scheduled Event)."""
GUILD_ONLY = 2
"""The one privacy level (Guild Scheduled Event Privacy Level)."""
NAME_LENGTH = (1, 100)
DESCRIPTION_LENGTH = (1, 1000)
LOCATION_LENGTH = (1, 100)
TRANSITIONS = {
    ScheduledEventStatus.SCHEDULED: {ScheduledEventStatus.ACTIVE, ScheduledEventStatus.CANCELED},
    ScheduledEventStatus.ACTIVE: {ScheduledEventStatus.COMPLETED},
}
"""The valid status transitions (Valid Guild Scheduled Event Status Transitions)."""


def _text(
    data: Json, key: str, bounds: tuple[int, int], errors: Json, *, nullable: bool = False
) -> str | None:
    """`data[key]` when it is a string of `bounds` characters (None, if `nullable`);
    otherwise an entry in `errors`."""
    value = data.get(key)
    if value is None and nullable:
        return None
    low, high = bounds
    if not isinstance(value, str) or not low <= len(value) <= high:
        merge_errors(errors, field_error(
            (key,), "BASE_TYPE_BAD_LENGTH", f"Must be between {low} and {high} in length."
        ))
        return None
    return value


def _timestamp(data: Json, key: str, errors: Json) -> str | None:
    """`data[key]` as an ISO 8601 timestamp in UTC, as Discord answers it (a time without
    zone is read as UTC); otherwise an entry in `errors`."""
    value = data.get(key)
    try:
        moment = datetime.fromisoformat(value) if isinstance(value, str) else None
    except ValueError:
        moment = None
    if moment is None:
        merge_errors(errors, field_error(
            (key,), "DATE_TYPE_PARSE", f"Could not interpret {value!r} as a date or time."
        ))
        return None
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return moment.astimezone(UTC).isoformat()


def _required(data: Json, keys: tuple[str, ...], errors: Json) -> None:
    for key in keys:
        if data.get(key) is None:
            merge_errors(errors, field_error((key,), "BASE_TYPE_REQUIRED",
                                             "This field is required"))


def _entity_type(value: Any, errors: Json) -> ScheduledEventEntityType | None:
    try:
        return ScheduledEventEntityType(int(value))
    except (TypeError, ValueError):
        merge_errors(errors, field_error(
            ("entity_type",), "BASE_TYPE_CHOICES", "Value must be one of (1, 2, 3)."
        ))
        return None


class ScheduledEvents:
    """The scheduled events of `core`'s world: checked changes, dispatched to sessions
    with the GUILD_SCHEDULED_EVENTS intent."""

    def __init__(self, core: Core) -> None:
        self.core = core
        self.world = core.world

    # ---- look-ups and permissions -------------------------------------------------
    def find(self, guild: Guild, event_id: int) -> ScheduledEvent:
        """The guild's event `event_id`; 404 Unknown Guild Scheduled Event otherwise."""
        event = self.world.scheduled_events.get(event_id)
        if event is None or event.guild_id != guild.id:
            raise not_found(JsonErrorCode.UNKNOWN_GUILD_SCHEDULED_EVENT, "Guild Scheduled Event")
        return event

    def require_create(self, guild: Guild, user_id: int) -> None:
        """403 Missing Permissions unless `user_id` may create events in `guild`: the
        guild-level CREATE_EVENTS (Guild Scheduled Event Permissions Requirements)."""
        if not self.world.base_permissions(guild, user_id) & Permission.CREATE_EVENTS:
            raise ApiError(403, JsonErrorCode.MISSING_PERMISSIONS, "Missing Permissions")

    def require_manage(self, guild: Guild, event: ScheduledEvent, user_id: int) -> None:
        """403 Missing Permissions unless `user_id` may modify or delete `event`: its
        creator with CREATE_EVENTS or MANAGE_EVENTS, anyone else with MANAGE_EVENTS
        (Guild Scheduled Event Permissions Requirements)."""
        wanted = int(Permission.MANAGE_EVENTS)
        if event.creator_id == user_id:
            wanted |= Permission.CREATE_EVENTS
        if not self.world.base_permissions(guild, user_id) & wanted:
            raise ApiError(403, JsonErrorCode.MISSING_PERMISSIONS, "Missing Permissions")

    # ---- changes ----------------------------------------------------------------------
    async def create(self, guild: Guild, data: Json, creator_id: int) -> ScheduledEvent:
        """A new event from a Create Guild Scheduled Event body; dispatches
        GUILD_SCHEDULED_EVENT_CREATE. Raises `ApiError`: 403 without CREATE_EVENTS, 400
        Invalid Form Body for a missing or malformed field (an EXTERNAL event needs
        `entity_metadata.location` and `scheduled_end_time`, no `channel_id`), 30038 for a
        101st unfinished event."""
        self.require_create(guild, creator_id)
        errors: Json = {}
        _required(data, ("name", "privacy_level", "scheduled_start_time", "entity_type"), errors)
        if errors:
            raise form_error(errors)
        name = _text(data, "name", NAME_LENGTH, errors)
        description = _text(data, "description", DESCRIPTION_LENGTH, errors, nullable=True)
        start = _timestamp(data, "scheduled_start_time", errors)
        if data.get("privacy_level") != GUILD_ONLY:
            merge_errors(errors, field_error(
                ("privacy_level",), "BASE_TYPE_CHOICES", "Value must be one of (2,)."
            ))
        kind = _entity_type(data.get("entity_type"), errors)
        location, end = self._entity_fields(data, kind, errors)
        if errors or name is None or start is None or kind is None:
            raise form_error(errors)
        if len(self.world.guild_scheduled_events(guild.id)) >= MAX_UNFINISHED_EVENTS:
            raise ApiError(
                400,
                JsonErrorCode.MAX_SCHEDULED_EVENTS,
                "Maximum number of uncompleted guild scheduled events reached "
                f"({MAX_UNFINISHED_EVENTS})",
            )
        rule = data.get("recurrence_rule")
        event = ScheduledEvent(
            id=self.world.ids.next(),
            guild_id=guild.id,
            creator_id=creator_id,
            name=name,
            description=description,
            scheduled_start_time=start,
            scheduled_end_time=end,
            entity_type=kind,
            location=location,
            recurrence_rule=copy.deepcopy(rule) if isinstance(rule, dict) else None,
        )
        self.world.scheduled_events[event.id] = event
        await self._dispatch_event("GUILD_SCHEDULED_EVENT_CREATE", event)
        return event

    def _entity_fields(
        self, data: Json, kind: ScheduledEventEntityType | None, errors: Json
    ) -> tuple[str | None, str | None]:
        """The location and end time the entity type asks for (Field Requirements By
        Entity Type); a stage or voice event names a channel the stand-in cannot have."""
        end = None
        if data.get("scheduled_end_time") is not None:
            end = _timestamp(data, "scheduled_end_time", errors)
        if kind is None:
            return None, end
        if kind is not ScheduledEventEntityType.EXTERNAL:
            self._refuse_channel(data.get("channel_id"), errors)
            return None, end
        if data.get("channel_id") is not None:
            merge_errors(errors, field_error(
                ("channel_id",), "BASE_TYPE_NULL", "An external event has no channel."
            ))
        metadata = data.get("entity_metadata")
        location = None
        if not isinstance(metadata, dict) or metadata.get("location") is None:
            merge_errors(errors, field_error(
                ("entity_metadata", "location"), "BASE_TYPE_REQUIRED", "This field is required"
            ))
        else:
            inner: Json = {}
            location = _text(metadata, "location", LOCATION_LENGTH, inner)
            if inner:
                merge_errors(errors, {"entity_metadata": inner})
        if data.get("scheduled_end_time") is None:
            merge_errors(errors, field_error(
                ("scheduled_end_time",), "BASE_TYPE_REQUIRED", "This field is required"
            ))
        return location, end

    def _refuse_channel(self, raw: Any, errors: Json) -> None:
        """A stage or voice event's `channel_id`: required, and (the stand-in having no
        voice or stage channels) never one that can host the event."""
        if raw is None:
            merge_errors(errors, field_error(("channel_id",), "BASE_TYPE_REQUIRED",
                                             "This field is required"))
            return
        try:
            channel = self.world.channels.get(int(raw))
        except (TypeError, ValueError):
            channel = None
        if channel is None:
            raise not_found(JsonErrorCode.UNKNOWN_CHANNEL, "Channel")
        kind = channel.type.name
        merge_errors(errors, field_error(
            ("channel_id",), "CHANNEL_TYPE_INVALID",
            f"A stage or voice event needs a stage or voice channel, not a {kind} channel.",
        ))

    async def modify(self, guild: Guild, event: ScheduledEvent, data: Json,
                     user_id: int) -> ScheduledEvent:
        """Apply a Modify Guild Scheduled Event body; dispatches
        GUILD_SCHEDULED_EVENT_UPDATE. Raises `ApiError`: 403 without the permission
        (`require_manage`), 180000 for a finished event, 400 Invalid Form Body for a
        malformed field, a status transition Discord does not allow, or an EXTERNAL
        event left without location or end time."""
        self.require_manage(guild, event, user_id)
        if event.status.finished:
            raise ApiError(400, JsonErrorCode.FINISHED_EVENT, "Cannot update a finished event")
        errors: Json = {}
        merged: Json = {
            "name": event.name,
            "description": event.description,
            "scheduled_start_time": event.scheduled_start_time,
            "scheduled_end_time": event.scheduled_end_time,
            "entity_type": int(event.entity_type),
            "channel_id": event.channel_id,
            "entity_metadata": {"location": event.location},
        }
        merged.update({k: v for k, v in data.items() if k in merged})
        name = _text(merged, "name", NAME_LENGTH, errors)
        description = _text(merged, "description", DESCRIPTION_LENGTH, errors, nullable=True)
        start = _timestamp(merged, "scheduled_start_time", errors)
        if "privacy_level" in data and data["privacy_level"] != GUILD_ONLY:
            merge_errors(errors, field_error(
                ("privacy_level",), "BASE_TYPE_CHOICES", "Value must be one of (2,)."
            ))
        kind = _entity_type(merged["entity_type"], errors)
        location, end = self._entity_fields(merged, kind, errors)
        status = self._status(event, data.get("status"), errors)
        if errors or name is None or start is None or kind is None:
            raise form_error(errors)
        event.name, event.description = name, description
        event.scheduled_start_time, event.scheduled_end_time = start, end
        event.entity_type, event.location, event.status = kind, location, status
        if "recurrence_rule" in data:
            rule = data["recurrence_rule"]
            event.recurrence_rule = copy.deepcopy(rule) if isinstance(rule, dict) else None
        await self._dispatch_event("GUILD_SCHEDULED_EVENT_UPDATE", event)
        return event

    @staticmethod
    def _status(event: ScheduledEvent, raw: Any, errors: Json) -> ScheduledEventStatus:
        if raw is None:
            return event.status
        try:
            wanted = ScheduledEventStatus(int(raw))
        except (TypeError, ValueError):
            wanted = None
        if wanted is not None and (
            wanted is event.status or wanted in TRANSITIONS.get(event.status, set())
        ):
            return wanted
        merge_errors(errors, field_error(
            ("status",), "GUILD_SCHEDULED_EVENT_INVALID_STATUS_TRANSITION",
            f"A {event.status.name} event cannot become {raw!r}.",
        ))
        return event.status

    async def delete(self, guild: Guild, event: ScheduledEvent, user_id: int) -> None:
        """Delete an event; dispatches GUILD_SCHEDULED_EVENT_DELETE. 403 without the
        permission (`require_manage`)."""
        self.require_manage(guild, event, user_id)
        del self.world.scheduled_events[event.id]
        await self._dispatch_event("GUILD_SCHEDULED_EVENT_DELETE", event)

    async def set_interest(self, event: ScheduledEvent, user_id: int, interested: bool) -> bool:
        """A user presses "Interested" (`interested`) or takes it back; dispatches
        GUILD_SCHEDULED_EVENT_USER_ADD or _USER_REMOVE when that changes anything.
        Returns whether it did."""
        if (user_id in event.interested_ids) == interested:
            return False
        if interested:
            event.interested_ids.append(user_id)
        else:
            event.interested_ids.remove(user_id)
        name = f"GUILD_SCHEDULED_EVENT_USER_{'ADD' if interested else 'REMOVE'}"
        await self._dispatch(name, {
            "guild_scheduled_event_id": str(event.id),
            "user_id": str(user_id),
            "guild_id": str(event.guild_id),
        })
        return True

    async def _dispatch_event(self, name: str, event: ScheduledEvent) -> None:
        await self._dispatch(name, self.core.payloads.scheduled_event(event))

    async def _dispatch(self, name: str, data: Json) -> None:
        await self.core.hub.dispatch(
            name, lambda s: data if s.wants(Intent.GUILD_SCHEDULED_EVENTS) else None
        )
