"""`dama-bot local` as a person runs it: a script, standard input, a PDN replay."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

DATA = Path(__file__).parent.parent / "data" / "italian-assoluto-2005-rounds-1-3.pdn"
TIMEOUT = 240

SCRIPT = """\
# alice challenges bob; bob accepts; two moves; a wrong move; bob resigns
/challenge @bob italian color:white
as bob
press Accept
as alice
suggest /move 22
/move 22-18
as bob
/move 22-18
/move 11-15
/resign
/rating variant:italian
"""


def _run(args: list[str], cwd: Path, *, stdin: str = "",
         env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    environment = {k: v for k, v in os.environ.items() if not k.startswith(("DAMA_", "DISCORD"))}
    environment.update(env or {})
    return subprocess.run(
        [sys.executable, "-m", "bot", *args], cwd=cwd, input=stdin, capture_output=True,
        text=True, timeout=TIMEOUT, env=environment, check=False,
    )


def test_a_script_plays_a_game_and_saves_the_pictures(tmp_path: Path) -> None:
    script = tmp_path / "game.txt"
    script.write_text(SCRIPT, encoding="utf-8")
    done = _run(["local", "--script", str(script)], tmp_path)
    out = done.stdout
    assert done.returncode == 0, out + done.stderr
    assert "LOCAL MODE" in out and "DISCORD_TOKEN" in out
    assert "[Accept] [Decline] [Cancel]" in out
    assert "(suggestions: d3-c4 (22-18), d3-e4 (22-19))" in out
    assert "@alice played d3-c4." in out
    assert "It is not your turn" not in out  # bob's 22-18 is refused for another reason
    assert "only @bob sees this" in out
    assert "@alice wins (1-0). @bob resigned." in out
    assert "1 rated games: 0 won, 1 lost" in out
    # The text board after 22-18 (d3-c4) and 11-15 (e6-f5): Black to move, then White.
    assert "   4  .   w   .   .    4   17-20" in out
    assert "   5    .   .   b   .  5   13-16" in out
    pictures = sorted((tmp_path / "local-boards").glob("*.png"))
    assert len(pictures) == 4  # the start, two moves, the final board
    assert all(p.read_bytes().startswith(b"\x89PNG") for p in pictures)
    assert (tmp_path / "data" / "local.sqlite3").is_file()


def test_without_a_token_the_bot_starts_in_local_mode_reading_stdin(tmp_path: Path) -> None:
    done = _run([], tmp_path, stdin="/rules arab\n/nonsense\n")
    assert "DISCORD_TOKEN is not set" in done.stderr
    assert "== Arab Dama ==" in done.stdout
    assert "no slash command /nonsense" in done.stdout
    assert done.returncode == 1  # one command failed


def test_replay_of_a_pdn_file(tmp_path: Path) -> None:
    games = DATA.read_text(encoding="utf-8").split("\n\n\n")[:2]  # newlines read as \n
    assert len(games) == 2 and "Giocatore 04" in games[1]
    two = tmp_path / "two.pdn"
    two.write_text("\n\n\n".join(games), encoding="utf-8")
    done = _run(["local", "--replay", str(two)], tmp_path)
    out = done.stdout
    assert done.returncode == 0, out + done.stderr
    assert "replaying as Italian draughts" in out
    assert "game 1 (Giocatore 01 - Giocatore 02, #replay-01): 75/75 moves" in out
    assert "stored 1/2-1/2 (agreement): ok" in out
    assert "2 games replayed (0 with problems), 144 moves" in out
    assert "Italian draughts leaderboard" in out
    assert "1. @Giocatore 01: " in out
