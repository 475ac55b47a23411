"""A game whose stored moves no longer replay is quarantined at start-up
(`GameService.restore`, docs/ARCHITECTURE.md "Recovery at start-up"): kept, marked in
storage, logged, refused in its channel; every other game starts and plays. The real bot
(discord.py's code paths against `FakeDiscord`) on a real SQLite file."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

from engine import Game, Position, format_move, get_variant
from storage import GameRecord, NewGame, Seat, Storage
from tests.support.discord_harness import OpenBot, run, settings_for, slash
from tests.support.fake_discord import GUILD_ID, option
from tests.support.services import ALICE, BOB, CHANNEL

BAD_CHANNEL = CHANNEL + 100


def turkish_game(channel: int) -> NewGame:
    variant = get_variant("turkish")
    return NewGame(variant="turkish", channel_id=channel, guild_id=GUILD_ID,
                   white=Seat.human(ALICE), black=Seat.human(BOB),
                   start_fen=Position.start(variant).to_fen(variant))


async def build(path: Path) -> tuple[GameRecord, GameRecord]:
    """A good game in CHANNEL and, in BAD_CHANNEL, one whose second stored move is not
    legal there (a white man cannot go four squares)."""
    storage = await Storage.open(path)
    try:
        good = await storage.games.create(turkish_game(CHANNEL))
        await storage.games.append_move(good.id, ply=1, text="a3-a4")
        bad = await storage.games.create(turkish_game(BAD_CHANNEL))
        await storage.games.append_move(bad.id, ply=1, text="a3-a4")
        await storage.games.append_move(bad.id, ply=2, text="b3-b7")
    finally:
        await storage.close()
    return good, bad


async def stored(path: Path, game_id: int) -> GameRecord:
    storage = await Storage.open(path)
    try:
        record = await storage.games.get(game_id)
    finally:
        await storage.close()
    assert record is not None
    return record


async def test_a_game_that_no_longer_replays_is_quarantined_and_the_others_play(
    tmp_path: Path, open_bot: OpenBot, caplog: pytest.LogCaptureFixture
) -> None:
    path = tmp_path / "db.sqlite3"
    good, bad = await build(path)
    with caplog.at_level(logging.ERROR):
        h = await open_bot(settings_for(path))  # the start-up succeeds
    assert any(f"game {bad.id}" in r.getMessage() and "quarantined" in r.getMessage()
               for r in caplog.records)
    assert (await stored(path, bad.id)).quarantined
    assert not (await stored(path, good.id)).quarantined
    assert not [c for c in h.discord.calls
                if c.method == "POST" and c.path == f"/channels/{BAD_CHANNEL}/messages"]

    # The good game plays: Black (bob) moves.
    moved = (await run(h, slash(h, "move", [option("move", "a6-a5")], user=BOB)))[0]
    assert not moved.ephemeral and "played **a6-a5**" in moved.content
    assert (await stored(path, good.id)).ply_count == 2

    # The bad one answers every use with the quarantine message, and stays as it was.
    for name, options in (("move", [option("move", "a6-a5")]), ("board", None),
                          ("resign", None)):
        answer = (await run(h, slash(h, name, options, user=BOB, channel=BAD_CHANNEL)))[0]
        assert answer.ephemeral, name
        assert f"#{bad.id}" in answer.content and "cannot continue" in answer.content, name
    record = await stored(path, bad.id)
    assert record.ply_count == 2 and record.result is None and record.quarantined

    # A second start-up keeps it quarantined (marked once) and the good game goes on.
    await h.bot.close()
    h2 = await open_bot(settings_for(path))
    answer = (await run(h2, slash(h2, "board", user=ALICE, channel=BAD_CHANNEL)))[0]
    assert answer.ephemeral and "cannot continue" in answer.content
    game = Game(get_variant("turkish"))
    for text in ("a3-a4", "a6-a5"):
        game.play(text)
    move = format_move(game.legal_moves()[0], game.position, game.variant)
    moved = (await run(h2, slash(h2, "move", [option("move", move)], user=ALICE)))[0]
    assert not moved.ephemeral and f"played **{move}**" in moved.content
    assert (await stored(path, good.id)).ply_count == 3
