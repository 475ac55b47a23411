"""The bot's settings, read from the environment and a `.env` file (python-dotenv).

`load_settings()` returns a frozen `Config`; a bad value raises `ConfigError`, whose
message is one line naming the setting, the value and what to write instead. The
environment wins over `.env`. Every setting is listed and explained in `.env.example`.

Durations are written as a number with a unit: `40s`, `10m`, `1h`, `3d` (a bare number
is seconds).
"""

from __future__ import annotations

import ipaddress
import logging
import os
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import timedelta
from pathlib import Path

from dotenv import dotenv_values

from bot.endpoint import endpoint_for
from bot.services.models import MoveTime
from bot.services.notifications.values import Limits
from bot.services.settings import MAX_CHALLENGE_LIMIT
from bot.services.shards import MAX_SHARDS, ShardScope, parse_shard_ids
from bot.services.web_access import MIN_SECRET_LENGTH, IPNetwork, WebAddress, WebSettings
from storage import DEFAULT_PATH, DEFAULT_POOL_SIZE, MAX_POOL_SIZE, Eligibility, is_postgresql

__all__ = [
    "Config",
    "ConfigError",
    "MoveTime",
    "WebSettings",
    "load_settings",
    "log_level_number",
    "parse_duration",
    "settings_from",
]


class ConfigError(ValueError):
    """A setting has a value the bot cannot use. The message is one line: which setting,
    what it holds, and what to write."""


_DURATION = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*([smhd]?)\s*$", re.IGNORECASE)
_UNITS = {"": 1, "s": 1, "m": 60, "h": 3600, "d": 86400}
_LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL")
_TRUE = {"1", "true", "yes", "on"}
_FALSE = {"0", "false", "no", "off"}


def parse_duration(text: str) -> timedelta:
    """`40s`, `10m`, `1h`, `3d` or seconds as a bare number -> a timedelta. Raises
    `ValueError` for anything else."""
    match = _DURATION.match(text)
    if match is None:
        raise ValueError(f"{text!r} is not a duration like 40s, 10m, 1h or 3d")
    return timedelta(seconds=float(match.group(1)) * _UNITS[match.group(2).lower()])


@dataclass(frozen=True)
class Config:
    """Everything configurable.

    token: the Discord bot token (None: not set). database: SQLite file path.
    dev_guild: a guild id to sync commands to instantly (None: global sync).
    log_level: a `logging` level name. discord_url: the stand-in's address (None: Discord).
    challenge_expiry: how long a challenge stays open. correspondence_challenge_expiry:
    at least how long a correspondence challenge (a move time of a day or more) stays
    open. inactivity_limit: a game with no move
    for this long is lost on time by the player to move. eligibility: who appears on
    leaderboards (minimum rated games, deviation strictly below a maximum).
    default_rated, default_move_time: `/challenge` defaults. computer_moves_before_forfeit:
    how many moves in a row the computer may make for an absent player before that player
    loses on time (docs/RULES.md, "Project-wide game rules"). absent_player_level,
    absent_player_budget: the computer's level (1..5) and thinking seconds when it moves
    for an absent player. computer_budget: thinking seconds of the computer's own moves in
    `/play` games (None: each level's own, 0.3 s at level 1 to 2 s at level 5).
    computer_workers: processes that search (None: one per CPU). computer_queue_limit:
    searches that may wait for a worker before the computer's own moves are refused with
    the estimated wait (None: 16 per worker; see `bot.computer_queue`). board_size: board
    picture side in pixels. challenges_per_challenger, challenges_per_opponent: the
    default limits on pending challenges in a server from one player and to one player
    (each server's admins may change them with /server-settings; `bot.services.settings`).
    shard_count: how many shards the bot has in all (None: the count Discord recommends,
    every shard in this process). shard_ids: the shards this process runs (None: all of
    them); see `bot.services.shards`. machine_processes: how many bot processes run on
    this machine, which share its cores: without `computer_workers`, each process starts
    `cores // machine_processes` search workers (at least one). database_pool_size: on
    PostgreSQL, the connections this process keeps to the server, so the transactions it
    runs at once (`storage.postgres.PostgresDatabase.open`; ignored for SQLite).
    notify_per_second, notify_quiet, notify_user_pace, notify_queue_size: the turn
    notifications' global pace (messages per second per process), how long a player who
    used the bot hears nothing, the least time between two messages to one player, and
    the most messages waiting in memory (`bot.services.notifications.Limits`).
    web: the game pages on the web (`WebSettings`; None: neither a web server nor links,
    when neither `DAMA_WEB_ADDRESS` nor `DAMA_WEB_URL` is set).
    """

    token: str | None = None
    database: str = DEFAULT_PATH
    dev_guild: int | None = None
    log_level: str = "INFO"
    discord_url: str | None = None
    challenge_expiry: timedelta = timedelta(minutes=10)
    correspondence_challenge_expiry: timedelta = timedelta(days=3)
    inactivity_limit: timedelta = timedelta(days=3)
    eligibility: Eligibility = field(
        default_factory=lambda: Eligibility(min_games=5, max_deviation=110.0)
    )
    default_rated: bool = True
    default_move_time: MoveTime = MoveTime.NONE
    computer_moves_before_forfeit: int = 3
    absent_player_level: int = 5
    absent_player_budget: float = 1.0
    computer_budget: float | None = None
    computer_workers: int | None = None
    computer_queue_limit: int | None = None
    board_size: int = 512
    challenges_per_challenger: int = 3
    challenges_per_opponent: int = 5
    shard_count: int | None = None
    shard_ids: frozenset[int] | None = None
    machine_processes: int = 1
    database_pool_size: int = DEFAULT_POOL_SIZE
    notify_per_second: float = Limits.per_second
    notify_quiet: timedelta = Limits.quiet
    notify_user_pace: timedelta = Limits.user_pace
    notify_queue_size: int = Limits.queue_size
    web: WebSettings | None = None

    @property
    def notification_limits(self) -> Limits:
        """The turn notifications' limits (`bot.services.notifications.Limits`)."""
        return Limits(per_second=self.notify_per_second, quiet=self.notify_quiet,
                      user_pace=self.notify_user_pace, queue_size=self.notify_queue_size)

    @property
    def shard_scope(self) -> ShardScope:
        """The games this process owns (`bot.services.shards.ShardScope`)."""
        return ShardScope(self.shard_count, self.shard_ids)


