"""The "Game page" link buttons (`bot.ui.web_links`), through the real bot and discord.py
against `FakeDiscord`: under a board when the web face is configured, to the game's
signed page, valid by Discord's rules for components (the stand-in's checks,
`standin.validation`); none when the server turned the pages off or none are set up."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from bot.services.settings import WebVisibility
from bot.services.web_access import LinkSigner, PageKind, WebSettings
from standin.validation import check_components
from tests.support.discord_harness import (
    OpenBot,
    challenge_and_accept,
    new_calls,
    press,
    resign,
    response_message_id,
    run,
    settings_for,
    slash,
)
from tests.support.fake_discord import GUILD_ID as GUILD
from tests.support.fake_discord import option, user_option
from tests.support.services import ALICE, BOB, CHANNEL
from tests.support.web import SECRET

URL = "https://dama.example.org"
WEB = WebSettings(address=None, url=URL, secret=SECRET)


def _links(components: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [item for row in components for item in row["components"] if item.get("style") == 5]


async def test_a_board_links_to_its_game_s_signed_page(open_bot: OpenBot,
                                                       tmp_path: Path) -> None:
    h = await open_bot(settings_for(tmp_path / "db.sqlite3", web=WEB))
    before = len(h.discord.calls)
    await challenge_and_accept(h)
    board = new_calls(h, before)[-1]
    components = board.body["components"]
    game_id = int(board.custom_ids[0].split(":")[2])
    token = LinkSigner(SECRET).token(PageKind.GAME, game_id)
    assert _links(components) == [{"type": 2, "style": 5, "disabled": False,
                                   "label": "Game page",
                                   "url": f"{URL}/games/{game_id}/{token}"}]
    assert check_components(components, components_v2=False) == {}


async def test_no_link_when_the_server_turned_the_pages_off_or_none_are_set_up(
        open_bot: OpenBot, tmp_path: Path) -> None:
    h = await open_bot(settings_for(tmp_path / "db.sqlite3", web=WEB))
    await h.bot.services.preferences.update_guild(GUILD, web=WebVisibility.OFF.value)
    before = len(h.discord.calls)
    await challenge_and_accept(h)
    assert _links(new_calls(h, before)[-1].body["components"]) == []
    plain = await open_bot(settings_for(tmp_path / "other.sqlite3"))
    before = len(plain.discord.calls)
    await challenge_and_accept(plain)
    assert _links(new_calls(plain, before)[-1].body["components"]) == []


async def test_history_and_export_link_to_the_game_s_page(open_bot: OpenBot,
                                                          tmp_path: Path) -> None:
    h = await open_bot(settings_for(tmp_path / "db.sqlite3", web=WEB))
    await challenge_and_accept(h)
    game_id = h.bot.services.games.current(CHANNEL).game_id
    await resign(h, user=ALICE)
    url = f"{URL}/games/{game_id}/{LinkSigner(SECRET).token(PageKind.GAME, game_id)}"
    [history] = await run(h, slash(h, "history", []))
    [export] = await run(h, slash(h, "export", [option("game", game_id, 4)]))
    for answer in (history, export):
        components = answer.body["components"]
        assert [link["url"] for link in _links(components)] == [url]
        assert check_components(components, components_v2=False) == {}


async def test_a_board_where_the_bot_only_answers_links_beside_its_move_select(
        open_bot: OpenBot, tmp_path: Path) -> None:
    """A DM between two users (an INTERACTIONS place, docs/ARCHITECTURE.md "Places"):
    its game has no server, so its page is by link; the button follows the move select
    and the game's buttons, within Discord's rows."""
    h = await open_bot(settings_for(tmp_path / "db.sqlite3", web=WEB))
    dm = 9101
    h.discord.memberless_channels.add(dm)
    there: dict[str, Any] = dict(guild_id=None, context=2, owners={1: ALICE}, channel=dm)
    opponent, resolved = user_option("opponent", BOB)
    [posted] = await run(h, slash(h, "challenge", [opponent, option("variant", "turkish"),
                                                   option("color", "white")],
                                  resolved=resolved, **there))
    challenge_id = posted.custom_ids[0].split(":")[2]
    calls = await run(h, press(h, response_message_id(h, posted),
                               f"dama:accept:{challenge_id}", user=BOB, guild_id=None,
                               context=2, owners={1: ALICE}))
    components = calls[-1].body["components"]
    state = h.bot.services.games.current(dm)
    assert state.guild_id is None
    token = LinkSigner(SECRET).token(PageKind.GAME, state.game_id)
    assert [link["url"] for link in _links(components)] == [
        f"{URL}/games/{state.game_id}/{token}"]
    assert components[0]["components"][0]["type"] == 3  # the move select first
    assert check_components(components, components_v2=False) == {}
