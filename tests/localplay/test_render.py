"""`localplay.render`: the bot's messages as terminal lines (select menus too), the game a
board shows, and the text board printed under it."""

from __future__ import annotations

from engine import Game, Position, get_variant
from localplay.render import (
    MenuOption,
    MessageText,
    game_id_of,
    mentioned_users,
    select_menus,
    terminal_board,
)
from renderer import render_text
from standin import MessageOrigin, MessageRecord


def _message(**fields: object) -> MessageRecord:
    base: dict[str, object] = dict(
        id=1, channel_id=2, guild_id=3, author_id=4, content="", embeds=(), components=(),
        attachments=(), flags=0, origin=MessageOrigin.INTERACTION_RESPONSE,
        interaction_id=None, interaction_user_id=None, visible_to=None, edited=False,
        deleted=False,
    )
    base.update(fields)
    return MessageRecord(**base)  # type: ignore[arg-type]


def test_messages_read_as_text() -> None:
    names = {10: "alice", 11: "bob"}
    text = MessageText(names.get)
    message = _message(
        content="<@10> played **d3-c4**.\n<@11> to move.",
        embeds=({"title": "Italian draughts · game #7 · rated",
                 "description": "<@11> must move <t:0:R>",
                 "fields": [{"name": "White", "value": "<@10> (1500?)"}],
                 "footer": {"text": "a footer"}},),
        components=({"type": 1, "components": [
            {"type": 2, "style": 4, "label": "Resign", "custom_id": "dama:resign:7:3"},
            {"type": 2, "style": 2, "label": "Offer draw", "custom_id": "dama:draw:7:3",
             "disabled": True}]},),
    )
    lines = text.lines(message)
    assert lines[:2] == ["@alice played d3-c4.", "@bob to move."]
    assert "  == Italian draughts · game #7 · rated ==" in lines
    assert "  @bob must move 1970-01-01 00:00 UTC" in lines
    assert "  White: @alice (1500?)" in lines
    assert "  (a footer)" in lines
    assert lines[-1] == "  [Resign] [Offer draw (disabled)]"
    assert "[Resign]" not in "\n".join(text.lines(message, buttons=False))
    assert game_id_of(message) == 7


def test_a_select_menu_reads_as_its_placeholder_and_options() -> None:
    message = _message(content="card", components=({"type": 1, "components": [
        {"type": 3, "custom_id": "dama:mistake:7", "placeholder": "Show a mistake",
         "min_values": 1, "max_values": 1,
         "options": [{"label": "1... 9-13??", "value": "2"},
                     {"label": "2. 22-18?", "value": "3"}]}]},))
    [menu] = select_menus(message)
    assert menu.custom_id == "dama:mistake:7" and not menu.disabled
    assert menu.options == (MenuOption("1... 9-13??", "2"), MenuOption("2. 22-18?", "3"))
    text = MessageText(lambda _: None)
    assert text.lines(message) == ["card", "  <Show a mistake: 1... 9-13?? | 2. 22-18?>"]
    assert text.lines(message, buttons=False) == ["card"]
    assert select_menus(_message(content="no menu")) == ()


def test_game_id_from_the_title_when_the_buttons_are_gone() -> None:
    ended = _message(embeds=({"title": "Turkish draughts · game #12 · casual"},))
    assert game_id_of(ended) == 12
    assert game_id_of(_message(content="hello")) is None


def test_unknown_users_stay_mentions() -> None:
    assert MessageText(lambda _: None).inline("<@99> wins") == "<@99> wins"


def test_channel_mentions_read_as_their_names() -> None:
    # As /puzzle-daily answers: "... will be posted in <#20> once a day".
    text = MessageText(lambda _: None, {20: "#games", 21: "dm:@alice,@bob"}.get)
    assert text.inline("posted in <#20>, not <#22>") == "posted in #games, not <#22>"
    assert text.inline("yours is in <#21>") == "yours is in dm:@alice,@bob"


def test_command_mentions_read_as_a_client_shows_them() -> None:
    text = MessageText(lambda _: None)
    assert text.inline("Start one with **</play:123>** or </tournament create:45>.") == (
        "Start one with /play or /tournament create.")


def test_game_id_from_a_button_that_carries_its_ply() -> None:
    board = _message(components=({"type": 1, "components": [
        {"type": 2, "style": 4, "label": "Resign", "custom_id": "dama:resign:31:14"}]},))
    assert game_id_of(board) == 31


def test_the_users_a_message_mentions() -> None:
    message = _message(
        content="<@10> played.",
        embeds=({"title": "<@!12>", "description": "<@11> (White) 92%",
                 "fields": [{"name": "<@13>", "value": "<@14>, <#15>, <@&16>"}],
                 "footer": {"text": "<@17>"}},),
    )
    assert mentioned_users(message) == {10, 11, 12, 13, 14, 17}
    assert mentioned_users(_message(content="no one")) == set()


def test_game_id_from_a_finished_board_s_rematch_button() -> None:
    board = _message(components=({"type": 1, "components": [
        {"type": 2, "style": 1, "label": "Rematch", "custom_id": "dama:rematch:40"}]},))
    assert game_id_of(board) == 40


def test_the_terminal_board_is_the_renderer_s_text_board_and_whose_turn() -> None:
    variant = get_variant("turkish")
    position = Position.start(variant)
    lines = terminal_board(position, variant).splitlines()
    # Turkish start (docs/RULES.md): 16 men each on ranks 2-3 (White) and 6-7 (Black).
    assert lines[:-1] == render_text(position, variant).splitlines()
    assert lines[2].split() == ["7", *"bbbbbbbb", "7"]
    assert lines[6].split() == ["3", *"wwwwwwww", "3"]
    assert lines[-1] == "    w/b men, W/B kings; White to move"


def test_the_terminal_board_of_a_finished_game_names_no_side_to_move() -> None:
    variant = get_variant("turkish")
    lines = terminal_board(Position.start(variant), variant, over=True).splitlines()
    assert lines[-1] == "    w/b men, W/B kings; game over"


def test_the_terminal_board_numbers_the_empty_squares_of_an_italian_board() -> None:
    # Italian moves are written in square numbers (docs/RULES.md, "Italian numeric
    # squares"): after 22-18 and 11-15, squares 22 and 11 are empty, 18 and 15 taken.
    variant = get_variant("italian")
    start = Position.start(variant).to_fen(variant)
    position = Game.replay(variant, start, ["22-18", "11-15"]).position
    lines = terminal_board(position, variant).splitlines()
    assert lines[3].split() == ["6", "b", "b", "11", "b", "6"]
    assert lines[6].split() == ["3", "w", "22", "w", "w", "3"]
    assert lines[-1].endswith("White to move")
