"""What a component's `custom_id` names, checked before a press acts
(`bot/services/press_targets.py`): a game the presser may not see is refused exactly as a
missing one; a board's game must be the channel's; a challenge must exist in the
channel; a tournament must be the server's, pressed in its channel or thread. Real SQLite
file."""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import timedelta
from pathlib import Path

import pytest

from bot.messages import Msg
from bot.services import PlayerError
from bot.services.press_targets import PressTargets
from bot.services.visibility import Requester
from engine import Position, get_variant
from storage import NewGame, NewTournament, Seat, Storage, utc_now
from storage.models import NewChallenge

GUILD, CHANNEL, OTHER_GUILD = 500, 600, 777
TURKISH = get_variant("turkish")
START = Position.start(TURKISH).to_fen(TURKISH)
ALICE, BOB, CAROL = 1001, 1002, 1003


@pytest.fixture
async def storage(tmp_path: Path) -> AsyncIterator[Storage]:
    async with await Storage.open(tmp_path / "db.sqlite3") as opened:
        yield opened


async def _refusal(targets: PressTargets, requester: Requester, game_id: int,
                   channel_id: int | None = None) -> PlayerError:
    with pytest.raises(PlayerError) as refused:
        await targets.game(requester, game_id, channel_id=channel_id)
    return refused.value


async def test_a_game_of_another_server_is_refused_as_a_missing_one(storage: Storage) -> None:
    game = await storage.games.create(NewGame(
        "turkish", CHANNEL, GUILD, Seat.human(ALICE), Seat.human(BOB), START))
    targets = PressTargets(storage)
    stranger = Requester(CAROL, OTHER_GUILD)
    hidden = await _refusal(targets, stranger, game.id)
    missing = await _refusal(targets, stranger, game.id + 1000)
    assert hidden.key is missing.key is Msg.UNKNOWN_GAME
    assert dict(hidden.params) == {"game_id": game.id}
    assert dict(missing.params) == {"game_id": game.id + 1000}
    # Its server, and its players anywhere, may act on it.
    assert (await targets.game(Requester(CAROL, GUILD), game.id)).id == game.id
    assert (await targets.game(Requester(ALICE, None), game.id)).id == game.id


async def test_a_boards_game_must_be_the_channels(storage: Storage) -> None:
    game = await storage.games.create(NewGame(
        "turkish", CHANNEL, GUILD, Seat.human(ALICE), Seat.human(BOB), START))
    targets = PressTargets(storage)
    elsewhere = await _refusal(targets, Requester(ALICE, GUILD), game.id, CHANNEL + 1)
    assert elsewhere.key is Msg.GAME_ELSEWHERE
    assert (await targets.game(Requester(ALICE, GUILD), game.id, channel_id=CHANNEL)).id == game.id


async def test_a_challenge_must_exist_in_the_channel(storage: Storage) -> None:
    challenge = await storage.challenges.create(NewChallenge(
        ALICE, BOB, GUILD, CHANNEL, "turkish", utc_now() + timedelta(minutes=5)))
    targets = PressTargets(storage)
    await targets.challenge(challenge.id, CHANNEL)
    for challenge_id, channel_id in ((challenge.id, CHANNEL + 1), (challenge.id + 1, CHANNEL)):
        with pytest.raises(PlayerError) as refused:
            await targets.challenge(challenge_id, channel_id)
        assert refused.value.key is Msg.CHALLENGE_UNKNOWN


async def test_a_tournament_is_pressed_in_its_servers_channel_or_thread(
    storage: Storage,
) -> None:
    made = await storage.tournaments.create(NewTournament(
        guild_id=GUILD, channel_id=CHANNEL, organiser_id=ALICE, name="Friday Swiss",
        format="swiss", variant="turkish", rounds=4, duration_seconds=None, move_seconds=300,
        rated=True, seed=1))
    thread = CHANNEL + 7
    await storage.tournaments.set_thread(made.id, thread)
    targets = PressTargets(storage)
    await targets.tournament(made.id, GUILD, CHANNEL)  # the sign-up post
    await targets.tournament(made.id, GUILD, thread)  # a results post's Standings
    for tournament_id, guild, channel in ((made.id, OTHER_GUILD, CHANNEL),
                                          (made.id, GUILD, CHANNEL + 1),
                                          (made.id + 1, GUILD, CHANNEL),
                                          (2**63, GUILD, CHANNEL)):
        with pytest.raises(PlayerError) as refused:
            await targets.tournament(tournament_id, guild, channel)
        assert refused.value.key is Msg.TOURNAMENT_UNKNOWN
        assert dict(refused.value.params) == {"tournament_id": tournament_id}
