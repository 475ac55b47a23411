"""The game page (`GET /games/{id}[/{token}]`), its pictures (`<game>/board.png`,
`<game>/graph.png`, bot/web/boards.py) and its PDN record (`<game>/game.pdn`): the board
at the ply asked for (`?ply=N`, default the last; `?flip=1` Black at the bottom),
stepping through the moves (replay.js; the move list's links work without it), the
players, the result, the analysis, and the Open Graph tags of a link's preview
(docs/ARCHITECTURE.md, "The web face")."""

from __future__ import annotations

import asyncio

from aiohttp import hdrs, web

from bot.services.errors import PlayerError
from bot.services.replay import replay_game
from bot.services.visibility import Requester
from bot.web.access import visible_game
from bot.web.boards import BOARD_SIZE, FLIP, PLY, Pictures
from bot.web.context import CONTEXT, WebContext
from bot.web.game_view import GameInputs, GameView, game_view
from bot.web.inputs import query_flag, query_int
from bot.web.language import reader_language
from bot.web.paths import BOARD, EVENTS, GAMES, GRAPH, PDN
from bot.web.templates import render_page
from engine import DamaError
from engine.analysis import GameAnalysis
from renderer.graph import HEIGHT as GRAPH_HEIGHT
from renderer.graph import WIDTH as GRAPH_WIDTH
from storage import GameRecord, GameStatus, Rating

TEMPLATE = "game.html"

WEB_READER = 0
"""The user id of a web page's reader in `Requester`s: nobody's (Discord ids are
positive), so a reader sees a game through its place, as a member of its server or chat
would (`bot.services.visibility.can_see`), once `visible_game` let them in."""


async def load_inputs(context: WebContext, record: GameRecord) -> GameInputs:
    """What the page of `record` shows, read from storage: its moves, its players' names,
    their current ratings (a rated game under way) and its analysis (None when there is
    none, or one this version cannot read)."""
    storage = context.storage
    moves = tuple(await storage.games.moves(record.id))
    names: list[str | None] = []
    ratings: list[Rating | None] = []
    for seat in (record.white, record.black):
        player = None if seat.user_id is None else await storage.players.get(seat.user_id)
        names.append(None if player is None else player.display_name)
        rated_now = (record.rated and seat.user_id is not None
                     and record.status is GameStatus.ACTIVE)
        ratings.append(await storage.ratings.get(seat.user_id, record.variant)
                       if rated_now and seat.user_id is not None else None)
    analysis = None
    stored = await storage.analyses.get(record.id)
    if stored is not None:
        try:
            analysis = GameAnalysis.from_json(stored.body)
        except (ValueError, KeyError, TypeError):
            analysis = None
    return GameInputs(record, moves, (names[0], names[1]), (ratings[0], ratings[1]),
                      analysis, context.stats.inactivity_limit)


def preview(view: GameView, ply: int) -> str:
    """The preview's description: the result of an ended game at its last ply, else the
    board's text alternative at `ply`."""
    if view.result is not None and ply == view.plies:
        return view.result
    return view.alt(ply)


async def game_page(request: web.Request) -> web.Response:
    """The page of the game of `request`'s path. Raises `web.HTTPNotFound` for a game not
    shown (`visible_game`) or whose stored moves do not replay, `web.HTTPBadRequest` for
    a ply out of range or a bad `flip`."""
    record = await visible_game(request)
    ply = query_int(request, PLY, 0, record.ply_count, record.ply_count)
    flipped = query_flag(request, FLIP)
    context = request.app[CONTEXT]
    inputs = await load_inputs(context, record)
    try:
        game = await asyncio.to_thread(replay_game, inputs.record, inputs.moves)
    except DamaError:
        raise web.HTTPNotFound() from None
    view = game_view(inputs, game, reader_language(request).language)
    ply = min(ply, view.plies)
    page = request.path
    base = context.settings.url.rstrip("/")
    board = page + BOARD
    return render_page(
        request, TEMPLATE, view=view, ply=ply, flipped=flipped, page=page, board=board,
        board_size=BOARD_SIZE, graph_size=(GRAPH_WIDTH, GRAPH_HEIGHT),
        graph=page + GRAPH if view.analysis is not None else None, pdn=page + PDN,
        live=page + EVENTS if record.status is GameStatus.ACTIVE else "",
        og_image=f"{base}{board}?{PLY}={ply}", og_url=f"{base}{request.path_qs}",
        og_description=preview(view, ply),
    )


async def game_pdn(request: web.Request) -> web.Response:
    """`GET <game>/game.pdn`: the game's PDN record as `/export` writes it
    (`StatsService.export`, its analysis as comments when it has one), as a file to save.
    Raises `web.HTTPNotFound` for a game not shown or whose moves do not replay."""
    record = await visible_game(request)
    reader = Requester(WEB_READER, record.guild_id, record.channel_id)
    try:
        pdn = await request.app[CONTEXT].stats.export(reader, game_id=record.id,
                                                      analysis=True)
    except (PlayerError, DamaError):
        raise web.HTTPNotFound() from None
    return web.Response(
        text=pdn.text, content_type="text/plain", charset="utf-8",
        headers={hdrs.CONTENT_DISPOSITION: f'attachment; filename="{pdn.filename}"',
                 hdrs.CACHE_CONTROL: "no-cache"})


def add_routes(router: web.UrlDispatcher) -> None:
    """Register the game page and its pictures on `router` (`bot.web.paths.GAMES`), the
    pictures drawn through one `Pictures` (cache and bound) per application."""
    pictures = Pictures()
    for path in GAMES:
        router.add_get(path, game_page)
        router.add_get(path + BOARD, pictures.board)
        router.add_get(path + GRAPH, pictures.graph)
        router.add_get(path + PDN, game_pdn)
