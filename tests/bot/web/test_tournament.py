"""A tournament's page (`bot/web/pages/tournament.py`) through the real application on a
real socket, over a tournament run by the services: its settings and state, the
standings with the tie-breaks of the standings picture, the rounds with each game
linked, the games under way, and its server's `web` setting."""

from __future__ import annotations

import re

from markupsafe import escape

from bot.messages import Msg, text
from bot.services.settings import WebVisibility
from bot.services.web_access import PageKind
from bot.tournament_display import RESULTS
from tests.support.services import GUILD, OpenServices, Services
from tests.support.tournament_play import (
    ORGANISER,
    PLAYERS,
    by_lower_id,
    create,
    current_round,
    play_round,
    sign_up,
)
from tests.support.web import WebFace, set_web, web_server
from tournaments.model import Format


def _shown(key: Msg, **params: object) -> str:
    """Message `key` in English as the page writes it (HTML-escaped)."""
    return str(escape(text(key, "en", **params)))


def _signed(face: WebFace, tournament_id: int) -> str:
    token = face.context.access.signer.token(PageKind.TOURNAMENT, tournament_id)
    return f"/tournaments/{tournament_id}/{token}"


async def _swiss_after_one_round(services: Services) -> int:
    """A Swiss of four players whose first round is played (the lower id wins) and whose
    second is paired, its games under way."""
    view = await create(services, Format.SWISS)
    await sign_up(services, view.id, PLAYERS[:4])
    await services.tournaments.start(view.id, ORGANISER, guild_id=GUILD)
    await services.tournaments.idle()
    await play_round(services, view.id, by_lower_id)
    return view.id


async def test_the_page_shows_standings_rounds_and_games_under_way(
        open_services: OpenServices) -> None:
    services = await open_services()
    tournament_id = await _swiss_after_one_round(services)
    rounds = await services.tournaments.rounds(tournament_id, guild_id=GUILD)
    standings = await services.tournaments.standings(tournament_id, guild_id=GUILD)
    second = await current_round(services, tournament_id)
    assert second.number == 2
    async with web_server(services) as face:
        response = await face.client.get(_signed(face, tournament_id))
        body = await response.text()
        links = face.context.access.links
        signer = face.context.access.signer
    assert response.status == 200
    assert "<bdi>Test swiss</bdi>" in body
    # A link pasted in a chat previews with the tournament's name.
    assert '<meta property="og:title" content="Test swiss">' in body
    assert _shown(Msg.TOURNAMENT_STATUS_RUNNING, round=2, rounds=4) in body
    # The standings: the picture's columns (rank, number, player, points, Bu-1, SB, DE,
    # one per round), the rows in the service's order, each player linked.
    table = body.split('<table class="standings">')[1].split("</table>")[0]
    for heading in (Msg.TIEBREAK_SHORT_BUCHHOLZ_CUT_1, Msg.TIEBREAK_SHORT_SONNEBORN_BERGER,
                    Msg.TIEBREAK_SHORT_DIRECT_ENCOUNTER):
        assert f"<th scope=\"col\">{_shown(heading)}</th>" in table
    names = re.findall(r'<th scope="row"><a href="[^"]+"><bdi>(p\d+)</bdi></a>', table)
    assert names == [f"p{row.user_id}" for row in standings.rows]
    for row in standings.rows:
        assert links.player(row.user_id) in table
    # Round 1: each board's result as crosstables write it, linked to its game's page.
    for pairing in rounds[0].pairings:
        assert pairing.game_id is not None and pairing.outcome is not None
        token = signer.token(PageKind.GAME, pairing.game_id)
        url = f"https://dama.example.org/games/{pairing.game_id}/{token}"
        assert f'<a href="{url}"><bdi dir="ltr">{RESULTS[pairing.outcome]}</bdi></a>' in body
    # Round 2's games are under way, each linked in the list of games to follow.
    watching = body.split('<ul class="under-way">')[1].split("</ul>")[0]
    for pairing in second.pairings:
        assert pairing.game_id is not None and pairing.outcome is None
        assert f"/games/{pairing.game_id}/" in watching


async def test_a_tournament_before_its_start_has_no_standings(
        open_services: OpenServices) -> None:
    services = await open_services()
    view = await create(services, Format.ROUND_ROBIN)
    await sign_up(services, view.id, PLAYERS[:3])
    async with web_server(services) as face:
        body = await (await face.client.get(_signed(face, view.id))).text()
    assert _shown(Msg.WEB_TOURNAMENT_SIGNUP) in body
    assert _shown(Msg.WEB_TOURNAMENT_NOT_STARTED) in body
    assert '<table class="standings">' not in body


async def test_a_tournament_cancelled_before_its_start_is_not_said_to_start_later(
        open_services: OpenServices) -> None:
    services = await open_services()
    view = await create(services, Format.SWISS)
    await services.tournaments.end(view.id, ORGANISER, guild_id=GUILD, may_organise=True)
    async with web_server(services) as face:
        body = await (await face.client.get(_signed(face, view.id))).text()
    assert _shown(Msg.TOURNAMENT_STATUS_CANCELLED) in body
    assert _shown(Msg.WEB_TOURNAMENT_NOT_STARTED) not in body


async def test_an_arena_shows_each_players_games_in_one_column(
        open_services: OpenServices) -> None:
    services = await open_services()
    view = await create(services, Format.ARENA)
    await sign_up(services, view.id, PLAYERS[:2])
    await services.tournaments.start(view.id, ORGANISER, guild_id=GUILD)
    await services.tournaments.idle()
    await play_round(services, view.id, by_lower_id)
    async with web_server(services) as face:
        body = await (await face.client.get(_signed(face, view.id))).text()
    table = body.split('<table class="standings">')[1].split("</table>")[0]
    assert f"<th scope=\"col\">{_shown(Msg.TIEBREAK_SHORT_PERFORMANCE)}</th>" in table
    assert f"<th scope=\"col\">{_shown(Msg.WEB_TOURNAMENT_GAMES)}</th>" in table
    # The winner's game scored 2, the loser's 0, each in its cell.
    assert '<b><bdi dir="ltr">2</bdi></b>' in table
    assert '<b><bdi dir="ltr">0</bdi></b>' in table


async def test_the_page_follows_its_servers_web_setting(open_services: OpenServices) -> None:
    services = await open_services()
    tournament_id = await _swiss_after_one_round(services)
    async with web_server(services) as face:
        missing_body = await (await face.client.get("/tournaments/999999")).text()
        unsigned = f"/tournaments/{tournament_id}"
        # LINK (the default): the signed link only.
        response = await face.client.get(unsigned)
        assert (response.status, await response.text()) == (404, missing_body)
        assert (await face.client.get(_signed(face, tournament_id))).status == 200
        await set_web(services, GUILD, WebVisibility.PUBLIC)
        assert (await face.client.get(unsigned)).status == 200
        await set_web(services, GUILD, WebVisibility.OFF)
        for path in (unsigned, _signed(face, tournament_id)):
            response = await face.client.get(path)
            assert (response.status, await response.text()) == (404, missing_body), path


async def test_the_arabic_page_keeps_results_left_to_right(
        open_services: OpenServices) -> None:
    services = await open_services()
    tournament_id = await _swiss_after_one_round(services)
    async with web_server(services) as face:
        body = await (await face.client.get(_signed(face, tournament_id) + "?lang=ar")).text()
    assert '<html lang="ar" dir="rtl">' in body
    assert '<bdi dir="ltr">2-0</bdi>' in body or '<bdi dir="ltr">0-2</bdi>' in body
