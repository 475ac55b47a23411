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
(tests must restore them). The parsing of the setting is `bot.endpoint` (no discord.py).
"""

from __future__ import annotations

import os
from collections.abc import Iterator, Mapping
from contextlib import contextmanager

import discord.gateway
import discord.http

from bot.endpoint import (
    API_PATH,
    DISCORD_GATEWAY,
    DISCORD_REST_BASE,
    ENV_NAME,
    GATEWAY_PATH,
    Endpoint,
    endpoint_for,
)

__all__ = [
    "API_PATH",
    "DISCORD_GATEWAY",
    "DISCORD_REST_BASE",
    "ENV_NAME",
    "GATEWAY_PATH",
    "Endpoint",
    "apply_discord_url",
    "apply_from_environment",
    "current_endpoint",
    "discord_url",
    "endpoint_for",
    "restore_endpoint",
]

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
