"""Start-up with many active games, and with many boards owed after an outage.

Run with ``python benchmarks/startup.py [--games 10000]`` from the repository root. Each
game of a real SQLite file has a few moves (`PLIES`), stored as the bot stores them. What
is measured is the bot's own start-up work before it can answer, through the game
service as `DamaBot.setup_hook` runs it, and then its first answer (a move in one of the
games); Discord's side (connecting, the HTTP of each post) is not in it: an owed board's
post is an announcer that records it at once.

1. Active games, no board owed: "before" loads every game (`restore()`, each game's moves
   replayed), "after" as the bot does now (`restore(dormant_over=DORMANT_OVER)`: the games
   only people play stay dormant, loaded when first touched).
2. Every game's board owed: "before" posts every owed board before the first answer (as
   `setup_hook` did); "after" posts `OWED_BEFORE_CONNECT` of them first and the others in
   the background while the move is answered; also the time until every owed board is
   posted.

Figures in docs/BENCHMARKS.md.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import shutil
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import engine
from bot.client import DORMANT_OVER, OWED_BEFORE_CONNECT
from bot.services import GameService, GameUpdate
from engine import Position, format_move
from storage import NewGame, Seat, Storage

VARIANTS = ("turkish", "arab", "moroccan", "italian")
PLIES = 4
FIRST_CHANNEL = 1


def openings(rng: random.Random) -> dict[str, list[str]]:
    """A few random moves of each variant, written as the bot stores them."""
    lines = {}
    for key in VARIANTS:
        game = engine.Game(engine.get_variant(key))
        texts = []
        for _ in range(PLIES):
            move = rng.choice(game.legal_moves())
            texts.append(format_move(move, game.position, game.variant, full=True))
            game.play(move)
        lines[key] = texts
    return lines


async def build(path: Path, games: int, *, owed: bool, seed: int = 1) -> None:
    """`games` active games of `PLIES` moves, each in its own channel and guild; their
    last board shown (`owed` False) or owed."""
    lines = openings(random.Random(seed))
    storage = await Storage.open(str(path))
    try:
        for index in range(games):
            key = VARIANTS[index % len(VARIANTS)]
            variant = engine.get_variant(key)
            channel = FIRST_CHANNEL + index
            record = await storage.games.create(NewGame(
                variant=key, channel_id=channel, guild_id=channel << 22,
                white=Seat.human(channel * 10 + 1), black=Seat.human(channel * 10 + 2),
                start_fen=Position.start(variant).to_fen(variant)))
            for ply, text in enumerate(lines[key], start=1):
                await storage.games.append_move(record.id, ply=ply, text=text)
            if not owed:
                await storage.games.settle_board(record.id)
    finally:
        await storage.close()


class Posts:
    """An announcer that records each post at once (no Discord)."""

    def __init__(self) -> None:
        self.count = 0

    async def __call__(self, update: GameUpdate) -> int | None:
        self.count += 1
        await asyncio.sleep(0)
        return 10**12 + self.count


async def first_answer(games: GameService, lines: dict[str, list[str]], channel: int) -> None:
    """A move in the channel's game (its fifth ply), answered."""
    await games.awake(channel)
    state = games.current(channel)
    legal = engine.Game.replay(state.variant.key, Position.start(state.variant).to_fen(
        state.variant), lines[state.variant.key]).legal_moves()
    text = format_move(legal[0], state.position, state.variant)
    user = state.white.seat.user_id if state.position.turn is engine.Color.WHITE \
        else state.black.seat.user_id
    assert user is not None
    await games.play(channel, user, text, announce=Posts())


async def run(path: Path, count: int, *, after: bool, owed: bool) -> tuple[float, float]:
    """(seconds to the first answer, seconds until every owed board is posted)."""
    lines = openings(random.Random(1))
    start = time.perf_counter()
    storage = await Storage.open(str(path))
    try:
        games = GameService(storage)
        posts = Posts()
        background = None
        await games.restore(dormant_over=DORMANT_OVER if after else None)
        if owed:
            await games.post_owed_boards(posts, at_most=OWED_BEFORE_CONNECT if after else None)
            if games.owed_left:
                background = asyncio.create_task(games.post_owed_boards(posts))
                await asyncio.sleep(0)
        await first_answer(games, lines, FIRST_CHANNEL + count - 1)
        answered = time.perf_counter() - start
        if background is not None:
            await background
        return answered, time.perf_counter() - start
    finally:
        await storage.close()


async def main_async(games: int) -> None:
    with tempfile.TemporaryDirectory() as folder:
        for owed in (False, True):
            print(f"{games} active games, {'every board owed' if owed else 'no board owed'}:")
            built = Path(folder) / f"built-{owed}.sqlite3"
            await build(built, games, owed=owed)
            for after in (False, True):
                path = Path(folder) / f"{owed}-{after}.sqlite3"
                shutil.copyfile(built, path)
                answered, all_posted = await run(path, games, after=after, owed=owed)
                posted = f", every owed board posted after {all_posted:.2f} s" if owed else ""
                print(f"  {'after ' if after else 'before'}: first answer after "
                      f"{answered:.2f} s{posted}", flush=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10_000)
    args = parser.parse_args(argv)
    asyncio.run(main_async(args.games))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
