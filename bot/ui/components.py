"""One way to answer a press: the base of every persistent button and select, and the
router that hands a press to its feature's handler (docs/ARCHITECTURE.md, "Buttons and
other components").

A component is a `discord.ui.DynamicItem` whose `custom_id` is `dama:<action>:<...>`:
the action (a member of its feature's action enum: `bot.ui.buttons.GameAction`,
`bot.ui.analysis.AnalysisAction`, `bot.ui.puzzles.PuzzleAction`,
`bot.ui.tournaments.TournamentAction`) and what it acts on.
Its class parses the `custom_id` into a `Press` (a frozen value) and does nothing else:
every press then takes the same path, `ComponentRouter.dispatch`:

1. the deferral watchdog starts (`Answer.of`), the presser's language is settled
   (`bot.ui.languages.settle`);
2. what the press names is checked (`bot.services.press_targets.PressTargets`): a game
   the presser may not see, or that does not exist, is refused exactly alike
   (UNKNOWN_GAME), privately, and no message is changed; a board's game must be the
   channel's (GAME_ELSEWHERE); a challenge must exist in the channel (CHALLENGE_UNKNOWN);
   a tournament must be the server's, pressed in its channel or thread
   (TOURNAMENT_UNKNOWN);
   a press on the board of the channel's game in play must name that game at that ply or
   an earlier one (only the board's own buttons do; anything else, NOT_THIS_BOARDS, is a
   forged `custom_id`, which must not change the board);
3. the handler routed for the action's enum (one per feature, a cog method that matches
   every member of its enum, `typing.assert_never` after the last) calls one service
   method and answers;
4. any error goes to the `ErrorHandler` (`bot.ui.errors.ErrorReporter`), as for slash
   commands, so a press is always answered.

The client holds one `ComponentRouter` as `router` (the one thing a component needs of
it: `RouterHost`), and registers `COMPONENTS` of every feature as dynamic items.
"""

from __future__ import annotations

import enum
import logging
import re
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass
from typing import Any, Generic, Protocol, Self, TypeVar

import discord

from bot.messages import Msg, text
from bot.services import PlayerError
from bot.services.press_targets import PressTargets
from bot.ui.answer import Answer
from bot.ui.languages import LanguageChoices, settle
from bot.ui.reading import requester_of

log = logging.getLogger(__name__)

Interaction = discord.Interaction[Any]
A = TypeVar("A", bound=enum.Enum)
ItemT = TypeVar("ItemT", bound=discord.ui.Item[Any])


class Placement(enum.Enum):
    """Where a component's message is, so which game it may name."""

    GAME_CHANNEL = "game channel"
    """In the game's own channel (a board, a draw offer, the resign question): the game
    must be the channel's."""
    ANYWHERE = "anywhere"
    """Wherever it was asked for (an analysis, a puzzle): any game the presser may see."""


@dataclass(frozen=True)
class Press(Generic[A]):
    """One press, as its `custom_id` (and a select's picked value) says: the `action`
    and what it acts on. Fields a component does not carry are None."""

    action: A
    game_id: int | None = None
    placement: Placement = Placement.GAME_CHANNEL
    challenge_id: int | None = None
    ply: int | None = None
    """The ply the pressed board (or question) was drawn for."""
    asked: int | None = None
    """When the resign question was asked (Unix seconds)."""
    asker: int | None = None
    """The user the resign question was asked of."""
    puzzle_id: str | None = None
    picked: str | None = None
    """A select's picked value."""
    tournament_id: int | None = None


Handler = Callable[[Interaction, Press[A]], Awaitable[None]]


@dataclass(frozen=True)
class BoardInPlay:
    """The board message of a channel's game in play: its message id, the game, and the
    ply it was drawn for."""

    message_id: int
    game_id: int
    ply: int


CurrentBoard = Callable[[int], BoardInPlay | None]
"""The board in play in a channel (by its id), None without one."""


def no_board(channel_id: int) -> BoardInPlay | None:
    """A `CurrentBoard` for a router that knows no games."""
    return None


class ErrorHandler(Protocol):
    async def report(self, interaction: Interaction, error: BaseException) -> None:
        """Answer a failed interaction (`bot.ui.errors.ErrorReporter.report`)."""
        ...