def _shards(env: Mapping[str, str]) -> tuple[int | None, frozenset[int] | None]:
    """`DAMA_SHARD_COUNT` and `DAMA_SHARD_IDS`, checked together."""
    count = _optional_int(env, "DAMA_SHARD_COUNT", 1, MAX_SHARDS)
    text = env.get("DAMA_SHARD_IDS", "").strip()
    if not text:
        return count, None
    if count is None:
        raise _one_line(
            "DAMA_SHARD_IDS", text,
            "set DAMA_SHARD_COUNT too (the shards of all processes together), "
            "or leave DAMA_SHARD_IDS empty to run every shard in this process",
        )
    try:
        return count, parse_shard_ids(text, count)
    except ValueError as error:
        raise _one_line("DAMA_SHARD_IDS", text, str(error)) from None


_URL = re.compile(r"([A-Za-z][A-Za-z0-9+.-]*)://")


def _database(env: Mapping[str, str]) -> str:
    """`DAMA_DATABASE`: an SQLite file path or a PostgreSQL URL (docs/OPERATING.md).
    Raises `ConfigError` for a URL of any other scheme (a typo, another database), which
    would otherwise be taken for a file path; the message shows its scheme only (the rest
    may hold a password)."""
    value = env.get("DAMA_DATABASE", "").strip() or DEFAULT_PATH
    url = _URL.match(value)
    if url is not None and not is_postgresql(value):
        raise _one_line("DAMA_DATABASE", f"{url[1]}://...",
                        "write an SQLite file path or a PostgreSQL URL, "
                        "postgresql://user:password@host:port/name")
    return value


def _one_line(name: str, value: str, hint: str) -> ConfigError:
    return ConfigError(f"{name}={value!r} is not valid: {hint}")


MAX_DURATION = timedelta(days=365)
"""The longest challenge expiry or inactivity limit (deadlines must stay representable)."""


def _duration(env: Mapping[str, str], name: str, default: timedelta) -> timedelta:
    text = env.get(name, "").strip()
    if not text:
        return default
    try:
        value = parse_duration(text)
    except (ValueError, OverflowError):
        raise _one_line(name, text, "write a duration such as 40s, 10m, 1h or 3d") from None
    if value <= timedelta(0):
        raise _one_line(name, text, "the duration must be more than zero")
    if value > MAX_DURATION:
        raise _one_line(name, text, "write at most 365d")
    return value


