"""Posting once (`bot.services.tournaments.posting`): a post whose message was sent but
whose id was never recorded (the bot died between the two, or the answer was lost) is
sent again with the same nonce, which Discord answers with the first message: the
players see it once, and its id is recorded."""

from __future__ import annotations

from bot.services.tournaments import Post, RoundPaired, TournamentView
from tests.support.services import GUILD, OpenServices, TournamentCollector
from tests.support.tournament_play import ORGANISER, PLAYERS, create, sign_up
from tournaments.model import Format


class LostAnswer(TournamentCollector):
    """Sends the first pairings post, then fails as if the bot died before it heard
    back."""

    def __init__(self) -> None:
        super().__init__()
        self.lost = False

    async def post(self, view: TournamentView, post: Post) -> int:
        message_id = await super().post(view, post)
        if isinstance(post, RoundPaired) and not self.lost:
            self.lost = True
            raise ConnectionError("the connection dropped before the answer")
        return message_id


async def test_a_post_sent_but_not_recorded_is_sent_again_as_the_same_message(
        open_services: OpenServices) -> None:
    outlet = LostAnswer()
    services = await open_services(tournament_outlet=outlet)
    view = await create(services, Format.SWISS)
    await sign_up(services, view.id, PLAYERS[:4])
    await services.tournaments.start(view.id, ORGANISER, guild_id=GUILD)
    assert outlet.lost
    (sent,) = outlet.of_kind(view.id, RoundPaired)
    (round_,) = await services.storage.tournaments.rounds(view.id)
    assert round_.pairings_message_id is None, "the lost answer left no id recorded"

    await services.tournaments.advance(view.id)
    assert outlet.of_kind(view.id, RoundPaired) == [sent], "posted once"
    assert [(kind.value, key) for _, kind, key in outlet.resent] == [("pairings", "1")]
    (round_,) = await services.storage.tournaments.rounds(view.id)
    message_id = next(mid for _, post, mid in outlet.posts if post == sent)
    assert round_.pairings_message_id == message_id
    # Recorded now: asked again, nothing is sent.
    await services.tournaments.advance(view.id)
    assert len(outlet.resent) == 1
