"""`PreferenceService`: a player's preferences and a server's defaults, stored by name
(`storage.SettingsRepository`, migration 0005) and kept in memory once read.

A player's preferences (`/settings`): the side their boards are drawn from (`BoardSide`:
auto, meaning the side they play, or always White or Black) and how Italian moves are
written to them (`Notation`: numeric, the federation's, by default; or algebraic), and
where they are told that it is their turn (`Notify`: a direct message, the game's
channel, or off, the default). A
server's defaults (`/server-settings`, for members with Manage Server): the limits on
pending challenges from one player and to one player (`ChallengeLimits`; the defaults come
from the environment, `bot.config`), and the role whose members may run tournaments
besides those with Manage Server (`organiser_role`, None: none; `/tournament`,
docs/PLAYING.md), and how the server's games, tournaments and leaderboard show on the
web face (`web`: `WebVisibility`, public, by signed link only, the default, or off;
`bot.services.web_access`). Both may choose a language (`language`: a code of
`bot.language.Language`, None for automatic; `bot.language` says what it decides).

Each preference is declared once, in `PREFERENCES` (a `Preference`: name, kind, who sets
it, stored name, its embed lines); reading stored values, checking changes, the commands'
options and the embeds (`bot.cogs.settings`) follow from the declarations. One more
preference is one more declaration and its field here, and its texts (docs/
ARCHITECTURE.md, "Where a change goes"); the table needs no migration.
"""

from __future__ import annotations

import enum
import logging
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import assert_never

from bot.language import AUTO, Language, from_locale
from bot.messages import Msg
from engine import Color
from storage import SettingsRepository

log = logging.getLogger(__name__)

MAX_CHALLENGE_LIMIT = 25
"""The highest limit on pending challenges a server may set."""

NO_ROLE = 0
"""The value of a role preference that removes the role (the command gives it for the
server's @everyone role: `bot.cogs.settings`)."""

ID_LIMIT = 2**63
"""Role ids are Discord snowflakes, below 2^63 (the stored text is read back as one)."""


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


class Notify(enum.StrEnum):
    """Where a player is told that it is their turn in a game with a per-move time of an
    hour or more (`bot.services.notifications`; docs/ARCHITECTURE.md, "Notifications"):
    a direct message, a message in the game's channel mentioning them (a direct message
    where the bot cannot post), or nowhere (the default: notifications are opt-in)."""

    DM = "dm"
    CHANNEL = "channel"
    OFF = "off"


class WebVisibility(enum.StrEnum):
    """How a server's games, tournaments and leaderboard show on the web face (the
    server default `web`; the rule: `bot.services.web_access`, docs/ARCHITECTURE.md "The
    web face")."""

    PUBLIC = "public"
    """By their id and by a signed link."""
    LINK = "link"
    """Only by a signed link (the default)."""
    OFF = "off"
    """Not at all."""

    def allows(self, signed: bool) -> bool:
        """Whether a page of this visibility is shown to a request that came by a signed
        link (`signed`: its token checked) or by the id alone (False)."""
        match self:
            case WebVisibility.PUBLIC:
                return True
            case WebVisibility.LINK:
                return signed
            case WebVisibility.OFF:
                return False
            case _:
                assert_never(self)


@dataclass(frozen=True)
class PlayerSettings:
    """One player's preferences (the defaults when nothing is stored)."""

    board_side: BoardSide = BoardSide.AUTO
    notation: Notation = Notation.NUMERIC
    notify: Notify = Notify.OFF
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

    def value(self, name: str) -> object:
        """The value of the preference `name` (`PREFERENCES`). Raises AttributeError for
        a name that is not a player's preference."""
        return getattr(self, name)


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
    organiser_role: int | None = None
    """The role whose members may run tournaments besides those with Manage Server (its
    Discord id); None: none."""
    web: WebVisibility = WebVisibility.LINK
    """How the server's pages show on the web face."""

    def value(self, name: str) -> object:
        """The value of the server default `name` (`PREFERENCES`; a limit from
        `limits`). Raises AttributeError for a name that is not a server default."""
        return getattr(self.limits if hasattr(self.limits, name) else self, name)


