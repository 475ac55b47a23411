"""Every text a player reads: the message ids, their English source and the catalogs.

`text(key, locale, **params)` fills a message's template with `str.format` fields, in the
language `locale` names (a language code of `bot.language.Language`, or a Discord locale
such as "en-US" or "tr"). English lives here (`ENGLISH`); the other languages are
GNU gettext catalogs, `bot/locales/messages/<language>.po`, read with Babel: each entry's
context (`msgctxt`) is the message id, its `msgid` the English text, and a message whose
words depend on a number (`Plural`) has one form per plural category of the language's
CLDR rule. An entry missing or marked fuzzy (its English changed since it was translated)
falls back to English; the test suite refuses both (`tests/bot/test_catalogs.py`).
`python -m bot.locales` writes the template and merges it into the catalogs after an
English text changed. Discord has no Arabic client locale: Arabic is reached by a
player's or server's choice (`bot.language`).

Parameters are formatted by the caller (mentions, numbers); the templates never build
sentences from pieces of other templates except through named fields.
"""

from __future__ import annotations

import enum
import functools
import gettext
import io
import string
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from types import MappingProxyType

from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po

from bot.language import SOURCE, Direction, Language, from_locale


class Msg(enum.StrEnum):
    """Message ids. The value is the id used in the catalogs."""

    # --- refusals and mistakes (ephemeral) ---------------------------------------------
    NO_GAME_HERE = "error.no_game_here"
    NOT_IN_GAME = "error.not_in_game"
    NOT_YOUR_TURN = "error.not_your_turn"
    OUT_OF_TIME = "error.out_of_time"
    CLOCK_WITH_MOVE_TIME = "error.clock_with_move_time"
    MOVE_AMBIGUOUS = "error.move_ambiguous"
    MOVE_RACE = "error.move_race"
    GAME_OVER = "error.game_over"
    GAME_ENDED_HERE = "error.game_ended_here"
    GAME_QUARANTINED = "error.game_quarantined"
    STALE_BOARD = "error.stale_board"
    CHALLENGE_SELF = "error.challenge_self"
    CHALLENGE_BOT = "error.challenge_bot"
    CHANNEL_BUSY = "error.channel_busy"
    ALREADY_PLAYING_HERE = "error.already_playing_here"
    OPPONENT_PLAYING_HERE = "error.opponent_playing_here"
    CHALLENGE_CLOSED = "error.challenge_closed"
    CHALLENGE_NOT_FOR_YOU = "error.challenge_not_for_you"
    CHALLENGE_OWN = "error.challenge_own"
    CHALLENGE_NOT_YOURS = "error.challenge_not_yours"
    CHALLENGE_UNKNOWN = "error.challenge_unknown"
    DRAW_ALREADY_OFFERED = "error.draw_already_offered"
    ABORT_TOO_LATE = "error.abort_too_late"
    GUILD_ONLY = "error.guild_only"
    BAD_OPTION = "error.bad_option"
    UNKNOWN_GAME = "error.unknown_game"
    GAME_ELSEWHERE = "error.game_elsewhere"
    NOT_THIS_BOARDS = "error.not_this_boards"
    NO_GAME_TO_EXPORT = "error.no_game_to_export"
    NO_GAME_TO_EXPORT_SEVERAL = "error.no_game_to_export_several"
    UNKNOWN_VARIANT = "error.unknown_variant"
    BAD_LEVEL = "error.bad_level"
    COMPUTER_NO_DRAW = "error.computer_no_draw"
    UNEXPECTED = "error.unexpected"
    STORAGE_UNAVAILABLE = "error.storage_unavailable"
    # challenge limits, settings, the text board
    CHALLENGE_DUPLICATE = "error.challenge_duplicate"
    CHALLENGE_DUPLICATE_REVERSE = "error.challenge_duplicate_reverse"
    CHALLENGE_LIMIT_CHALLENGER = "error.challenge_limit_challenger"
    CHALLENGE_LIMIT_OPPONENT = "error.challenge_limit_opponent"
    SETTINGS_ADMIN_ONLY = "error.settings_admin_only"
    SETTINGS_TITLE = "settings.title"
    SETTINGS_LINE_BOARD_SIDE = "settings.line.board_side"
    SETTINGS_LINE_NOTATION = "settings.line.notation"
    SETTINGS_HINT = "settings.hint"
    SETTINGS_SAVED = "settings.saved"
    SERVER_SETTINGS_TITLE = "settings.server_title"
    SERVER_SETTINGS_LINE_PER_CHALLENGER = "settings.server_line.per_challenger"
    SERVER_SETTINGS_LINE_PER_OPPONENT = "settings.server_line.per_opponent"
    SERVER_SETTINGS_HINT = "settings.server_hint"
    SIDE_AUTO = "word.side_auto"
    NOTATION_NUMERIC = "word.notation_numeric"
    NOTATION_ALGEBRAIC = "word.notation_algebraic"
    TEXT_BOARD_MISSING = "board.text_missing_permission"
    TEXT_BOARD_MISSING_BOTH = "board.text_missing_permissions"
    # next steps, the resign question, rematch
    NO_GAME_HERE_YOURS = "error.no_game_here_yours"
    RESIGN_LAPSED = "error.resign_lapsed"
    RESIGN_MOVED_ON = "error.resign_moved_on"
    RESIGN_NOT_YOURS = "error.resign_not_yours"
    REMATCH_NOT_PLAYER = "error.rematch_not_player"
    NO_GAME_TO_REMATCH = "error.no_game_to_rematch"

    # --- challenges --------------------------------------------------------------------
    CHALLENGE_TITLE = "challenge.title"
    CHALLENGE_BODY = "challenge.body"
    CHALLENGE_EXPIRES = "challenge.expires"
    CHALLENGE_ACCEPTED = "challenge.accepted"
    CHALLENGE_DECLINED = "challenge.declined"
    CHALLENGE_CANCELLED = "challenge.cancelled"
    CHALLENGE_EXPIRED = "challenge.expired"
    BUTTON_ACCEPT = "button.accept"
    BUTTON_DECLINE = "button.decline"
    BUTTON_CANCEL = "button.cancel"
    BUTTON_RESIGN = "button.resign"
    BUTTON_DRAW = "button.draw"
    BUTTON_ACCEPT_DRAW = "button.accept_draw"
    BUTTON_REMATCH = "button.rematch"
    BUTTON_RESIGN_CONFIRM = "button.resign_confirm"
    BUTTON_KEEP_PLAYING = "button.keep_playing"

    # --- the board ---------------------------------------------------------------------
    RATED = "word.rated"
    CASUAL = "word.casual"
    NOT_RATED = "word.not_rated"
    COLOR_WHITE = "word.white"
    COLOR_BLACK = "word.black"
    COLOR_RANDOM = "word.random"
    COMPUTER = "word.computer"
    NO_MOVE_TIME = "word.no_move_time"
    BOARD_TITLE = "board.title"
    BOARD_TURN = "board.turn"
    BOARD_THINKING = "board.thinking"
    BOARD_PLAYER = "board.player"
    BOARD_MOVE = "board.move"
    BOARD_LAST_MOVE = "board.last_move"
    BOARD_NO_MOVE_YET = "board.no_move_yet"
    BOARD_MOVE_TIME = "board.move_time"
    BOARD_DEADLINE = "board.deadline"
    BOARD_CLOCKS = "board.clocks"
    BOARD_CLOCK = "board.clock"
    BOARD_CLOCK_RUNNING = "board.clock_running"
    CHALLENGE_CLOCK = "challenge.clock"
    BOARD_DRAW_OFFER = "board.draw_offer"
    BOARD_RATING_CHANGES = "board.rating_changes"
    RATING_CHANGE_LINE = "board.rating_change_line"
    GAME_STARTED = "board.game_started"
    MOVE_PLAYED = "board.move_played"
    COMPUTER_MOVED = "board.computer_moved"
    DRAW_OFFERED = "board.draw_offered"
    BOARD_NOT_SHOWN = "board.not_shown"
    AFTER_RESTART = "board.after_restart"
    RESIGN_QUESTION = "board.resign_question"
    RESIGN_KEPT = "board.resign_kept"

    # --- results -----------------------------------------------------------------------
    RESULT_WIN = "result.win"
    RESULT_DRAW = "result.draw"
    RESULT_ABORTED = "result.aborted"
    REASON_NO_PIECES = "reason.no_pieces"
    REASON_NO_LEGAL_MOVE = "reason.no_legal_move"
    REASON_REPETITION = "reason.repetition"
    REASON_ONE_PIECE_EACH = "reason.one_piece_each"
    REASON_MOVE_LIMIT = "reason.move_limit"
    REASON_RESIGNATION = "reason.resignation"
    REASON_AGREEMENT = "reason.agreement"
    REASON_TIME_FORFEIT = "reason.time_forfeit"
    REASON_INACTIVITY = "reason.inactivity"
    REASON_ABORTED = "reason.aborted"
    SHORT_NO_PIECES = "short.no_pieces"
    SHORT_NO_LEGAL_MOVE = "short.no_legal_move"
    SHORT_REPETITION = "short.repetition"
    SHORT_ONE_PIECE_EACH = "short.one_piece_each"
    SHORT_MOVE_LIMIT = "short.move_limit"
    SHORT_RESIGNATION = "short.resignation"
    SHORT_AGREEMENT = "short.agreement"
    SHORT_TIME_FORFEIT = "short.time_forfeit"
    SHORT_INACTIVITY = "short.inactivity"
    SHORT_ABORTED = "short.aborted"
    SHORT_OTHER = "short.other"
    STATUS_PENDING = "status.pending"
    STATUS_ACCEPTED = "status.accepted"
    STATUS_DECLINED = "status.declined"
    STATUS_CANCELLED = "status.cancelled"
    STATUS_EXPIRED = "status.expired"
    DAYS = "duration.days"
    HOURS = "duration.hours"
    MINUTES = "duration.minutes"
    SECONDS = "duration.seconds"
    RATED_GAMES = "count.rated_games"
    GAMES = "count.games"
    RESULT_UNRATED_EARLY = "result.unrated_early"

    # --- information commands ----------------------------------------------------------
    RATING_TITLE = "rating.title"
    RATING_LINE = "rating.line"
    RATING_NONE = "rating.none"
    LEADERBOARD_TITLE_SERVER = "leaderboard.title_server"
    LEADERBOARD_TITLE_GLOBAL = "leaderboard.title_global"
    LEADERBOARD_LINE = "leaderboard.line"
    LEADERBOARD_EMPTY = "leaderboard.empty"
    LEADERBOARD_YOUR_RANK = "leaderboard.your_rank"
    LEADERBOARD_NOT_RANKED = "leaderboard.not_ranked"
    LEADERBOARD_RULE = "leaderboard.rule"
    HISTORY_TITLE = "history.title"
    HISTORY_LINE = "history.line"
    HISTORY_LINE_ABORTED = "history.line_aborted"
    HISTORY_EMPTY = "history.empty"
    HISTORY_HIDDEN = "history.hidden"
    EXPORT_DONE = "export.done"
    EXPORT_CHOSE_ACTIVE = "export.chose_active"
    EXPORT_CHOSE_RECENT = "export.chose_recent"
    EXPORT_OTHERS = "export.others"
    REPLAY_DONE = "replay.done"
    REPLAY_TOO_LONG = "error.replay_too_long"
    BUTTON_REPLAY = "button.replay"
    RULES_TITLE = "rules.title"
    RULES_TURKISH = "rules.turkish"
    RULES_ARAB = "rules.arab"
    RULES_MOROCCAN = "rules.moroccan"
    RULES_ITALIAN = "rules.italian"
    HELP_TITLE = "help.title"
    HELP_BODY = "help.body"
    SCORE_WIN = "score.win"
    SCORE_LOSS = "score.loss"
    SCORE_DRAW = "score.draw"
    SCORE_ABORTED = "score.aborted"
    # provisional players after the established ones
    LEADERBOARD_PROVISIONAL = "leaderboard.provisional"
    LEADERBOARD_PROVISIONAL_LINE = "leaderboard.provisional_line"
    LEADERBOARD_YOU_PROVISIONAL = "leaderboard.you_provisional"
    LEADERBOARD_NEEDS_GAMES = "leaderboard.needs_games"
    LEADERBOARD_NEEDS_DEVIATION = "leaderboard.needs_deviation"

    # --- the computer under load (bot.computer_queue) ---------------------------------
    COMPUTER_BUSY = "error.computer_busy"
    COMPUTER_DELAYED = "computer.delayed"

    # --- languages and variant names ----------------------------------------------
    VARIANT_TURKISH = "variant.turkish"
    VARIANT_ARAB = "variant.arab"
    VARIANT_MOROCCAN = "variant.moroccan"
    VARIANT_ITALIAN = "variant.italian"
    HELP_LANGUAGE = "help.language"
    LANGUAGE_SET = "settings.language_set"
    LANGUAGE_AUTO = "settings.language_auto"
    SERVER_LANGUAGE_SET = "settings.server_language_set"
    SERVER_LANGUAGE_AUTO = "settings.server_language_auto"
    SETTINGS_LANGUAGE = "settings.language_line"
    SERVER_SETTINGS_LANGUAGE = "settings.server_language_line"
    LANGUAGE_AUTOMATIC = "word.language_automatic"
    # why the engine refused move text (engine.MoveProblem)
    MOVE_EMPTY = "error.move.empty"
    MOVE_NOT_A_SQUARE = "error.move.not_a_square"
    MOVE_NUMBERS_RUN_TOGETHER = "error.move.numbers_run_together"
    MOVE_NUMBERS_NOT_USED = "error.move.numbers_not_used"
    MOVE_NUMBER_OFF_BOARD = "error.move.number_off_board"
    MOVE_NOT_A_MOVE = "error.move.not_a_move"
    MOVE_MIXED_NOTATION = "error.move.mixed_notation"
    MOVE_ONE_SQUARE = "error.move.one_square"
    MOVE_NOT_LEGAL = "error.move.not_legal"
    MOVE_NO_LEGAL_MOVE = "error.move.no_legal_move"
    MOVE_LIGHT_SQUARE = "error.move.light_square"
    MOVE_EMPTY_SQUARE = "error.move.empty_square"
    MOVE_OPPONENTS_PIECE = "error.move.opponents_piece"
    MOVE_MAN_CANNOT_TAKE_KING = "error.move.man_cannot_take_king"
    MOVE_CAPTURE_PRECEDENCE = "error.move.capture_precedence"
    MOVE_LONGER_CAPTURE = "error.move.longer_capture"
    MOVE_CAPTURE_UNFINISHED = "error.move.capture_unfinished"
    MOVE_MUST_CAPTURE = "error.move.must_capture"
    MOVE_PIECE_CANNOT_GO_THERE = "error.move.piece_cannot_go_there"
    MOVE_PIECE_STUCK = "error.move.piece_stuck"

    # --- puzzles ------------------------------------------------------------------
    PUZZLE_NONE = "error.puzzle_none"
    PUZZLE_NO_BANK = "error.puzzle_no_bank"
    PUZZLE_UNKNOWN = "error.puzzle_unknown"
    PUZZLE_TITLE = "puzzle.title"
    PUZZLE_TASK = "puzzle.task"
    PUZZLE_SOURCE = "puzzle.source"
    PUZZLE_YOUR_RATING = "puzzle.your_rating"
    PUZZLE_CORRECT = "puzzle.correct"
    PUZZLE_SOLVED = "puzzle.solved"
    PUZZLE_WRONG = "puzzle.wrong"
    PUZZLE_HINT = "puzzle.hint"
    PUZZLE_REVEALED = "puzzle.revealed"
    PUZZLE_RATING_CHANGE = "puzzle.rating_change"
    PUZZLE_UNRATED = "puzzle.unrated"
    PUZZLE_BUTTON_HINT = "puzzle.button_hint"
    PUZZLE_BUTTON_HINT_RATED = "puzzle.button_hint_rated"
    PUZZLE_BUTTON_REVEAL = "puzzle.button_reveal"
    PUZZLE_BUTTON_SOLVE_DAILY = "puzzle.button_solve_daily"
    PUZZLE_DAILY_TITLE = "puzzle.daily_title"
    PUZZLE_DAILY_SET = "puzzle.daily_set"
    PUZZLE_DAILY_OFF = "puzzle.daily_off"
    PUZZLE_DAILY_WAS_OFF = "puzzle.daily_was_off"
    PUZZLE_DAILY_NO_CHANNEL = "error.puzzle_daily_no_channel"
    PUZZLE_DAILY_HOW = "puzzle.daily_how"
    PUZZLE_SOURCE_RECORDED = "puzzle.source_recorded"
    PUZZLE_SOURCE_SELF_PLAY = "puzzle.source_self_play"
    PUZZLE_SOURCE_SELF_PLAY_SEED = "puzzle.source_self_play_seed"
    PUZZLE_DAILY_ANY_VARIANT = "puzzle.daily_any_variant"
    PUZZLE_GONE = "error.puzzle_gone"
    PUZZLE_CHANGED = "error.puzzle_changed"
    PUZZLE_LEFT = "puzzle.left"
    PUZZLE_NOT_SHOWN = "error.puzzle_not_shown"
    PUZZLE_DAILY_CANNOT_POST = "error.puzzle_daily_cannot_post"
    PERMISSION_VIEW_CHANNEL = "puzzle.permission_view_channel"
    PERMISSION_SEND_MESSAGES = "puzzle.permission_send_messages"
    PERMISSION_EMBED_LINKS = "puzzle.permission_embed_links"
    PERMISSION_ATTACH_FILES = "puzzle.permission_attach_files"
    # --- analysis of finished games ----------------------------------------------
    NO_GAME_TO_ANALYZE = "error.no_game_to_analyze"
    ANALYSIS_GAME_ACTIVE = "error.analysis_game_active"
    ANALYSIS_NO_MOVES = "error.analysis_no_moves"
    ANALYSIS_RUNNING = "error.analysis_running"
    ANALYSIS_BUSY = "error.analysis_busy"
    ANALYSIS_NOT_STARTER = "error.analysis_not_starter"
    ANALYSIS_MISSING = "error.analysis_missing"
    ANALYSIS_PROGRESS = "analysis.progress"
    ANALYSIS_CANCELLED = "analysis.cancelled"
    ANALYSIS_FAILED = "analysis.failed"
    ANALYSIS_TITLE = "analysis.title"
    ANALYSIS_PLAYER = "analysis.player"
    ANALYSIS_NO_ACCURACY = "analysis.no_accuracy"
    ANALYSIS_MISTAKE_LINE = "analysis.mistake_line"
    ANALYSIS_NO_MISTAKES = "analysis.no_mistakes"
    ANALYSIS_MORE = "analysis.more"
    ANALYSIS_FOOTER = "analysis.footer"
    ANALYSIS_PICK = "analysis.pick"
    ANALYSIS_MISTAKE_BOARD = "analysis.mistake_board"
    ANALYSIS_NOT_RUNNING = "analysis.not_running"
    ANALYSIS_STOPPED = "analysis.stopped"
    EXPORT_NO_ANALYSIS = "analysis.export_none"
    WORD_INACCURACY = "word.inaccuracy"
    WORD_MISTAKE = "word.mistake"
    WORD_BLUNDER = "word.blunder"
    BUTTON_ANALYZE = "button.analyze"



