"""/settings and /server-settings (`bot/cogs/settings.py`) through discord.py's command
tree, requests captured by `FakeDiscord`: values shown, changed, checked on the server
side, kept across a restart; and what they change (boards, notation, challenge limits)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import discord
import pytest
from discord import app_commands
from discord.app_commands import Command
from discord.ext import commands

import bot.cogs.settings as settings_cog
import bot.services.settings as settings_service
from bot.cogs.settings import PreferencesCog
from bot.language import AUTO, Language
from bot.messages import COMMAND_TEXT, Msg
from bot.services.settings import (
    MAX_CHALLENGE_LIMIT,
    PREFERENCES,
    BoardSide,
    ChallengeLimits,
    GuildSettings,
    Kind,
    PlayerSettings,
    Preference,
    Setter,
    WebVisibility,
    preferences_of,
)
from bot.sync import command_schema
from tests.support.discord_harness import (
    Harness,
    OpenBot,
    challenge_and_accept,
    run,
    settings_for,
    slash,
)
from tests.support.fake_discord import GUILD_ID, MEMBER, Call, option, user_option
from tests.support.services import ALICE, BOB, CAROL

MANAGE_GUILD = 0x20
"""Discord's MANAGE_GUILD permission bit (API v10, "Permissions")."""
ADMIN = str(int(MEMBER) | MANAGE_GUILD)


async def test_settings_shown_changed_and_kept_across_a_restart(
    tmp_path: Path, open_bot: OpenBot
) -> None:
    settings = settings_for(tmp_path / "db.sqlite3")
    h = await open_bot(settings)
    [shown] = await run(h, slash(h, "settings"))
    assert shown.ephemeral
    body = shown.embeds[0]["description"]
    assert "Board side: **the side you play**" in body
    assert "Notation in the variants with numbered squares: **numeric (22-18)**" in body
    [saved] = await run(h, slash(h, "settings", [option("board_side", "black"),
                                                 option("notation", "algebraic")]))
    assert saved.ephemeral and "Saved." in saved.embeds[0]["description"]
    assert "**Black**" in saved.embeds[0]["description"]
    # Another player's settings are their own.
    [bobs] = await run(h, slash(h, "settings", user=BOB))
    assert "**the side you play**" in bobs.embeds[0]["description"]
    await h.bot.close()
    again = await open_bot(settings)
    [kept] = await run(again, slash(again, "settings", guild_id=None, channel=9))
    body = kept.embeds[0]["description"]
    assert "**Black**" in body and "**algebraic (d3-c4)**" in body and "Saved." not in body


async def test_turn_notifications_are_off_until_chosen_and_kept(
    tmp_path: Path, open_bot: OpenBot
) -> None:
    settings = settings_for(tmp_path / "db.sqlite3")
    h = await open_bot(settings)
    [shown] = await run(h, slash(h, "settings"))
    line = "Told when it is your turn (move times of an hour or more): "
    assert f"{line}**off**" in shown.embeds[0]["description"]
    [saved] = await run(h, slash(h, "settings", [option("notify", "dm")]))
    assert f"{line}**by direct message**" in saved.embeds[0]["description"]
    await h.bot.close()
    again = await open_bot(settings)
    [kept] = await run(again, slash(again, "settings", [option("notify", "channel")],
                                    guild_id=None, channel=9))
    assert f"{line}**in the game's channel**" in kept.embeds[0]["description"]
    assert (await again.bot.services.preferences.player(ALICE)).notify.value == "channel"


async def test_choosing_to_be_notified_again_clears_closed_direct_messages(
        harness: Harness) -> None:
    h = harness  # Alice was told her DMs were closed: she opens them and chooses again
    repository = h.bot.services.storage.notifications
    await repository.close_dms(ALICE)
    await run(h, slash(h, "settings", [option("notify", "channel")]))
    [user] = (await repository.users([ALICE])).values()
    assert user.dms_closed_at is None


