"""The words of tournaments: the tournament service's values (`TournamentView`,
`RoundView`, `StandingsView`) written as embeds and lines in a reader's language, for the
sign-up post, the posts in the tournament's thread and the answers of `/tournament`. Every
text comes from the catalog (`bot.messages`; English in `english_tournaments.py`); players
are mentions, results and scores are numbers written as draughts players write them.
Nothing here sends anything (`bot.ui.tournament_posts` does)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import datetime
from typing import assert_never

import discord

from bot.messages import Msg, text
from bot.services.tournaments import (
    RoundView,
    StandingRow,
    StandingsView,
    TieBreak,
    TournamentView,
)
from bot.tournament_display import (
    RESULTS,
    format_text,
    number_text,
    round_under_way,
    settings_line,
    status_text,
)
from bot.ui.present import EMBED_COLOUR, ENDED_COLOUR, mention, timestamp
from storage import TournamentStatus
from tournaments.model import ByeKind, Format

TOURNAMENT_COLOUR = discord.Colour(0x1565C0)
"""The colour of a tournament's embeds while it is open or under way."""

DESCRIPTION_LIMIT = 4096
"""Discord's longest embed description."""

FIELD_LIMIT = 1024
"""Discord's longest embed field value: the players' list is cut to it (a server may have
hundreds of players; about forty mentions fit), then says how many more."""

SHOWN_ROWS = 25
"""At most this many rows of the standings in text (the picture shows them all)."""

THREAD_NAME = 100
"""Discord's longest channel (thread) name."""

TIE_BREAKS: dict[TieBreak, Msg] = {
    TieBreak.BUCHHOLZ_CUT_1: Msg.TIEBREAK_BUCHHOLZ_CUT_1,
    TieBreak.SONNEBORN_BERGER: Msg.TIEBREAK_SONNEBORN_BERGER,
    TieBreak.DIRECT_ENCOUNTER: Msg.TIEBREAK_DIRECT_ENCOUNTER,
    TieBreak.PERFORMANCE: Msg.TIEBREAK_PERFORMANCE,
}
"""Each tie-break's words (with its `{value}`)."""

MEDALS = ("🥇", "🥈", "🥉")


def is_open(view: TournamentView) -> bool:
    """Whether players may press Join now: in sign-up, and while an arena runs."""
    if view.status is TournamentStatus.SIGNUP:
        return True
    return view.format is Format.ARENA and view.status in (TournamentStatus.RUNNING,
                                                           TournamentStatus.PAUSED)


