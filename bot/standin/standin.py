"""`StandIn`: a local Discord (REST + gateway on loopback) and the driver that plays its users.

Start it, point discord.py at `standin.url` (see `bot.discord_endpoint`), log the bot in
with `standin.token`, then act as users:

    async with StandIn() as standin:
        guild = await standin.add_guild("Dama Club")          # with a #general channel
        ...start the bot, await standin.wait_until_connected()...
        result = await standin.slash("alice", "general", "move", {"move": "22-18"})
        result.reply.content, result.reply.attachments[0].data

Every driver call returns frozen records (`records`). A driver call a Discord user could
not make (unknown command, missing option, disabled button) raises `StandInError`; a bot
that does not answer in time raises `BotDidNotAnswer`.
"""

from __future__ import annotations

import asyncio
import contextlib
import copy
import logging
import secrets
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from aiohttp import web

from .bodies import UploadedFile
from .core import Core, InteractionState
from .errors import BotDidNotAnswer, StandInError
from .gateway import PRIVILEGED_INTENTS, GatewayHooks, GatewayHub, Intent, Session
from .model import (
    DEFAULT_BOT_PERMISSIONS,
    DEFAULT_EVERYONE,
    Channel,
    ChannelType,
    Guild,
    Json,
    Member,
    Message,
    Overwrite,
    OverwriteType,
    Permission,
    Role,
    User,
    World,
)
from .options import Resolvers, build_options, descend, split_command
from .payloads import (
    CONTEXT_BOT_DM,
    CONTEXT_GUILD,
    DEFAULT_ATTACHMENT_SIZE_LIMIT,
    FLAG_EPHEMERAL,
    Application,
    Payloads,
)
from .records import (
    AttachmentRecord,
    Choice,
    InteractionKind,
    InteractionResult,
    MessageEvent,
    MessageOrigin,
    MessageRecord,
)
from .rest import Rest, create_thread, dm_channel
from .snowflakes import SnowflakeFactory

_log = logging.getLogger(__name__)


@dataclass(frozen=True)
class UserInfo:
    """A user of the stand-in."""

    id: int
    name: str
    bot: bool


@dataclass(frozen=True)
class GuildInfo:
    """A guild (server) of the stand-in."""

    id: int
    name: str


@dataclass(frozen=True)
class ChannelInfo:
    """A text channel, thread or DM channel of the stand-in."""

    id: int
    name: str
    guild_id: int | None
    kind: ChannelType
    parent_id: int | None


@dataclass(frozen=True)
class RoleInfo:
    """A role of a guild."""

    id: int
    guild_id: int
    name: str
    permissions: int


UserRef = UserInfo | int | str
GuildRef = GuildInfo | int | str
ChannelRef = ChannelInfo | int | str
MessageRef = MessageRecord | int


