"""The English texts of the web face's player, leaderboard, tournament and home pages
(`ENGLISH_WEB_PAGES`, part of `ENGLISH` through `english_web.py`; `bot/web/pages/`).
Words from docs/GLOSSARY.md; results, colours, variants and the tournaments' settings
reuse the Discord side's messages."""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from bot.messages.ids import Msg
from bot.messages.plural import Plural

ENGLISH_WEB_PAGES: Mapping[Msg, str | Plural] = MappingProxyType({
    Msg.WEB_HOME_TITLE: "dama-bot: draughts on Discord",
    Msg.WEB_HOME_INTRO: "dama-bot plays draughts on Discord: Turkish, Arab, Moroccan, "
                        "Italian, International, Brazilian, Russian and English draughts, "
                        "against a friend or the computer, with ratings, leaderboards, "
                        "puzzles, analyses and tournaments. These pages show its games, "
                        "players, leaderboards and tournaments.",
    Msg.WEB_HOME_LINKS: "Nothing is listed here: a page is opened by its link, from a "
                        "game's board or an answer of the bot on Discord.",
    Msg.WEB_PLAYER_TITLE: "{player}: ratings and games",
    Msg.WEB_PLAYER_RATINGS: "Ratings",
    Msg.WEB_PLAYER_NO_RATINGS: "No rated game finished yet.",
    Msg.WEB_COLUMN_VARIANT: "Variant",
    Msg.WEB_COLUMN_RATING: "Rating",
    Msg.WEB_PLAYER_DEVIATION: "Rating deviation",
    Msg.WEB_COLUMN_RATED_GAMES: "Rated games",
    Msg.WEB_PLAYER_WINS: "Won",
    Msg.WEB_PLAYER_LOSSES: "Lost",
    Msg.WEB_PLAYER_DRAWS: "Drawn",
    Msg.WEB_PLAYER_STANDING: "Leaderboard",
    Msg.WEB_PLAYER_RANKED: "ranked",
    Msg.WEB_PLAYER_PROVISIONAL: "provisional",
    Msg.WEB_PLAYER_RECENT: "Recent games",
    Msg.WEB_PLAYER_ONLY_PUBLIC: "Only games shared publicly on the web are listed.",
    Msg.WEB_PLAYER_NONE_PUBLIC: "None of this player's recent games is shared publicly.",
    Msg.WEB_PLAYER_GAME: "Game",
    Msg.WEB_COLUMN_RESULT: "Result",
    Msg.WEB_PLAYER_OPPONENT: "Opponent",
    Msg.WEB_PLAYER_DATE: "Date",
    Msg.WEB_PLAYER_UNNAMED: "Player #{number}",
    Msg.WEB_LEADERBOARD_VARIANTS: "Variants",
    Msg.WEB_COLUMN_RANK: "Rank",
    Msg.WEB_LEADERBOARD_PROVISIONAL: "Provisional, not ranked yet",
    Msg.WEB_LEADERBOARD_RULE: Plural(
        "Ranked: at least {min_games} rated game and a rating deviation below "
        "{max_deviation}.",
        "Ranked: at least {min_games} rated games and a rating deviation below "
        "{max_deviation}.",
        count="min_games",
    ),
    Msg.WEB_TOURNAMENT_SIGNUP: "Sign-up is open on Discord.",
    Msg.WEB_TOURNAMENT_STANDINGS: "Standings",
    Msg.WEB_TOURNAMENT_NUMBER: "No.",
    Msg.WEB_TOURNAMENT_GAMES: "Games",
    Msg.WEB_TOURNAMENT_ROUND: "Round {round}",
    Msg.WEB_TOURNAMENT_ROUNDS: "Rounds",
    Msg.WEB_TOURNAMENT_BOARD: "Board",
    Msg.WEB_TOURNAMENT_WATCH: "Games under way",
    Msg.WEB_TOURNAMENT_NOT_STARTED: "The tournament has not started yet.",
    Msg.WEB_TOURNAMENT_CELLS: "Each round: the opponent's number, the side played and the "
                              "points scored.",
})
