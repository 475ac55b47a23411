"""The game pages' pictures: the board at any ply (`GET <game>/board.png?ply=N&flip=1`)
and the evaluation graph of an analysed game (`GET <game>/graph.png`), drawn by the
renderer (`renderer.render_png`, `renderer.graph.render_graph_png`) in worker threads,
at most `RENDERS_AT_ONCE` at a time, and kept in a least-recently-used cache of PNG bytes.

A board picture at ply N (ply 0: the start) shows the position after the N-th move with
that move marked, drawn from White's side, or Black's with `flip=1`, the Italian,
International and English checkers squares numbered as on Discord's boards. Its ETag is
a digest of its bytes. The picture of a ply never changes, but for the last ply of a
game under way (the side to move is marked until the game ends, and a later ply may
follow), so that one is cached for `UNDER_WAY_MAX_AGE` seconds and every other for a year
(`immutable`). Pictures of signed links are `private` (no shared cache keeps
them).
"""

from __future__ import annotations

import asyncio
import hashlib
from collections import OrderedDict
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass

from aiohttp import hdrs, web

from bot.language import Language
from bot.messages import text
from bot.services.game_words import JUDGEMENT_WORDS
from bot.services.replay import replay_game
from bot.web.access import signed, visible_game
from bot.web.context import CONTEXT
from bot.web.inputs import query_flag, query_int
from bot.web.language import reader_language
from engine import Color, DamaError
from engine.analysis import GameAnalysis, Judgement
from renderer import render_png
from renderer.graph import render_graph_png
from storage import GameRecord, GameStatus, MoveRecord

BOARD_SIZE = 512
"""The board pictures' side in pixels."""
RENDERS_AT_ONCE = 2
"""Pictures drawn at the same time (each holds a worker thread)."""
CACHE_ENTRIES = 1024
"""Pictures kept (about 20 kB each at `BOARD_SIZE`)."""
UNDER_WAY_MAX_AGE = 5
"""Seconds a browser keeps the picture of a game under way's last ply."""
ENDED_MAX_AGE = 365 * 86_400
"""Seconds a browser keeps any other picture (it never changes)."""
GRAPH_MAX_AGE = 300
"""Seconds a browser keeps an evaluation graph (an analysis may be redone)."""
PLY = "ply"
FLIP = "flip"


@dataclass(frozen=True)
class Picture:
    """PNG bytes and their ETag (a quoted digest of the bytes)."""

    png: bytes
    etag: str

    @classmethod
    def of(cls, png: bytes) -> Picture:
        return cls(png, f'"{hashlib.blake2b(png, digest_size=12).hexdigest()}"')


@dataclass(frozen=True)
class BoardKey:
    """What a board picture depends on: the game, the ply, the side at the bottom, and
    whether the ply is the last of an ended game (no side to move is marked)."""

    game_id: int
    ply: int
    flipped: bool
    final: bool
    size: int = BOARD_SIZE


class PictureCache:
    """The `entries` pictures most recently used, by key."""

    def __init__(self, entries: int = CACHE_ENTRIES) -> None:
        self._entries = entries
        self._pictures: OrderedDict[Hashable, Picture] = OrderedDict()

    def get(self, key: Hashable) -> Picture | None:
        picture = self._pictures.get(key)
        if picture is not None:
            self._pictures.move_to_end(key)
        return picture

    def put(self, key: Hashable, picture: Picture) -> None:
        self._pictures[key] = picture
        self._pictures.move_to_end(key)
        while len(self._pictures) > self._entries:
            self._pictures.popitem(last=False)

    def __len__(self) -> int:
        return len(self._pictures)


def draw_board(record: GameRecord, moves: Sequence[MoveRecord], key: BoardKey) -> bytes:
    """The board picture `key` of game `record` whose stored moves are `moves` (blocking:
    the replay and the drawing; run in a worker thread). Raises `engine.DamaError` when
    the stored moves do not replay, `renderer.RenderError` when the position cannot be
    drawn."""
    game = replay_game(record, moves[:key.ply])
    positions = game.positions()
    last = game.moves[-1] if game.moves else None
    return render_png(
        positions[-1], game.variant, perspective=Color.BLACK if key.flipped else Color.WHITE,
        last_move=last, before=positions[-2] if last is not None else None, size=key.size,
        numbers=game.variant.numeric_notation, show_turn=not key.final)


