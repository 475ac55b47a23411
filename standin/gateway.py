"""The gateway websocket: HELLO, IDENTIFY, READY, GUILD_CREATE, heartbeats, RESUME, dispatch.

Opcodes, close codes and the event order follow Discord's developer docs (Topics > Gateway,
Gateway Events, Opcodes and Status Codes). A session may identify with `shard`
`[shard_id, num_shards]` (Topics > Gateway, Sharding): it then gets only the events of
the guilds with `(guild_id >> 22) % num_shards == shard_id`, and direct messages only on
shard 0; a session that would handle more than `max_guilds_per_session` guilds is closed
with 4011 (sharding required). Frames are JSON text, or one zlib stream when
the client asks `compress=zlib-stream` (each message ends with a Z_SYNC_FLUSH, as Discord
sends). Sessions stay resumable after the socket closes: events dispatched meanwhile are
kept and replayed on RESUME, as Discord does.
"""

from __future__ import annotations

import asyncio
import contextlib
import enum
import json
import logging
import zlib
from collections import deque
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from aiohttp import WSMsgType, web

from .model import new_token

_log = logging.getLogger(__name__)

Json = dict[str, Any]


class Op(enum.IntEnum):
    """Gateway opcodes."""

    DISPATCH = 0
    HEARTBEAT = 1
    IDENTIFY = 2
    PRESENCE_UPDATE = 3
    VOICE_STATE_UPDATE = 4
    RESUME = 6
    RECONNECT = 7
    REQUEST_GUILD_MEMBERS = 8
    INVALID_SESSION = 9
    HELLO = 10
    HEARTBEAT_ACK = 11


class CloseCode(enum.IntEnum):
    """Gateway close codes the stand-in uses."""

    UNKNOWN_ERROR = 4000
    UNKNOWN_OPCODE = 4001
    DECODE_ERROR = 4002
    NOT_AUTHENTICATED = 4003
    AUTHENTICATION_FAILED = 4004
    ALREADY_AUTHENTICATED = 4005
    INVALID_SHARD = 4010
    SHARDING_REQUIRED = 4011
    DISALLOWED_INTENTS = 4014


class Intent(enum.IntFlag):
    """Gateway intents the stand-in looks at."""

    GUILDS = 1 << 0
    GUILD_MEMBERS = 1 << 1
    GUILD_PRESENCES = 1 << 8
    GUILD_MESSAGES = 1 << 9
    DIRECT_MESSAGES = 1 << 12
    MESSAGE_CONTENT = 1 << 15
    GUILD_SCHEDULED_EVENTS = 1 << 16


PRIVILEGED_INTENTS = Intent.GUILD_MEMBERS | Intent.GUILD_PRESENCES | Intent.MESSAGE_CONTENT
REPLAY_LIMIT = 5000
MAX_GUILDS_PER_SESSION = 2500
"""Discord's limit of guilds on one session before it closes with 4011 ("sharding
required"; Topics > Gateway, Sharding)."""
HEARTBEAT_ACK_DELAY = 0.05
"""Seconds between a heartbeat and its ACK: a network round trip to Discord (tens of
milliseconds). discord.py's keep-alive thread records when it sent a heartbeat only after
the event loop has sent it and the thread has woken up again
(`discord.gateway.KeepAliveHandler.run` sets `_last_send` after `f.result()`), and
measures the ACK against that time (`KeepAliveHandler.ack`). An ACK sent back at once on
127.0.0.1 can be read by the loop before the thread records the send, so it was measured
against the heartbeat before: one whole interval "behind" (`Can't keep up, shard ID None
websocket is 41.3s behind.` at every heartbeat, and `Client.latency` of about 41 s)."""