def _int(env: Mapping[str, str], name: str, default: int, low: int, high: int) -> int:
    text = env.get(name, "").strip()
    if not text:
        return default
    try:
        value = int(text)
    except ValueError:
        raise _one_line(name, text, f"write a whole number from {low} to {high}") from None
    if not low <= value <= high:
        raise _one_line(name, text, f"write a whole number from {low} to {high}")
    return value


def _float(env: Mapping[str, str], name: str, default: float, low: float, high: float) -> float:
    text = env.get(name, "").strip()
    if not text:
        return default
    try:
        value = float(text)
    except ValueError:
        raise _one_line(name, text, f"write a number from {low:g} to {high:g}") from None
    if not low <= value <= high:
        raise _one_line(name, text, f"write a number from {low:g} to {high:g}")
    return value


def _optional_float(env: Mapping[str, str], name: str, low: float, high: float) -> float | None:
    if not env.get(name, "").strip():
        return None
    return _float(env, name, low, low, high)


def _optional_int(env: Mapping[str, str], name: str, low: int, high: int) -> int | None:
    if not env.get(name, "").strip():
        return None
    return _int(env, name, low, low, high)


def _bool(env: Mapping[str, str], name: str, default: bool) -> bool:
    text = env.get(name, "").strip().lower()
    if not text:
        return default
    if text in _TRUE:
        return True
    if text in _FALSE:
        return False
    raise _one_line(name, text, "write true or false")


def _snowflake(env: Mapping[str, str], name: str) -> int | None:
    text = env.get(name, "").strip()
    if not text:
        return None
    if not text.isdigit() or int(text) <= 0:
        raise _one_line(
            name, text, "write the guild's numeric id (Developer Mode, right-click the "
            "server, Copy Server ID), or leave it empty for global commands"
        )
    return int(text)


DEFAULT_WEB_HOST = "127.0.0.1"
"""The host the web server listens on when `DAMA_WEB_ADDRESS` gives only a port."""

_HOST = re.compile(r"^[A-Za-z0-9.-]+$")
_BRACKETED = re.compile(r"^\[([0-9A-Fa-f:.]+)\]:(\d{1,5})$")


def parse_web_address(text: str) -> WebAddress:
    """`host:port`, `[IPv6 address]:port` or a bare port (host `DEFAULT_WEB_HOST`) -> a
    `WebAddress`. Raises ValueError for anything else, or a port outside 1..65535."""
    text = text.strip()
    bracketed = _BRACKETED.match(text)
    if bracketed is not None:
        host, port_text = bracketed[1], bracketed[2]
    else:
        host, _, port_text = text.rpartition(":")
        if host and not _HOST.match(host):
            raise ValueError(f"{text!r} is not host:port or a port")
    if not (port_text.isascii() and port_text.isdigit()) or len(port_text) > 5:
        raise ValueError(f"{text!r} is not host:port or a port")
    port = int(port_text)
    if not 1 <= port <= 65535:
        raise ValueError(f"port {port} is not 1..65535")
    return WebAddress(host or DEFAULT_WEB_HOST, port)


_IPV4_MAPPED = ipaddress.IPv6Network("::ffff:0:0/96")
"""The IPv4-mapped IPv6 addresses (RFC 4291, 2.5.5.2)."""


def _unmapped(network: IPNetwork) -> IPNetwork:
    """`network` inside the IPv4-mapped addresses as its IPv4 network, else itself: the
    limits read a mapped peer as its IPv4 address (`bot.web.limits.client_address`)."""
    if not (isinstance(network, ipaddress.IPv6Network) and network.subnet_of(_IPV4_MAPPED)):
        return network
    mapped = network.network_address.ipv4_mapped
    return network if mapped is None else ipaddress.IPv4Network((mapped, network.prefixlen - 96))


def _trusted_proxies(env: Mapping[str, str]) -> frozenset[IPNetwork]:
    """`DAMA_WEB_TRUSTED_PROXIES`: IP addresses and networks in CIDR form separated by
    commas (`10.0.0.0/8,172.16.0.0/12,127.0.0.1`; an address is a network of one, host
    bits are dropped: `ipaddress.ip_network(strict=False)`; an IPv4-mapped network is its
    IPv4 network, `_unmapped`). Raises `ConfigError` naming
    the first bad entry (docs/OPERATING.md, "Game pages on the web")."""
    networks: set[IPNetwork] = set()
    for entry in env.get("DAMA_WEB_TRUSTED_PROXIES", "").split(","):
        if not entry.strip():
            continue
        try:
            networks.add(_unmapped(ipaddress.ip_network(entry.strip(), strict=False)))
        except ValueError:
            raise _one_line("DAMA_WEB_TRUSTED_PROXIES", entry.strip(),
                            "write IP addresses or networks (10.0.0.0/8) separated by "
                            "commas") from None
    return frozenset(networks)