class Setter(enum.Enum):
    """Who may set a preference: each player for themselves (`/settings`), a server's
    managers for the server (`/server-settings`), or both, each their own."""

    PLAYER = "player"
    SERVER = "server"
    BOTH = "both"

    def allows(self, who: Setter) -> bool:
        """Whether `who` (PLAYER or SERVER) may set it."""
        return self is Setter.BOTH or self is who


class Kind(enum.Enum):
    """What a preference holds, and so how it is read, checked, offered and written."""

    CHOICE = "choice"
    """One value of an enum (`Preference.values`), each written by its word."""
    LANGUAGE = "language"
    """A language code of `bot.language.Language`, or none (automatic: `AUTO` removes it)."""
    LIMIT = "limit"
    """A whole number 1..`MAX_CHALLENGE_LIMIT`; the default is the environment's
    (`ChallengeLimits`, from `bot.config`)."""
    ROLE = "role"
    """A role of the server, by its id, or none (`NO_ROLE` removes it)."""


@dataclass(frozen=True)
class Preference:
    """One preference, declared once: its `name` (the command option, the field of
    `PlayerSettings` or `GuildSettings`, or of `ChallengeLimits` for a limit), what it
    holds (`kind`; for a choice, the enum of its `values` and the `words` each is written
    with, a message per value), who sets it (`setter`), the stored name (`stored`, in the
    settings table: no migration), and the line each settings embed shows it on
    (`player_line`, `server_line`: a message with `{value}`, and `{default}` for a limit).
    The command options, their choices, the embeds and the checks all follow from it
    (`PREFERENCES`; docs/ARCHITECTURE.md, "Where a change goes")."""

    name: str
    kind: Kind
    setter: Setter
    stored: str
    player_line: Msg | None = None
    server_line: Msg | None = None
    values: type[enum.StrEnum] | None = None
    words: Mapping[str, Msg] = field(default_factory=dict)

    def line(self, who: Setter) -> Msg:
        """The embed line for `who` (PLAYER or SERVER). Raises ValueError when `who` may
        not set it (a declaration without that line)."""
        line = self.player_line if who is Setter.PLAYER else self.server_line
        if line is None or not self.setter.allows(who):
            raise ValueError(f"{self.name} is not set by {who.value}")
        return line

    def choices(self) -> tuple[str, ...]:
        """The values a choice may take, in the enum's order (empty for other kinds)."""
        return () if self.values is None else tuple(member.value for member in self.values)

    def read(self, stored: str | None, default: object) -> object:
        """The value of a stored text; `default` for none, or for one it cannot use
        (logged: a value written by another version, or by hand)."""
        if stored is None:
            return default
        match self.kind:
            case Kind.CHOICE:
                assert self.values is not None
                try:
                    return self.values(stored)
                except ValueError:
                    pass
            case Kind.LANGUAGE:
                if from_locale(stored) is not None and stored == from_locale(stored):
                    return stored
            case Kind.LIMIT:
                if stored.isdigit() and 1 <= int(stored) <= MAX_CHALLENGE_LIMIT:
                    return int(stored)
            case Kind.ROLE:
                if stored.isascii() and stored.isdigit() and 0 < int(stored) < ID_LIMIT:
                    return int(stored)
            case _:
                assert_never(self.kind)
        log.warning("stored %s %r is not usable: using %r", self.name, stored, default)
        return default

    def storable(self, value: str | int) -> str | None:
        """The text to store for an option's `value` (None: remove the stored value, back
        to the default: a language's `AUTO`). Raises ValueError for a value it does not
        take (nothing is stored then; the registered choices and range keep Discord
        clients from sending one)."""
        match self.kind:
            case Kind.CHOICE:
                if str(value) not in self.choices():
                    raise ValueError(f"{self.name} must be one of {self.choices()}, "
                                     f"not {value!r}")
                return str(value)
            case Kind.LANGUAGE:
                if value == AUTO:
                    return None
                codes = [known.value for known in Language]
                if value not in codes:
                    raise ValueError(f"{self.name} must be one of {codes} or {AUTO!r}, "
                                     f"not {value!r}")
                return str(value)
            case Kind.LIMIT:
                if isinstance(value, bool) or not isinstance(value, int) or not (
                        1 <= value <= MAX_CHALLENGE_LIMIT):
                    raise ValueError(f"{self.name} must be 1..{MAX_CHALLENGE_LIMIT}, "
                                     f"not {value!r}")
                return str(value)
            case Kind.ROLE:
                if isinstance(value, bool) or not isinstance(value, int) or not (
                        0 <= value < ID_LIMIT):
                    raise ValueError(f"{self.name} must be a role id, not {value!r}")
                return None if value == NO_ROLE else str(value)
            case _:
                assert_never(self.kind)