async def test_server_settings_for_managers_only(tmp_path: Path, open_bot: OpenBot) -> None:
    settings = settings_for(tmp_path / "db.sqlite3", challenges_per_challenger=2)
    h = await open_bot(settings)
    # Discord shows the command only to members with Manage Server...
    [schema] = [c for c in await command_schema(h.bot.tree) if c["name"] == "server-settings"]
    assert int(schema["default_member_permissions"]) == MANAGE_GUILD
    # ... and the bot checks it again: a client can send the command anyway.
    [refused] = await run(h, slash(h, "server-settings", [option("per_challenger", 9, 4)]))
    assert refused.ephemeral and "Manage Server" in refused.content
    [shown] = await run(h, slash(h, "server-settings", permissions=ADMIN))
    body = shown.embeds[0]["description"]
    assert "from one player: **2** (default 2)" in body
    assert "to one player: **5** (default 5)" in body
    [saved] = await run(h, slash(h, "server-settings", [option("per_challenger", 4, 4),
                                                        option("per_opponent", 1, 4)],
                                 permissions=ADMIN))
    assert "Saved." in saved.embeds[0]["description"]
    # Out of the registered range: refused at the boundary, nothing stored.
    [bad] = await run(h, slash(h, "server-settings", [option("per_opponent", 26, 4)],
                               permissions=ADMIN))
    assert bad.ephemeral
    await h.bot.close()
    again = await open_bot(settings)
    [kept] = await run(again, slash(again, "server-settings", permissions=ADMIN))
    body = kept.embeds[0]["description"]
    assert "from one player: **4** (default 2)" in body
    assert "to one player: **1** (default 5)" in body


async def test_choosing_the_servers_language_is_answered_wholly_in_the_admins(
    harness: Harness,
) -> None:
    # The answer is private: its first line and its embed in the admin's language
    # (docs/LANGUAGES.md), the first line naming the server's new one.
    h = harness
    [turkish] = await run(h, slash(h, "server-settings", [option("language", "ar")],
                                   permissions=ADMIN, locale="tr"))
    assert turkish.content.startswith("Bu sunucunun dili artık **العربية**:"), turkish.content
    assert turkish.embeds[0]["title"] == "Bu sunucunun ayarları"
    [french] = await run(h, slash(h, "server-settings", [option("language", "it")],
                                  permissions=ADMIN, locale="fr"))
    assert french.content.startswith("La langue de ce serveur est désormais **Italiano** :")
    assert french.embeds[0]["title"] == "Paramètres de ce serveur"


async def test_server_settings_choose_how_the_server_s_pages_show_on_the_web(
        tmp_path: Path, open_bot: OpenBot) -> None:
    h = await open_bot(settings_for(tmp_path / "db.sqlite3"))
    [schema] = [c for c in await command_schema(h.bot.tree) if c["name"] == "server-settings"]
    [web] = [o for o in schema["options"] if o["name"] == "web"]
    assert [choice["value"] for choice in web["choices"]] == ["public", "link", "off"]
    [shown] = await run(h, slash(h, "server-settings", permissions=ADMIN))
    assert "Game pages on the web: **by link only**" in shown.embeds[0]["description"]
    [saved] = await run(h, slash(h, "server-settings", [option("web", "public")],
                                 permissions=ADMIN))
    assert ("Game pages on the web: **public (by number and by link)**"
            in saved.embeds[0]["description"])
    assert (await h.bot.services.preferences.guild(GUILD_ID)).web is WebVisibility.PUBLIC


async def test_server_settings_outside_a_server_is_refused(harness: Harness) -> None:
    h = harness
    [answer] = await run(h, slash(h, "server-settings", guild_id=None, channel=9))
    assert answer.ephemeral


async def test_algebraic_preference_shows_italian_moves_in_letters(harness: Harness) -> None:
    h = harness
    await run(h, slash(h, "settings", [option("notation", "algebraic")], user=BOB))
    await challenge_and_accept(h, "italian")
    # Alice moves; Bob must answer, so the board is written for Bob: algebraic.
    moved = (await run(h, slash(h, "move", [option("move", "22-18")])))[0]
    assert "played **d3-c4**" in moved.content
    fields = {f["name"]: f["value"] for f in moved.embeds[0]["fields"]}
    assert fields["Last move"] == "d3-c4"
    # Alice's /board is hers: numeric, the default.
    board = (await run(h, slash(h, "board", user=ALICE)))[0]
    fields = {f["name"]: f["value"] for f in board.embeds[0]["fields"]}
    assert fields["Last move"] == "22-18"


DAVE, ERIN = 1004, 1005


async def challenge(h: Harness, challenger: int, opponent: int, channel: int = 600) -> Call:
    """`challenger` sends /challenge to `opponent`; the bot's first answer."""
    chosen, resolved = user_option("opponent", opponent)
    calls = await run(h, slash(h, "challenge", [chosen, option("variant", "turkish")],
                               user=challenger, channel=channel, resolved=resolved))
    return calls[0]


