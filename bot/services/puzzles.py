"""Puzzles for one solver at a time: `/puzzle` starts one, `/solve` answers it move by
move, the bot plays the forced defence; hints, reveals, Glicko-2 ratings of players and
puzzles, streaks, and the daily puzzle of a server. Plain values, no Discord.

A puzzle belongs to its solver (a session per user id), not to a channel: a game in the
channel is never touched. The session is stored (`PuzzleRepository.session`, migration
0008) and every step writes it, so a restarted bot, or another process serving the same
solver, continues it where it was; a rated result is recorded in the same transaction as
the step that settles it, so exactly once. A stored puzzle the shipped bank no longer holds
as it was given (the bank was regenerated) is ended with a message saying so.

Rating (as lichess rates puzzles): the player and the puzzle each have a Glicko-2 rating
(`bot.ratings.glicko2`); an attempt is one game between them, rated once, the first time
the player meets the puzzle: a loss at the first wrong answer or when the solution is
revealed, a win when the last move is found with no wrong answer and no hint (a hinted
solve counts as a loss). A puzzle's rating starts at the bank's estimate
(`puzzles.mining.initial_rating`) with deviation `PUZZLE_START_DEVIATION`. The streak
counts rated puzzles solved in a row.
"""

from __future__ import annotations

import asyncio
import hashlib
import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import date

from bot.faults import FaultPoint, reach
from bot.messages import VARIANT_NAMES_IN_SENTENCE, Msg
from bot.ratings import Glicko2Rating, rate_game
from bot.services.challenges import variant_key
from bot.services.errors import PlayerError
from bot.services.games import parse_player_move, suggest_moves
from bot.services.models import MoveChoice
from engine import (
    VARIANTS,
    Color,
    Move,
    Position,
    Variant,
    format_move,
    get_variant,
    parse_move,
)
from engine.movegen import legal_moves, play_unchecked
from engine.squares_board import square_name_of
from puzzles import Puzzle, load_bank
from storage.errors import PuzzleSessionChangedError
from storage.models import (
    DailyPuzzleSetting,
    PuzzleAttempt,
    PuzzleRating,
    PuzzleResult,
    PuzzleSession,
    RatingValue,
)
from storage.repositories import PuzzleRecording, PuzzleRepository

PUZZLE_START_DEVIATION = 300.0
"""A new puzzle's rating deviation: its bank rating is an estimate, but a better one than a
new player's 1500 (deviation 500)."""

NEAREST = 12
"""`/puzzle` picks at random among this many unseen puzzles nearest the player's rating."""


def rate_attempt(
    player: RatingValue | None, puzzle: RatingValue, solved: bool
) -> tuple[RatingValue, RatingValue, RatingValue]:
    """One Glicko-2 game between the player (None: a new player) and the puzzle, won by the
    player when `solved` (`bot.ratings.rate_game`, lichess's constants). Returns the
    player's rating going in, the player's after and the puzzle's after."""
    p = Glicko2Rating.initial() if player is None else Glicko2Rating(
        player.rating, player.deviation, player.volatility)
    q = Glicko2Rating(puzzle.rating, puzzle.deviation, puzzle.volatility)
    mine, theirs = rate_game(p, q, 1.0 if solved else 0.0)
    return (RatingValue(mine.before.rating, mine.before.deviation, mine.before.volatility),
            RatingValue(mine.after.rating, mine.after.deviation, mine.after.volatility),
            RatingValue(theirs.after.rating, theirs.after.deviation, theirs.after.volatility))


@dataclass
class _Session:
    """A stored session with its puzzle and the position its plies lead to."""

    stored: PuzzleSession
    puzzle: Puzzle
    variant: Variant
    position: Position
    before: Position | None = None
    last_move: Move | None = None
    rating: int = 0
    """The puzzle's own rating now (`PuzzleService.rating_of`), for the view."""

    @property
    def index(self) -> int:
        """The ply of the solution to play next."""
        return self.stored.plies


