"""A writer process for the durability test: appends moves forever, printing each move
(`game_id ply text`) only after its commit has returned. Run as
`python -m tests.storage.durability_writer DB_PATH`; the test kills it with SIGKILL.

On start it resumes the active games it finds (from their stored ply count), creating
`GAMES` of them if there are none.
"""

from __future__ import annotations

import asyncio
import sys

from storage import NewGame, Seat, Storage

GAMES = 8


async def main(path: str) -> None:
    storage = await Storage.open(path)
    games = await storage.games.active()
    if not games:
        games = [
            await storage.games.create(NewGame("turkish", channel, 1, Seat.human(channel),
                                               Seat.human(channel + 100), "W:Wa2:Ba7"))
            for channel in range(1, GAMES + 1)
        ]
    plies = {game.id: game.ply_count for game in games}
    print("ready", flush=True)
    while True:
        for game_id in plies:
            ply = plies[game_id] + 1
            text = f"m{game_id}-{ply}"
            await storage.games.append_move(game_id, ply=ply, text=text)
            plies[game_id] = ply
            sys.stdout.write(f"{game_id} {ply} {text}\n")
            sys.stdout.flush()


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1]))
