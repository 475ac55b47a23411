"""`dama-bot local` as a person runs it: a script, standard input, a PDN replay."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from localplay.server import ANNEX_GUILD, DEFAULT_GUILD, LOCAL_ID_SEED
from standin.snowflakes import SnowflakeFactory, on_shard
from tests.support.postgres import PostgresServer

DATA = Path(__file__).parent.parent / "data" / "italian-assoluto-2005-rounds-1-3.pdn"
TIMEOUT = 240

SCRIPT = """\
# alice challenges bob; bob accepts; four moves; a wrong move; bob resigns, confirming
/challenge @bob italian color:white
as bob
press Accept
as alice
suggest /move 22
/move 22-18
as bob
/move 22-18
/move 11-15
as alice
/move 21-17
as bob
/move 15-19
/resign
press Resign
/rating variant:italian
/export
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
    # Italian moves in the federation's numbers first (the bot's default).
    assert "(suggestions: 22-18 (d3-c4), 22-19 (d3-e4))" in out
    assert "@alice played 22-18." in out
    assert "It is not your turn" not in out  # bob's 22-18 is refused for another reason
    assert "only @bob sees this" in out
    assert "Resign game #1 against @alice?" in out and "[Resign] [Keep playing]" in out
    assert "@alice wins (1-0). @bob resigned." in out
    # The finished game's text board names no side to move.
    final = out[out.index("@bob resigned."):]
    assert "game over" in final and "to move" not in final.split("/rating")[0]
    assert "1 rated game · won: 0 · lost: 1" in out
    # The text board after 22-18 (d3-c4) and 11-15 (e6-f5): Black to move, then White.
    # Italian boards number their empty squares, as the moves are written.
    assert "   5    13    14     b    16  5" in out
    assert "   4 17     w    19    20     4" in out
    pictures = sorted((tmp_path / "local-boards").glob("*.png"))
    assert len(pictures) == 6  # the start, four moves, the final board
    assert all(p.read_bytes().startswith(b"\x89PNG") for p in pictures)
    # /export's PDN file is saved next to the pictures, and its path printed.
    pdn = tmp_path / "local-boards" / "0007-dama-italian-1.pdn"
    assert "saved to local-boards/0007-dama-italian-1.pdn]" in out, out[-3000:]
    assert '[Result "1-0"]' in pdn.read_text(encoding="utf-8")
    assert (tmp_path / "data" / "local.sqlite3").is_file()


def test_without_a_token_the_bot_starts_in_local_mode_reading_stdin(tmp_path: Path) -> None:
    done = _run([], tmp_path, stdin="/rules arab\n/nonsense\n")
    assert "DISCORD_TOKEN is not set" in done.stderr
    assert "== Arab Dama ==" in done.stdout
    assert "no slash command /nonsense" in done.stdout
    assert done.returncode == 1  # one command failed
    # A second session in the same folder numbers its pictures on (nothing overwritten).
    # `help` and `quit` work in piped input too: nothing after `quit` runs.
    again = _run(["local"], tmp_path, stdin="help\n/rules turkish\nquit\n/rules italian\n")
    assert again.returncode == 0, again.stdout + again.stderr
    assert "press Accept" in again.stdout and "Italian draughts ==" not in again.stdout
    assert "saved to local-boards/0002-board.png" in again.stdout
    assert sorted(p.name for p in (tmp_path / "local-boards").iterdir()) == [
        "0001-board.png", "0002-board.png"]


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


class Terminal:
    """The parent's side of a pseudo-terminal: what was shown, and a cursor past the last
    text waited for."""

    def __init__(self, fd: int) -> None:
        self.fd = fd
        self.seen = bytearray()
        self.cursor = 0

    def text(self) -> str:
        return self.seen.decode(errors="replace")

    def wait_for(self, wanted: bytes, timeout: float) -> bool:
        """Read until `wanted` appears after the cursor (True; the cursor moves past it),
        or the time is up or the terminal closes (False)."""
        import select

        deadline = time.monotonic() + timeout
        while True:
            found = self.seen.find(wanted, self.cursor)
            if found >= 0:
                self.cursor = found + len(wanted)
                return True
            if time.monotonic() >= deadline:
                return False
            ready, _, _ = select.select([self.fd], [], [], 0.2)
            if ready:
                try:
                    chunk = os.read(self.fd, 65536)
                except OSError:
                    chunk = b""
                if not chunk:
                    return False
                self.seen.extend(chunk)