@dataclass
class GatewaySession:
    """One identified gateway session (survives its socket for RESUME)."""

    id: str
    intents: int
    shard: list[int] | None
    seq: int = 0
    backlog: deque[tuple[int, Json]] = field(default_factory=lambda: deque(maxlen=REPLAY_LIMIT))
    socket: GatewaySocket | None = None
    invalidated: bool = False

    def wants(self, intent: int) -> bool:
        """True when the session identified with every bit of `intent`."""
        return self.intents & intent == intent

    def handles(self, guild_id: int | None) -> bool:
        """True when this session gets `guild_id`'s events (None: direct messages, which
        go to shard 0): every guild without a shard, else the guilds of its shard."""
        if self.shard is None:
            return True
        shard_id, num_shards = self.shard
        if guild_id is None:
            return shard_id == 0
        return (guild_id >> 22) % num_shards == shard_id


GUILD_OBJECT_EVENTS = frozenset({"GUILD_CREATE", "GUILD_UPDATE", "GUILD_DELETE"})
"""Events whose data is the guild itself (its `id`); others name it in `guild_id`."""


def guild_of(event: str, data: Json) -> int | None:
    """The guild an event belongs to (None: none, e.g. a direct message), for routing it
    to the shard that handles that guild."""
    raw = data.get("id") if event in GUILD_OBJECT_EVENTS else data.get("guild_id")
    return None if raw is None else int(raw)


def valid_shard(value: Any) -> list[int] | None:
    """`[shard_id, num_shards]` from IDENTIFY's `shard`, or None when it is malformed
    (not two integers, `num_shards` under 1, or `shard_id` outside 0..num_shards-1)."""
    if (
        not isinstance(value, list)
        or len(value) != 2
        or not all(isinstance(v, int) and not isinstance(v, bool) for v in value)
    ):
        return None
    shard_id, num_shards = value
    if num_shards < 1 or not 0 <= shard_id < num_shards:
        return None
    return [shard_id, num_shards]


class GatewaySocket:
    """One websocket: serialises sends (one zlib stream per socket when compressing)."""

    def __init__(self, ws: web.WebSocketResponse, compress: bool) -> None:
        self.ws = ws
        self._compressor = zlib.compressobj() if compress else None
        self._lock = asyncio.Lock()
        self.session: GatewaySession | None = None

    @property
    def closed(self) -> bool:
        """True once the socket is closing or closed."""
        return self.ws.closed

    async def send(self, payload: Json) -> None:
        """Send one gateway payload; a closed socket is ignored (the session keeps it)."""
        text = json.dumps(payload, separators=(",", ":"))
        async with self._lock:
            if self.ws.closed:
                return
            try:
                if self._compressor is None:
                    await self.ws.send_str(text)
                else:
                    data = self._compressor.compress(text.encode())
                    data += self._compressor.flush(zlib.Z_SYNC_FLUSH)
                    await self.ws.send_bytes(data)
            except (ConnectionError, RuntimeError) as exc:
                _log.debug("gateway send failed: %s", exc)

    async def close(self, code: int, reason: str = "") -> None:
        """Close the socket with a gateway close code."""
        with contextlib.suppress(ConnectionError, RuntimeError):
            await self.ws.close(code=code, message=reason.encode())


class GatewayHooks:
    """What the gateway asks of the stand-in (kept apart so the hub stays small)."""

    def __init__(
        self,
        token: Callable[[], str],
        ready_payload: Callable[[GatewaySession], Json],
        guild_payloads: Callable[[GatewaySession], list[Json]],
        member_chunks: Callable[[GatewaySession, Json], list[Json]],
        on_ready: Callable[[GatewaySession], Awaitable[None]],
        has_guild: Callable[[int], bool] = lambda guild_id: True,
    ) -> None:
        self.token = token
        self.ready_payload = ready_payload
        self.guild_payloads = guild_payloads
        self.member_chunks = member_chunks
        self.on_ready = on_ready
        self.has_guild = has_guild  # False: the bot is not in that guild, hears nothing of it