class StandIn:
    """A Discord API v10 stand-in for discord.py on 127.0.0.1, with a driver for tests.

    `token` is the bot token it accepts; `ack_deadline` the seconds the bot has to answer
    an interaction before it fails, as on Discord (None: no limit); `bot_permissions` what
    the bot's role may do in each new guild; `allowed_privileged_intents` the privileged
    intents "enabled in the developer portal" (others close the gateway with 4014).
    """

    def __init__(
        self,
        *,
        token: str | None = None,
        bot_name: str = "dama-bot",
        owner_name: str = "owner",
        host: str = "127.0.0.1",
        port: int = 0,
        ack_deadline: float | None = 3.0,
        heartbeat_interval_ms: int = 41250,
        bot_permissions: int = int(DEFAULT_BOT_PERMISSIONS),
        attachment_size_limit: int = DEFAULT_ATTACHMENT_SIZE_LIMIT,
        allowed_privileged_intents: int = int(PRIVILEGED_INTENTS),
    ) -> None:
        self.token = token or f"standin.{secrets.token_urlsafe(24)}"
        self.host = host
        self._port = port
        self.bot_permissions = bot_permissions
        self._ids = SnowflakeFactory()
        self.world = World(self._ids)
        bot_user = self._new_user(bot_name, bot=True)
        owner = self._new_user(owner_name)
        app = Application(
            id=bot_user.id,
            name=bot_name,
            bot_user_id=bot_user.id,
            owner_id=owner.id,
            verify_key=secrets.token_hex(32),
        )
        self._payloads = Payloads(self.world, app, base_url="http://127.0.0.1")
        hooks = GatewayHooks(
            token=lambda: self.token,
            ready_payload=self._ready_payload,
            guild_payloads=self._guild_payloads,
            member_chunks=self._member_chunks,
            on_ready=self._on_session_ready,
        )
        self.hub = GatewayHub(
            hooks,
            heartbeat_interval_ms=heartbeat_interval_ms,
            allowed_privileged=allowed_privileged_intents,
        )
        self.core = Core(
            self.world,
            self._payloads,
            self.hub,
            ack_deadline=ack_deadline,
            attachment_size_limit=attachment_size_limit,
        )
        self.rest = Rest(self.core, lambda: self.token, lambda: (self.url, self.gateway_url))
        self._runner: web.AppRunner | None = None
        self._ready = asyncio.Condition()

    # ---- lifecycle ------------------------------------------------------------------
    async def start(self) -> None:
        """Listen on `host`:`port` (0 picks a free port); `url` is valid afterwards."""
        if self._runner is not None:
            return
        app = web.Application(middlewares=[self.rest.middleware], client_max_size=64 * 1024 * 1024)
        app.router.add_routes(self.rest.routes())
        app.router.add_get("/gateway", self.hub.handle)
        app.router.add_get("/gateway/", self.hub.handle)
        runner = web.AppRunner(app, handle_signals=False, access_log=None)
        await runner.setup()
        site = web.TCPSite(runner, self.host, self._port)
        await site.start()
        server = site._server
        sockets = getattr(server, "sockets", None) or []
        if sockets:
            self._port = int(sockets[0].getsockname()[1])
        self._runner = runner
        self._payloads.base_url = self.url

    async def stop(self) -> None:
        """Close gateway sockets and stop listening."""
        if self._runner is None:
            return
        await self.hub.close()
        await self._runner.cleanup()
        self._runner = None

    async def __aenter__(self) -> StandIn:
        await self.start()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.stop()

    @property
    def port(self) -> int:
        """The TCP port (after `start`)."""
        return self._port

    @property
    def url(self) -> str:
        """The value for `DAMA_DISCORD_URL`, e.g. `http://127.0.0.1:41234`."""
        return f"http://{self.host}:{self._port}"

    @property
    def rest_base(self) -> str:
        """The REST base discord.py must use (`Route.BASE`)."""
        return self.url + "/api/v10"

    @property
    def gateway_url(self) -> str:
        """The gateway address discord.py must use (`DEFAULT_GATEWAY`)."""
        return f"ws://{self.host}:{self._port}/gateway"

    @property
    def application_id(self) -> int:
        """The application id (equal to the bot user's id, as for current Discord apps)."""
        return self._payloads.app.id

    @property
    def bot(self) -> UserInfo:
        """The bot's user."""
        return self._user_info(self.world.users[self._payloads.app.bot_user_id])

    @property
    def connected(self) -> bool:
        """True while a gateway session has a socket and has had READY and its guilds."""
        return any(s.socket is not None and not s.socket.closed for s in self.hub.live_sessions)

    @property
    def identify_count(self) -> int:
        """How many times a client identified (a fresh login counts one)."""
        return self.hub.identify_count

    @property
    def resume_count(self) -> int:
        """How many sessions were resumed."""
        return self.hub.resume_count

    @property
    def request_log(self) -> list[tuple[str, str, int]]:
        """Every REST request so far: (method, path, status)."""
        return self.rest.request_log

    async def wait_until_connected(self, timeout: float = 10.0, *, identifies: int = 1) -> None:
        """Wait until the bot has identified `identifies` times in all and is connected.

        Raises `BotDidNotAnswer` after `timeout` seconds.
        """

        async def ready() -> None:
            async with self._ready:
                await self._ready.wait_for(
                    lambda: self.hub.identify_count >= identifies and self.connected
                )

        try:
            await asyncio.wait_for(ready(), timeout)
        except TimeoutError:
            raise BotDidNotAnswer(
                f"the bot did not connect to the stand-in's gateway within {timeout} s "
                f"(identified {self.hub.identify_count} time(s); did it log in with "
                "standin.token and DAMA_DISCORD_URL=standin.url?)"
            ) from None

    async def wait_for_commands(
        self, names: Sequence[str] = (), *, guild: GuildRef | None = None, timeout: float = 10.0
    ) -> list[Json]:
        """Wait until commands named `names` (any, when empty) are registered; returns them."""
        deadline = time.monotonic() + timeout
        while True:
            commands = self.commands(guild)
            have = {c["name"] for c in commands}
            if (commands and set(names) <= have) or (names and set(names) <= have):
                return commands
            if time.monotonic() > deadline:
                raise BotDidNotAnswer(
                    f"the bot did not register {', '.join(names) or 'any command'} within "
                    f"{timeout} s (registered: {', '.join(sorted(have)) or 'none'})"
                )
            await self._wait_request(deadline - time.monotonic())

    async def _wait_request(self, timeout: float) -> None:
        count = len(self.rest.request_log)
        end = time.monotonic() + max(timeout, 0)
        while len(self.rest.request_log) == count and time.monotonic() < end:
            await asyncio.sleep(0.01)

    # ---- gateway hooks ----------------------------------------------------------------
    def _ready_payload(self, session: Session) -> Json:
        data: Json = {
            "v": 10,
            "user": self._payloads.current_user(),
            "user_settings": {},
            "session_type": "normal",
            "session_id": session.id,
            "resume_gateway_url": self.gateway_url,
            "relationships": [],
            "private_channels": [],
            "presences": [],
            "guilds": [self._payloads.unavailable_guild(g) for g in self.world.guilds.values()],
            "guild_join_requests": [],
            "geo_ordered_rtc_regions": ["local"],
            "application": self._payloads.ready_application(),
            "_trace": ['["dama-standin",{"micros":0}]'],
        }
        if session.shard is not None:
            data["shard"] = session.shard
        return data

    def _guild_payloads(self, session: Session) -> list[Json]:
        everyone = session.wants(Intent.GUILD_PRESENCES)
        return [self._payloads.guild(g, all_members=everyone) for g in self.world.guilds.values()]

    def _member_chunks(self, session: Session, data: Json) -> list[Json]:
        guild = self.world.guilds.get(int(data.get("guild_id") or 0))
        if guild is None:
            return []
        members = list(guild.members.values())
        wanted = data.get("user_ids")
        if wanted:
            ids = {int(u) for u in (wanted if isinstance(wanted, list) else [wanted])}
            members = [m for m in members if m.user_id in ids]
        elif data.get("query"):
            prefix = str(data["query"]).casefold()
            members = [
                m
                for m in members
                if self.world.users[m.user_id].username.casefold().startswith(prefix)
            ]
        limit = int(data.get("limit") or 0)
        if limit:
            members = members[:limit]
        chunk: Json = {
            "guild_id": str(guild.id),
            "members": [self._payloads.member(m) for m in members],
            "chunk_index": 0,
            "chunk_count": 1,
            "not_found": [],
        }
        if data.get("nonce"):
            chunk["nonce"] = data["nonce"]
        return [chunk]

    async def _on_session_ready(self, session: Session) -> None:
        async with self._ready:
            self._ready.notify_all()

    async def _dispatch(self, event: str, intent: int, data: Json) -> None:
        await self.hub.dispatch(event, lambda s: data if s.wants(intent) else None)

    # ---- building the world -------------------------------------------------------
    def _new_user(self, name: str, *, bot: bool = False, locale: str = "en-US") -> User:
        if not name or any(c.isspace() for c in name) or len(name) > 32:
            raise StandInError(f"user name {name!r} must be 1-32 characters without spaces")
        if self.world.user_by_name(name) is not None:
            raise StandInError(f"a user named {name!r} already exists")
        user = User(
            id=self._ids.next(), username=name.lower(), global_name=name, bot=bot, locale=locale
        )
        self.world.users[user.id] = user
        return user

    @staticmethod
    def _user_info(user: User) -> UserInfo:
        return UserInfo(user.id, user.username, user.bot)

    def user(self, name: str, *, bot: bool = False, locale: str = "en-US") -> UserInfo:
        """The user called `name` (case-insensitive), created on first use."""
        name = name.lstrip("@")
        existing = self.world.user_by_name(name)
        if existing is not None:
            return self._user_info(existing)
        return self._user_info(self._new_user(name, bot=bot, locale=locale))

    def _user(self, ref: UserRef, *, create: bool = True) -> User:
        if isinstance(ref, UserInfo):
            ref = ref.id
        if isinstance(ref, int):
            user = self.world.users.get(ref)
            if user is None:
                raise StandInError(f"no user with id {ref}")
            return user
        if not create:
            found = self.world.user_by_name(ref.lstrip("@"))
            if found is None:
                raise StandInError(f"no user named {ref!r}")
            return found
        return self.world.users[self.user(ref).id]

    async def add_guild(
        self,
        name: str,
        *,
        owner: UserRef | None = None,
        channels: Sequence[str] = ("general",),
        locale: str = "en-US",
    ) -> GuildInfo:
        """A new guild with @everyone, the bot (and its managed role), the owner and channels.

        Sends GUILD_CREATE when the bot is connected (as when a bot joins a server).
        """
        owner_user = (
            self._user(owner)
            if owner is not None
            else self.world.users[self._payloads.app.owner_id]
        )
        guild = Guild(
            id=self._ids.next(), name=name, owner_id=owner_user.id, preferred_locale=locale
        )
        guild.roles[guild.id] = Role(
            id=guild.id,
            guild_id=guild.id,
            name="@everyone",
            permissions=int(DEFAULT_EVERYONE),
            position=0,
        )
        bot_role = Role(
            id=self._ids.next(),
            guild_id=guild.id,
            name=self._payloads.app.name,
            permissions=self.bot_permissions,
            position=1,
            managed=True,
            bot_id=self._payloads.app.bot_user_id,
        )
        guild.roles[bot_role.id] = bot_role
        self.world.guilds[guild.id] = guild
        guild.members[self._payloads.app.bot_user_id] = Member(
            self._payloads.app.bot_user_id, guild.id, [bot_role.id]
        )
        guild.members[owner_user.id] = Member(owner_user.id, guild.id)
        for index, channel_name in enumerate(channels):
            self._new_channel(guild, channel_name, position=index)
        payload = self._payloads.guild(guild, all_members=False)
        await self.hub.dispatch(
            "GUILD_CREATE",
            lambda s: (
                self._payloads.guild(guild, all_members=s.wants(Intent.GUILD_PRESENCES))
                if s.wants(Intent.GUILDS)
                else None
            ),
        )
        del payload
        return GuildInfo(guild.id, guild.name)

    def _new_channel(
        self,
        guild: Guild,
        name: str,
        *,
        position: int = 0,
        topic: str | None = None,
        category_id: int | None = None,
        kind: ChannelType = ChannelType.GUILD_TEXT,
    ) -> Channel:
        channel = Channel(
            id=self._ids.next(),
            type=kind,
            name=name.lstrip("#"),
            guild_id=guild.id,
            position=position,
            topic=topic,
            parent_id=category_id,
        )
        self.world.channels[channel.id] = channel
        guild.channel_ids.append(channel.id)
        return channel

    def _guild(self, ref: GuildRef) -> Guild:
        if isinstance(ref, GuildInfo):
            ref = ref.id
        if isinstance(ref, int):
            guild = self.world.guilds.get(ref)
        else:
            matches = [g for g in self.world.guilds.values() if g.name.casefold() == ref.casefold()]
            guild = matches[0] if len(matches) == 1 else None
        if guild is None:
            names = ", ".join(g.name for g in self.world.guilds.values()) or "none"
            raise StandInError(f"no single guild {ref!r} (guilds: {names})")
        return guild

    def guild(self, ref: GuildRef) -> GuildInfo:
        """Look a guild up by id or name."""
        guild = self._guild(ref)
        return GuildInfo(guild.id, guild.name)

    async def add_channel(
        self,
        guild: GuildRef,
        name: str,
        *,
        topic: str | None = None,
        category: ChannelRef | None = None,
    ) -> ChannelInfo:
        """A new text channel; sends CHANNEL_CREATE."""
        g = self._guild(guild)
        parent = self._channel(category).id if category is not None else None
        channel = self._new_channel(
            g, name, position=len(g.channel_ids), topic=topic, category_id=parent
        )
        await self._dispatch("CHANNEL_CREATE", Intent.GUILDS, self._payloads.channel(channel))
        return self._channel_info(channel)

    async def add_category(self, guild: GuildRef, name: str) -> ChannelInfo:
        """A new category; sends CHANNEL_CREATE."""
        g = self._guild(guild)
        channel = self._new_channel(
            g, name, position=len(g.channel_ids), kind=ChannelType.GUILD_CATEGORY
        )
        await self._dispatch("CHANNEL_CREATE", Intent.GUILDS, self._payloads.channel(channel))
        return self._channel_info(channel)

    async def add_thread(
        self, channel: ChannelRef, name: str, *, owner: UserRef, private: bool = False
    ) -> ChannelInfo:
        """A user starts a thread in a text channel; sends THREAD_CREATE."""
        parent = self._channel(channel)
        if parent.type is not ChannelType.GUILD_TEXT:
            raise StandInError(
                f"#{parent.name} is not a text channel; threads live in text channels"
            )
        user = self._user(owner)
        await self._ensure_member(parent, user)
        kind = ChannelType.PRIVATE_THREAD if private else ChannelType.PUBLIC_THREAD
        thread = await create_thread(self.core, parent, name, owner_id=user.id, kind=kind)
        return self._channel_info(thread)

    async def dm_channel(self, user: UserRef) -> ChannelInfo:
        """The direct-message channel between `user` and the bot."""
        return self._channel_info(dm_channel(self.core, self._user(user).id))

    async def add_member(
        self, guild: GuildRef, user: UserRef, *, roles: Sequence[RoleInfo] = ()
    ) -> UserInfo:
        """Make `user` a member (sends GUILD_MEMBER_ADD to sessions with the members intent)."""
        g = self._guild(guild)
        u = self._user(user)
        if u.id in g.members:
            return self._user_info(u)
        member = Member(u.id, g.id, [r.id for r in roles])
        g.members[u.id] = member
        data = self._payloads.member(member)
        data["guild_id"] = str(g.id)
        await self._dispatch("GUILD_MEMBER_ADD", Intent.GUILD_MEMBERS, data)
        return self._user_info(u)

    async def add_role(self, guild: GuildRef, name: str, permissions: int = 0) -> RoleInfo:
        """A new role; sends GUILD_ROLE_CREATE."""
        g = self._guild(guild)
        role = Role(
            id=self._ids.next(),
            guild_id=g.id,
            name=name,
            permissions=int(permissions),
            position=len(g.roles),
        )
        g.roles[role.id] = role
        await self._dispatch(
            "GUILD_ROLE_CREATE",
            Intent.GUILDS,
            {"guild_id": str(g.id), "role": self._payloads.role(role)},
        )
        return RoleInfo(role.id, g.id, role.name, role.permissions)

    async def give_role(self, guild: GuildRef, user: UserRef, role: RoleInfo) -> None:
        """Give a member a role (GUILD_MEMBER_UPDATE with the members intent)."""
        g = self._guild(guild)
        await self.add_member(g.id, user)
        member = g.members[self._user(user).id]
        if role.id not in member.role_ids:
            member.role_ids.append(role.id)
        data = self._payloads.member(member)
        data["guild_id"] = str(g.id)
        await self._dispatch("GUILD_MEMBER_UPDATE", Intent.GUILD_MEMBERS, data)

    async def set_permissions(
        self, channel: ChannelRef, target: RoleInfo | UserRef, *, allow: int = 0, deny: int = 0
    ) -> None:
        """Set a channel overwrite for a role or member; sends CHANNEL_UPDATE."""
        ch = self._channel(channel)
        if isinstance(target, RoleInfo):
            key = (OverwriteType.ROLE, target.id)
        else:
            key = (OverwriteType.MEMBER, self._user(target).id)
        ch.overwrites = [o for o in ch.overwrites if (o.type, o.id) != key]
        ch.overwrites.append(Overwrite(key[1], key[0], int(allow), int(deny)))
        await self._dispatch("CHANNEL_UPDATE", Intent.GUILDS, self._payloads.channel(ch))

    def _channel(self, ref: ChannelRef) -> Channel:
        if isinstance(ref, ChannelInfo):
            ref = ref.id
        if isinstance(ref, int):
            channel = self.world.channels.get(ref)
            if channel is None:
                raise StandInError(f"no channel with id {ref}")
            return channel
        name = ref.lstrip("#")
        matches = [
            c
            for c in self.world.channels.values()
            if c.type is not ChannelType.DM and c.name == name
        ]
        if len(matches) != 1:
            known = sorted({c.name for c in self.world.channels.values() if c.name})
            raise StandInError(
                f"{'no' if not matches else 'more than one'} channel named {ref!r}; "
                f"channels: {', '.join(known) or 'none'} (pass a ChannelInfo or id)"
            )
        return matches[0]

    @staticmethod
    def _channel_info(channel: Channel) -> ChannelInfo:
        return ChannelInfo(
            channel.id, channel.name, channel.guild_id, channel.type, channel.parent_id
        )

    def channel(self, ref: ChannelRef) -> ChannelInfo:
        """Look a channel up by id or name."""
        return self._channel_info(self._channel(ref))

    async def _ensure_member(self, channel: Channel, user: User) -> None:
        if (
            channel.guild_id is not None
            and user.id not in self.world.guilds[channel.guild_id].members
        ):
            await self.add_member(channel.guild_id, user.id)

    # ---- inspection -------------------------------------------------------------------
    def messages(
        self,
        channel: ChannelRef,
        *,
        include_ephemeral: bool = True,
        visible_to: UserRef | None = None,
    ) -> list[MessageRecord]:
        """The channel's messages, oldest first (deleted ones left out).

        With `visible_to`, only what that user sees (others' ephemeral messages left out).
        """
        ch = self._channel(channel)
        viewer = self._user(visible_to, create=False).id if visible_to is not None else None
        result = []
        for msg in self.world.channel_messages(ch.id):
            hidden = not include_ephemeral or (viewer is not None and msg.visible_to != viewer)
            if msg.flags & FLAG_EPHEMERAL and hidden:
                continue
            result.append(self.core.record(msg))
        return result

    def message(self, message: MessageRef) -> MessageRecord:
        """The current state of a message (also when deleted: `deleted` is then True)."""
        ident = message.id if isinstance(message, MessageRecord) else message
        msg = self.world.messages.get(ident)
        if msg is None:
            raise StandInError(f"no message with id {ident}")
        return self.core.record(msg)

    def last_message(
        self, channel: ChannelRef, *, with_buttons: bool = False, visible_to: UserRef | None = None
    ) -> MessageRecord:
        """The newest message of a channel (optionally the newest that has buttons)."""
        for record in reversed(self.messages(channel, visible_to=visible_to)):
            if not with_buttons or record.buttons:
                return record
        what = "with buttons " if with_buttons else ""
        raise StandInError(f"no message {what}in #{self._channel(channel).name}")

    def commands(self, guild: GuildRef | None = None) -> list[Json]:
        """Registered commands: global ones, or a guild's own (copies of what Discord keeps)."""
        if guild is None:
            return copy.deepcopy(list(self.core.global_commands.values()))
        g = self._guild(guild)
        return copy.deepcopy(list(self.core.guild_commands.get(g.id, {}).values()))

    def attachment_bytes(self, attachment: AttachmentRecord | int | str) -> bytes:
        """The bytes of an uploaded file (by record, id or its URL)."""
        if isinstance(attachment, AttachmentRecord):
            ident = attachment.id
        elif isinstance(attachment, int):
            ident = attachment
        else:
            try:
                ident = int(attachment.rstrip("/").split("/")[-2])
            except (IndexError, ValueError):
                raise StandInError(
                    f"{attachment!r} is not an attachment URL of the stand-in"
                ) from None
        att = self.world.attachments.get(ident)
        if att is None:
            raise StandInError(f"no attachment {ident}")
        return att.data

    @property
    def events(self) -> list[MessageEvent]:
        """Every message event so far (created, edited, deleted), in order."""
        return list(self.core.events)

    def add_listener(self, listener: Callable[[MessageEvent], None]) -> None:
        """Call `listener` on every message event from now on (e.g. to print answers)."""
        self.core.listeners.append(listener)

    def remove_listener(self, listener: Callable[[MessageEvent], None]) -> None:
        """Stop calling `listener`."""
        with contextlib.suppress(ValueError):
            self.core.listeners.remove(listener)

    async def wait_for_message(
        self, predicate: Callable[[MessageEvent], bool], *, timeout: float = 10.0
    ) -> MessageEvent:
        """Wait for the next message event matching `predicate`."""
        loop = asyncio.get_running_loop()
        future: asyncio.Future[MessageEvent] = loop.create_future()

        def listener(event: MessageEvent) -> None:
            if not future.done() and predicate(event):
                future.set_result(event)

        self.add_listener(listener)
        try:
            return await asyncio.wait_for(future, timeout)
        except TimeoutError:
            raise BotDidNotAnswer(f"no matching message event within {timeout} s") from None
        finally:
            self.remove_listener(listener)

    def typing_count(self, channel: ChannelRef) -> int:
        """How often the bot said it was typing in a channel."""
        return self.core.typing.get(self._channel(channel).id, 0)

    # ---- gateway faults -------------------------------------------------------------
    async def drop_gateway(self, code: int = 4000) -> None:
        """Close the bot's gateway sockets (4000: the client resumes)."""
        await self.hub.drop_connections(code)

    async def request_reconnect(self) -> None:
        """Send op 7 RECONNECT; the client reconnects and resumes."""
        await self.hub.request_reconnect()

    async def invalidate_sessions(self) -> None:
        """Invalidate every session (op 9): the client must identify again."""
        await self.hub.invalidate_sessions()

    # ---- users acting -----------------------------------------------------------------
    async def say(self, user: UserRef, channel: ChannelRef, content: str) -> MessageRecord:
        """A user posts a plain message (MESSAGE_CREATE; content only with that intent)."""
        u = self._user(user)
        ch = self._channel(channel)
        await self._ensure_member(ch, u)
        if ch.type is not ChannelType.DM:
            perms = self.world.permissions_in(ch, u.id)
            need = (
                Permission.SEND_MESSAGES_IN_THREADS
                if ch.type.is_thread
                else Permission.SEND_MESSAGES
            )
            if not perms & need:
                raise StandInError(f"{u.username} may not send messages in #{ch.name}")
        if not content or len(content) > 2000:
            raise StandInError("a message has 1 to 2000 characters")
        msg = Message(
            id=self._ids.next(),
            channel_id=ch.id,
            guild_id=ch.guild_id,
            author_id=u.id,
            content=content,
        )
        msg.mention_ids = [i for i in self.world.users if f"<@{i}>" in content]
        await self.core.store_message(msg, MessageOrigin.USER)
        return self.core.record(msg)

    def _base_interaction(
        self, kind: InteractionKind, user: User, channel: Channel
    ) -> tuple[Json, int, str]:
        ident, token = self.core.new_interaction_ids()
        guild = self.world.guilds.get(channel.guild_id) if channel.guild_id else None
        payload: Json = {
            "id": str(ident),
            "application_id": str(self.application_id),
            "type": int(kind),
            "token": token,
            "version": 1,
            "channel_id": str(channel.id),
            "channel": self._payloads.channel(channel),
            "app_permissions": str(
                self.world.permissions_in(channel, self._payloads.app.bot_user_id)
            ),
            "locale": user.locale,
            "entitlements": [],
            "entitlement_sku_ids": [],
            "attachment_size_limit": self.core.attachment_size_limit,
        }
        if guild is not None:
            member = guild.members[user.id]
            payload.update(
                {
                    "guild_id": str(guild.id),
                    "guild": {
                        "id": str(guild.id),
                        "locale": guild.preferred_locale,
                        "features": [],
                    },
                    "guild_locale": guild.preferred_locale,
                    "member": self._payloads.member(
                        member, permissions=self.world.permissions_in(channel, user.id)
                    ),
                    "authorizing_integration_owners": {"0": str(guild.id)},
                    "context": CONTEXT_GUILD,
                }
            )
        else:
            payload.update(
                {
                    "user": self._payloads.user(user),
                    "authorizing_integration_owners": {"0": "0"},
                    "context": CONTEXT_BOT_DM,
                }
            )
        return payload, ident, token

    async def _prepare_actor(self, user: UserRef, channel: ChannelRef) -> tuple[User, Channel]:
        u = self._user(user)
        ch = self._channel(channel)
        if ch.type is ChannelType.GUILD_CATEGORY:
            raise StandInError(f"{ch.name} is a category, not a channel one can type in")
        await self._ensure_member(ch, u)
        if ch.type is ChannelType.DM and u.id not in ch.recipient_ids:
            raise StandInError(f"{u.username} is not in that DM channel")
        if (
            ch.type is not ChannelType.DM
            and not self.world.permissions_in(ch, u.id) & Permission.VIEW_CHANNEL
        ):
            raise StandInError(f"{u.username} cannot see #{ch.name}")
        return u, ch

    def _find_command(self, user: User, channel: Channel, path: list[str]) -> Json:
        pools: list[Json] = []
        if channel.guild_id is not None:
            pools.extend(self.core.guild_commands.get(channel.guild_id, {}).values())
        pools.extend(self.core.global_commands.values())
        command = next((c for c in pools if c["name"] == path[0] and c["type"] == 1), None)
        if command is None:
            names = sorted({"/" + c["name"] for c in pools if c["type"] == 1})
            raise StandInError(
                f"no slash command /{path[0]} here; registered: {', '.join(names) or 'none'} "
                "(did the bot sync its command tree?)"
            )
        contexts = command.get("contexts")
        in_dm = channel.type is ChannelType.DM
        if in_dm and (
            (contexts is not None and CONTEXT_BOT_DM not in contexts)
            or command.get("dm_permission") is False
            or "guild_id" in command
        ):
            raise StandInError(f"/{path[0]} cannot be used in direct messages")
        if not in_dm and contexts is not None and CONTEXT_GUILD not in contexts:
            raise StandInError(f"/{path[0]} cannot be used in a server")
        needed = command.get("default_member_permissions")
        if needed is not None and not in_dm:
            perms = self.world.permissions_in(channel, user.id)
            if perms & int(needed) != int(needed):
                raise StandInError(
                    f"{user.username} does not see /{path[0]}: it needs permissions {needed}"
                )
        if (
            not in_dm
            and not self.world.permissions_in(channel, user.id)
            & Permission.USE_APPLICATION_COMMANDS
        ):
            raise StandInError(
                f"{user.username} may not use application commands in #{channel.name}"
            )
        return command

    def _resolvers(self, channel: Channel) -> Resolvers:
        guild = self.world.guilds.get(channel.guild_id) if channel.guild_id else None

        def user(value: Any, resolved: Json) -> int:
            if isinstance(value, str) and value.startswith("<@") and value.endswith(">"):
                value = int(value.strip("<@!>"))
            u = self._user(value)
            resolved.setdefault("users", {})[str(u.id)] = self._payloads.user(u)
            if guild is not None:
                member = guild.members.get(u.id)
                if member is None:
                    member = Member(u.id, guild.id)
                    guild.members[u.id] = member
                data = self._payloads.member(
                    member, with_user=False, permissions=self.world.permissions_in(channel, u.id)
                )
                data.pop("deaf")
                data.pop("mute")
                resolved.setdefault("members", {})[str(u.id)] = data
            return u.id

        def chan(value: Any, resolved: Json) -> int:
            c = self._channel(value)
            data = self._payloads.channel(c)
            data["permissions"] = str(self.world.permissions_in(c, self._payloads.app.bot_user_id))
            resolved.setdefault("channels", {})[str(c.id)] = data
            return c.id

        def role(value: Any, resolved: Json) -> int:
            if guild is None:
                raise StandInError("roles exist only in servers")
            ref = value.id if isinstance(value, RoleInfo) else value
            match = next(
                (r for r in guild.roles.values() if r.id == ref or r.name == str(ref).lstrip("@")),
                None,
            )
            if match is None:
                raise StandInError(f"no role {value!r} in {guild.name}")
            resolved.setdefault("roles", {})[str(match.id)] = self._payloads.role(match)
            return match.id

        def attachment(value: Any, resolved: Json) -> int:
            if not (isinstance(value, tuple) and len(value) == 2 and isinstance(value[1], bytes)):
                raise StandInError("an attachment option takes (filename, bytes)")
            att = self.core._store_upload(
                UploadedFile(0, str(value[0]), None, value[1]), ephemeral=True
            )
            resolved.setdefault("attachments", {})[str(att.id)] = self._payloads.attachment(att)
            return att.id

        return Resolvers(user=user, channel=chan, role=role, attachment=attachment)

    async def _command_interaction(
        self,
        kind: InteractionKind,
        user: UserRef,
        channel: ChannelRef,
        command: str,
        options: Mapping[str, Any] | None,
        focused: str | None,
    ) -> InteractionState:
        u, ch = await self._prepare_actor(user, channel)
        path = split_command(command)
        cmd = self._find_command(u, ch, path)
        schema, nest = descend(cmd, path)
        label = "/" + " ".join(path)
        resolvers = self._resolvers(ch)
        values = dict(options or {})
        if kind is InteractionKind.AUTOCOMPLETE:
            if focused is None:
                if not values:
                    raise StandInError(f"autocomplete of {label} needs the option being typed")
                focused = list(values)[-1]
            spec = next((o for o in schema if o["name"] == focused), None)
            if spec is None or not spec.get("autocomplete"):
                raise StandInError(f"{label} option {focused!r} has no autocomplete")
        built = build_options(label, schema, values, resolvers, focused=focused)
        payload, ident, token = self._base_interaction(kind, u, ch)
        data: Json = {"id": cmd["id"], "name": cmd["name"], "type": 1, "options": nest(built)}
        if resolvers.resolved:
            data["resolved"] = resolvers.resolved
        if "guild_id" in cmd:
            data["guild_id"] = cmd["guild_id"]
        payload["data"] = data
        return InteractionState(
            id=ident,
            token=token,
            kind=kind,
            name=label,
            user_id=u.id,
            channel_id=ch.id,
            guild_id=ch.guild_id,
            payload=payload,
        )

    async def _send(self, state: InteractionState) -> None:
        sessions = [
            s for s in self.hub.live_sessions if s.socket is not None and not s.socket.closed
        ]
        if not sessions:
            raise StandInError(
                "the bot is not connected to the stand-in's gateway "
                "(await standin.wait_until_connected() after starting it)"
            )
        self.core.register_interaction(state)
        state.created = time.monotonic()
        await self.hub.send_to(sessions[-1], "INTERACTION_CREATE", state.payload)

    async def _answer(self, state: InteractionState, timeout: float) -> InteractionResult:
        deadline = self.core.ack_deadline
        ack_wait = timeout if deadline is None else min(timeout, deadline)
        try:
            await asyncio.wait_for(state.acknowledged.wait(), ack_wait)
        except TimeoutError:
            failed = (
                " (Discord would show 'This interaction failed')" if ack_wait == deadline else ""
            )
            raise BotDidNotAnswer(
                f"the bot did not answer {state.name} within {ack_wait:g} s{failed}"
            ) from None
        remaining = timeout - (time.monotonic() - state.created)
        try:
            await asyncio.wait_for(state.answered.wait(), max(remaining, 0.0))
        except TimeoutError:
            raise BotDidNotAnswer(
                f"the bot deferred {state.name} but did not edit its answer or follow up "
                f"within {timeout:g} s"
            ) from None
        return self.core.result(state)

    async def slash(
        self,
        user: UserRef,
        channel: ChannelRef,
        command: str,
        options: Mapping[str, Any] | None = None,
        *,
        timeout: float = 10.0,
    ) -> InteractionResult:
        """`user` runs `/command` in `channel` with `options`; returns once it is answered.

        `command` may name a sub-command ("game move"). Option values are converted by the
        registered schema: text for strings, numbers, true/false, a user name / UserInfo /
        id for users (created on demand), a channel, a role, `(filename, bytes)` for files;
        a choice may be given by its name or value. Answered means: a message, an update,
        a modal, or, after a deferral, the edited answer or a follow-up.
        """
        state = await self._command_interaction(
            InteractionKind.APPLICATION_COMMAND, user, channel, command, options, None
        )
        await self._send(state)
        return await self._answer(state, timeout)

    async def autocomplete(
        self,
        user: UserRef,
        channel: ChannelRef,
        command: str,
        options: Mapping[str, Any],
        *,
        focused: str | None = None,
        timeout: float = 10.0,
    ) -> tuple[Choice, ...]:
        """The bot's suggestions while `user` types option `focused` (default: the last given)."""
        state = await self._command_interaction(
            InteractionKind.AUTOCOMPLETE, user, channel, command, options, focused
        )
        await self._send(state)
        return (await self._answer(state, timeout)).choices

    def _component(self, message: Message, wanted: str, types: tuple[int, ...]) -> Json:
        found: list[Json] = []

        def walk(components: Any) -> None:
            for comp in components or []:
                if not isinstance(comp, dict):
                    continue
                if comp.get("type") in types:
                    found.append(comp)
                walk(comp.get("components"))
                if isinstance(comp.get("accessory"), dict):
                    walk([comp["accessory"]])

        walk(message.components)
        for match in (
            lambda c: c.get("custom_id") == wanted,
            lambda c: c.get("label") == wanted or c.get("placeholder") == wanted,
            lambda c: (
                str(c.get("label") or c.get("placeholder") or "").casefold() == wanted.casefold()
            ),
        ):
            hits = [c for c in found if match(c)]
            if len(hits) == 1:
                return hits[0]
            if len(hits) > 1:
                raise StandInError(f"{len(hits)} components match {wanted!r}; use the custom_id")
        labels = [str(c.get("label") or c.get("placeholder") or c.get("custom_id")) for c in found]
        raise StandInError(
            f"no component {wanted!r} on message {message.id}; it has: "
            f"{', '.join(labels) or 'none'}"
        )

    async def _component_interaction(
        self,
        user: UserRef,
        message: MessageRef,
        wanted: str,
        types: tuple[int, ...],
        values: Sequence[str] | None,
        timeout: float,
    ) -> InteractionResult:
        ident = message.id if isinstance(message, MessageRecord) else message
        msg = self.world.messages.get(ident)
        if msg is None or msg.deleted:
            raise StandInError(f"message {ident} does not exist (any more)")
        u, ch = await self._prepare_actor(user, msg.channel_id)
        if msg.flags & FLAG_EPHEMERAL and msg.visible_to != u.id:
            raise StandInError(
                f"{u.username} cannot see message {ident}: it is ephemeral for someone else"
            )
        comp = self._component(msg, wanted, types)
        label = repr(comp.get("label") or comp.get("placeholder") or comp.get("custom_id"))
        if comp.get("disabled"):
            raise StandInError(f"the component {label} is disabled")
        if comp.get("type") == 2 and comp.get("style") in (5, 6):
            raise StandInError(f"the button {label} is a link, not something the bot hears")
        payload, iid, token = self._base_interaction(InteractionKind.MESSAGE_COMPONENT, u, ch)
        data: Json = {"custom_id": comp["custom_id"], "component_type": comp["type"]}
        if comp.get("id") is not None:
            data["id"] = comp["id"]
        if values is not None:
            data["values"] = list(values)
        payload["data"] = data
        payload["message"] = self._payloads.message(msg)
        kind_name = "button" if comp["type"] == 2 else "select menu"
        state = InteractionState(
            id=iid,
            token=token,
            kind=InteractionKind.MESSAGE_COMPONENT,
            name=f"{kind_name} {label}",
            user_id=u.id,
            channel_id=ch.id,
            guild_id=ch.guild_id,
            payload=payload,
            component_message_id=msg.id,
        )
        await self._send(state)
        return await self._answer(state, timeout)

    async def press(
        self, user: UserRef, message: MessageRef, button: str, *, timeout: float = 10.0
    ) -> InteractionResult:
        """`user` presses the button with that custom_id or label on `message`."""
        return await self._component_interaction(user, message, button, (2,), None, timeout)

    async def select(
        self,
        user: UserRef,
        message: MessageRef,
        menu: str,
        values: Sequence[str],
        *,
        timeout: float = 10.0,
    ) -> InteractionResult:
        """`user` picks `values` in the string select menu with that custom_id or placeholder."""
        return await self._component_interaction(user, message, menu, (3,), values, timeout)

    async def submit_modal(
        self,
        user: UserRef,
        opened: InteractionResult,
        values: Mapping[str, str],
        *,
        timeout: float = 10.0,
    ) -> InteractionResult:
        """`user` fills in the modal the bot opened (text inputs by custom_id) and submits it."""
        if opened.modal is None:
            raise StandInError(f"the bot did not open a modal for {opened.name}")
        unknown = set(values) - set(opened.modal.inputs)
        if unknown:
            raise StandInError(
                f"the modal has no input(s) {', '.join(sorted(unknown))}; "
                f"it has {', '.join(opened.modal.inputs)}"
            )
        origin = self.core.interactions[opened.interaction_id]
        u, ch = await self._prepare_actor(user, opened.channel_id)
        payload, iid, token = self._base_interaction(InteractionKind.MODAL_SUBMIT, u, ch)

        def answer(comp: Json) -> Json:
            kind = comp.get("type")
            if kind == 4:
                out: Json = {
                    "type": 4,
                    "custom_id": comp["custom_id"],
                    "value": str(values.get(comp["custom_id"], comp.get("value") or "")),
                }
                if comp.get("id") is not None:
                    out["id"] = comp["id"]
                return out
            if kind == 18 and isinstance(comp.get("component"), dict):
                return {"type": 18, "id": comp.get("id"), "component": answer(comp["component"])}
            return {
                "type": kind,
                "id": comp.get("id"),
                "components": [answer(c) for c in comp.get("components") or []],
            }

        payload["data"] = {
            "custom_id": opened.modal.custom_id,
            "components": [answer(c) for c in opened.modal.raw.get("components") or []],
        }
        if origin.component_message_id is not None:
            msg = self.world.messages.get(origin.component_message_id)
            if msg is not None:
                payload["message"] = self._payloads.message(msg)
        state = InteractionState(
            id=iid,
            token=token,
            kind=InteractionKind.MODAL_SUBMIT,
            name=f"modal {opened.modal.title!r}",
            user_id=u.id,
            channel_id=ch.id,
            guild_id=ch.guild_id,
            payload=payload,
            component_message_id=origin.component_message_id,
        )
        await self._send(state)
        return await self._answer(state, timeout)

    def interaction(self, interaction_id: int) -> InteractionResult:
        """The current record of an interaction (e.g. follow-ups sent after it was answered)."""
        state = self.core.interactions.get(interaction_id)
        if state is None:
            raise StandInError(f"no interaction {interaction_id}")
        return self.core.result(state)