PREFERENCES: tuple[Preference, ...] = (
    Preference("board_side", Kind.CHOICE, Setter.PLAYER, "board_side",
               player_line=Msg.SETTINGS_LINE_BOARD_SIDE, values=BoardSide,
               words={BoardSide.AUTO: Msg.SIDE_AUTO, BoardSide.WHITE: Msg.COLOR_WHITE,
                      BoardSide.BLACK: Msg.COLOR_BLACK}),
    Preference("notation", Kind.CHOICE, Setter.PLAYER, "notation",
               player_line=Msg.SETTINGS_LINE_NOTATION, values=Notation,
               words={Notation.NUMERIC: Msg.NOTATION_NUMERIC,
                      Notation.ALGEBRAIC: Msg.NOTATION_ALGEBRAIC}),
    Preference("notify", Kind.CHOICE, Setter.PLAYER, "notify",
               player_line=Msg.SETTINGS_LINE_NOTIFY, values=Notify,
               words={Notify.DM: Msg.NOTIFY_DM, Notify.CHANNEL: Msg.NOTIFY_CHANNEL,
                      Notify.OFF: Msg.NOTIFY_OFF}),
    Preference("per_challenger", Kind.LIMIT, Setter.SERVER, "challenges_per_challenger",
               server_line=Msg.SERVER_SETTINGS_LINE_PER_CHALLENGER),
    Preference("per_opponent", Kind.LIMIT, Setter.SERVER, "challenges_per_opponent",
               server_line=Msg.SERVER_SETTINGS_LINE_PER_OPPONENT),
    Preference("language", Kind.LANGUAGE, Setter.BOTH, "language",
               player_line=Msg.SETTINGS_LANGUAGE, server_line=Msg.SERVER_SETTINGS_LANGUAGE),
    Preference("organiser_role", Kind.ROLE, Setter.SERVER, "organiser_role",
               server_line=Msg.SERVER_SETTINGS_LINE_ORGANISER_ROLE),
    Preference("web", Kind.CHOICE, Setter.SERVER, "web",
               server_line=Msg.SERVER_SETTINGS_LINE_WEB, values=WebVisibility,
               words={WebVisibility.PUBLIC: Msg.WEB_VISIBILITY_PUBLIC,
                      WebVisibility.LINK: Msg.WEB_VISIBILITY_LINK,
                      WebVisibility.OFF: Msg.WEB_VISIBILITY_OFF}),
)
"""Every preference and server default, in the order the commands offer them."""


def preferences_of(who: Setter) -> tuple[Preference, ...]:
    """The preferences `who` (PLAYER or SERVER) sets, in their declared order."""
    return tuple(preference for preference in PREFERENCES if preference.setter.allows(who))


def _changes(who: Setter, changes: Mapping[str, str | int]) -> dict[str, str | None]:
    """The stored values of an update by `who`. Raises ValueError for a name `who` does
    not set, or a value its preference does not take."""
    known = {preference.name: preference for preference in preferences_of(who)}
    values: dict[str, str | None] = {}
    for name, value in changes.items():
        preference = known.get(name)
        if preference is None:
            raise ValueError(f"{name!r} is not a {who.value} preference")
        values[preference.stored] = preference.storable(value)
    return values