def test_a_terminal_session(tmp_path: Path) -> None:
    """Typed at a real terminal (a pseudo-terminal): prompt, answers, a typo, then `quit`,
    which ends with status 0 (a typo is the player's, not the program's failure)."""
    import pty

    pid, fd = pty.fork()
    if pid == 0:  # the child: the local mode on the terminal
        os.chdir(tmp_path)
        env = {k: v for k, v in os.environ.items() if not k.startswith(("DAMA_", "DISCORD"))}
        os.execve(sys.executable, [sys.executable, "-m", "bot", "local"], env)
    term = Terminal(fd)
    try:
        # The prompt says who types and where.
        assert term.wait_for(b"\nalice in #general > ", TIMEOUT), term.text()
        os.write(fd, b"/challenge @bob moroccan color:black\r")
        assert term.wait_for(b"[Accept] [Decline] [Cancel]", 60), term.text()
        assert term.wait_for(b"\nalice in #general > ", 30), term.text()
        os.write(fd, b"as bob\r")
        assert term.wait_for(b"\nbob in #general > ", 30), term.text()
        os.write(fd, b"press Accept\r")
        assert term.wait_for(b"w/b men, W/B kings", 60), term.text()  # the text board
        os.write(fd, b"/terk\r")  # a typo: answered, and no failure of the session
        assert term.wait_for(b"no slash command /terk", 30), term.text()
        assert term.wait_for(b"\nbob in #general > ", 30), term.text()
        os.write(fd, b"quit\r")
        term.wait_for(b"\x00never", 30)  # read to the end
    finally:
        done, status = os.waitpid(pid, os.WNOHANG)
        deadline = time.monotonic() + 20
        while done == 0 and time.monotonic() < deadline:  # it may be stopping its bot
            time.sleep(0.1)
            done, status = os.waitpid(pid, os.WNOHANG)
        if done == 0:  # still running after a failed step: end it (and its bot)
            os.kill(pid, signal.SIGINT)
            term.wait_for(b"\x00never", 15)
            _, status = os.waitpid(pid, 0)
        os.close(fd)
    text = term.text()
    assert "LOCAL MODE" in text
    assert "@bob (White) vs @alice (Black): the game begins." in text
    # `quit` with the game unfinished warns that it is kept for the next run.
    assert "(1 game(s) not finished. They are kept in data/local.sqlite3" in text, text[-2000:]
    assert "game #1, @bob vs @alice, Moroccan draughts, 0 plies, in #general" in text
    assert os.waitstatus_to_exitcode(status) == 0, text[-2000:]
    assert len(list((tmp_path / "local-boards").glob("*.png"))) == 1


def test_replay_of_games_in_several_variants_ended_by_the_rules(tmp_path: Path) -> None:
    """Games the rules end (no pieces, no legal move) need no resignation; each variant in
    the file gets its leaderboard."""
    from engine import Game, get_variant
    from engine.pdn import export_pdn
    from tests.support.forced_games import forced_game

    records = []
    for key in ("arab", "moroccan"):
        forced = forced_game(get_variant(key), seeds=20)
        game = Game(get_variant(key))
        for _, move in forced.moves:
            game.play(move)
        records.append(export_pdn(game, {"White": "Ali", "Black": "Veli"}))
    pdn = tmp_path / "mixed.pdn"
    pdn.write_text("\n\n".join(records), encoding="utf-8")
    done = _run(["local", "--replay", str(pdn)], tmp_path)
    out = done.stdout
    assert done.returncode == 0, out + done.stderr
    assert out.count("recorded 1-0; stored 1-0 (no_") == 2
    assert "== Arab Dama leaderboard" in out and "== Moroccan draughts leaderboard" in out
    assert "2 games replayed (0 with problems)" in out


def test_a_bot_that_cannot_start_is_explained(tmp_path: Path) -> None:
    (tmp_path / "broken.sqlite3").write_text("not a database", encoding="utf-8")
    done = _run(["local", "--database", "broken.sqlite3"], tmp_path, stdin="/help\n")
    assert done.returncode == 2
    assert "the bot did not start" in done.stdout
    assert "not an SQLite database" in done.stdout  # the bot's own one-line reason
    assert "\x1b[" not in done.stdout


def test_an_unfinished_game_goes_on_in_the_next_run_and_fresh_clears_it(
    tmp_path: Path,
) -> None:
    first = _run(["local"], tmp_path, stdin="/challenge @bob italian color:white\nas bob\n"
                 "press Accept\nas alice\n/move 22-18\nquit\n")
    assert first.returncode == 0, first.stdout + first.stderr
    assert "@alice played 22-18." in first.stdout
    # `quit` warns: the game is kept, and where it goes on.
    assert "(1 game(s) not finished. They are kept in data/local.sqlite3" in first.stdout
    assert "game #1, @alice vs @bob, Italian draughts, 1 ply, in #general" in first.stdout
    # The next run: same users, server and channel ids, so bob answers in the same game.
    second = _run(["local"], tmp_path, stdin="as bob\n/move 11-15\n/board\n")
    assert second.returncode == 0, second.stdout + second.stderr
    out = second.stdout
    assert "(1 unfinished game(s) of earlier runs go on here, in data/local.sqlite3" in out
    assert "game #1, @alice vs @bob, Italian draughts, 1 ply, in #general" in out
    assert "@bob played 11-15." in out, out
    assert "There is no game in this channel" not in out
    assert "game #1, @alice vs @bob, Italian draughts, 2 plies, in #general" in out
    fresh = _run(["local", "--fresh"], tmp_path, stdin="/history\n")
    assert fresh.returncode == 0, fresh.stdout + fresh.stderr
    assert "earlier runs go on here" not in fresh.stdout
    assert "game(s) not finished" not in fresh.stdout


