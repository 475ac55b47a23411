"""`LocalDiscord`: the stand-in with one fake server, and the real bot process logged in to it.

    async with LocalDiscord(database="data/local.sqlite3", log_path="data/local-bot.log") as local:
        result = await local.standin.slash("alice", local.channel, "rules", {})

`start()` starts the stand-in, creates the server (`guild_name`, text channels `channels`)
(its id on `guild_shard` when given) and any `extra_guilds` (the local mode adds
`ANNEX_GUILD`, on the other shard of two),
starts the bot and waits until it is connected and has registered its slash commands;
`restart_bot(kill=True)` SIGKILLs it and starts it again on the same database.

With `shards=N` (N > 1) it runs N bot processes, one per shard (`DAMA_SHARD_COUNT=N`,
`DAMA_SHARD_IDS=i`, `DAMA_MACHINE_PROCESSES=N`), all on one database (a PostgreSQL URL:
SQLite is for one process): `processes[i]` runs shard i, `process` is shard 0's, which
registers the commands. `restart_bot(shard=i)` restarts one of them.
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import Mapping, Sequence
from pathlib import Path
from types import TracebackType

from localplay.process import BotProcess, BotProcessError
from standin import BotDidNotAnswer, ChannelInfo, GuildInfo, StandIn
from standin.model import DEFAULT_BOT_PERMISSIONS

#: The slash commands the bot must have registered before anyone types (README.md,
#: "Commands").
EXPECTED_COMMANDS = ("challenge", "move", "board", "resign", "draw", "abort", "rating",
                     "leaderboard", "history", "export", "rules", "help", "rematch")
DEFAULT_GUILD = "Dama Club"
LOCAL_ID_SEED = "dama-bot local play"
"""The seed of the local mode's stand-in ids: users, the server and its channels get the
same ids in every run (`standin.snowflakes.SnowflakeFactory.named`), so the bot's database of an
earlier run finds them again and an unfinished game goes on."""
DEFAULT_CHANNELS = ("general", "games")
ANNEX_GUILD = ("Dama Annex", ("lobby", "tables"), (0, 2))
"""The local mode's second server: name, channels (named apart from the first server's,
so a bare `in CHANNEL` stays unambiguous) and the shard its id falls on: 0 of 2, since
"Dama Club"'s id from `LOCAL_ID_SEED` falls on shard 1 of 2 (the local play test checks)."""
GuildSpec = tuple[str, Sequence[str], tuple[int, int] | None]
"""A server to create: name, text channels, and (shard id, shard count) for its id."""


def shard_log_path(log_path: str | os.PathLike[str], shard: int) -> Path:
    """Shard 0 logs to `log_path`; shard i to `NAME-shard<i>.EXT` beside it."""
    path = Path(log_path)
    return path if shard == 0 else path.with_name(f"{path.stem}-shard{shard}{path.suffix}")


class LocalDiscord:
    """A stand-in Discord and the bot process; see the module docstring.

    `ready_timeout`: seconds the bot has to connect and register its commands after each
    start (generous: a loaded machine imports slowly). `ack_deadline`: the stand-in's
    3-second interaction deadline (None: no deadline). `env`: extra bot settings.
    `id_seed`: ids of users, server and channels derived from it and their names, the same
    in every run (`LOCAL_ID_SEED`; None: new ids each time). `bot_permissions`: what the
    bot's role may do in the server (None: the stand-in's default). `locale`: the server's
    preferred locale (`--locale`: a server of players of that language). `movable_clock`:
    the bot processes' clock moves on with `later` (`localplay.clock`); False runs
    `python -m bot run` itself, on the real time.
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
        shards: int = 1,
        extra_guilds: Sequence[GuildSpec] = (),
        guild_shard: tuple[int, int] | None = None,
        locale: str = "en-US",
        movable_clock: bool = True,
    ) -> None:
        if shards < 1:
            raise ValueError(f"shards is at least 1, not {shards}")
        self.locale = locale
        self.standin = StandIn(
            ack_deadline=ack_deadline, id_seed=id_seed,
            bot_permissions=(int(DEFAULT_BOT_PERMISSIONS) if bot_permissions is None
                             else bot_permissions),
            recommended_shards=shards,
        )
        self.guild_name = guild_name
        self.channel_names = tuple(channels)
        self.extra_guilds = tuple(extra_guilds)
        self.guild_shard = guild_shard
        self.ready_timeout = ready_timeout
        self.shards = shards
        self.processes = [
            BotProcess(
                url="", token=self.standin.token, database=database,
                log_path=shard_log_path(log_path, shard),
                env={**(env or {}), **self._shard_env(shard)},
                movable_clock=movable_clock,
            )
            for shard in range(shards)
        ]
        self.process = self.processes[0]
        self.guild: GuildInfo | None = None
        self.guilds: list[GuildInfo] = []
        self.channels: dict[str, ChannelInfo] = {}

    def _shard_env(self, shard: int) -> dict[str, str]:
        if self.shards == 1:
            return {}
        return {"DAMA_SHARD_COUNT": str(self.shards), "DAMA_SHARD_IDS": str(shard),
                "DAMA_MACHINE_PROCESSES": str(self.shards)}

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
        for process in self.processes:
            process.url = self.standin.url
        self.guild = await self.standin.add_guild(self.guild_name, channels=self.channel_names,
                                                  shard=self.guild_shard, locale=self.locale)
        self.guilds = [self.guild]
        for name in self.channel_names:
            self.channels[name] = self.standin.channel(name)
        for name, channels, shard in self.extra_guilds:
            self.guilds.append(await self.standin.add_guild(name, channels=channels,
                                                            shard=shard))
        # Shard 0's process first: it creates or migrates the database (and registers the
        # commands) before the others open it.
        await self.start_bot(0)
        if self.shards > 1:
            identifies = self.standin.identify_count + self.shards - 1
            for process in self.processes[1:]:
                await process.start()
            await self.wait_ready(identifies=identifies, process=None)

    async def start_bot(self, shard: int = 0) -> None:
        """Start the bot process of `shard` and wait until it has identified and the
        commands are registered."""
        process = self.processes[shard]
        await process.start()
        await self.wait_ready(identifies=self.standin.identify_count + 1, process=process)

    async def wait_ready(self, *, identifies: int, process: BotProcess | None = None) -> None:
        """Wait for the gateway sessions and the commands, watching the processes (or
        `process`) meanwhile."""
        watched = self.processes if process is None else [process]

        async def ready() -> None:
            await self.standin.wait_until_connected(self.ready_timeout, identifies=identifies)
            await self.standin.wait_for_commands(EXPECTED_COMMANDS, timeout=self.ready_timeout)

        task = asyncio.create_task(ready())
        try:
            while not task.done():
                await asyncio.wait({task}, timeout=0.2)
                dead = [p for p in watched if not p.running]
                if not task.done() and dead:
                    task.cancel()
                    dead[0].check_alive()
            task.result()
        except BotDidNotAnswer as error:
            raise BotProcessError(watched[0].explain(str(error))) from None
        finally:
            if not task.done():
                task.cancel()

    async def restart_bot(self, *, kill: bool = True, shard: int = 0) -> None:
        """Kill (SIGKILL) or stop (SIGTERM) the bot process of `shard`, start it again,
        wait until ready."""
        process = self.processes[shard]
        if kill:
            await process.kill()
        else:
            await process.stop()
        await self.start_bot(shard)

    async def stop(self) -> None:
        """Stop the bot processes (SIGTERM, then SIGKILL) and the stand-in."""
        try:
            await asyncio.gather(*(process.stop() for process in self.processes))
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
