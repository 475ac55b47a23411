"""`bot.services.games.table`: the one holder of the channels' locks.

Read with `ast` over every module of `bot/` (nothing is imported): only the owner touches
the locks themselves (an attribute named `locks` or `_locks`), and a channel's lock is
taken (`.hold(...)`) only through the owner's `GameTable.hold`, by the game service's own
parts (`bot/services/games/`). Any other module (the Discord layer, the challenges, the
computer's games) starts or changes a game through the game service's methods, which take
the lock themselves (docs/ARCHITECTURE.md, "Services and their events")."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from bot.messages import Msg
from bot.services import PlayerError
from bot.services.errors import ChannelRef
from bot.services.games.table import Dormant, GameTable
from bot.services.games.values import GameRules
from engine import Color
from storage import ClockState, GameRecord, GameStatus, Seat
from tests.support.clock import START
from tests.support.services import ALICE, CAROL, CHANNEL, THREAD, OpenServices, start_game

BOT = Path(__file__).resolve().parents[4] / "bot"
OWNER = BOT / "services" / "games" / "table.py"
"""The module that holds the channels' locks."""
PARTS = BOT / "services" / "games"
"""The package whose modules take a channel's lock through the owner's `GameTable.hold`."""
MODULES = sorted(BOT.rglob("*.py"))


def lock_attributes(source: str) -> list[int]:
    """The lines where `source` reads an attribute named `locks` or `_locks`."""
    return [node.lineno for node in ast.walk(ast.parse(source))
            if isinstance(node, ast.Attribute) and node.attr in ("locks", "_locks")]


def holds(source: str) -> list[tuple[int, str]]:
    """Each call of a method named `hold` in `source`: its line and what it is called on
    (`core.table`, `self._games.locks`...)."""
    return [(node.lineno, ast.unparse(node.func.value))
            for node in ast.walk(ast.parse(source))
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
            and node.func.attr == "hold"]


def takes_a_lock_outside_the_table(path: Path, source: str) -> list[int]:
    """The lines where module `path` takes or touches a channel's lock other than the
    way the rule allows (see the module docstring)."""
    if path == OWNER:
        return []
    lines = lock_attributes(source)
    for line, receiver in holds(source):
        through_table = receiver == "table" or receiver.endswith(".table")
        if not (through_table and path.is_relative_to(PARTS)):
            lines.append(line)
    return sorted(lines)


def test_the_rule_finds_a_lock_taken_elsewhere() -> None:
    challenges = BOT / "services" / "challenges.py"
    reaching = "async def accept(self):\n    async with self._games.locks.hold(1):\n        pass\n"
    through = "async def accept(self):\n    async with self._games.table.hold(1):\n        pass\n"
    assert takes_a_lock_outside_the_table(challenges, reaching) == [2, 2]
    assert takes_a_lock_outside_the_table(challenges, through) == [2]
    assert takes_a_lock_outside_the_table(PARTS / "moves.py", through) == []
    assert takes_a_lock_outside_the_table(OWNER, reaching) == []


def test_the_owner_and_its_parts_exist() -> None:
    assert OWNER.is_file()
    parts_holding = [path for path in MODULES if path.is_relative_to(PARTS)
                     and holds(path.read_text(encoding="utf-8"))]
    assert parts_holding, "the game service's parts take the lock through the table"


@pytest.mark.parametrize("path", MODULES, ids=lambda p: str(p.relative_to(BOT)))
def test_only_the_table_holds_the_channels_locks(path: Path) -> None:
    assert takes_a_lock_outside_the_table(path, path.read_text(encoding="utf-8")) == [], \
        f"{path.relative_to(BOT)} takes a channel's lock: start or change games through " \
        "GameService, whose parts take it through GameTable.hold"


async def test_a_channels_lock_is_held_for_the_block_and_dropped_after() -> None:
    table = GameTable(GameRules())
    async with table.hold(1):
        assert table.locked(1)
        assert not table.locked(2)
    assert not table.locked(1)


async def test_no_game_here_names_the_players_game_elsewhere_by_value(
    open_services: OpenServices,
) -> None:
    s = await open_services()
    record = await start_game(s, "turkish")  # ALICE against BOB in CHANNEL
    with pytest.raises(PlayerError) as elsewhere:
        await s.games.play(THREAD, ALICE, "a3-a4")
    assert elsewhere.value.key is Msg.NO_GAME_HERE_YOURS
    assert dict(elsewhere.value.params) == {"game_id": record.id,
                                            "channel": ChannelRef(CHANNEL)}
    with pytest.raises(PlayerError) as nowhere:
        await s.games.play(THREAD, CAROL, "a3-a4")
    assert nowhere.value.key is Msg.NO_GAME_HERE


def dormant_game(channel: int) -> Dormant:
    record = GameRecord(
        id=7, variant="turkish", guild_id=None, channel_id=channel, white=Seat.human(ALICE),
        black=Seat.human(CAROL), rated=False, move_seconds=None, start_fen="W:W21:B1",
        status=GameStatus.ACTIVE, result=None, termination=None, ply_count=0,
        board_message_id=None, draw_offer_by=None, clock=ClockState(None),
        created_at=START, updated_at=START, finished_at=None, white_rating=None,
        black_rating=None)
    return Dormant(record, START, Color.WHITE)


async def test_a_dormant_game_stays_dormant_when_waking_it_fails() -> None:
    table = GameTable(GameRules())
    woken: list[int] = []

    async def wake(game: Dormant) -> None:
        woken.append(game.record.id)
        raise OSError("the database is unreachable")

    table.sleep([dormant_game(CHANNEL)], wake)
    with pytest.raises(RuntimeError, match="dormant"):
        table.require(CHANNEL)
    with pytest.raises(OSError):
        async with table.hold(CHANNEL):
            pass
    assert woken == [7] and table.is_dormant(CHANNEL) and not table.locked(CHANNEL)
    assert table.players_in(CHANNEL) == (ALICE, CAROL) and table.is_active(7)
    assert table.next_deadline() == START + GameRules().inactivity_limit
