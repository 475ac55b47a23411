"""Each pairing's game (`bot.services.tournaments.boards`): started in its own thread
through the game service, with the tournament's settings, linked to its pairing; an
aborted game becomes a forfeit (docs/RULES.md, "Scores"), and the round goes on."""

from __future__ import annotations

from bot.services.tournaments import Cell
from storage import GameStatus
from tests.support.services import GUILD, OpenServices, Services
from tests.support.tournament_play import ORGANISER, PLAYERS, create, current_round, sign_up
from tournaments.model import Format, Outcome


async def first_move(services: Services, thread_id: int, player: int) -> None:
    """`player` (to move) plays the first move the autocomplete offers."""
    choice = services.games.suggestions(thread_id, player, "")[0]
    await services.games.play(thread_id, player, choice.value)


async def test_each_pairing_gets_its_game_in_its_thread_with_the_tournaments_settings(
        open_services: OpenServices) -> None:
    services = await open_services()
    view = await create(services, Format.SWISS, move_seconds=300, rated=False)
    await sign_up(services, view.id, PLAYERS[:4])
    await services.tournaments.start(view.id, ORGANISER, guild_id=GUILD)
    round_ = await current_round(services, view.id)
    threads = services.tournament_posts.game_threads
    for pairing in round_.pairings:
        assert pairing.thread_id == threads[view.id, 1, pairing.board]
        assert pairing.game_id is not None
        game = await services.storage.games.get(pairing.game_id)
        assert game is not None
        assert (game.channel_id, game.guild_id) == (pairing.thread_id, GUILD)
        assert (game.white.user_id, game.black.user_id) == (pairing.white, pairing.black)
        assert (game.variant, game.move_seconds, game.rated) == ("turkish", 300, False)
        assert game.status is GameStatus.ACTIVE
    # Each game's first board is posted in its thread by the game announcer.
    boards = {update.state.channel_id for update in services.announced.updates}
    assert boards == {pairing.thread_id for pairing in round_.pairings}


async def test_an_aborted_game_is_a_forfeit(open_services: OpenServices) -> None:
    services = await open_services()
    view = await create(services, Format.SWISS, rounds=2)
    await sign_up(services, view.id, PLAYERS[:4])
    await services.tournaments.start(view.id, ORGANISER, guild_id=GUILD)
    first, second = (await current_round(services, view.id)).pairings
    assert first.thread_id is not None and second.thread_id is not None
    # Before anyone moved: neither played, both lose.
    await services.games.abort(first.thread_id, first.white)
    await services.tournaments.idle()
    # White moved, Black aborted before answering: White wins by forfeit.
    await first_move(services, second.thread_id, second.white)
    await services.games.abort(second.thread_id, second.black)
    await services.tournaments.idle()
    rounds = await services.tournaments.rounds(view.id, guild_id=GUILD)
    assert [p.outcome for p in rounds[0].pairings] == [Outcome.DOUBLE_FORFEIT,
                                                         Outcome.WHITE_WINS_BY_FORFEIT]
    assert len(rounds) == 2, "the round is over: the next one is paired"
    standings = await services.tournaments.standings(view.id, guild_id=GUILD)
    cells = {row.user_id: row.results[0].cell for row in standings.rows}
    assert cells == {first.white: Cell.FORFEIT_LOSS, first.black: Cell.FORFEIT_LOSS,
                     second.white: Cell.FORFEIT_WIN, second.black: Cell.FORFEIT_LOSS}
    scores = {row.user_id: row.score for row in standings.rows}
    assert scores[second.white] == 2 and scores[first.white] == 0
