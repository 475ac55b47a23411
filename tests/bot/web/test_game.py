"""The game page (bot/web/pages/game.py, templates/game.html) through the real application
on a real socket, with games played through the services on a real SQLite file: the
board at the ply asked for, the move list in the game's notation, the result, the
analysis, the preview's tags, and what replay.js and live.js rely on."""

from __future__ import annotations

from html.parser import HTMLParser

from bot.language import Language
from bot.messages import isolate
from bot.services.settings import WebVisibility
from bot.services.visibility import Requester
from bot.services.web_access import PageKind
from bot.web.boards import graph_labels
from engine import Color, Game, format_move, get_variant, legal_moves
from engine.analysis import GameAnalysis
from renderer import render_png
from renderer.graph import render_graph_png
from storage import Seat
from tests.support.services import ALICE, BOB, CHANNEL, GUILD, OpenServices, Services, start_game
from tests.support.web import WEB_SETTINGS, WebFace, set_web, web_server

PLIES = 6
ALICE_NAME, BOB_NAME = isolate("Alice"), isolate("Bob")
"""The players' names as sentences hold them (`bot.messages.isolate`, UAX #9)."""


class Page(HTMLParser):
    """A page's elements (tag, attributes, and the text inside them)."""

    def __init__(self, html: str) -> None:
        super().__init__()
        self.elements: list[tuple[str, dict[str, str]]] = []
        self.texts: dict[int, str] = {}
        self._open: list[int] = []
        self.feed(html)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.elements.append((tag, {k: v or "" for k, v in attrs}))
        if tag not in ("img", "meta", "link", "br", "input"):
            self._open.append(len(self.elements) - 1)

    def handle_endtag(self, tag: str) -> None:
        if self._open:
            self._open.pop()

    def handle_data(self, data: str) -> None:
        for index in self._open:
            self.texts[index] = self.texts.get(index, "") + data

    def find(self, tag: str, **wanted: str) -> list[tuple[dict[str, str], str]]:
        return [(attrs, self.texts.get(i, "").strip())
                for i, (name, attrs) in enumerate(self.elements)
                if name == tag and all(attrs.get(k.replace("_", "-")) == v
                                       for k, v in wanted.items())]

    def meta(self, name: str) -> str:
        found = [attrs["content"] for tag, attrs in self.elements
                 if tag == "meta" and name in (attrs.get("property"), attrs.get("name"))]
        assert len(found) == 1, name
        return found[0]


async def _played(s: Services, plies: int = PLIES, *, resign: bool = False) -> tuple[int, Game]:
    """A Turkish game between Alice (White) and Bob, known by their names, with `plies`
    moves, each the first legal move in the engine's order; Black resigns after them when
    `resign`. Returns its id and the engine's own game of the same moves."""
    await s.stats.remember(ALICE, "Alice")
    await s.stats.remember(BOB, "Bob")
    record = await start_game(s, "turkish")
    variant = get_variant("turkish")
    mirror = Game(variant)
    for ply in range(plies):
        move = legal_moves(mirror.position, variant)[0]
        written = format_move(move, mirror.position, variant)
        await s.games.play(CHANNEL, ALICE if ply % 2 == 0 else BOB, written)
        mirror.play(move)
    if resign:
        await s.games.resign(CHANNEL, BOB)
    return record.id, mirror


def _signed(face: WebFace, game_id: int) -> str:
    return f"/games/{game_id}/{face.context.access.signer.token(PageKind.GAME, game_id)}"


