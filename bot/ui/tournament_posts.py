"""`TournamentPosts`: the tournament service's outlet (`TournamentOutlet`) over
discord.py: the tournament's thread, each game's thread, and the posts, worded in the
server's language (`bot.ui.tournament_texts`).

- The tournament's thread is a public thread started from its sign-up post
  (`PartialMessage.create_thread`); Discord gives such a thread the id of its message, so
  a thread opened before a crash (its id not recorded) is found again rather than opened
  twice.
- Each game has its own public thread under the tournament's channel
  (`TextChannel.create_thread`), so each channel keeps one game; its boards are the game
  announcer's. A crash between opening one and recording its id leaves at most one empty
  thread; the game is started once, in the recorded one (docs/ARCHITECTURE.md, "Recovery
  at start-up").
- Every post is sent with a message nonce derived from its ledger key (`post_nonce`) and
  Discord's `enforce_nonce` (discord.py sends it with every nonce): a post sent again
  after a crash between sending and recording is the first message, not a second one. A
  post longer than one message is sent in parts, each with its own nonce.
"""

from __future__ import annotations

import asyncio
import hashlib
import io
import logging
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Literal, assert_never

import discord

from bot.messages import Msg, text
from bot.services.tournaments import (
    Cancelled,
    Ended,
    Final,
    Paused,
    PlayerRemoved,
    Post,
    Resumed,
    RoundPaired,
    RoundResults,
    SignUp,
    StandingsView,
    Started,
    TournamentView,
    post_key,
)
from bot.services.web_access import WebLinks
from bot.ui.answer import MENTIONS
from bot.ui.languages import LanguageChoices, guild_language
from bot.ui.present import MAX_CONTENT, mention
from bot.ui.tournament_texts import (
    game_thread_name,
    is_open,
    pairings_text,
    podium_lines,
    results_lines,
    standings_embed,
    tournament_embed,
)
from bot.ui.tournaments import signup_view, standings_view
from bot.ui.web_links import link_button, tournament_page
from storage import TournamentStatus
from tournaments.model import Format

log = logging.getLogger(__name__)

NONCE_LENGTH = 25
"""Discord's longest message nonce."""

THREAD_ARCHIVE_MINUTES: Literal[10080] = 10080
"""A tournament's threads hide from the channel list after a week without a message (the
longest Discord offers): a Swiss round may take days."""

THREAD_EXISTS = 160004
"""Discord's JSON error code "A thread has already been created for this message"."""

QUIET = discord.AllowedMentions.none()
"""Posts that name players without notifying them (the sign-up post, standings)."""

STANDINGS_FILE = "standings.png"

StandingsPicture = Callable[[StandingsView, Mapping[int, str], str], bytes]
"""Draws the standings as a PNG, with the players' names by user id, in a language
(blocking: called in a worker thread; `bot.ui.tournament_picture.standings_png`)."""


def player_names(view: TournamentView) -> dict[int, str]:
    """The entrants' last known names by user id (those never known left out)."""
    return {e.user_id: e.display_name for e in view.entrants if e.display_name}


def post_nonce(tournament_id: int, post: Post, part: int = 0) -> str:
    """The nonce of part `part` of `post` of tournament `tournament_id`: fixed by the
    post's ledger key, so every attempt to send it is the same message to Discord; at
    most 25 characters (a digest when the readable form is longer)."""
    key = post_key(post)
    readable = f"dt{tournament_id}.{key.kind.value[:2]}{key.key}.{part}"
    if len(readable) <= NONCE_LENGTH:
        return readable
    digest = hashlib.sha256(f"{tournament_id}:{key.kind.value}:{key.key}:{part}".encode())
    return "dt" + digest.hexdigest()[:NONCE_LENGTH - 2]


def chunks(lines: list[str], limit: int = MAX_CONTENT) -> list[str]:
    """`lines` joined into as few messages as Discord's content limit allows (a line
    longer than the limit is cut)."""
    parts: list[str] = []
    current = ""
    for line in lines:
        line = line[:limit]
        if current and len(current) + 1 + len(line) > limit:
            parts.append(current)
            current = line
        else:
            current = f"{current}\n{line}" if current else line
    if current:
        parts.append(current)
    return parts


@dataclass
class PostPart:
    """One Discord message of a post: its text, embed, picture and buttons, and whom it
    notifies."""

    content: str | None = None
    embed: discord.Embed | None = None
    file: bytes | None = None
    view: discord.ui.View | None = None
    mentions: discord.AllowedMentions = field(default_factory=lambda: QUIET)


