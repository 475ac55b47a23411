"""What the gateway sends a session about the world: READY, GUILD_CREATE and member
chunks (Discord docs, Gateway Events); `StandIn` hands these to its `GatewayHub`."""

from __future__ import annotations

from .gateway import GatewaySession, Intent
from .model import Json, World
from .payloads import Payloads


def ready_payload(
    world: World, payloads: Payloads, session: GatewaySession, gateway_url: str
) -> Json:
    """The READY event's data for `session`: the bot user, its shard's guilds as unavailable
    (GUILD_CREATE follows), `gateway_url` to resume at (Discord docs, Gateway Events)."""
    data: Json = {
        "v": 10,
        "user": payloads.current_user(),
        "user_settings": {},
        "session_type": "normal",
        "session_id": session.id,
        "resume_gateway_url": gateway_url,
        "relationships": [],
        "private_channels": [],
        "presences": [],
        "guilds": [
            payloads.unavailable_guild(g)
            for g in world.guilds.values()
            if session.handles(g.id) and g.bot_installed
        ],
        "guild_join_requests": [],
        "geo_ordered_rtc_regions": ["local"],
        "application": payloads.ready_application(),
        "_trace": ['["dama-standin",{"micros":0}]'],
    }
    if session.shard is not None:
        data["shard"] = session.shard
    return data


def guild_payloads(world: World, payloads: Payloads, session: GatewaySession) -> list[Json]:
    """The GUILD_CREATE data of the guilds `session` handles, every member with the
    presences intent (Discord docs, Gateway Events)."""
    everyone = session.wants(Intent.GUILD_PRESENCES)
    return [
        payloads.guild(g, all_members=everyone)
        for g in world.guilds.values()
        if session.handles(g.id) and g.bot_installed
    ]


def member_chunks(
    world: World, payloads: Payloads, session: GatewaySession, data: Json
) -> list[Json]:
    """The GUILD_MEMBERS_CHUNK answers to a Request Guild Members `data` (by user ids or a
    name prefix, up to `limit`), in one chunk (Discord docs, Gateway Events)."""
    guild = world.guilds.get(int(data.get("guild_id") or 0))
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
            if world.users[m.user_id].username.casefold().startswith(prefix)
        ]
    limit = int(data.get("limit") or 0)
    if limit:
        members = members[:limit]
    chunk: Json = {
        "guild_id": str(guild.id),
        "members": [payloads.member(m) for m in members],
        "chunk_index": 0,
        "chunk_count": 1,
        "not_found": [],
    }
    if data.get("nonce"):
        chunk["nonce"] = data["nonce"]
    return [chunk]