@dataclass(frozen=True)
class Plural:
    """A message whose words depend on a number: the English singular and plural forms,
    and the parameter holding the number (`count` unless named). Each language has as many
    forms as its plural rule (CLDR, through Babel: Arabic six, Italian and French three,
    Turkish and English two)."""

    one: str
    other: str
    count: str = "count"


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
                              "(or /resign) first, or challenge in a thread.",
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
    Msg.ABORT_TOO_LATE: "Both players have moved, so the game can't be aborted any more. Use "
                        "/resign, or ask a moderator.",
    Msg.GUILD_ONLY: "This works in a server channel, not in direct messages.",
    Msg.BAD_OPTION: "I can't use the value given for `{option}`: pick it from the list "
                    "Discord offers (or type a value in its range) and try again. Nothing "
                    "was changed.",
    Msg.UNKNOWN_GAME: "There is no game #{game_id}. /history lists game numbers.",
    Msg.GAME_ELSEWHERE: "These buttons belong to game #{game_id}, which is being played in "
                        "another channel: nothing was done.",
    Msg.NOT_THIS_BOARDS: "This button is not one of this board's: nothing was done.",
    Msg.NO_GAME_TO_EXPORT: "There is no game to export yet: give a game number (see /history).",
    Msg.NO_GAME_TO_EXPORT_SEVERAL: "You have {count} games in progress ({games}) and no "
                                   "finished one: give /export the number of the game you "
                                   "want.",
    Msg.UNKNOWN_VARIANT: "Unknown variant {name!r}. Choose one of: {valid}.",
    Msg.BAD_LEVEL: "There is no level {level}: the computer plays at levels 1 (easiest) to 5 "
                   "(strongest). Pick one of those.",
    Msg.COMPUTER_NO_DRAW: "The computer does not take or offer draws: play on, or /resign.",
    Msg.UNEXPECTED: "Something went wrong on my side. Please try again; in a game, /board "
                    "shows where it stands.",
    Msg.STORAGE_UNAVAILABLE: "The server cannot save moves right now, so this was not done. "
                             "Nothing of yours was lost: every move you were answered for is "
                             "kept. Please try again in a while.",
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
    Msg.SETTINGS_LINE_NOTATION: "Italian notation: **{value}**",
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
    Msg.TEXT_BOARD_MISSING: "This channel denies me the {permission} permission, so my "
                            "boards here are text (w, b: men; W, B: kings). An admin can give "
                            "me that permission in the channel's settings for the picture.",
    Msg.TEXT_BOARD_MISSING_BOTH: "This channel denies me the Attach Files and Embed Links "
                                 "permissions, so my boards here are text (w, b: men; W, B: "
                                 "kings). An admin can give me those permissions in the "
                                 "channel's settings for the picture.",
    Msg.NO_GAME_HERE_YOURS: "There is no game in this channel; yours (#{game_id}) is in "
                            "{channel}. To start one here, use /play (against the computer) "
                            "or /challenge a player.",
    Msg.RESIGN_LAPSED: "This question lapsed (it was asked over a minute ago), so nothing was "
                       "done: the game goes on. Resign again if you mean it.",
    Msg.RESIGN_MOVED_ON: "The game has moved on since you were asked, so nothing was done: "
                         "look at the new board, and resign from there if you still mean it.",
    Msg.RESIGN_NOT_YOURS: "This question was asked of {user}: only they can answer it. To "
                          "resign a game of your own, use /resign.",
    Msg.REMATCH_NOT_PLAYER: "Only the players of game #{game_id} ({white} and {black}) can "
                            "ask for its rematch.",
    Msg.NO_GAME_TO_REMATCH: "You have no finished game in this channel to play again. Start "
                            "one with /play (against the computer) or /challenge a player.",

    Msg.CHALLENGE_TITLE: "Challenge: {variant}",
    Msg.CHALLENGE_BODY: "{challenger} challenges {opponent} to a {kind} game of {variant}.\n"
                        "{challenger} plays {color}. Move time: {move_time}.",
    Msg.CHALLENGE_EXPIRES: "{opponent}: accept or decline. The challenge expires {when}.",
    Msg.CHALLENGE_ACCEPTED: "{opponent} accepted. The game is on!",
    Msg.CHALLENGE_DECLINED: "{opponent} declined the challenge.",
    Msg.CHALLENGE_CANCELLED: "{challenger} withdrew the challenge.",
    Msg.CHALLENGE_EXPIRED: "The challenge expired without an answer.",
    Msg.BUTTON_ACCEPT: "Accept",
    Msg.BUTTON_DECLINE: "Decline",
    Msg.BUTTON_CANCEL: "Cancel",
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
    Msg.BOARD_DEADLINE: "{player} must move {when}.",
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
                        "({count} of {limit} in a row; after that they lose on time).",
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
    Msg.RATING_LINE: "**{variant}**: {rating} (deviation {deviation}) · {games}: "
                     "{wins} won, {losses} lost, {draws} drawn",
    Msg.RATING_NONE: "{user} has no rated games yet{variant_part}. A rated game starts at "
                     "1500?.",
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
    Msg.EXPORT_OTHERS: "You have {count} games in progress ({games}): give /export a game "
                       "number to export one of them.",
    Msg.REPLAY_DONE: "Game #{game_id} ({variant}), move by move.",
    Msg.REPLAY_TOO_LONG: "Game #{game_id} is too long to fit in an animated picture within "
                         "Discord's upload limit: /export gives it as PDN.",
    Msg.BUTTON_REPLAY: "Replay",
    Msg.RULES_TITLE: "{variant}",
    Msg.RULES_TURKISH: (
        "Played on all 64 squares; 16 men each on the second and third ranks. Men step one "
        "square forward or sideways and capture the same way by jumping. A man reaching the "
        "far rank becomes a king (dama) that moves and captures any distance along ranks and "
        "files. Captured pieces leave at once; no 180° turn within a capture. Capturing is "
        "compulsory and you must take the most pieces. Draw: threefold repetition, one piece "
        "each, or 30 plies with only king moves and no capture."
    ),
    Msg.RULES_ARAB: (
        "Same board, setup and moves as Turkish draughts: men step forward or sideways, kings "
        "fly along ranks and files, capture is compulsory and maximal. Draw: threefold "
        "repetition, one piece each, or 40 moves by each side without a capture or a man move."
    ),
    Msg.RULES_MOROCCAN: (
        "Played on the 32 dark squares (a1 is light); 12 men each. Men move and capture one "
        "square diagonally forward. Kings fly along diagonals and capture from a distance. "
        "Captured pieces leave at the end of the move. Capturing is compulsory and you must "
        "take the most pieces. A man reaching the far rank is crowned and the move ends. "
        "Draw: threefold repetition or 40 moves by each side without progress."
    ),
    Msg.RULES_ITALIAN: (
        "Played on the 32 dark squares; 12 men each. Men move and capture one square "
        "diagonally forward and may never capture a king. Kings move one square in any "
        "diagonal direction. Captures are compulsory; choose by the ladder: most pieces, then "
        "with a king, then most kings, then the king met earliest. Squares may also be given "
        "as numbers 1 to 32 (22-18). Draw: threefold repetition or 40 moves by each side "
        "without progress."
    ),
    Msg.HELP_TITLE: "Playing draughts here",
    Msg.HELP_BODY: (
        "**/challenge** a player to Turkish, Arab, Moroccan or Italian draughts; they accept "
        "with the button.\n"
        "**/play** a game against the computer (levels 1 to 5).\n"
        "**/move** plays a move: start typing and pick one (e.g. d3-d4, captures d3xd5).\n"
        "**/board** shows the board again · **/draw** offers or accepts a draw · **/resign** "
        "gives up (after asking you) · **/abort** cancels a game before both sides have "
        "moved · **/rematch** plays the last game again, colours swapped.\n"
        "**/rating**, **/leaderboard**, **/history** and **/export** (PDN, GIF) show results; "
        "**/rules** explains a variant.\n"
        "**/settings**: the side your boards are drawn from, and Italian moves in numbers "
        "(22-18) or letters (d3-c4).\n"
        "**/puzzle** gives you a puzzle that only you see; **/solve** answers it one move at "
        "a time.\n"
        "**/analyze** has the computer review a finished game: accuracy, mistakes and better "
        "moves.\n"
        "For members with Manage Server: **/server-settings** sets this server's limits on "
        "pending challenges and its language; **/puzzle-daily** posts the daily puzzle in a "
        "channel, **/puzzle-daily-stop** stops it.\n"
        "One game per channel: start a thread to play several at once. A game with no move "
        "for {inactivity} is lost on time by the player to move."
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
    Msg.LEADERBOARD_NEEDS_GAMES: "{count} more of the {min_games} rated games needed",
    Msg.LEADERBOARD_NEEDS_DEVIATION: "about {count} more to bring the deviation {deviation} "
                                     "under {max_deviation}",
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
    Msg.HELP_LANGUAGE: (
        "**Language**: **/settings** `language` answers you in English, Türkçe, Italiano or "
        "Français. بالعربية: اختر \u2066/settings language: ar\u2069"
    ),
    Msg.LANGUAGE_SET: "From now on I answer you in English.",
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
    Msg.MOVE_EMPTY: "The move is empty: type one such as d3-d4.",
    Msg.MOVE_NOT_A_SQUARE: "I can't read **{text}** as a move: {square} is not a square; squares "
                           "run from a1 to h8.",
    Msg.MOVE_NUMBERS_RUN_TOGETHER: "I can't read **{text}** as a move: separate numbered squares "
                                   "with - or x, e.g. 22-18.",
    Msg.MOVE_NUMBERS_NOT_USED: "I can't read **{text}** as a move: numbered squares are only used "
                               "in Italian draughts; in {variant} name squares like d3, e.g. "
                               "d3-d4.",
    Msg.MOVE_NUMBER_OFF_BOARD: "I can't read **{text}** as a move: {number} is not a square; "
                               "numbered squares run from 1 to 32.",
    Msg.MOVE_NOT_A_MOVE: "I can't read **{text}** as a move: write the start and the end square, "
                         "e.g. d3-d4 (a capture d3xd5; in Italian draughts also numbers, 22-18).",
    Msg.MOVE_MIXED_NOTATION: "I can't read **{text}** as a move: it mixes numbered and lettered "
                             "squares; use one form, e.g. d3-d4 or 22-18.",
    Msg.MOVE_ONE_SQUARE: "I can't read **{text}** as a move: give the start and the end square, "
                         "e.g. d3-d4.",
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
    Msg.MOVE_LONGER_CAPTURE: "**{text}** can't be played: a longer capture is available; you must "
                             "take the most pieces (here {count}): {moves}.",
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
    Msg.PUZZLE_NO_BANK: "There are no puzzles for {variant} yet. Try another variant.",
    Msg.PUZZLE_UNKNOWN: "That puzzle ({puzzle}) is no longer in the bank. Start another "
                        "with /puzzle.",
    Msg.PUZZLE_TITLE: "Puzzle {puzzle} ({variant})",
    Msg.PUZZLE_TASK: "{color} to move and win material. Find the shot: answer with /solve "
                     "(moves found: {found} of {total}).",
    Msg.PUZZLE_SOURCE: "Puzzle rating {rating}. From {source}.",
    Msg.PUZZLE_YOUR_RATING: "Your puzzle rating: {rating}, streak {streak}.",
    Msg.PUZZLE_CORRECT: "**{played}** is right. The defence: **{defence}**. Your move "
                        "(moves found: {found} of {total}).",
    Msg.PUZZLE_SOLVED: "**{played}**: solved!",
    Msg.PUZZLE_WRONG: "**{played}** is not the winning move. Try again, or press Reveal.",
    Msg.PUZZLE_HINT: "Hint: move the piece on **{square}**.",
    Msg.PUZZLE_REVEALED: "The solution: {line}",
    Msg.PUZZLE_RATING_CHANGE: "Your puzzle rating: {before} → {after} ({delta}), "
                              "streak {streak}.",
    Msg.PUZZLE_UNRATED: "You have met this puzzle before: this time is not rated.",
    Msg.PUZZLE_BUTTON_HINT: "Hint",
    Msg.PUZZLE_BUTTON_HINT_RATED: "Hint (solving it after this counts as a loss)",
    Msg.PUZZLE_BUTTON_REVEAL: "Reveal",
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
                                  "missing {permissions} there (the post needs View Channel, "
                                  "Send Messages, Embed Links and Attach Files). Give me "
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
    Msg.ANALYSIS_BUSY: "The computer is analysing {count} games already. Try again in a few "
                       "minutes.",
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
    Msg.ANALYSIS_MORE: "…and {count} more (pick them below).",
    Msg.ANALYSIS_FOOTER: "{nodes} positions searched per ply; plies with a single legal move "
                         "are not judged.",
    Msg.ANALYSIS_PICK: "Show a mistake on the board",
    Msg.ANALYSIS_MISTAKE_BOARD: "Game #{game_id}, {number} {move} ({judgement}, {player}). "
                                "Better: **{better}**, line: {line}",
    Msg.ANALYSIS_NOT_RUNNING: "The analysis of game #{game_id} is not running any more (the "
                              "bot may have restarted). /analyze game:{game_id} shows it, or "
                              "starts it again.",
    Msg.ANALYSIS_STOPPED: "The analysis of game #{game_id} stopped before it was finished. "
                          "/analyze game:{game_id} starts it again.",
    Msg.EXPORT_NO_ANALYSIS: "Game #{game_id} has no analysis yet, so the file has none: run "
                            "/analyze game:{game_id}, then export it again.",
    Msg.WORD_INACCURACY: "inaccuracy",
    Msg.WORD_MISTAKE: "mistake",
    Msg.WORD_BLUNDER: "blunder",
    Msg.BUTTON_ANALYZE: "Analyze",
})