async def test_the_page_at_a_ply_marks_that_move_and_shows_its_board(
        open_services: OpenServices) -> None:
    s = await open_services()
    game_id, mirror = await _played(s)
    variant = mirror.variant
    positions = mirror.positions()
    async with web_server(s) as face:
        path = _signed(face, game_id)
        answer = await face.client.get(f"{path}?ply=3")
        assert answer.status == 200
        page = Page(await answer.text())
    third = format_move(mirror.moves[2], positions[2], variant)
    current = page.find("a", aria_current="step")
    assert [(attrs["data-ply"], text) for attrs, text in current] == [("3", f"2. {third}")]
    listed = [text for attrs, text in page.find("a") if "data-ply" in attrs][1:]
    assert listed == [
        f"{(ply + 2) // 2}.{'' if ply % 2 == 0 else '..'} "
        f"{format_move(move, positions[ply], variant)}"
        for ply, move in enumerate(mirror.moves)]
    main = page.find("main", id="game")[0][0]
    assert (main["data-ply"], main["data-plies"]) == ("3", str(PLIES))
    assert main["data-board"] == f"{path}/board.png"
    assert main["data-live"] == f"{path}/events"  # under way
    # the scripts that step through the game and follow it live, both loaded
    assert [attrs["src"].rsplit("/", 1)[-1].split("?")[0]
            for attrs, _ in page.find("script")] == ["replay.js", "live.js"]
    board = page.find("img", id="board")[0][0]
    assert board["src"] == f"{path}/board.png?ply=3"
    assert board["alt"] == f"Turkish draughts board after 2. {third} (ply 3): Black to move."
    # the game's status (its turn now), each name isolated in its own direction
    assert page.find("p", id="status")[0][1] == f"{ALICE_NAME} to move (White)."
    assert page.find("ol", id="moves")[0][0]["dir"] == "ltr"


async def test_the_board_picture_is_the_position_at_its_ply(open_services: OpenServices) -> None:
    s = await open_services()
    game_id, mirror = await _played(s)
    positions = mirror.positions()
    async with web_server(s) as face:
        path = _signed(face, game_id)
        flipped = await face.client.get(f"{path}/board.png?ply=3&flip=1")
        start = await face.client.get(f"{path}/board.png?ply=0")
        last = await face.client.get(f"{path}/board.png")
        assert (flipped.status, flipped.content_type) == (200, "image/png")
        assert await flipped.read() == render_png(
            positions[3], mirror.variant, perspective=Color.BLACK, last_move=mirror.moves[2],
            before=positions[2], size=512)
        assert await start.read() == render_png(positions[0], mirror.variant, size=512)
        assert await last.read() == render_png(
            positions[PLIES], mirror.variant, last_move=mirror.moves[-1],
            before=positions[PLIES - 1], size=512)
        # a ply played never changes; the last of a game under way may (signed: private)
        assert flipped.headers["Cache-Control"] == "private, max-age=31536000, immutable"
        assert last.headers["Cache-Control"] == "private, max-age=5"
        again = await face.client.get(f"{path}/board.png?ply=3&flip=1",
                                      headers={"If-None-Match": flipped.headers["ETag"]})
        assert again.status == 304
        assert (await face.client.get(f"{path}/board.png?ply={PLIES + 1}")).status == 400
        assert (await face.client.get(f"{path}/board.png?flip=2")).status == 400


async def test_an_ended_game_shows_its_result_and_its_pictures_never_change(
        open_services: OpenServices) -> None:
    s = await open_services()
    game_id, mirror = await _played(s, resign=True)
    await set_web(s, GUILD, WebVisibility.PUBLIC)
    async with web_server(s) as face:
        page = Page(await (await face.client.get(f"/games/{game_id}")).text())
        picture = await face.client.get(f"/games/{game_id}/board.png")
        assert picture.headers["Cache-Control"] == (
            "public, max-age=31536000, immutable")
        positions = mirror.positions()
        assert await picture.read() == render_png(
            positions[-1], mirror.variant, last_move=mirror.moves[-1],
            before=positions[-2], size=512, show_turn=False)
    record = await s.storage.games.get(game_id)
    assert record is not None and record.white_rating is not None
    change = record.white_rating  # a rated game: each player's rating after it, and its change
    assert page.find("dd")[0][1] == (
        f"Alice · {round(change.rating_after)} ({round(change.delta):+d})")
    result = f"{ALICE_NAME} won (1-0): by resignation."
    assert page.find("dd", id="result")[0][1] == result
    assert page.find("p", id="status")[0][1] == result
    assert page.find("main", id="game")[0][0]["data-live"] == ""
    assert page.meta("og:description") == result
    assert not page.find("meta", name="robots")  # reached by its id: a public page


