"""Puzzle messages: the board from the solver's side (rendered in a worker thread), the
texts from the catalog, and the Hint, Reveal and Solve-it buttons.

Buttons are persistent (`bot.ui.components.Component`s):
`dama:phint:<user_id>:<puzzle_id>`, `dama:preveal:<user_id>:<puzzle_id>` (on the
solver's own ephemeral puzzle message; a press acts on the presser's own puzzle, and only
while it is that message's puzzle: an older message's buttons are refused) and
`dama:psolve:<puzzle_id>` (under a daily puzzle post: gives the presser that puzzle). A
press becomes a `Press[PuzzleAction]` and goes through the client's component router to
the `Puzzles` cog (`Puzzles.press`).
"""

from __future__ import annotations

import asyncio
import enum
import io
import itertools
import re
from datetime import date
from typing import Any

import discord

from bot.messages import Msg, text, variant_name
from bot.ratings import display_rating
from bot.services.puzzles import PuzzleService, PuzzleState
from bot.services.scheduler import DailyChannelGone
from bot.ui.components import Component, Press, custom_id
from bot.ui.languages import guild_language
from bot.ui.present import Perspective
from engine import Color, Move
from puzzles import Puzzle
from renderer import render_png
from storage.models import DailyPuzzleSetting, PuzzleResult

PUZZLE_FILE = "puzzle.png"
UNKNOWN_CHANNEL = 10003
"""Discord's JSON error code for a channel that does not exist (Discord's documentation,
"Opcodes and Status Codes", JSON error codes)."""
PUZZLE_COLOUR = discord.Colour(0x2E7D32)


def solving_move(view: PuzzleState) -> Move | None:
    """The solver's move that the view's last move answered, when that last move is the
    defence's reply in the puzzle's line (after a right `/solve`); None otherwise (no move
    yet, or the last move is the solver's own)."""
    last, before = view.last_move, view.before
    if last is None or before is None or before.turn is view.solver:
        return None
    line = view.puzzle.line()
    for (_, move), (position, reply) in itertools.pairwise(line):
        if position == before and reply == last:
            return move
    return None


def render_puzzle(view: PuzzleState, size: int = 512, reader: Perspective | None = None) -> bytes:
    """The puzzle's board PNG (blocking: call in a thread) as `reader` sees it: from their
    side, Italian squares numbered when they read numbers. None: the default reader, from
    the solver's side, Italian numbered. After a right move both arrows show: the
    defence's reply as the last move, the solver's move beneath it (`solving_move`;
    docs/PUZZLES.md: "the new picture shows both"); the hint's square is marked."""
    reader = reader or Perspective(side=view.solver)
    last = view.last_move
    return render_png(view.position, view.variant, perspective=reader.side, last_move=last,
                      before=view.before if last is not None else None, marks=view.marks,
                      size=size, numbers=reader.numbers(view.variant),
                      earlier_move=solving_move(view))


async def puzzle_file(view: PuzzleState, size: int = 512,
                      reader: Perspective | None = None) -> discord.File:
    png = await asyncio.to_thread(render_puzzle, view, size, reader)
    return discord.File(io.BytesIO(png), filename=PUZZLE_FILE)


SELF_PLAY_NAME = re.compile(r"level (?P<level>\d+) seed (?P<seed>\d+)")
# A PDN Date tag, "YYYY.MM.DD" with question marks for an unknown part (the PDN 3.0
# standard takes the Date tag over from PGN's; docs/RULES.md names the tags we write).
PDN_DATE = re.compile(r"(?P<year>\d{4}|\?{4})\.(?P<month>\d{2}|\?{2})\.(?P<day>\d{2}|\?{2})")
DETAIL_SEPARATOR = " - "


def known_date(date_tag: str) -> str:
    """The known leading parts of a PDN date `date_tag` ("2005.??.??" -> "2005",
    "2005.03.??" -> "2005.03"), "" when its year is unknown; a text that is not a PDN
    date comes back unchanged."""
    match = PDN_DATE.fullmatch(date_tag)
    if match is None:
        return date_tag
    known: list[str] = []
    for part in (match["year"], match["month"], match["day"]):
        if "?" in part:
            break
        known.append(part)
    return ".".join(known)