def _is_origin(url: str) -> bool:
    """Whether `url`'s authority is a host (a name, an IPv4 address or a bracketed IPv6
    address) and an optional port 1..65535, with no user name or password: Discord refuses
    a link button whose URL is not one, and with it the whole message (RFC 3986, 3.2)."""
    authority = url.partition("://")[2].partition("/")[0]
    bracketed = re.match(r"^\[([0-9A-Fa-f:.]+)\](?::(\d{1,5}))?$", authority)
    if bracketed:
        try:
            ipaddress.IPv6Address(bracketed[1])
        except ValueError:
            return False
        port_text = bracketed[2]
    else:
        host, colon, port_text = authority.partition(":")
        if not _HOST.match(host) or ".." in host or (colon and not port_text):
            return False
    if port_text:
        if not (port_text.isascii() and port_text.isdigit()) or len(port_text) > 5:
            return False
        return 1 <= int(port_text) <= 65535
    return True


def _unspecified(host: str) -> bool:
    """Whether `host` is an address meaning every interface (0.0.0.0, ::): one to listen
    on, never one to link to."""
    try:
        return ipaddress.ip_address(host).is_unspecified
    except ValueError:
        return False


def _web(env: Mapping[str, str]) -> WebSettings | None:
    """`DAMA_WEB_ADDRESS`, `DAMA_WEB_URL`, `DAMA_WEB_SECRET`, `DAMA_WEB_RATE`,
    `DAMA_WEB_TRUSTED_PROXIES` (docs/OPERATING.md, "Game pages on the web")."""
    address_text = env.get("DAMA_WEB_ADDRESS", "").strip()
    url = env.get("DAMA_WEB_URL", "").strip().rstrip("/")
    if not address_text and not url:
        return None
    address = None
    if address_text:
        try:
            address = parse_web_address(address_text)
        except ValueError:
            raise _one_line("DAMA_WEB_ADDRESS", address_text,
                            "write host:port (127.0.0.1:8080) or a port (8080)") from None
    if url and not re.match(r"^https?://[^/\s?#]+(/[^\s?#]*)?$", url):
        raise _one_line("DAMA_WEB_URL", url,
                        "write the pages' public address, https://dama.example.org")
    if url and not _is_origin(url):
        raise _one_line("DAMA_WEB_URL", url,
                        "write a host name or IP address and an optional port 1..65535, "
                        "https://dama.example.org:8443")
    if url and "/" in url.partition("://")[2]:
        raise _one_line("DAMA_WEB_URL", url,
                        "the pages need their own host name, served at / (not a sub-path): "
                        "write an origin, https://dama.example.org")
    if not url and address is not None and _unspecified(address.host):
        raise ConfigError(f"DAMA_WEB_URL is needed with DAMA_WEB_ADDRESS={address_text!r} "
                          "(every interface, which no browser opens): write the pages' "
                          "public address, https://dama.example.org")
    secret = env.get("DAMA_WEB_SECRET", "").strip() or None
    if secret is not None and len(secret) < MIN_SECRET_LENGTH:
        raise ConfigError(f"DAMA_WEB_SECRET is not valid: write at least {MIN_SECRET_LENGTH} "
                          "characters (or leave it empty: the bot keeps one in the database)")
    return WebSettings(
        address=address,
        url=url or f"http://{address}",
        secret=secret,
        rate=_float(env, "DAMA_WEB_RATE", 10.0, 0.1, 10_000.0),
        burst=_int(env, "DAMA_WEB_BURST", 40, 1, 100_000),
        trusted_proxies=_trusted_proxies(env),
    )