FSI = "\u2068"
"""FIRST STRONG ISOLATE: starts a run whose direction its first strong character decides."""
LRI = "\u2066"
"""LEFT-TO-RIGHT ISOLATE: starts a run shown left to right (notation inside Arabic)."""
PDI = "\u2069"
"""POP DIRECTIONAL ISOLATE: ends the run an isolate started."""

_LOCALES = Path(__file__).resolve().parent / "locales"


def language_of(locale: str | None) -> str:
    """The catalog language for a language code or a Discord locale ("tr", "en-US",
    "fr"): the part before `-`, lower case; English for None or a language without a
    catalog."""
    return (from_locale(locale) or SOURCE).value


_OPENERS = frozenset("\u2066\u2067\u2068")
"""LRI, RLI, FSI: the characters that open an isolate (closed by PDI)."""


def isolate(value: str) -> str:
    """`value` between FSI and PDI (Unicode Bidirectional Algorithm, UAX #9, section 2.7):
    inside a right-to-left sentence a mention, a move (`d3-d4`, `22x13`), a square or a
    rating keeps its own direction and does not reorder the words around it. Isolates
    inside `value` (a display name is the user's to write) are balanced first: a stray PDI
    is dropped and an unclosed isolate closed, so the value cannot end this isolate early
    nor leave one open over the rest of the sentence."""
    kept: list[str] = []
    depth = 0
    for char in value:
        if char in _OPENERS:
            depth += 1
        elif char == PDI:
            if depth == 0:
                continue
            depth -= 1
        kept.append(char)
    return f"{FSI}{''.join(kept)}{PDI * depth}{PDI}"