class TournamentPosts:
    """The `TournamentOutlet` of the bot. `client` sends; `choices` gives each server's
    language (None: the servers' Discord locales); `picture` draws the standings (None:
    the standings are text only)."""

    def __init__(self, client: discord.Client, choices: LanguageChoices | None = None,
                 picture: StandingsPicture | None = None) -> None:
        self.client = client
        self.choices = choices
        self.picture = picture
        self.links: WebLinks | None = None
        """The web face's links: the sign-up post's "Tournament page" button (None: no
        button)."""

    def show_pages(self, links: WebLinks) -> None:
        """Put the "Tournament page" link button of `links` under every sign-up post
        shown from now on (the client calls it once the web face's secret is read,
        `bot.client`)."""
        self.links = links

    async def _signup_view(self, view: TournamentView, locale: str) -> discord.ui.View | None:
        """The sign-up post's buttons (`_signup_buttons`), then its "Tournament page"
        link when the tournament has a page (`bot.ui.web_links`); None when neither."""
        buttons = _signup_buttons(view, locale)
        url = await tournament_page(self.links, view.id, view.guild_id)
        if url is None:
            return buttons
        buttons = buttons or discord.ui.View(timeout=None)
        buttons.add_item(link_button(url, Msg.BUTTON_TOURNAMENT_PAGE, locale))
        return buttons

    async def _locale(self, view: TournamentView) -> str:
        return await guild_language(self.client, self.choices, view.guild_id)

    async def _text_channel(self, channel_id: int) -> discord.TextChannel:
        """The text channel `channel_id` (from the cache, else asked of Discord). Raises
        TypeError when it is not a text channel, and what Discord answers."""
        channel = self.client.get_channel(channel_id)
        if channel is None:
            channel = await self.client.fetch_channel(channel_id)
        if not isinstance(channel, discord.TextChannel):
            raise TypeError(f"channel {channel_id} is not a text channel")
        return channel

    async def open_tournament_thread(self, view: TournamentView) -> int:
        """The tournament's thread, started from its sign-up post and named after it
        (found again when a crash kept its id from being recorded; Discord shows it under
        the post). Raises ValueError
        before the sign-up post is recorded, and what Discord answers (a missing Create
        Public Threads permission: `discord.Forbidden`)."""
        if view.post_message_id is None:
            raise ValueError(f"tournament {view.id} has no sign-up post to open a thread on")
        channel = await self._text_channel(view.channel_id)
        post = channel.get_partial_message(view.post_message_id)
        try:
            thread = await post.create_thread(name=view.name[:100],
                                              auto_archive_duration=THREAD_ARCHIVE_MINUTES)
        except discord.HTTPException as error:
            if error.code == THREAD_EXISTS:  # opened before a crash: it has the post's id
                return view.post_message_id
            raise
        return thread.id

    async def open_game_thread(self, view: TournamentView, round: int, board: int,
                               white: int, black: int) -> int:
        """A public thread for one game under the tournament's channel, named after the
        tournament, the round and the board. Raises what Discord answers."""
        channel = await self._text_channel(view.channel_id)
        name = game_thread_name(view, round, board, await self._locale(view))
        thread = await channel.create_thread(name=name, type=discord.ChannelType.public_thread,
                                             auto_archive_duration=THREAD_ARCHIVE_MINUTES)
        return thread.id

    async def post(self, view: TournamentView, post: Post) -> int:
        """Send `post` (the sign-up post in the tournament's channel, the others in its
        thread; before the thread is opened, as a tournament cancelled in sign-up, in its
        channel), each part with its nonce; returns the first part's message id. Raises
        what Discord answers."""
        locale = await self._locale(view)
        messages = await self._messages(view, post, locale)
        target = (view.thread_id if view.thread_id is not None and not isinstance(post, SignUp)
                  else view.channel_id)
        channel = self.client.get_partial_messageable(target, guild_id=view.guild_id)
        first: int | None = None
        for part, message in enumerate(messages):
            files = [] if message.file is None else [
                discord.File(io.BytesIO(message.file), filename=STANDINGS_FILE)]
            sent = await channel.send(
                message.content, embed=message.embed or discord.utils.MISSING,
                files=files, view=message.view or discord.utils.MISSING,
                allowed_mentions=message.mentions, nonce=post_nonce(view.id, post, part))
            first = sent.id if first is None else first
        assert first is not None  # every post has at least one message
        return first

    async def edit_signup(self, view: TournamentView) -> None:
        """Show the sign-up post as `view` is now (players, status, its buttons). Raises
        what Discord answers; nothing without a recorded sign-up post."""
        if view.post_message_id is None:
            return
        locale = await self._locale(view)
        channel = self.client.get_partial_messageable(view.channel_id, guild_id=view.guild_id)
        await channel.get_partial_message(view.post_message_id).edit(
            embed=tournament_embed(view, locale),
            view=await self._signup_view(view, locale), allowed_mentions=QUIET)

    async def _messages(self, view: TournamentView, post: Post,
                        locale: str) -> list[PostPart]:
        """The messages of `post`, in `locale`."""
        match post:
            case SignUp():
                return [PostPart(embed=tournament_embed(view, locale),
                                view=await self._signup_view(view, locale))]
            case Started():
                return [PostPart(content=part) for part in chunks(_started(view, locale))]
            case RoundPaired(round=round_):
                return [PostPart(content=part, mentions=MENTIONS)
                        for part in chunks(pairings_text(view, round_, locale).split("\n"))]
            case RoundResults(round=round_, standings=standings):
                return await self._with_standings(results_lines(round_, locale), standings,
                                                  view, locale)
            case Final(standings=standings):
                head = text(Msg.TOURNAMENT_FINAL if standings.podium
                            else Msg.TOURNAMENT_FINAL_NO_GAMES, locale, name=view.name)
                return await self._with_standings([f"**{head}**",
                                                   *podium_lines(standings, locale)],
                                                  standings, view, locale)
            case Ended() if view.format is Format.ARENA:
                # An arena's end is now: its games under way no longer count, and the
                # final standings follow at once (docs/RULES.md, "Arena").
                return [PostPart(content=text(Msg.TOURNAMENT_POST_ENDED_ARENA, locale))]
            case Paused() | Resumed() | Ended() | Cancelled() | PlayerRemoved():
                return [PostPart(content=_notice(post, locale))]
            case _:
                assert_never(post)

    async def _with_standings(self, lines: list[str], standings: StandingsView,
                              view: TournamentView, locale: str) -> list[PostPart]:
        """`lines`, then the standings (their embed, the picture when one is drawn, and
        the Standings button) under the last part."""
        messages = [PostPart(content=part) for part in chunks(lines)]
        last = messages[-1]
        last.embed = standings_embed(standings, locale)
        last.view = standings_view(view.id, locale)
        if self.picture is not None and standings.rows:
            try:
                last.file = await asyncio.to_thread(self.picture, standings,
                                                    player_names(view), locale)
            except Exception:  # the text says it all; a picture is a bonus
                log.exception("drawing the standings of tournament %s failed", view.id)
        if last.file is not None:
            last.embed.set_image(url=f"attachment://{STANDINGS_FILE}")
        return messages


