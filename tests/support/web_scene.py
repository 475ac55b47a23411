"""The games, players, leaderboard and tournament the web pages' browser tests and the
web gallery (`make gallery-web`) show, made through the bot's services on a real SQLite
file: the same database every run (a `FakeClock` from a fixed time, seeded choices, a
real game from `tests/data`).

`build_scene(services)` makes:
- a public server ("Dama Club", web setting PUBLIC) and a link-only one (LINK);
- in the public server, game 1 of the 2005 Italian championship file (`tests/data`),
  played move by move by Alice and Bob and ended as recorded, then analysed (a small
  search budget per position);
- a Turkish game under way there between Alice and Carol (a few plies played);
- a finished Turkish game in the link-only server (Bob and Carol, Carol resigns);
- a round robin of four players in the public server, its first round played (a few
  moves, then the lower user id wins or draws: rated games, so the leaderboard lists
  them).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path

import engine
from bot.services.analysis import AnalysisService, ThreadReviewer
from engine.pdn import read_pdn
from storage import GameRecord
from tests.support.clock import FakeClock
from tests.support.services import ALICE, BOB, CAROL, GUILD, Services, start_game
from tests.support.tournament_play import (
    ORGANISER,
    PLAYERS,
    by_lower_id,
    create,
    current_round,
    play_round,
)
from tournaments.model import Format

SCENE_START = datetime(2026, 11, 14, 18, 0, tzinfo=UTC)
"""When the scene's first game starts (its clock then moves by `MOVE_PAUSE` a move)."""

MOVE_PAUSE = timedelta(seconds=20)

LINK_GUILD = 510
"""The link-only server's id (`GUILD` is the public one)."""

ANALYSED_CHANNEL, LIVE_CHANNEL, LINK_CHANNEL = 610, 611, 612

LIVE_PLIES = 6
"""Plies played in the game under way."""

TOURNAMENT_PLIES = 8
"""Plies played in each game of the tournament's first round before it ends (a game
ended before its first moves is not rated)."""

ANALYSIS_NODES = 3_000
"""Search budget per position of the scene's analysis: enough to find the real game's
mistakes, small enough for a few seconds on a loaded machine."""

NAMES = {ALICE: "Alice", BOB: "Bob", CAROL: "Carol"} | {
    player: name for player, name in zip(
        PLAYERS, ("Amira", "Luca", "Zeynep", "Camille", "Omar", "Giulia", "Emre", "Chloé"),
        strict=True)
}
"""Display names of the scene's players (each the name a Discord member would show)."""

CHAMPIONSHIP = (Path(__file__).resolve().parents[1] / "data"
                / "italian-assoluto-2005-rounds-1-3.pdn")


@dataclass(frozen=True)
class Scene:
    """What `build_scene` made: ids of the games, the player, the servers and the
    tournament the pages show."""

    analysed_game: int
    """Public, finished and analysed: the real championship game."""
    live_game: int
    """Public, under way, Alice (White) against Carol; White to move after `LIVE_PLIES`."""
    link_game: int
    """Finished, in the link-only server: shown by its signed link only."""
    player: int
    """Alice: games in both servers, ratings in two variants."""
    guild: int
    """The public server (leaderboard, tournament)."""
    link_guild: int
    tournament: int
    """The round robin, its first round played."""


async def build_scene(services: Services) -> Scene:
    """Make the scene in `services`' database (see the module docstring). `services`
    must be fresh and built with a `FakeClock` (the database is the same every run) and
    the servers' web settings are stored as a server's preference (`web`)."""
    clock = services.clock
    clock.now = SCENE_START
    for user_id, name in NAMES.items():
        await services.storage.players.upsert(user_id, name)
    await services.storage.settings.set_guild(GUILD, {"web": "public"})
    await services.storage.settings.set_guild(LINK_GUILD, {"web": "link"})
    analysed = await _championship_game(services)
    await _analyse(services, analysed.id)
    link = await _link_game(services)
    tournament = await _tournament(services)
    live = await _live_game(services)
    return Scene(analysed_game=analysed.id, live_game=live.id, link_game=link.id,
                 player=ALICE, guild=GUILD, link_guild=LINK_GUILD, tournament=tournament)