@dataclass(frozen=True)
class PuzzleState:
    """What the solver sees: the puzzle, the position now, the solver's colour (the side at
    the bottom of the picture), the last move played (with the position before it, for the
    picture), how many of the solver's moves are found and to find, `marks` (the square
    of the piece to move, after a hint), whether the attempt is rated, and `rating`: the
    puzzle's own rating (Glicko-2, as solvers moved it), its bank rating before any
    attempt. `left`: the puzzle this one replaced unsolved after a hint, recorded as a
    rated loss now (`left_result`)."""

    puzzle: Puzzle
    variant: Variant
    position: Position
    solver: Color
    last_move: Move | None
    before: Position | None
    found: int
    total: int
    marks: tuple[int, ...] = ()
    rated: bool = True
    rating: int = 0
    left: str | None = None
    left_result: PuzzleResult | None = None


class SolveOutcome:
    """What an answer did (plain string constants, compared by identity of value)."""

    CORRECT = "correct"
    SOLVED = "solved"
    WRONG = "wrong"


@dataclass(frozen=True)
class SolveAnswer:
    """The answer to `/solve`: `outcome` (a `SolveOutcome` value), the move text the solver
    played (`played`), the defence the bot played (`defence`, when the line goes on), the
    view after it, and the rating change when this answer settled the rated result."""

    outcome: str
    played: str
    defence: str | None
    view: PuzzleState
    result: PuzzleResult | None


@dataclass(frozen=True)
class Reveal:
    """The rest of the solution (full move texts, from the solver's current position), the
    view of the position at the puzzle's end, and the rating change when recorded now."""

    moves: tuple[str, ...]
    view: PuzzleState
    result: PuzzleResult | None


