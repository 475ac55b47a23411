"""NotificationService through the composed services on a real SQLite file, its messages
collected (`NotificationCollector`), a fake clock: opt-in, the turn's delay, a digest,
quiet while active, the reminder, closed DMs (403) turning them off and the player told
once, rate limits (429) and backoff, once across a restart, one shard only."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

import engine
from bot.services.notifications import Outcome, SendResult, TargetKind
from bot.services.settings import Notify
from bot.services.shards import ShardScope
from storage import NotificationKind
from tests.support.clock import FakeClock
from tests.support.services import (
    ALICE,
    BOB,
    CHANNEL,
    NotificationCollector,
    OpenServices,
    Services,
    start_game,
)

DAY = 24 * 60 * 60
TURN_DELAY = timedelta(minutes=1, seconds=1)


async def first_legal(s: Services, channel: int = CHANNEL) -> str:
    state = s.games.current(channel)
    move = engine.legal_moves(state.position, state.variant)[0]
    return engine.format_move(move, state.position, state.variant)


async def move(s: Services, user: int, channel: int = CHANNEL) -> None:
    await s.games.play(channel, user, await first_legal(s, channel))
    await s.notifications.idle()


async def opt_in(s: Services, user: int, notify: Notify = Notify.DM) -> None:
    await s.composed.preferences.update_player(user, notify=notify.value)


async def bob_to_move(s: Services, channel: int = CHANNEL, *,
                      move_seconds: int = DAY) -> int:
    """A game with a per-move time where Alice (White) moved: Bob is to move."""
    game = await start_game(s, "turkish", channel=channel, move_seconds=move_seconds)
    await move(s, ALICE, channel)
    return game.id


async def test_a_turn_is_told_after_its_delay_to_a_player_who_opted_in(
    open_services: OpenServices,
) -> None:
    s = await open_services()
    await opt_in(s, BOB)
    game = await bob_to_move(s)
    assert await s.notifications.run_once() == 0  # within the minute: not yet
    s.clock.advance(TURN_DELAY)
    assert await s.notifications.run_once() == 1
    [message] = s.notification_messages.sent
    assert (message.user_id, message.target) == (BOB, TargetKind.DM)
    [item] = message.items
    assert (item.kind, item.game_id, item.opponent_id) == (NotificationKind.TURN, game, ALICE)
    s.clock.advance(TURN_DELAY)
    assert await s.notifications.run_once() == 0  # sent once


async def test_nothing_without_opting_in_or_below_an_hour_per_move(
    open_services: OpenServices,
) -> None:
    s = await open_services()
    await bob_to_move(s)  # Bob never chose notifications
    await opt_in(s, ALICE)
    await opt_in(s, BOB)
    await bob_to_move(s, CHANNEL + 1, move_seconds=5 * 60)
    s.clock.advance(timedelta(hours=30))
    assert await s.notifications.run_once() == 0
    assert s.notification_messages.asked == []


async def test_a_reply_within_the_delay_sends_nothing(open_services: OpenServices) -> None:
    s = await open_services()
    await opt_in(s, ALICE)
    await opt_in(s, BOB)
    await bob_to_move(s)
    s.clock.advance(timedelta(seconds=30))
    await move(s, BOB)  # Bob replies: his notification is dropped, Alice's owed
    s.clock.advance(timedelta(seconds=31))
    assert await s.notifications.run_once() == 0
    s.clock.advance(timedelta(seconds=30))
    assert await s.notifications.run_once() == 1
    assert [m.user_id for m in s.notification_messages.asked] == [ALICE]


async def test_several_games_waiting_go_in_one_message(open_services: OpenServices) -> None:
    s = await open_services()
    await opt_in(s, BOB)
    games = {await bob_to_move(s, channel) for channel in (CHANNEL, CHANNEL + 1, CHANNEL + 2)}
    s.clock.advance(TURN_DELAY)
    assert await s.notifications.run_once() == 1
    [digest] = s.notification_messages.sent
    assert {item.game_id for item in digest.items} == games


async def test_nothing_while_the_player_is_active_then_it_comes(
    open_services: OpenServices,
) -> None:
    s = await open_services()
    await opt_in(s, BOB)
    await bob_to_move(s)
    s.clock.advance(timedelta(seconds=50))
    assert await s.notifications.seen(BOB) is False  # Bob uses the bot
    s.clock.advance(timedelta(seconds=20))
    assert await s.notifications.run_once() == 0
    s.clock.advance(timedelta(minutes=4))
    assert await s.notifications.run_once() == 0  # still within 5 minutes of his activity
    s.clock.advance(timedelta(minutes=1))
    assert await s.notifications.run_once() == 1  # postponed, not lost


async def test_a_reminder_when_a_quarter_of_the_move_time_is_left(
    open_services: OpenServices,
) -> None:
    s = await open_services()
    await opt_in(s, BOB)
    game = await bob_to_move(s)
    s.clock.advance(TURN_DELAY)
    await s.notifications.run_once()
    s.clock.advance(timedelta(hours=17))
    assert await s.notifications.run_once() == 0
    s.clock.advance(timedelta(hours=1))  # 18 hours of 24 gone
    assert await s.notifications.run_once() == 1
    reminder = s.notification_messages.sent[-1].items[0]
    assert (reminder.kind, reminder.game_id) == (NotificationKind.REMINDER, game)
    assert reminder.left == timedelta(hours=6)


async def test_no_reminder_once_the_player_moved(open_services: OpenServices) -> None:
    s = await open_services()
    await opt_in(s, BOB)
    await bob_to_move(s)
    s.clock.advance(TURN_DELAY)
    await s.notifications.run_once()
    await move(s, BOB)
    s.clock.advance(timedelta(hours=20))
    assert await s.notifications.run_once() == 0
    assert len(s.notification_messages.asked) == 1


async def test_closed_dms_turn_notifications_off_and_the_player_is_told_once(
    open_services: OpenServices,
) -> None:
    s = await open_services()
    await opt_in(s, BOB)
    s.notification_messages.answers.append(SendResult(Outcome.DMS_CLOSED))
    await bob_to_move(s)
    s.clock.advance(TURN_DELAY)
    await s.notifications.run_once()
    assert s.notification_messages.sent == [] and s.notifications.counts["403"] == 1
    assert (await s.composed.preferences.player(BOB)).notify is Notify.OFF
    assert await s.notifications.seen(ALICE) is False
    assert await s.notifications.seen(BOB) is True  # told now, privately, by the caller
    assert await s.notifications.seen(BOB) is False  # once
    await move(s, BOB)
    await move(s, ALICE)
    s.clock.advance(timedelta(days=2))
    assert await s.notifications.run_once() == 0
    assert len(s.notification_messages.asked) == 1  # no more DMs tried


async def test_a_rate_limit_releases_the_message_and_slows_down(
    open_services: OpenServices,
) -> None:
    s = await open_services()
    await opt_in(s, BOB)
    s.notification_messages.answers.append(SendResult(Outcome.RATE_LIMITED, retry_after=30))
    await bob_to_move(s)
    s.clock.advance(TURN_DELAY)
    await s.notifications.run_once()
    assert s.notification_messages.sent == [] and s.notifications.counts["429"] == 1
    assert await s.notifications.run_once() == 0  # due again only after retry_after
    s.clock.advance(timedelta(seconds=31))
    assert await s.notifications.run_once() == 1
    assert len(s.notification_messages.sent) == 1


async def test_sent_once_across_a_restart(tmp_path: Path, open_services: OpenServices) -> None:
    path, clock = tmp_path / "db.sqlite3", FakeClock()
    outlet = NotificationCollector()
    s = await open_services(path, clock, notification_outlet=outlet)
    await opt_in(s, BOB)
    await opt_in(s, ALICE)
    await bob_to_move(s)
    await bob_to_move(s, CHANNEL + 1)
    clock.advance(TURN_DELAY)
    # Claimed and queued, then the process stops before sending it.
    assert await s.notifications.fill() == 1
    await s.close()
    again = await open_services(path, clock, notification_outlet=outlet)
    assert await again.notifications.run_once() == 1
    await move(again, BOB)  # Alice's turn is owed, not yet due
    await again.close()
    third = await open_services(path, clock, notification_outlet=outlet)
    clock.advance(timedelta(minutes=11))
    assert await third.notifications.run_once() == 1
    assert [m.user_id for m in outlet.sent] == [BOB, ALICE]
    [digest] = [m for m in outlet.sent if m.user_id == BOB]
    assert len(digest.items) == 2  # both of Bob's games, once
    clock.advance(timedelta(days=1))  # now only the reminders are due
    assert await third.notifications.run_once() == 2
    assert {item.kind for m in outlet.sent[2:] for item in m.items} == {
        NotificationKind.REMINDER}


async def test_only_the_process_owning_the_games_server_sends(
    tmp_path: Path, open_services: OpenServices,
) -> None:
    path, clock = tmp_path / "db.sqlite3", FakeClock()
    guild_on_shard_1 = 3 << 22  # (guild >> 22) % 2 == 1
    first = await open_services(path, clock, scope=ShardScope(2, frozenset({0})))
    second = await open_services(path, clock, scope=ShardScope(2, frozenset({1})))
    await opt_in(second, BOB)
    await start_game(second, "turkish", guild=guild_on_shard_1, move_seconds=DAY)
    await move(second, ALICE)
    clock.advance(TURN_DELAY)
    assert await first.notifications.run_once() == 0
    assert await second.notifications.run_once() == 1
    assert first.notification_messages.asked == []
    assert [m.user_id for m in second.notification_messages.sent] == [BOB]
