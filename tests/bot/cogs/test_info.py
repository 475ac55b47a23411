"""The information commands (`bot/cogs/info.py`: /rating, /leaderboard, /history, /games,
/export, /rules, /help) through discord.py's command tree, requests captured by `FakeDiscord`."""

from __future__ import annotations

import io
import re
from datetime import timedelta
from pathlib import Path
from typing import Any, cast

import discord
from PIL import Image

import engine
from bot.language import Language
from bot.messages import ENGLISH, Msg, text, variant_name
from bot.ratings import Glicko2Rating
from bot.ratings.estimate import games_to_deviation
from bot.ui.present import Perspective
from bot.ui.replay import replay_gif
from engine import Color
from storage import Eligibility, NewGame, Seat
from tests.support.discord_harness import (
    PNG,
    Harness,
    OpenBot,
    challenge_and_accept,
    play_plies,
    press,
    resign,
    response_message_id,
    run,
    settings_for,
    slash,
)
from tests.support.fake_discord import GUILD_ID, option, user_option
from tests.support.services import ALICE, BOB, CAROL, CHANNEL

OTHER_GUILD, OTHER_CHANNEL = 777, 778


async def test_information_commands(harness: Harness) -> None:
    h = harness
    await challenge_and_accept(h)
    game_id = h.bot.services.games.current(CHANNEL).game_id
    await play_plies(h, 4)  # a rated result counts after two moves by each side
    await resign(h, user=BOB)
    [board] = await run(h, slash(h, "leaderboard", [option("variant", "turkish")]))
    description = board.embeds[0]["description"]
    assert description.index(f"<@{ALICE}>") < description.index(f"<@{BOB}>")
    assert "Your place: **1** of 2" in description
    [rating] = await run(h, slash(h, "rating", guild_id=None, channel=9))
    assert "Turkish draughts" in rating.embeds[0]["description"]
    [history] = await run(h, slash(h, "history", user=BOB, guild_id=None, channel=9))
    assert f"#{game_id}" in history.embeds[0]["description"]
    [export] = await run(h, slash(h, "export", [option("game", game_id, 4)]))
    name, data = export.files[0]
    assert name.endswith(".pdn") and b'[Result "1-0"]' in data
    [rules] = await run(h, slash(h, "rules", [option("variant", "italian")]))
    assert rules.files[0][1].startswith(PNG) and "ladder" in rules.embeds[0]["description"]
    [guild_only] = await run(h, slash(h, "board", guild_id=None, channel=9))
    assert guild_only.ephemeral


COMMAND_NAME = re.compile(r"/([^\W\d_][\w-]*)")
"""A slash command named inside a text: `/puzzle-daily-stop` is one name, not `/puzzle`."""


async def test_help_names_every_registered_command_in_every_language(harness: Harness) -> None:
    h = harness
    [sync] = [c for c in h.discord.calls if c.method == "PUT"]
    assert {"challenge", "puzzle", "server-settings"} <= {c["name"] for c in sync.payload}
    for language in Language:
        # Each command as the language's client shows it (bot.messages.mentions).
        registered = {c["name"]: (c.get("name_localizations") or {}).get(language.value,
                                                                          c["name"])
                      for c in sync.payload}
        await run(h, slash(h, "settings", [option("language", language.value)]))
        [helped] = await run(h, slash(h, "help"))
        named = set(COMMAND_NAME.findall(helped.embeds[0]["description"]))
        # /help need not name itself: whoever reads it has found it.
        shown = set(registered.values()) - {registered["help"]}
        assert named == shown, (language, shown - named, named - shown)


async def test_history_says_aborted_once(harness: Harness) -> None:
    h = harness
    await challenge_and_accept(h, rated=False)
    calls = await run(h, slash(h, "abort", []))
    assert any(c.callback_type == 4 and "aborted" in c.content.lower() for c in calls)
    [answer] = await run(h, slash(h, "history", []))
    [line] = answer.embeds[0]["description"].splitlines()
    assert line.lower().count("aborted") == 1, line
    assert f"<@{BOB}>" in line


