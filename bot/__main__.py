"""`python -m bot [run]` (also `dama-bot`): start the Discord bot.

Subcommands are a table of name -> handler; add one (e.g. `local`, the stand-in play
mode) with its parser and handler below. Without a subcommand, `run`.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence

from bot.config import ConfigError, load_settings


def _run(args: argparse.Namespace) -> int:
    from bot.app import run

    return run(load_settings())


COMMANDS: dict[str, tuple[str, Callable[[argparse.Namespace], int]]] = {
    "run": ("connect to Discord with DISCORD_TOKEN and serve the slash commands", _run),
}


def parser() -> argparse.ArgumentParser:
    root = argparse.ArgumentParser(prog="dama-bot", description="Draughts on Discord.")
    sub = root.add_subparsers(dest="command")
    for name, (help_text, _) in COMMANDS.items():
        sub.add_parser(name, help=help_text)
    return root


def main(argv: Sequence[str] | None = None) -> int:
    """Parse `argv` (default: the command line) and run the subcommand; returns the exit
    status. A bad setting gives a one-line message and status 2."""
    args = parser().parse_args(argv)
    _, handler = COMMANDS[args.command or "run"]
    try:
        return handler(args)
    except ConfigError as error:
        print(f"dama-bot: {error}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
