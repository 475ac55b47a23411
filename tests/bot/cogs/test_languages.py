"""Which language each reader gets, through discord.py's command tree and buttons
(requests captured by `FakeDiscord`): a player's choice (`/settings language`), kept
across a restart; the client locale; an English client giving way to the server's choice
(`/server-settings language`); the server's preferred locale; private answers in the
reader's language and game posts in the channel's (docs/ARCHITECTURE.md, Languages)."""

from __future__ import annotations

from pathlib import Path

from tests.support.discord_harness import (
    OpenBot,
    press,
    response_message_id,
    run,
    settings_for,
    slash,
)
from tests.support.fake_discord import MEMBER, option, user_option
from tests.support.services import ALICE, BOB, CAROL

ADMIN = str(int(MEMBER) | 0x20)
"""A member with Manage Server (Discord's MANAGE_GUILD bit, API v10 "Permissions")."""


async def test_a_players_choice_is_used_everywhere_and_kept(
    tmp_path: Path, open_bot: OpenBot
) -> None:
    settings = settings_for(tmp_path / "db.sqlite3")
    h = await open_bot(settings)
    [chosen] = await run(h, slash(h, "settings", [option("language", "ar")]))
    # Answered in the language just chosen; Discord has no Arabic locale: this is the way.
    assert chosen.ephemeral and chosen.content.startswith("من الآن أرد عليك بالعربية.")
    assert "اللغة: **\u2068العربية\u2069**" in chosen.embeds[0]["description"]
    [helped] = await run(h, slash(h, "help", locale="tr"))  # the choice beats the client
    assert helped.embeds[0]["title"] == "لعب الضامة هنا"
    [refused] = await run(h, slash(h, "move", [option("move", "d3-d4")]))
    assert refused.ephemeral and refused.content.startswith("لا توجد مباراة في هذه القناة.")
    await h.bot.close()
    again = await open_bot(settings)
    [kept] = await run(again, slash(again, "rules", [option("variant", "italian")]))
    assert kept.embeds[0]["title"] == "\u2068الضامة الإيطالية\u2069"
    [auto] = await run(again, slash(again, "settings", [option("language", "auto")],
                                    locale="it"))
    assert auto.content.startswith("Di nuovo automatico")
    assert "automatica, ora Italiano" in auto.embeds[0]["description"]
    # Another player is not affected.
    [bobs] = await run(again, slash(again, "help", user=BOB))
    assert bobs.embeds[0]["title"] == "Playing draughts here"


async def test_help_in_english_offers_arabic_in_arabic_script(
    tmp_path: Path, open_bot: OpenBot
) -> None:
    h = await open_bot(settings_for(tmp_path / "db.sqlite3"))
    [helped] = await run(h, slash(h, "help"))
    description = helped.embeds[0]["description"]
    assert "**Language**: **/settings** `language`" in description
    assert "بالعربية: اختر \u2066/settings language: ar\u2069" in description