async def test_export_in_direct_messages_picks_the_callers_game(harness: Harness) -> None:
    h = harness
    dm = 9100

    async def export_in_dm() -> tuple[str, str | None]:
        [answer] = await run(h, slash(h, "export", [], channel=dm, guild_id=None))
        return answer.content, answer.files[0][0] if answer.files else None

    # No game at all: a clear message, no file.
    content, file = await export_in_dm()
    assert file is None and "no game" in content.lower() and "/history" in content
    # Only a finished game: it is the most recent one, and the answer says so.
    await challenge_and_accept(h)
    first = h.bot.services.games.current(600).game_id
    await resign(h, user=ALICE)
    content, file = await export_in_dm()
    assert file == f"dama-turkish-{first}.pdn", (content, file)
    assert f"#{first}" in content and "most recent" in content, content
    # Exactly one game in progress: that one, saying so.
    calls = await run(h, slash(h, "play", [option("variant", "arab"), option("level", 1, 4),
                                           option("color", "white")], channel=601))
    assert any(c.callback_type == 4 and not c.ephemeral for c in calls)
    second = h.bot.services.games.current(601).game_id
    content, file = await export_in_dm()
    assert file == f"dama-arab-{second}.pdn", (content, file)
    assert f"#{second}" in content and "in progress" in content, content
    # Two games in progress: neither is guessed; the most recent (finished) game is
    # exported, saying which, and how to export a game in progress.
    await challenge_and_accept(h)
    third = h.bot.services.games.current(600).game_id
    content, file = await export_in_dm()
    assert file == f"dama-turkish-{first}.pdn", (content, file)
    assert "most recent" in content and f"#{second}" in content and f"#{third}" in content


async def test_history_shows_the_catalog_reason(harness: Harness) -> None:
    h = harness
    await challenge_and_accept(h)
    await resign(h, user=BOB)
    [answer] = await run(h, slash(h, "history", user=ALICE))
    line = answer.embeds[0]["description"]
    assert ENGLISH[Msg.SHORT_RESIGNATION] in line
    assert "_" not in line


async def test_games_stay_private_to_their_guild_and_their_players(harness: Harness) -> None:
    """Privacy between servers (docs/ARCHITECTURE.md) through the Discord layer."""
    h = harness
    await challenge_and_accept(h)
    game_id = h.bot.services.games.current(CHANNEL).game_id
    await resign(h, user=BOB)
    elsewhere: dict[str, Any] = {"guild_id": OTHER_GUILD, "channel": OTHER_CHANNEL}
    # Another server cannot export the game: the answer is the one for a missing game.
    [hidden] = await run(h, slash(h, "export", [option("game", game_id, 4)],
                                  user=CAROL, **elsewhere))
    [missing] = await run(h, slash(h, "export", [option("game", game_id + 50, 4)],
                                   user=CAROL, **elsewhere))
    assert hidden.ephemeral and not hidden.files
    assert hidden.content.replace(str(game_id), "N") == missing.content.replace(
        str(game_id + 50), "N")
    # Nor list it in a player's history.
    target, resolved = user_option("user", ALICE)
    [history] = await run(h, slash(h, "history", [target], resolved=resolved,
                                   user=CAROL, **elsewhere))
    assert f"#{game_id}" not in str(history.embeds)
    # ... and say so truly: she has finished a game, none of which may be shown here.
    assert history.embeds[0]["description"] == text(Msg.HISTORY_HIDDEN, None,
                                                    user=f"<@{ALICE}>")
    # In the server where it was played, anyone may; its players may anywhere, in direct
    # messages too.
    [here] = await run(h, slash(h, "history", [target], resolved=resolved, user=CAROL))
    assert f"#{game_id}" in here.embeds[0]["description"]
    where: dict[str, Any]
    for user, where in ((CAROL, {}), (BOB, {"guild_id": None, "channel": 9}),
                        (ALICE, elsewhere)):
        [export] = await run(h, slash(h, "export", [option("game", game_id, 4)],
                                      user=user, **where))
        assert export.files and b'[Result "1-0"]' in export.files[0][1]