def _read_catalog(domain: str, language: str) -> gettext.GNUTranslations | None:
    """The gettext translations of `domain` in `language`, read from
    `bot/locales/<domain>/<language>.po` with Babel and compiled in memory (untranslated
    and fuzzy entries left out, so they fall back to English); None without a file."""
    path = _LOCALES / domain / f"{language}.po"
    if not path.is_file():
        return None
    with path.open("rb") as source:
        catalog = read_po(source, locale=language, domain=domain)
    compiled = io.BytesIO()
    write_mo(compiled, catalog)
    compiled.seek(0)
    return gettext.GNUTranslations(compiled)


@functools.cache
def translations(domain: str, language: str) -> gettext.NullTranslations:
    """The translations of `domain` ("messages" or "commands") in `language`; English
    (every message as its source text) when there is no catalog for it. Read once."""
    if language == SOURCE.value:
        return gettext.NullTranslations()
    return _read_catalog(domain, language) or gettext.NullTranslations()


def template(key: Msg, locale: str | None = None, count: int = 1) -> str:
    """The template of `key` in `locale` (a language code or a Discord locale such as
    "en-US" or "tr"), for `count` if it is a plural message (the language's plural rule,
    from the catalog's `Plural-Forms`); English when the catalog lacks it."""
    source = ENGLISH[key]
    catalog = translations("messages", language_of(locale))
    if isinstance(source, Plural):
        return catalog.npgettext(key.value, source.one, source.other, count)
    return catalog.pgettext(key.value, source)