class ComponentRouter:
    """Hands each press to the handler routed for its action's enum, after the checks
    every press gets (see the module docstring). `targets` reads what a press names,
    `errors` answers a failure, `languages` gives the presser's language choice (None:
    none stored, as before the services exist)."""

    def __init__(self, *, targets: PressTargets, errors: ErrorHandler,
                 languages: LanguageChoices | None,
                 current_board: CurrentBoard = no_board,
                 activity: Callable[[Interaction], Awaitable[None]] | None = None) -> None:
        self._targets = targets
        self._activity = activity
        self._current_board = current_board
        self._errors = errors
        self._languages = languages
        self._routes: dict[type[enum.Enum], Handler[Any]] = {}

    def route(self, actions: type[A], handler: Handler[A]) -> None:
        """Send the presses of every member of `actions` to `handler`. Raises
        `ValueError` when that enum already has a handler."""
        if actions in self._routes:
            raise ValueError(f"{actions.__name__} is routed already")
        self._routes[actions] = handler

    def unrouted(self, kinds: Iterable[type[enum.Enum]]) -> list[type[enum.Enum]]:
        """Those of `kinds` without a handler (the client checks none is left)."""
        return [kind for kind in kinds if kind not in self._routes]

    async def dispatch(self, interaction: Interaction, press: Press[Any]) -> None:
        """Check `press` and hand it to its handler; every error is answered by the
        `ErrorHandler` (nothing raises)."""
        Answer.of(interaction)  # the deferral watchdog, from the press's arrival
        await settle(interaction, self._languages)
        if self._activity is not None:
            await self._activity(interaction)  # the presser is active (notifications)
        try:
            await self._check(interaction, press)
            handler = self._routes.get(type(press.action))
            if handler is None:
                raise LookupError(f"no handler is routed for {press.action!r}")
            await handler(interaction, press)
        except Exception as error:
            await self._errors.report(interaction, error)

    async def _check(self, interaction: Interaction, press: Press[Any]) -> None:
        """Refuse a press naming a game or challenge the presser may not act on
        (`PressTargets`), or pressed on the board in play with what is not one of its
        buttons, before anything reads or changes it."""
        if press.game_id is not None:
            channel = (interaction.channel_id if press.placement is Placement.GAME_CHANNEL
                       else None)
            await self._targets.game(requester_of(interaction), press.game_id,
                                     channel_id=channel)
        if press.challenge_id is not None:
            await self._targets.challenge(press.challenge_id, interaction.channel_id)
        if press.tournament_id is not None:
            await self._targets.tournament(press.tournament_id, interaction.guild_id,
                                           interaction.channel_id)
        message, channel_id = interaction.message, interaction.channel_id
        board = None if channel_id is None else self._current_board(channel_id)
        if (board is not None and message is not None and message.id == board.message_id
                and (press.game_id != board.game_id or press.ply is None
                     or press.ply > board.ply)):
            # An earlier ply of this game passes: the move that made this board out of
            # date may be committed before its new board is posted (a stale press).
            raise PlayerError(Msg.NOT_THIS_BOARDS)


class RouterHost(Protocol):
    """What a component needs of the client: its router."""

    router: ComponentRouter


class Component(discord.ui.DynamicItem[ItemT], template=r"dama:base"):
    """The base of every persistent component: a discord.py item (a button or a select)
    and the `Press` its `custom_id` stands for. A subclass gives its `template` and
    builds itself from a match in `from_custom_id`; the press goes to the client's
    router."""

    def __init__(self, item: ItemT, press: Press[Any]) -> None:
        super().__init__(item)
        self.press = press

    async def callback(self, interaction: Interaction) -> None:
        host: RouterHost = interaction.client
        await host.router.dispatch(interaction, self.press)


class GameButton(Component[discord.ui.Button[Any]], template=r"dama:gamebase:(?P<id>[0-9]+)"):
    """A button that names one game and nothing else: `dama:<action>:<game_id>`. A
    subclass gives its `template` (with the group `id`), its `action`, the message id of
    its `label_key`, its `style` and its `placement`."""

    action: enum.Enum
    label_key: Msg
    style = discord.ButtonStyle.secondary
    placement = Placement.GAME_CHANNEL

    def __init__(self, game_id: int, locale: str | None = None) -> None:
        super().__init__(
            discord.ui.Button(label=text(self.label_key, locale), style=self.style,
                              custom_id=custom_id(self.action, game_id)),
            Press(self.action, game_id=game_id, placement=self.placement))

    @classmethod
    async def from_custom_id(cls, interaction: Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> Self:
        return cls(int(match["id"]))


def custom_id(action: enum.Enum, *parts: object) -> str:
    """`dama:<action>:<part>:<part>...`: the `custom_id` of a component."""
    return ":".join(["dama", str(action.value), *(str(p) for p in parts)])


def picked_value(interaction: Interaction) -> str | None:
    """The first value picked in a select (None when the payload has none)."""
    data: Any = interaction.data or {}
    values = data.get("values") or []
    return str(values[0]) if values else None
