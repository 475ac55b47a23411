"""`TournamentPosts`: every post of a tournament is made once, through the claimed-post
ledger (docs/ARCHITECTURE.md, "Services and their events", "Posting once"): claim
(tournament, kind, key), send it through the outlet (which derives the message's nonce
from the same key, so a resend after a crash is the first message), record its id. A
claim found with its message id recorded is not sent again."""

from __future__ import annotations

import logging

from bot.faults import FaultPoint, reach
from bot.services.tournaments.core import TournamentCore
from bot.services.tournaments.values import Post, TournamentView, notice_of, post_key

log = logging.getLogger(__name__)


class TournamentPosts:
    """Posts once (`post`) and refreshes the sign-up post (`refresh_signup`)."""

    def __init__(self, core: TournamentCore) -> None:
        self._core = core
        self._recorded: set[tuple[int, str, str]] = set()
        """The posts this process saw recorded (no need to claim them again)."""

    async def post(self, view: TournamentView, post: Post) -> int | None:
        """Post `post` unless its ledger row has a message: returns the message id (the
        recorded one when it was posted before), None when the outlet failed (logged;
        the claim stays, and the next call sends it again with the same nonce)."""
        key = post_key(post)
        seen = (view.id, key.kind.value, key.key)
        repo = self._core.repo
        claim = await repo.claim_post(view.id, key.kind.value, key.key)
        if claim.message_id is not None:
            self._recorded.add(seen)
            return claim.message_id
        reach(FaultPoint.TOURNAMENT_POST_CLAIMED)
        try:
            message_id = await self._core.outlet.post(view, post)
        except Exception:
            log.exception("tournament %s: posting %s %r failed", view.id, key.kind, key.key)
            return None
        reach(FaultPoint.TOURNAMENT_POST_SENT)
        await repo.set_post_message(view.id, key.kind.value, key.key, message_id)
        self._recorded.add(seen)
        return message_id

    def recorded(self, view: TournamentView, post: Post) -> bool:
        """Whether this process saw `post` recorded (then `post` need not be asked)."""
        key = post_key(post)
        return (view.id, key.kind.value, key.key) in self._recorded

    async def post_owed_notices(self, view: TournamentView) -> None:
        """Post every notice of the tournament claimed in the ledger and not recorded
        (its process killed after the status change that claimed it, or after the
        claim, or after the send: then the nonce returns the first message). The other
        kinds are left to the reconciler, which derives them from the stored state."""
        for claim in await self._core.repo.unrecorded_posts(view.id):
            notice = notice_of(claim.kind, claim.key)
            if notice is not None:
                await self.post(view, notice)

    async def refresh_signup(self, view: TournamentView) -> None:
        """`refresh_signup` with this service's core."""
        await refresh_signup(self._core, view)


async def refresh_signup(core: TournamentCore, view: TournamentView) -> None:
    """Show the sign-up post as `view` is now (nothing before it is posted); errors are
    logged (the post is only a picture of the stored state)."""
    if view.post_message_id is None:
        return
    try:
        await core.outlet.edit_signup(view)
    except Exception:
        log.exception("tournament %s: editing the sign-up post failed", view.id)
