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

    settings = load_settings()
    if settings.token is None:  # no token: the local play mode instead (issue 6)
        return _local_without_token()
    return run(settings)


# --- local play mode (issue 6, localplay) ------------------------------------------------
def _local(args: argparse.Namespace) -> int:
    from localplay.cli import run as run_local

    return run_local(args)


def _local_without_token() -> int:
    print("dama-bot: DISCORD_TOKEN is not set, so the bot starts in local mode (no Discord).",
          file=sys.stderr)
    return _local(parser().parse_args(["local"]))
# -------------------------------------------------------------------------------------------


COMMANDS: dict[str, tuple[str, Callable[[argparse.Namespace], int]]] = {
    "run": ("connect to Discord with DISCORD_TOKEN and serve the slash commands", _run),
    "local": ("play in the terminal against a local Discord stand-in (no token needed)",
              _local),
}


def parser() -> argparse.ArgumentParser:
    root = argparse.ArgumentParser(prog="dama-bot", description="Draughts on Discord.")
    sub = root.add_subparsers(dest="command")
    for name, (help_text, _) in COMMANDS.items():
        sub.add_parser(name, help=help_text)
    from localplay.options import add_arguments  # the local mode's options (issue 6)

    add_arguments(sub.choices["local"])
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
