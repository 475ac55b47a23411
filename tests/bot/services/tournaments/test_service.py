"""The facade's reads (`TournamentService`): a tournament is seen only from its own
server, found from its channel, thread or a game's thread, listed while not over and in
the history once finished, exported in FIDE's TRF (Swiss and round robin), its standings
computed off the event loop; and the main flow on PostgreSQL."""

from __future__ import annotations

import dataclasses
import functools
import random
import threading
from pathlib import Path
from typing import Any

import pytest

from bot.composition import compose
from bot.messages import Msg
from bot.services.errors import PlayerError
from bot.services.tournaments import Final, StandingsView, advance
from bot.services.tournaments.standings import arena_standings
from storage import TournamentStatus
from tests.support.clock import FakeClock
from tests.support.postgres import PostgresServer
from tests.support.services import (
    CHANNEL,
    GUILD,
    OpenServices,
    Services,
    TournamentCollector,
    collected,
    config_for,
)
from tests.support.tournament_play import (
    ORGANISER,
    PLAYERS,
    by_lower_id,
    create,
    current_round,
    play_round,
    sign_up,
)
from tournaments.model import Format, Outcome
from tournaments.trf import read_trf, trf_rounds

OTHER_GUILD = 777


async def test_a_tournament_is_seen_only_from_its_own_server(
        open_services: OpenServices) -> None:
    services = await open_services()
    view = await create(services, Format.SWISS)
    assert (await services.tournaments.info(view.id, guild_id=GUILD)).id == view.id
    for read in (services.tournaments.info, services.tournaments.standings,
                 services.tournaments.rounds, services.tournaments.export_trf):
        with pytest.raises(PlayerError) as caught:
            await read(view.id, guild_id=OTHER_GUILD)
        assert caught.value.key is Msg.TOURNAMENT_UNKNOWN
        assert caught.value.params["tournament_id"] == view.id
    assert await services.tournaments.list(OTHER_GUILD) == []


async def test_a_tournament_is_found_from_its_channel_its_thread_and_its_games_threads(
        open_services: OpenServices) -> None:
    services = await open_services()
    view = await create(services, Format.SWISS)
    assert await services.tournaments.in_channel(GUILD, CHANNEL + 9) is None
    assert (await services.tournaments.in_channel(GUILD, CHANNEL)) == view
    await sign_up(services, view.id, PLAYERS[:2])
    started = await services.tournaments.start(view.id, ORGANISER, guild_id=GUILD)
    assert started.thread_id is not None
    found = await services.tournaments.in_channel(GUILD, started.thread_id)
    assert found is not None and found.id == view.id
    (pairing,) = (await current_round(services, view.id)).pairings
    assert pairing.thread_id is not None
    found = await services.tournaments.in_channel(GUILD, pairing.thread_id)
    assert found is not None and found.id == view.id


async def test_the_standings_before_the_start_have_no_rows(open_services: OpenServices) -> None:
    services = await open_services()
    view = await create(services, Format.ARENA)
    await sign_up(services, view.id, PLAYERS[:3])
    standings = await services.tournaments.standings(view.id, guild_id=GUILD)
    assert standings.rows == () and not standings.final


async def test_a_swiss_is_exported_in_trf_and_an_arena_is_not(
        open_services: OpenServices) -> None:
    services = await open_services()
    view = await create(services, Format.SWISS, rounds=2, name="Spring Swiss")
    with pytest.raises(PlayerError) as caught:
        await services.tournaments.export_trf(view.id, guild_id=GUILD)
    assert caught.value.key is Msg.TOURNAMENT_NO_TRF
    await sign_up(services, view.id, PLAYERS[:4])
    await services.tournaments.start(view.id, ORGANISER, guild_id=GUILD)
    await play_round(services, view.id, by_lower_id)
    await play_round(services, view.id, by_lower_id)
    text = await services.tournaments.export_trf(view.id, guild_id=GUILD)
    trf = read_trf(text)
    assert trf.header_value("012") == "Spring Swiss"
    assert sorted(player.name for player in trf.players) == [f"p{p}" for p in PLAYERS[:4]]
    _, rounds = trf_rounds(trf)
    assert [len(r.games) for r in rounds] == [2, 2]
    assert all(game.outcome is not None for r in rounds for game in r.games)

    arena = await create(services, Format.ARENA, channel=CHANNEL + 1)
    await sign_up(services, arena.id, PLAYERS[:2])
    await services.tournaments.start(arena.id, ORGANISER, guild_id=GUILD)
    with pytest.raises(PlayerError) as caught:
        await services.tournaments.export_trf(arena.id, guild_id=GUILD)
    assert caught.value.key is Msg.TOURNAMENT_NO_TRF


