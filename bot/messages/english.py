"""The English source of every message (`ENGLISH`; the `/rules` texts in `english_rules.py`,
the tournaments' in `english_tournaments.py`, `/games`' in `english_games.py`, the places'
in `english_places.py`, the web face's in `english_web*.py`; `Plural`, in `plural.py`).
English is the source language: the catalogs' `msgid`s are these texts, and
`python -m bot.locales` rewrites the templates from them."""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from bot.messages.english_games import ENGLISH_GAMES
from bot.messages.english_places import ENGLISH_PLACES
from bot.messages.english_rules import ENGLISH_RULES
from bot.messages.english_tournaments import ENGLISH_TOURNAMENTS
from bot.messages.english_web import ENGLISH_WEB
from bot.messages.ids import Msg
from bot.messages.plural import Plural

COUNT_FIELDS = frozenset({
    "count", "nodes", "plies", "min_games", "wins", "losses", "draws", "found",
})
"""The placeholder names that hold a bare number of things. Such a number is written
either by a `Plural` message that names it as its `count` (the noun beside it takes the
language's plural form) or in a count-free wording, after a colon or in a ratio ("won:
3", "found: 2/3"), never beside a noun in a single-form message (docs/LANGUAGES.md,
"Counts"). A number already in words ("3 rated games", `Msg.GAMES`) is passed as
`{games}`; a position or a rank (`{rank}`, `{done}` of `{total}`) is not a count."""