async def test_italian_export_is_written_in_the_federations_numbers(harness: Harness) -> None:
    # PDN GameType 22 records write Italian squares 1..32 (docs/RULES.md, "Coordinates and
    # notation", numbered row by row from a8 = 1): d3-c4 is 22-18, c6-d5 is 10-14.
    h = harness
    await challenge_and_accept(h, "italian")
    game_id = h.bot.services.games.current(CHANNEL).game_id
    await run(h, slash(h, "move", [option("move", "d3-c4")]))
    await run(h, slash(h, "move", [option("move", "c6-d5")], user=BOB))
    [export] = await run(h, slash(h, "export", [option("game", game_id, 4)]))
    _, data = export.files[0]
    assert b'[GameType "22"]' in data
    assert b"1. 22-18 10-14" in data, data


async def _rated_game(h: Harness, opponent: int, *, loser: int) -> None:
    """Alice (White) against `opponent`, four plies, then `loser` resigns: a rated result."""
    target, resolved = user_option("opponent", opponent)
    [made] = await run(h, slash(h, "challenge", [target, option("variant", "turkish"),
                                                 option("color", "white")],
                                resolved=resolved))
    challenge_id = made.custom_ids[0].split(":")[2]
    await run(h, press(h, response_message_id(h, made), f"dama:accept:{challenge_id}",
                       user=opponent))
    await play_plies(h, 4)
    await resign(h, user=loser)


async def test_the_leaderboard_lists_provisional_players_under_the_ranked_ones(
    tmp_path: Path, open_bot: OpenBot
) -> None:
    rules = Eligibility(min_games=2, max_deviation=500.0)
    h = await open_bot(settings_for(tmp_path / "db.sqlite3", eligibility=rules))
    [empty] = await run(h, slash(h, "leaderboard", [option("variant", "turkish")]))
    assert "Nobody is on this leaderboard yet" in empty.embeds[0]["description"]
    # One rated game: nobody has two yet, and the board is not empty: both provisional,
    # marked `?`, each with what they still need.
    await _rated_game(h, BOB, loser=BOB)
    [board] = await run(h, slash(h, "leaderboard", [option("variant", "turkish")]))
    lines = board.embeds[0]["description"].splitlines()
    assert "Nobody" not in "\n".join(lines)
    assert lines[0] == "Provisional (`?`), not ranked yet:"
    alice = await h.bot.services.storage.ratings.get(ALICE, "turkish")
    assert alice is not None
    assert lines[1].startswith(f"· <@{ALICE}>: {round(alice.rating)}? (1 game; 1 more rated game "
                               "(minimum: 2)")
    assert lines[2].startswith(f"· <@{BOB}>: ")
    assert (f"You are provisional, rating {round(alice.rating)}?; to be ranked: 1 more "
            "rated game (minimum: 2).") in lines[-1]
    # Two games for Alice and Bob: ranked; Carol, with one, provisional under them.
    await _rated_game(h, BOB, loser=BOB)
    await _rated_game(h, CAROL, loser=CAROL)
    [board] = await run(h, slash(h, "leaderboard", [option("variant", "turkish")],
                                 user=CAROL))
    lines = board.embeds[0]["description"].splitlines()
    assert lines[0].startswith(f"**1.** <@{ALICE}>") and lines[1].startswith(f"**2.** <@{BOB}>")
    assert lines[3] == "Provisional (`?`), not ranked yet:"
    assert lines[4].startswith(f"· <@{CAROL}>") and "1 more rated game (minimum: 2)" in lines[4]
    assert lines[-1].startswith("You are provisional")


async def test_each_provisional_player_sees_the_games_their_deviation_needs(
    tmp_path: Path, open_bot: OpenBot
) -> None:
    rules = Eligibility(min_games=1, max_deviation=110.0)
    h = await open_bot(settings_for(tmp_path / "db.sqlite3", eligibility=rules))
    await _rated_game(h, BOB, loser=BOB)
    [board] = await run(h, slash(h, "leaderboard", [option("variant", "turkish")]))
    text = board.embeds[0]["description"]
    bob = await h.bot.services.storage.ratings.get(BOB, "turkish")
    assert bob is not None and bob.deviation > 110
    needed = games_to_deviation(Glicko2Rating(bob.rating, bob.deviation, bob.volatility),
                                110.0)
    assert needed > 1  # one game from 500 leaves a long way to go
    assert (f"· <@{BOB}>: {round(bob.rating)}? (1 game; about {needed} more games to bring the "
            f"deviation {round(bob.deviation)} under 110)") in text
    assert "minimum:" not in text  # the one game needed is played


