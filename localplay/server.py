"""`LocalDiscord`: the stand-in with one fake server, and the real bot process logged in to it.

    async with LocalDiscord(database="data/local.sqlite3", log_path="data/local-bot.log") as local:
        result = await local.standin.slash("alice", local.channel, "rules", {})

`start()` starts the stand-in, creates the server (`guild_name`, text channels `channels`),
starts the bot and waits until it is connected and has registered its slash commands;
`restart_bot(kill=True)` SIGKILLs it and starts it again on the same database.
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import Mapping, Sequence
from types import TracebackType

from localplay.process import BotProcess, BotProcessError
from standin import BotDidNotAnswer, ChannelInfo, GuildInfo, StandIn
from standin.model import DEFAULT_BOT_PERMISSIONS

#: The slash commands the bot must have registered before anyone types (README, "The bot").
EXPECTED_COMMANDS = ("challenge", "move", "board", "resign", "draw", "abort", "rating",
                     "leaderboard", "history", "export", "rules", "help", "rematch")
DEFAULT_GUILD = "Dama Club"
LOCAL_ID_SEED = "dama-bot local play"
"""The seed of the local mode's stand-in ids: users, the server and its channels get the
same ids in every run (`standin.snowflakes.SnowflakeFactory.named`), so the bot's database of an
earlier run finds them again and an unfinished game goes on."""
DEFAULT_CHANNELS = ("general", "games")


class LocalDiscord:
    """A stand-in Discord and the bot process; see the module docstring.

    `ready_timeout`: seconds the bot has to connect and register its commands after each
    start (generous: a loaded machine imports slowly). `ack_deadline`: the stand-in's
    3-second interaction deadline (None: no deadline). `env`: extra bot settings.
    `id_seed`: ids of users, server and channels derived from it and their names, the same
    in every run (`LOCAL_ID_SEED`; None: new ids each time). `bot_permissions`: what the
    bot's role may do in the server (None: the stand-in's default). `locale`: the server's
    preferred locale (`--locale`: a server of players of that language).
    """

    def __init__(
        self,
        *,
        database: str | os.PathLike[str],
        log_path: str | os.PathLike[str],
        guild_name: str = DEFAULT_GUILD,
        channels: Sequence[str] = DEFAULT_CHANNELS,
        env: Mapping[str, str] | None = None,
        ready_timeout: float = 60.0,
        ack_deadline: float | None = 3.0,
        id_seed: str | None = None,
        bot_permissions: int | None = None,
        locale: str = "en-US",
    ) -> None:
        self.locale = locale
        self.standin = StandIn(
            ack_deadline=ack_deadline, id_seed=id_seed,
            bot_permissions=(int(DEFAULT_BOT_PERMISSIONS) if bot_permissions is None
                             else bot_permissions),
        )
        self.guild_name = guild_name
        self.channel_names = tuple(channels)
        self.ready_timeout = ready_timeout
        self.process = BotProcess(
            url="", token=self.standin.token, database=database, log_path=log_path, env=env
        )
        self.guild: GuildInfo | None = None
        self.channels: dict[str, ChannelInfo] = {}

    @property
    def channel(self) -> ChannelInfo:
        """The first text channel."""
        return self.channels[self.channel_names[0]]

    async def start(self) -> None:
        """Start the stand-in, the fake server and the bot; wait until the bot is ready.

        Raises `BotProcessError` (with the bot's log) when the bot exits or does not get
        ready within `ready_timeout` seconds.
        """
        await self.standin.start()
        self.process.url = self.standin.url
        self.guild = await self.standin.add_guild(self.guild_name, channels=self.channel_names,
                                                  locale=self.locale)
        for name in self.channel_names:
            self.channels[name] = self.standin.channel(name)
        await self.start_bot()

    async def start_bot(self) -> None:
        """Start the bot process and wait until it has identified and registered commands."""
        await self.process.start()
        await self.wait_ready(identifies=self.standin.identify_count + 1)

    async def wait_ready(self, *, identifies: int) -> None:
        """Wait for the gateway session and the commands, watching the process meanwhile."""

        async def ready() -> None:
            await self.standin.wait_until_connected(self.ready_timeout, identifies=identifies)
            await self.standin.wait_for_commands(EXPECTED_COMMANDS, timeout=self.ready_timeout)

        task = asyncio.create_task(ready())
        try:
            while not task.done():
                await asyncio.wait({task}, timeout=0.2)
                if not task.done() and not self.process.running:
                    task.cancel()
                    self.process.check_alive()
            task.result()
        except BotDidNotAnswer as error:
            raise BotProcessError(self.process.explain(str(error))) from None
        finally:
            if not task.done():
                task.cancel()

    async def restart_bot(self, *, kill: bool = True) -> None:
        """Kill (SIGKILL) or stop (SIGTERM) the bot, start it again, wait until ready."""
        if kill:
            await self.process.kill()
        else:
            await self.process.stop()
        await self.start_bot()

    async def stop(self) -> None:
        """Stop the bot (SIGTERM, then SIGKILL) and the stand-in."""
        try:
            await self.process.stop()
        finally:
            await self.standin.stop()

    async def __aenter__(self) -> LocalDiscord:
        try:
            await self.start()
        except BaseException:
            await self.stop()
            raise
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        await self.stop()