async def test_pending_challenges_are_limited_and_a_duplicate_links_the_first(
    tmp_path: Path, open_bot: OpenBot
) -> None:
    h = await open_bot(settings_for(tmp_path / "db.sqlite3", challenges_per_challenger=2,
                                    challenges_per_opponent=2))
    first = await challenge(h, ALICE, BOB)
    assert not first.ephemeral and f"<@{BOB}>" in first.content
    [pending] = [m for m in h.discord.messages.values() if m["embeds"]
                 and "challenges" in m["embeds"][0]["description"]]
    link = f"https://discord.com/channels/{GUILD_ID}/600/{pending['id']}"
    again = await challenge(h, ALICE, BOB, channel=601)
    assert again.ephemeral and link in again.content and "already challenged" in again.content
    reverse = await challenge(h, BOB, ALICE, channel=602)
    assert reverse.ephemeral and link in reverse.content and "Accept" in reverse.content
    # Per challenger (2 here, from the environment).
    assert not (await challenge(h, ALICE, CAROL, channel=603)).ephemeral
    over = await challenge(h, ALICE, DAVE, channel=604)
    assert over.ephemeral and "from you on this server: 2," in over.content and link in over.content
    # Per opponent: Bob has Alice's; Carol's makes 2; Erin's is one too many.
    assert not (await challenge(h, CAROL, BOB, channel=605)).ephemeral
    crowded = await challenge(h, ERIN, BOB, channel=606)
    assert crowded.ephemeral and f"to <@{BOB}> on this server: 2," in crowded.content
    # Nothing of the refused ones was stored: only three challenges are pending.
    assert len(await h.bot.services.storage.challenges.pending()) == 3
    # The server's admins raise the limit; it applies at once.
    await run(h, slash(h, "server-settings", [option("per_challenger", 3, 4)],
                       permissions=ADMIN))
    assert not (await challenge(h, ALICE, DAVE, channel=604)).ephemeral


async def test_a_limit_of_one_pending_challenge_reads_in_the_singular(
    tmp_path: Path, open_bot: OpenBot
) -> None:
    h = await open_bot(settings_for(tmp_path / "db.sqlite3", challenges_per_challenger=1,
                                    challenges_per_opponent=1))
    assert not (await challenge(h, ALICE, BOB)).ephemeral
    for refused in (await challenge(h, ALICE, CAROL, channel=601),
                    await challenge(h, DAVE, BOB, channel=602)):
        assert refused.ephemeral and "the most it allows (1)" in refused.content
        assert "1 pending challenges" not in refused.content, refused.content


async def test_a_refused_move_is_explained_in_the_notation_typed(harness: Harness) -> None:
    # The choice documented in docs/PLAYING.md ("The board"): a refusal answers the text the
    # player typed, so it quotes squares and moves in the notation they typed, whatever
    # their preference. Alice reads algebraic, Bob numbers (the default). Federation
    # numbers (docs/RULES.md): d3 = 22, c4 = 18, e4 = 19, a4 = 17.
    h = harness
    await run(h, slash(h, "settings", [option("notation", "algebraic")], user=ALICE))
    await challenge_and_accept(h, "italian")
    [typed_numbers] = await run(h, slash(h, "move", [option("move", "22-17")], user=ALICE))
    assert typed_numbers.ephemeral
    assert "22-18, 22-19" in typed_numbers.content, typed_numbers.content
    [typed_letters] = await run(h, slash(h, "move", [option("move", "d3-a4")], user=ALICE))
    assert "d3-c4, d3-e4" in typed_letters.content, typed_letters.content
    # What the bot writes itself follows the reader's preference: Alice's move, typed in
    # numbers, is shown in numbers on the board written for Bob (who must answer), and in
    # letters on Alice's /board.
    moved = (await run(h, slash(h, "move", [option("move", "22-18")], user=ALICE)))[0]
    assert "played **22-18**" in moved.content
    board = (await run(h, slash(h, "board", user=ALICE)))[0]
    fields = {f["name"]: f["value"] for f in board.embeds[0]["fields"]}
    assert fields["Last move"] == "d3-c4"


@pytest.mark.parametrize(("who", "command"), [(Setter.PLAYER, PreferencesCog.player_settings),
                                              (Setter.SERVER, PreferencesCog.server_settings)])
def test_the_options_follow_the_declarations(who: Setter,
                                            command: Command[Any, Any, Any]) -> None:
    declared = preferences_of(who)
    assert [option.name for option in command.parameters] == [p.name for p in declared]
    for preference, registered in zip(declared, command.parameters, strict=True):
        assert not registered.required
        assert registered.description == COMMAND_TEXT[f"{command.name}.{preference.name}"]
        if preference.kind is Kind.LIMIT:
            assert (registered.min_value, registered.max_value) == (1, MAX_CHALLENGE_LIMIT)
        elif preference.kind is Kind.ROLE:
            assert registered.type is discord.AppCommandOptionType.role
            assert not registered.choices
        else:
            values = [choice.value for choice in registered.choices]
            expected = (list(preference.choices()) if preference.kind is Kind.CHOICE
                        else [language.value for language in Language] + [AUTO])
            assert values == expected


