"""ChallengeRepository: create, find, expire, close, accept (with its game), delete."""

from __future__ import annotations

import asyncio
from datetime import timedelta

import pytest

from storage import (
    ChallengeNotFoundError,
    ChallengeNotPendingError,
    ChallengeStatus,
    ChannelBusyError,
    ColorChoice,
    GameStatus,
    NewChallenge,
    Seat,
    Storage,
    TimeControl,
)
from tests.support.clock import START, FakeClock

FEN = "W:Wa2:Ba7"


def challenge(challenger: int = 1, challenged: int | None = 2, channel: int = 50,
              minutes: int = 10, **options: object) -> NewChallenge:
    return NewChallenge(challenger_id=challenger, challenged_id=challenged, guild_id=9,
                        channel_id=channel, variant="arab",
                        expires_at=START + timedelta(minutes=minutes), **options)  # type: ignore[arg-type]


async def test_create_find_and_message(storage: Storage) -> None:
    made = await storage.challenges.create(
        challenge(rated=True, color=ColorChoice.BLACK, move_seconds=30))
    assert made.status is ChallengeStatus.PENDING and made.message_id is None
    assert (made.rated, made.color, made.move_seconds, made.variant) == (
        True, ColorChoice.BLACK, 30, "arab")
    assert made.created_at == START and made.game_id is None
    await storage.challenges.set_message(made.id, 777)
    found = await storage.challenges.by_message(777)
    assert found is not None and found.id == made.id and found.message_id == 777
    assert await storage.challenges.get(made.id) == found
    assert await storage.challenges.by_message(778) is None
    assert [c.id for c in await storage.challenges.pending_in_channel(50)] == [made.id]
    assert [c.id for c in await storage.challenges.pending_for_user(1)] == [made.id]
    assert [c.id for c in await storage.challenges.pending_for_user(2)] == [made.id]
    assert await storage.challenges.pending_for_user(3) == []
    with pytest.raises(ChallengeNotFoundError):
        await storage.challenges.set_message(999, 1)


async def test_bad_challenges_refused(storage: Storage) -> None:
    with pytest.raises(ValueError, match="themselves"):
        await storage.challenges.create(challenge(challenger=1, challenged=1))
    with pytest.raises(ValueError, match="future"):
        await storage.challenges.create(challenge(minutes=-1))
    with pytest.raises(ValueError, match="move time"):
        await storage.challenges.create(challenge(move_seconds=-5))


async def test_expire_due(storage: Storage, clock: FakeClock) -> None:
    short = await storage.challenges.create(challenge(channel=1, minutes=1))
    long = await storage.challenges.create(challenge(channel=2, minutes=60))
    assert await storage.challenges.expire_due(START) == []
    expired = await storage.challenges.expire_due(START + timedelta(minutes=5))
    assert [c.id for c in expired] == [short.id]
    assert expired[0].status is ChallengeStatus.EXPIRED
    assert await storage.challenges.expire_due(START + timedelta(minutes=5)) == []
    clock.advance(timedelta(hours=2))
    assert [c.id for c in await storage.challenges.expire_due()] == [long.id]
    assert await storage.challenges.pending_for_user(1) == []


async def test_close(storage: Storage) -> None:
    made = await storage.challenges.create(challenge())
    declined = await storage.challenges.close(made.id, ChallengeStatus.DECLINED)
    assert declined.status is ChallengeStatus.DECLINED
    with pytest.raises(ChallengeNotPendingError, match="declined"):
        await storage.challenges.close(made.id, ChallengeStatus.CANCELLED)
    with pytest.raises(ValueError, match="accept"):
        await storage.challenges.close(made.id, ChallengeStatus.ACCEPTED)
    with pytest.raises(ChallengeNotFoundError):
        await storage.challenges.close(999, ChallengeStatus.CANCELLED)


async def test_past_expiry_cannot_be_accepted(storage: Storage, clock: FakeClock) -> None:
    made = await storage.challenges.create(challenge(minutes=1))
    clock.advance(timedelta(minutes=2))
    with pytest.raises(ChallengeNotPendingError, match="expired"):
        await storage.challenges.accept(made.id, accepted_by=2, white=Seat.human(1),
                                        black=Seat.human(2), start_fen=FEN)
    closed = await storage.challenges.close(made.id, ChallengeStatus.EXPIRED)
    assert closed.status is ChallengeStatus.EXPIRED


