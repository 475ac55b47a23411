"""Point discord.py at Discord or at the local stand-in, from one setting: `DAMA_DISCORD_URL`.

discord.py builds every REST address from the class attribute `discord.http.Route.BASE`
(webhook and interaction routes included) and connects an unsharded client to the class
attribute `discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY`. Given the stand-in's address,
e.g. `http://127.0.0.1:8765`, `apply_discord_url` sets

- REST base: `http://127.0.0.1:8765/api/v10`
- gateway:   `ws://127.0.0.1:8765/gateway` (`wss://` when the address is `https://`)

An empty or missing setting means real Discord (the library's own defaults). Nothing else
in the bot differs between the stand-in and Discord. Both attributes are process-wide, so
`apply_discord_url` returns the previous values and `restore_endpoint` puts them back
(tests must restore them).
"""

from __future__ import annotations

import os
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass

import discord.gateway
import discord.http
import yarl

ENV_NAME = "DAMA_DISCORD_URL"
API_PATH = "/api/v10"
GATEWAY_PATH = "/gateway"
DISCORD_REST_BASE = "https://discord.com/api/v10"
DISCORD_GATEWAY = yarl.URL("wss://gateway.discord.gg/")


@dataclass(frozen=True)
class Endpoint:
    """Where discord.py sends REST calls (`rest_base`) and opens the gateway (`gateway`)."""

    rest_base: str
    gateway: yarl.URL

    @property
    def is_discord(self) -> bool:
        """True when these are Discord's own addresses."""
        return self.rest_base == DISCORD_REST_BASE and self.gateway == DISCORD_GATEWAY


def endpoint_for(url: str | None) -> Endpoint:
    """The REST base and gateway address for a `DAMA_DISCORD_URL` value.

    `url` is `http(s)://host[:port]` with no path (a trailing slash is allowed); empty or
    None means real Discord. Raises `ValueError` with a message saying what to write when
    the value is not such an address.
    """
    text = (url or "").strip()
    if not text:
        return Endpoint(DISCORD_REST_BASE, DISCORD_GATEWAY)
    parsed = yarl.URL(text)
    if parsed.scheme not in ("http", "https") or not parsed.host:
        raise ValueError(
            f"{ENV_NAME}={text!r} is not an address like http://127.0.0.1:8765; "
            "set it to the local Discord stand-in's address, or leave it empty for Discord"
        )
    if parsed.path not in ("", "/") or parsed.query_string or parsed.fragment:
        raise ValueError(
            f"{ENV_NAME}={text!r} must be only scheme, host and port "
            "(e.g. http://127.0.0.1:8765), without a path"
        )
    origin = parsed.origin()
    ws_scheme = "wss" if parsed.scheme == "https" else "ws"
    gateway = origin.with_scheme(ws_scheme).with_path(GATEWAY_PATH)
    return Endpoint(str(origin) + API_PATH, gateway)


def current_endpoint() -> Endpoint:
    """The addresses discord.py uses right now."""
    return Endpoint(discord.http.Route.BASE, discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY)


def restore_endpoint(endpoint: Endpoint) -> None:
    """Set discord.py's REST base and gateway to `endpoint` (e.g. one returned before)."""
    discord.http.Route.BASE = endpoint.rest_base
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = endpoint.gateway


def apply_discord_url(url: str | None) -> Endpoint:
    """Point discord.py at `url` (see `endpoint_for`); returns the previous `Endpoint`.

    Call before the client logs in. Raises `ValueError` for a malformed address.
    """
    target = endpoint_for(url)
    previous = current_endpoint()
    restore_endpoint(target)
    return previous


def apply_from_environment(environ: Mapping[str, str] | None = None) -> Endpoint:
    """`apply_discord_url` with the value of `DAMA_DISCORD_URL` (os.environ by default)."""
    env = os.environ if environ is None else environ
    return apply_discord_url(env.get(ENV_NAME))


@contextmanager
def discord_url(url: str | None) -> Iterator[Endpoint]:
    """Within the block discord.py talks to `url`; afterwards the previous addresses return.

    Yields the endpoint in force inside the block.
    """
    previous = apply_discord_url(url)
    try:
        yield current_endpoint()
    finally:
        restore_endpoint(previous)
