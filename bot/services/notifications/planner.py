"""What is owed and what is sent, as pure functions (docs/ARCHITECTURE.md,
"Notifications"): `owed_for` turns a game's new turn into the notifications it owes,
`plan` turns the due notifications into messages (one per player and place: a digest
when several games wait), drops and postponements."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping, Sequence
from datetime import datetime, timedelta

from bot.services.models import BoardState
from bot.services.notifications.values import (
    Delivery,
    DigestItem,
    Limits,
    Plan,
    TargetKind,
)
from bot.services.settings import Notify
from storage import (
    GameRecord,
    GameStatus,
    NewNotification,
    NotificationKind,
    NotifiedUser,
    OwedNotification,
    PlaceKind,
)


def owed_for(state: BoardState, notify: Notify, now: datetime,
             limits: Limits) -> list[NewNotification]:
    """The notifications owed now that it is the person to move's turn in `state`: none
    when the game is over, has no per-move time of at least `limits.min_move_time`, has a
    computer to move, or that person chose `Notify.OFF`; otherwise a turn notification
    due after `limits.turn_delay`, and a reminder due when a quarter of the move time is
    left (when the game has a deadline still that far off)."""
    user = state.to_move.user_id
    if (state.is_over or user is None or notify is Notify.OFF
            or state.move_seconds is None
            or timedelta(seconds=state.move_seconds) < limits.min_move_time):
        return []
    owed = [NewNotification(user, NotificationKind.TURN, state.game_id, state.ply,
                            state.guild_id, now + limits.turn_delay)]
    if state.deadline is not None:
        reminder = state.deadline - timedelta(seconds=state.move_seconds / 4)
        if reminder > now + limits.turn_delay:
            owed.append(NewNotification(user, NotificationKind.REMINDER, state.game_id,
                                        state.ply, state.guild_id, reminder))
    return owed


def _stale(row: OwedNotification, record: GameRecord | None) -> bool:
    """The game ended, moved on since the notification was owed, or is gone."""
    return (record is None or record.status is not GameStatus.ACTIVE
            or record.ply_count != row.ply or record.side_of(row.user_id) is None)


def _item(row: OwedNotification, record: GameRecord) -> DigestItem:
    side = record.side_of(row.user_id)
    assert side is not None
    opponent = record.seat(side.opponent)
    left = (timedelta(seconds=record.move_seconds / 4)
            if row.kind is NotificationKind.REMINDER and record.move_seconds else None)
    return DigestItem(row.kind, record.id, record.guild_id, record.channel_id,
                      record.board_message_id, opponent.user_id, left,
                      opponent.computer_level)


def _held_back(user: NotifiedUser, active: datetime | None, last_sent: datetime | None,
               now: datetime, limits: Limits) -> datetime | None:
    """When a player's notifications may go, if not now: after their quiet time while
    active, and after their pace since the last message."""
    until: datetime | None = None
    seen = max((t for t in (user.seen_at, active) if t is not None), default=None)
    if seen is not None and seen + limits.quiet > now:
        until = seen + limits.quiet
    sent = max((t for t in (user.last_sent_at, last_sent) if t is not None), default=None)
    if sent is not None and sent + limits.user_pace > now:
        until = max(until or now, sent + limits.user_pace)
    return until


def plan(rows: Sequence[OwedNotification], records: Mapping[int, GameRecord | None],
         notify: Mapping[int, Notify], users: Mapping[int, NotifiedUser],
         now: datetime, limits: Limits, *, active: Mapping[int, datetime] | None = None,
         last_sent: Mapping[int, datetime] | None = None, room: int) -> Plan:
    """Decide what to do with the due `rows`, given each one's game (`records`, None:
    gone), each player's preference (`notify`) and stored state (`users`), this
    process's own record of their activity (`active`) and last messages (`last_sent`),
    and `room` messages at most.

    Dropped: a notification whose game ended or moved on (ply), whose player chose
    `Notify.OFF`, or that would go to closed direct messages. Postponed: a player's
    notifications while they were active within `limits.quiet`, or sent a message within
    `limits.user_pace`. Sent: the others, one message per player and place (the game's
    channel for `Notify.CHANNEL` where the bot posts, `PlaceKind.CHANNEL`; otherwise
    their direct messages), naming at most `limits.digest_games` games, a game's
    reminder replacing its turn notification; what does not fit (`room`, the games per
    message) stays due."""
    drop: list[int] = []
    postpone: list[tuple[int, datetime]] = []
    reopen: list[int] = []
    by_user: dict[int, list[OwedNotification]] = defaultdict(list)
    for row in rows:
        if _stale(row, records.get(row.game_id)) or notify.get(
                row.user_id, Notify.OFF) is Notify.OFF:
            drop.append(row.id)
        else:
            by_user[row.user_id].append(row)
    deliveries: list[Delivery] = []
    for user_id, owed in by_user.items():
        user = users.get(user_id, NotifiedUser(user_id))
        until = _held_back(user, (active or {}).get(user_id),
                           (last_sent or {}).get(user_id), now, limits)
        if until is not None:
            postpone.extend((row.id, until) for row in owed)
            continue
        preference = notify[user_id]
        if preference is Notify.DM and user.dms_closed_at is not None:
            reopen.append(user_id)  # they chose direct messages again since
        places: dict[tuple[TargetKind, int | None], list[OwedNotification]] = defaultdict(
            list)
        for row in owed:
            record = records[row.game_id]
            assert record is not None
            if preference is Notify.CHANNEL and record.place is PlaceKind.CHANNEL:
                places[TargetKind.CHANNEL, record.channel_id].append(row)
            elif preference is Notify.CHANNEL and user.dms_closed_at is not None:
                drop.append(row.id)  # no channel to post in, and no DMs
            else:
                places[TargetKind.DM, None].append(row)
        for (target, channel), place_rows in places.items():
            if len(deliveries) >= room:
                break
            deliveries.append(_delivery(user_id, target, channel, place_rows, records,
                                        limits))
    return Plan(tuple(deliveries), tuple(drop), tuple(postpone), tuple(reopen))


def _delivery(user_id: int, target: TargetKind, channel: int | None,
              rows: list[OwedNotification], records: Mapping[int, GameRecord | None],
              limits: Limits) -> Delivery:
    """One message naming the games of `rows`, at most `limits.digest_games`, a game's
    reminder in place of its turn notification (both settled by it)."""
    by_game: dict[int, list[OwedNotification]] = defaultdict(list)
    for row in rows:
        by_game[row.game_id].append(row)
    items: list[DigestItem] = []
    ids: list[int] = []
    for game_rows in list(by_game.values())[:limits.digest_games]:
        shown = max(game_rows, key=lambda row: row.kind is NotificationKind.REMINDER)
        record = records[shown.game_id]
        assert record is not None
        items.append(_item(shown, record))
        ids.extend(row.id for row in game_rows)
    guild = records[rows[0].game_id]
    return Delivery(user_id, target, channel,
                    guild.guild_id if guild is not None and channel is not None else None,
                    tuple(items), tuple(ids))
