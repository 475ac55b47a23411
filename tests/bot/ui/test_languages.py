"""`bot.ui.languages`: the reader's and the channel's language settled once per
interaction (a real discord.py `Interaction` from a gateway payload, the choices from
`PreferenceService` on a real SQLite file), and the language of posts no interaction asked
for (docs/ARCHITECTURE.md, "Languages")."""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import discord
import pytest

from bot.services.settings import PreferenceService
from bot.ui.languages import CHANNEL, READER, channel_language, guild_language, settle
from storage import Storage
from tests.support.discord_harness import OpenBot, settings_for
from tests.support.fake_discord import GUILD_ID, FakeDiscord
from tests.support.services import ALICE
from tests.support.services import CHANNEL as CHANNEL_ID


class BrokenChoices:
    """Choices whose store fails (the database gone): the languages must still settle."""

    async def player_language(self, user_id: int) -> str | None:
        raise OSError("the database is gone")

    async def guild_language(self, guild_id: int) -> str | None:
        raise OSError("the database is gone")


@pytest.fixture
async def choices(tmp_path: Path) -> AsyncIterator[PreferenceService]:
    storage = await Storage.open(str(tmp_path / "db.sqlite3"))
    try:
        yield PreferenceService(storage.settings)
    finally:
        await storage.close()


def interaction(client: discord.Client, **where: Any) -> discord.Interaction[Any]:
    """A slash command's interaction as discord.py builds it from the gateway payload."""
    payload = FakeDiscord().interaction(2, {"id": "1", "name": "help", "type": 1},
                                        user_id=ALICE, channel_id=CHANNEL_ID, **where)
    return discord.Interaction(data=payload, state=client._connection)  # type: ignore[arg-type]


@pytest.fixture
async def client(tmp_path: Path, open_bot: OpenBot) -> discord.Client:
    """The real bot, logged in to the fake Discord (a guild's interaction needs a user)."""
    return (await open_bot(settings_for(tmp_path / "bot.sqlite3"))).bot


async def test_the_readers_choice_and_the_servers_choice_are_kept(
    client: discord.Client, choices: PreferenceService
) -> None:
    await choices.update_player(ALICE, language="ar")
    await choices.update_guild(GUILD_ID, language="fr")
    arrived = interaction(client, locale="tr", guild_locale="it")
    await settle(arrived, choices)
    assert arrived.extras[READER] == "ar"
    assert arrived.extras[CHANNEL] == "fr"


async def test_without_choices_the_client_and_server_locales_decide(
    client: discord.Client, choices: PreferenceService
) -> None:
    arrived = interaction(client, locale="tr", guild_locale="it")
    await settle(arrived, choices)
    assert (arrived.extras[READER], arrived.extras[CHANNEL]) == ("tr", "it")
    english = interaction(client, locale="en-GB", guild_locale="fr")
    await settle(english, choices)
    assert english.extras[READER] == "fr"  # an English client yields to the server


async def test_outside_a_server_the_posts_for_everyone_are_in_the_readers_language(
    client: discord.Client, choices: PreferenceService
) -> None:
    await choices.update_guild(GUILD_ID, language="fr")
    private = interaction(client, guild_id=None, locale="it")
    await settle(private, choices)
    assert (private.extras[READER], private.extras[CHANNEL]) == ("it", "it")
    await choices.update_player(ALICE, language="tr")
    chosen = interaction(client, guild_id=None, locale="it")
    await settle(chosen, choices)
    assert (chosen.extras[READER], chosen.extras[CHANNEL]) == ("tr", "tr")


async def test_a_failing_store_is_logged_and_the_locales_still_apply(
    client: discord.Client, caplog: pytest.LogCaptureFixture
) -> None:
    arrived = interaction(client, locale="fr", guild_locale="tr")
    with caplog.at_level(logging.ERROR, logger="bot.ui.languages"):
        await settle(arrived, BrokenChoices())
    assert (arrived.extras[READER], arrived.extras[CHANNEL]) == ("fr", "tr")
    assert "reading the language choices" in caplog.text


async def test_a_post_to_a_channel_the_client_does_not_know_is_in_english(
    client: discord.Client, choices: PreferenceService
) -> None:
    await choices.update_guild(GUILD_ID, language="ar")
    # Not cached, so its server (and the server's choice) is unknown.
    assert await channel_language(client, choices, CHANNEL_ID) == "en"


async def test_a_post_to_a_server_is_in_its_choice(
    client: discord.Client, choices: PreferenceService
) -> None:
    assert await guild_language(client, choices, GUILD_ID) == "en"
    await choices.update_guild(GUILD_ID, language="it")
    assert await guild_language(client, choices, GUILD_ID) == "it"
    assert await guild_language(client, BrokenChoices(), GUILD_ID) == "en"
    assert await guild_language(client, None, GUILD_ID) == "en"
