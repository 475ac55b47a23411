"""`SettingsService`: a player's preferences and a server's defaults, stored by name
(`storage.SettingsRepository`, migration 0005) and kept in memory once read.

A player's preferences (`/settings`): the side their boards are drawn from (`BoardSide`:
auto, meaning the side they play, or always White or Black) and how Italian moves are
written to them (`Notation`: numeric, the federation's, by default; or algebraic). A
server's defaults (`/server-settings`, for members with Manage Server): the limits on
pending challenges from one player and to one player (`ChallengeLimits`; the defaults come
from the environment, `bot.config`). Both may choose a language (`language`: a code of
`bot.language.Language`, None for automatic; `bot.language` says what it decides). One
more preference is one more name and field here; the table needs no migration.
"""

from __future__ import annotations

import enum
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import TypeVar

from bot.language import AUTO, Language, from_locale
from engine import Color
from storage import SettingsRepository

log = logging.getLogger(__name__)

MAX_CHALLENGE_LIMIT = 25
"""The highest limit on pending challenges a server may set."""


class BoardSide(enum.StrEnum):
    """The side a player's boards are drawn from."""

    AUTO = "auto"
    """The side they play (a spectator: the side to move)."""
    WHITE = "white"
    BLACK = "black"


class Notation(enum.StrEnum):
    """How Italian moves are written to a player (other variants are always algebraic;
    docs/RULES.md, "Coordinates and notation")."""

    NUMERIC = "numeric"
    ALGEBRAIC = "algebraic"


@dataclass(frozen=True)
class PlayerSettings:
    """One player's preferences (the defaults when nothing is stored)."""

    board_side: BoardSide = BoardSide.AUTO
    notation: Notation = Notation.NUMERIC
    language: str | None = None
    """The language they chose (`bot.language.Language`); None: automatic."""

    def side(self, playing: Color | None, to_move: Color) -> Color:
        """The side at the bottom of the board for this player: their fixed side, else
        the colour they play (`playing`, None when they do not play), else `to_move`."""
        if self.board_side is BoardSide.WHITE:
            return Color.WHITE
        if self.board_side is BoardSide.BLACK:
            return Color.BLACK
        return playing if playing is not None else to_move

    @property
    def numeric(self) -> bool:
        """Whether Italian moves are written in numbers to this player."""
        return self.notation is Notation.NUMERIC


@dataclass(frozen=True)
class ChallengeLimits:
    """Most pending challenges in one server from one player (`per_challenger`) and to
    one player (`per_opponent`), each 1..`MAX_CHALLENGE_LIMIT`."""

    per_challenger: int = 3
    per_opponent: int = 5


@dataclass(frozen=True)
class GuildSettings:
    """One server's defaults."""

    limits: ChallengeLimits
    language: str | None = None
    """The language the server's admins chose for it; None: automatic."""


_BOARD_SIDE = "board_side"
_NOTATION = "notation"
_PER_CHALLENGER = "challenges_per_challenger"
_PER_OPPONENT = "challenges_per_opponent"
_LANGUAGE = "language"


E = TypeVar("E", bound=enum.StrEnum)


def _enum(kind: type[E], stored: str | None, default: E) -> E:
    if stored is None:
        return default
    try:
        return kind(stored)
    except ValueError:
        log.warning("stored setting %r is not a %s: using %s", stored, kind.__name__, default)
        return default


def _language(stored: str | None) -> str | None:
    if stored is None:
        return None
    if from_locale(stored) is None or stored != from_locale(stored):
        log.warning("stored language %r has no catalog: automatic", stored)
        return None
    return stored


def _language_value(language: str) -> str | None:
    """The stored value for a `language` option: None (removed) for `AUTO`. Raises
    ValueError for a language without a catalog."""
    if language == AUTO:
        return None
    codes = [known.value for known in Language]
    if language not in codes:
        raise ValueError(f"language must be one of {codes} or {AUTO!r}, not {language!r}")
    return language


def _limit(stored: str | None, default: int) -> int:
    if stored is None:
        return default
    try:
        value = int(stored)
    except ValueError:
        value = 0
    if not 1 <= value <= MAX_CHALLENGE_LIMIT:
        log.warning("stored challenge limit %r is out of range: using %d", stored, default)
        return default
    return value