def _gif_frames(data: bytes) -> int:
    with Image.open(io.BytesIO(data)) as picture:
        assert picture.format == "GIF"
        return int(getattr(picture, "n_frames", 1))


async def test_export_as_gif_replays_the_game_move_by_move(harness: Harness) -> None:
    h = harness
    await challenge_and_accept(h, "italian")
    game_id = h.bot.services.games.current(CHANNEL).game_id
    await play_plies(h, 4)
    await resign(h, user=BOB)
    [gif] = await run(h, slash(h, "export", [option("game", game_id, 4),
                                             option("format", "gif")]))
    [(name, data)] = gif.files
    assert name == f"dama-italian-{game_id}.gif" and _gif_frames(data) == 5
    assert gif.content == f"Game #{game_id} (Italian draughts), move by move."
    # The PDN stays the default.
    [pdn] = await run(h, slash(h, "export", [option("game", game_id, 4)]))
    assert pdn.files[0][0].endswith(".pdn")
    # Without a game number, the game is chosen as for the PDN: here the last one.
    [chosen] = await run(h, slash(h, "export", [option("format", "gif")], channel=9,
                                  guild_id=None))
    assert chosen.files[0][0] == name and "most recent" in chosen.content
    # Another server cannot have it: the answer is the one for a missing game.
    elsewhere: dict[str, Any] = {"guild_id": OTHER_GUILD, "channel": OTHER_CHANNEL}
    [hidden] = await run(h, slash(h, "export", [option("game", game_id, 4),
                                                option("format", "gif")],
                                  user=CAROL, **elsewhere))
    [missing] = await run(h, slash(h, "export", [option("game", game_id + 50, 4),
                                                 option("format", "gif")],
                                   user=CAROL, **elsewhere))
    assert hidden.ephemeral and not hidden.files
    assert hidden.content == text(Msg.UNKNOWN_GAME, "en-US", game_id=game_id)
    assert missing.content == text(Msg.UNKNOWN_GAME, "en-US", game_id=game_id + 50)


async def test_export_as_gif_is_described_in_the_callers_language(harness: Harness) -> None:
    h = harness
    await challenge_and_accept(h)
    game_id = h.bot.services.games.current(CHANNEL).game_id
    await run(h, slash(h, "settings", [option("language", "fr")]))
    [gif] = await run(h, slash(h, "export", [option("game", game_id, 4),
                                             option("format", "gif")]))
    assert gif.content == text(Msg.REPLAY_DONE, "fr", game_id=game_id,
                               variant=variant_name("turkish", "fr"))
    assert "coup par coup" in gif.content


async def test_export_as_gif_is_drawn_from_the_callers_board_side(harness: Harness) -> None:
    h = harness
    await challenge_and_accept(h, "italian")
    game_id = h.bot.services.games.current(CHANNEL).game_id
    await play_plies(h, 2)
    _, played = await h.bot.services.games.game_of(game_id)

    async def exported() -> bytes:
        [gif] = await run(h, slash(h, "export", [option("game", game_id, 4),
                                                 option("format", "gif")]))
        return gif.files[0][1]

    def drawn(side: Color, numeric: bool) -> bytes:
        return replay_gif(played.start, played.moves, played.variant,
                          view=Perspective(side, numeric=numeric))

    # Alice plays White: by default from White's side, Italian in numbers.
    assert await exported() == drawn(Color.WHITE, True)
    await run(h, slash(h, "settings", [option("board_side", "black"),
                                       option("notation", "algebraic")]))
    assert await exported() == drawn(Color.BLACK, False)


async def test_history_of_someone_whose_games_are_hidden_here_does_not_say_they_have_none(
    harness: Harness,
) -> None:
    # Alice finished a game in this server; asked from another server or a direct
    # message, it is private (docs/ARCHITECTURE.md, "Privacy between servers"), and the
    # answer must not claim she has never finished one.
    h = harness
    await challenge_and_accept(h)
    await resign(h, user=BOB)
    alice, resolved = user_option("user", ALICE)
    for guild_id, channel in ((777, 778), (None, 9)):
        [answer] = await run(h, slash(h, "history", [alice], resolved=resolved, user=CAROL,
                                      guild_id=guild_id, channel=channel))
        assert answer.embeds[0]["description"] == text(Msg.HISTORY_HIDDEN, "en-US",
                                                       user=f"<@{ALICE}>")
    [own] = await run(h, slash(h, "history", user=CAROL, guild_id=777, channel=778))
    assert own.embeds[0]["description"] == f"<@{CAROL}> has not finished a game yet."


