"""The pure rules of what the due notifications become (`plan`; what a turn owes,
`owed_for`, is checked through the service in test_service.py): drops, postponements
(quiet while active, the per-player pace), one message per player and place, the game's
channel only where the bot posts."""

from __future__ import annotations

import dataclasses
from datetime import timedelta

from bot.services.notifications import Limits, TargetKind, plan
from bot.services.settings import Notify
from storage import (
    ClockState,
    GameRecord,
    GameStatus,
    NotificationKind,
    NotifiedUser,
    OwedNotification,
    PlaceKind,
    Seat,
)
from tests.support.clock import DEFAULT_START

NOW = DEFAULT_START
LIMITS = Limits()
ALICE, BOB = 1, 2


def record(game_id: int, *, ply: int = 1, place: PlaceKind = PlaceKind.CHANNEL,
           status: GameStatus = GameStatus.ACTIVE) -> GameRecord:
    return GameRecord(
        id=game_id, variant="turkish", guild_id=10, channel_id=100 + game_id,
        white=Seat.human(ALICE), black=Seat.human(BOB), rated=False, move_seconds=86400,
        start_fen="W:Wa2:Ba7", status=status, result=None, termination=None,
        ply_count=ply, board_message_id=900 + game_id, draw_offer_by=None,
        clock=ClockState(deadline=None), created_at=NOW, updated_at=NOW, finished_at=None,
        white_rating=None, black_rating=None, place=place)


def row(row_id: int, game_id: int, *, ply: int = 1, user: int = BOB,
        kind: NotificationKind = NotificationKind.TURN) -> OwedNotification:
    return OwedNotification(row_id, user, kind, game_id, ply, 10, NOW, None)


def test_plan_drops_what_moved_on_ended_or_was_turned_off() -> None:
    records = {1: record(1, ply=2), 2: record(2, status=GameStatus.FINISHED), 3: None,
               4: record(4)}
    rows = [row(1, 1), row(2, 2), row(3, 3), row(4, 4, user=ALICE)]
    decided = plan(rows, records, {BOB: Notify.DM, ALICE: Notify.OFF}, {}, NOW, LIMITS,
                   room=10)
    assert sorted(decided.drop) == [1, 2, 3, 4] and decided.deliveries == ()


def test_a_digest_names_each_game_once_its_reminder_first() -> None:
    records = {1: record(1), 2: record(2)}
    rows = [row(1, 1), row(2, 1, kind=NotificationKind.REMINDER), row(3, 2)]
    [message] = plan(rows, records, {BOB: Notify.DM}, {}, NOW, LIMITS, room=10).deliveries
    assert message.target is TargetKind.DM and sorted(message.ids) == [1, 2, 3]
    assert [(item.game_id, item.kind) for item in message.items] == [
        (1, NotificationKind.REMINDER), (2, NotificationKind.TURN)]
    assert message.items[0].left == timedelta(hours=6)
    assert message.items[1].opponent_id == ALICE and message.items[1].board_message_id == 902


def test_quiet_while_active_and_the_pace_postpone() -> None:
    records = {1: record(1)}
    active = plan([row(1, 1)], records, {BOB: Notify.DM}, {}, NOW, LIMITS, room=10,
                  active={BOB: NOW - timedelta(minutes=1)})
    assert active.postpone == ((1, NOW + timedelta(minutes=4)),)
    stored = {BOB: NotifiedUser(BOB, last_sent_at=NOW - timedelta(minutes=3))}
    paced = plan([row(1, 1)], records, {BOB: Notify.DM}, stored, NOW, LIMITS, room=10)
    assert paced.postpone == ((1, NOW + timedelta(minutes=7)),)
    assert active.deliveries == paced.deliveries == ()


def test_channel_where_the_bot_posts_else_a_direct_message() -> None:
    records = {1: record(1), 2: record(2, place=PlaceKind.INTERACTIONS)}
    messages = plan([row(1, 1), row(2, 2)], records, {BOB: Notify.CHANNEL}, {}, NOW,
                    LIMITS, room=10).deliveries
    assert {(m.target, m.channel_id) for m in messages} == {
        (TargetKind.CHANNEL, 101), (TargetKind.DM, None)}
    closed = {BOB: NotifiedUser(BOB, dms_closed_at=NOW)}
    decided = plan([row(1, 1), row(2, 2)], records, {BOB: Notify.CHANNEL}, closed, NOW,
                   LIMITS, room=10)
    assert decided.drop == (2,)
    assert [m.target for m in decided.deliveries] == [TargetKind.CHANNEL]


def test_room_and_games_per_message_bound_what_is_sent() -> None:
    records = {game: record(game) for game in range(1, 5)}
    rows = [row(game, game) for game in range(1, 5)]
    limits = dataclasses.replace(LIMITS, digest_games=3)
    [message] = plan(rows, records, {BOB: Notify.DM}, {}, NOW, limits, room=1).deliveries
    assert len(message.items) == 3 and sorted(message.ids) == [1, 2, 3]
    assert plan(rows, records, {BOB: Notify.DM}, {}, NOW, limits, room=0).deliveries == ()

