"""NotificationRepository on both backends: a notification is owed once, claimed by one
sender, released or settled; what is kept of each player (activity, pace, closed direct
messages, told once)."""

from __future__ import annotations

from datetime import timedelta

from storage import (
    NewGame,
    NewNotification,
    NotificationKind,
    NotificationOutcome,
    NotifiedUser,
    Seat,
    Storage,
)
from tests.support.clock import FakeClock


async def a_game(storage: Storage, channel: int = 100) -> int:
    game = await storage.games.create(NewGame(
        variant="turkish", channel_id=channel, guild_id=10, white=Seat.human(1),
        black=Seat.human(2), start_fen="W:Wa2,b2:Ba7,b7"))
    return game.id


def owed(game_id: int, clock: FakeClock, *, user: int = 1, ply: int = 0,
         kind: NotificationKind = NotificationKind.TURN,
         after: timedelta = timedelta(0)) -> NewNotification:
    return NewNotification(user_id=user, kind=kind, game_id=game_id, ply=ply, guild_id=10,
                           due_at=clock.now + after)


async def test_a_notification_is_owed_once(storage: Storage, clock: FakeClock) -> None:
    game = await a_game(storage)
    first = owed(game, clock)
    assert await storage.notifications.owe([first, owed(game, clock, ply=1)]) == 2
    # The same user, kind, game and ply again: nothing new, even later.
    assert await storage.notifications.owe([owed(game, clock, after=timedelta(hours=1))]) == 0
    reminder = owed(game, clock, kind=NotificationKind.REMINDER)
    assert await storage.notifications.owe([reminder]) == 1
    due = await storage.notifications.due(clock.now, 10)
    assert sorted((n.kind.value, n.ply) for n in due) == [
        ("reminder", 0), ("turn", 0), ("turn", 1)]
    assert all(n.due_at == first.due_at and n.claimed_at is None for n in due)


async def test_due_in_order_within_the_limit_and_next_due(
    storage: Storage, clock: FakeClock
) -> None:
    game = await a_game(storage)
    assert await storage.notifications.next_due() is None
    later = owed(game, clock, ply=2, after=timedelta(minutes=5))
    await storage.notifications.owe([later, owed(game, clock, ply=1, after=timedelta(1)),
                                     owed(game, clock, ply=0)])
    assert [n.ply for n in await storage.notifications.due(clock.now, 10)] == [0]
    assert [n.ply for n in await storage.notifications.due(
        clock.now + timedelta(days=2), 2)] == [0, 2]
    assert await storage.notifications.next_due() == (
        await storage.notifications.due(clock.now, 1))[0].due_at


async def test_due_to_gathers_a_players_notifications(
    storage: Storage, clock: FakeClock
) -> None:
    game = await a_game(storage)
    await storage.notifications.owe([owed(game, clock, ply=0), owed(game, clock, ply=1),
                                     owed(game, clock, ply=2, user=2),
                                     owed(game, clock, ply=3, after=timedelta(hours=1))])
    assert [n.ply for n in await storage.notifications.due_to([1], clock.now)] == [0, 1]
    assert [n.ply for n in await storage.notifications.due_to([1, 2], clock.now)] == [0, 1, 2]
    assert await storage.notifications.due_to([], clock.now) == []


async def test_one_claimer_wins_and_a_release_makes_it_due_again(
    storage: Storage, clock: FakeClock
) -> None:
    game = await a_game(storage)
    await storage.notifications.owe([owed(game, clock), owed(game, clock, ply=1)])
    ids = [n.id for n in await storage.notifications.due(clock.now, 10)]
    assert await storage.notifications.claim(ids) == sorted(ids)
    assert await storage.notifications.claim(ids) == []
    assert await storage.notifications.due(clock.now, 10) == []
    assert sorted(n.id for n in await storage.notifications.claimed()) == sorted(ids)
    later = clock.now + timedelta(minutes=3)
    await storage.notifications.release(ids[:1], later)
    await storage.notifications.release(ids[1:])
    assert [n.id for n in await storage.notifications.due(clock.now, 10)] == ids[1:]
    assert [n.id for n in await storage.notifications.due(later, 10)] == ids[::-1]
    assert await storage.notifications.claimed() == []


