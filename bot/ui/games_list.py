"""The embed of `/games`: a player's games under way everywhere
(`bot.services.under_way.GamesUnderWay`), each with a link to its board, every text from
the message catalog."""

from __future__ import annotations

from collections.abc import Mapping

import discord

from bot.messages import Msg, text, variant_name
from bot.services.under_way import GamesUnderWay, GameUnderWay
from bot.ui.links import channel_link, message_link
from bot.ui.present import EMBED_COLOUR, mention, timestamp


def board_link(game: GameUnderWay) -> str:
    """The link to `game`'s last board message, or to its channel without one."""
    if game.board_message_id is None:
        return channel_link(game.guild_id, game.channel_id)
    return message_link(game.guild_id, game.channel_id, game.board_message_id)


def _escaped(name: str) -> str:
    return discord.utils.escape_mentions(discord.utils.escape_markdown(name))


def place_text(game: GameUnderWay, server_names: Mapping[int, str],
               locale: str | None) -> str:
    """Where `game` is played: "in <server>" by the name in `server_names` (the servers the
    bot is in, from its cache), "in a server" for a server it does not know, "in direct
    messages" without a server."""
    if game.guild_id is None:
        return text(Msg.GAMES_IN_DIRECT_MESSAGES, locale)
    name = server_names.get(game.guild_id)
    if name is None:
        return text(Msg.GAMES_IN_A_SERVER, locale)
    return text(Msg.GAMES_IN_SERVER, locale, server=_escaped(name))


def _opponent(game: GameUnderWay, locale: str | None) -> str:
    seat = game.opponent
    if seat.user_id is not None:
        return mention(seat.user_id)
    return text(Msg.COMPUTER, locale, level=seat.computer_level)


def _turn(game: GameUnderWay, opponent: str, locale: str | None) -> str:
    if game.turn is None:
        return text(Msg.GAMES_TURN_UNKNOWN, locale)
    if game.players_turn:
        return text(Msg.GAMES_YOUR_TURN, locale)
    return text(Msg.GAMES_THEIR_TURN, locale, opponent=opponent)


def game_line(game: GameUnderWay, server_names: Mapping[int, str],
              locale: str | None) -> str:
    """One game of `/games`: its number linked to its board, variant, opponent, place,
    whose turn and when the time of the player to move runs out."""
    opponent = _opponent(game, locale)
    time = text(Msg.GAMES_DEADLINE, locale, when=timestamp(game.deadline))
    return text(Msg.GAMES_LINE, locale, game_id=game.game_id, link=board_link(game),
                variant=variant_name(game.variant, locale), opponent=opponent,
                place=place_text(game, server_names, locale),
                turn=_turn(game, opponent, locale), time=time)


MAX_DESCRIPTION = 4096
"""The most characters Discord takes in an embed's description."""


def games_embed(listing: GamesUnderWay, server_names: Mapping[int, str],
                locale: str | None) -> discord.Embed:
    """/games: the listed games in their order (`GamesUnderWay.games`), then "and N more"
    when some were left out (by the service, or here when the lines would not fit in an
    embed); "none" without any. `server_names`: the names of the servers the bot is in,
    by id (others are "a server"). Raises nothing."""
    embed = discord.Embed(title=text(Msg.GAMES_TITLE, locale), colour=EMBED_COLOUR)
    if not listing.games:
        embed.description = text(Msg.GAMES_NONE, locale)
        return embed
    lines = [game_line(game, server_names, locale) for game in listing.games]
    more = listing.more
    while True:
        shown = list(lines)
        if more:
            shown.append(text(Msg.GAMES_MORE, locale, count=more))
        description = "\n\n".join(shown)
        if len(description) <= MAX_DESCRIPTION or len(lines) == 1:
            break
        lines.pop()
        more += 1
    embed.description = description[:MAX_DESCRIPTION]
    return embed
