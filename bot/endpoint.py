"""The addresses of Discord's REST API and gateway for a `DAMA_DISCORD_URL` value: real
Discord (empty), or the local stand-in at `http(s)://host[:port]`. Pure parsing, no
discord.py: the settings check the value with it (`bot.config`), and
`bot.discord_endpoint` applies the result to discord.py.
"""

from __future__ import annotations

from dataclasses import dataclass

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
