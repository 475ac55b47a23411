"""`ChallengeService` (`bot/services/challenges.py`) on a real SQLite file: creating,
accepting, declining, cancelling and expiring challenges, and who may do what."""

from __future__ import annotations

import asyncio
from datetime import timedelta

import pytest

from bot.config import MoveTime
from bot.messages import Msg, variant_name
from bot.services import GameUpdate, Person, PlayerError, UpdateKind
from bot.services.challenges import variant_key
from bot.ui.present import Presenter
from storage import Challenge, ChallengeStatus, ColorChoice, TimeControl
from tests.support.clock import FakeClock
from tests.support.services import (
    ALICE,
    BOB,
    CAROL,
    CHANNEL,
    GUILD,
    THREAD,
    OpenServices,
    Services,
    start_game,
)

A, B, C = Person(ALICE, "alice"), Person(BOB, "bob"), Person(CAROL, "carol")


async def challenge(s: Services, *, opponent: Person = B, channel: int = CHANNEL,
                    color: ColorChoice = ColorChoice.WHITE, rated: bool = True,
                    move_time: MoveTime = MoveTime.NONE, variant: str = "italian") -> Challenge:
    return await s.challenges.create(
        challenger=A, opponent=opponent, guild_id=GUILD, channel_id=channel,
        variant=variant, rated=rated, color=color, move_time=move_time,
    )


async def test_accept_starts_the_game_with_the_chosen_colours(open_services: OpenServices) -> None:
    s = await open_services()
    made = await challenge(s, color=ColorChoice.BLACK, move_time=MoveTime.MINUTES_5)
    assert made.status is ChallengeStatus.PENDING and made.move_seconds == 300
    seen: list[GameUpdate] = []

    async def announce(update: GameUpdate) -> int:
        seen.append(update)
        return 777

    closed, update = await s.challenges.accept(made.id, BOB, channel_id=made.channel_id,
                                               announce=announce)
    assert closed.status is ChallengeStatus.ACCEPTED
    assert update.kind is UpdateKind.STARTED and seen[0].kind is UpdateKind.STARTED
    state = update.state
    assert state.white.user_id == BOB and state.black.user_id == ALICE
    assert state.variant.key == "italian" and state.rated and state.ply == 0
    assert state.board_message_id == 777
    assert state.deadline == s.clock() + timedelta(minutes=5)
    assert s.games.current(CHANNEL).game_id == state.game_id
    # A second press creates no second game.
    with pytest.raises(PlayerError) as info:
        await s.challenges.accept(made.id, BOB, channel_id=made.channel_id)
    assert info.value.key is Msg.CHALLENGE_CLOSED
    assert info.value.params["status"] is ChallengeStatus.ACCEPTED


async def test_double_accept_at_once_makes_one_game(open_services: OpenServices) -> None:
    s = await open_services()
    made = await challenge(s)
    results = await asyncio.gather(
        s.challenges.accept(made.id, BOB, channel_id=made.channel_id),
        s.challenges.accept(made.id, BOB, channel_id=made.channel_id),
        return_exceptions=True,
    )
    assert sum(isinstance(r, tuple) for r in results) == 1
    assert sum(isinstance(r, PlayerError) for r in results) == 1
    assert len(await s.storage.games.active()) == 1


async def test_random_colour_gives_both_colours_over_many_challenges(
    open_services: OpenServices,
) -> None:
    s = await open_services()
    whites = set()
    for channel in range(20):
        made = await challenge(s, channel=10_000 + channel, color=ColorChoice.RANDOM)
        _, update = await s.challenges.accept(made.id, BOB, channel_id=made.channel_id)
        whites.add(update.state.white.user_id)
    assert whites == {ALICE, BOB}