def settings_from(env: Mapping[str, str]) -> Config:
    """Settings from a mapping of variable names to text (missing or empty: default).
    Raises `ConfigError` for a bad value."""
    level = env.get("DAMA_LOG_LEVEL", "").strip().upper() or "INFO"
    if level not in _LOG_LEVELS:
        raise _one_line("DAMA_LOG_LEVEL", level, "write one of " + ", ".join(_LOG_LEVELS))
    move_text = env.get("DAMA_DEFAULT_MOVE_TIME", "").strip().lower() or MoveTime.NONE.value
    try:
        move_time = MoveTime(move_text)
    except ValueError:
        raise _one_line(
            "DAMA_DEFAULT_MOVE_TIME", move_text,
            "write one of " + ", ".join(m.value for m in MoveTime),
        ) from None
    url = env.get("DAMA_DISCORD_URL", "").strip() or None
    if url is not None:
        try:
            endpoint_for(url)
        except ValueError as error:
            raise ConfigError(str(error)) from None
    token = env.get("DISCORD_TOKEN", "").strip() or None
    shard_count, shard_ids = _shards(env)
    return Config(
        token=token,
        database=_database(env),
        dev_guild=_snowflake(env, "DAMA_DEV_GUILD"),
        log_level=level,
        discord_url=url,
        challenge_expiry=_duration(env, "DAMA_CHALLENGE_EXPIRY", timedelta(minutes=10)),
        correspondence_challenge_expiry=_duration(
            env, "DAMA_CORRESPONDENCE_CHALLENGE_EXPIRY", timedelta(days=3)),
        inactivity_limit=_duration(env, "DAMA_INACTIVITY_LIMIT", timedelta(days=3)),
        eligibility=Eligibility(
            min_games=_int(env, "DAMA_LEADERBOARD_MIN_GAMES", 5, 0, 100_000),
            max_deviation=_float(env, "DAMA_LEADERBOARD_MAX_DEVIATION", 110.0, 1.0, 1000.0),
        ),
        default_rated=_bool(env, "DAMA_DEFAULT_RATED", True),
        default_move_time=move_time,
        computer_moves_before_forfeit=_int(env, "DAMA_COMPUTER_MOVES_BEFORE_FORFEIT", 3, 1, 100),
        absent_player_level=_int(env, "DAMA_ABSENT_PLAYER_LEVEL", 5, 1, 5),
        absent_player_budget=_float(env, "DAMA_ABSENT_PLAYER_BUDGET", 1.0, 0.01, 60.0),
        computer_budget=_optional_float(env, "DAMA_COMPUTER_BUDGET", 0.01, 60.0),
        computer_workers=_optional_int(env, "DAMA_COMPUTER_WORKERS", 1, 64),
        computer_queue_limit=_optional_int(env, "DAMA_COMPUTER_QUEUE_LIMIT", 0, 10_000),
        board_size=_int(env, "DAMA_BOARD_SIZE", 512, 160, 2048),
        challenges_per_challenger=_int(env, "DAMA_CHALLENGES_PER_CHALLENGER", 3, 1,
                                       MAX_CHALLENGE_LIMIT),
        challenges_per_opponent=_int(env, "DAMA_CHALLENGES_PER_OPPONENT", 5, 1,
                                     MAX_CHALLENGE_LIMIT),
        shard_count=shard_count,
        shard_ids=shard_ids,
        machine_processes=_int(env, "DAMA_MACHINE_PROCESSES", 1, 1, 1024),
        database_pool_size=_int(env, "DAMA_DATABASE_POOL_SIZE", DEFAULT_POOL_SIZE, 1,
                                MAX_POOL_SIZE),
        notify_per_second=_float(env, "DAMA_NOTIFY_PER_SECOND", Limits.per_second, 0.1, 50.0),
        notify_quiet=_duration(env, "DAMA_NOTIFY_QUIET", Limits.quiet),
        notify_user_pace=_duration(env, "DAMA_NOTIFY_USER_PACE", Limits.user_pace),
        notify_queue_size=_int(env, "DAMA_NOTIFY_QUEUE_SIZE", Limits.queue_size, 1, 10_000),
        web=_web(env),
    )


def load_settings(
    environ: Mapping[str, str] | None = None, dotenv_path: str | Path | None = ".env"
) -> Config:
    """Settings from `.env` (if the file exists) overridden by the environment.
    Raises `ConfigError`."""
    merged: dict[str, str] = {}
    if dotenv_path is not None and Path(dotenv_path).is_file():
        merged.update({k: v for k, v in dotenv_values(dotenv_path).items() if v is not None})
    merged.update(os.environ if environ is None else environ)
    return settings_from(merged)


def log_level_number(settings: Config) -> int:
    """The `logging` level number of `settings.log_level`."""
    return int(logging.getLevelName(settings.log_level))