class PreferenceService:
    """Reads and changes preferences and server defaults. `defaults`: the challenge
    limits of a server that changed nothing (from the environment).
    `player_cache_seconds`: how long a player's preferences read are kept in memory (None:
    until this process changes them). With several bot processes (shards), a player may
    change them through another process, so the bot reads them again after a while; a
    server's defaults are changed only through the process that owns the server.
    `guild_cache_seconds`: the same for a server's defaults (None: until this process
    changes them), for a process that reads servers it does not own (`dama-bot web`)."""

    def __init__(self, repository: SettingsRepository,
                 defaults: ChallengeLimits = ChallengeLimits(), *,
                 player_cache_seconds: float | None = None,
                 guild_cache_seconds: float | None = None,
                 monotonic: Callable[[], float] = time.monotonic) -> None:
        self._repository = repository
        self._defaults = defaults
        self._player_cache_seconds = player_cache_seconds
        self._guild_cache_seconds = guild_cache_seconds
        self._monotonic = monotonic
        self._players: dict[int, tuple[float, PlayerSettings]] = {}
        self._guilds: dict[int, tuple[float, GuildSettings]] = {}

    @staticmethod
    def _player_from(stored: Mapping[str, str]) -> PlayerSettings:
        defaults = PlayerSettings()
        # Each value is read by its declaration, so it has its field's type.
        return PlayerSettings(**{  # type: ignore[arg-type]
            preference.name: preference.read(stored.get(preference.stored),
                                             defaults.value(preference.name))
            for preference in preferences_of(Setter.PLAYER)
        })

    def _guild_from(self, stored: Mapping[str, str]) -> GuildSettings:
        defaults = GuildSettings(self._defaults)
        limits: dict[str, object] = {}
        others: dict[str, object] = {}
        for preference in preferences_of(Setter.SERVER):
            value = preference.read(stored.get(preference.stored),
                                    defaults.value(preference.name))
            (limits if preference.kind is Kind.LIMIT else others)[preference.name] = value
        # Each value is read by its declaration, so it has its field's type.
        return GuildSettings(ChallengeLimits(**limits), **others)  # type: ignore[arg-type]

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

    async def update_player(self, user_id: int, **changes: str | int) -> PlayerSettings:
        """Store the preferences given by name (`PREFERENCES` a player sets; a language's
        `AUTO` removes the choice) and return them all. Raises ValueError for a name or a
        value a player preference does not take (nothing stored), and what the
        repository raises (`StorageWriteError`); nothing changes then."""
        values = _changes(Setter.PLAYER, changes)
        stored = (await self._repository.set_player(user_id, values) if values
                  else await self._repository.player(user_id))
        settings = self._player_from(stored)
        self._players[user_id] = (self._monotonic(), settings)
        return settings

    async def guild(self, guild_id: int | None) -> GuildSettings:
        """The server's defaults (direct messages, None: the environment's)."""
        if guild_id is None:
            return GuildSettings(self._defaults)
        now = self._monotonic()
        entry = self._guilds.get(guild_id)
        ttl = self._guild_cache_seconds
        if entry is not None and (ttl is None or now - entry[0] < ttl):
            return entry[1]
        settings = self._guild_from(await self._repository.guild(guild_id))
        self._guilds[guild_id] = (now, settings)
        return settings

    async def update_guild(self, guild_id: int, **changes: str | int) -> GuildSettings:
        """Store the server's defaults given by name (`PREFERENCES` a server sets) and
        return them all. Raises ValueError for a name or a value a server default does
        not take (a limit outside 1..`MAX_CHALLENGE_LIMIT`, a language without a
        catalog; nothing stored: the command's registered choices and range keep Discord
        clients from sending one), and what the repository raises."""
        values = _changes(Setter.SERVER, changes)
        stored = (await self._repository.set_guild(guild_id, values) if values
                  else await self._repository.guild(guild_id))
        settings = self._guild_from(stored)
        self._guilds[guild_id] = (self._monotonic(), settings)
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
    "NO_ROLE",
    "PREFERENCES",
    "BoardSide",
    "ChallengeLimits",
    "GuildSettings",
    "Kind",
    "Notation",
    "Notify",
    "PlayerSettings",
    "Preference",
    "PreferenceService",
    "Setter",
    "WebVisibility",
    "preferences_of",
]