async def test_who_may_answer(open_services: OpenServices) -> None:
    s = await open_services()
    made = await challenge(s)
    for call, key in [
        (s.challenges.accept(made.id, ALICE, channel_id=made.channel_id), Msg.CHALLENGE_OWN),
        (s.challenges.accept(made.id, CAROL, channel_id=made.channel_id),
         Msg.CHALLENGE_NOT_FOR_YOU),
        (s.challenges.decline(made.id, CAROL), Msg.CHALLENGE_NOT_FOR_YOU),
        (s.challenges.decline(made.id, ALICE), Msg.CHALLENGE_OWN),
        (s.challenges.cancel(made.id, BOB), Msg.CHALLENGE_NOT_YOURS),
        (s.challenges.accept(made.id + 50, BOB, channel_id=made.channel_id),
         Msg.CHALLENGE_UNKNOWN),
        # A press from another channel than the challenge's: no Discord client sends it.
        (s.challenges.accept(made.id, BOB, channel_id=made.channel_id + 1),
         Msg.CHALLENGE_UNKNOWN),
    ]:
        with pytest.raises(PlayerError) as info:
            await call
        assert info.value.key is key
    declined = await s.challenges.decline(made.id, BOB)
    assert declined.status is ChallengeStatus.DECLINED
    second = await challenge(s)
    cancelled = await s.challenges.cancel(second.id, ALICE)
    assert cancelled.status is ChallengeStatus.CANCELLED
    with pytest.raises(PlayerError) as info:
        await s.challenges.accept(second.id, BOB, channel_id=second.channel_id)
    assert info.value.key is Msg.CHALLENGE_CLOSED
    assert info.value.params["status"] is ChallengeStatus.CANCELLED


async def test_refusals_when_challenging(open_services: OpenServices) -> None:
    s = await open_services()
    with pytest.raises(PlayerError) as info:
        await challenge(s, opponent=A)
    assert info.value.key is Msg.CHALLENGE_SELF
    with pytest.raises(PlayerError) as info:
        await challenge(s, opponent=Person(4242, "robot", is_bot=True))
    assert info.value.key is Msg.CHALLENGE_BOT
    with pytest.raises(PlayerError) as info:
        await challenge(s, variant="chess")
    assert info.value.key is Msg.UNKNOWN_VARIANT
    assert "turkish" in str(info.value.params["valid"])
    await start_game(s, "turkish", white=ALICE, black=CAROL)
    with pytest.raises(PlayerError) as info:
        await challenge(s)
    assert info.value.key is Msg.ALREADY_PLAYING_HERE
    with pytest.raises(PlayerError) as info:
        await s.challenges.create(challenger=B, opponent=C, guild_id=GUILD, channel_id=CHANNEL,
                                  variant="arab", rated=False)
    assert info.value.key is Msg.OPPONENT_PLAYING_HERE
    with pytest.raises(PlayerError) as info:
        await s.challenges.create(challenger=B, opponent=Person(1004), guild_id=GUILD,
                                  channel_id=CHANNEL, variant="arab", rated=False)
    assert info.value.key is Msg.CHANNEL_BUSY
    # In a thread (another channel) the same challenge is fine.
    made = await challenge(s, channel=THREAD)
    assert made.channel_id == THREAD


async def test_accepting_when_the_channel_became_busy(open_services: OpenServices) -> None:
    s = await open_services()
    made = await challenge(s)
    await start_game(s, "turkish", white=CAROL, black=1004)
    with pytest.raises(PlayerError) as info:
        await s.challenges.accept(made.id, BOB, channel_id=made.channel_id)
    assert info.value.key is Msg.CHANNEL_BUSY


async def test_expiry(open_services: OpenServices) -> None:
    clock = FakeClock()
    s = await open_services(clock=clock)
    made = await challenge(s)
    assert s.challenges.next_expiry() == clock() + timedelta(minutes=10)
    clock.advance(timedelta(minutes=9, seconds=59))
    assert await s.challenges.expire_due() == []
    clock.advance(timedelta(seconds=1))
    with pytest.raises(PlayerError) as info:
        # past expiry, not yet marked
        await s.challenges.accept(made.id, BOB, channel_id=made.channel_id)
    assert info.value.key is Msg.CHALLENGE_EXPIRED_AFTER
    assert info.value.params["when"] == made.expires_at
    assert info.value.params["open_for"] == timedelta(minutes=10)
    [expired] = await s.challenges.expire_due()
    assert expired.id == made.id and expired.status is ChallengeStatus.EXPIRED
    assert s.challenges.next_expiry() is None
    with pytest.raises(PlayerError) as info:  # marked expired: told the same
        await s.challenges.decline(made.id, BOB)
    assert info.value.key is Msg.CHALLENGE_EXPIRED_AFTER
    assert info.value.params["open_for"] == timedelta(minutes=10)
    # After a restart the pending challenge still expires (found by expire_due).
    again = await challenge(s)
    await s.close()
    s = await open_services(clock=clock)
    clock.advance(timedelta(minutes=11))
    assert [c.id for c in await s.challenges.expire_due()] == [again.id]


