"""The options of `dama-bot local` and their defaults (docs/LOCAL_PLAY.md)."""

from __future__ import annotations

import argparse

from engine import VARIANTS
from standin.validation import LOCALES

DEFAULT_DATABASE = "data/local.sqlite3"
DEFAULT_REPLAY_DATABASE = "data/replay.sqlite3"
DEFAULT_LOG = "data/local-bot.log"
DEFAULT_BOARDS = "local-boards"
DEFAULT_WEB = "127.0.0.1:8080"
"""Where `--web` without an address serves the game pages (another free port if taken)."""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The options of `dama-bot local`."""
    parser.add_argument("--script", metavar="FILE",
                        help="run the commands in FILE (one per line) instead of reading the "
                             "terminal")
    parser.add_argument("--replay", metavar="FILE.pdn",
                        help="replay every game of a PDN file through the bot")
    parser.add_argument("--variant", help="the variant of the PDN games when the file does not "
                        f"say ({', '.join(VARIANTS)})")
    parser.add_argument("--parallel", type=int, default=1, metavar="N",
                        help="with --replay: games replayed at the same time (default 1)")
    parser.add_argument("--database", help=f"the bot's database (default {DEFAULT_DATABASE}; "
                        f"{DEFAULT_REPLAY_DATABASE}, emptied first, with --replay), or a "
                        "postgresql:// URL of a PostgreSQL server you run")
    parser.add_argument("--shards", type=int, default=1, metavar="N",
                        help="run N bot processes, one per shard (default 1); more than one "
                             "needs --database postgresql://...")
    parser.add_argument("--fresh", action="store_true",
                        help="start from an empty database (the old one is deleted)")
    parser.add_argument("--boards", default=DEFAULT_BOARDS, metavar="DIR",
                        help=f"folder for the board pictures (default {DEFAULT_BOARDS})")
    parser.add_argument("--log", default=DEFAULT_LOG, help=f"the bot's log (default {DEFAULT_LOG})")
    parser.add_argument("--web", nargs="?", const=DEFAULT_WEB, metavar="HOST:PORT",
                        help="serve the game pages on the web beside the bot, at HOST:PORT "
                             f"(default {DEFAULT_WEB}, or a free port if it is taken; "
                             "`make run` turns it on): each board gets a Game page link")
    parser.add_argument("--user", default="alice", help="who you are at first (default alice)")
    parser.add_argument("--locale", default="en-US", choices=sorted(LOCALES), metavar="LOCALE",
                        help="the Discord client locale of the users you type as, and the "
                             "local server's preferred locale (default en-US; tr, it, fr show "
                             "the commands in Turkish, Italian, French, and the bot answers "
                             "and posts in that language). Command and "
                             "option names may be typed as that client shows them or in "
                             "English. Arabic has no Discord locale: choose it with "
                             "/settings language:ar")
