"""One read of a tournament (`bot.services.tournaments.core.Snapshot`): what it derives
from its rows is computed once, so an arena's pairing, which asks for the active players
once per entrant, does not rebuild them each time."""

from __future__ import annotations

from bot.services.tournaments.core import Snapshot
from tests.support.services import GUILD, OpenServices
from tests.support.tournament_play import ORGANISER, PLAYERS, create, sign_up
from tournaments.model import Format


async def test_a_snapshot_derives_its_players_and_rounds_once(
        open_services: OpenServices) -> None:
    services = await open_services()
    view = await create(services, Format.ARENA)
    await sign_up(services, view.id, PLAYERS[:4])
    await services.tournaments.leave(view.id, PLAYERS[3], guild_id=GUILD)
    await services.tournaments.start(view.id, ORGANISER, guild_id=GUILD)
    repo = services.storage.tournaments
    record = await repo.get(view.id)
    assert record is not None
    snapshot = Snapshot(record, tuple(await repo.entrants(view.id)),
                        tuple(await repo.rounds(view.id)))
    assert snapshot.active == frozenset(PLAYERS[:3])
    assert snapshot.active is snapshot.active
    assert len(snapshot.model_rounds) == 1
    assert snapshot.model_rounds is snapshot.model_rounds
    assert snapshot.numbered is snapshot.numbered
    assert snapshot.round_views is snapshot.round_views
    assert snapshot.view is snapshot.view
