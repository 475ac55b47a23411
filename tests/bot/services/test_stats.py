"""`StatsService` (`bot/services/stats.py`) on a real SQLite file: ratings, leaderboards,
history, and which game `/export` picks."""

from __future__ import annotations

import pytest

import engine
from bot.messages import Listing, Msg
from bot.services import PlayerError, Requester
from engine.pdn import read_pdn
from tests.support.services import ALICE, BOB, CAROL, CHANNEL, GUILD, OpenServices, start_game


async def test_export_in_direct_messages_with_several_games_and_none_ended(
    open_services: OpenServices,
) -> None:
    s = await open_services()
    one = await start_game(s, "turkish", channel=700)
    two = await start_game(s, "italian", channel=701)
    with pytest.raises(PlayerError) as info:
        await s.stats.export(Requester(ALICE, None), channel_id=9100)
    assert info.value.key is Msg.NO_GAME_TO_EXPORT_SEVERAL
    assert info.value.params["games"] == Listing((f"#{one.id}", f"#{two.id}"))
    # In a server channel without a game, the old rule stands: the most recent ended
    # game (there is none).
    with pytest.raises(PlayerError) as info:
        await s.stats.export(Requester(ALICE, GUILD), channel_id=9100)
    assert info.value.key is Msg.NO_GAME_TO_EXPORT


async def test_ratings_leaderboard_history_export(open_services: OpenServices) -> None:
    s = await open_services()
    await s.stats.remember(ALICE, "alice")
    await s.stats.remember(BOB, "bob")
    record = await start_game(s, "turkish", "W:Wd4,a2:Bd5")
    await s.games.play(CHANNEL, ALICE, "d4xd6")
    casual = await start_game(s, "turkish", rated=False)
    await s.games.resign(CHANNEL, ALICE)
    [rating] = await s.stats.ratings(ALICE, "turkish")
    assert rating.rated_games == 1 and rating.wins == 1
    assert await s.stats.ratings(ALICE, "italian") == []
    board = await s.stats.leaderboard("turkish", BOB, guild_id=GUILD)
    assert [e.rating.user_id for e in board.entries] == [ALICE, BOB]
    assert board.own_rank == 2 and board.total == 2
    assert (await s.stats.leaderboard("turkish", BOB, guild_id=999)).entries == []
    history = await s.stats.history(ALICE, Requester(ALICE, GUILD))
    assert [g.id for g in history] == [casual.id, record.id]
    pdn = await s.stats.export(Requester(ALICE, GUILD), game_id=record.id)
    [parsed] = read_pdn(pdn.text)
    assert parsed.variant.key == "turkish"
    assert parsed.tags["White"] == "alice" and parsed.tags["Black"] == "bob"
    assert parsed.result.token == "1-0"
    assert [engine.format_move(m, parsed.game.start, parsed.variant)
            for m in parsed.game.moves] == ["d4xd6"]
    latest = await s.stats.export(Requester(BOB, GUILD))
    assert latest.game_id == casual.id and latest.filename.endswith(".pdn")
    with pytest.raises(PlayerError) as info:
        await s.stats.export(Requester(ALICE, GUILD), game_id=4444)
    assert info.value.key is Msg.UNKNOWN_GAME
    with pytest.raises(PlayerError) as info:
        await s.stats.export(Requester(CAROL, GUILD))
    assert info.value.key is Msg.NO_GAME_TO_EXPORT


async def test_game_history_says_hidden_only_when_every_ended_game_is_hidden_here(
    open_services: OpenServices,
) -> None:
    # docs/ARCHITECTURE.md, "Privacy between servers": a game is seen in its guild and by
    # its players. Alice's only ended game is in GUILD; Carol asks from another guild.
    other_guild = 777
    s = await open_services()
    record = await start_game(s, "turkish")
    before = await s.stats.game_history(ALICE, Requester(CAROL, other_guild))
    assert before.games == () and before.hidden is False  # nothing ended yet: none at all
    await s.games.resign(CHANNEL, BOB)
    elsewhere = await s.stats.game_history(ALICE, Requester(CAROL, other_guild))
    assert elsewhere.games == () and elsewhere.hidden is True
    here = await s.stats.game_history(ALICE, Requester(CAROL, GUILD))
    assert [g.id for g in here.games] == [record.id] and here.hidden is False
    # Someone who never played: none at all, wherever asked.
    assert await s.stats.game_history(CAROL, Requester(ALICE, GUILD)) == (
        await s.stats.game_history(CAROL, Requester(ALICE, other_guild)))
    assert (await s.stats.game_history(CAROL, Requester(ALICE, GUILD))).hidden is False


async def test_the_pdn_event_says_whether_the_game_was_rated(
    open_services: OpenServices,
) -> None:
    # A rated game resigned before each side made two moves keeps its result unrated
    # (docs/RULES.md, "Early results"): its PDN must not call it rated, as its board does not.
    s = await open_services()
    early = await start_game(s, "turkish")
    await s.games.resign(CHANNEL, ALICE)
    decided = await start_game(s, "turkish", "W:Wd4,a2:Bd5", channel=702)
    await s.games.play(702, ALICE, "d4xd6")  # ends the game by the rules: rated
    casual = await start_game(s, "turkish", rated=False, channel=703)
    await s.games.resign(703, ALICE)
    events = []
    for game in (early, decided, casual):
        [parsed] = read_pdn((await s.stats.export(Requester(ALICE, GUILD),
                                                  game_id=game.id)).text)
        events.append(parsed.tags["Event"])
    assert events == ["dama-bot game, not rated (it ended early)", "dama-bot rated game",
                      "dama-bot casual game"]
