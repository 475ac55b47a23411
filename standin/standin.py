"""`StandIn`: a local Discord (REST + gateway on loopback) and the driver that plays its users.

Start it, point discord.py at it (`discord.http.Route.BASE = standin.rest_base`,
`discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(standin.gateway_url)`; dama-bot
does this from its setting `DAMA_DISCORD_URL=standin.url`), log the bot in with
`standin.token`, then act as users:

    async with StandIn() as standin:
        await standin.add_guild("Dama Club")                 # channels #general
        ...start the bot; await standin.wait_until_connected()...
        result = await standin.slash("alice", "general", "move", {"move": "22-18"})
        result.reply.content, result.reply.attachments[0].data
        await standin.autocomplete("alice", "general", "move", {"move": "22"})
        await standin.press("bob", result.reply, "Accept")

World: `user`, `add_guild`, `add_channel`, `add_category`, `add_thread`, `dm_channel`,
`add_member`, `add_role`, `give_role`, `everyone`, `set_permissions` (from `Directory`).
Acting: `slash`, `autocomplete`, `press`, `select`, `submit_modal`, `say`, `edit_thread`,
`mark_interested`, `unmark_interested`.
Looking: `messages`, `message`, `last_message`, `interaction`, `commands`, `options_of`,
`scheduled_events`, `scheduled_event`,
`attachment_bytes`, `events`, `add_listener`, `wait_for_message`, `wait_for_commands`,
`wait_until_connected`, `typing_count`, `request_log`, `internal_errors`.
Faults: `drop_gateway`, `request_reconnect`, `invalidate_sessions`.

Every driver call returns frozen records (`records`). A call a Discord user could not make
(unknown command, missing option, disabled button, hidden channel) raises `StandInError`;
a bot that does not answer in time raises `BotDidNotAnswer`.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
from collections.abc import Mapping, Sequence
from typing import Any

from aiohttp import web

from .core import Core
from .directory import (
    ChannelRef,
    GuildRef,
    MessageRef,
    UserInfo,
    UserRef,
    create_user,
)
from .dm_limits import DmLimit
from .errors import ApiError, BotDidNotAnswer, StandInError
from .factory import InteractionFactory
from .gateway import (
    HEARTBEAT_ACK_DELAY,
    MAX_GUILDS_PER_SESSION,
    PRIVILEGED_INTENTS,
    GatewayHooks,
    GatewayHub,
    GatewaySession,
)
from .inspection import Inspection
from .interaction_state import INTERACTION_TOKEN_LIFETIME, InteractionState
from .model import (
    DEFAULT_BOT_PERMISSIONS,
    ChannelType,
    Json,
    Message,
    Permission,
    World,
)
from .nonces import DEFAULT_WINDOW as DEFAULT_NONCE_WINDOW
from .openapi import OpenApiCheck, default_check
from .payloads import (
    DEFAULT_ATTACHMENT_SIZE_LIMIT,
    Application,
    Payloads,
)
from .records import (
    Choice,
    ComponentType,
    InteractionKind,
    InteractionResult,
    MessageOrigin,
    MessageRecord,
)
from .rest import Rest
from .session_payloads import guild_payloads, member_chunks, ready_payload
from .snowflakes import SnowflakeFactory
from .threads import open_for_message

_log = logging.getLogger(__name__)


GUILDS_PER_RECOMMENDED_SHARD = 1000
"""Guilds per shard in the stand-in's recommended shard count (Discord recommends about
one shard per 1,000 guilds; Topics > Gateway, Get Gateway Bot)."""


class StandIn(Inspection):
    """A Discord API v10 stand-in for discord.py on 127.0.0.1, with a driver for tests.

    `token` is the bot token it accepts; `ack_deadline` the seconds the bot has to answer
    an interaction before it fails, as on Discord (None: no limit); `bot_permissions` what
    the bot's role may do in each new guild; `allowed_privileged_intents` the privileged
    intents "enabled in the developer portal" (others close the gateway with 4014);
    `nonce_window` the seconds a message nonce sent with `enforce_nonce` is remembered
    ("the past few minutes" in Discord's documentation; `standin/nonces.py`);
    `heartbeat_interval_ms` the interval HELLO asks for (Discord's 41250 ms) and
    `heartbeat_ack_delay` the seconds before a heartbeat is acknowledged, a network round
    trip (`standin.gateway.HEARTBEAT_ACK_DELAY` says why it is not 0). With `id_seed`,
    people, guilds and channels get ids derived from the seed and their names
    (`SnowflakeFactory.named`), the same in every stand-in with that seed, so a bot's
    database of an earlier run finds its users and channels again; the bot's own user and
    application, messages, roles and interactions always get new ids.
    Shards: `GET /gateway/bot` recommends `recommended_shards` (None: one per
    `GUILDS_PER_RECOMMENDED_SHARD` guilds); a session identifying with `[shard_id,
    num_shards]` gets the guilds of its shard only, direct messages and their
    interactions on shard 0; one that would handle more than `max_guilds_per_session`
    guilds (Discord's 2500) is closed with 4011, sharding required.
    With `openapi_check` (else `standin.openapi.default_check()`, None outside tests), every
    REST request and answer is checked against Discord's OpenAPI specification and the
    failures kept in the check (`standin/openapi.py`).
    `token_lifetime` is the seconds an interaction token lasts (Discord's 15 minutes;
    `advance_clock` moves the stand-in's clock on); with `dm_limit`, the DM channels the
    bot opens and the messages it sends to DMs beyond that budget are refused 429
    (`standin/dm_limits.py`; `dm_counts`).
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
        heartbeat_ack_delay: float = HEARTBEAT_ACK_DELAY,
        bot_permissions: int = int(DEFAULT_BOT_PERMISSIONS),
        attachment_size_limit: int = DEFAULT_ATTACHMENT_SIZE_LIMIT,
        allowed_privileged_intents: int = int(PRIVILEGED_INTENTS),
        nonce_window: float = DEFAULT_NONCE_WINDOW,
        id_seed: str | None = None,
        recommended_shards: int | None = None,
        max_guilds_per_session: int = MAX_GUILDS_PER_SESSION,
        openapi_check: OpenApiCheck | None = None,
        token_lifetime: float = INTERACTION_TOKEN_LIFETIME,
        dm_limit: DmLimit | None = None,
    ) -> None:
        self.token = token or f"standin.{secrets.token_urlsafe(24)}"
        self.recommended_shards = recommended_shards
        self.host = host
        self._port = port
        self._ids = SnowflakeFactory(seed=id_seed)
        self.world = World(self._ids)
        bot_user = create_user(self.world, self._ids, bot_name, bot=True)
        owner = create_user(self.world, self._ids, owner_name)
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
            ready_payload=lambda s: ready_payload(self.world, self._payloads, s, self.gateway_url),
            guild_payloads=lambda s: guild_payloads(self.world, self._payloads, s),
            member_chunks=lambda s, data: member_chunks(self.world, self._payloads, s, data),
            on_ready=self._on_session_ready,
            has_guild=lambda g: g in self.world.guilds and self.world.guilds[g].bot_installed,
        )
        self.hub = GatewayHub(
            hooks,
            heartbeat_interval_ms=heartbeat_interval_ms,
            heartbeat_ack_delay=heartbeat_ack_delay,
            allowed_privileged=allowed_privileged_intents,
            max_guilds_per_session=max_guilds_per_session,
        )
        self.core = Core(
            self.world,
            self._payloads,
            self.hub,
            ack_deadline=ack_deadline,
            attachment_size_limit=attachment_size_limit,
            nonce_window=nonce_window,
            token_lifetime=token_lifetime,
            dm_limit=dm_limit,
        )
        super().__init__(self.core, bot_permissions=bot_permissions)
        self.factory = InteractionFactory(self)
        self.rest = Rest(
            self.core,
            lambda: self.token,
            lambda: (self.url, self.gateway_url),
            self._after_request,
            shards=self.shard_count_recommended,
            openapi_check=openapi_check or default_check(),
        )
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
        """The server's address, e.g. `http://127.0.0.1:41234` (dama-bot's `DAMA_DISCORD_URL`)."""
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
    def internal_errors(self) -> list[str]:
        """Requests the stand-in itself failed on (a bug here, answered with 400)."""
        return list(self.rest.internal_errors)

    @property
    def request_log(self) -> list[tuple[str, str, int]]:
        """Every REST request so far: (method, path, status)."""
        return self.rest.request_log

    async def wait_until_connected(
        self, timeout: float = 10.0, *, identifies: int = 1, resumes: int = 0
    ) -> None:
        """Wait until the bot is connected, having identified `identifies` times in all and
        resumed `resumes` times in all (READY or RESUMED and the guilds sent).

        Raises `BotDidNotAnswer` after `timeout` seconds.
        """

        def done() -> bool:
            return (
                self.hub.identify_count >= identifies
                and self.hub.resume_count >= resumes
                and self.connected
            )

        async def ready() -> None:
            async with self._ready:
                await self._ready.wait_for(done)

        try:
            await asyncio.wait_for(ready(), timeout)
        except TimeoutError:
            raise BotDidNotAnswer(
                f"the bot did not connect to the stand-in's gateway within {timeout} s "
                f"(identified {self.hub.identify_count} time(s), resumed "
                f"{self.hub.resume_count}; did it log in with standin.token, with discord.py "
                "pointed at standin.rest_base and standin.gateway_url?)"
            ) from None

    async def wait_for_commands(
        self, names: Sequence[str] = (), *, guild: GuildRef | None = None, timeout: float = 10.0
    ) -> list[Json]:
        """Wait until commands named `names` (any, when empty) are registered; returns them.

        `guild` waits for that guild's own commands instead of the global ones.
        """

        def have() -> set[str]:
            return {c["name"] for c in self.commands(guild)}

        def done() -> bool:
            names_now = have()
            return set(names) <= names_now if names else bool(names_now)

        async def registered() -> None:
            async with self._ready:
                await self._ready.wait_for(done)

        try:
            await asyncio.wait_for(registered(), timeout)
        except TimeoutError:
            raise BotDidNotAnswer(
                f"the bot did not register {', '.join(names) or 'any command'} within "
                f"{timeout} s (registered: {', '.join(sorted(have())) or 'none'})"
            ) from None
        return self.commands(guild)

    async def _after_request(self) -> None:
        async with self._ready:
            self._ready.notify_all()

    # ---- gateway hooks ----------------------------------------------------------------
    def shard_count_recommended(self) -> int:
        """The `shards` of `GET /gateway/bot`: `recommended_shards` when set, else one
        shard per `GUILDS_PER_RECOMMENDED_SHARD` guilds (at least one)."""
        if self.recommended_shards is not None:
            return self.recommended_shards
        return max(1, -(-len(self.world.guilds) // GUILDS_PER_RECOMMENDED_SHARD))

    async def _on_session_ready(self, session: GatewaySession) -> None:
        async with self._ready:
            self._ready.notify_all()

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
        """A user posts a plain message (MESSAGE_CREATE; content only with that intent). In
        an archived thread the message unarchives it (THREAD_UPDATE); a locked thread
        takes it only from a user with MANAGE_THREADS, else `StandInError`."""
        u, ch = await self.factory._prepare_actor(user, channel)
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
        if ch.type.is_thread:
            try:
                await open_for_message(self.core, ch, u.id)  # unarchives, unless locked
            except ApiError as exc:
                raise StandInError(
                    f"{u.username} may not post in the thread #{ch.name}: {exc.message}"
                ) from None
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

    async def _send(self, state: InteractionState) -> None:
        raw_guild = state.payload.get("guild_id")
        guild_id = None if raw_guild is None else int(raw_guild)
        sessions = [
            s for s in self.hub.live_sessions
            if s.socket is not None and not s.socket.closed and s.handles(guild_id)
        ]
        if not sessions:
            where = "direct messages" if guild_id is None else f"guild {guild_id}"
            raise StandInError(
                f"no bot session connected to the stand-in's gateway handles {where} "
                "(await standin.wait_until_connected() after starting it; a sharded bot "
                "needs the shard (guild_id >> 22) % num_shards connected)"
            )
        self.core.register_interaction(state)
        state.created = self.core.now()
        await self.hub.send_to(sessions[-1], "INTERACTION_CREATE", state.payload)
        state.payload = {}  # sent (and kept for RESUME by the session); no need to hold it

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
        remaining = timeout - (self.core.now() - state.created)
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
        state = await self.factory.command(
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
        state = await self.factory.command(
            InteractionKind.AUTOCOMPLETE, user, channel, command, options, focused
        )
        await self._send(state)
        return (await self._answer(state, timeout)).choices

    async def press(
        self, user: UserRef, message: MessageRef, button: str, *, timeout: float = 10.0
    ) -> InteractionResult:
        """`user` presses the button with that custom_id or label on `message`."""
        state = await self.factory.component(user, message, button, (ComponentType.BUTTON,), None)
        await self._send(state)
        return await self._answer(state, timeout)

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
        state = await self.factory.component(
            user, message, menu, (ComponentType.STRING_SELECT,), values
        )
        await self._send(state)
        return await self._answer(state, timeout)

    async def submit_modal(
        self,
        user: UserRef,
        opened: InteractionResult,
        values: Mapping[str, str],
        *,
        timeout: float = 10.0,
    ) -> InteractionResult:
        """`user` fills in the modal the bot opened (text inputs by custom_id) and submits it."""
        state = await self.factory.modal_submit(user, opened, values)
        await self._send(state)
        return await self._answer(state, timeout)

    def interaction(self, interaction_id: int) -> InteractionResult:
        """The current record of an interaction (e.g. follow-ups sent after it was answered)."""
        state = self.core.interactions.get(interaction_id)
        if state is None:
            raise StandInError(f"no interaction {interaction_id}")
        return self.core.result(state)