@dataclass(frozen=True)
class WithPieces(PlayerSettings):
    """The player's values with one more preference, as its new field would give them."""

    pieces: BoardSide = BoardSide.WHITE


def test_a_new_declared_preference_appears_in_the_options_and_the_embed(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    pieces = Preference("pieces", Kind.CHOICE, Setter.PLAYER, "pieces",
                        player_line=Msg.SETTINGS_LINE_BOARD_SIDE, values=BoardSide,
                        words={BoardSide.AUTO: Msg.SIDE_AUTO, BoardSide.WHITE: Msg.COLOR_WHITE,
                               BoardSide.BLACK: Msg.COLOR_BLACK})
    monkeypatch.setattr(settings_service, "PREFERENCES", (*PREFERENCES, pieces))
    # Its description would be one more entry of COMMAND_TEXT ("settings.pieces").
    monkeypatch.setattr(settings_cog, "t", lambda key: COMMAND_TEXT.get(key, key))

    class Preferences(commands.Cog):
        @app_commands.command(name="settings", description="settings")
        @settings_cog.preference_options(Setter.PLAYER)
        async def player_settings(self, interaction: discord.Interaction[Any], /,
                                  **options: str | int | None) -> None: ...

    registered = Preferences.player_settings.parameters
    assert registered[-1].name == "pieces" and len(registered) == len(
        preferences_of(Setter.PLAYER))
    assert [choice.value for choice in registered[-1].choices] == ["auto", "white", "black"]
    # Beside the board side (the side you play), the new line shows White, before the hint.
    lines = (settings_cog.settings_embed(WithPieces(), "en").description or "").splitlines()
    assert lines[0] == "Board side: **the side you play**"
    assert lines[-2:] == ["Board side: **White**", "Change them with /settings."]
    assert len(lines) == len(registered) + 1


def test_the_server_embed_shows_each_default_beside_the_environments() -> None:
    shown = settings_cog.server_settings_embed(
        GuildSettings(ChallengeLimits(1, 9), language="tr"),
        GuildSettings(ChallengeLimits(3, 5)), "en", saved=True, channel_language="tr")
    assert (shown.description or "").splitlines() == [
        "Saved.",
        "Most pending challenges from one player: **1** (default 3)",
        "Most pending challenges to one player: **9** (default 5)",
        "Language of the channel posts: **Türkçe** (change it with /server-settings "
        "language:)",
        "Organiser role (runs tournaments, besides Manage Server): **none**",
        "Game pages on the web: **by link only**",
        "Change them with /server-settings.",
    ]


ORGANISERS = 9_100
"""A role id of the test's server."""


def _role(role_id: int, name: str) -> dict[str, Any]:
    return {"id": str(role_id), "name": name, "color": 0, "hoist": False, "position": 1,
            "permissions": "0", "managed": False, "mentionable": False, "flags": 0}


async def test_the_organiser_role_is_chosen_kept_and_removed_with_everyone(
    tmp_path: Path, open_bot: OpenBot
) -> None:
    settings = settings_for(tmp_path / "db.sqlite3")
    h = await open_bot(settings)
    [shown] = await run(h, slash(h, "server-settings", permissions=ADMIN))
    assert "Organiser role (runs tournaments, besides Manage Server): **none**" in \
        shown.embeds[0]["description"]
    chosen = {"roles": {str(ORGANISERS): _role(ORGANISERS, "organisers")}}
    [saved] = await run(h, slash(h, "server-settings",
                                 [option("organiser_role", str(ORGANISERS), 8)],
                                 permissions=ADMIN, resolved=chosen))
    assert f"Manage Server): **<@&{ORGANISERS}>**" in saved.embeds[0]["description"]
    await h.bot.close()
    again = await open_bot(settings)
    assert (await again.bot.services.preferences.guild(GUILD_ID)).organiser_role == ORGANISERS
    # The server's @everyone role (its id is the server's) removes the organiser role.
    everyone = {"roles": {str(GUILD_ID): _role(GUILD_ID, "@everyone")}}
    [removed] = await run(again, slash(again, "server-settings",
                                       [option("organiser_role", str(GUILD_ID), 8)],
                                       permissions=ADMIN, resolved=everyone))
    assert "Manage Server): **none**" in removed.embeds[0]["description"]
    assert (await again.bot.services.preferences.guild(GUILD_ID)).organiser_role is None