async def test_the_preview_tags_are_absolute_and_show_the_position(
        open_services: OpenServices) -> None:
    s = await open_services()
    game_id, _ = await _played(s)
    async with web_server(s) as face:
        path = _signed(face, game_id)
        page = Page(await (await face.client.get(f"{path}?ply=2")).text())
    base = WEB_SETTINGS.url
    assert page.meta("og:image") == f"{base}{path}/board.png?ply=2"
    assert page.meta("og:url") == f"{base}{path}?ply=2"
    assert page.meta("twitter:card") == "summary_large_image"
    assert page.meta("og:title") == (
        f"{ALICE_NAME} vs {BOB_NAME} · Turkish draughts · game #{game_id}")
    assert page.meta("og:description").endswith("(ply 2): White to move.")
    assert page.meta("robots") == "noindex"


def _analysis_json(mirror: Game) -> str:
    """A stored analysis of `mirror` as the analysis service stores it, judging its first
    ply a blunder whose better move is the second legal move of the start."""
    variant = mirror.variant
    start = mirror.positions()[0]
    better = format_move(legal_moves(start, variant)[1], start, variant)
    plies = []
    for index, move in enumerate(mirror.moves):
        written = format_move(move, mirror.positions()[index], variant)
        color = "white" if index % 2 == 0 else "black"
        if index == 0:
            plies.append([1, color, written, 0, -250, False, 0.4, 20.0, "blunder", better,
                          [better]])
        else:
            plies.append([index + 1, color, written, -250, -250, False, 0.0, 100.0, None,
                          None, []])
    return GameAnalysis.from_json(
        '{"variant":"turkish","evaluations":' + str([0] + [-250] * len(plies))
        + ',"plies":' + str(plies).replace("'", '"').replace("None", "null")
        .replace("False", "false") + "}").to_json()


async def test_an_analysed_game_shows_its_graph_and_its_mistakes(
        open_services: OpenServices) -> None:
    s = await open_services()
    game_id, mirror = await _played(s, resign=True)
    body = _analysis_json(mirror)
    await s.storage.analyses.save(game_id, plies=PLIES, nodes=100, body=body)
    async with web_server(s) as face:
        path = _signed(face, game_id)
        page = Page(await (await face.client.get(path)).text())
        graph = await face.client.get(f"{path}/graph.png")
        assert (graph.status, graph.content_type) == (200, "image/png")
        assert await graph.read() == render_graph_png(
            GameAnalysis.from_json(body), labels=("inaccuracy", "mistake", "blunder"))
    first = format_move(mirror.moves[0], mirror.positions()[0], mirror.variant)
    start = mirror.positions()[0]
    better = format_move(legal_moves(start, mirror.variant)[1], start, mirror.variant)
    assert page.find("img", id="graph")[0][0]["src"] == f"{path}/graph.png?lang=en"
    assert page.find("img", id="graph")[0][0]["alt"].startswith("Evaluation graph")
    mistakes = [(attrs["href"], text) for attrs, text in page.find("a")
                if attrs.get("data-ply") and "better" in text]
    assert mistakes == [(f"{path}?ply=1",
                         f"1. {first}??: blunder; better {better}, line: {better}")]


async def test_the_graph_is_in_the_pages_language_and_varies_with_the_readers(
        open_services: OpenServices) -> None:
    s = await open_services()
    game_id, mirror = await _played(s, resign=True)
    body = _analysis_json(mirror)
    await s.storage.analyses.save(game_id, plies=PLIES, nodes=100, body=body)
    english = {"Accept-Language": "en"}
    async with web_server(s) as face:
        path = _signed(face, game_id)
        page = Page(await (await face.client.get(f"{path}?lang=fr", headers=english)).text())
        source = page.find("img", id="graph")[0][0]["src"]
        graph = await face.client.get(source, headers=english)
        assert await graph.read() == render_graph_png(
            GameAnalysis.from_json(body), labels=("imprécision", "erreur", "gaffe"))
        by_browser = await face.client.get(f"{path}/graph.png", headers=english)
        assert "Accept-Language" in by_browser.headers.get("Vary", "")


async def test_a_game_not_analysed_has_no_graph(open_services: OpenServices) -> None:
    s = await open_services()
    game_id, _ = await _played(s, resign=True)
    async with web_server(s) as face:
        path = _signed(face, game_id)
        page = Page(await (await face.client.get(path)).text())
        assert (await face.client.get(f"{path}/graph.png")).status == 404
    assert not page.find("section", id="analysis")


