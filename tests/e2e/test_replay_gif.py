"""A finished game's replay as an animated GIF through the real bot process and the
stand-in (which refuses an upload over Discord's 10 MiB limit): `/export format:GIF`, and
the Replay button of the final board, answered to the presser alone."""

from __future__ import annotations

import io

from PIL import Image

from engine import get_variant
from localplay.server import LocalDiscord
from tests.support.local_discord import ANSWER_TIMEOUT
from tests.support.standin_play import play_move, resign, start_game


def _frames(data: bytes) -> int:
    with Image.open(io.BytesIO(data)) as picture:
        assert picture.format == "GIF"
        return int(getattr(picture, "n_frames", 1))


async def test_export_as_gif_and_the_replay_button_give_the_game_move_by_move(
    local: LocalDiscord,
) -> None:
    standin = local.standin
    alice, bob, carol = standin.user("alice"), standin.user("bob"), standin.user("carol")
    game_id, _ = await start_game(local, local.channel, alice, bob, get_variant("italian"),
                                  rated=False)
    for user, move in ((alice, "22-18"), (bob, "11-15"), (alice, "18-14")):
        await play_move(local, user, local.channel, move)
    final = (await resign(local, bob, local.channel)).reply
    assert [b.label for b in final.buttons] == ["Rematch", "Replay", "Analyze"]

    exported = await standin.slash(alice, local.channel, "export", {"format": "gif"},
                                   timeout=ANSWER_TIMEOUT)
    assert not exported.ephemeral
    [gif] = exported.reply.attachments
    assert gif.filename == f"dama-italian-{game_id}.gif"
    assert _frames(standin.attachment_bytes(gif)) == 4  # the start and three moves

    pressed = await standin.press(carol, final, "Replay", timeout=ANSWER_TIMEOUT)
    assert pressed.ephemeral and pressed.reply.visible_to == carol.id
    assert f"Game #{game_id}" in pressed.reply.text()
    [replay] = pressed.reply.attachments
    assert _frames(standin.attachment_bytes(replay)) == 4
    # The board keeps its buttons: a replay changes nothing.
    assert [b.label for b in standin.message(final).buttons] == ["Rematch", "Replay", "Analyze"]
