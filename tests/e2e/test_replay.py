"""Real games through the real bot: every game of the 2005 Italian championship file
(tests/data), move by move as slash commands from its two players, then the leaderboard."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from engine.pdn import PdnResult, read_pdn
from localplay.replay import REPLAY_ENV, Replayer
from localplay.server import LocalDiscord
from localplay.stored import StoredGames
from tests.support.local_discord import ANSWER_TIMEOUT, READY_TIMEOUT

DATA = Path(__file__).parent.parent / "data" / "italian-assoluto-2005-rounds-1-3.pdn"
_LINE = re.compile(r"^\*\*(\d+)\.\*\* <@(\d+)>: (\d+)(\??) \((\d+) games\)$")


@pytest.mark.slow
async def test_the_italian_championship_replays_through_the_bot(tmp_path: Path) -> None:
    records = read_pdn(DATA.read_text(encoding="utf-8"), variant="italian")
    assert len(records) == 27
    local = LocalDiscord(database=tmp_path / "replay.sqlite3", log_path=tmp_path / "bot.log",
                         env=REPLAY_ENV, ready_timeout=READY_TIMEOUT)
    async with local:
        replayer = Replayer(local, emit=lambda line: None, timeout=ANSWER_TIMEOUT)
        report = await replayer.replay(records, leaderboard="italian")
        print(report.summary())
        assert not report.failed, "\n".join(str(g.problems) for g in report.failed)

        # Every game stored with the record's moves, final position and result; the one
        # record that plays on past a threefold repetition (docs/RULES.md: an automatic draw)
        # ends there as a draw, as the engine's replay with the draw rules says.
        async with StoredGames(local.process.database) as games:
            for record, replayed in zip(records, report.games, strict=True):
                assert replayed.game_id is not None
                stored = await games.load(replayed.game_id)
                if replayed.cut_by is None:
                    assert stored.position == record.game.position
                    assert len(stored.moves) == len(record.game.moves)
                    assert stored.record.result is not None
                    assert stored.record.result.value == record.result.value
                    assert stored.record.termination in ("resignation", "agreement")
                else:
                    assert replayed.cut_by == "repetition"
                    assert any("repetition" in w for w in record.warnings)
                    assert stored.record.result is not None
                    assert stored.record.result.value == PdnResult.DRAW.value
                    assert len(stored.moves) < len(record.game.moves)
        cut = [g for g in report.games if g.cut_by is not None]
        assert len(cut) == 1
        assert report.moves == sum(len(r.game.moves) for r in records) - sum(
            g.moves_recorded - g.moves_sent for g in cut
        )

        # The leaderboard: the championship's players, provisional (`?`), by rating.
        assert report.leaderboard is not None
        lines = [_LINE.match(line) for line in report.leaderboard.embeds[0]["description"]
                 .splitlines()]
        entries = [m for m in lines if m is not None]
        assert len(entries) == 10
        names = {u.id: (u.global_name or u.username) for u in local.standin.world.users.values()}
        ratings = [int(m.group(3)) for m in entries]
        assert [int(m.group(1)) for m in entries] == list(range(1, 11))
        assert ratings == sorted(ratings, reverse=True)
        assert all(m.group(4) == "?" for m in entries)
        for match in entries:
            assert names[int(match.group(2))].startswith("Giocatore ")
            assert 1 <= int(match.group(5)) <= 3
        # The ranking agrees with each player's own /rating.
        first = int(entries[0].group(2))
        own = await local.standin.slash(first, "general", "rating",
                                        {"user": first, "variant": "italian"},
                                        timeout=ANSWER_TIMEOUT)
        assert f"{ratings[0]}?" in own.reply.text()