def shown_detail(detail: str) -> str:
    """A recorded game's `detail` (its players, event and date, as the puzzle miner joins
    them with " - ") as players see it: a date shows only its known parts, and is left
    out when none is known."""
    parts = (known_date(part) for part in detail.split(DETAIL_SEPARATOR))
    return DETAIL_SEPARATOR.join(part for part in parts if part)
"""How `python -m puzzles mine` names a self-play source (puzzles/cli.py), so that its
words are written in the reader's language and only the numbers are kept."""


def source_text(puzzle: Puzzle, locale: str | None = None) -> str:
    """Where the puzzle comes from, in a few words of `locale` (the source's name and
    details as the bank stores them, a PDN date only with its known parts)."""
    src = puzzle.source
    if src.kind == "pdn":
        detail = shown_detail(src.detail)
        game = f"{detail}, {src.name}" if detail else src.name
        return text(Msg.PUZZLE_SOURCE_RECORDED, locale, game=game, ply=src.ply)
    seeded = SELF_PLAY_NAME.fullmatch(src.name)
    if seeded is not None:
        return text(Msg.PUZZLE_SOURCE_SELF_PLAY_SEED, locale, level=seeded["level"],
                    seed=seeded["seed"], ply=src.ply)
    return text(Msg.PUZZLE_SOURCE_SELF_PLAY, locale, game=src.name, ply=src.ply)


def puzzle_embed(view: PuzzleState, locale: str | None, *, title: str | None = None,
                 note: str | None = None) -> discord.Embed:
    """The embed of a puzzle message: the task (while moves are left to find: a solved or
    revealed puzzle asks for nothing more), the source, an optional `note` line."""
    colour = text(Msg.COLOR_WHITE if view.solver is Color.WHITE else Msg.COLOR_BLACK, locale)
    lines = ([text(Msg.PUZZLE_TASK, locale, color=colour, found=view.found, total=view.total)]
             if view.found < view.total else [])
    if note:
        lines.insert(0, note)
    lines.append(text(Msg.PUZZLE_SOURCE, locale, rating=view.rating,
                      source=source_text(view.puzzle, locale)))
    embed = discord.Embed(
        title=title or text(Msg.PUZZLE_TITLE, locale, puzzle=view.puzzle.id,
                            variant=variant_name(view.puzzle.variant, locale)),
        description="\n".join(lines), colour=PUZZLE_COLOUR)
    embed.set_image(url=f"attachment://{PUZZLE_FILE}")
    return embed


def rating_text(result: PuzzleResult | None, locale: str | None) -> str | None:
    """The rating change line of a recorded attempt (None when nothing was recorded)."""
    if result is None:
        return None
    before = result.player_before
    after = result.player.value
    delta = round(after.rating) - round(before.rating)
    return text(Msg.PUZZLE_RATING_CHANGE, locale,
                before=display_rating(before.rating, before.deviation),
                after=display_rating(after.rating, after.deviation),
                delta=f"{delta:+d}", streak=result.player.streak)


class PuzzleAction(enum.Enum):
    """What a puzzle button does; the value is the action part of its `custom_id`."""

    HINT = "phint"
    REVEAL = "preveal"
    SOLVE_DAILY = "psolve"


_PUZZLE_ID = r"(?P<puzzle>[a-z]+-[0-9a-f]+)"


class _SolverButton(Component[discord.ui.Button[Any]],
                    template=rf"dama:psolver:(?P<user>[0-9]+):{_PUZZLE_ID}"):
    """A button of a solver's own puzzle message: `dama:<action>:<user_id>:<puzzle_id>`,
    the puzzle the message shows (a press acts on the presser's puzzle, and only while it
    is that one)."""

    action = PuzzleAction.HINT
    label_key = Msg.PUZZLE_BUTTON_HINT
    style = discord.ButtonStyle.secondary

    def __init__(self, user_id: int, puzzle_id: str, locale: str | None = None, *,
                 label: Msg | None = None) -> None:
        super().__init__(
            discord.ui.Button(label=text(label or self.label_key, locale), style=self.style,
                              custom_id=custom_id(self.action, user_id, puzzle_id)),
            Press(self.action, puzzle_id=puzzle_id))

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any],
        match: re.Match[str], /,
    ) -> _SolverButton:
        return cls(int(match["user"]), match["puzzle"])


