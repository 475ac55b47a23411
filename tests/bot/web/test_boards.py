"""The pictures' drawing and cache (bot/web/boards.py): each picture drawn once while it
is kept, the least recently used one dropped first, no more drawings at once than the
bound, and a board drawn from the stored game equal to the renderer's own picture of the
engine's position."""

from __future__ import annotations

import asyncio
import threading
import time

from bot.web.boards import BoardKey, Picture, PictureCache, Pictures, draw_board
from engine import Color, Game, format_move, get_variant, legal_moves
from renderer import render_png
from tests.support.services import ALICE, BOB, CHANNEL, OpenServices, start_game


def test_the_cache_drops_the_least_recently_used_picture() -> None:
    cache = PictureCache(entries=2)
    first, second, third = (Picture.of(bytes([n])) for n in range(3))
    cache.put("a", first)
    cache.put("b", second)
    assert cache.get("a") == first  # now "b" is the least recently used
    cache.put("c", third)
    assert (cache.get("a"), cache.get("b"), cache.get("c")) == (first, None, third)
    assert len(cache) == 2


def test_a_pictures_etag_is_a_quoted_digest_of_its_bytes() -> None:
    assert Picture.of(b"png").etag == Picture.of(b"png").etag
    assert Picture.of(b"png").etag != Picture.of(b"gif").etag
    assert Picture.of(b"png").etag.startswith('"') and Picture.of(b"png").etag.endswith('"')


async def test_a_kept_picture_is_not_drawn_again() -> None:
    pictures = Pictures()
    drawn: list[str] = []

    def draw() -> bytes:
        drawn.append("x")
        return b"picture"

    first = await pictures.picture("key", draw)
    again = await pictures.picture("key", draw)
    assert first == again == Picture.of(b"picture")
    assert drawn == ["x"]


async def test_no_more_drawings_at_once_than_the_bound() -> None:
    pictures = Pictures(renders_at_once=2)
    lock = threading.Lock()
    running = 0
    most = 0

    def draw() -> bytes:
        nonlocal running, most
        with lock:
            running += 1
            most = max(most, running)
        time.sleep(0.05)
        with lock:
            running -= 1
        return b"picture"

    await asyncio.gather(*(pictures.picture(n, draw) for n in range(6)))
    assert most == 2


async def test_a_board_is_the_renderers_picture_of_the_position(
        open_services: OpenServices) -> None:
    s = await open_services()
    record = await start_game(s, "italian")
    variant = get_variant("italian")
    mirror = Game(variant)
    for ply in range(3):
        move = legal_moves(mirror.position, variant)[-1]
        await s.games.play(CHANNEL, ALICE if ply % 2 == 0 else BOB,
                           format_move(move, mirror.position, variant))
        mirror.play(move)
    stored = await s.storage.games.get(record.id)
    assert stored is not None
    moves = await s.storage.games.moves(record.id)
    positions = mirror.positions()
    drawn = draw_board(stored, moves, BoardKey(record.id, 2, flipped=True, final=False))
    # Italian squares are numbered, as on Discord's boards (docs/RULES.md, "Coordinates
    # and notation").
    assert drawn == render_png(positions[2], variant, perspective=Color.BLACK,
                               last_move=mirror.moves[1], before=positions[1], size=512,
                               numbers=True)
