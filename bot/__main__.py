"""`python -m bot [run | local ...]` (also `dama-bot`): start the Discord bot.

Subcommands are a table of name -> handler. Without a subcommand, `run`. `local` (play in
the terminal against a Discord stand-in) belongs to the separate `localplay` package: its
options are parsed there, and it is imported only when local play starts (the `local`
subcommand, or `run` without a token), so the bot runs where `localplay` and `standin`
are not installed.
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
    from bot.app import run

    settings = load_settings()
    if settings.token is None:  # no token: local play instead (README, "Local play")
        print("dama-bot: DISCORD_TOKEN is not set, so the bot starts in local mode "
              "(no Discord).", file=sys.stderr)
        return _play_locally([])
    return run(settings)


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


COMMANDS: dict[str, tuple[str, Callable[[argparse.Namespace], int]]] = {
    "run": ("connect to Discord with DISCORD_TOKEN and serve the slash commands", _run),
    "local": ("play in the terminal against a local Discord stand-in (no token needed; "
              "`dama-bot local --help` lists its options)", _local),
}

PASSES_OPTIONS_ON = {"local"}
"""Subcommands whose options another package parses (handed over in `local_options`)."""


def parser() -> argparse.ArgumentParser:
    """The parser of `dama-bot`: the subcommands only. A subcommand named in
    `PASSES_OPTIONS_ON` has no options or help of its own here: what follows it is kept
    for its handler (see `main`)."""
    root = argparse.ArgumentParser(prog="dama-bot", description="Draughts on Discord.")
    sub = root.add_subparsers(dest="command")
    for name, (help_text, _) in COMMANDS.items():
        sub.add_parser(name, help=help_text, add_help=name not in PASSES_OPTIONS_ON)
    return root


def main(argv: Sequence[str] | None = None) -> int:
    """Parse `argv` (default: the command line) and run the subcommand; returns the exit
    status. Options after `local` go to local play unread; anywhere else an unknown
    argument is an error (status 2, with the usage). A bad setting gives a one-line
    message and status 2."""
    root = parser()
    args, rest = root.parse_known_args(argv)
    command = args.command or "run"
    if rest and command not in PASSES_OPTIONS_ON:
        root.error(f"unrecognized arguments: {' '.join(rest)}")
    args.local_options = rest
    _, handler = COMMANDS[command]
    try:
        return handler(args)
    except ConfigError as error:
        print(f"dama-bot: {error}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