class HintButton(_SolverButton, template=rf"dama:phint:(?P<user>[0-9]+):{_PUZZLE_ID}"):
    action = PuzzleAction.HINT
    label_key = Msg.PUZZLE_BUTTON_HINT


class RevealButton(_SolverButton, template=rf"dama:preveal:(?P<user>[0-9]+):{_PUZZLE_ID}"):
    action = PuzzleAction.REVEAL
    label_key = Msg.PUZZLE_BUTTON_REVEAL
    style = discord.ButtonStyle.danger


class SolveDailyButton(Component[discord.ui.Button[Any]], template=rf"dama:psolve:{_PUZZLE_ID}"):
    """Solve it, under a daily puzzle post: gives the presser that puzzle."""

    def __init__(self, puzzle_id: str, locale: str | None = None) -> None:
        action = PuzzleAction.SOLVE_DAILY
        super().__init__(
            discord.ui.Button(label=text(Msg.PUZZLE_BUTTON_SOLVE_DAILY, locale),
                              style=discord.ButtonStyle.success,
                              custom_id=custom_id(action, puzzle_id)),
            Press(action, puzzle_id=puzzle_id))

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any],
        match: re.Match[str], /,
    ) -> SolveDailyButton:
        return cls(match["puzzle"])


COMPONENTS: tuple[type[Component[Any]], ...] = (HintButton, RevealButton, SolveDailyButton)
"""The puzzle buttons, registered by the client as dynamic items."""


def puzzle_view(user_id: int, locale: str | None, puzzle_id: str, *,
                rated: bool = True) -> discord.ui.View:
    """The Hint and Reveal buttons of a solver's message showing puzzle `puzzle_id`: they
    act on that puzzle only (pressed after the solver moved on to another, they are
    refused). On a `rated` attempt both say what they cost: a solve after a hint, and a
    revealed puzzle, count as a loss (`bot.services.puzzles`, rating)."""
    view = discord.ui.View(timeout=None)
    view.add_item(HintButton(user_id, puzzle_id, locale,
                             label=Msg.PUZZLE_BUTTON_HINT_RATED if rated else None))
    view.add_item(RevealButton(user_id, puzzle_id, locale,
                               label=Msg.PUZZLE_BUTTON_REVEAL_RATED if rated else None))
    return view


def daily_view(puzzle_id: str, locale: str | None) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(SolveDailyButton(puzzle_id, locale))
    return view


def daily_title(day: date, puzzle: Puzzle, locale: str | None) -> str:
    return text(Msg.PUZZLE_DAILY_TITLE, locale, day=day.isoformat(),
                variant=variant_name(puzzle.variant, locale))


class DailyPuzzlePosts:
    """`DailyPuzzlePoster` on Discord: the post is the puzzle's board with a Solve-it
    button, in the chosen channel. Which process posts is the scheduler's question
    (`DailyPuzzleScheduler`, through `ShardScope.owns`)."""

    def __init__(self, client: discord.Client, board_size: int = 512,
                 puzzles: PuzzleService | None = None) -> None:
        self.client = client
        self.board_size = board_size
        self.puzzles = puzzles

    async def post_daily(self, setting: DailyPuzzleSetting, puzzle: Puzzle, day: date) -> None:
        rating = None if self.puzzles is None else await self.puzzles.rating_of(puzzle)
        view = PuzzleService.preview(puzzle, rating)
        # A post for everyone in the channel: in the server's language (bot.ui.languages).
        locale = await guild_language(self.client, getattr(self.client, "language_choices",
                                                           None), setting.guild_id)
        channel = self.client.get_partial_messageable(setting.channel_id)
        try:
            await channel.send(
                embed=puzzle_embed(view, locale, title=daily_title(day, puzzle, locale),
                                   note=text(Msg.PUZZLE_DAILY_HOW, locale)),
                file=await puzzle_file(view, self.board_size),
                view=daily_view(puzzle.id, locale))
        except discord.NotFound as error:
            if error.code == UNKNOWN_CHANNEL:
                raise DailyChannelGone(setting.channel_id) from error
            raise
