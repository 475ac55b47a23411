"""Embeds and files of the information commands: ratings, leaderboards, history, export,
rules, help. Every text from the message catalog (`bot.messages`)."""

from __future__ import annotations

import io
from collections.abc import Sequence
from datetime import timedelta

import discord

from bot.messages import Msg, decimal, join_list, text, variant_name
from bot.messages.durations import duration_text
from bot.ratings import display_rating
from bot.services import EndReason, Leaderboard, PdnFile
from bot.services.game_words import END_REASONS
from bot.services.stats import Needs
from bot.ui.present import (
    BOARD_FILE,
    EMBED_COLOUR,
    mention,
    timestamp,
)
from engine import get_variant
from storage import Eligibility, GameRecord, GameResult, Rating, Side

RULES: dict[str, Msg] = {
    "turkish": Msg.RULES_TURKISH,
    "arab": Msg.RULES_ARAB,
    "moroccan": Msg.RULES_MOROCCAN,
    "italian": Msg.RULES_ITALIAN,
    "international": Msg.RULES_INTERNATIONAL,
    "brazilian": Msg.RULES_BRAZILIAN,
    "russian": Msg.RULES_RUSSIAN,
    "english": Msg.RULES_ENGLISH,
}
"""The `/rules` text of each variant, by key (`engine.VARIANTS`)."""


def count_text(count: int, key: Msg, locale: str | None) -> str:
    """`1 rated game`, `5 rated games`: the plural message `key` in the form the
    language's plural rule gives `count`."""
    return text(key, locale, count=count)


def ratings_embed(user_id: int, ratings: list[Rating], variant: str | None,
                  locale: str | None, *, name: str | None = None) -> discord.Embed:
    """/rating: the user's ratings (one variant, or all); titled with `name` (their
    display name; default `#<id>`)."""
    title = name if name is not None else f"#{user_id}"
    embed = discord.Embed(title=text(Msg.RATING_TITLE, locale, user=title),
                          colour=EMBED_COLOUR)
    if not ratings:
        variant_part = f" ({variant_name(variant, locale)})" if variant else ""
        embed.description = text(Msg.RATING_NONE, locale, user=mention(user_id),
                                 variant_part=variant_part)
        return embed
    embed.description = "\n".join(
        text(Msg.RATING_LINE, locale, variant=variant_name(r.variant, locale),
             rating=display_rating(r.rating, r.deviation), deviation=round(r.deviation),
             games=count_text(r.rated_games, Msg.RATED_GAMES, locale),
             wins=r.wins, losses=r.losses, draws=r.draws)
        for r in ratings
    )
    return embed


def leaderboard_embed(board: Leaderboard, locale: str | None) -> discord.Embed:
    """/leaderboard: the top of the board, the caller's rank, the eligibility rule."""
    name = variant_name(board.variant, locale)
    key = Msg.LEADERBOARD_TITLE_SERVER if board.guild_id is not None \
        else Msg.LEADERBOARD_TITLE_GLOBAL
    embed = discord.Embed(title=text(key, locale, variant=name), colour=EMBED_COLOUR)
    rules = board.eligibility
    lines = [
        text(Msg.LEADERBOARD_LINE, locale, rank=e.rank, player=mention(e.rating.user_id),
             rating=display_rating(e.rating.rating, e.rating.deviation),
             games=count_text(e.rating.rated_games, Msg.GAMES, locale))
        for e in board.entries
    ]
    if board.provisional:
        if lines:
            lines.append("")
        lines.append(text(Msg.LEADERBOARD_PROVISIONAL, locale))
        lines.extend(
            text(Msg.LEADERBOARD_PROVISIONAL_LINE, locale, player=mention(p.rating.user_id),
                 rating=round(p.rating.rating),
                 games=count_text(p.rating.rated_games, Msg.GAMES, locale),
                 needs=needs_text(p.needs, p.rating.deviation, rules, locale))
            for p in board.provisional
        )
    if not lines:
        lines.append(text(Msg.LEADERBOARD_EMPTY, locale))
    lines.append("")
    own = board.own_rating
    if board.own_rank is not None and own is not None:
        lines.append(text(Msg.LEADERBOARD_YOUR_RANK, locale, rank=board.own_rank,
                          total=board.total,
                          rating=display_rating(own.rating, own.deviation)))
    elif board.own_needs is not None and own is not None:
        lines.append(text(Msg.LEADERBOARD_YOU_PROVISIONAL, locale, rating=round(own.rating),
                          needs=needs_text(board.own_needs, own.deviation, rules, locale)))
    else:
        lines.append(text(Msg.LEADERBOARD_NOT_RANKED, locale))
    embed.description = "\n".join(lines)
    embed.set_footer(text=text(Msg.LEADERBOARD_RULE, locale,
                               min_games=board.eligibility.min_games,
                               max_deviation=decimal(board.eligibility.max_deviation, locale)))
    return embed


