"""`TournamentOutlet`: where the tournament service's posts and threads go. The Discord
layer implements it (`bot.ui.tournaments`); the tests give a collector
(`tests/support/services.py`). The service calls it outside any lock and records what it
returns; every post is claimed in the ledger first (`PostKey`), so the outlet sends it
with a nonce derived from (tournament, kind, key) and Discord's `enforce_nonce`: a post
sent again after a crash between sending and recording is the first message, not a
second one."""

from __future__ import annotations

from typing import Protocol

from bot.services.tournaments.values import Post, TournamentView


class TournamentOutlet(Protocol):
    """Opens the tournament's threads and posts its news, worded in the server's
    language."""

    async def open_tournament_thread(self, view: TournamentView) -> int:
        """Open the tournament's thread (from its sign-up post, in `view.channel_id`);
        returns the thread's id. Called once per tournament: the id is recorded at once
        (a crash between opening and recording leaves at most one empty thread)."""
        ...

    async def open_game_thread(self, view: TournamentView, round: int, board: int,
                               white: int, black: int) -> int:
        """Open the thread of board `board` of round `round` between the user ids `white`
        and `black`, under `view.channel_id`; returns its id (recorded at once, as
        above). The game's boards are then posted in it by the game announcer."""
        ...

    async def post(self, view: TournamentView, post: Post) -> int:
        """Post `post` (`SignUp` in `view.channel_id`, the others in `view.thread_id`,
        or in `view.channel_id` when the tournament has no thread: `Cancelled` before
        the start) with the nonce of `post_key(post)`; returns the message id."""
        ...

    async def edit_signup(self, view: TournamentView) -> None:
        """Show the sign-up post (`view.post_message_id`) as `view` is now: the entrants,
        the status (its Join and Leave buttons gone once sign-up is over)."""
        ...
