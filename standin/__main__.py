"""`python -m standin --port 8765`: run the Discord stand-in until Ctrl-C.

It creates one server with text channels and prints where a bot must connect (REST base,
gateway, token; for dama-bot the settings `DAMA_DISCORD_URL` and `DISCORD_TOKEN`), then
logs every message the bot posts, edits or deletes.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import signal
import sys
from collections.abc import Sequence

from .records import MessageEvent
from .standin import StandIn


def parse_args(argv: Sequence[str] | None = None) -> argparse.Namespace:
    """Command-line options (see `--help`)."""
    parser = argparse.ArgumentParser(
        prog="python -m standin",
        description="Serve a local Discord stand-in (REST + gateway) for a discord.py bot.",
    )
    parser.add_argument("--host", default="127.0.0.1", help="address to listen on")
    parser.add_argument("--port", type=int, default=8765, help="TCP port (0: any free port)")
    parser.add_argument("--token", default="standin-token", help="bot token it accepts")
    parser.add_argument("--guild", default="Dama Club", help="name of the fake server")
    parser.add_argument("--channels", default="general,games", help="comma-separated text channels")
    parser.add_argument("--shards", type=int, default=None, metavar="N",
                        help="the shard count GET /gateway/bot recommends (default: one per "
                             "1,000 servers)")
    parser.add_argument(
        "--no-deadline",
        action="store_true",
        help="do not fail interactions the bot leaves unanswered for 3 s",
    )
    return parser.parse_args(argv)


def _print_event(event: MessageEvent) -> None:
    msg = event.message
    who = "ephemeral " if msg.ephemeral else ""
    text = msg.text().replace("\n", " | ")[:200]
    files = ", ".join(a.filename for a in msg.attachments)
    extra = f" [{files}]" if files else ""
    print(f"{event.kind.value:6} {who}message {msg.id} in {msg.channel_id}: {text}{extra}")


async def serve(args: argparse.Namespace) -> None:
    """Run the stand-in until the process is interrupted."""
    standin = StandIn(
        token=args.token,
        host=args.host,
        port=args.port,
        ack_deadline=None if args.no_deadline else 3.0,
        recommended_shards=args.shards,
    )
    await standin.start()
    try:
        channels = [c.strip() for c in args.channels.split(",") if c.strip()]
        guild = await standin.add_guild(args.guild, channels=channels or ["general"])
        standin.add_listener(_print_event)
        print(f"Discord stand-in at {standin.url} (server {guild.name!r}, id {guild.id})")
        print(f"REST base {standin.rest_base}, gateway {standin.gateway_url}, "
              f"bot token {standin.token}")
        print("Start dama-bot against it with:")
        print(f"  DAMA_DISCORD_URL={standin.url} DISCORD_TOKEN={standin.token} make run")
        print("Ctrl-C stops it.", flush=True)
        stop = asyncio.Event()
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGINT, signal.SIGTERM):
            with contextlib.suppress(NotImplementedError):
                loop.add_signal_handler(sig, stop.set)
        await stop.wait()
    finally:
        await standin.stop()


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point; returns the exit status (2 when the port is taken)."""
    args = parse_args(argv)
    try:
        asyncio.run(serve(args))
    except OSError as exc:
        print(
            f"cannot listen on {args.host}:{args.port}: {exc.strerror}; choose another --port",
            file=sys.stderr,
        )
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