def _signup_buttons(view: TournamentView, locale: str) -> discord.ui.View | None:
    """The sign-up post's buttons as `view` stands: Join and Leave while players may join,
    Standings once it started (not when cancelled)."""
    started = view.status in (TournamentStatus.RUNNING, TournamentStatus.PAUSED,
                              TournamentStatus.FINISHED)
    return signup_view(view.id, locale, joining=is_open(view), standings=started)


SHOWN_ENTRANTS = 64
"""At most this many players are listed in the start's post (then how many more: the
sign-up post and the standings name them all)."""


def _started(view: TournamentView, locale: str) -> list[str]:
    """The start: the players by pairing number, with their ratings at the start."""
    entrants = sorted((e for e in view.active_entrants if e.number is not None),
                      key=lambda e: e.number or 0)
    lines = [f"**{text(Msg.TOURNAMENT_POST_STARTED, locale)}**",
             *(text(Msg.TOURNAMENT_ENTRANT_LINE, locale, number=e.number,
                    player=mention(e.user_id), rating="-" if e.rating is None else e.rating)
               for e in entrants[:SHOWN_ENTRANTS])]
    if len(entrants) > SHOWN_ENTRANTS:
        lines.append(text(Msg.TOURNAMENT_PLAYERS_MORE, locale,
                          count=len(entrants) - SHOWN_ENTRANTS))
    return lines


def _notice(post: Paused | Resumed | Ended | Cancelled | PlayerRemoved, locale: str) -> str:
    """The one line of an organiser's action."""
    match post:
        case Paused():
            return text(Msg.TOURNAMENT_POST_PAUSED, locale)
        case Resumed():
            return text(Msg.TOURNAMENT_POST_RESUMED, locale)
        case Ended():
            return text(Msg.TOURNAMENT_POST_ENDED, locale)
        case Cancelled(too_few_players=few):
            return text(Msg.TOURNAMENT_POST_CANCELLED_FEW if few
                        else Msg.TOURNAMENT_POST_CANCELLED, locale)
        case PlayerRemoved(user_id=user_id):
            return text(Msg.TOURNAMENT_POST_REMOVED, locale, player=mention(user_id))
        case _:
            assert_never(post)