async def _championship_game(services: Services) -> GameRecord:
    """Game 1 of the championship file between Alice (White) and Bob, ended as recorded
    (the loser resigns after the last recorded move, or both agree a draw)."""
    recorded = read_pdn(CHAMPIONSHIP.read_text(encoding="utf-8"), variant="italian")[0]
    record = await start_game(services, "italian", channel=ANALYSED_CHANNEL)
    replay = engine.Game(recorded.variant)
    for move in recorded.game.moves:
        text = engine.format_move(move, replay.position, replay.variant)
        player = ALICE if replay.position.turn is engine.Color.WHITE else BOB
        await services.games.play(ANALYSED_CHANNEL, player, text)
        replay.play(move)
        services.clock.advance(MOVE_PAUSE)
        if replay.outcome is not None:
            break
    else:
        match recorded.result.token:
            case "1-0":
                await services.games.resign(ANALYSED_CHANNEL, BOB)
            case "0-1":
                await services.games.resign(ANALYSED_CHANNEL, ALICE)
            case _:
                await services.games.draw(ANALYSED_CHANNEL, ALICE)
                await services.games.draw(ANALYSED_CHANNEL, BOB)
    return record


async def _analyse(services: Services, game_id: int) -> None:
    """Analyse `game_id` as `/analyze` does (in a worker thread, `ANALYSIS_NODES` a
    position) and wait for its stored result."""

    async def progress(done: int, total: int) -> None:
        """Nobody watches the progress here."""

    analyses = AnalysisService(services.storage, services.games, ThreadReviewer(),
                               nodes=ANALYSIS_NODES)
    running = await analyses.start(game_id, ALICE, progress, None)
    await running.task


async def _random_plies(services: Services, channel: int, white: int, black: int,
                        plies: int, seed: int) -> None:
    """`plies` moves chosen by a seeded random draw among the legal ones."""
    rng = random.Random(seed)
    for _ in range(plies):
        record = await services.storage.games.active_in_channel(channel)
        assert record is not None
        _, game = await services.games.game_of(record.id)
        if game.outcome is not None:
            return
        position = game.position
        move = rng.choice(sorted(game.legal_moves(), key=lambda m: (m.start, m.end)))
        player = white if position.turn is engine.Color.WHITE else black
        await services.games.play(channel, player,
                                  engine.format_move(move, position, game.variant))
        services.clock.advance(MOVE_PAUSE)


async def _link_game(services: Services) -> GameRecord:
    """A Turkish game in the link-only server, Bob against Carol; Carol resigns."""
    record = await start_game(services, "turkish", white=BOB, black=CAROL,
                              channel=LINK_CHANNEL, guild=LINK_GUILD)
    await _random_plies(services, LINK_CHANNEL, BOB, CAROL, 16, seed=3)
    await services.games.resign(LINK_CHANNEL, CAROL)
    return record


async def _live_game(services: Services) -> GameRecord:
    """A Turkish game under way in the public server, Alice (White) against Carol."""
    record = await start_game(services, "turkish", white=ALICE, black=CAROL,
                              channel=LIVE_CHANNEL)
    await _random_plies(services, LIVE_CHANNEL, ALICE, CAROL, LIVE_PLIES, seed=7)
    return record


async def _tournament(services: Services) -> int:
    """A round robin of four of the scene's players, its first round played (the lower
    user id wins)."""
    view = await create(services, Format.ROUND_ROBIN, name="Autumn Round Robin")
    players = PLAYERS[:4]
    for player in players:
        await services.tournaments.join(view.id, player, guild_id=GUILD,
                                        role_ids=frozenset(), display_name=NAMES[player])
    await services.tournaments.start(view.id, ORGANISER, guild_id=GUILD, may_organise=True)
    await services.tournaments.idle()
    for board, pairing in enumerate((await current_round(services, view.id)).pairings):
        assert pairing.thread_id is not None
        await _random_plies(services, pairing.thread_id, pairing.white, pairing.black,
                            TOURNAMENT_PLIES, seed=11 + board)
    await play_round(services, view.id, by_lower_id)
    return view.id


def fresh_clock() -> FakeClock:
    """The clock a scene's services are built with."""
    return FakeClock(SCENE_START)