class SettingsService:
    """Reads and changes preferences and server defaults. `defaults`: the challenge
    limits of a server that changed nothing (from the environment).
    `player_cache_seconds`: how long a player's preferences read are kept in memory (None:
    until this process changes them). With several bot processes (shards), a player may
    change them through another process, so the bot reads them again after a while; a
    server's defaults are changed only through the process that owns the server."""

    def __init__(self, repository: SettingsRepository,
                 defaults: ChallengeLimits = ChallengeLimits(), *,
                 player_cache_seconds: float | None = None,
                 monotonic: Callable[[], float] = time.monotonic) -> None:
        self._repository = repository
        self._defaults = defaults
        self._player_cache_seconds = player_cache_seconds
        self._monotonic = monotonic
        self._players: dict[int, tuple[float, PlayerSettings]] = {}
        self._guilds: dict[int, GuildSettings] = {}

    @property
    def default_limits(self) -> ChallengeLimits:
        return self._defaults

    @staticmethod
    def _player_from(stored: dict[str, str]) -> PlayerSettings:
        return PlayerSettings(
            board_side=_enum(BoardSide, stored.get(_BOARD_SIDE), BoardSide.AUTO),
            notation=_enum(Notation, stored.get(_NOTATION), Notation.NUMERIC),
            language=_language(stored.get(_LANGUAGE)),
        )

    def _guild_from(self, stored: dict[str, str]) -> GuildSettings:
        return GuildSettings(ChallengeLimits(
            per_challenger=_limit(stored.get(_PER_CHALLENGER), self._defaults.per_challenger),
            per_opponent=_limit(stored.get(_PER_OPPONENT), self._defaults.per_opponent),
        ), language=_language(stored.get(_LANGUAGE)))

    async def player(self, user_id: int) -> PlayerSettings:
        """The user's preferences (defaults for what they never set)."""
        now = self._monotonic()
        entry = self._players.get(user_id)
        ttl = self._player_cache_seconds
        if entry is not None and (ttl is None or now - entry[0] < ttl):
            return entry[1]
        settings = self._player_from(await self._repository.player(user_id))
        self._players[user_id] = (now, settings)
        return settings

    async def update_player(self, user_id: int, *, board_side: BoardSide | None = None,
                            notation: Notation | None = None,
                            language: str | None = None) -> PlayerSettings:
        """Store the preferences given (None: unchanged; `language` "auto" removes the
        choice) and return them all. Raises ValueError for a language without a catalog
        (nothing stored), and what the repository raises (`StorageWriteError`); nothing
        changes then."""
        values: dict[str, str | None] = {}
        if language is not None:
            values[_LANGUAGE] = _language_value(language)
        if board_side is not None:
            values[_BOARD_SIDE] = board_side.value
        if notation is not None:
            values[_NOTATION] = notation.value
        stored = (await self._repository.set_player(user_id, values) if values
                  else await self._repository.player(user_id))
        settings = self._player_from(stored)
        self._players[user_id] = (self._monotonic(), settings)
        return settings

    async def guild(self, guild_id: int | None) -> GuildSettings:
        """The server's defaults (direct messages, None: the environment's)."""
        if guild_id is None:
            return GuildSettings(self._defaults)
        cached = self._guilds.get(guild_id)
        if cached is None:
            cached = self._guild_from(await self._repository.guild(guild_id))
            self._guilds[guild_id] = cached
        return cached

    async def update_guild(self, guild_id: int, *, per_challenger: int | None = None,
                           per_opponent: int | None = None,
                           language: str | None = None) -> GuildSettings:
        """Store the server's limits given (None: unchanged) and return its defaults.
        `language` as for `update_player`. Raises ValueError for a limit outside
        1..`MAX_CHALLENGE_LIMIT` or a language without a catalog (nothing stored;
        the command's registered range keeps Discord clients from sending one)."""
        values: dict[str, str | None] = {}
        if language is not None:
            values[_LANGUAGE] = _language_value(language)
        for name, value in ((_PER_CHALLENGER, per_challenger), (_PER_OPPONENT, per_opponent)):
            if value is None:
                continue
            if not 1 <= value <= MAX_CHALLENGE_LIMIT:
                raise ValueError(f"{name} must be 1..{MAX_CHALLENGE_LIMIT}, not {value}")
            values[name] = str(value)
        stored = (await self._repository.set_guild(guild_id, values) if values
                  else await self._repository.guild(guild_id))
        settings = self._guild_from(stored)
        self._guilds[guild_id] = settings
        return settings


    async def player_language(self, user_id: int) -> str | None:
        """The language the user chose, None for automatic (`bot.ui.languages`)."""
        return (await self.player(user_id)).language

    async def guild_language(self, guild_id: int) -> str | None:
        """The language the server's admins chose, None for automatic."""
        return (await self.guild(guild_id)).language


__all__ = [
    "AUTO",
    "MAX_CHALLENGE_LIMIT",
    "BoardSide",
    "ChallengeLimits",
    "GuildSettings",
    "Notation",
    "PlayerSettings",
    "SettingsService",
]
