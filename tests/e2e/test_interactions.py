"""Autocomplete and buttons through the real bot: what a player is offered, and what a
stranger pressing someone else's button gets."""

from __future__ import annotations

import asyncio

from engine import Position, get_variant, legal_moves, parse_move
from engine.pdn import read_pdn
from localplay.server import LocalDiscord
from localplay.stored import StoredGames
from tests.support.local_discord import ANSWER_TIMEOUT
from tests.support.standin_play import play_move, start_game


async def test_move_autocomplete_offers_the_legal_moves_of_the_player_to_move(
    local: LocalDiscord,
) -> None:
    variant = get_variant("turkish")
    standin = local.standin
    alice, bob = standin.user("alice"), standin.user("bob")
    await start_game(local, local.channel, alice, bob, variant)
    position = Position.start(variant)
    legal = set(legal_moves(position, variant))

    offered = await standin.autocomplete(alice, local.channel, "move", {"move": ""},
                                         timeout=ANSWER_TIMEOUT)
    assert 0 < len(offered) <= 25
    moves = {parse_move(str(choice.value), position, variant) for choice in offered}
    assert moves == legal, "the suggestions are not the legal moves"

    typed = await standin.autocomplete(alice, local.channel, "move", {"move": "c3"},
                                       timeout=ANSWER_TIMEOUT)
    expected = {m for m in legal if m.start == 18}  # c3 = rank 3, file c
    assert expected
    assert {parse_move(str(c.value), position, variant) for c in typed} == expected

    # Not bob's turn: nothing to suggest; a stranger: nothing either.
    assert await standin.autocomplete(bob, local.channel, "move", {"move": ""},
                                      timeout=ANSWER_TIMEOUT) == ()
    assert await standin.autocomplete("carol", local.channel, "move", {"move": ""},
                                      timeout=ANSWER_TIMEOUT) == ()
    # A channel without a game: nothing.
    assert await standin.autocomplete(alice, "games", "move", {"move": ""},
                                      timeout=ANSWER_TIMEOUT) == ()


async def test_a_stranger_pressing_a_games_buttons_changes_nothing(local: LocalDiscord) -> None:
    variant = get_variant("italian")
    standin = local.standin
    alice, bob, carol = standin.user("alice"), standin.user("bob"), standin.user("carol")
    game_id, _ = await start_game(local, local.channel, alice, bob, variant)
    board = (await play_move(local, alice, local.channel, "22-18")).reply

    for label in ("Resign", "Offer draw"):
        answer = await standin.press(carol, board, label, timeout=ANSWER_TIMEOUT)
        assert answer.ephemeral, f"a stranger's {label} was answered publicly"
        assert answer.reply.visible_to == carol.id
        assert "not playing in this game" in answer.reply.text()

    # The game is as it was: active, one move, no draw offer; the board keeps its buttons.
    async with StoredGames(local.process.database) as games:
        stored = await games.load(game_id)
    assert stored.record.status.value == "active"
    assert len(stored.moves) == 1 and stored.record.draw_offer_by is None
    assert [b.label for b in standin.message(board).buttons] == ["Resign", "Offer draw"]
    # A stranger's /move is refused the same way, and bob still plays on.
    refused = await standin.slash(carol, local.channel, "move", {"move": "11-15"},
                                  timeout=ANSWER_TIMEOUT)
    assert refused.ephemeral
    await play_move(local, bob, local.channel, "11-15")


async def test_only_the_challenged_player_can_accept(local: LocalDiscord) -> None:
    standin = local.standin
    challenge = await standin.slash("alice", local.channel, "challenge",
                                    {"opponent": "bob", "variant": "arab"},
                                    timeout=ANSWER_TIMEOUT)
    answer = await standin.press("carol", challenge.reply, "Accept", timeout=ANSWER_TIMEOUT)
    assert answer.ephemeral and answer.reply.visible_to == standin.user("carol").id
    still = standin.message(challenge.reply)
    assert [b.label for b in still.buttons] == ["Accept", "Decline", "Cancel"]
    declined = await standin.press("bob", challenge.reply, "Decline", timeout=ANSWER_TIMEOUT)
    assert not declined.ephemeral
    assert not standin.message(challenge.reply).buttons


async def test_two_moves_at_once_apply_one_and_export_gives_the_game(
    local: LocalDiscord,
) -> None:
    variant = get_variant("italian")
    standin = local.standin
    alice, bob = standin.user("alice"), standin.user("bob")
    game_id, _ = await start_game(local, local.channel, alice, bob, variant)
    first, second = await asyncio.gather(
        standin.slash(alice, local.channel, "move", {"move": "22-18"}, timeout=ANSWER_TIMEOUT),
        standin.slash(alice, local.channel, "move", {"move": "21-17"}, timeout=ANSWER_TIMEOUT),
    )
    assert sorted([first.ephemeral, second.ephemeral]) == [False, True]
    refused = first if first.ephemeral else second
    assert "not your turn" in refused.reply.text()
    await play_move(local, bob, local.channel, "11-15")

    exported = await standin.slash(bob, local.channel, "export", {}, timeout=ANSWER_TIMEOUT)
    files = exported.reply.attachments
    assert len(files) == 1 and files[0].filename.endswith(".pdn")
    [record] = read_pdn(standin.attachment_bytes(files[0]).decode("utf-8"))
    async with StoredGames(local.process.database) as games:
        stored = await games.load(game_id)
    assert record.variant.key == "italian" and len(record.game.moves) == 2
    assert record.game.position == stored.position
    assert record.tags["White"] == "alice" and record.tags["Black"] == "bob"
