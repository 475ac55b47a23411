"""`localplay.render`: the bot's messages as terminal lines, and the game a board shows."""

from __future__ import annotations

from localplay.render import MessageText, game_id_of, mentioned_users
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


def test_game_id_from_the_title_when_the_buttons_are_gone() -> None:
    ended = _message(embeds=({"title": "Turkish draughts · game #12 · casual"},))
    assert game_id_of(ended) == 12
    assert game_id_of(_message(content="hello")) is None


def test_unknown_users_stay_mentions() -> None:
    assert MessageText(lambda _: None).inline("<@99> wins") == "<@99> wins"


def test_channel_mentions_read_as_their_names() -> None:
    # As /puzzle-daily answers: "... will be posted in <#20> once a day".
    text = MessageText(lambda _: None, {20: "games"}.get)
    assert text.inline("posted in <#20>, not <#21>") == "posted in #games, not <#21>"


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
