"""The English texts of tournaments (`ENGLISH_TOURNAMENTS`), part of `ENGLISH`: the
`/tournament` answers, the sign-up post and the posts in the tournament's thread
(`bot/ui/tournaments.py` and the modules beside it build them). Terms: docs/GLOSSARY.md,
"Tournaments"."""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from bot.messages.ids import Msg
from bot.messages.plural import Plural

ENGLISH_TOURNAMENTS: Mapping[Msg, str | Plural] = MappingProxyType({
    Msg.TOURNAMENT_WHICH: "Which tournament? Give its number (tournament:), as "
                          "/tournament list shows it.",
    Msg.TOURNAMENT_DIRECT_MESSAGES: "Tournaments are run in a server's channels, not in "
                                    "direct messages.",
    Msg.TOURNAMENT_NO_THREADS: "I cannot open threads in {channel}: give me the Create "
                               "Public Threads and Send Messages in Threads permissions "
                               "there, then try again.",
    Msg.TOURNAMENT_NO_POST_PERMISSIONS: "I cannot run a tournament in {channel}: I am missing "
                                        "{permissions} there (its posts need all of these: "
                                        "{needed}). Give me those permissions there, then "
                                        "try again.",
    Msg.TOURNAMENT_TEXT_CHANNEL: "Create a tournament in a server's text channel, not in a "
                                 "thread: its games and news get threads of their own "
                                 "there.",
    Msg.TOURNAMENT_BUTTON_JOIN: "Join",
    Msg.TOURNAMENT_BUTTON_LEAVE: "Leave",
    Msg.TOURNAMENT_BUTTON_STANDINGS: "Standings",
    Msg.TOURNAMENT_TITLE: "Tournament #{tournament}: {name}",
    Msg.TOURNAMENT_FORMAT_ARENA: "Arena, {duration}",
    Msg.TOURNAMENT_FORMAT_SWISS: Plural("Swiss system, {count} round",
                                        "Swiss system, {count} rounds"),
    Msg.TOURNAMENT_FORMAT_ROUND_ROBIN: "Round robin",
    Msg.TOURNAMENT_FORMAT_DOUBLE_ROUND_ROBIN: "Double round robin (each pair plays twice)",
    Msg.TOURNAMENT_SETTINGS_LINE: "{format} · {variant} · {move_time} · {rated}",
    Msg.TOURNAMENT_PER_MOVE: "{duration} per move",
    Msg.TOURNAMENT_RATED: "rated games",
    Msg.TOURNAMENT_CASUAL: "casual games",
    Msg.TOURNAMENT_ORGANISER: "Organiser: {organiser}",
    Msg.TOURNAMENT_OPEN_TO_ROLE: "Open to members with the role {role}",
    Msg.TOURNAMENT_LIMIT_LINE: "Player limit: {limit}",
    Msg.TOURNAMENT_STARTS_AT: "Starts {time}",
    Msg.TOURNAMENT_STARTS_BY_ORGANISER: "Starts when the organiser starts it",
    Msg.TOURNAMENT_ENDS_AT: "Ends {time}",
    Msg.TOURNAMENT_STATUS_SIGNUP: "Sign-up is open: press Join to play.",
    Msg.TOURNAMENT_STATUS_SIGNUP_ARENA: "Sign-up is open: press Join to play. You can also "
                                        "join while it runs.",
    Msg.TOURNAMENT_STATUS_RUNNING: "Under way: round {round} of {rounds}.",
    Msg.TOURNAMENT_STATUS_UNDER_WAY: "Under way.",
    Msg.TOURNAMENT_STATUS_RUNNING_ARENA: "Under way: press Join to play, Leave to stop.",
    Msg.TOURNAMENT_STATUS_PAUSED: "Paused by the organiser.",
    Msg.TOURNAMENT_STATUS_FINISHED: "Finished.",
    Msg.TOURNAMENT_STATUS_CANCELLED: "Cancelled.",
    Msg.TOURNAMENT_THREAD_LINK: "Pairings, results and standings: {thread}",
    Msg.TOURNAMENT_PLAYERS: "Players: {count}",
    Msg.TOURNAMENT_NO_PLAYERS: "No one has joined yet.",
    Msg.TOURNAMENT_PLAYERS_MORE: Plural("…and {count} more", "…and {count} more"),
    Msg.TOURNAMENT_CREATED: "Tournament #{tournament} is created: its sign-up post is "
                            "{post}. Start it with /tournament start when the players are "
                            "in.",
    Msg.TOURNAMENT_CREATED_TIMED: "Tournament #{tournament} is created: its sign-up post is "
                                  "{post}. It starts by itself {time}; /tournament start "
                                  "starts it sooner.",
    Msg.TOURNAMENT_EVENT_CREATED: "Its Discord event is {event}: pressing Interested there "
                                  "signs a player up too.",
    Msg.TOURNAMENT_EVENT_NO_PERMISSION: "No Discord event was made, as I lack the Create "
                                        "Events permission: give it to my role in Server "
                                        "Settings > Roles to have one with the next "
                                        "tournament.",
    Msg.TOURNAMENT_EVENT_NO_START: "No Discord event was made: an event needs a start time "
                                   "(start_in).",
    Msg.TOURNAMENT_EVENT_FAILED: "No Discord event was made: Discord refused to create it.",
    Msg.TOURNAMENT_EVENT_DESCRIPTION: "{name}, a draughts tournament. Sign up by the Join "
                                      "button of its post, {post}, or by pressing "
                                      "Interested here.",
    Msg.TOURNAMENT_JOINED: "You joined {name}. When you are paired, the pairings mention you "
                           "with your game's own thread.",
    Msg.TOURNAMENT_LEFT: "You left {name}.",
    Msg.TOURNAMENT_LEFT_STARTED: "You left {name}: you are paired no more. Your games so far "
                                 "count, and a game under way is still yours to finish.",
    Msg.TOURNAMENT_STARTED: "{name} has started.",
    Msg.TOURNAMENT_PAUSED: "{name} is paused: the games under way go on, no new games are "
                           "paired until you resume it.",
    Msg.TOURNAMENT_RESUMED: "{name} goes on.",
    Msg.TOURNAMENT_ENDED: "{name} ends: the games under way are played out, then the final "
                          "standings are posted.",
    Msg.TOURNAMENT_ENDED_ARENA: "{name} ends now: its final standings are posted at once; a "
                                "game under way is played out but no longer counts.",
    Msg.TOURNAMENT_CANCELLED: "{name} is cancelled: it had not started.",
    Msg.TOURNAMENT_REMOVED_PLAYER: "{player} was removed from {name}.",
    Msg.TOURNAMENT_THREAD_NAME_GAME: "{name}: round {round}, board {board}",
    Msg.TOURNAMENT_ROUND_PAIRED: "Round {round}: the pairings",
    Msg.TOURNAMENT_ARENA_PAIRED: "New games",
    Msg.TOURNAMENT_PAIRING_LINE: "Board {board}: {white} (White) – {black} (Black): {thread}",
    Msg.TOURNAMENT_BYE_LINE: "{player}: bye",
    Msg.TOURNAMENT_NOT_PAIRED_LINE: "{player}: not paired",
    Msg.TOURNAMENT_ROUND_RESULTS: "Round {round}: the results",
    Msg.TOURNAMENT_RESULT_LINE: "Board {board}: {white} **{result}** {black}",
    Msg.TOURNAMENT_STANDINGS_TITLE: "{name}: standings",
    Msg.TOURNAMENT_STANDINGS_AFTER: "After round {round}",
    Msg.TOURNAMENT_STANDINGS_DURING: "During round {round}: its games count as they end",
    Msg.TOURNAMENT_STANDINGS_EMPTY: "No results yet.",
    Msg.TOURNAMENT_STANDINGS_MORE: Plural("…and {count} more player",
                                          "…and {count} more players"),
    Msg.TOURNAMENT_STANDING_LINE: "**{rank}.** {player}: **{score}** · {tiebreaks}",
    Msg.TOURNAMENT_ARENA_STANDING_LINE: "**{rank}.** {player}: **{score}** · games: {games}",
    Msg.TOURNAMENT_ON_FIRE: "on fire",
    Msg.TIEBREAK_BUCHHOLZ_CUT_1: "Buchholz Cut 1: {value}",
    Msg.TIEBREAK_SONNEBORN_BERGER: "Sonneborn-Berger: {value}",
    Msg.TIEBREAK_DIRECT_ENCOUNTER: "direct encounter: {value}",
    Msg.TIEBREAK_PERFORMANCE: "performance: {value}",
    # the standings picture's headings and notes (bot/ui/tournament_picture.py)
    Msg.TIEBREAK_SHORT_BUCHHOLZ_CUT_1: "Bu-1",
    Msg.TIEBREAK_SHORT_SONNEBORN_BERGER: "SB",
    Msg.TIEBREAK_SHORT_DIRECT_ENCOUNTER: "DE",
    Msg.TIEBREAK_SHORT_PERFORMANCE: "Perf.",
    Msg.TOURNAMENT_PICTURE_TITLE: "{name}: standings after round {round}",
    Msg.TOURNAMENT_PICTURE_TITLE_DURING: "{name}: standings during round {round}",
    Msg.TOURNAMENT_PICTURE_PLAYER: "Player",
    Msg.TOURNAMENT_PICTURE_SCORE: "Points",
    Msg.TOURNAMENT_PICTURE_MORE_PLAYERS: Plural("and {count} more player",
                                                "and {count} more players"),
    Msg.TOURNAMENT_PICTURE_EARLIER_ROUNDS: Plural("the first round is not shown",
                                                  "the first {count} rounds are not shown"),
    Msg.TOURNAMENT_PICTURE_EARLIER_GAMES: Plural("each player's first game is not shown",
                                                 "each player's first {count} games are not "
                                                 "shown"),
    Msg.TOURNAMENT_FINAL: "{name} is over. Congratulations to the winners!",
    Msg.TOURNAMENT_FINAL_NO_GAMES: "{name} is over, without a game played.",
    Msg.TOURNAMENT_PODIUM_LINE: Plural("{medal} {player}: {count} point",
                                       "{medal} {player}: {count} points"),
    Msg.TOURNAMENT_POST_STARTED: "The tournament has started. The players, by pairing "
                                 "number:",
    Msg.TOURNAMENT_ENTRANT_LINE: "{number}. {player} ({rating})",
    Msg.TOURNAMENT_POST_PAUSED: "The organiser paused the tournament: the games under way go "
                                "on, no new games are paired for now.",
    Msg.TOURNAMENT_POST_RESUMED: "The tournament goes on.",
    Msg.TOURNAMENT_POST_ENDED: "The organiser ended the tournament early: the games under way "
                               "are played out, then the final standings are posted.",
    Msg.TOURNAMENT_POST_ENDED_ARENA: "The organiser ended the arena early: the final "
                                     "standings follow; a game under way is played out but "
                                     "no longer counts.",
    Msg.TOURNAMENT_POST_CANCELLED: "The tournament was cancelled.",
    Msg.TOURNAMENT_POST_CANCELLED_FEW: "The tournament was cancelled: fewer than two players "
                                       "had joined at its start time.",
    Msg.TOURNAMENT_POST_REMOVED: "{player} was removed from the tournament by the organiser.",
    Msg.TOURNAMENT_LIST_TITLE: "Tournaments in this server",
    Msg.TOURNAMENT_LIST_EMPTY: "No tournament is open or under way here. Members with Manage "
                               "Server or the organiser role start one with /tournament "
                               "create.",
    Msg.TOURNAMENT_LIST_LINE: "**#{tournament}** {name} · {format} · {status} · {players}",
    Msg.TOURNAMENT_HISTORY_TITLE: "Finished tournaments",
    Msg.TOURNAMENT_HISTORY_EMPTY: "No tournament has finished in this server yet.",
    Msg.TOURNAMENT_HISTORY_LINE: "**#{tournament}** {name} · {format} · {finished} · won by "
                                 "{winner}",
    Msg.TOURNAMENT_EXPORT: "Tournament #{tournament} in FIDE's TRF format, which pairing "
                           "and rating programs read.",
    Msg.SERVER_SETTINGS_LINE_ORGANISER_ROLE: "Organiser role (runs tournaments, besides "
                                             "Manage Server): **{value}**",
    Msg.ORGANISER_ROLE_NONE: "none",
})
"""The tournaments' English texts, merged into `bot.messages.ENGLISH`."""