def graph_labels(language: Language) -> tuple[str, str, str]:
    """The graph's legend in `language`: the words of the Discord analysis."""
    inaccuracy, mistake, blunder = (text(JUDGEMENT_WORDS[j], language.value)
                                    for j in (Judgement.INACCURACY, Judgement.MISTAKE,
                                              Judgement.BLUNDER))
    return inaccuracy, mistake, blunder


class Pictures:
    """The pictures of one application: a cache and a bound on the drawings at once."""

    def __init__(self, *, renders_at_once: int = RENDERS_AT_ONCE,
                 cache: PictureCache | None = None) -> None:
        self._drawing = asyncio.Semaphore(renders_at_once)
        self.cache = cache if cache is not None else PictureCache()

    async def picture(self, key: Hashable, draw: Callable[[], bytes]) -> Picture:
        """The cached picture of `key`, else `draw()` in a worker thread (waiting for a
        free one of `RENDERS_AT_ONCE`), cached. Raises what `draw` raises."""
        found = self.cache.get(key)
        if found is not None:
            return found
        async with self._drawing:
            found = self.cache.get(key)  # drawn while this one waited
            if found is not None:
                return found
            picture = Picture.of(await asyncio.to_thread(draw))
        self.cache.put(key, picture)
        return picture

    async def board(self, request: web.Request) -> web.StreamResponse:
        """`GET <game>/board.png?ply=N&flip=0|1`: N from 0 to the game's plies (default:
        the last), `flip=1` Black at the bottom. Raises `web.HTTPNotFound` for a game not
        shown (`visible_game`) or whose moves do not replay, `web.HTTPBadRequest` for a
        ply out of range or a bad flag."""
        record = await visible_game(request)
        ply = query_int(request, PLY, 0, record.ply_count, record.ply_count)
        key = BoardKey(record.id, ply, query_flag(request, FLIP),
                       final=record.status is not GameStatus.ACTIVE
                       and ply == record.ply_count)
        picture = self.cache.get(key)
        if picture is None:
            moves = await request.app[CONTEXT].storage.games.moves(record.id)
            if len(moves) < ply:
                raise web.HTTPNotFound()
            try:
                picture = await self.picture(key, lambda: draw_board(record, moves, key))
            except DamaError:
                raise web.HTTPNotFound() from None
        settled = record.status is not GameStatus.ACTIVE or ply < record.ply_count
        return _answer(request, picture, ENDED_MAX_AGE if settled else UNDER_WAY_MAX_AGE,
                       immutable=settled)

    async def graph(self, request: web.Request) -> web.StreamResponse:
        """`GET <game>/graph.png`: the evaluation graph of the game's stored analysis, its
        legend in the reader's language. Raises `web.HTTPNotFound` for a game not shown or
        not analysed (or whose analysis this version cannot read)."""
        record = await visible_game(request)
        stored = await request.app[CONTEXT].storage.analyses.get(record.id)
        if stored is None:
            raise web.HTTPNotFound()
        try:
            analysis = GameAnalysis.from_json(stored.body)
        except (ValueError, KeyError, TypeError):
            raise web.HTTPNotFound() from None
        language = reader_language(request).language
        key = ("graph", record.id, language,
               hashlib.blake2b(stored.body.encode(), digest_size=12).digest())
        labels = graph_labels(language)
        picture = await self.picture(key, lambda: render_graph_png(analysis, labels=labels))
        return _answer(request, picture, GRAPH_MAX_AGE, immutable=False)


def _answer(request: web.Request, picture: Picture, max_age: int, *,
            immutable: bool) -> web.Response:
    """`picture` as a PNG answer, or 304 when the request's `If-None-Match` names it."""
    scope = "private" if signed(request) else "public"
    cache = f"{scope}, max-age={max_age}" + (", immutable" if immutable else "")
    headers = {hdrs.ETAG: picture.etag, hdrs.CACHE_CONTROL: cache}
    wanted = request.headers.get(hdrs.IF_NONE_MATCH, "")
    if picture.etag in (tag.strip() for tag in wanted.split(",")) or wanted.strip() == "*":
        return web.Response(status=304, headers=headers)
    return web.Response(body=picture.png, content_type="image/png", headers=headers)


__all__ = ["BOARD_SIZE", "BoardKey", "Picture", "PictureCache", "Pictures", "draw_board",
           "graph_labels"]