async def test_english_clients_get_the_servers_language_and_others_their_own(
    tmp_path: Path, open_bot: OpenBot
) -> None:
    h = await open_bot(settings_for(tmp_path / "db.sqlite3"))
    [refused] = await run(h, slash(h, "server-settings", [option("language", "tr")]))
    assert "Manage Server" in refused.content  # only admins choose the server's language
    [set_] = await run(h, slash(h, "server-settings", [option("language", "tr")],
                                permissions=ADMIN))
    assert set_.content.startswith("Bu sunucunun dili artık **Türkçe**")
    move = [option("move", "d3-d4")]
    [english] = await run(h, slash(h, "move", move, user=BOB, locale="en-GB"))
    assert english.content.startswith("Bu kanalda oyun yok.")
    [french] = await run(h, slash(h, "move", move, user=CAROL, locale="fr"))
    assert french.content.startswith("Il n'y a pas de partie dans ce salon.")
    # A French player challenges: the challenge is posted for everyone, in Turkish.
    opponent, resolved = user_option("opponent", BOB)
    [posted] = await run(h, slash(h, "challenge", [opponent, option("variant", "arab"),
                                                   option("color", "white")],
                                  resolved=resolved, locale="fr"))
    assert posted.embeds[0]["title"] == "Meydan okuma: Arap daması"
    assert [c["label"] for row in posted.body["components"] for c in row["components"]] == [
        "Kabul et", "Reddet", "İptal et"]
    challenge = posted.custom_ids[0].split(":")[2]
    message = response_message_id(h, posted)
    update, board = await run(h, press(h, message, f"dama:accept:{challenge}", user=BOB))
    assert "kabul etti. Oyun başlıyor!" in update.embeds[0]["description"]
    assert board.content.startswith(f"<@{ALICE}> (Beyaz) - <@{BOB}> (Siyah): oyun başlıyor.")
    # The French player's own mistake is answered privately in French, with the engine's
    # reason and its parameters (the moves that piece can play, the empty square)...
    [illegal] = await run(h, slash(h, "move", [option("move", "d3-d6")], locale="fr"))
    assert illegal.ephemeral and illegal.content == (
        "**d3-d6** ne peut pas être joué : cette pièce ne peut pas aller là. Elle peut "
        "jouer d3-d4.")
    [english] = await run(h, slash(h, "move", [option("move", "d5-d6")], locale="en-US",
                                   user=ALICE))
    assert english.content == "**d5-d6** oynanamaz: d5 karesinde taşın yok (kare boş)."
    [light] = await run(h, slash(h, "move", [option("move", "d9-d8")], locale="en-US",
                                 user=ALICE))
    assert light.content == ("**d9-d8** bir hamle olarak okunamıyor: d9 bir kare değil; "
                             "kareler a1 ile h8 arasındadır.")
    # ... and their move is announced to the channel in Turkish.
    played, *_edits = await run(h, slash(h, "move", move, locale="fr"))
    assert not played.ephemeral and f"<@{ALICE}> oynadı: **d3-d4**." in played.content
    # Back to automatic: English clients read the server's preferred locale (English).
    await run(h, slash(h, "server-settings", [option("language", "auto")], permissions=ADMIN))
    shown, *_edits = await run(h, slash(h, "board", user=BOB))
    assert f"<@{BOB}> to move (Black)." in shown.content


async def test_the_servers_preferred_locale_without_a_choice(
    tmp_path: Path, open_bot: OpenBot
) -> None:
    h = await open_bot(settings_for(tmp_path / "db.sqlite3"))
    [italian] = await run(h, slash(h, "help", guild_locale="it"))
    assert italian.embeds[0]["title"] == "Giocare a dama qui"
    [french] = await run(h, slash(h, "help", guild_locale="it", locale="fr"))
    assert french.embeds[0]["title"] == "Jouer aux dames ici"
    [german] = await run(h, slash(h, "help", guild_locale="de", locale="de"))
    assert german.embeds[0]["title"] == "Playing draughts here"


async def test_the_servers_choice_survives_a_restart(tmp_path: Path, open_bot: OpenBot) -> None:
    settings = settings_for(tmp_path / "db.sqlite3")
    h = await open_bot(settings)
    await run(h, slash(h, "server-settings", [option("language", "it")], permissions=ADMIN))
    await h.bot.close()
    again = await open_bot(settings)
    [shown] = await run(again, slash(again, "server-settings", permissions=ADMIN))
    assert "**Italiano**" in shown.embeds[0]["description"]
    [refused] = await run(again, slash(again, "board", user=BOB))
    assert refused.content.startswith("In questo canale non c'è nessuna partita.")


async def test_an_illegal_move_explained_in_arabic_with_its_squares_isolated(
    tmp_path: Path, open_bot: OpenBot
) -> None:
    h = await open_bot(settings_for(tmp_path / "db.sqlite3"))
    await run(h, slash(h, "server-settings", [option("language", "ar")], permissions=ADMIN))
    opponent, resolved = user_option("opponent", BOB)
    [posted] = await run(h, slash(h, "challenge", [opponent, option("variant", "arab"),
                                                   option("color", "white")],
                                  resolved=resolved))
    challenge = posted.custom_ids[0].split(":")[2]
    await run(h, press(h, response_message_id(h, posted), f"dama:accept:{challenge}",
                       user=BOB))
    [empty] = await run(h, slash(h, "move", [option("move", "d5-d6")], locale="en-US"))
    assert empty.ephemeral and empty.content == (
        "لا يمكن لعب **\u2068d5-d6\u2069**: ليس لك قطعة على \u2068d5\u2069 (الخانة فارغة).")
    [stuck] = await run(h, slash(h, "move", [option("move", "d2-d3")], locale="en-US"))
    assert stuck.content == (
        "لا يمكن لعب **\u2068d2-d3\u2069**: القطعة التي على \u2068d2\u2069 ليس لها نقلة "
        "ممكنة. جرّب \u2068a3-a4, b3-b4, c3-c4, d3-d4\u2069.")
