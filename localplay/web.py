"""The game pages in local play (`--web`, docs/LOCAL_PLAY.md): where the bot serves them,
given to its process as `DAMA_WEB_ADDRESS`."""

from __future__ import annotations

import socket

from localplay.options import DEFAULT_WEB


class WebAddressError(ValueError):
    """`--web` names no host:port."""


def split_address(text: str) -> tuple[str, int]:
    """`host:port` or a port (host 127.0.0.1) -> (host, port). Raises `WebAddressError`."""
    host, _, port = text.strip().rpartition(":")
    if not (port.isascii() and port.isdigit()) or not 0 < int(port) < 65536:
        raise WebAddressError(f"--web {text!r}: write HOST:PORT, e.g. {DEFAULT_WEB}")
    return host.strip("[]") or "127.0.0.1", int(port)


def _free(host: str, port: int) -> bool:
    with socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET) as probe:
        try:
            probe.bind((host, port))
        except OSError:
            return False
    return True


def serving_address(text: str) -> str:
    """Where the pages are served for `--web text`: that address, or for the default
    address when it is taken another free port on its host. Raises `WebAddressError`."""
    host, port = split_address(text)
    if text == DEFAULT_WEB and not _free(host, port):
        with socket.socket() as probe:
            probe.bind((host, 0))
            port = probe.getsockname()[1]
    return f"[{host}]:{port}" if ":" in host else f"{host}:{port}"


def web_env(address: str | None) -> dict[str, str]:
    """The bot process's settings for the pages at `address` (None: none)."""
    return {} if address is None else {"DAMA_WEB_ADDRESS": address}


__all__ = ["WebAddressError", "serving_address", "split_address", "web_env"]
