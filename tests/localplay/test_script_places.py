"""The local mode's words for places outside servers: `in dm:@NAME`, `in group:...`,
`as NAME in PLACE [COMMAND]`, `install`, and `close dms` / `open dms`."""

from __future__ import annotations

import pytest

from localplay.script import (
    AsUser,
    DirectMessages,
    InChannel,
    InPrivate,
    Install,
    Press,
    ScriptError,
    Slash,
    parse_line,
)


def test_a_dm_and_a_group_dm_are_places() -> None:
    assert parse_line("in dm:@bob") == InPrivate(("bob",))
    assert parse_line("in DM:bob") == InPrivate(("bob",))
    assert parse_line("in group:@bob,@carol") == InPrivate(("bob", "carol"), group=True)
    assert parse_line("in group:@bob, @carol") == InPrivate(("bob", "carol"), group=True)


@pytest.mark.parametrize("line", ["in dm:", "in dm:@bob,@carol", "in group:"])
def test_a_private_place_needs_its_people(line: str) -> None:
    with pytest.raises(ScriptError, match="dm:@NAME"):
        parse_line(line)


def test_install_for_oneself_or_another() -> None:
    assert parse_line("install") == Install()
    assert parse_line("install @bob") == Install("bob")


def test_direct_messages_closed_and_opened_for_oneself_or_another() -> None:
    assert parse_line("close dms") == DirectMessages(open=False)
    assert parse_line("close DMs @bob") == DirectMessages(open=False, name="bob")
    assert parse_line("open dms") == DirectMessages(open=True)


@pytest.mark.parametrize("line", ["close", "open the door"])
def test_close_and_open_name_the_direct_messages(line: str) -> None:
    with pytest.raises(ScriptError, match="dms"):
        parse_line(line)


def test_as_with_a_place_and_a_command() -> None:
    assert parse_line("as alice in dm:@bob /challenge @bob italian") == AsUser(
        "alice", InPrivate(("bob",)), Slash("challenge", (), ("@bob", "italian")))
    assert parse_line("as alice in dm:@bob") == AsUser("alice", InPrivate(("bob",)))
    assert parse_line('as bob in "Dama Annex#lobby" press 3 Accept') == AsUser(
        "bob", InChannel("lobby", "Dama Annex"), Press("Accept", 3))
    assert parse_line("as carol in group:@alice,@bob install") == AsUser(
        "carol", InPrivate(("alice", "bob"), group=True), Install())
    assert parse_line("as bob") == AsUser("bob")


def test_as_with_a_command_and_no_place() -> None:
    assert parse_line("as bob press Accept") == AsUser("bob", None, Press("Accept"))
    assert parse_line("as bob /board") == AsUser("bob", None, Slash("board", (), ()))
    assert parse_line("as carol install") == AsUser("carol", None, Install())


@pytest.mark.parametrize("line", ["as alice games", "as alice in", "as alice in games wait x"])
def test_as_refuses_what_is_not_a_place_and_command(line: str) -> None:
    with pytest.raises(ScriptError):
        parse_line(line)


@pytest.mark.parametrize("line", ["in dm:@bob /rules", "in group:@bob,@carol /rules",
                                  "in games /rules"])
def test_a_place_is_one_word_and_a_command_after_it_is_refused(line: str) -> None:
    with pytest.raises(ScriptError, match="one word"):
        parse_line(line)
