"""`bot.services.games.starting`: `GameService.start`, the one way a game starts, on a real
SQLite file: under the channel's lock, refused in a busy or quarantined channel before
anything is stored, the colours, start position and first deadline as asked, the first
board announced and recorded."""

from __future__ import annotations

import asyncio
from datetime import timedelta

import pytest

from bot.messages import Msg
from bot.services import GameStart, GameUpdate, Person, PlayerError, TurnChanged, UpdateKind
from engine import Position, get_variant
from storage import ColorChoice, NewGame, Seat
from tests.support.choosers import PATIENCE
from tests.support.services import (
    ALICE,
    BOB,
    CAROL,
    CHANNEL,
    GUILD,
    OpenServices,
    Services,
    start_game,
)

SET_UP = "W:Wd4,a2:Bd5"


def italian(color: ColorChoice = ColorChoice.WHITE, **values: object) -> GameStart:
    fields: dict[str, object] = {
        "channel_id": CHANNEL, "guild_id": GUILD, "variant": "italian",
        "first": Seat.human(ALICE), "second": Seat.human(BOB), "color": color,
        "actor": BOB, **values,
    }
    return GameStart(**fields)  # type: ignore[arg-type]


async def games_in(s: Services, channel: int = CHANNEL) -> int:
    return len([g for g in await s.storage.games.active() if g.channel_id == channel])


async def test_a_start_stores_the_game_as_asked_and_records_its_first_board(
    open_services: OpenServices,
) -> None:
    s = await open_services()
    turns: list[int] = []
    s.games.events.subscribe(TurnChanged, lambda event: turns.append(event.state.game_id))
    seen: list[GameUpdate] = []

    async def announce(update: GameUpdate) -> int:
        seen.append(update)
        return 4242

    update = await s.games.start(
        italian(ColorChoice.BLACK, rated=True, move_seconds=40, variant="turkish",
                start_fen=SET_UP),
        announce=announce,
    )
    state = update.state
    assert update.kind is UpdateKind.STARTED and update.actor == BOB
    assert [u.state.game_id for u in seen] == [state.game_id]
    assert (state.white.user_id, state.black.user_id) == (BOB, ALICE)
    assert state.variant.key == "turkish" and state.rated and state.ply == 0
    assert state.position == Position.from_fen(SET_UP, get_variant("turkish"))
    assert state.deadline == s.clock() + timedelta(seconds=40)
    assert state.board_message_id == 4242 and turns == [state.game_id]
    stored = await s.storage.games.get(state.game_id)
    assert stored is not None and stored.board_message_id == 4242 and not stored.board_owed
    assert s.games.current(CHANNEL).game_id == state.game_id


async def test_a_random_colour_gives_the_first_seat_either_colour(
    open_services: OpenServices,
) -> None:
    s = await open_services()
    whites = set()
    for channel in range(CHANNEL, CHANNEL + 16):
        started = await s.games.start(italian(ColorChoice.RANDOM, channel_id=channel))
        whites.add(started.state.white.user_id)
    assert whites == {ALICE, BOB}


async def test_a_start_waits_for_the_channels_lock(open_services: OpenServices) -> None:
    s = await open_services()
    async with s.games.table.hold(CHANNEL):
        starting = asyncio.ensure_future(s.games.start(italian()))
        await asyncio.sleep(0.05)
        assert not starting.done() and await games_in(s) == 0
    await asyncio.wait_for(starting, PATIENCE)
    assert await games_in(s) == 1


async def test_two_starts_at_once_in_one_channel_make_one_game(
    open_services: OpenServices,
) -> None:
    s = await open_services()
    results = await asyncio.gather(
        s.games.start(italian()),
        s.games.start(italian(first=Seat.human(CAROL), second=Seat.computer(2))),
        return_exceptions=True,
    )
    refused = [r for r in results if isinstance(r, PlayerError)]
    assert len(refused) == 1 and refused[0].key is Msg.CHANNEL_BUSY
    assert await games_in(s) == 1


@pytest.mark.parametrize(("first", "second", "key"), [
    (ALICE, CAROL, Msg.ALREADY_PLAYING_HERE),
    (CAROL, BOB, Msg.OPPONENT_PLAYING_HERE),
    (CAROL, None, Msg.CHANNEL_BUSY),
])
async def test_a_busy_channel_refuses_a_start_and_nothing_is_stored(
    open_services: OpenServices, first: int, second: int | None, key: Msg,
) -> None:
    s = await open_services()
    await start_game(s, "italian")  # ALICE against BOB
    vetted: list[bool] = []

    async def vet() -> None:
        vetted.append(True)

    seat = Seat.computer(2) if second is None else Seat.human(second)
    with pytest.raises(PlayerError) as refused:
        await s.games.start(italian(first=Seat.human(first), second=seat), vet=vet)
    assert refused.value.key is key and vetted == [True]
    assert await games_in(s) == 1


async def test_the_callers_vet_refuses_before_anything_is_stored(
    open_services: OpenServices,
) -> None:
    s = await open_services()

    async def vet() -> None:
        raise PlayerError(Msg.COMPUTER_BUSY, wait=timedelta(seconds=5))

    with pytest.raises(PlayerError) as refused:
        await s.games.start(italian(), vet=vet)
    assert refused.value.key is Msg.COMPUTER_BUSY and await games_in(s) == 0
    assert not s.games.has_game(CHANNEL)


async def test_a_quarantined_channel_refuses_a_start_and_a_challenge(
    open_services: OpenServices,
) -> None:
    """A game whose stored moves no longer replay keeps its channel (docs/ARCHITECTURE.md,
    "Recovery at start-up"): a new game or challenge there is refused with the quarantine
    message, not taken for an ordinary busy channel."""
    s = await open_services()
    variant = get_variant("turkish")
    bad = await s.storage.games.create(NewGame(
        variant="turkish", channel_id=CHANNEL, guild_id=GUILD, white=Seat.human(ALICE),
        black=Seat.human(BOB), start_fen=Position.start(variant).to_fen(variant),
    ))
    await s.storage.games.append_move(bad.id, ply=1, text="a3-a4")
    await s.storage.games.append_move(bad.id, ply=2, text="b3-b7")  # not legal there
    await s.games.restore()
    with pytest.raises(PlayerError) as refused:
        await s.games.start(italian(first=Seat.human(CAROL), second=Seat.computer(1)))
    assert refused.value.key is Msg.GAME_QUARANTINED
    assert refused.value.params["game_id"] == bad.id
    with pytest.raises(PlayerError) as challenged:
        await s.challenges.create(challenger=Person(CAROL), opponent=Person(ALICE + 50),
                                  guild_id=GUILD, channel_id=CHANNEL, variant="turkish",
                                  rated=False)
    assert challenged.value.key is Msg.GAME_QUARANTINED
    assert await s.storage.challenges.pending() == []
