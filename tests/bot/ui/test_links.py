"""Links to messages and channels (`bot/ui/links.py`): a server's id or `@me` for direct
messages, in the form Discord's clients open."""

from __future__ import annotations

from bot.ui.links import channel_link, message_link


def test_a_message_in_a_server_is_linked_by_server_channel_and_message() -> None:
    assert (message_link(111, 222, 333)
            == "https://discord.com/channels/111/222/333")


def test_a_message_in_direct_messages_is_linked_under_at_me() -> None:
    assert (message_link(None, 222, 333)
            == "https://discord.com/channels/@me/222/333")


def test_a_channel_in_a_server_is_linked_by_server_and_channel() -> None:
    assert channel_link(111, 222) == "https://discord.com/channels/111/222"


def test_a_direct_message_channel_is_linked_under_at_me() -> None:
    assert channel_link(None, 222) == "https://discord.com/channels/@me/222"