def test_a_bad_setting_shows_the_reason_first_and_only_this_runs_log(tmp_path: Path) -> None:
    log = tmp_path / "data" / "local-bot.log"
    log.parent.mkdir()
    log.write_text("".join(f"an earlier run's line {n}\n" for n in range(40)), encoding="utf-8")
    done = _run(["local"], tmp_path, stdin="/help\n", env={"DAMA_BOARD_SIZE": "30"})
    assert done.returncode == 2
    out = done.stdout
    # The bot's own reason (bot/config.py: the board size is a whole number 160..2048).
    assert "the bot did not start: DAMA_BOARD_SIZE='30' is not valid" in out, out
    assert "earlier run" not in out
    assert log.read_text(encoding="utf-8").startswith("an earlier run's line 0\n")


ANNEX_SCRIPT = """\
# a game in the second server, whose id falls on the other shard of two
in "Dama Annex#lobby"
/challenge @bob turkish color:white
as bob
press Accept
as alice
/move d3-d4
in #general
/board
in "Dama Annex#lobby"
/board
in "Nowhere#x"
"""


def test_the_two_local_servers_fall_on_two_shards() -> None:
    main = SnowflakeFactory(seed=LOCAL_ID_SEED).named("guild", DEFAULT_GUILD)
    name, _, (shard, count) = ANNEX_GUILD
    annex = on_shard(SnowflakeFactory(seed=LOCAL_ID_SEED).named("guild", name), shard, count)
    assert {(main >> 22) % 2, (annex >> 22) % 2} == {0, 1}


def test_a_second_server_on_another_shard_and_moving_between_servers(tmp_path: Path) -> None:
    script = tmp_path / "annex.txt"
    script.write_text(ANNEX_SCRIPT, encoding="utf-8")
    done = _run(["local", "--script", str(script)], tmp_path)
    out = done.stdout
    assert 'A second server, "Dama Annex" (#lobby, #tables)' in out
    assert "alice in Dama Annex#lobby > /challenge @bob turkish color:white" in out
    assert "@alice played d3-d4." in out
    assert "There is no game in this channel" in out  # /board in #general: none there
    assert "no server 'Nowhere' here; servers: Dama Club, Dama Annex" in out
    assert done.returncode == 1  # the unknown server is a failed command


def test_fresh_with_a_database_url_and_shards_without_one_are_refused(tmp_path: Path) -> None:
    done = _run(["local", "--fresh", "--database", "postgresql://localhost/dama"], tmp_path,
                stdin="quit\n")
    assert done.returncode == 2
    assert "--fresh deletes a database file; it does not empty the database at " \
           "postgresql://localhost/dama" in done.stdout
    done = _run(["local", "--shards", "2"], tmp_path, stdin="quit\n")
    assert done.returncode == 2
    assert "--shards 2 runs 2 bot processes, which need one PostgreSQL database" in done.stdout
    assert not (tmp_path / "data").exists()  # refused before anything was started


SHARDED_SCRIPT = """\
/challenge @bob turkish color:white
as bob
press Accept
as alice
/move d3-d4
in "Dama Annex#lobby"
/challenge @carol arab color:white
as carol
press Accept
as alice
/move d3-d4
"""


def test_local_play_with_two_shards_on_postgresql(
    tmp_path: Path, postgres_server: PostgresServer
) -> None:
    """`--shards 2 --database URL`: two bot processes, each server answered by its own."""
    url = postgres_server.new_database()
    script = tmp_path / "sharded.txt"
    script.write_text(SHARDED_SCRIPT, encoding="utf-8")
    try:
        done = _run(["local", "--shards", "2", "--database", url, "--script", str(script)],
                    tmp_path)
    finally:
        postgres_server.drop_database(url)
    out = done.stdout
    assert done.returncode == 0, out + done.stderr
    assert "2 bot processes, one per shard" in out
    assert out.count("@alice played d3-d4.") == 2
    logs = [tmp_path / "data" / "local-bot.log", tmp_path / "data" / "local-bot-shard1.log"]
    assert "runs shards 0 of 2" in logs[0].read_text(encoding="utf-8")
    assert "runs shards 1 of 2" in logs[1].read_text(encoding="utf-8")


def test_the_end_says_how_to_go_on_with_another_database(tmp_path: Path) -> None:
    run = _run(["local", "--database", "data/other.sqlite3"], tmp_path,
               stdin="/challenge @bob italian color:white\nas bob\npress Accept\nquit\n")
    assert run.returncode == 0, run.stdout + run.stderr
    assert (f"They are kept in data/other.sqlite3: `{sys.executable} -m bot local "
            "--database data/other.sqlite3` goes on with them") in run.stdout, run.stdout