def players_text(user_ids: Sequence[int], locale: str | None) -> str:
    """The players as mentions, as many as an embed field holds (`FIELD_LIMIT`), then how
    many more."""
    if not user_ids:
        return text(Msg.TOURNAMENT_NO_PLAYERS, locale)
    mentions = [mention(user_id) for user_id in user_ids]
    shown = len(mentions)
    while True:
        listed = ", ".join(mentions[:shown])
        left = len(mentions) - shown
        if left:
            listed += " " + text(Msg.TOURNAMENT_PLAYERS_MORE, locale, count=left)
        if len(listed) <= FIELD_LIMIT:
            return listed
        shown = min(shown - 1, FIELD_LIMIT // 3)  # a mention is at least "<@1>, "


def _when(view: TournamentView, locale: str | None) -> str | None:
    """When it starts (in sign-up) or ends (an arena under way)."""
    if view.status is TournamentStatus.SIGNUP:
        starts = view.settings.starts_at
        if starts is None:
            return text(Msg.TOURNAMENT_STARTS_BY_ORGANISER, locale)
        return text(Msg.TOURNAMENT_STARTS_AT, locale, time=_moment(starts))
    if view.status is TournamentStatus.RUNNING and view.ends_at is not None:
        return text(Msg.TOURNAMENT_ENDS_AT, locale, time=_moment(view.ends_at))
    return None


def _moment(moment: datetime) -> str:
    """A time as Discord shows it in each reader's time zone: the date and hour, and how
    far away it is."""
    return f"{timestamp(moment, 'f')} ({timestamp(moment)})"


def tournament_embed(view: TournamentView, locale: str | None, *,
                     live: bool = False) -> discord.Embed:
    """The sign-up post (and, `live`, `/tournament info`): the name, the settings, who
    organises, who may join, when it starts or ends, where it stands (`status_text`), its
    thread (`live`: Discord shows it under the sign-up post itself), and the players still
    in, in join order."""
    settings = view.settings
    lines = [settings_line(view, locale),
             text(Msg.TOURNAMENT_ORGANISER, locale, organiser=mention(view.organiser_id))]
    if settings.role_id is not None:
        lines.append(text(Msg.TOURNAMENT_OPEN_TO_ROLE, locale, role=f"<@&{settings.role_id}>"))
    if settings.player_limit is not None:
        lines.append(text(Msg.TOURNAMENT_LIMIT_LINE, locale, limit=settings.player_limit))
    when = _when(view, locale)
    if when is not None:
        lines.append(when)
    lines.append("")
    lines.append(status_text(view, locale, live=live))
    # The sign-up post shows its thread under it (a thread started from a message);
    # elsewhere the thread is linked.
    if live and view.thread_id is not None:
        lines.append(text(Msg.TOURNAMENT_THREAD_LINK, locale, thread=f"<#{view.thread_id}>"))
    players = [entrant.user_id for entrant in view.active_entrants]
    finished = view.status in (TournamentStatus.FINISHED, TournamentStatus.CANCELLED)
    embed = discord.Embed(
        title=text(Msg.TOURNAMENT_TITLE, locale, tournament=view.id, name=view.name),
        description="\n".join(lines),
        colour=ENDED_COLOUR if finished else TOURNAMENT_COLOUR)
    embed.add_field(name=text(Msg.TOURNAMENT_PLAYERS, locale, count=len(players)),
                    value=players_text(players, locale), inline=False)
    return embed


def game_thread_name(view: TournamentView, round_number: int, board: int,
                     locale: str | None) -> str:
    """The name of a game's thread: the tournament, the round and the board, within
    Discord's 100 characters (the name is cut first)."""
    rest = text(Msg.TOURNAMENT_THREAD_NAME_GAME, locale, name="", round=round_number,
                board=board)
    room = THREAD_NAME - len(rest)
    name = view.name if len(view.name) <= room else view.name[:max(room - 1, 0)] + "…"
    return text(Msg.TOURNAMENT_THREAD_NAME_GAME, locale, name=name, round=round_number,
                board=board)[:THREAD_NAME]


def pairings_text(view: TournamentView, round_: RoundView, locale: str | None) -> str:
    """A round's pairings, one board a line with its game's thread, then the byes."""
    title = (text(Msg.TOURNAMENT_ARENA_PAIRED, locale) if view.format is Format.ARENA
             else text(Msg.TOURNAMENT_ROUND_PAIRED, locale, round=round_.number))
    lines = [f"**{title}**"]
    for pairing in round_.pairings:
        thread = "-" if pairing.thread_id is None else f"<#{pairing.thread_id}>"
        lines.append(text(Msg.TOURNAMENT_PAIRING_LINE, locale, board=pairing.board,
                          white=mention(pairing.white), black=mention(pairing.black),
                          thread=thread))
    lines += bye_lines(round_, locale)
    return "\n".join(lines)


def bye_lines(round_: RoundView, locale: str | None) -> list[str]:
    """The round's byes: the pairing-allocated bye, and the players not paired (left or
    removed)."""
    lines = []
    for bye in round_.byes:
        match bye.kind:
            case ByeKind.PAIRING_ALLOCATED:
                message = Msg.TOURNAMENT_BYE_LINE
            case ByeKind.NOT_PAIRED:
                message = Msg.TOURNAMENT_NOT_PAIRED_LINE
            case _:
                assert_never(bye.kind)
        lines.append(text(message, locale, player=mention(bye.user_id)))
    return lines


def results_lines(round_: RoundView, locale: str | None) -> list[str]:
    """A round's results, one board a line."""
    lines = [text(Msg.TOURNAMENT_ROUND_RESULTS, locale, round=round_.number)]
    lines[0] = f"**{lines[0]}**"
    for pairing in round_.pairings:
        result = "…" if pairing.outcome is None else RESULTS[pairing.outcome]
        lines.append(text(Msg.TOURNAMENT_RESULT_LINE, locale, board=pairing.board,
                          white=mention(pairing.white), black=mention(pairing.black),
                          result=result))
    return lines + bye_lines(round_, locale)


def tie_breaks_text(row: StandingRow, locale: str | None) -> str:
    """A row's tie-breaks in their order, those that apply."""
    return " · ".join(text(TIE_BREAKS[name], locale, value=number_text(value, locale))
                      for name, value in row.tie_breaks if value is not None)


def standing_line(standings: StandingsView, row: StandingRow, locale: str | None) -> str:
    """One row: the rank, the player, the score, and the tie-breaks (an arena: the games
    played, and whether the player is on fire)."""
    score = number_text(row.score, locale)
    if standings.format is Format.ARENA:
        line = text(Msg.TOURNAMENT_ARENA_STANDING_LINE, locale, rank=row.rank,
                    player=mention(row.user_id), score=score, games=row.games)
        return line + (" 🔥 " + text(Msg.TOURNAMENT_ON_FIRE, locale) if row.on_fire else "")
    line = text(Msg.TOURNAMENT_STANDING_LINE, locale, rank=row.rank,
                player=mention(row.user_id), score=score,
                tiebreaks=tie_breaks_text(row, locale))
    return line.rstrip(" ·")


def standings_lines(standings: StandingsView, locale: str | None) -> list[str]:
    """The standings in text: at most `SHOWN_ROWS` rows, then how many more."""
    if not standings.rows:
        return [text(Msg.TOURNAMENT_STANDINGS_EMPTY, locale)]
    lines = [standing_line(standings, row, locale) for row in standings.rows[:SHOWN_ROWS]]
    left = len(standings.rows) - SHOWN_ROWS
    if left > 0:
        lines.append(text(Msg.TOURNAMENT_STANDINGS_MORE, locale, count=left))
    return lines


def standings_embed(standings: StandingsView, locale: str | None) -> discord.Embed:
    """The standings as an embed: the title, the round they follow, or are read during
    (Swiss and round robin), the rows."""
    lines = standings_lines(standings, locale)
    if standings.format is not Format.ARENA and standings.round > 0:
        lines.insert(0, text(Msg.TOURNAMENT_STANDINGS_DURING if round_under_way(standings)
                             else Msg.TOURNAMENT_STANDINGS_AFTER, locale,
                             round=standings.round))
    return discord.Embed(
        title=text(Msg.TOURNAMENT_STANDINGS_TITLE, locale, name=standings.name),
        description=fitted(lines),
        colour=ENDED_COLOUR if standings.final else TOURNAMENT_COLOUR)


def podium_lines(standings: StandingsView, locale: str | None) -> list[str]:
    """The final post's podium: the players ranked 1 to 3 with their medals and scores."""
    return [text(Msg.TOURNAMENT_PODIUM_LINE, locale, medal=MEDALS[row.rank - 1],
                 player=mention(row.user_id), count=row.score)
            for row in standings.podium]


def fitted(lines: Iterable[str], limit: int = DESCRIPTION_LIMIT) -> str:
    """`lines` one per line, as many whole lines as fit in `limit` characters (a listing
    of long names could pass Discord's limit for an embed's text)."""
    kept: list[str] = []
    size = 0
    for line in lines:
        size += len(line) + (1 if kept else 0)
        if size > limit:
            break
        kept.append(line)
    return "\n".join(kept)


def listing_embed(views: Iterable[TournamentView], locale: str | None) -> discord.Embed:
    """`/tournament list`: the server's tournaments in sign-up or under way."""
    lines = [text(Msg.TOURNAMENT_LIST_LINE, locale, tournament=view.id, name=view.name,
                  format=format_text(view, locale), status=status_text(view, locale),
                  players=text(Msg.TOURNAMENT_PLAYERS, locale,
                               count=len(view.active_entrants)))
             for view in views]
    return discord.Embed(title=text(Msg.TOURNAMENT_LIST_TITLE, locale),
                         description=fitted(lines) or text(Msg.TOURNAMENT_LIST_EMPTY,
                                                           locale),
                         colour=EMBED_COLOUR)


def history_embed(finished: Iterable[tuple[TournamentView, Sequence[int]]],
                  locale: str | None) -> discord.Embed:
    """`/tournament history`: the server's finished tournaments, each with when it ended
    and its winners (the players ranked first)."""
    lines = []
    for view, winners in finished:
        ended = view.finished_at or view.created_at
        lines.append(text(Msg.TOURNAMENT_HISTORY_LINE, locale, tournament=view.id,
                          name=view.name, format=format_text(view, locale),
                          finished=timestamp(ended, "d"),
                          winner=", ".join(mention(w) for w in winners) or "-"))
    return discord.Embed(title=text(Msg.TOURNAMENT_HISTORY_TITLE, locale),
                         description=fitted(lines) or text(Msg.TOURNAMENT_HISTORY_EMPTY,
                                                           locale),
                         colour=EMBED_COLOUR)
