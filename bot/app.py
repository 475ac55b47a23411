"""Running the bot: settings, logging (secrets redacted), endpoint, login; one-line errors
for the operator.

`run(settings)` returns a process exit status: 0 after a clean stop, 2 when something
must be configured (no token, a token Discord rejects, a database it cannot use), with a
one-line explanation on standard error instead of a traceback.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import signal
import sys

import aiohttp
import discord

from bot.client import DamaBot, share_the_interpreter
from bot.config import Config, log_level_number
from bot.discord_endpoint import apply_discord_url
from bot.faults import FaultSpecError, arm_from_environment
from bot.log_redaction import install_redaction
from storage import StorageError, database_secrets
from storage.clock import Clock, utc_now

log = logging.getLogger(__name__)

NO_TOKEN = (
    "dama-bot: DISCORD_TOKEN is not set. Put your bot token in .env (copy .env.example) or "
    "the environment; get one at https://discord.com/developers/applications (Bot > Reset Token). "
    "To play without Discord: `dama-bot local` (or `make run`)."
)
BAD_TOKEN = (
    "dama-bot: Discord rejected DISCORD_TOKEN. Copy the token again from the developer portal "
    "(Bot > Reset Token) into .env; it is the long token, not the application id or secret."
)
NO_CONNECTION = (
    "dama-bot: cannot connect to Discord at {host}:{port}. Check the network connection "
    "(and DAMA_DISCORD_URL, which must be empty unless you use the local stand-in)."
)
SHARDING_REQUIRED_CODE = 4011
INVALID_SHARD_CODE = 4010
SHARDING_REQUIRED = (
    "dama-bot: Discord requires more shards (close code 4011: a shard would handle more "
    "than 2,500 servers). Leave DAMA_SHARD_COUNT empty to use the count Discord "
    "recommends, or raise it on every process (docs/OPERATING.md, \"Running at scale\")."
)
INVALID_SHARD = (
    "dama-bot: Discord refused the shard (close code 4010): DAMA_SHARD_IDS must name shards "
    "below DAMA_SHARD_COUNT, the same count on every process."
)
MISSING_INTENTS = (
    "dama-bot: Discord refused the gateway intents; the bot needs only the Guilds intent, "
    "which needs no approval. Check the application's Bot settings."
)


INVITE_PERMISSIONS = discord.Permissions(
    view_channel=True,  # see the channels it answers in (and receive their events)
    send_messages=True,  # post on its own: the board after Accept, the computer's moves,
    #                      a move made for an absent player, a game lost on time
    send_messages_in_threads=True,  # the same in threads
    create_public_threads=True,  # a tournament's thread, and one for each of its games
    embed_links=True,  # its posts carry an embed (the game card, the challenge)
    attach_files=True,  # its posts carry the board picture
    read_message_history=True,  # after a crash, find its own board (or draw offer) that
    #                             Discord got but whose id was lost, not post it twice
)
"""The permissions the bot is invited with (docs/OPERATING.md, "Invite and run"): what its
own posts in a channel need, and the threads of tournaments. Its answers to slash commands
and buttons go through the interaction, which needs none of them. It reads only its own
messages: Read Message History lets it look, after a crash, for a board it posted but
could not record (`GameAnnouncer.announce_owed`); without it that board may be posted
twice. It uses no voice."""


def invite_url(application_id: int) -> str:
    """The URL that adds the bot to a server: scopes `bot` and `applications.commands`,
    with `INVITE_PERMISSIONS` (Discord's OAuth2 URL, `discord.utils.oauth_url`)."""
    return discord.utils.oauth_url(
        application_id, permissions=INVITE_PERMISSIONS,
        scopes=("bot", "applications.commands"),
    )


def install_url(application_id: int) -> str:
    """The URL that installs the bot to a player's own Discord account (a user install,
    Discord's `integration_type=1`, scope `applications.commands` only: a user install
    has no bot member and no permissions), so its commands follow the player into direct
    messages, group chats and servers that did not add it (docs/OPERATING.md, "Invite
    and run"; docs/ARCHITECTURE.md, "Places"). discord.py's `oauth_url` has no
    integration type, hence written here, in the form of Discord's OAuth2 documentation."""
    return ("https://discord.com/oauth2/authorize?client_id="
            f"{application_id}&integration_type=1&scope=applications.commands")


def silence_voice_warnings() -> None:
    """Stop discord.py's warnings that voice is not supported ("PyNaCl is not installed,
    voice will NOT be supported", "davey is not installed, ..."), logged when a client is
    made without those voice libraries: the bot never joins a voice channel. discord.py
    warns only while the class attributes `VoiceClient.warn_nacl` and
    `VoiceClient.warn_dave` are true (`discord.Client.__init__`)."""
    discord.VoiceClient.warn_nacl = False
    discord.VoiceClient.warn_dave = False


def fail(message: str) -> int:
    print(message, file=sys.stderr)
    return 2


async def _run(settings: Config, clock: Clock) -> None:
    assert settings.token is not None
    async with DamaBot(settings, mention_commands=True, clock=clock) as bot:
        # SIGTERM (docker stop, systemd) closes the bot cleanly: deadlines and the computer
        # player's worker processes are stopped, the database is closed.
        loop = asyncio.get_running_loop()
        with contextlib.suppress(NotImplementedError):
            loop.add_signal_handler(signal.SIGTERM, lambda: loop.create_task(bot.close()))
        # `start` is these two steps; between them the application id is known.
        await bot.login(settings.token)
        if bot.application_id is not None:
            log.info("invite the bot to a server with %s", invite_url(bot.application_id))
            log.info("install the bot to your own account with %s",
                     install_url(bot.application_id))
        await bot.connect()


def run(settings: Config, *, clock: Clock = utc_now) -> int:
    """Run the bot until it is stopped; returns the exit status. `clock`: the bot's time
    (local play passes one it can move on: `localplay.clock`)."""
    if settings.token is None:
        return fail(NO_TOKEN)
    # One handler for every logger, with the secrets filter (bot/log_redaction.py): at
    # DEBUG discord.py logs interaction tokens, webhook URLs and gateway payloads.
    handler = logging.StreamHandler()
    install_redaction(handler, [settings.token, *database_secrets(settings.database)])
    discord.utils.setup_logging(handler=handler, level=log_level_number(settings))
    silence_voice_warnings()
    apply_discord_url(settings.discord_url)
    share_the_interpreter()
    try:
        arm_from_environment()  # DAMA_FAULT_POINT: the crash-point tests only (bot/faults.py)
    except FaultSpecError as error:
        return fail(f"dama-bot: {error}")
    try:
        asyncio.run(_run(settings, clock))
    except discord.LoginFailure:
        return fail(BAD_TOKEN)
    except discord.PrivilegedIntentsRequired:
        return fail(MISSING_INTENTS)
    except discord.ConnectionClosed as error:
        if error.code == SHARDING_REQUIRED_CODE:
            return fail(SHARDING_REQUIRED)
        if error.code == INVALID_SHARD_CODE:
            return fail(INVALID_SHARD)
        raise
    except StorageError as error:
        return fail(f"dama-bot: {error}")
    except aiohttp.ClientConnectorError as error:
        return fail(NO_CONNECTION.format(host=error.host, port=error.port))
    except KeyboardInterrupt:
        log.info("stopped")
    return 0