async def test_accept_creates_the_game_once(storage: Storage) -> None:
    made = await storage.challenges.create(challenge(rated=True, move_seconds=45))
    accepted, game = await storage.challenges.accept(
        made.id, accepted_by=2, white=Seat.human(2), black=Seat.human(1), start_fen=FEN,
        deadline=START + timedelta(seconds=45))
    assert accepted.status is ChallengeStatus.ACCEPTED and accepted.game_id == game.id
    assert game.status is GameStatus.ACTIVE and game.rated and game.move_seconds == 45
    assert (game.variant, game.channel_id, game.guild_id) == ("arab", 50, 9)
    assert game.white == Seat.human(2) and game.clock.deadline == START + timedelta(seconds=45)
    with pytest.raises(ChallengeNotPendingError, match="accepted"):
        await storage.challenges.accept(made.id, accepted_by=2, white=Seat.human(2),
                                        black=Seat.human(1), start_fen=FEN)
    assert len(await storage.games.active()) == 1


async def test_double_click_accept_concurrently(storage: Storage) -> None:
    made = await storage.challenges.create(challenge())
    outcomes = await asyncio.gather(*(
        storage.challenges.accept(made.id, accepted_by=2, white=Seat.human(1),
                                  black=Seat.human(2), start_fen=FEN)
        for _ in range(5)
    ), return_exceptions=True)
    assert sum(not isinstance(o, BaseException) for o in outcomes) == 1
    assert all(isinstance(o, ChallengeNotPendingError) for o in outcomes
               if isinstance(o, BaseException))
    assert len(await storage.games.active()) == 1


async def test_accept_rules(storage: Storage) -> None:
    made = await storage.challenges.create(challenge(challenged=2))
    with pytest.raises(ValueError, match="only the challenged"):
        await storage.challenges.accept(made.id, accepted_by=3, white=Seat.human(1),
                                        black=Seat.human(3), start_fen=FEN)
    with pytest.raises(ValueError, match="own challenge"):
        await storage.challenges.accept(made.id, accepted_by=1, white=Seat.human(1),
                                        black=Seat.human(2), start_fen=FEN)
    with pytest.raises(ValueError, match="seats"):
        await storage.challenges.accept(made.id, accepted_by=2, white=Seat.human(1),
                                        black=Seat.human(4), start_fen=FEN)
    open_one = await storage.challenges.create(challenge(challenged=None, channel=51))
    accepted, game = await storage.challenges.accept(
        open_one.id, accepted_by=8, white=Seat.human(8), black=Seat.human(1), start_fen=FEN)
    assert accepted.challenged_id == 8 and game.side_of(8) is not None


async def test_accept_in_busy_channel(storage: Storage) -> None:
    first = await storage.challenges.create(challenge(challenger=1, challenged=2))
    second = await storage.challenges.create(challenge(challenger=3, challenged=4))
    await storage.challenges.accept(first.id, accepted_by=2, white=Seat.human(1),
                                    black=Seat.human(2), start_fen=FEN)
    with pytest.raises(ChannelBusyError):
        await storage.challenges.accept(second.id, accepted_by=4, white=Seat.human(3),
                                        black=Seat.human(4), start_fen=FEN)
    still = await storage.challenges.get(second.id)
    assert still is not None and still.status is ChallengeStatus.PENDING


async def test_delete(storage: Storage) -> None:
    made = await storage.challenges.create(challenge())
    assert await storage.challenges.delete(made.id)
    assert not await storage.challenges.delete(made.id)
    assert await storage.challenges.get(made.id) is None


async def test_pending_lists_every_pending_challenge_soonest_first(storage: Storage) -> None:
    late = await storage.challenges.create(challenge(channel=51, minutes=30))
    soon = await storage.challenges.create(challenge(challenger=3, channel=52, minutes=5))
    closed = await storage.challenges.create(challenge(challenger=4, channel=53))
    await storage.challenges.close(closed.id, ChallengeStatus.DECLINED)
    pending = await storage.challenges.pending()
    assert [c.id for c in pending] == [soon.id, late.id]
    assert pending[0].expires_at == START + timedelta(minutes=5)


async def test_a_challenges_clock_is_stored_and_given_to_its_game(storage: Storage) -> None:
    control = TimeControl(600, 5)
    made = await storage.challenges.create(challenge(time_control=control))
    assert made.time_control == control and made.move_seconds is None
    assert await storage.challenges.get(made.id) == made
    _, game = await storage.challenges.accept(
        made.id, accepted_by=2, white=Seat.human(1), black=Seat.human(2), start_fen=FEN,
        deadline=START + control.base,
    )
    assert game.time_control == control
    assert game.clock.white_left == game.clock.black_left == control.base
    assert game.clock.deadline == START + control.base
    with pytest.raises(ValueError, match="not both"):
        await storage.challenges.create(challenge(channel=51, move_seconds=40,
                                                  time_control=control))