class GatewayHub:
    """Accepts gateway connections and dispatches events to the live sessions."""

    def __init__(
        self,
        hooks: GatewayHooks,
        *,
        heartbeat_interval_ms: int = 41250,
        heartbeat_ack_delay: float = HEARTBEAT_ACK_DELAY,
        allowed_privileged: int = int(PRIVILEGED_INTENTS),
        max_guilds_per_session: int = MAX_GUILDS_PER_SESSION,
    ) -> None:
        self.hooks = hooks
        self.max_guilds_per_session = max_guilds_per_session
        self.heartbeat_interval_ms = heartbeat_interval_ms
        self.heartbeat_ack_delay = heartbeat_ack_delay
        self._acks: set[asyncio.Task[None]] = set()
        self.allowed_privileged = allowed_privileged
        self.sessions: dict[str, GatewaySession] = {}
        self.connections: set[GatewaySocket] = set()
        self.identify_count = 0
        self.resume_count = 0
        self.heartbeats = 0

    @property
    def live_sessions(self) -> list[GatewaySession]:
        """Sessions that are not invalidated (connected now or resumable)."""
        return [s for s in self.sessions.values() if not s.invalidated]

    async def handle(self, request: web.Request) -> web.WebSocketResponse:
        """The `GET /gateway` websocket handler."""
        ws = web.WebSocketResponse(max_msg_size=0, autoping=True)
        await ws.prepare(request)
        conn = GatewaySocket(ws, request.query.get("compress") == "zlib-stream")
        self.connections.add(conn)
        try:
            await conn.send(
                {
                    "op": Op.HELLO,
                    "d": {"heartbeat_interval": self.heartbeat_interval_ms},
                    "s": None,
                    "t": None,
                }
            )
            async for msg in ws:
                if msg.type is not WSMsgType.TEXT and msg.type is not WSMsgType.BINARY:
                    break
                try:
                    raw = msg.data if msg.type is WSMsgType.TEXT else msg.data.decode()
                    payload = json.loads(raw)
                    op = int(payload["op"])
                except (ValueError, KeyError, TypeError, UnicodeDecodeError):
                    await conn.close(CloseCode.DECODE_ERROR, "Decode error")
                    break
                await self._on_payload(conn, op, payload.get("d"))
        finally:
            self.connections.discard(conn)
            if conn.session is not None and conn.session.socket is conn:
                conn.session.socket = None
        return ws

    async def _on_payload(self, conn: GatewaySocket, op: int, data: Any) -> None:
        if op == Op.HEARTBEAT:
            self.heartbeats += 1
            # Answered after a round trip's delay, without holding up the payloads behind it
            # (HEARTBEAT_ACK_DELAY says why).
            ack = asyncio.create_task(self._ack_heartbeat(conn))
            self._acks.add(ack)
            ack.add_done_callback(self._acks.discard)
        elif op == Op.IDENTIFY:
            await self._identify(conn, data)
        elif op == Op.RESUME:
            await self._resume(conn, data)
        elif conn.session is None:
            await conn.close(CloseCode.NOT_AUTHENTICATED, "Not authenticated.")
        elif op == Op.REQUEST_GUILD_MEMBERS:
            for chunk in self.hooks.member_chunks(conn.session, data or {}):
                await self.send_to(conn.session, "GUILD_MEMBERS_CHUNK", chunk)
        elif op in (Op.PRESENCE_UPDATE, Op.VOICE_STATE_UPDATE):
            pass
        else:
            await conn.close(CloseCode.UNKNOWN_OPCODE, "Unknown opcode.")

    async def _ack_heartbeat(self, conn: GatewaySocket) -> None:
        await asyncio.sleep(self.heartbeat_ack_delay)
        await conn.send({"op": Op.HEARTBEAT_ACK, "d": None, "s": None, "t": None})

    async def _identify(self, conn: GatewaySocket, data: Any) -> None:
        if conn.session is not None:
            await conn.close(CloseCode.ALREADY_AUTHENTICATED, "Already authenticated.")
            return
        if not isinstance(data, dict) or data.get("token") != self.hooks.token():
            await conn.close(CloseCode.AUTHENTICATION_FAILED, "Authentication failed.")
            return
        intents = int(data.get("intents", 0))
        if intents & PRIVILEGED_INTENTS & ~self.allowed_privileged:
            await conn.close(CloseCode.DISALLOWED_INTENTS, "Disallowed intent(s).")
            return
        shard = None
        if data.get("shard") is not None:
            shard = valid_shard(data.get("shard"))
            if shard is None:
                await conn.close(CloseCode.INVALID_SHARD, "Invalid shard.")
                return
        session = GatewaySession(id=new_token()[:32], intents=intents, shard=shard)
        guilds = self.hooks.guild_payloads(session)
        if len(guilds) > self.max_guilds_per_session:
            await conn.close(CloseCode.SHARDING_REQUIRED, "Sharding required.")
            return
        self.identify_count += 1
        self.sessions[session.id] = session
        session.socket = conn
        conn.session = session
        await self.send_to(session, "READY", self.hooks.ready_payload(session))
        for guild in guilds:
            await self.send_to(session, "GUILD_CREATE", guild)
        await self.hooks.on_ready(session)

    async def _resume(self, conn: GatewaySocket, data: Any) -> None:
        session = self.sessions.get(str((data or {}).get("session_id")))
        if (
            session is None
            or session.invalidated
            or not isinstance(data, dict)
            or data.get("token") != self.hooks.token()
        ):
            await conn.send({"op": Op.INVALID_SESSION, "d": False, "s": None, "t": None})
            return
        self.resume_count += 1
        old = session.socket
        if old is not None and old is not conn:
            await old.close(CloseCode.UNKNOWN_ERROR, "Session resumed elsewhere")
        session.socket = conn
        conn.session = session
        last = int(data.get("seq") or 0)
        for seq, payload in list(session.backlog):
            if seq > last:
                await conn.send(payload)
        await self.send_to(session, "RESUMED", {})
        await self.hooks.on_ready(session)

    async def send_to(self, session: GatewaySession, event: str, data: Json) -> None:
        """Dispatch `event` to one session (queued for RESUME when it has no socket)."""
        session.seq += 1
        payload = {"op": Op.DISPATCH, "t": event, "s": session.seq, "d": data}
        session.backlog.append((session.seq, payload))
        if session.socket is not None:
            await session.socket.send(payload)

    async def dispatch(self, event: str, make: Callable[[GatewaySession], Json | None]) -> int:
        """Send `event` to every live session that handles its guild (`guild_of`,
        `GatewaySession.handles`); `make` builds its data or None to skip it.

        Returns how many sessions it was sent (or queued) to.
        """
        sent = 0
        for session in self.live_sessions:
            data = make(session)
            guild_id = None if data is None else guild_of(event, data)
            if guild_id is not None and not self.hooks.has_guild(guild_id):
                continue
            if data is not None and session.handles(guild_id):
                await self.send_to(session, event, data)
                sent += 1
        return sent

    async def drop_connections(self, code: int = CloseCode.UNKNOWN_ERROR) -> None:
        """Close every socket with `code` (4000 lets clients resume; 1000 does too)."""
        for conn in list(self.connections):
            await conn.close(code, "dropped by the stand-in")

    async def request_reconnect(self) -> None:
        """Send op 7 RECONNECT to every connected session (clients then resume)."""
        for conn in list(self.connections):
            if conn.session is not None:
                await conn.send({"op": Op.RECONNECT, "d": None, "s": None, "t": None})

    async def invalidate_sessions(self) -> None:
        """Forget every session: clients must identify again (op 9 d=false)."""
        for session in self.sessions.values():
            session.invalidated = True
        for conn in list(self.connections):
            await conn.send({"op": Op.INVALID_SESSION, "d": False, "s": None, "t": None})

    async def close(self) -> None:
        """Close every socket (1001, going away) at shutdown."""
        for ack in list(self._acks):
            ack.cancel()
        for conn in list(self.connections):
            await conn.close(1001, "stand-in stopping")
