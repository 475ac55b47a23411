"""Games left unfinished, named for the player by the place they are in, and their DMs
brought back in the next run."""

from __future__ import annotations

from pathlib import Path

from localplay.server import LOCAL_ID_SEED, LocalDiscord
from localplay.session import TerminalSession
from localplay.unfinished import Unfinished, bring_back, describe, unfinished_games
from tests.support.local_discord import ANSWER_TIMEOUT, READY_TIMEOUT


def test_each_game_is_named_by_its_place_or_by_how_to_find_it_again() -> None:
    games = [Unfinished(1, "Italian draughts", 11, "@alice", "@carol", 2),
             Unfinished(2, "Italian draughts", 12, "@alice", "@bob", 1),
             Unfinished(3, "Italian draughts", 13, "@dan", "@eda", 0)]
    places = {11: "dm:@alice,@carol", 12: "#general"}
    assert describe(games, places.get).splitlines() == [
        "  game #1, @alice vs @carol, Italian draughts, 2 plies, in dm:@alice,@carol",
        "  game #2, @alice vs @bob, Italian draughts, 1 ply, in #general",
        "  game #3, @dan vs @eda, Italian draughts, 0 plies, in a channel, DM or group DM "
        "an earlier run made with `in NAME`, `in dm:@NAME` or `in group:@NAME,@NAME` "
        "(type it again)",
    ]


async def test_games_in_a_dm_and_a_group_dm_go_on_in_the_next_run(tmp_path: Path) -> None:
    """A new run has the DM and the group DM of the earlier run, with the same ids and
    the same people: the DM is brought back at the start (its players are stored), the
    group DM when one of its people names it again (its third person is not stored)."""

    def local_discord() -> LocalDiscord:
        return LocalDiscord(database=tmp_path / "bot.sqlite3", log_path=tmp_path / "bot.log",
                            ready_timeout=READY_TIMEOUT, id_seed=LOCAL_ID_SEED)

    earlier = local_discord()
    async with earlier, TerminalSession(earlier, boards_dir=tmp_path / "boards", emit=print,
                                        timeout=ANSWER_TIMEOUT) as session:
        for line in ("install", "install @bob", "in dm:@bob",
                     "/challenge @bob italian color:white", "as bob press Accept",
                     "as alice /move 22-18",
                     "in group:@bob,@carol", "/challenge @bob italian color:black",
                     "as bob press Accept"):
            assert await session.run_line(line), line
        dm, group = earlier.standin.dm_between("alice", "bob").id, session.where.id
        await session.finish()
    games = await unfinished_games(tmp_path / "bot.sqlite3")
    assert [game.channel_id for game in games] == [dm, group]
    out: list[str] = []
    later = local_discord()
    async with later, TerminalSession(later, boards_dir=tmp_path / "boards",
                                      emit=out.append, timeout=ANSWER_TIMEOUT) as session:
        await bring_back(later.standin, games)
        assert [session.place_of(game.channel_id) for game in games] == [
            "dm:@alice,@bob", None]
        for line in ("install", "install @bob", "as bob in dm:@alice", "/move 11-15",
                     "in group:@alice,@carol", "/move 22-18"):
            assert await session.run_line(line), line
        assert session.where.id == group
        await session.finish()
    text = "\n".join(out)
    assert "@bob played 11-15." in text, text
    assert "@bob played 22-18." in text, text
    assert "There is no game" not in text, text

