"""A game as its live viewers see it (`bot.web.live_reads`): the same move texts and
status line as the game page's own view (`bot.web.game_view`), for games played through
the services in variants written in letters and in numbers, White or Black first."""

from __future__ import annotations

import asyncio
import random

import pytest

import engine
from bot.language import Language
from bot.services.replay import replay_game
from bot.web.game_view import GameInputs, game_view
from bot.web.live_reads import GameRead, GameReads, read_game
from storage import GameNotFoundError
from tests.support.services import ALICE, BOB, CHANNEL, OpenServices, Services, start_game


async def play_randomly(services: Services, plies: int, seed: int) -> None:
    rng = random.Random(seed)
    for _ in range(plies):
        state = services.games.current(CHANNEL)
        move = rng.choice(engine.legal_moves(state.position, state.variant))
        user = state.to_move.user_id
        assert user is not None
        await services.games.play(CHANNEL, user, engine.format_move(
            move, state.position, state.variant))


async def page_view(services: Services, read: GameRead, language: Language) -> tuple[
        list[str], str]:
    record, moves = await services.storage.games.load(read.record.id)
    names = []
    for seat in (record.white, record.black):
        assert seat.user_id is not None
        player = await services.storage.players.get(seat.user_id)
        names.append(None if player is None else player.display_name)
    view = game_view(GameInputs(record, tuple(moves), (names[0], names[1])),
                     replay_game(record, moves), language)
    return [line.text for line in view.moves], view.status


@pytest.mark.parametrize("variant", ["turkish", "italian", "international", "english"])
async def test_a_live_read_says_what_the_game_page_says(
        open_services: OpenServices, variant: str) -> None:
    services = await open_services()
    await services.stats.remember(ALICE, "alice")
    record = await start_game(services, variant, rated=False)
    await play_randomly(services, 3, seed=len(variant))
    early = await read_game(services.storage, record.id)
    await play_randomly(services, 4, seed=len(variant) + 1)
    for language in (Language.ENGLISH, Language.ARABIC):
        fresh = await read_game(services.storage, record.id)
        lines, status = await page_view(services, fresh, language)
        assert list(fresh.lines) == lines and len(lines) == 7
        assert await fresh.status(language) == status
    extended = await read_game(services.storage, record.id, early)  # reads plies 4 to 7
    assert extended.lines == fresh.lines and extended.moves == fresh.moves
    assert await extended.status(Language.ENGLISH) == await fresh.status(Language.ENGLISH)
    await services.games.resign(CHANNEL, ALICE if services.games.current(
        CHANNEL).to_move.user_id == ALICE else BOB)
    read = await read_game(services.storage, record.id)
    assert read.over
    for language in (Language.ENGLISH, Language.TURKISH):
        assert await read.status(language) == (await page_view(services, read, language))[1]


async def test_viewers_told_the_same_ply_share_one_read(open_services: OpenServices) -> None:
    services = await open_services()
    record = await start_game(services, "turkish")
    reads = GameReads()
    together = await asyncio.gather(*(reads.read(services.storage, record.id, 0)
                                      for _ in range(50)))
    assert all(read is together[0] for read in together)
    await services.games.play(CHANNEL, ALICE, "a3-a4")
    moved = await reads.read(services.storage, record.id, 1)
    assert moved is not together[0] and moved.plies == 1
    assert await reads.read(services.storage, record.id, 1) is moved
    await services.games.abort(CHANNEL, ALICE)
    assert not (await reads.read(services.storage, record.id, 1)).over  # nothing new heard
    final = await reads.read(services.storage, record.id, 1, ended=True)  # the end heard
    assert final.over and final is not moved
    assert await reads.read(services.storage, record.id, 0) is final  # final for everyone


async def test_a_failed_read_is_not_kept(open_services: OpenServices) -> None:
    services = await open_services()
    reads = GameReads()
    with pytest.raises(GameNotFoundError):
        await reads.read(services.storage, 404, 0)
    assert len(reads) == 0


async def test_a_forgotten_game_is_read_again(open_services: OpenServices) -> None:
    services = await open_services()
    record = await start_game(services, "turkish")
    reads = GameReads()
    first = await reads.read(services.storage, record.id, 0)
    assert len(reads) == 1
    reads.forget(record.id)
    assert len(reads) == 0
    assert await reads.read(services.storage, record.id, 0) is not first