def text(key: Msg, locale: str | None = None, /, **params: object) -> str:
    """The message `key` in `locale` with `params` filled in. A plural message picks its
    form by the parameter its `Plural.count` names. In a right-to-left language each
    parameter is isolated (`isolate`). Raises `KeyError` naming a field the template needs
    and `params` lacks (a programming error)."""
    source = ENGLISH[key]
    count = 1
    if isinstance(source, Plural):
        count = int(str(params[source.count]))
    language = language_of(locale)
    if Language.of(language).direction is Direction.RIGHT_TO_LEFT:
        params = {name: isolate(str(value)) for name, value in params.items()}
    return template(key, language, count).format(**params)


VARIANT_NAMES: Mapping[str, Msg] = MappingProxyType({
    "turkish": Msg.VARIANT_TURKISH,
    "arab": Msg.VARIANT_ARAB,
    "moroccan": Msg.VARIANT_MOROCCAN,
    "italian": Msg.VARIANT_ITALIAN,
})
"""The message of each variant's name, by variant key (`engine.VARIANTS`)."""


def variant_name(key: str, locale: str | None = None) -> str:
    """The name of the variant `key` ("turkish") in `locale`: "Türk daması", "Dama turca".
    Raises `KeyError` for an unknown key."""
    return text(VARIANT_NAMES[key], locale)