ENGLISH: Mapping[Msg, str | Plural] = MappingProxyType({
    Msg.NO_GAME_HERE: "There is no game in this channel. Start one with /play (against the "
                      "computer) or /challenge a player.",
    Msg.NOT_IN_GAME: "You are not playing in this game: only {white} and {black} can do that.",
    Msg.NOT_YOUR_TURN: "It is not your turn: {player} ({color}) is to move. Wait for their move.",
    Msg.OUT_OF_TIME: "Your clock has run out: you lose on time.",
    Msg.CLOCK_WITH_MOVE_TIME: "Choose a clock or a time per move, not both.",
    Msg.MOVE_AMBIGUOUS: "**{text}** matches several moves: {candidates}. Send one of them in full.",
    Msg.MOVE_RACE: "The position changed while your move arrived. Look at the new board and "
                   "try again.",
    Msg.GAME_OVER: "This game is over. Play it again with /rematch, or start a new one with "
                   "/challenge or /play.",
    Msg.GAME_QUARANTINED: "The game in this channel (#{game_id}) cannot continue: its stored "
                          "moves no longer replay. It is kept as it is for the bot's "
                          "operator, who has been told in the log.",
    Msg.GAME_ENDED_HERE: "The game in this channel (#{game_id}) is over. {result}\nStart a "
                         "new one with /rematch (the same game, colours swapped), "
                         "/challenge, or /play against the computer.",
    Msg.STALE_BOARD: "This board is out of date. Use the buttons on the newest board, or /board "
                     "to show it.",
    Msg.CHALLENGE_SELF: "You can't challenge yourself. Pick another player.",
    Msg.CHALLENGE_BOT: "{user} is a bot and can't play. Challenge a person, or play the "
                       "computer with /play.",
    Msg.CHANNEL_BUSY: "This channel already has a game in progress. Start a thread here and "
                      "challenge there, or wait until the game ends.",
    Msg.ALREADY_PLAYING_HERE: "You are already playing the game in this channel. Finish it "
                              "(or /resign) first, or start another game in a thread.",
    Msg.OPPONENT_PLAYING_HERE: "{user} is already playing the game in this channel. Challenge "
                               "them in a thread instead.",
    Msg.CHALLENGE_CLOSED: "This challenge is no longer open (it was {status}). Send a new "
                          "one with /challenge.",
    Msg.CHALLENGE_NOT_FOR_YOU: "This challenge is for {opponent}: only they can accept or "
                               "decline it.",
    Msg.CHALLENGE_OWN: "This is your own challenge: you can cancel it, but only {opponent} "
                       "can accept or decline it.",
    Msg.CHALLENGE_NOT_YOURS: "Only {challenger}, who sent this challenge, can cancel it.",
    Msg.CHALLENGE_UNKNOWN: "I can't find that challenge any more. Send a new one with "
                           "/challenge.",
    Msg.DRAW_ALREADY_OFFERED: "You have already offered a draw. Wait for {opponent} to accept, "
                              "or play on.",
    Msg.DRAW_OFFER_OVERTAKEN: "Your move was played, but your opponent replied before your "
                              "draw offer went out, so no draw was offered. You can offer "
                              "one now with /draw.",
    Msg.ABORT_TOO_LATE: "Both players have moved, so the game can't be aborted any more. Use "
                        "/resign, or ask a moderator.",
    Msg.GUILD_ONLY: "This works in a server channel, not in direct messages.",
    Msg.BAD_OPTION: "I can't use the value given for `{option}`: pick it from the list "
                    "Discord offers (or type a value in its range) and try again. Nothing "
                    "was changed.",
    Msg.UNKNOWN_GAME: "There is no game #{game_id}. /history lists game numbers.",
    Msg.GAME_ELSEWHERE: "These buttons belong to game #{game_id}, which is being played in "
                        "another channel: nothing was done.",
    Msg.NOT_THIS_BOARDS: "This button does not belong to this board: nothing was done.",
    Msg.NO_GAME_TO_EXPORT: "There is no game to export yet: give a game number (see /history).",
    Msg.NO_GAME_TO_EXPORT_SEVERAL: Plural(
        "You have {count} game in progress ({games}) and no finished one: give /export the "
        "number of the game you want.",
        "You have {count} games in progress ({games}) and no finished one: give /export the "
        "number of the game you want.",
    ),
    Msg.UNKNOWN_VARIANT: "Unknown variant {name!r}. Choose one of: {valid}.",
    Msg.BAD_LEVEL: "There is no level {level}: the computer plays at levels 1 (easiest) to 5 "
                   "(strongest). Pick one of those.",
    Msg.COMPUTER_NO_DRAW: "The computer does not take or offer draws: play on, or /resign.",
    Msg.UNEXPECTED: "Something went wrong on my side. Please try again; in a game, /board "
                    "shows where it stands.",
    Msg.STORAGE_UNAVAILABLE: "I cannot save moves right now, so this was not done. Nothing "
                             "of yours was lost: every move I answered is kept. Please try "
                             "again in a while.",
    # challenge limits, settings, the text board
    Msg.CHALLENGE_DUPLICATE: "You already challenged {opponent}: {challenge}. Wait for their "
                             "answer there, or cancel that challenge before sending another.",
    Msg.CHALLENGE_DUPLICATE_REVERSE: "{opponent} already challenged you: {challenge}. Accept "
                                     "or decline it there.",
    Msg.CHALLENGE_LIMIT_CHALLENGER: "Pending challenges from you on this server: {count}, the "
                                    "most it allows ({limit}). Wait for an answer or cancel "
                                    "one (your oldest: {challenge}).",
    Msg.CHALLENGE_LIMIT_OPPONENT: "Pending challenges to {opponent} on this server: {count}, "
                                  "the most it allows ({limit}). Try again when they have "
                                  "answered some.",
    Msg.SETTINGS_ADMIN_ONLY: "Only members with the Manage Server permission can change this "
                             "server's settings.",
    Msg.SETTINGS_TITLE: "Your settings",
    # one line per preference (bot.services.settings.PREFERENCES), then the hint
    Msg.SETTINGS_LINE_BOARD_SIDE: "Board side: **{value}**",
    Msg.SETTINGS_LINE_NOTATION: "Notation in the variants with numbered squares: **{value}**",
    Msg.SETTINGS_HINT: "Change them with /settings.",
    Msg.SETTINGS_SAVED: "Saved.",
    Msg.SERVER_SETTINGS_TITLE: "Settings of this server",
    Msg.SERVER_SETTINGS_LINE_PER_CHALLENGER: "Most pending challenges from one player: **{value}** "
                                             "(default {default})",
    Msg.SERVER_SETTINGS_LINE_PER_OPPONENT: "Most pending challenges to one player: **{value}** "
                                           "(default {default})",
    Msg.SERVER_SETTINGS_HINT: "Change them with /server-settings.",
    Msg.SIDE_AUTO: "the side you play",
    Msg.NOTATION_NUMERIC: "numeric (22-18)",
    Msg.NOTATION_ALGEBRAIC: "algebraic (d3-c4)",
    Msg.SETTINGS_LINE_NOTIFY: "Told when it is your turn (move times of an hour or more): "
                              "**{value}**",
    Msg.NOTIFY_DM: "by direct message",
    Msg.NOTIFY_CHANNEL: "in the game's channel",
    Msg.NOTIFY_OFF: "off",
    # turn notifications (bot.ui.notifications): one line per game, a digest's title
    Msg.NOTIFICATION_TURN: "Your turn in game #{game} against {opponent}: {link}",
    Msg.NOTIFICATION_REMINDER: "Less than {left} left for your move in game #{game} against "
                               "{opponent}: {link}",
    Msg.NOTIFICATION_DIGEST: Plural(one="{count} game is waiting for you:",
                                    other="{count} games are waiting for you:"),
    Msg.NOTIFICATION_DMS_CLOSED_CHANNEL: "I could not send you a direct message (your "
                                         "direct messages are closed to me), so where I "
                                         "cannot post in a game's channel I no longer tell "
                                         "you when it is your turn. To be told in those "
                                         "games again, open your direct messages to me, "
                                         "then choose "
                                         "/settings notify:",
    Msg.NOTIFICATION_DMS_CLOSED: "I could not send you a direct message (your direct "
                                 "messages are closed to me), so I stopped telling you when "
                                 "it is your turn. To be told again, open your direct "
                                 "messages to me, then choose /settings notify:",
    Msg.TEXT_BOARD_MISSING: "This channel denies me the {permission} permission, so my "
                            "boards here are text ({white_man}, {black_man}: White's and "
                            "Black's men; {white_king}, {black_king}: their kings). To get "
                            "the picture, an admin can give me that permission in the "
                            "channel's settings.",
    Msg.TEXT_BOARD_MISSING_BOTH: "This channel denies me the {first} and {second} "
                                 "permissions, so my boards here are text ({white_man}, "
                                 "{black_man}: White's and Black's men; {white_king}, "
                                 "{black_king}: their kings). To get the picture, an admin "
                                 "can give me those permissions in the channel's settings.",
    # the text board's pieces: one character each, read in a left-to-right code block
    Msg.TEXT_BOARD_WHITE_MAN: "w",
    Msg.TEXT_BOARD_BLACK_MAN: "b",
    Msg.TEXT_BOARD_WHITE_KING: "W",
    Msg.TEXT_BOARD_BLACK_KING: "B",
    Msg.NO_GAME_HERE_YOURS: "There is no game in this channel; yours (#{game_id}) is in "
                            "{channel}. To start one here, use /play (against the computer) "
                            "or /challenge a player.",
    Msg.RESIGN_LAPSED: "This question lapsed (it was asked over a minute ago), so nothing was "
                       "done: the game goes on. Resign again if you mean it.",
    Msg.RESIGN_MOVED_ON: "The game has moved on since you were asked, so nothing was done: "
                         "look at the new board, and resign from there if you still mean it.",
    Msg.RESIGN_NOT_YOURS: "This question was asked of {user}: only they can answer it. To "
                          "resign a game of your own, use /resign.",
    Msg.REMATCH_TOURNAMENT_GAME: "Game #{game_id} was a tournament game: the tournament pairs "
                                 "its players, so it has no rematch. Challenge your opponent "
                                 "with /challenge to play again outside it.",
    Msg.REMATCH_NOT_PLAYER: "Only the players of game #{game_id} ({white} and {black}) can "
                            "ask for its rematch.",
    Msg.NO_GAME_TO_REMATCH: "You have no finished game in this channel to play again. Start "
                            "one with /play (against the computer) or /challenge a player.",
    # tournaments: refusals
    Msg.TOURNAMENT_NAME: "A tournament's name is 1 to {longest} characters long.",
    Msg.TOURNAMENT_ROUNDS: "A Swiss tournament has {fewest} to {most} rounds: choose how many.",
    Msg.TOURNAMENT_CYCLES: "A round robin is played once or twice: choose 1 or 2 cycles.",
    Msg.TOURNAMENT_DURATION: "An arena lasts {shortest} minutes to {longest} hours: choose its "
                             "duration.",
    Msg.TOURNAMENT_MOVE_TIME: "A tournament's games need a move time: choose one of {valid}.",
    Msg.TOURNAMENT_PLAYER_LIMIT: "The player limit of this tournament can be {fewest} to "
                                 "{most}.",
    Msg.TOURNAMENT_START_TIME: "The start time must be in the future, at most {days} days from "
                               "now.",
    Msg.TOURNAMENT_NOT_ORGANISER: "Creating a tournament takes Manage Server or the server's "
                                  "organiser role.",
    Msg.TOURNAMENT_NOT_ITS_ORGANISER: "Only this tournament's organiser, or a member with "
                                      "Manage Server or the server's organiser role, can do "
                                      "this.",
    Msg.TOURNAMENT_CHANNEL_BUSY: "This channel already has a tournament that is not over: "
                                 "{name}. Create the new one in another channel, or end that "
                                 "one first.",
    Msg.TOURNAMENT_UNKNOWN: "There is no tournament #{tournament_id} on this server.",
    Msg.TOURNAMENT_ROLE_REQUIRED: "This tournament is only for members with its role.",
    Msg.TOURNAMENT_ALREADY_IN: "You are already in this tournament.",
    Msg.TOURNAMENT_REMOVED: "The organiser removed you from this tournament, so you can't join "
                            "it again.",
    Msg.TOURNAMENT_SIGNUP_CLOSED: "Sign-up for this tournament is closed.",
    Msg.TOURNAMENT_FULL: "This tournament is full: it takes {limit} players.",
    Msg.TOURNAMENT_NOT_ENTERED: "You are not in this tournament.",
    Msg.TOURNAMENT_PLAYER_NOT_ENTERED: "{user} is not in this tournament.",
    Msg.TOURNAMENT_OVER: "This tournament is over.",
    Msg.TOURNAMENT_ALREADY_STARTED: "This tournament has already started.",
    Msg.TOURNAMENT_TOO_FEW_PLAYERS: "A tournament needs at least two players to start.",
    Msg.TOURNAMENT_NOT_RUNNING: "Only a tournament under way can be paused.",
    Msg.TOURNAMENT_NOT_PAUSED: "This tournament is not paused.",
    Msg.TOURNAMENT_NO_TRF: "Only a Swiss or round-robin tournament that has started can be "
                           "exported as a TRF file.",

    Msg.CHALLENGE_TITLE: "Challenge: {variant}",
    Msg.CHALLENGE_BODY: "{challenger} challenges {opponent} to a {kind} game of "
                        "{variant_in_sentence}.\n"
                        "{challenger} plays {color}. Move time: {move_time}.",
    Msg.CHALLENGE_EXPIRES: "{opponent}: accept or decline. The challenge expires {when}.",
    Msg.CHALLENGE_ACCEPTED: "{opponent} accepted. The game is on!",
    Msg.CHALLENGE_DECLINED: "{opponent} declined the challenge.",
    Msg.CHALLENGE_CANCELLED: "{challenger} withdrew the challenge.",
    Msg.CHALLENGE_EXPIRED: "The challenge expired without an answer.",
    Msg.BUTTON_ACCEPT: "Accept",
    Msg.BUTTON_DECLINE: "Decline",
    Msg.BUTTON_CANCEL: "Cancel",
    Msg.BUTTON_CANCEL_ANALYSIS: "Cancel analysis",
    Msg.BUTTON_RESIGN: "Resign",
    Msg.BUTTON_DRAW: "Offer draw",
    Msg.BUTTON_ACCEPT_DRAW: "Accept draw",
    Msg.BUTTON_REMATCH: "Rematch",
    Msg.BUTTON_RESIGN_CONFIRM: "Resign",
    Msg.BUTTON_KEEP_PLAYING: "Keep playing",

    Msg.RATED: "rated",
    Msg.CASUAL: "casual",
    Msg.NOT_RATED: "not rated",
    Msg.COLOR_WHITE: "White",
    Msg.COLOR_BLACK: "Black",
    Msg.COLOR_RANDOM: "a random colour",
    Msg.COMPUTER: "Computer (level {level})",
    Msg.NO_MOVE_TIME: "none",
    Msg.BOARD_TITLE: "{variant} · game #{game_id} · {kind}",
    Msg.BOARD_TURN: "{player} to move ({color}).",
    Msg.BOARD_THINKING: "{player} is thinking… ({color} to move)",
    Msg.BOARD_PLAYER: "{player} ({rating})",
    Msg.BOARD_MOVE: "Move",
    Msg.BOARD_LAST_MOVE: "Last move",
    Msg.BOARD_NO_MOVE_YET: "none yet",
    Msg.BOARD_MOVE_TIME: "Time per move",
    Msg.BOARD_DEADLINE: "{player}'s time for this move runs out {when}.",
    Msg.BOARD_DEADLINE_INACTIVITY: "Without a move {when}, {player} loses on time.",
    Msg.BOARD_CLOCKS: "Clocks ({control})",
    Msg.BOARD_CLOCK: "{player}: {left}",
    Msg.BOARD_CLOCK_RUNNING: "{player}: {left} when this turn began; runs out {when}",
    Msg.CHALLENGE_CLOCK: "Clock: {control} (minutes for each player + seconds added per move).",
    Msg.BOARD_DRAW_OFFER: "{player} offers a draw: {opponent}, press Accept draw or use /draw "
                          "to accept.",
    Msg.BOARD_RATING_CHANGES: "Rating changes",
    Msg.RATING_CHANGE_LINE: "{player}: {before} → {after} ({delta})",
    Msg.GAME_STARTED: "{white} (White) vs {black} (Black): the game begins.",
    Msg.MOVE_PLAYED: "{player} played **{move}**.",
    Msg.COMPUTER_MOVED: "Time ran out for {player}; the computer played **{move}** for them "
                        "(computer moves in a row: {count}/{limit}; when the limit is "
                        "reached, their next time-out loses the game).",
    Msg.DRAW_OFFERED: "{player} offers a draw. {opponent}: press Accept draw or use /draw to "
                      "accept, or just play on.",
    Msg.BOARD_NOT_SHOWN: "(I could not show the board just now; /board shows it.)",
    Msg.AFTER_RESTART: "(I restarted before I could show this board; here it is.)",
    Msg.RESIGN_QUESTION: "Resign game #{game_id} against {opponent}? This question lapses in "
                         "a minute, or as soon as the game moves on.",
    Msg.RESIGN_KEPT: "You play on: game #{game_id} goes on.",

    Msg.RESULT_WIN: "{winner} wins ({score}). {reason}",
    Msg.RESULT_DRAW: "Draw (½-½). {reason}",
    Msg.RESULT_ABORTED: "Game aborted: no result, no rating change. {reason}",
    Msg.REASON_NO_PIECES: "{loser} has no pieces left.",
    Msg.REASON_NO_LEGAL_MOVE: "{loser} has no legal move.",
    Msg.REASON_REPETITION: "The same position occurred three times.",
    Msg.REASON_ONE_PIECE_EACH: "Each side has one piece left.",
    Msg.REASON_MOVE_LIMIT: "The move limit without captures or man moves was reached.",
    Msg.REASON_ENDGAME_LIMIT: "This endgame was not won within the moves the rules allow it.",
    Msg.REASON_RESIGNATION: "{loser} resigned.",
    Msg.REASON_AGREEMENT: "The players agreed to a draw.",
    Msg.REASON_TIME_FORFEIT: "{loser} ran out of time.",
    Msg.REASON_INACTIVITY: "{loser} did not move for {limit} and lost on time.",
    Msg.REASON_ABORTED: "Aborted by {user}.",
    Msg.SHORT_NO_PIECES: "no pieces left",
    Msg.SHORT_NO_LEGAL_MOVE: "no legal move left",
    Msg.SHORT_REPETITION: "threefold repetition",
    Msg.SHORT_ONE_PIECE_EACH: "one piece each",
    Msg.SHORT_MOVE_LIMIT: "move limit reached",
    Msg.SHORT_ENDGAME_LIMIT: "endgame move limit reached",
    Msg.SHORT_RESIGNATION: "by resignation",
    Msg.SHORT_AGREEMENT: "by agreement",
    Msg.SHORT_TIME_FORFEIT: "out of time",
    Msg.SHORT_INACTIVITY: "no move in time (inactivity)",
    Msg.SHORT_ABORTED: "aborted",
    Msg.SHORT_OTHER: "ended",
    Msg.STATUS_PENDING: "open",
    Msg.STATUS_ACCEPTED: "accepted",
    Msg.STATUS_DECLINED: "declined",
    Msg.STATUS_CANCELLED: "withdrawn",
    Msg.STATUS_EXPIRED: "expired",
    Msg.DAYS: Plural("{count} day", "{count} days"),
    Msg.HOURS: Plural("{count} hour", "{count} hours"),
    Msg.MINUTES: Plural("{count} minute", "{count} minutes"),
    Msg.SECONDS: Plural("{count} second", "{count} seconds"),
    Msg.RATED_GAMES: Plural("{count} rated game", "{count} rated games"),
    Msg.GAMES: Plural("{count} game", "{count} games"),
    Msg.RESULT_UNRATED_EARLY: "Not rated: the game ended before each side had made two "
                              "moves of its own, so no rating changes.",

    Msg.RATING_TITLE: "Ratings of {user}",
    Msg.RATING_LINE: "**{variant}**: {rating} (deviation {deviation}) · {games} · won: "
                     "{wins} · lost: {losses} · drawn: {draws}",
    Msg.RATING_NONE: "{user} has no rated games yet{variant_part}. Ratings start at 1500, "
                     "marked ? while provisional.",
    Msg.LEADERBOARD_TITLE_SERVER: "{variant} leaderboard · this server",
    Msg.LEADERBOARD_TITLE_GLOBAL: "{variant} leaderboard · everywhere",
    Msg.LEADERBOARD_LINE: "**{rank}.** {player}: {rating} ({games})",
    Msg.LEADERBOARD_EMPTY: "Nobody is on this leaderboard yet.",
    Msg.LEADERBOARD_YOUR_RANK: "Your place: **{rank}** of {total}, rating {rating}.",
    Msg.LEADERBOARD_NOT_RANKED: "You are not on this leaderboard yet.",
    Msg.LEADERBOARD_RULE: Plural(
        "Listed: at least {min_games} rated game and a rating deviation below "
        "{max_deviation}. `?` marks a provisional rating.",
        "Listed: at least {min_games} rated games and a rating deviation below "
        "{max_deviation}. `?` marks a provisional rating.",
        count="min_games",
    ),
    Msg.HISTORY_TITLE: "Recent games of {user}",
    Msg.HISTORY_LINE: "#{game_id} · {variant} · {score} vs {opponent} · {reason} · {when}",
    Msg.HISTORY_LINE_ABORTED: "#{game_id} · {variant} · {score} vs {opponent} · {when}",
    Msg.HISTORY_EMPTY: "{user} has not finished a game yet.",
    Msg.HISTORY_HIDDEN: ("No game of {user}'s can be shown here: a game is shown only in "
                         "the server where it was played, or to its own players anywhere."),
    Msg.EXPORT_DONE: "Game #{game_id} ({variant}) as PDN.",
    Msg.EXPORT_CHOSE_ACTIVE: "It is your game in progress.",
    Msg.EXPORT_CHOSE_RECENT: "It is your most recent game.",
    Msg.EXPORT_OTHERS: Plural(
        "You have {count} game in progress ({games}): give /export its number to export it.",
        "You have {count} games in progress ({games}): give /export a game number to export "
        "one of them.",
    ),
    Msg.REPLAY_DONE: "Game #{game_id} ({variant}), move by move.",
    Msg.REPLAY_TOO_LONG: "Game #{game_id} is too long to fit in an animated picture within "
                         "Discord's upload limit: /export gives it as PDN.",
    Msg.BUTTON_REPLAY: "Replay",
    Msg.RULES_TITLE: "{variant}",
    Msg.HELP_BODY: (
        "**/challenge** a player to Turkish, Moroccan, Italian, International, Brazilian or "
        "Russian draughts, Arab Dama or English checkers; they accept with the button.\n"
        "**/play** a game against the computer (levels 1 to 5).\n"
        "**/move** plays a move: start typing and pick one of your legal moves from the list.\n"
        "**/board** shows the board again · **/draw** offers or accepts a draw · **/resign** "
        "gives up (after asking you) · **/abort** cancels a game before both sides have "
        "moved · **/rematch** plays the last game again, colours swapped.\n"
        "**/rating**, **/leaderboard**, **/history** and **/export** (PDN, GIF) show results; "
        "**/rules** explains a variant.\n"
        "**/games** lists your games under way everywhere, your turn first, with links to "
        "their boards; a time per move of days suits a slow game.\n"
        "**/settings**: the side your boards are drawn from, and moves in numbers (22-18) or "
        "letters (d3-c4) in the variants with numbered squares (Italian and International "
        "draughts, English checkers), and whether I tell you when it is your turn in games "
        "with a move time of an hour or more.\n"
        "**/puzzle** gives you a puzzle that only you see; **/solve** answers it one move at "
        "a time.\n"
        "**/analyze** has the computer review a finished game: accuracy, mistakes and better "
        "moves.\n"
        "**/tournament** runs arena, Swiss and round robin tournaments: join one with its "
        "Join button; **/tournament standings**, **/tournament list**.\n"
        "For members with Manage Server: **/server-settings** sets this server's limits on "
        "pending challenges, its language and who may run tournaments; **/puzzle-daily** "
        "posts the daily puzzle in a channel, **/puzzle-daily-stop** stops it.\n"
        "One game per channel: start a thread to play several at once. A game without a time "
        "limit and with no move for {inactivity} is lost on time by the player to move."
    ),
    Msg.SCORE_WIN: "won",
    Msg.SCORE_LOSS: "lost",
    Msg.SCORE_DRAW: "drew",
    Msg.SCORE_ABORTED: "aborted",
    # provisional players after the established ones
    Msg.LEADERBOARD_PROVISIONAL: "Provisional (`?`), not ranked yet:",
    Msg.LEADERBOARD_PROVISIONAL_LINE: "· {player}: {rating}? ({games}; {needs})",
    Msg.LEADERBOARD_YOU_PROVISIONAL: "You are provisional, rating {rating}?; to be ranked: "
                                     "{needs}.",
    Msg.LEADERBOARD_NEEDS_GAMES: Plural(
        "{count} more rated game (minimum: {min_games})",
        "{count} more rated games (minimum: {min_games})",
    ),
    Msg.LEADERBOARD_NEEDS_DEVIATION: Plural(
        "about {count} more game to bring the deviation {deviation} under {max_deviation}",
        "about {count} more games to bring the deviation {deviation} under {max_deviation}",
    ),
    Msg.COMPUTER_BUSY: (
        "The computer is busy with many other games right now. Try again in about {wait}."
    ),
    Msg.COMPUTER_DELAYED: (
        "The computer is busy with many other games: it will move here in about {wait}."
    ),

    Msg.VARIANT_TURKISH: "Turkish draughts",
    Msg.VARIANT_ARAB: "Arab Dama",
    Msg.VARIANT_MOROCCAN: "Moroccan draughts",
    Msg.VARIANT_ITALIAN: "Italian draughts",
    Msg.VARIANT_INTERNATIONAL: "International draughts",
    Msg.VARIANT_BRAZILIAN: "Brazilian draughts",
    Msg.VARIANT_RUSSIAN: "Russian draughts",
    Msg.VARIANT_ENGLISH: "English checkers",
    Msg.VARIANT_TURKISH_IN_SENTENCE: "Turkish draughts",
    Msg.VARIANT_ARAB_IN_SENTENCE: "Arab Dama",
    Msg.VARIANT_MOROCCAN_IN_SENTENCE: "Moroccan draughts",
    Msg.VARIANT_ITALIAN_IN_SENTENCE: "Italian draughts",
    Msg.VARIANT_INTERNATIONAL_IN_SENTENCE: "International draughts",
    Msg.VARIANT_BRAZILIAN_IN_SENTENCE: "Brazilian draughts",
    Msg.VARIANT_RUSSIAN_IN_SENTENCE: "Russian draughts",
    Msg.VARIANT_ENGLISH_IN_SENTENCE: "English checkers",
    Msg.HELP_LANGUAGE: (
        "**Language**: **/settings** `language` sets the language I answer you in: English, "
        "Türkçe, Italiano or Français. بالعربية: اختر \u2066/settings language: ar\u2069"
    ),
    Msg.LANGUAGE_SET: "From now on I answer you in English. Boards and notices in the channel "
                      "stay in the server's language.",
    Msg.LANGUAGE_AUTO: "Back to automatic: I answer you in your Discord language, or in the "
                       "server's language if your Discord is in English.",
    Msg.SERVER_LANGUAGE_SET: "This server's language is now **{language}**: boards and "
                             "notices in the channel use it, and so do answers to players "
                             "whose Discord is in English.",
    Msg.SERVER_LANGUAGE_AUTO: "This server has no language of its own any more: channel posts "
                              "follow the server's Discord locale.",
    Msg.SETTINGS_LANGUAGE: "Language: **{value}** (change it with /settings language:)",
    Msg.SERVER_SETTINGS_LANGUAGE: "Language of the channel posts: **{value}** (change it with "
                                  "/server-settings language:)",
    Msg.LANGUAGE_AUTOMATIC: "automatic, now {language}",
    # why the engine refused move text (engine.MoveProblem)
    Msg.MOVE_EMPTY: "The move is empty: type one such as {example_move}.",
    Msg.MOVE_NOT_A_SQUARE: "I can't read **{text}** as a move: {square} is not a square; squares "
                           "run from a1 to {last_square}.",
    Msg.MOVE_NUMBERS_RUN_TOGETHER: "I can't read **{text}** as a move: separate numbered squares "
                                   "with - or x, e.g. {example_numbers}.",
    Msg.MOVE_NUMBERS_NOT_USED: "I can't read **{text}** as a move: numbered squares are not used "
                               "in {variant_in_sentence}; name the squares by letter and number, "
                               "e.g. {example_move}.",
    Msg.MOVE_NUMBER_OFF_BOARD: "I can't read **{text}** as a move: {number} is not a square; "
                               "numbered squares run from 1 to {last_number}.",
    Msg.MOVE_NOT_A_MOVE: "I can't read **{text}** as a move: write the start and the end square, "
                         "e.g. {example_move}, or a capture such as {example_capture}.",
    Msg.MOVE_MIXED_NOTATION: "I can't read **{text}** as a move: it mixes numbered and lettered "
                             "squares; use one form, e.g. {example_letters} or "
                             "{example_numbers}.",
    Msg.MOVE_ONE_SQUARE: "I can't read **{text}** as a move: give the start and the end square, "
                         "e.g. {example_move}.",
    Msg.MOVE_NOT_LEGAL: "**{text}** can't be played in this position. Start typing /move and pick "
                        "one of your legal moves from the list.",
    Msg.MOVE_NO_LEGAL_MOVE: "**{text}** can't be played: the side to move has no legal move (the "
                            "game is over).",
    Msg.MOVE_LIGHT_SQUARE: "**{text}** can't be played: {square} is a light square; this game is "
                           "played on the dark squares only.",
    Msg.MOVE_EMPTY_SQUARE: "**{text}** can't be played: you have no piece on {square} (the square "
                           "is empty).",
    Msg.MOVE_OPPONENTS_PIECE: "**{text}** can't be played: the piece on {square} is your "
                              "opponent's.",
    Msg.MOVE_MAN_CANNOT_TAKE_KING: "**{text}** can't be played: a man may not capture a king (the "
                                   "king on {square}). Play one of {moves}.",
    Msg.MOVE_CAPTURE_PRECEDENCE: "**{text}** can't be played: the capture rules prefer another "
                                 "capture (capturing with a king before a man, then the most "
                                 "kings, then the earliest king). Play {moves}.",
    Msg.MOVE_LONGER_CAPTURE: Plural(
        "**{text}** can't be played: a longer capture is available; you must take the most "
        "pieces (here {count} piece): {moves}.",
        "**{text}** can't be played: a longer capture is available; you must take the most "
        "pieces (here {count} pieces): {moves}.",
    ),
    Msg.MOVE_CAPTURE_UNFINISHED: "**{text}** can't be played: a capture must be played to its end:"
                                 " {moves}.",
    Msg.MOVE_MUST_CAPTURE: "**{text}** can't be played: a capture is available and capturing is "
                           "compulsory: {moves}.",
    Msg.MOVE_PIECE_CANNOT_GO_THERE: "**{text}** can't be played: that piece cannot move there. It "
                                    "can play {moves}.",
    Msg.MOVE_PIECE_STUCK: "**{text}** can't be played: the piece on {square} has no legal move. "
                          "Try {moves}.",

    # puzzles
    Msg.PUZZLE_NONE: "You have no puzzle under way. Start one with /puzzle.",
    Msg.PUZZLE_NO_BANK: "There are no puzzles for {variant_in_sentence} yet. Try another "
                        "variant.",
    Msg.PUZZLE_NO_BANK_ANY: "There are no puzzles yet.",
    Msg.PUZZLE_UNKNOWN: "That puzzle ({puzzle}) is no longer in the bank. Start another "
                        "with /puzzle.",
    Msg.PUZZLE_TITLE: "Puzzle {puzzle} ({variant})",
    Msg.PUZZLE_TASK: "{color} to move and win material. Find the shot: answer with /solve "
                     "(moves found: {found}/{total}).",
    Msg.PUZZLE_SOURCE: "Puzzle rating {rating}. From {source}.",
    Msg.PUZZLE_YOUR_RATING: "Your puzzle rating: {rating}, streak {streak}.",
    Msg.PUZZLE_CORRECT: "**{played}** is right. The defence: **{defence}**. Your move "
                        "(moves found: {found}/{total}).",
    Msg.PUZZLE_SOLVED: "**{played}**: solved!",
    Msg.PUZZLE_WRONG: "**{played}** is not the winning move. Try again, or press Reveal.",
    Msg.PUZZLE_HINT: "Hint: move the piece on **{square}**.",
    Msg.PUZZLE_REVEALED: "The solution: {line}",
    Msg.PUZZLE_RATING_CHANGE: "Your puzzle rating: {before} → {after} ({delta}), "
                              "streak {streak}.",
    Msg.PUZZLE_UNRATED: "You have met this puzzle before: this time is not rated.",
    Msg.PUZZLE_BUTTON_HINT: "Hint",
    Msg.PUZZLE_BUTTON_HINT_RATED: "Hint (the puzzle then counts as lost, even if you solve "
                                  "it)",
    Msg.PUZZLE_BUTTON_REVEAL: "Reveal",
    Msg.PUZZLE_BUTTON_REVEAL_RATED: "Reveal (the puzzle counts as lost)",
    Msg.PUZZLE_BUTTON_SOLVE_DAILY: "Solve it",
    Msg.PUZZLE_DAILY_TITLE: "Daily puzzle, {day} ({variant})",
    Msg.PUZZLE_DAILY_SET: "The daily puzzle will be posted in {channel} once a day "
                          "({variant}).",
    Msg.PUZZLE_DAILY_OFF: "The daily puzzle is stopped on this server.",
    Msg.PUZZLE_DAILY_WAS_OFF: "This server had no daily puzzle; nothing changed.",
    Msg.PUZZLE_DAILY_HOW: "Press **Solve it** to try it: only you see your answers.",
    Msg.PUZZLE_DAILY_NO_CHANNEL: "A daily puzzle can only be posted in a text channel, not "
                                 "in {channel}. Pick a text channel.",
    Msg.PUZZLE_SOURCE_RECORDED: "a recorded game ({game}, after ply {ply})",
    Msg.PUZZLE_SOURCE_SELF_PLAY: "a game the computer played against itself ({game}, after "
                                 "ply {ply})",
    Msg.PUZZLE_SOURCE_SELF_PLAY_SEED: "a game the computer played against itself (level "
                                      "{level}, after ply {ply})",
    Msg.PUZZLE_DAILY_ANY_VARIANT: "the variants in turn",
    Msg.PUZZLE_GONE: "The puzzle you were solving ({puzzle}) was changed or removed when the "
                     "bot's puzzles were updated, so it has ended: nothing more about it is "
                     "rated. Start another with /puzzle.",
    Msg.PUZZLE_CHANGED: "Your puzzle moved on while this was being checked (another answer, "
                        "hint or new puzzle of yours arrived at the same moment), so this "
                        "was not applied. Look at your latest puzzle board and try again.",
    Msg.PUZZLE_LEFT: "You left puzzle {puzzle} unsolved after taking a hint: it counts as a "
                     "loss.",
    Msg.PUZZLE_NOT_SHOWN: "These buttons belong to puzzle {puzzle}, which is no longer the one "
                          "you are solving (now {current}): nothing was done. Use the buttons "
                          "of your latest puzzle message.",
    Msg.PUZZLE_DAILY_CANNOT_POST: "I cannot post the daily puzzle in {channel}: I am "
                                  "missing {permissions} there (the post needs all of these: "
                                  "{needed}). Give me "
                                  "those permissions in that channel, or pick another "
                                  "channel.",
    Msg.PERMISSION_VIEW_CHANNEL: "View Channel",
    Msg.PERMISSION_SEND_MESSAGES: "Send Messages",
    Msg.PERMISSION_EMBED_LINKS: "Embed Links",
    Msg.PERMISSION_ATTACH_FILES: "Attach Files",
    # analysis of finished games
    Msg.NO_GAME_TO_ANALYZE: "There is no finished game in this channel to analyse. Give its "
                            "number: /analyze game:<number> (see /history).",
    Msg.ANALYSIS_GAME_ACTIVE: "Game #{game_id} is still being played. It can be analysed once "
                              "it is over.",
    Msg.ANALYSIS_NO_MOVES: "Game #{game_id} has no moves to analyse.",
    Msg.ANALYSIS_RUNNING: "Game #{game_id} is being analysed already: its progress is on the "
                          "message above. The result will be shown there.",
    Msg.ANALYSIS_BUSY: Plural(
        "The computer is analysing {count} game already. Try again in a few minutes.",
        "The computer is analysing {count} games already. Try again in a few minutes.",
    ),
    Msg.ANALYSIS_NOT_STARTER: "Only {user}, who asked for this analysis, can cancel it.",
    Msg.ANALYSIS_MISSING: "That move of game #{game_id} is not in its stored analysis. Show "
                          "the analysis again with /analyze game:{game_id}.",
    Msg.ANALYSIS_PROGRESS: "Analysing game #{game_id} ({variant}): ply {done} of {total}.",
    Msg.ANALYSIS_CANCELLED: "The analysis of game #{game_id} was cancelled.",
    Msg.ANALYSIS_FAILED: "The analysis of game #{game_id} could not be finished. Please try "
                         "again.",
    Msg.ANALYSIS_TITLE: "Analysis of game #{game_id} ({variant})",
    Msg.ANALYSIS_PLAYER: "{player} ({color}): accuracy {accuracy} · inaccuracies: "
                         "{inaccuracies} · mistakes: {mistakes} · blunders: {blunders}",
    Msg.ANALYSIS_NO_ACCURACY: "no move judged",
    Msg.ANALYSIS_MISTAKE_LINE: "**{number}** {move} ({judgement}): better {better} · line: "
                               "{line}",
    Msg.ANALYSIS_NO_MISTAKES: "No inaccuracy, mistake or blunder.",
    Msg.ANALYSIS_MORE: Plural("…and {count} more (pick it below).",
                              "…and {count} more (pick them below)."),
    Msg.ANALYSIS_FOOTER: Plural(
        "{nodes} position searched per ply; plies with a single legal move are not judged.",
        "{nodes} positions searched per ply; plies with a single legal move are not judged.",
        count="nodes",
    ),
    Msg.ANALYSIS_PICK: "Show a mistake on the board",
    Msg.ANALYSIS_MISTAKE_BOARD: "Game #{game_id}, {number} {move} ({judgement}, {player}). "
                                "Better: **{better}**, line: {line}",
    Msg.ANALYSIS_NOT_RUNNING: "The analysis of game #{game_id} is not running any more (the "
                              "bot may have restarted). /analyze game:{game_id} shows it, or "
                              "starts it again.",
    Msg.ANALYSIS_STOPPED: "The analysis of game #{game_id} stopped before it was finished. "
                          "/analyze game:{game_id} starts it again.",
    Msg.ANALYSIS_RESTARTED: "The analysis of game #{game_id} was stopped by a restart of the "
                            "bot. /analyze game:{game_id} starts it again.",
    Msg.EXPORT_NO_ANALYSIS: "Game #{game_id} has no analysis yet, so the file has none: run "
                            "/analyze game:{game_id}, then export it again.",
    Msg.WORD_INACCURACY: "inaccuracy",
    Msg.WORD_MISTAKE: "mistake",
    Msg.WORD_BLUNDER: "blunder",
    Msg.BUTTON_ANALYZE: "Analyze",
    **ENGLISH_RULES,
    **ENGLISH_TOURNAMENTS,
    **ENGLISH_GAMES, **ENGLISH_PLACES, **ENGLISH_WEB,
})