FAR_GUILD, FAR_CHANNEL = 9_999, 4_444
"""A server this bot process does not know (not in its cache, its games not loaded
here: another shard's)."""
DM_CHANNEL, DM_BOARD = 5_555, 31_337


async def _stored_game(h: Harness, *, white: int, black: int, guild: int | None,
                       channel: int, days: int) -> int:
    """A game written straight to the database, as another bot process would: this
    process's game service never loads it."""
    variant = engine.get_variant("turkish")
    record = await h.bot.services.storage.games.create(NewGame(
        variant=variant.key, channel_id=channel, guild_id=guild, white=Seat.human(white),
        black=Seat.human(black), start_fen=engine.Position.start(variant).to_fen(variant),
        move_seconds=days * 86400, deadline=h.clock() + timedelta(days=days)))
    return record.id


async def test_games_lists_the_callers_games_everywhere_their_turn_first(
    harness: Harness,
) -> None:
    h = harness
    _, board = await challenge_and_accept(h)  # in GUILD_ID: Alice (White) to move
    here = h.bot.services.games.current(CHANNEL).game_id
    far = await _stored_game(h, white=CAROL, black=ALICE, guild=FAR_GUILD,
                             channel=FAR_CHANNEL, days=2)  # Carol to move
    direct = await _stored_game(h, white=ALICE, black=CAROL, guild=None,
                                channel=DM_CHANNEL, days=1)  # Alice to move, soonest
    await h.bot.services.storage.games.set_board_message(direct, DM_BOARD)
    others = await _stored_game(h, white=BOB, black=CAROL, guild=FAR_GUILD,
                                channel=FAR_CHANNEL + 1, days=3)
    _cache_guild(h, GUILD_ID, "Draughts Club")

    [answer] = await run(h, slash(h, "games", guild_id=None, channel=9))
    assert answer.ephemeral  # it names games of other places
    description = answer.embeds[0]["description"]
    lines = description.split("\n\n")
    assert [re.match(r"\[#(\d+)\]", line)[1] for line in lines] == [  # type: ignore[index]
        str(direct), str(here), str(far)]
    assert f"[#{direct}](https://discord.com/channels/@me/{DM_CHANNEL}/{DM_BOARD})" in lines[0]
    assert "in direct messages" in lines[0] and f"<@{CAROL}>" in lines[0]
    assert "**your turn**" in lines[0] and "time runs out <t:" in lines[0]
    assert f"[#{here}](https://discord.com/channels/{GUILD_ID}/{CHANNEL}/{board})" in lines[1]
    # No time per move: the inactivity limit's deadline.
    assert "in Draughts Club" in lines[1] and "time runs out <t:" in lines[1]
    assert f"[#{far}](https://discord.com/channels/{FAR_GUILD}/{FAR_CHANNEL})" in lines[2]
    assert "in a server" in lines[2] and f"waiting for <@{CAROL}>" in lines[2]
    assert f"#{others}" not in description

    # Only the caller's games, wherever asked: Bob's two (his turn against Carol first).
    [bobs] = await run(h, slash(h, "games", user=BOB))
    assert bobs.ephemeral
    assert re.findall(r"\[#(\d+)\]", bobs.embeds[0]["description"]) == [str(others),
                                                                         str(here)]
    [nobody] = await run(h, slash(h, "games", user=4242, guild_id=OTHER_GUILD,
                                  channel=OTHER_CHANNEL))
    assert nobody.embeds[0]["description"] == text(Msg.GAMES_NONE, None)


def _cache_guild(h: Harness, guild_id: int, name: str) -> None:
    """Put a server in the bot's cache, as the gateway's GUILD_CREATE does."""
    data: dict[str, Any] = {"id": str(guild_id), "name": name, "owner_id": str(CAROL),
                            "features": [], "roles": [], "channels": [], "members": [],
                            "member_count": 1, "emojis": [], "stickers": []}
    state = h.bot._connection
    state._add_guild(discord.Guild(data=cast(Any, data), state=state))