async def test_settled_notifications_are_never_due_or_claimed_again(
    storage: Storage, clock: FakeClock
) -> None:
    game = await a_game(storage)
    await storage.notifications.owe([owed(game, clock, ply=0), owed(game, clock, ply=1)])
    sent, dropped = [n.id for n in await storage.notifications.due(clock.now, 10)]
    await storage.notifications.claim([sent])
    await storage.notifications.settle([sent], NotificationOutcome.SENT, sent_to=1)
    await storage.notifications.settle([dropped], NotificationOutcome.DROPPED)
    assert await storage.notifications.due(clock.now + timedelta(days=1), 10) == []
    assert await storage.notifications.claim([sent, dropped]) == []
    assert await storage.notifications.claimed() == []
    await storage.notifications.release([sent])
    assert await storage.notifications.due(clock.now + timedelta(days=1), 10) == []
    assert await storage.notifications.next_due() is None
    [user] = (await storage.notifications.users([1])).values()
    assert user.last_sent_at is not None and user.last_sent_at <= clock.now


async def test_prune_deletes_only_what_was_settled_before(
    storage: Storage, clock: FakeClock
) -> None:
    game = await a_game(storage)
    await storage.notifications.owe([owed(game, clock, ply=0), owed(game, clock, ply=1)])
    settled, waiting = [n.id for n in await storage.notifications.due(clock.now, 10)]
    await storage.notifications.settle([settled], NotificationOutcome.SENT)
    assert await storage.notifications.prune(clock.now - timedelta(days=1)) == 0
    clock.advance(timedelta(days=31))
    assert await storage.notifications.prune(clock.now - timedelta(days=30)) == 1
    assert [n.id for n in await storage.notifications.due(clock.now, 10)] == [waiting]


async def test_postpone_moves_only_what_no_one_holds(storage: Storage, clock: FakeClock) -> None:
    game = await a_game(storage)
    await storage.notifications.owe([owed(game, clock, ply=0), owed(game, clock, ply=1)])
    free, held = [n.id for n in await storage.notifications.due(clock.now, 10)]
    await storage.notifications.claim([held])
    until = clock.now + timedelta(minutes=4)
    await storage.notifications.postpone([free, held], until)
    assert await storage.notifications.due(clock.now, 10) == []
    [again] = await storage.notifications.due(until, 10)
    assert again.id == free and again.due_at == until
    [claimed] = await storage.notifications.claimed()
    assert claimed.id == held and claimed.due_at < until


async def test_activity_and_closed_direct_messages_told_once(
    storage: Storage, clock: FakeClock
) -> None:
    repo = storage.notifications
    assert await repo.users([7]) == {7: NotifiedUser(7)}
    seen = clock.now
    await repo.record_seen(7, seen)
    await repo.record_seen(7, seen - timedelta(minutes=1))  # older: kept as it was
    assert (await repo.users([7]))[7].seen_at == seen
    assert await repo.untold() == []
    assert await repo.mark_told(7) is False  # not closed: nothing to tell
    assert await repo.close_dms(7) is True
    assert await repo.close_dms(7) is False
    assert await repo.untold() == [7]
    assert await repo.mark_told(7) is True
    assert await repo.mark_told(7) is False
    user = (await repo.users([7]))[7]
    assert user.dms_closed_at is not None and user.dms_told_at is not None
    assert await repo.untold() == []
    await repo.reopen_dms(7)
    assert (await repo.users([7]))[7].dms_closed_at is None
    assert await repo.close_dms(7) is True and await repo.untold() == [7]


async def test_owed_notifications_go_with_their_game(storage: Storage, clock: FakeClock) -> None:
    game = await a_game(storage)
    await storage.notifications.owe([owed(game, clock)])
    [row] = await storage.notifications.due(clock.now, 1)
    assert (row.game_id, row.user_id, row.guild_id) == (game, 1, 10)


async def test_due_keeps_the_rows_of_the_shards_asked_for(
    storage: Storage, clock: FakeClock
) -> None:
    game = await a_game(storage)
    # Shard of a server: (guild_id >> 22) % count; a direct message's: 0.
    on_shard_1 = (1 << 22) * 3  # 3 % 2 == 1
    on_shard_0 = (1 << 22) * 4
    rows = [NewNotification(1, NotificationKind.TURN, game, ply, guild, clock.now)
            for ply, guild in ((0, on_shard_1), (1, on_shard_0), (2, None))]
    await storage.notifications.owe(rows)
    shard_1 = await storage.notifications.due(clock.now, 10, (2, [1]))
    assert [n.ply for n in shard_1] == [0]
    assert [n.ply for n in await storage.notifications.due(clock.now, 10, (2, [0]))] == [1, 2]
    assert len(await storage.notifications.due(clock.now, 10, (2, [0, 1]))) == 3
    assert await storage.notifications.next_due((2, [1])) == clock.now
    await storage.notifications.settle([shard_1[0].id], NotificationOutcome.SENT)
    assert await storage.notifications.next_due((2, [1])) is None
