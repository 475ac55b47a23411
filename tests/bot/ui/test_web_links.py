"""The link buttons to the web face's pages (`bot.ui.web_links`), through the real bot and
discord.py against `FakeDiscord`: "Game page" under a board, `/history`, `/export` and
`/analyze`; "Player page" under `/rating`; "Leaderboard page" under `/leaderboard`;
"Tournament page" under a tournament's standings and its sign-up post. Each to the
page's signed URL when the web face is configured, valid by Discord's rules for
components (the stand-in's checks, `standin.validation`); none when the server turned the
pages off or none are set up."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from bot.services.settings import WebVisibility
from bot.services.web_access import LinkSigner, PageKind, WebSettings
from engine import Game, Position, get_variant
from standin.validation import check_components
from storage import GameResult, NewGame, Seat
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
from tests.support.fake_discord import EVERYTHING, option, user_option
from tests.support.fake_discord import GUILD_ID as GUILD
from tests.support.services import ALICE, BOB, CAROL, CHANNEL
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


def _signed(kind: PageKind, path: str, page_id: int) -> str:
    return f"{URL}/{path}/{page_id}/{LinkSigner(SECRET).token(kind, page_id)}"


def _one_link(answer: Any) -> dict[str, Any]:
    components = answer.body["components"]
    assert check_components(components, components_v2=False) == {}
    [link] = _links(components)
    return link


async def test_rating_links_to_the_player_s_page(open_bot: OpenBot, tmp_path: Path) -> None:
    h = await open_bot(settings_for(tmp_path / "db.sqlite3", web=WEB))
    await challenge_and_accept(h)  # Alice and Bob are players the bot knows
    [own] = await run(h, slash(h, "rating", []))
    assert (_one_link(own)["label"], _one_link(own)["url"]) == (
        "Player page", _signed(PageKind.PLAYER, "players", ALICE))
    user, resolved = user_option("user", BOB)
    [other] = await run(h, slash(h, "rating", [user], resolved=resolved))
    assert _one_link(other)["url"] == _signed(PageKind.PLAYER, "players", BOB)


async def test_rating_of_a_user_the_bot_never_saw_has_no_page_link(
        open_bot: OpenBot, tmp_path: Path) -> None:
    """A player's page is found only for a player the bot recorded
    (`bot.web.access.visible_player`): a link would lead to the 404 page."""
    h = await open_bot(settings_for(tmp_path / "db.sqlite3", web=WEB))
    [own] = await run(h, slash(h, "rating", []))
    user, resolved = user_option("user", CAROL)
    [stranger] = await run(h, slash(h, "rating", [user], resolved=resolved))
    for answer in (own, stranger):
        assert _links(answer.body.get("components") or []) == []


async def test_leaderboard_links_to_the_server_s_page_of_the_variant_shown(
        open_bot: OpenBot, tmp_path: Path) -> None:
    h = await open_bot(settings_for(tmp_path / "db.sqlite3", web=WEB))
    [answer] = await run(h, slash(h, "leaderboard", [option("variant", "russian")]))
    token = LinkSigner(SECRET).token(PageKind.LEADERBOARD, GUILD)
    assert (_one_link(answer)["label"], _one_link(answer)["url"]) == (
        "Leaderboard page", f"{URL}/servers/{GUILD}/leaderboard/{token}?variant=russian")
    # every server's leaderboard has no page
    [everywhere] = await run(h, slash(h, "leaderboard", [option("scope", "global")]))
    assert _links(everywhere.body.get("components") or []) == []
    await h.bot.services.preferences.update_guild(GUILD, web=WebVisibility.OFF.value)
    [off] = await run(h, slash(h, "leaderboard", []))
    assert _links(off.body.get("components") or []) == []


async def test_tournament_standings_link_to_the_tournament_s_page(
        open_bot: OpenBot, tmp_path: Path) -> None:
    h = await open_bot(settings_for(tmp_path / "db.sqlite3", web=WEB))
    create = [{"type": 1, "name": "create", "options": [
        option("name", "Friday Swiss"), option("format", "swiss"),
        option("variant", "turkish")]}]
    await run(h, slash(h, "tournament", create, permissions=EVERYTHING))
    tournament = await h.bot.services.storage.tournaments.in_channel(CHANNEL)
    assert tournament is not None
    url = _signed(PageKind.TOURNAMENT, "tournaments", tournament.id)
    standings = [{"type": 1, "name": "standings", "options": []}]
    answers = await run(h, slash(h, "tournament", standings))
    link = _one_link(answers[-1])
    assert (link["label"], link["url"]) == ("Tournament page", url)
    # the sign-up post: its Join and Leave buttons, then the link
    assert tournament.post_message_id is not None
    post = h.discord.messages[tournament.post_message_id]
    components = post["components"]
    assert check_components(components, components_v2=False) == {}
    assert [link["url"] for link in _links(components)] == [url]
    assert [item.get("custom_id", "").split(":")[1] for item in components[0]["components"]
            if item.get("style") != 5] == ["tjoin", "tleave"]


async def test_a_finished_analysis_links_to_the_game_s_page(open_bot: OpenBot,
                                                           tmp_path: Path) -> None:
    h = await open_bot(settings_for(tmp_path / "db.sqlite3", web=WEB))
    fen, moves = "B:We2,c4,Kd3:Bc6,g6,Ke6", ("g6-f5", "c4-d5", "e6xc4", "d3xb5xd7")
    game = Game(get_variant("italian"), Position.from_fen(fen, get_variant("italian")))
    for move in moves:
        game.play(move)
    storage = h.bot.services.storage
    record = await storage.games.create(NewGame(
        "italian", CHANNEL, GUILD, Seat.human(ALICE), Seat.human(BOB), fen))
    for ply, move in enumerate(moves[:-1], start=1):
        await storage.games.append_move(record.id, ply=ply, text=move)
    await storage.games.append_final_move(record.id, ply=len(moves), text=moves[-1],
                                          result=GameResult.WHITE_WINS,
                                          termination="resignation")
    url = _signed(PageKind.GAME, "games", record.id)
    finished = (await run(h, slash(h, "analyze", [])))[-1]
    assert finished.embeds and _one_link(finished)["url"] == url
    [stored] = await run(h, slash(h, "analyze", [option("game", record.id, 4)]))
    assert _one_link(stored)["url"] == url