async def test_a_correspondence_challenge_stays_open_longer(
    open_services: OpenServices,
) -> None:
    """A move time of a day or more: the challenge stays open three days (the default
    correspondence expiry), not ten minutes; its refusal after that says so."""
    clock = FakeClock()
    s = await open_services(clock=clock)
    made = await challenge(s, move_time=MoveTime.DAYS_3)
    assert made.expires_at == clock() + timedelta(days=3)
    clock.advance(timedelta(days=2))
    assert await s.challenges.expire_due() == []
    shorter = await challenge(s, opponent=C, move_time=MoveTime.HOUR_1)
    assert shorter.expires_at == clock() + timedelta(minutes=10)
    clock.advance(timedelta(days=1))
    with pytest.raises(PlayerError) as info:
        await s.challenges.accept(made.id, BOB, channel_id=made.channel_id)
    assert info.value.key is Msg.CHALLENGE_EXPIRED_AFTER
    assert info.value.params["open_for"] == timedelta(days=3)
    text = Presenter().error_text(info.value, "en-US")
    assert "after 3 days without an answer" in text
    assert f"<t:{int(made.expires_at.timestamp())}:R>" in text


async def test_a_challenge_shown_but_not_recorded_is_still_made(
    open_services: OpenServices,
) -> None:
    """The challenge is committed and posted; when its message id can no longer be
    stored (the database refuses writes), the challenge stands and nothing is raised, so
    the player is not told it failed."""
    s = await open_services()

    async def post(challenge: Challenge) -> int | None:
        async with s.storage.db.read() as conn:  # writes refused from here on
            await conn.fetchval("PRAGMA query_only = 1")
        return 4242

    made = await s.challenges.create(challenger=A, opponent=Person(BOB), guild_id=GUILD,
                                     channel_id=CHANNEL, variant="arab", rated=False,
                                     post=post)
    assert made.message_id is None
    stored = await s.challenges.get(made.id)
    assert stored is not None and stored.status is ChallengeStatus.PENDING


async def test_an_accepted_challenge_with_a_clock_starts_both_clocks(
    open_services: OpenServices,
) -> None:
    s = await open_services()
    control = TimeControl(180, 2)
    made = await s.challenges.create(
        challenger=A, opponent=B, guild_id=GUILD, channel_id=CHANNEL, variant="turkish",
        rated=True, color=ColorChoice.WHITE, time_control=control,
    )
    assert made.time_control == control and made.move_seconds is None
    _, update = await s.challenges.accept(made.id, BOB, channel_id=CHANNEL)
    state = update.state
    assert state.time_control == control and state.clock is not None
    assert state.clock.white_left == state.clock.black_left == timedelta(minutes=3)
    assert state.deadline == s.clock() + timedelta(minutes=3)


async def test_a_challenge_with_a_clock_and_a_time_per_move_is_refused(
    open_services: OpenServices,
) -> None:
    s = await open_services()
    with pytest.raises(PlayerError) as refused:
        await s.challenges.create(
            challenger=A, opponent=B, guild_id=GUILD, channel_id=CHANNEL, variant="turkish",
            rated=True, move_time=MoveTime.SECONDS_40, time_control=TimeControl(180, 2),
        )
    assert refused.value.key is Msg.CLOCK_WITH_MOVE_TIME
    assert await s.storage.challenges.pending() == []


FIRST_SEVEN = ("turkish", "arab", "moroccan", "italian", "international", "brazilian",
               "russian")


@pytest.mark.parametrize(("locale", "listed"), [
    (None, "Turkish draughts, Arab Dama, Moroccan draughts, Italian draughts, International "
           "draughts, Brazilian draughts, Russian draughts, or English checkers"),
    ("tr", ", ".join(variant_name(key, "tr") for key in FIRST_SEVEN)
           + f" veya {variant_name('english', 'tr')}"),
    ("fr", ", ".join(variant_name(key, "fr") for key in FIRST_SEVEN)
           + f" ou {variant_name('english', 'fr')}"),
])
def test_an_unknown_variant_is_answered_with_the_variants_names_in_the_readers_language(
    locale: str | None, listed: str,
) -> None:
    with pytest.raises(PlayerError) as refused:
        variant_key("chess")
    assert refused.value.key is Msg.UNKNOWN_VARIANT
    assert listed in Presenter().error_text(refused.value, locale)
