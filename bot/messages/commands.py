"""The English names shown in Discord's command picker (`COMMAND_TEXT`): command and option
descriptions and choice names, translated through the commands catalogs."""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from bot.language import Language

COMMAND_TEXT: Mapping[str, str] = MappingProxyType({
    "challenge": "Challenge a player to a game of draughts in this channel",
    "challenge.opponent": "The player you challenge",
    "challenge.variant": "Which variant to play",
    "challenge.rated": "Whether the game counts for ratings (default: the server's setting)",
    "challenge.color": "The colour you play (default: random)",
    "challenge.move_time": "Time for each move (default: the server's setting)",
    "challenge.clock": "A clock for each player: minutes + seconds added per move "
                       "(instead of a time per move)",
    "play": "Play a game against the computer in this channel (unrated)",
    "play.variant": "Which variant to play",
    "play.level": "How strong the computer plays: 1 (easiest) to 5 (strongest); default 3",
    "play.color": "The colour you play (default: random)",
    "play.move_time": "Time for each of your moves; when it runs out the computer moves for you",
    "play.clock": "A clock for you and the computer: minutes + seconds added per move "
                  "(instead of a time per move)",
    "move": "Play a move in this channel's game",
    "move.move": "Your move: start typing, then pick it from the list",
    "move.draw": "Offer a draw with this move (your opponent accepts it or plays on)",
    "board": "Show the current board of this channel's game again",
    "resign": "Resign this channel's game",
    "draw": "Offer a draw, or accept your opponent's offer",
    "abort": "Cancel this channel's game without a result (before both sides have moved)",
    "rating": "Show a player's ratings",
    "rating.user": "Whose ratings (default: yours)",
    "rating.variant": "Only this variant (default: all)",
    "leaderboard": "Show the best players of a variant",
    "leaderboard.variant": "Which variant (default: Turkish)",
    "leaderboard.scope": "This server only, or everyone (default: this server)",
    "history": "Show a player's recent games",
    "history.user": "Whose games (default: yours)",
    "games": "Your games under way everywhere, with links to their boards (only you see it)",
    "export": "Download a game as a PDN file or watch it as an animated picture",
    "export.game": "The game number (see /history; default: this channel's or your last game)",
    "export.analysis": "Include the computer's analysis as comments, when the game has one",
    "export.format": "A PDN file (the default) or an animated GIF of the game, move by move",
    "analyze": "Have the computer review a finished game: graph, mistakes, accuracy",
    "analyze.game": "The game number (see /history; default: this channel's last finished "
                    "game)",
    "rules": "Explain the rules of a variant",
    "rules.variant": "Which variant (default: Turkish)",
    "help": "How to play draughts with this bot",
    "choice.turkish": "Turkish draughts",
    "choice.arab": "Arab Dama",
    "choice.moroccan": "Moroccan draughts",
    "choice.italian": "Italian draughts",
    "choice.international": "International draughts",
    "choice.brazilian": "Brazilian draughts",
    "choice.russian": "Russian draughts",
    "choice.english": "English checkers",
    "settings": "Show or change your preferences: board side, notation, notifications, language",
    "settings.board_side": "The side your boards are drawn from (auto: the side you play)",
    "settings.notation": "Moves in numbers or letters (Italian, International draughts, English "
                         "checkers)",
    "settings.notify": "Be told when it is your turn (move times of an hour or more)",
    "settings.language": "The language I answer you in (automatic: your Discord's language)",
    "server-settings": "Show or change this server's settings: limits on pending challenges, "
                       "language, tournament organisers",
    "server-settings.per_challenger": "Most pending challenges from one player",
    "server-settings.per_opponent": "Most pending challenges to one player",
    "server-settings.language": "The language of channel posts and of players whose Discord is "
                                "in English",
    "server-settings.organiser_role": "Members with this role may run tournaments, besides "
                                      "Manage Server (@everyone: no role)",
    "server-settings.web": "How this server's games, tournaments and leaderboard show on the "
                           "web: public, by link only, or off",
    "choice.auto": "Auto (the side you play)",
    "choice.numeric": "Numeric (22-18)",
    "choice.algebraic": "Algebraic (d3-c4)",
    "choice.dm": "Direct message",
    "choice.channel": "The game's channel",
    "choice.off": "Off",
    "choice.public": "Public (by number and by link)",
    "choice.link": "By link only",
    # each language by its own name (`bot.language.Language`)
    **{f"choice.{language.value}": language.endonym for language in Language},
    "choice.language_auto": "Automatic",
    "rematch": "Play this channel's last finished game again, colours swapped",
    "choice.white": "White",
    "choice.black": "Black",
    "choice.random": "Random",
    "choice.server": "This server",
    "choice.global": "Everyone",
    "choice.pdn": "PDN file",
    "choice.gif": "Animated GIF",
    "choice.none": "No limit",
    "choice.40s": "40 seconds",
    "choice.5m": "5 minutes",
    "choice.1h": "1 hour",
    "choice.1d": "1 day",
    "choice.2d": "2 days",
    "choice.3d": "3 days",
    "choice.5d": "5 days",
    "choice.7d": "7 days",
    "choice.14d": "14 days",
    # puzzles
    "puzzle": "Get a puzzle: find the winning shot (only you see it)",
    "puzzle.variant": "Which variant (default: any)",
    "solve": "Answer your puzzle with a move",
    "solve.move": "Your move: start typing, then pick it from the list",
    "puzzle-daily": "Post a daily puzzle in a channel (server managers)",
    "puzzle-daily.channel": "Where to post it",
    "puzzle-daily.variant": "Which variant (default: a different one each day)",
    "puzzle-daily-stop": "Stop this server's daily puzzle (server managers)",
    # tournaments (bot/cogs/tournaments.py)
    "tournament": "Tournaments in this server: arena, Swiss system, round robin",
    "tournament.create": "Create a tournament in this channel, with a sign-up post (organisers)",
    "tournament.create.name": "The tournament's name",
    "tournament.create.format": "Arena (a fixed time, new games at once), Swiss system or "
                                "round robin",
    "tournament.create.variant": "Which variant to play",
    "tournament.create.rounds": "Swiss system: how many rounds (1 to 20; default 5)",
    "tournament.create.double": "Round robin: each pair plays twice, once with each colour",
    "tournament.create.duration": "Arena: how long it runs (default 1 hour)",
    "tournament.create.move_time": "Time for each move in the games (default: 40 seconds in "
                                   "an arena, else 5 minutes)",
    "tournament.create.rated": "Whether the games count for ratings (default: the server's "
                               "setting)",
    "tournament.create.start_in": "Start by itself after this many minutes (default: when "
                                  "the organiser starts it)",
    "tournament.create.player_limit": "Most players who may join (default: no limit)",
    "tournament.create.role": "Only members with this role may join (default: everyone)",
    "tournament.create.event": "Also a Discord event whose Interested signs up (needs "
                               "start_in and my Create Events permission)",
    "tournament.start": "Start a tournament now: the first games are paired (organisers)",
    "tournament.start.tournament": "The tournament's number (default: this channel's)",
    "tournament.standings": "Show a tournament's standings",
    "tournament.standings.tournament": "The tournament's number (default: this channel's)",
    "tournament.list": "List the tournaments open for sign-up or under way in this server",
    "tournament.info": "Show a tournament's settings and players",
    "tournament.info.tournament": "The tournament's number (default: this channel's)",
    "tournament.history": "List this server's finished tournaments",
    "tournament.export": "Download a Swiss or round robin tournament as a FIDE TRF file",
    "tournament.export.tournament": "The tournament's number (default: this channel's)",
    "tournament.pause": "Pause a tournament: no new games until it resumes (organisers)",
    "tournament.pause.tournament": "The tournament's number (default: this channel's)",
    "tournament.resume": "Resume a paused tournament (organisers)",
    "tournament.resume.tournament": "The tournament's number (default: this channel's)",
    "tournament.end": "End a tournament early: the games under way are played out "
                      "(organisers)",
    "tournament.end.tournament": "The tournament's number (default: this channel's)",
    "tournament.remove": "Remove a player from a tournament (organisers)",
    "tournament.remove.player": "The player to remove",
    "tournament.remove.tournament": "The tournament's number (default: this channel's)",
    "tournament.join": "Join a tournament (as its Join button does)",
    "tournament.join.tournament": "The tournament's number (default: this channel's)",
    "tournament.leave": "Leave a tournament: you are paired no more (as its Leave button does)",
    "tournament.leave.tournament": "The tournament's number (default: this channel's)",
    "choice.arena": "Arena",
    "choice.swiss": "Swiss system",
    "choice.round_robin": "Round robin",
    "choice.10m": "10 minutes",
    "choice.20m": "20 minutes",
    "choice.30m": "30 minutes",
    "choice.45m": "45 minutes",
    "choice.90m": "90 minutes",
    "choice.2h": "2 hours",
    "choice.3h": "3 hours",
    "choice.6h": "6 hours",
    "choice.12h": "12 hours",
    "choice.24h": "24 hours",
})
"""Names shown in Discord's command picker: command and option descriptions (keys
`command` and `command.option`) and choice names (`choice.<value>`)."""


def command_text(key: str) -> str:
    """The English description or choice name `key` of `COMMAND_TEXT`."""
    return COMMAND_TEXT[key]
