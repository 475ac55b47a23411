"""`python -m bot [run | web | local ... | db copy SOURCE TARGET]` (also `dama-bot`): start
the Discord bot, serve its game pages on the web, or copy its SQLite database into
PostgreSQL.

Subcommands are a table of name -> handler. `run` connects to Discord and needs
DISCORD_TOKEN (without one it says so, status 2). Without a subcommand (what `make run`
calls), `run` when a token is set, else local play. `local` (play in the terminal against a
Discord stand-in) belongs to the separate `localplay` package: its options are parsed
there, and it is imported only when local play starts (the `local` subcommand, or no
subcommand and no token), so the bot runs where `localplay` and `standin` are not
installed.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence

from bot.config import ConfigError, load_settings

LOCAL_ABSENT = ("local play needs the `localplay` and `standin` packages of this project, "
                "which are not installed here; install the whole project (`make run` does) "
                "or set DISCORD_TOKEN to connect to Discord")


def _run(args: argparse.Namespace) -> int:
    """`dama-bot run`: the bot on Discord; without a token, one line saying what to set
    (status 2, from `bot.app.run`)."""
    from bot.app import run

    return run(load_settings())


def _default(args: argparse.Namespace) -> int:
    """`dama-bot` alone (`make run`): `run` with a token, else local play with the game
    pages on the web (`--web`)."""
    settings = load_settings()
    if settings.token is None:  # no token: local play instead (docs/LOCAL_PLAY.md)
        print("dama-bot: DISCORD_TOKEN is not set, so the bot starts in local mode "
              "(no Discord; `dama-bot run` connects to Discord).", file=sys.stderr)
        return _play_locally(["--web"])  # with its game pages (docs/LOCAL_PLAY.md)
    from bot.app import run

    return run(settings)


def _web(args: argparse.Namespace) -> int:
    """`dama-bot web`: the game pages in a process of their own (`bot.web.process`)."""
    from bot.web.process import run

    return run(load_settings())


def _local(args: argparse.Namespace) -> int:
    return _play_locally(args.local_options)


def _play_locally(options: Sequence[str]) -> int:
    """Run `localplay` with its command-line `options`; status 2 when it is not installed."""
    try:
        from localplay.cli import main as play_locally
    except ModuleNotFoundError as error:
        if error.name not in ("localplay", "standin"):
            raise
        print(f"dama-bot: {LOCAL_ABSENT}.", file=sys.stderr)
        return 2
    return play_locally(options)


def _rows(count: int) -> str:
    """`count` rows in words: "1 row", "0 rows", "1,234 rows"."""
    return f"{count:,} row" if count == 1 else f"{count:,} rows"


def _db(args: argparse.Namespace) -> int:
    """`dama-bot db copy SOURCE TARGET`: `storage.copy.copy_database`, progress on standard
    error, one line per table at the end; status 0 when the copy checked out, 2 (with one
    line saying why) when nothing was copied."""
    import asyncio

    from storage import StorageError
    from storage.copy import BATCH, copy_database

    def progress(table: str, done: int, total: int) -> None:
        if total > BATCH:  # a large table: say how far it is
            print(f"  {table}: {done:,} / {total:,} rows", file=sys.stderr, flush=True)

    try:
        copied = asyncio.run(copy_database(args.source, args.target, progress))
    except StorageError as error:  # its line says what to do (storage.copy)
        print(f"dama-bot: db copy: {error}", file=sys.stderr)
        return 2
    for table in copied:
        print(f"{table.table}: {_rows(table.rows)}, digest {table.digest[:16]} (matches)")
    print(f"copied {_rows(sum(t.rows for t in copied))} in {len(copied)} tables; "
          "point DAMA_DATABASE at the target to use it")
    return 0


COMMANDS: dict[str, tuple[str, Callable[[argparse.Namespace], int]]] = {
    "run": ("connect to Discord with DISCORD_TOKEN and serve the slash commands", _run),
    "web": ("serve the game pages on the web from the bot's database, without Discord "
            "(DAMA_WEB_ADDRESS, default 127.0.0.1:8080; docs/OPERATING.md)", _web),
    "local": ("play in the terminal against a local Discord stand-in (no token needed; "
              "`dama-bot local --help` lists its options)", _local),
    "db": ("database tools: `db copy SOURCE TARGET` copies an SQLite database into an "
           "empty PostgreSQL database and checks the copy", _db),
}

DB_COPY_DESCRIPTION = """\
Copy every table of the SQLite database SOURCE (a path; stop the bot first) into the
PostgreSQL database TARGET (a postgresql:// URL; the database must exist and be empty:
dama-bot creates its tables). The copy is one transaction, checked before it commits:
each table's row count and digest must match the source's. Progress is shown on large
tables. Exit status 0 when the copy checked out, 2 when nothing was copied."""

RUN_DESCRIPTION = """\
Connect to Discord as the bot whose token is DISCORD_TOKEN, register the slash commands
and serve them until stopped (Ctrl-C or SIGTERM). Every setting comes from the environment
or a .env file in the current folder (.env.example lists them all): DISCORD_TOKEN is
required; DAMA_DATABASE is the SQLite file (default data/dama.sqlite3) or a
postgresql:// URL; DAMA_DEV_GUILD a
server id whose commands update at once; DAMA_LOG_LEVEL how much is logged (to standard
error). Exit status 0 after a clean stop, 2 when something must be configured first (no
token, a token Discord rejects, a database the bot cannot use, a bad setting), with one
line saying what to do. Without a token, `dama-bot local` plays in the terminal instead."""

EPILOG = """\
Without a subcommand: `run` when DISCORD_TOKEN is set, else `local` (what `make run`
does)."""

PASSES_OPTIONS_ON = {"local"}
"""Subcommands whose options another package parses (handed over in `local_options`)."""


def parser() -> argparse.ArgumentParser:
    """The parser of `dama-bot`: the subcommands only. A subcommand named in
    `PASSES_OPTIONS_ON` has no options or help of its own here: what follows it is kept
    for its handler (see `main`)."""
    root = argparse.ArgumentParser(
        prog="dama-bot", epilog=EPILOG,
        description="Draughts on Discord: Turkish, Arab, Moroccan and Italian draughts by "
                    "slash commands, with board pictures and Glicko-2 ratings.")
    sub = root.add_subparsers(dest="command")
    for name, (help_text, _) in COMMANDS.items():
        command = sub.add_parser(name, help=help_text, add_help=name not in PASSES_OPTIONS_ON,
                                 description=RUN_DESCRIPTION if name == "run" else help_text,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
        if name == "db":
            tools = command.add_subparsers(dest="tool", required=True)
            copy = tools.add_parser("copy", help="copy an SQLite database into PostgreSQL",
                                    description=DB_COPY_DESCRIPTION,
                                    formatter_class=argparse.RawDescriptionHelpFormatter)
            copy.add_argument("source", metavar="SOURCE", help="the SQLite file")
            copy.add_argument("target", metavar="TARGET", help="a postgresql:// URL")
    return root


def main(argv: Sequence[str] | None = None) -> int:
    """Parse `argv` (default: the command line) and run the subcommand (none: `run` with a
    token, else local play); returns the exit status. Options after `local` go to local
    play unread; anywhere else an unknown argument is an error (status 2, with the usage).
    A bad setting gives a one-line message and status 2."""
    root = parser()
    args, rest = root.parse_known_args(argv)
    command = args.command
    if rest and command not in PASSES_OPTIONS_ON:
        root.error(f"unrecognized arguments: {' '.join(rest)}")
    args.local_options = rest
    handler = _default if command is None else COMMANDS[command][1]
    try:
        return handler(args)
    except ConfigError as error:
        print(f"dama-bot: {error}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
