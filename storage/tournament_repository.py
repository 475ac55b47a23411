"""The interface of the tournaments' storage (`TournamentRepository`, a `typing.Protocol`,
implemented by `storage.tournaments.SqlTournamentRepository`), apart from
`storage.repositories` for its length; `storage.repositories` and `storage` export it.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import datetime
from typing import Protocol

from storage.models import GameRecord, NewGame
from storage.tournament_models import (
    EntrantRecord,
    NewTournament,
    PairingRecord,
    TournamentPost,
    TournamentRecord,
    TournamentRoundRecord,
    TournamentStatus,
)

NumberedEntrant = tuple[int, int | None, int]
"""(user id, rating at the start or None, pairing number) of `TournamentRepository.start`."""

BoardPairing = tuple[int, int, int]
"""(board, White's user id, Black's user id) of `TournamentRepository.add_round`."""

RoundBye = tuple[int, str]
"""(user id, kind: a value of `storage.tournament_models.BYE_KINDS`) of `add_round`."""


class TournamentRepository(Protocol):
    """Tournaments, their entrants, rounds, pairings, byes and posts (migration 0011;
    docs/STORAGE.md, "Tournaments"). The values are in `storage.tournament_models` (not
    `storage.models`, for its length; `storage` exports them all). The Protocol is in
    `storage.tournament_repository` (`storage.repositories` and `storage` export it).

    A played game's result is the game's row (`games`), read into `PairingRecord` by a
    join; only a forfeit is stored on a pairing. The `revision` of a tournament changes
    with every write of the tournament row, its entrants or its rounds (`create` gives
    0); a conditional write (`start`, `add_round`, `set_status`) names the revision it was
    computed from and raises `StaleTournamentError`, writing nothing, when the stored one
    (or the status) differs. The pairing-level writes (`start_pairing_game`,
    `set_pairing_thread`, `set_forfeit`) and the post ledger do not change the revision:
    they are guarded by their own rows. Every method raises `TournamentNotFoundError` for
    an unknown tournament id."""

    async def create(self, new: NewTournament) -> TournamentRecord:
        """Store a tournament in sign-up at revision 0. Raises `TournamentChannelBusyError`
        (the channel has a tournament in sign-up, running or paused), `ValueError` (a value
        the schema refuses: a name not 1-100 characters, an unknown format, rounds or
        duration not matching the format, a move time or limit out of range)."""
        ...

    async def get(self, tournament_id: int) -> TournamentRecord | None:
        ...

    async def in_guild(self, guild_id: int, statuses: Iterable[TournamentStatus],
                       limit: int = 25) -> list[TournamentRecord]:
        """The server's tournaments in one of `statuses`, newest first, at most `limit`."""
        ...

    async def in_channel(self, channel_id: int) -> TournamentRecord | None:
        """The channel's tournament in sign-up, running or paused (one at most)."""
        ...

    async def by_event(self, event_id: int) -> TournamentRecord | None:
        """The tournament of a Discord scheduled event (its "Interested" signs up)."""
        ...

    async def due_to_start(self, now: datetime) -> list[TournamentRecord]:
        """Every tournament in sign-up whose start time is at or before `now`, soonest
        first (the scheduler starts them; the service keeps those of its shards)."""
        ...

    async def running(self) -> list[TournamentRecord]:
        """Every tournament running or paused, oldest first (restore; the service keeps
        those of its shards)."""
        ...

    async def posts_owed(self) -> list[TournamentRecord]:
        """Every tournament that owes a post, whatever its status, oldest first (restore;
        the service keeps those of its shards): a finished one whose final post is not
        recorded (the process that finished it was killed before: never claimed, claimed
        and not sent, or sent and not recorded), and one with any claim of the ledger
        whose message is not recorded (a notice claimed with its status change by
        `set_status`, say, its process killed before the post was recorded)."""
        ...

    async def history(self, guild_id: int, limit: int = 25) -> list[TournamentRecord]:
        """The server's finished tournaments, latest finish first, at most `limit`."""
        ...

    async def set_post(self, tournament_id: int, message_id: int) -> TournamentRecord:
        """Record the sign-up post; returns the tournament (its revision +1)."""
        ...

    async def set_thread(self, tournament_id: int, thread_id: int) -> TournamentRecord:
        """Record the tournament's thread; returns the tournament (its revision +1)."""
        ...

    async def set_event(self, tournament_id: int, event_id: int | None) -> TournamentRecord:
        """Record (or, None, forget) the Discord scheduled event; revision +1."""
        ...

    async def join(self, tournament_id: int, user_id: int, display_name: str | None,
                   now: datetime, *, rating: int | None = None) -> EntrantRecord:
        """Enter the player (their player row is made or its display name updated) and
        bump the revision. A player who left is made active again (the same row, joined
        again at `now`; in a running arena they keep their number). In sign-up the
        entrant has no rating nor number; joining a running arena gives them `rating` and
        the next pairing number (the highest + 1). An entrant already active: returned
        as is, nothing written. Raises `EntryRefusedError` with `EntryRefusal.CLOSED`
        (not in sign-up and not a running or paused arena), `FULL` (the player limit is
        reached by the active entrants), `REMOVED` (the organiser removed them)."""
        ...

    async def leave(self, tournament_id: int, user_id: int) -> EntrantRecord:
        """The entrant leaves (paired no more; their games stay; `left_at` is the
        repository's clock); revision +1. Leaving
        twice returns the row as is; a removed entrant stays removed. Raises
        `EntrantNotFoundError`, `EntryRefusedError` (`CLOSED`: the tournament is over)."""
        ...

    async def remove(self, tournament_id: int, user_id: int,
                     claim: tuple[str, str] | None = None) -> EntrantRecord:
        """The organiser removes the entrant (they cannot join again); revision +1.
        `claim` (kind, key): the notice's ledger claim, inserted in the same transaction
        (as `set_status`'s), none when the entrant was removed already. Raises as
        `leave`, and ValueError for a claim without its kind."""
        ...

    async def entrants(self, tournament_id: int) -> list[EntrantRecord]:
        """Every entrant whatever their status, in join order (then user id)."""
        ...

    async def start(self, tournament_id: int, expected_revision: int,
                    entrants_numbered: Sequence[NumberedEntrant], started_at: datetime,
                    ends_at: datetime | None) -> TournamentRecord:
        """Start the tournament in one transaction: status sign-up -> running,
        `started_at`, `ends_at` (the arena's end; None otherwise), each listed entrant's
        rating and pairing number; revision +1. Active entrants not listed keep no
        number. Raises `StaleTournamentError` (revision or status not what was read),
        `ValueError` (a listed user is not an active entrant, a number is repeated or
        below 1)."""
        ...

    async def add_round(self, tournament_id: int, expected_revision: int, number: int,
                        pairings: Sequence[BoardPairing], byes: Sequence[RoundBye],
                        paired_at: datetime) -> TournamentRoundRecord:
        """Store round `number` with its pairings and byes in one transaction (in an
        arena a round is one pairing batch: its number is the highest + 1); revision +1.
        Returns the round (no game yet). Raises `StaleTournamentError` (revision changed,
        the tournament is not running, or round `number` is paired already: of two
        concurrent pairings of a round one is stored), `ValueError` (a player twice in
        the round, a paired player who is not an active entrant, a bye of a non-entrant,
        a board number repeated or below 1, White and Black the same, an unknown bye
        kind, a round number below 1)."""
        ...

    async def rounds(self, tournament_id: int) -> list[TournamentRoundRecord]:
        """Every round in order, each with its pairings (by board, joined with their games'
        state) and byes (by user id); one read."""
        ...

    async def by_game(self, game_id: int) -> PairingRecord | None:
        """The pairing whose game this is (None: not a tournament game): what a game's end
        looks up."""
        ...

    async def start_pairing_game(self, tournament_id: int, round: int, board: int,
                                 new_game: NewGame) -> GameRecord:
        """Insert the pairing's game (as `GameRepository.create`) and link it to the
        pairing, in one transaction: the `store` callback handed to
        `GameService.start`. Raises `PairingNotFoundError`, `PairingTakenError` (the
        pairing has a game or a forfeit already: nothing written), `ChannelBusyError`,
        `ValueError` (the game's seats are not the pairing's White and Black, or as
        `GameRepository.create`)."""
        ...

    async def set_pairing_thread(self, tournament_id: int, round: int, board: int,
                                 thread_id: int) -> None:
        """Record the thread of the pairing's game. Raises `PairingNotFoundError`."""
        ...

    async def set_forfeit(self, tournament_id: int, round: int, board: int,
                          forfeit: str) -> PairingRecord:
        """Record that the pairing's game was not played: `forfeit` "+/-", "-/+" or "-/-"
        (`FORFEITS`). Allowed when the pairing has no game or its game was aborted; the
        same forfeit again changes nothing. Raises `PairingNotFoundError`,
        `PairingTakenError` (its game is under way or finished, or another forfeit is
        recorded), `ValueError` (not a forfeit value)."""
        ...

    async def finish_round(self, tournament_id: int, number: int,
                           finished_at: datetime) -> TournamentRoundRecord:
        """Mark the round finished (a second call keeps the first time); revision +1 when
        it changed. Raises `PairingNotFoundError` (no such round)."""
        ...

    async def set_round_messages(self, tournament_id: int, number: int, *,
                                 pairings_message_id: int | None = None,
                                 results_message_id: int | None = None) -> None:
        """Record the messages that posted the round's pairings and results (those given).
        Raises `PairingNotFoundError` (no such round)."""
        ...

    async def set_status(self, tournament_id: int, expected_revision: int,
                         status: TournamentStatus, now: datetime,
                         ends_at: datetime | None = None,
                         claim: tuple[str, str] | None = None) -> TournamentRecord:
        """Pause (running -> paused, `paused_at` = now), resume (paused -> running),
        finish (running or paused -> finished) or cancel (sign-up, running or paused ->
        cancelled); `finished_at` = now when it ends; `ends_at`, when given, replaces the
        arena's end (a resume moves it on by the pause). Revision +1. `claim`, a (kind,
        key) of the ledger, is claimed as `claim_post` does in the same transaction (the
        change's notice: a kill after the change finds it claimed, so the restart sends
        it). Raises `StaleTournamentError` (revision not what was read, or the status no
        longer allows it: running is reached from paused only, sign-up -> running is
        `start`; nothing written, nothing claimed), `ValueError` (`status` is sign-up:
        nothing goes back to it; a claim without a kind)."""
        ...

    async def claim_post(self, tournament_id: int, kind: str, key: str) -> TournamentPost:
        """Claim the post (kind, key) in the ledger: inserted if absent; returns the row,
        its `message_id` None until `set_post_message` (a claim found without a message:
        send it, with the nonce of (tournament, kind, key), then record it)."""
        ...

    async def set_post_message(self, tournament_id: int, kind: str, key: str,
                               message_id: int) -> TournamentPost:
        """Record the message of a claimed post. Raises `TournamentPostNotFoundError`."""
        ...

    async def unrecorded_posts(self, tournament_id: int) -> list[TournamentPost]:
        """The tournament's claims whose message is not recorded, in the order they were
        claimed (then by kind and key): what the reconciler sends again."""
        ...
