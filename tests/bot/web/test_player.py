"""A player's page (`bot/web/pages/player.py`) through the real application on a real
socket, over games played through the services: their ratings, and only their games
that are PUBLIC on the web, with the sentence that says so."""

from __future__ import annotations

from markupsafe import escape

from bot.messages import Msg, text
from bot.services.settings import WebVisibility
from bot.services.web_access import PageKind
from storage import GameRecord, PlaceKind, Seat
from tests.support.services import ALICE, BOB, CAROL, GUILD, OpenServices, Services, start_game
from tests.support.web import WebFace, set_web, web_server

OTHER_GUILD = 501
"""A server whose games stay LINK (the default)."""

WINNING_FEN, WINNING_MOVE = "W:Wd4,a2:Bd5", "d4xd6"
"""White takes Black's last piece: a game ended by the rules at once, rated."""


async def _finished(services: Services, *, channel: int, guild: int | None,
                    black: int | Seat = BOB, place: PlaceKind = PlaceKind.CHANNEL,
                    ) -> GameRecord:
    """A game Alice (White) wins by taking Black's last piece, rated against a person."""
    record = await start_game(services, "turkish", WINNING_FEN, channel=channel,
                              guild=guild, black=black, place=place,
                              rated=not isinstance(black, Seat))
    await services.games.play(channel, ALICE, WINNING_MOVE)
    finished = await services.storage.games.get(record.id)
    assert finished is not None
    return finished


def _shown(key: Msg) -> str:
    """Message `key` in English as the page writes it (HTML-escaped)."""
    return str(escape(text(key, "en")))


def _player_path(face: WebFace, user_id: int) -> str:
    return f"/players/{user_id}/{face.context.access.signer.token(PageKind.PLAYER, user_id)}"


async def _page(face: WebFace, path: str) -> str:
    response = await face.client.get(path)
    assert response.status == 200, path
    return await response.text()


async def test_the_page_lists_public_games_only_and_says_so(
        open_services: OpenServices) -> None:
    services = await open_services()
    await services.stats.remember(ALICE, "Alice")
    await services.stats.remember(BOB, "Bob")
    public = await _finished(services, channel=600, guild=GUILD)
    link_only = await _finished(services, channel=601, guild=OTHER_GUILD, black=CAROL)
    direct = await _finished(services, channel=602, guild=None,
                             place=PlaceKind.INTERACTIONS)
    await set_web(services, GUILD, WebVisibility.PUBLIC)
    async with web_server(services) as face:
        body = await _page(face, _player_path(face, ALICE))
        links = face.context.access.links
        public_url = await links.game(public)
        assert public_url is not None and public_url in body
        assert f"#{public.id}<" in body
        for hidden in (link_only, direct):
            hidden_url = await links.game(hidden)
            assert hidden_url is not None and hidden_url not in body
            assert f"#{hidden.id}<" not in body
        assert _shown(Msg.WEB_PLAYER_ONLY_PUBLIC) in body
        assert _shown(Msg.SCORE_WIN) in body
        assert links.player(BOB) in body
        assert "Alice" in body and "Bob" in body


async def test_a_player_whose_games_are_all_hidden_is_not_said_to_have_none(
        open_services: OpenServices) -> None:
    services = await open_services()
    await services.stats.remember(ALICE, "Alice")
    hidden = await _finished(services, channel=601, guild=OTHER_GUILD)
    async with web_server(services) as face:
        body = await _page(face, _player_path(face, ALICE))
    assert f"#{hidden.id}<" not in body
    assert _shown(Msg.WEB_PLAYER_NONE_PUBLIC) in body
    # said once: the sentence that only public games are listed comes with a list
    assert _shown(Msg.WEB_PLAYER_ONLY_PUBLIC) not in body


async def test_the_ratings_are_those_the_stats_service_reads(
        open_services: OpenServices) -> None:
    services = await open_services()
    await services.stats.remember(ALICE, "Alice")
    await _finished(services, channel=600, guild=GUILD)
    (rating,) = await services.stats.ratings(ALICE)
    async with web_server(services) as face:
        body = await _page(face, _player_path(face, ALICE))
    assert "Turkish draughts" in body
    # After one game the deviation is still high: the rating carries the provisional
    # mark, as /rating writes it.
    assert f'<bdi dir="ltr">{round(rating.rating)}?</bdi>' in body
    assert f'<bdi dir="ltr">{round(rating.deviation)}</bdi>' in body
    # The tests' leaderboards rank a player after one rated game (`config_for`).
    assert f"<td>{_shown(Msg.WEB_PLAYER_RANKED)}</td>" in body


async def test_a_player_without_rated_games_is_told_so(open_services: OpenServices) -> None:
    services = await open_services()
    await services.stats.remember(CAROL, "Carol")
    async with web_server(services) as face:
        body = await _page(face, _player_path(face, CAROL))
    assert _shown(Msg.WEB_PLAYER_NO_RATINGS) in body


async def test_a_player_is_shown_by_a_signed_link_only(open_services: OpenServices) -> None:
    services = await open_services()
    await services.stats.remember(ALICE, "Alice")
    await set_web(services, GUILD, WebVisibility.PUBLIC)
    async with web_server(services) as face:
        missing = await face.client.get("/players/424242")
        missing_body = await missing.text()
        signer = face.context.access.signer
        for path in (f"/players/{ALICE}",
                     f"/players/{ALICE}/{'A' * 22}",
                     f"/players/{ALICE}/{signer.token(PageKind.GAME, ALICE)}",
                     f"/players/{ALICE}/{signer.token(PageKind.PLAYER, BOB)}"):
            response = await face.client.get(path)
            assert (response.status, await response.text()) == (404, missing_body), path
        signed = await face.client.get(_player_path(face, ALICE))
        assert signed.status == 200
        assert signed.headers["X-Robots-Tag"] == "noindex"


async def test_the_arabic_page_is_right_to_left_with_its_numbers_left_to_right(
        open_services: OpenServices) -> None:
    services = await open_services()
    await services.stats.remember(ALICE, "Alice")
    public = await _finished(services, channel=600, guild=GUILD)
    await set_web(services, GUILD, WebVisibility.PUBLIC)
    async with web_server(services) as face:
        body = await _page(face, _player_path(face, ALICE) + "?lang=ar")
    assert '<html lang="ar" dir="rtl">' in body
    assert f'<bdi dir="ltr">#{public.id}</bdi>' in body
    # Links inside the page keep the language the address chose.
    assert "?lang=ar" in body.split('id="recent"')[1]


async def test_a_game_against_the_computer_names_it_without_a_link(
        open_services: OpenServices) -> None:
    services = await open_services()
    await services.stats.remember(ALICE, "Alice")
    await _finished(services, channel=600, guild=GUILD, black=Seat.computer(2))
    await set_web(services, GUILD, WebVisibility.PUBLIC)
    async with web_server(services) as face:
        body = await _page(face, _player_path(face, ALICE))
    assert f"<td>{escape(text(Msg.COMPUTER, 'en', level=2))}</td>" in body
