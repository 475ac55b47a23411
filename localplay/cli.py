"""`dama-bot local` (also `python -m localplay`, and `make run` without a token).

Starts the local Discord stand-in with one fake server ("Dama Club", channels #general and
#games) and the real bot process logged in to it, then reads commands of the local mode
(`localplay.script`): from the terminal, from `--script FILE`, or from standard input when
it is not a terminal. `--replay FILE.pdn` replays every game of a PDN file instead.
Exit status: 0 when every command got an answer (every game replayed exactly), 1 when
some did not, 2 when the bot could not be started or an argument is wrong. A session typed
at a terminal ends with 0 whatever its commands got: a player's typo is answered where it
was typed, and is no failure of the program (`make run` would report it as an error);
a script's or a pipe's failed command still makes the status 1.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import shlex
import sys
import threading
from collections.abc import AsyncIterator, Callable, Sequence
from pathlib import Path

from localplay.options import (
    DEFAULT_DATABASE,
    DEFAULT_REPLAY_DATABASE,
    add_arguments,
)
from localplay.process import BotProcessError
from localplay.render import MessageText
from localplay.replay import REPLAY_ENV, Replayer
from localplay.script import HELP
from localplay.server import (
    ANNEX_GUILD,
    DEFAULT_CHANNELS,
    DEFAULT_GUILD,
    LOCAL_ID_SEED,
    LocalDiscord,
)
from localplay.session import TerminalSession
from localplay.unfinished import bring_back, describe, unfinished_games
from localplay.web import WebAddressError, serving_address, web_env

BANNER = """\
dama-bot LOCAL MODE: a stand-in Discord on this machine, no Discord account needed.
Server "{guild}", channels {channels}; you are @{user}. Board pictures are saved in {boards}/.
A second server, "{annex}" ({annex_channels}): `in "{annex}#{annex_first}"` goes there.{shards}
To connect to Discord instead, put DISCORD_TOKEN=<your bot token> in .env and run `make run`.
"""

REPLAY_BANNER = """\
dama-bot LOCAL MODE, replay: a stand-in Discord on this machine, server "{guild}".
Each of the {games} games is played in a channel of its own (#replay-NN) by its two players.
"""

Printer = Callable[[str], None]


def say(line: str) -> None:
    """Print a line at once (answers appear as they arrive, also through a pipe)."""
    print(line, flush=True)


DESCRIPTION = """\
Play dama-bot without Discord: a stand-in Discord runs on this machine with the server
"Dama Club" (#general, #games), the real bot logs in to it as a child process, and you type
slash commands as any number of users (`/challenge @bob italian`, `as bob`,
`press 1 Accept`, `/move 22-18`, `select 9-13`; `help` lists the commands, `quit` or
Ctrl-D ends). The bot's
database (data/local.sqlite3) and the users, server and channels stay from run to run,
so an unfinished game goes on next time. Commands come from the terminal, from --script
FILE, or from standard input when it is not a terminal; --replay FILE.pdn plays every
game of a PDN file through the bot instead. Exit status 0 when every command got an
answer (always, for commands typed at a terminal), 1 when a command of a script or of
standard input failed, 2 when the bot could not start or an argument is wrong."""


def parser() -> argparse.ArgumentParser:
    """The parser of `dama-bot local` and `python -m localplay` (the bot's entry point hands
    it everything after `local`)."""
    root = argparse.ArgumentParser(prog="dama-bot local", description=DESCRIPTION,
                                   formatter_class=argparse.RawDescriptionHelpFormatter)
    add_arguments(root)
    return root


async def _lines_typed(
    emit: Printer, prompt: Callable[[], str], *, terminal: bool
) -> AsyncIterator[str]:
    """Lines from standard input as they come: typed at the terminal (with the prompt
    `prompt()`, e.g. `alice in #general > `, shown once the previous command's answers are
    printed), or from a pipe (each echoed with its number and the prompt). Reading runs in
    a daemon thread, so Ctrl-C ends the program at once."""
    if terminal:
        emit("Type a command (`help` lists them, `quit` or Ctrl-D ends).")
    loop = asyncio.get_running_loop()
    typed: asyncio.Queue[str | None] = asyncio.Queue()
    ready = threading.Event()  # set when the previous command's answers are all shown

    def read() -> None:
        while True:
            ready.wait()
            ready.clear()
            line: str | None
            try:
                line = input(prompt()) if terminal else sys.stdin.readline()
            except (EOFError, KeyboardInterrupt, OSError, ValueError):
                line = None
            if line == "" and not terminal:
                line = None  # end of the input
            loop.call_soon_threadsafe(typed.put_nowait, line)
            if line is None:
                return

    threading.Thread(target=read, name="dama-local-input", daemon=True).start()
    number = 0
    while True:
        ready.set()
        line = await typed.get()
        number += 1
        if line is None:
            return
        if not terminal and line.strip() and not line.strip().startswith("#"):
            emit(f"[{number}] {prompt()}{line.strip()}")
        yield line


async def _lines_from(
    lines: Sequence[str], emit: Printer, prompt: Callable[[], str]
) -> AsyncIterator[str]:
    for number, line in enumerate(lines, start=1):
        if line.strip() and not line.strip().startswith("#"):
            emit(f"[{number}] {prompt()}{line.strip()}")
        yield line


async def play(args: argparse.Namespace, emit: Printer = say) -> int:
    """The interactive / scripted local mode; returns the exit status."""
    if args.script is not None:
        try:
            source = Path(args.script).read_text(encoding="utf-8").splitlines()
        except OSError as error:
            emit(f"dama-bot local: cannot read --script {args.script}: {error.strerror}")
            return 2
    else:
        source = None
    refused = database_refusal(args)
    if refused is not None:
        emit(refused)
        return 2
    try:
        pages = None if args.web is None else serving_address(args.web)
    except WebAddressError as error:
        emit(f"dama-bot local: {error}")
        return 2
    url = is_url(args.database)
    database: Path | str = args.database if url else Path(args.database or DEFAULT_DATABASE)
    if args.fresh and isinstance(database, Path):
        _delete_database(database)
    unfinished = [] if url else await unfinished_games(Path(database))
    local = LocalDiscord(database=database, log_path=args.log, id_seed=LOCAL_ID_SEED,
                         shards=args.shards, extra_guilds=[ANNEX_GUILD], locale=args.locale,
                         env=web_env(pages))
    emit("Starting the stand-in and the bot...")
    async with local, TerminalSession(
        local, boards_dir=args.boards, emit=emit, user=args.user, locale=args.locale,
    ) as session:
        annex, annex_channels, _ = ANNEX_GUILD
        shards = ("" if args.shards == 1 else
                  f"\n{args.shards} bot processes, one per shard; logs: {args.log} (shard 0) "
                  "and beside it.")
        emit(BANNER.format(guild=DEFAULT_GUILD, user=args.user, boards=args.boards,
                           channels=", ".join("#" + c for c in DEFAULT_CHANNELS),
                           annex=annex, annex_first=annex_channels[0],
                           annex_channels=", ".join("#" + c for c in annex_channels),
                           shards=shards))
        if pages is not None:
            emit(f"Game pages: http://{pages}/ (each board's [Game page] button links to "
                 "its game's page)")
        await bring_back(local.standin, unfinished)
        if unfinished:
            emit(f"({len(unfinished)} unfinished game(s) of earlier runs go on here, in "
                 f"{database}; `/board` in the game's channel shows it, --fresh starts from "
                 "an empty database)\n" + describe(unfinished, session.place_of))
        typed = source is None and sys.stdin.isatty()  # a person at a terminal
        lines = (_lines_from(source, emit, session.prompt) if source is not None
                 else _lines_typed(emit, session.prompt, terminal=typed))
        async for line in lines:
            word = line.strip().lower()
            if word in ("quit", "exit"):
                break
            if word == "help":
                emit(HELP)
                continue
            await session.run_line(line)
        await session.finish()  # answers still on their way are printed, then the bot stops
        left = [] if url else await unfinished_games(Path(database))
        if left:
            emit(f"({len(left)} game(s) not finished. They are kept in {database}: "
                 f"`{_go_on_command(args.database)}` goes on with them, in the same "
                 "channels with the same players; `/resign`, a `/draw` both sides agree, "
                 "or `/abort` before both "
                 "sides have moved ends one.)\n" + describe(left, session.place_of))
        if session.failures:
            emit(f"{session.failures} command(s) failed or got no answer "
                 f"(the bot's log: {args.log})")
        return 1 if session.failures and not typed else 0


async def replay(args: argparse.Namespace, emit: Printer = say) -> int:
    """`--replay FILE.pdn`; returns the exit status."""
    from engine.pdn import PdnError, read_pdn

    try:
        text = Path(args.replay).read_text(encoding="utf-8-sig")
    except OSError as error:
        emit(f"dama-bot local: cannot read --replay {args.replay}: {error.strerror}")
        return 2
    variant = args.variant
    if variant is None and _italian_tags(text):
        variant = "italian"
        emit("(the file uses Italian tag names and names no variant: replaying as Italian "
             "draughts; --variant chooses another)")
    try:
        games = read_pdn(text, variant=variant)
    except (PdnError, ValueError) as error:
        emit(f"dama-bot local: {args.replay}: {error}")
        return 2
    if not games:
        emit(f"dama-bot local: {args.replay} holds no games")
        return 2
    database = Path(args.database or DEFAULT_REPLAY_DATABASE)
    if args.database is None or args.fresh:
        _delete_database(database)
    local = LocalDiscord(database=database, log_path=args.log, env=REPLAY_ENV)
    emit(f"Starting the stand-in and the bot; replaying {len(games)} games of {args.replay}...")
    async with local:
        emit(REPLAY_BANNER.format(guild=DEFAULT_GUILD, games=len(games)))
        replayer = Replayer(local, emit=emit, concurrency=args.parallel)
        report = await replayer.replay(games)
        names = local.standin.world.users
        text_of = MessageText(lambda i: names[i].global_name or names[i].username
                              if i in names else None)
        first = replayer.first_player
        for variant in dict.fromkeys(game.variant.key for game in games):
            if first is None:
                break
            board = await local.standin.slash(first, local.channel, "leaderboard",
                                              {"variant": variant}, timeout=replayer.timeout)
            for line in text_of.lines(board.reply):
                emit(line)
        emit(report.summary())
        return 1 if report.failed else 0


def is_url(database: str | None) -> bool:
    """True when `--database` names a database server (`postgresql://...`), not a file."""
    return database is not None and "://" in database


def database_refusal(args: argparse.Namespace) -> str | None:
    """Why `--database`, `--fresh` and `--shards` cannot go together, or None when they
    can: `--fresh` deletes a file, never a server's data; several processes need a
    database server (one SQLite file is for one process)."""
    if args.shards < 1:
        return f"dama-bot local: --shards {args.shards}: write 1 or more"
    if args.fresh and is_url(args.database):
        return ("dama-bot local: --fresh deletes a database file; it does not empty the "
                f"database at {args.database}. Drop and create that database yourself "
                "(e.g. dropdb and createdb), or leave out --fresh.")
    if args.shards > 1 and not is_url(args.database):
        return (f"dama-bot local: --shards {args.shards} runs {args.shards} bot processes, "
                "which need one PostgreSQL database: add --database postgresql://... "
                "(a server you run; one SQLite file is for one process)")
    return None


def _go_on_command(database: str | None) -> str:
    """The command that goes on with this run's database: this interpreter (as a path
    from the current folder when it is under it, `.venv/bin/python`) running `-m bot
    local`, with `--database` unless it is the default one. Not `dama-bot local`: that
    script is on PATH only while the virtual environment is activated."""
    python = Path(sys.executable)
    with contextlib.suppress(ValueError):
        python = python.relative_to(Path.cwd())
    command = f"{shlex.quote(str(python))} -m bot local"
    if database and Path(database) != Path(DEFAULT_DATABASE):
        command += f" --database {shlex.quote(database)}"
    return command


def _delete_database(database: Path) -> None:
    """Delete the database and its companions (SQLite's `-wal` and `-shm` files, local
    play's `.clock` and `.installs`, `localplay.clock`, `localplay.installs`)."""
    for path in (database, *database.parent.glob(database.name + "*")):
        with contextlib.suppress(FileNotFoundError):
            path.unlink()


def _italian_tags(text: str) -> bool:
    head = text[:4000]
    return "[Bianco " in head and "[Nero " in head and "[GameType" not in head


def run(args: argparse.Namespace, emit: Printer = say) -> int:
    """Run the local mode for parsed `args`; returns the exit status."""
    try:
        return asyncio.run(replay(args, emit) if args.replay else play(args, emit))
    except BotProcessError as error:
        emit(f"dama-bot local: the bot did not start: {error}")
        return 2
    except KeyboardInterrupt:
        return 130


def main(argv: Sequence[str] | None = None) -> int:
    """`dama-bot local [options]`, `python -m localplay [options]`: parse `argv` (default:
    the command line) and run; returns the exit status (a wrong option: usage and status 2
    from argparse)."""
    return run(parser().parse_args(argv))
