"""`DAMA_DISCORD_URL` -> discord.py's REST base and gateway address, and restoring them."""

from __future__ import annotations

import discord.gateway
import discord.http
import pytest
import yarl

from bot.discord_endpoint import (
    DISCORD_GATEWAY,
    DISCORD_REST_BASE,
    apply_discord_url,
    apply_from_environment,
    current_endpoint,
    discord_url,
    endpoint_for,
    restore_endpoint,
)


def test_addresses_derived_from_the_setting() -> None:
    local = endpoint_for("http://127.0.0.1:8765")
    assert local.rest_base == "http://127.0.0.1:8765/api/v10"
    assert local.gateway == yarl.URL("ws://127.0.0.1:8765/gateway")
    assert endpoint_for(" http://localhost:9000/ ").rest_base == "http://localhost:9000/api/v10"
    secure = endpoint_for("https://standin.example:443")
    assert str(secure.gateway) == "wss://standin.example/gateway"
    for empty in (None, "", "   "):
        real = endpoint_for(empty)
        assert real.is_discord
        assert (real.rest_base, real.gateway) == (DISCORD_REST_BASE, DISCORD_GATEWAY)


def test_library_defaults_are_discord() -> None:
    # The constants above must be discord.py's own defaults.
    assert current_endpoint().is_discord
    assert discord.http.Route.BASE == DISCORD_REST_BASE


@pytest.mark.parametrize("bad", ["127.0.0.1:8765", "ftp://host", "http://host/api", "http://"])
def test_malformed_settings_say_what_to_write(bad: str) -> None:
    with pytest.raises(ValueError, match="DAMA_DISCORD_URL"):
        endpoint_for(bad)


def test_apply_and_restore() -> None:
    previous = apply_discord_url("http://127.0.0.1:1234")
    try:
        assert previous.is_discord
        route = discord.http.Route("GET", "/channels/{channel_id}", channel_id=5)
        assert route.url == "http://127.0.0.1:1234/api/v10/channels/5"
        gateway = discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY
        assert gateway == yarl.URL("ws://127.0.0.1:1234/gateway")
    finally:
        restore_endpoint(previous)
    assert current_endpoint().is_discord


def test_context_manager_restores_after_errors() -> None:
    with pytest.raises(RuntimeError), discord_url("http://127.0.0.1:1"):
        assert not current_endpoint().is_discord
        raise RuntimeError("boom")
    assert current_endpoint().is_discord


def test_from_environment() -> None:
    previous = apply_from_environment({"DAMA_DISCORD_URL": "http://127.0.0.1:7"})
    try:
        assert current_endpoint().rest_base == "http://127.0.0.1:7/api/v10"
    finally:
        restore_endpoint(previous)
    unchanged = apply_from_environment({})
    assert current_endpoint().is_discord and unchanged.is_discord