def fields(key: Msg, locale: str | None = None, count: int = 1) -> set[str]:
    """The names of the fields the template of `key` uses (for `count`, in `locale`)."""
    return template_fields(template(key, locale, count))


def template_fields(template_text: str) -> set[str]:
    """The names of the `str.format` fields in `template_text`."""
    return {name for _, name, _, _ in string.Formatter().parse(template_text) if name}


COMMAND_TEXT: Mapping[str, str] = MappingProxyType({
    "challenge": "Challenge a player to a game of draughts in this channel",
    "challenge.opponent": "The player you challenge",
    "challenge.variant": "Which draughts to play",
    "challenge.rated": "Whether the game counts for ratings (default: the server's setting)",
    "challenge.color": "The colour you play (default: random)",
    "challenge.move_time": "Time for each move (default: the server's setting)",
    "challenge.clock": "A clock for each player: minutes + seconds added per move "
                       "(instead of a time per move)",
    "play": "Play a game against the computer in this channel (unrated)",
    "play.variant": "Which draughts to play",
    "play.level": "How strong the computer plays: 1 (easiest) to 5 (strongest); default 3",
    "play.color": "The colour you play (default: random)",
    "play.move_time": "Time for each of your moves; when it runs out the computer moves for you",
    "play.clock": "A clock for you and the computer: minutes + seconds added per move "
                  "(instead of a time per move)",
    "move": "Play a move in this channel's game",
    "move.move": "Your move, e.g. d3-d4 or a capture d3xd5 (pick from the list)",
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
    "settings": "Show or change your preferences: board side, Italian notation, language",
    "settings.board_side": "The side your boards are drawn from (auto: the side you play)",
    "settings.notation": "How Italian moves are written to you",
    "settings.language": "The language I answer you in (automatic: your Discord's language)",
    "server-settings": "Show or change this server's settings: limits on pending challenges, "
                       "language",
    "server-settings.per_challenger": "Most pending challenges from one player",
    "server-settings.per_opponent": "Most pending challenges to one player",
    "server-settings.language": "The language of channel posts and of players whose Discord is "
                                "in English",
    "choice.auto": "Auto (the side you play)",
    "choice.numeric": "Numeric (22-18)",
    "choice.algebraic": "Algebraic (d3-c4)",
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
    # puzzles
    "puzzle": "Get a puzzle: find the winning shot (only you see it)",
    "puzzle.variant": "Which draughts (default: any)",
    "solve": "Answer your puzzle with a move",
    "solve.move": "Your move, e.g. c3-d4 or a capture c3xe5 (pick from the list)",
    "puzzle-daily": "Post a daily puzzle in a channel (server managers)",
    "puzzle-daily.channel": "Where to post it",
    "puzzle-daily.variant": "Which draughts (default: a different one each day)",
    "puzzle-daily-stop": "Stop this server's daily puzzle (server managers)",
})
"""Names shown in Discord's command picker: command and option descriptions (keys
`command` and `command.option`) and choice names (`choice.<value>`)."""


def command_text(key: str) -> str:
    """The English description or choice name `key` of `COMMAND_TEXT`."""
    return COMMAND_TEXT[key]