class PuzzleService:
    """Puzzle sessions, ratings and daily puzzles. `banks`: the puzzles per variant key
    (default: the shipped banks, `puzzles.load_bank`); `seed`: the random picks (tests)."""

    def __init__(
        self,
        repository: PuzzleRepository,
        *,
        banks: Mapping[str, Sequence[Puzzle]] | None = None,
        seed: int | None = None,
        today: Callable[[], date] | None = None,
    ) -> None:
        self._repo = repository
        if banks is None:
            banks = {key: load_bank(key) for key in VARIANTS}
        self._banks = {k: tuple(v) for k, v in banks.items() if v}
        self._by_id = {p.id: p for bank in self._banks.values() for p in bank}
        self._rng = random.Random(seed)
        self._lock = asyncio.Lock()

    @property
    def variants(self) -> tuple[str, ...]:
        """The variant keys that have puzzles."""
        return tuple(self._banks)

    def bank(self, variant: str) -> tuple[Puzzle, ...]:
        """The puzzles of `variant` (empty when none)."""
        return self._banks.get(variant, ())

    # --- starting ------------------------------------------------------------------------

    def _variant(self, name: str | None) -> str:
        if name is None:
            if not self._banks:
                raise PlayerError(Msg.PUZZLE_NO_BANK_ANY)
            return self._rng.choice(sorted(self._banks))
        key = variant_key(name)
        if key not in self._banks:
            raise PlayerError(Msg.PUZZLE_NO_BANK,
                              variant_in_sentence=VARIANT_NAMES_IN_SENTENCE[key])
        return key

    async def start(self, user_id: int, variant: str | None = None) -> PuzzleState:
        """Give the user a new puzzle of `variant` (None: any variant with puzzles), the
        unseen one nearest their rating (at random among the `NEAREST` nearest); a puzzle
        already met is given again only when all were, unrated. Replaces the user's
        unfinished puzzle (continues it when it is the one picked). Raises `PlayerError`
        UNKNOWN_VARIANT, PUZZLE_NO_BANK (PUZZLE_NO_BANK_ANY without any puzzle)."""
        key = self._variant(variant)
        rating = await self._repo.rating(user_id, key)
        seen = await self._repo.attempted(user_id, key)
        target = 1500.0 if rating is None else rating.value.rating
        current = await self._repo.puzzle_ratings(key)

        def rating_of(p: Puzzle) -> float:
            value = current.get(p.id)
            return float(p.rating) if value is None else value.rating

        pool = [p for p in self._banks[key] if p.id not in seen] or list(self._banks[key])
        pool.sort(key=lambda p: (abs(rating_of(p) - target), p.id))
        puzzle = self._rng.choice(pool[:NEAREST])
        return await self._begin(user_id, puzzle, rated=puzzle.id not in seen)

    def daily_puzzle(self, day: date, variant: str | None = None) -> Puzzle:
        """The puzzle of `day` (the same for every server and process): of `variant`, or of
        the variants with puzzles in turn by day when None. Raises PlayerError
        PUZZLE_NO_BANK (PUZZLE_NO_BANK_ANY without any puzzle) when there is none."""
        if variant is None:
            if not self._banks:
                raise PlayerError(Msg.PUZZLE_NO_BANK_ANY)
            keys = sorted(self._banks)
            variant = keys[day.toordinal() % len(keys)]
        bank = self._banks.get(variant)
        if not bank:
            raise PlayerError(Msg.PUZZLE_NO_BANK,
                              variant_in_sentence=VARIANT_NAMES_IN_SENTENCE.get(variant, variant))
        digest = hashlib.sha256(f"{variant}|{day.isoformat()}".encode()).digest()
        return bank[int.from_bytes(digest[:8], "big") % len(bank)]

    async def rating_of(self, puzzle: Puzzle) -> int:
        """`puzzle`'s own rating now (as solvers moved it), its bank rating before any
        attempt."""
        stats = await self._repo.stats(puzzle.id)
        return puzzle.rating if stats is None else round(stats.value.rating)

    @staticmethod
    def preview(puzzle: Puzzle, rating: int | None = None) -> PuzzleState:
        """The view of `puzzle`'s start position (the daily post), showing `rating` (see
        `rating_of`; default the bank's)."""
        position = puzzle.position()
        return PuzzleState(puzzle, get_variant(puzzle.variant), position, position.turn, None,
                          None, 0, puzzle.solver_moves,
                          rating=puzzle.rating if rating is None else rating)

    async def start_puzzle(self, user_id: int, puzzle_id: str) -> PuzzleState:
        """Give the user the puzzle `puzzle_id` (the daily puzzle's button; continued where
        the user was when it is the one under way). Raises
        PlayerError PUZZLE_UNKNOWN for an id no bank holds."""
        p = self._by_id.get(puzzle_id)
        if p is None:
            raise PlayerError(Msg.PUZZLE_UNKNOWN, puzzle=puzzle_id)
        seen = await self._repo.attempted(user_id, p.variant)
        return await self._begin(user_id, p, rated=p.id not in seen)

    async def _begin(self, user_id: int, puzzle: Puzzle, *, rated: bool) -> PuzzleState:
        """Start `puzzle` for the user, or continue it when it is the one under way (its
        hint, wrong answer and plies found stay: starting over never sheds a hint). A
        rated puzzle under way left after a hint is recorded a loss first. Raises
        PlayerError PUZZLE_CHANGED (the puzzle left moved on meanwhile)."""
        rating = await self.rating_of(puzzle)
        async with self._lock:
            current = await self._repo.session(user_id)
            left: str | None = None
            left_result: PuzzleResult | None = None
            if current is not None:
                s = await asyncio.to_thread(self._restore, current)
                if s is not None and current.puzzle_id == puzzle.id:
                    s.rating = rating
                    return self._view(s)
                if s is not None and current.hinted:
                    # The hint said a solve counts as a loss: leaving is no better (else
                    # the puzzle, never recorded, comes back rated with its hint known).
                    recording = self._recording(s, solved=False)
                    left_result = await self._step(current, finished=True,
                                                   recording=recording)
                    left = current.puzzle_id if left_result is not None else None
            stored = await self._repo.start_session(user_id, puzzle.id, puzzle.variant,
                                                    puzzle.solution, rated=rated)
            view = self._view(_Session(stored, puzzle, get_variant(puzzle.variant),
                                       puzzle.position(), rating=rating))
            return replace(view, left=left, left_result=left_result)

    # --- the stored session ----------------------------------------------------------------

    def _restore(self, stored: PuzzleSession) -> _Session | None:
        """The session with its position after its plies, None when the bank no longer
        holds its puzzle as it was given (same id, variant and solution line)."""
        puzzle = self._by_id.get(stored.puzzle_id)
        if (puzzle is None or puzzle.variant != stored.variant
                or puzzle.solution != stored.solution
                or not 0 <= stored.plies < len(puzzle.solution)):
            return None
        variant = get_variant(puzzle.variant)
        s = _Session(stored, puzzle, variant, puzzle.position())
        for text in puzzle.solution[:stored.plies]:
            move = parse_move(text, s.position, variant)
            s.before, s.last_move = s.position, move
            s.position = play_unchecked(s.position, move, s.variant)
        return s

    async def _load(self, user_id: int, puzzle_id: str | None = None) -> _Session:
        """The user's session as stored (of puzzle `puzzle_id`, unless None). Raises
        PlayerError PUZZLE_NONE (none under way), PUZZLE_NOT_SHOWN (another puzzle is under
        way than `puzzle_id`), PUZZLE_GONE (its puzzle is gone from the bank: the session
        is ended), PUZZLE_CHANGED (it changed while being ended)."""
        stored = await self._repo.session(user_id)
        if stored is None:
            raise PlayerError(Msg.PUZZLE_NONE)
        if puzzle_id is not None and stored.puzzle_id != puzzle_id:
            raise PlayerError(Msg.PUZZLE_NOT_SHOWN, puzzle=puzzle_id, current=stored.puzzle_id)
        s = await asyncio.to_thread(self._restore, stored)
        if s is None:
            await self._step(stored, finished=True)
            raise PlayerError(Msg.PUZZLE_GONE, puzzle=stored.puzzle_id)
        s.rating = await self.rating_of(s.puzzle)
        return s

    async def _step(
        self, stored: PuzzleSession, *, finished: bool = False,
        recording: PuzzleRecording | None = None,
    ) -> PuzzleResult | None:
        """Store the session's next state (`PuzzleRepository.step_session`). Raises
        PlayerError PUZZLE_CHANGED when another task or process stepped it meanwhile
        (nothing of this step was stored)."""
        try:
            _, result = await self._repo.step_session(stored, finished=finished,
                                                      recording=recording)
        except PuzzleSessionChangedError:
            raise PlayerError(Msg.PUZZLE_CHANGED) from None
        reach(FaultPoint.PUZZLE_COMMITTED)
        return result

    @staticmethod
    def _recording(s: _Session, *, solved: bool, revealed: bool = False
                   ) -> PuzzleRecording | None:
        """The rated attempt to record with this step: None when the attempt is unrated or
        its result is recorded already (at the first wrong answer)."""
        if not s.stored.rated or s.stored.failed:
            return None
        start = RatingValue(float(s.puzzle.rating), PUZZLE_START_DEVIATION, 0.09)
        attempt = PuzzleAttempt(s.stored.user_id, s.puzzle.id, s.puzzle.variant, solved,
                                s.stored.hinted, revealed)
        return PuzzleRecording(attempt, start, rate_attempt)

    def _view(self, s: _Session, marks: tuple[int, ...] = ()) -> PuzzleState:
        total = s.puzzle.solver_moves
        return PuzzleState(s.puzzle, s.variant, s.position, s.puzzle.position().turn,
                          s.last_move, s.before, (s.index + 1) // 2, total, marks,
                          s.stored.rated, s.rating)

    def _expected(self, s: _Session) -> Move:
        return parse_move(s.puzzle.solution[s.index], s.position, s.variant)

    @staticmethod
    def _advance(s: _Session, move: Move) -> None:
        s.before, s.last_move = s.position, move
        s.position = play_unchecked(s.position, move, s.variant)
        s.stored = replace(s.stored, plies=s.stored.plies + 1)

    # --- answering -----------------------------------------------------------------------

    async def solve(self, user_id: int, text: str) -> SolveAnswer:
        """The solver's move `text` in their puzzle. The solution's move: played, then the
        forced defence (CORRECT), or the puzzle is solved (SOLVED, rated now when it is
        rated and not yet). Another legal move: WRONG, nothing played, the solver may try
        again (the attempt is rated a loss now); after a hint its view keeps the hint's mark
        on the piece to move (the session stores that a hint was asked, not for which
        move: the mark is on the piece of the move to find now). Each step is stored
        before it is answered (module docstring). Raises PlayerError PUZZLE_NONE (no
        puzzle under way), PUZZLE_GONE, PUZZLE_CHANGED, a move's refusal
        (`problem_error`), MOVE_AMBIGUOUS."""
        async with self._lock:
            s = await self._load(user_id)
            move = await asyncio.to_thread(parse_player_move, text, s.position, s.variant)
            played = format_move(move, s.position, s.variant)
            expected = self._expected(s)
            if move != expected:
                marks = (expected.start,) if s.stored.hinted else ()
                if s.stored.failed:
                    return SolveAnswer(SolveOutcome.WRONG, played, None,
                                       self._view(s, marks), None)
                recording = self._recording(s, solved=False)
                s.stored = replace(s.stored, failed=True)
                result = await self._step(s.stored, recording=recording)
                return SolveAnswer(SolveOutcome.WRONG, played, None, self._view(s, marks),
                                   result)
            self._advance(s, move)
            if s.index >= len(s.puzzle.solution):
                recording = self._recording(s, solved=not s.stored.hinted)
                result = await self._step(s.stored, finished=True, recording=recording)
                return SolveAnswer(SolveOutcome.SOLVED, played, None, self._view(s), result)
            defence = parse_move(s.puzzle.solution[s.index], s.position, s.variant)
            defence_text = format_move(defence, s.position, s.variant)
            self._advance(s, defence)
            await self._step(s.stored)
            return SolveAnswer(SolveOutcome.CORRECT, played, defence_text, self._view(s), None)

    async def hint(self, user_id: int, puzzle_id: str) -> tuple[str, PuzzleState]:
        """The square of the piece the solver should move (its name) and the view with it
        marked. From now on a solve counts as a loss (stored). `puzzle_id`: the puzzle the
        pressed button's message shows. Raises PlayerError
        PUZZLE_NONE, PUZZLE_GONE, PUZZLE_CHANGED, PUZZLE_NOT_SHOWN (another puzzle is under
        way than `puzzle_id`: nothing done)."""
        async with self._lock:
            s = await self._load(user_id, puzzle_id)
            if not s.stored.hinted:
                await self._step(replace(s.stored, hinted=True))
            start = self._expected(s).start
            return square_name_of(start, s.variant), self._view(s, marks=(start,))

    async def reveal(self, user_id: int, puzzle_id: str) -> Reveal:
        """Show the rest of the solution and end the puzzle (a loss when rated and not yet
        recorded, in the same transaction). `puzzle_id` as for `hint`. Raises PlayerError
        PUZZLE_NONE, PUZZLE_GONE, PUZZLE_CHANGED, PUZZLE_NOT_SHOWN."""
        async with self._lock:
            s = await self._load(user_id, puzzle_id)
            recording = self._recording(s, solved=False, revealed=True)
            read = s.stored
            rest: list[str] = []
            while s.index < len(s.puzzle.solution):
                move = self._expected(s)
                rest.append(format_move(move, s.position, s.variant))
                self._advance(s, move)
            result = await self._step(read, finished=True, recording=recording)
            return Reveal(tuple(rest), self._view(s), result)

    async def suggestion_source(
        self, user_id: int
    ) -> tuple[Position, Variant, tuple[Move, ...]] | None:
        """What `/solve`'s autocomplete needs (the position, variant and legal moves of the
        user's stored puzzle), None without a puzzle under way (or with one the bank no
        longer holds: `/solve` says so). Writes nothing."""
        stored = await self._repo.session(user_id)
        if stored is None:
            return None

        def source() -> tuple[Position, Variant, tuple[Move, ...]] | None:
            s = self._restore(stored)
            if s is None:
                return None
            return s.position, s.variant, tuple(legal_moves(s.position, s.variant))

        return await asyncio.to_thread(source)

    async def suggestions(self, user_id: int, typed: str, numeric: bool = True) -> list[MoveChoice]:
        """`/solve`'s autocomplete choices (as `/move`'s, `suggest_moves`: an Italian
        choice labelled in both forms, the reader's first; `numeric`: numbers first)."""
        source = await self.suggestion_source(user_id)
        if source is None:
            return []
        return await asyncio.to_thread(suggest_moves, *source, typed, numeric)

    async def rating(self, user_id: int, variant: str) -> PuzzleRating | None:
        """The user's puzzle rating in `variant`."""
        return await self._repo.rating(user_id, variant)

    async def set_daily(self, guild_id: int, channel_id: int, variant: str | None,
                        set_by: int) -> DailyPuzzleSetting:
        """Post server `guild_id`'s daily puzzle (of `variant`, None: any) in
        `channel_id` from now on, as user `set_by` chose; returns the setting. Replaces
        an earlier choice; a day already posted is not posted again
        (`PuzzleRepository.set_daily`)."""
        return await self._repo.set_daily(guild_id, channel_id, variant, set_by)

    async def stop_daily(self, guild_id: int) -> bool:
        """Stop server `guild_id`'s daily puzzle; False when it had none."""
        return await self._repo.clear_daily(guild_id)
