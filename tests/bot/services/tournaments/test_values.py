"""The settings' checks (`TournamentSettings.check`): each bad value is refused with its
own message, at the limits docs/RULES.md and the service's constants state; every post
has its ledger key, and a notice is rebuilt from its key alone."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime, timedelta

import pytest

from bot.messages import Msg
from bot.services.errors import PlayerError
from bot.services.tournaments import (
    Cancelled,
    Ended,
    Paused,
    PlayerRemoved,
    PostKey,
    PostKind,
    Resumed,
    SignUp,
    Started,
    TournamentSettings,
    post_key,
)
from bot.services.tournaments.values import notice_of
from tests.support.tournament_play import settings
from tournaments.model import Format

NOW = datetime(2026, 5, 1, 12, 0, tzinfo=UTC)


def refusal(value: TournamentSettings) -> Msg | None:
    try:
        value.check(NOW)
    except PlayerError as error:
        return error.key
    return None


@pytest.mark.parametrize(("format", "changes", "key"), [
    (Format.SWISS, {}, None),
    (Format.SWISS, {"name": "  "}, Msg.TOURNAMENT_NAME),
    (Format.SWISS, {"name": "x" * 101}, Msg.TOURNAMENT_NAME),
    (Format.SWISS, {"name": "x" * 100}, None),
    (Format.SWISS, {"variant": "chess"}, Msg.UNKNOWN_VARIANT),
    (Format.SWISS, {"rounds": None}, Msg.TOURNAMENT_ROUNDS),
    (Format.SWISS, {"rounds": 0}, Msg.TOURNAMENT_ROUNDS),
    (Format.SWISS, {"rounds": 20}, None),
    (Format.SWISS, {"rounds": 21}, Msg.TOURNAMENT_ROUNDS),
    (Format.ROUND_ROBIN, {"cycles": 2}, None),
    (Format.ROUND_ROBIN, {"cycles": 3}, Msg.TOURNAMENT_CYCLES),
    (Format.ROUND_ROBIN, {"player_limit": 16}, None),
    (Format.ROUND_ROBIN, {"player_limit": 17}, Msg.TOURNAMENT_PLAYER_LIMIT),
    (Format.ARENA, {"duration": timedelta(minutes=9)}, Msg.TOURNAMENT_DURATION),
    (Format.ARENA, {"duration": timedelta(minutes=10)}, None),
    (Format.ARENA, {"duration": timedelta(hours=24)}, None),
    (Format.ARENA, {"duration": timedelta(hours=24, seconds=1)}, Msg.TOURNAMENT_DURATION),
    (Format.ARENA, {"duration": None}, Msg.TOURNAMENT_DURATION),
    (Format.SWISS, {"move_seconds": 300}, None),
    (Format.SWISS, {"move_seconds": 30}, Msg.TOURNAMENT_MOVE_TIME),
    (Format.SWISS, {"player_limit": 1}, Msg.TOURNAMENT_PLAYER_LIMIT),
    (Format.SWISS, {"player_limit": 500}, None),
    (Format.SWISS, {"player_limit": 501}, Msg.TOURNAMENT_PLAYER_LIMIT),
    (Format.SWISS, {"starts_at": NOW}, Msg.TOURNAMENT_START_TIME),
    (Format.SWISS, {"starts_at": NOW + timedelta(days=30)}, None),
    (Format.SWISS, {"starts_at": NOW + timedelta(days=30, seconds=1)},
     Msg.TOURNAMENT_START_TIME),
])
def test_each_setting_is_checked(format: Format, changes: dict[str, object],
                                 key: Msg | None) -> None:
    assert refusal(settings(format, **changes)) is key


def test_a_round_robin_takes_sixteen_players_at_most_whatever_its_limit() -> None:
    value = settings(Format.ROUND_ROBIN)
    assert value.most_players == 16
    assert replace(value, player_limit=6).most_players == 6
    assert settings(Format.SWISS).most_players is None


def test_each_post_has_its_own_ledger_key() -> None:
    keys = [post_key(post) for post in (
        SignUp(), Started(), Paused(3), Resumed(4), Paused(5), Ended(),
        Cancelled(too_few_players=True), PlayerRemoved(7), PlayerRemoved(8))]
    assert len(set(keys)) == len(keys)
    assert keys[2] == PostKey(PostKind.PAUSED, "3")


def test_a_notice_is_rebuilt_from_its_ledger_key_alone() -> None:
    notices = (Paused(3), Resumed(4), Ended(), Cancelled(too_few_players=True),
               Cancelled(too_few_players=False), PlayerRemoved(7))
    for notice in notices:
        ledger = post_key(notice)
        assert notice_of(ledger.kind.value, ledger.key) == notice
    assert post_key(Cancelled(too_few_players=True)) != post_key(
        Cancelled(too_few_players=False))
    # Not a notice (derived from the stored state), or a key no notice has.
    for kind, text in (("signup", ""), ("started", ""), ("pairings", "1"), ("final", ""),
                      ("paused", ""), ("cancelled", ""), ("ended", "1"), ("bogus", "")):
        assert notice_of(kind, text) is None