def needs_text(needs: Needs, deviation: float, rules: Eligibility,
               locale: str | None) -> str:
    """What a provisional player still needs: "3 more rated games (minimum: 10) and about
    7 more games to bring the deviation 182 under 110" (the parts that apply, joined as
    `locale`'s language joins a list)."""
    parts = []
    if needs.games > 0:
        parts.append(text(Msg.LEADERBOARD_NEEDS_GAMES, locale, count=needs.games,
                          min_games=rules.min_games))
    if needs.deviation_games > 0:
        parts.append(text(Msg.LEADERBOARD_NEEDS_DEVIATION, locale,
                          count=needs.deviation_games, deviation=round(deviation),
                          max_deviation=decimal(rules.max_deviation, locale)))
    return join_list(parts, locale)


def reason_text(termination: str | None, locale: str | None) -> str:
    """The catalog's short words (/history) for a stored termination (`EndReason`
    value); `END_REASONS` is the table."""
    try:
        key = END_REASONS[EndReason(termination)].short
    except ValueError:
        key = Msg.SHORT_OTHER
    return text(key, locale)


def _score(game: GameRecord, side: Side | None) -> Msg:
    if game.result is None or side is None:
        return Msg.SCORE_ABORTED
    score = game.result.score_of(side)
    if game.result is GameResult.DRAW:
        return Msg.SCORE_DRAW
    return Msg.SCORE_WIN if score == 1.0 else Msg.SCORE_LOSS


def history_embed(user_id: int, games: Sequence[GameRecord], locale: str | None,
                  *, name: str | None = None, hidden: bool = False) -> discord.Embed:
    """/history: the user's recent games; titled with `name` (default `#<id>`). Without
    games, `hidden` (`bot.services.stats.GameHistory.hidden`) says whether the user has
    games none of which may be shown here, rather than none at all."""
    title = name if name is not None else f"#{user_id}"
    embed = discord.Embed(title=text(Msg.HISTORY_TITLE, locale, user=title),
                          colour=EMBED_COLOUR)
    if not games:
        empty = Msg.HISTORY_HIDDEN if hidden else Msg.HISTORY_EMPTY
        embed.description = text(empty, locale, user=mention(user_id))
        return embed
    lines = []
    for game in games:
        side = game.side_of(user_id)
        other = game.seat(side.opponent) if side is not None else game.black
        opponent = mention(other.user_id) if other.user_id is not None else text(
            Msg.COMPUTER, locale, level=other.computer_level)
        when = game.finished_at or game.updated_at
        score = _score(game, side)
        aborted = score is Msg.SCORE_ABORTED and game.termination == EndReason.ABORTED.value
        # An aborted game's score already says so: no second "aborted" as its reason.
        lines.append(text(
            Msg.HISTORY_LINE_ABORTED if aborted else Msg.HISTORY_LINE, locale,
            game_id=game.id, variant=variant_name(game.variant, locale),
            score=text(score, locale), opponent=opponent,
            reason=reason_text(game.termination, locale), when=timestamp(when),
        ))
    embed.description = "\n".join(lines)
    return embed


def export_message(pdn: PdnFile, locale: str | None) -> tuple[str, discord.File]:
    """/export: the text saying which game this is (and, when the bot chose it, how, and
    the caller's other games in progress) and the PDN file."""
    file = discord.File(io.BytesIO(pdn.text.encode("utf-8")), filename=pdn.filename)
    content = text(Msg.EXPORT_DONE, locale, game_id=pdn.game_id,
                   variant=variant_name(pdn.variant, locale))
    if pdn.chosen is not None:
        content += " " + text(pdn.chosen, locale)
    if pdn.in_progress:
        content += "\n" + text(Msg.EXPORT_OTHERS, locale, count=len(pdn.in_progress),
                                games=join_list((f"#{i}" for i in pdn.in_progress), locale))
    if pdn.analysis_missing:
        content += "\n" + text(Msg.EXPORT_NO_ANALYSIS, locale, game_id=pdn.game_id)
    return content, file


def rules_embed(variant_key: str, locale: str | None) -> discord.Embed:
    variant = get_variant(variant_key)
    embed = discord.Embed(title=text(Msg.RULES_TITLE, locale,
                                     variant=variant_name(variant.key, locale)),
                          description=text(RULES[variant.key], locale), colour=EMBED_COLOUR)
    embed.set_image(url=f"attachment://{BOARD_FILE}")
    return embed


def help_embed(inactivity: timedelta, locale: str | None) -> discord.Embed:
    """/help: the commands, then how to choose a language (in English, with Arabic written
    in Arabic: Discord has no Arabic locale, so a choice is the only way to it)."""
    body = text(Msg.HELP_BODY, locale, inactivity=duration_text(inactivity, locale))
    return discord.Embed(title=text(Msg.HELP_TITLE, locale),
                         description=body + "\n" + text(Msg.HELP_LANGUAGE, locale),
                         colour=EMBED_COLOUR)