async def test_the_list_holds_the_tournaments_not_over_and_the_history_the_finished(
        open_services: OpenServices) -> None:
    services = await open_services()
    done = await create(services, Format.SWISS, rounds=1)
    await sign_up(services, done.id, PLAYERS[:2])
    await services.tournaments.start(done.id, ORGANISER, guild_id=GUILD)
    await play_round(services, done.id, by_lower_id)
    waiting = await create(services, Format.ARENA, channel=CHANNEL + 1)
    assert [t.id for t in await services.tournaments.list(GUILD)] == [waiting.id]
    history = await services.tournaments.history(GUILD)
    assert [(t.id, t.status) for t in history] == [(done.id, TournamentStatus.FINISHED)]


async def test_a_swiss_runs_on_postgresql(postgres_server: PostgresServer,
                                          tmp_path: Path) -> None:
    url = postgres_server.new_database()
    clock = FakeClock()
    outlet = TournamentCollector()
    config = dataclasses.replace(config_for(tmp_path / "unused.sqlite3"), database=url)
    composed = await compose(config, functools.partial(collected, tournaments=outlet),
                             clock=clock, computer_turns=False, rng=random.Random(1))
    services = Services(composed, clock, outlet)
    try:
        await composed.games.restore()
        view = await create(services, Format.SWISS, rounds=3)
        await sign_up(services, view.id, PLAYERS)
        await services.tournaments.start(view.id, ORGANISER, guild_id=GUILD)
        for _ in range(3):
            await play_round(services, view.id, by_lower_id)
        info = await services.tournaments.info(view.id, guild_id=GUILD)
        assert info.status is TournamentStatus.FINISHED
        (final,) = outlet.of_kind(view.id, Final)
        assert isinstance(final, Final)
        assert sum(row.score for row in final.standings.rows) == 3 * 4 * 2
        assert final.standings.rows[0].user_id == PLAYERS[0]
    finally:
        await services.close()
        postgres_server.drop_database(url)


async def test_the_standings_are_computed_off_the_event_loop(
        open_services: OpenServices, monkeypatch: pytest.MonkeyPatch) -> None:
    # A long arena's standings take tens of milliseconds: the event loop's thread must
    # not wait for them (benchmarks/tournaments.py).
    threads: list[threading.Thread] = []

    def spied(*args: Any, **kwargs: Any) -> StandingsView:
        threads.append(threading.current_thread())
        return arena_standings(*args, **kwargs)

    monkeypatch.setattr(advance, "arena_standings", spied)
    services = await open_services()
    view = await create(services, Format.ARENA)
    await sign_up(services, view.id, PLAYERS[:2])
    await services.tournaments.start(view.id, ORGANISER, guild_id=GUILD)
    standings = await services.tournaments.standings(view.id, guild_id=GUILD)
    assert {row.user_id for row in standings.rows} == set(PLAYERS[:2])
    assert threads
    assert all(thread is not threading.main_thread() for thread in threads)


async def test_the_trf_ranks_are_the_standings_ranks(open_services: OpenServices) -> None:
    services = await open_services()
    view = await create(services, Format.SWISS, rounds=3)
    await sign_up(services, view.id, PLAYERS[:6])
    await services.tournaments.start(view.id, ORGANISER, guild_id=GUILD)
    for _ in range(3):
        await play_round(services, view.id, by_higher_id)
    standings = await services.tournaments.standings(view.id, guild_id=GUILD)
    assert standings.final
    trf = read_trf(await services.tournaments.export_trf(view.id, guild_id=GUILD))
    assert {player.name: player.rank for player in trf.players} == {
        f"p{row.user_id}": row.rank for row in standings.rows}


def by_higher_id(white: int, black: int) -> Outcome:
    """The higher user id wins (the reverse of the rating order, so that the tie-breaks,
    not the pairing numbers, order the players level on points)."""
    return Outcome.WHITE_WINS if white > black else Outcome.BLACK_WINS


async def test_a_tournament_game_gets_no_rematch(open_services: OpenServices) -> None:
    """The tournament pairs its players: a rematch of one of its games (an ordinary
    rated challenge beside the tournament) is refused, and says why."""
    services = await open_services()
    view = await create(services, Format.SWISS, rounds=2)
    await sign_up(services, view.id, PLAYERS[:2])
    await services.tournaments.start(view.id, ORGANISER, guild_id=GUILD)
    round_ = await current_round(services, view.id)
    [pairing] = round_.pairings
    await play_round(services, view.id, by_lower_id)
    assert pairing.game_id is not None
    with pytest.raises(PlayerError) as refused:
        await services.games.rematch_of(pairing.game_id, pairing.white)
    assert refused.value.key is Msg.REMATCH_TOURNAMENT_GAME