async def test_the_arabic_page_keeps_the_moves_left_to_right(
        open_services: OpenServices) -> None:
    s = await open_services()
    game_id, _ = await _played(s)
    async with web_server(s) as face:
        path = _signed(face, game_id)
        page = Page(await (await face.client.get(f"{path}?lang=ar&ply=1")).text())
    assert page.find("html")[0][0] == {"lang": "ar", "dir": "rtl"}
    assert page.find("ol", id="moves")[0][0]["dir"] == "ltr"
    assert all(attrs["href"].endswith("&lang=ar") for attrs, _ in page.find("a")
               if "data-ply" in attrs)


async def test_pictures_of_a_hidden_game_are_the_missing_page(
        open_services: OpenServices) -> None:
    s = await open_services()
    game_id, _ = await _played(s)
    async with web_server(s) as face:
        for path in (f"/games/{game_id}", f"/games/{game_id}/board.png",
                     f"/games/{game_id}/graph.png"):
            assert (await face.client.get(path)).status == 404, path


async def test_a_players_name_is_text_never_markup(open_services: OpenServices) -> None:
    s = await open_services()
    game_id, _ = await _played(s)
    await s.stats.remember(ALICE, '<img src=x onerror="alert(1)">')
    async with web_server(s) as face:
        html = await (await face.client.get(_signed(face, game_id))).text()
    page = Page(html)
    assert [attrs.get("src") for attrs, _ in page.find("img")] == [
        f"{_signed(face, game_id)}/board.png?ply={PLIES}"]
    assert "&lt;img src=x onerror=&#34;alert(1)&#34;&gt;" in html


async def test_the_pdn_download_is_the_games_export(open_services: OpenServices) -> None:
    s = await open_services()
    game_id, _ = await _played(s, resign=True)
    exported = await s.stats.export(Requester(ALICE, GUILD), game_id=game_id, analysis=True)
    async with web_server(s) as face:
        path = _signed(face, game_id)
        page = Page(await (await face.client.get(path)).text())
        answer = await face.client.get(f"{path}/game.pdn")
        assert answer.status == 200
        assert answer.headers["Content-Disposition"] == (
            f'attachment; filename="dama-turkish-{game_id}.pdn"')
        assert await answer.text() == exported.text
        assert (await face.client.get(f"/games/{game_id}/game.pdn")).status == 404  # link only
    link = page.find("a", href=f"{path}/game.pdn")
    assert [text for _, text in link] == ["Download the game (PDN)"]


async def test_each_human_players_name_links_to_their_page_the_computers_not(
        open_services: OpenServices) -> None:
    s = await open_services()
    game_id, _ = await _played(s)
    computer = await start_game(s, "turkish", black=Seat.computer(3), rated=False,
                                channel=CHANNEL + 1)
    async with web_server(s) as face:
        links = face.context.access.links
        people = Page(await (await face.client.get(_signed(face, game_id))).text())
        against = Page(await (await face.client.get(_signed(face, computer.id))).text())
    named = [(attrs["href"].split("?")[0], text) for attrs, text in people.find("a")
             if "/players/" in attrs["href"]]
    assert named == [(links.player(ALICE), "Alice"), (links.player(BOB), "Bob")]
    assert [attrs["href"].split("?")[0] for attrs, _ in against.find("a")
            if "/players/" in attrs["href"]] == [links.player(ALICE)]


async def test_the_graphs_legend_is_in_the_pages_language(open_services: OpenServices) -> None:
    """The picture's address names the page's language, however the reader chose it (here
    their browser's), so that it and every cache of it follow the page."""
    s = await open_services()
    game_id, mirror = await _played(s, resign=True)
    body = _analysis_json(mirror)
    await s.storage.analyses.save(game_id, plies=PLIES, nodes=100, body=body)
    async with web_server(s) as face:
        path = _signed(face, game_id)
        html = await (await face.client.get(path, headers={"Accept-Language": "fr"})).text()
        src = Page(html).find("img", id="graph")[0][0]["src"]
        assert src == f"{path}/graph.png?lang=fr"
        drawn = await (await face.client.get(src)).read()
    assert drawn == render_graph_png(GameAnalysis.from_json(body),
                                     labels=graph_labels(Language.FRENCH))
    assert graph_labels(Language.FRENCH) != ("inaccuracy", "mistake", "blunder")
