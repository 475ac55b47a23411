"""The bot process killed with SIGKILL in the middle of a game, and started again: the
game continues from the same position and the buttons posted before the kill still work."""

from __future__ import annotations

import signal

from engine import Game, get_variant, legal_moves, parse_move
from localplay.server import LocalDiscord
from localplay.stored import StoredGames
from tests.support.local_discord import ANSWER_TIMEOUT
from tests.support.standin_play import move_text, play_move, start_game, wait_board

OPENING = ("c3-c4", "f6-f5", "c4-c5")


async def test_sigkill_mid_game_then_the_game_and_old_buttons_carry_on(
    local: LocalDiscord,
) -> None:
    variant = get_variant("turkish")
    standin = local.standin
    alice, bob = standin.user("alice"), standin.user("bob")
    carol, dave = standin.user("carol"), standin.user("dave")
    game_id, _ = await start_game(local, local.channel, alice, bob, variant)
    reference = Game(variant)
    board = None
    for ply, text in enumerate(OPENING):
        board = (await play_move(local, (alice, bob)[ply % 2], local.channel, text)).reply
        reference.play(text)
    assert board is not None and [b.label for b in board.buttons] == ["Resign", "Offer draw"]
    games_channel = local.channels["games"]
    pending = await standin.slash(carol, games_channel, "challenge",
                                  {"opponent": dave, "variant": "moroccan"},
                                  timeout=ANSWER_TIMEOUT)
    assert not pending.ephemeral

    await local.process.kill()
    assert local.process.returncode == -signal.SIGKILL
    await local.start_bot()
    assert standin.identify_count == 2

    # Same position: bob (to move) is offered exactly the legal moves of the position.
    offered = await standin.autocomplete(bob, local.channel, "move", {"move": ""},
                                         timeout=ANSWER_TIMEOUT)
    position = reference.position
    assert {parse_move(str(c.value), position, variant) for c in offered} == set(
        legal_moves(position, variant)
    )
    # The board posted before the kill: its Offer draw button works.
    offer = await standin.press(bob, board, "Offer draw", timeout=ANSWER_TIMEOUT)
    assert not offer.ephemeral, offer.reply.text()
    assert "draw" in offer.reply.text().lower()
    # The game continues: bob moves (the offer lapses), alice answers.
    move = sorted(legal_moves(position, variant), key=lambda m: (m.start, m.end))[0]
    await play_move(local, bob, local.channel, move_text(move, position, variant))
    reference.play(move)
    async with StoredGames(local.process.database) as games:
        stored = await games.load(game_id)
    assert stored.position == reference.position
    assert len(stored.moves) == len(OPENING) + 1
    assert stored.record.draw_offer_by is None
    # The challenge posted before the kill: dave accepts it with its old button.
    mark = standin.event_count
    accepted = await standin.press(dave, pending.reply, "Accept", timeout=ANSWER_TIMEOUT)
    assert not accepted.ephemeral, accepted.reply.text()
    new_board = await wait_board(local, games_channel, since=mark)
    assert [b.label for b in new_board.buttons] == ["Resign", "Offer draw"]


async def test_sigkill_while_a_move_is_answered_leaves_a_consistent_game(
    local: LocalDiscord,
) -> None:
    """Killed while a /move is in flight: the move is either stored or not (never half),
    and after the restart the right player moves on from the stored position."""
    import asyncio

    from standin import BotDidNotAnswer

    variant = get_variant("turkish")
    standin = local.standin
    alice, bob = standin.user("alice"), standin.user("bob")
    thread = await standin.add_thread(local.channel, "alice-bob", owner=alice)
    game_id, _ = await start_game(local, thread, alice, bob, variant)
    reference = Game(variant)
    await play_move(local, alice, thread, "c3-c4")
    reference.play("c3-c4")
    in_flight = asyncio.create_task(
        standin.slash(bob, thread, "move", {"move": "f6-f5"}, timeout=ANSWER_TIMEOUT)
    )
    await asyncio.sleep(0.01)
    await local.process.kill()
    try:
        answered = await in_flight
        assert not answered.ephemeral
    except BotDidNotAnswer:
        pass  # Discord would say "This interaction failed"; the game must still be whole
    await local.start_bot()
    async with StoredGames(local.process.database) as games:
        stored = await games.load(game_id)
    texts = [m.text for m in stored.moves]
    assert texts in (["c3-c4"], ["c3-c4", "f6-f5"])
    if len(texts) == 2:
        reference.play("f6-f5")
    assert stored.position == reference.position
    mover = alice if len(texts) == 2 else bob
    move = sorted(legal_moves(reference.position, variant), key=lambda m: (m.start, m.end))[0]
    await play_move(local, mover, thread, move_text(move, reference.position, variant))
