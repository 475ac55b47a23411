"""The `Move` value."""

from __future__ import annotations

from dataclasses import dataclass

from engine.squares import square_name


@dataclass(frozen=True, slots=True, eq=False)
class Move:
    """A move: the start square, every landing square in order, the captured squares in order.

    Squares are ints 0..63 (a1 = 0, see `engine.squares`), 0..99 on the 10×10 board
    (`engine.squares10`); the move does not know its board. A quiet move has one landing and
    no captures. `landings[-1]` is where the piece ends.

    Equality and hashing follow the move identity of docs/RULES.md: two moves are equal when they
    have the same start, the same end and the same *set* of captured squares, whatever
    route (intermediate landings, order of captures) each records.
    """

    start: int
    landings: tuple[int, ...]
    captured: tuple[int, ...] = ()

    def __post_init__(self) -> None:
        if not self.landings:
            raise ValueError("a move needs at least one landing square")
        for sq in (self.start, *self.landings, *self.captured):
            if not 0 <= sq < 100:
                raise ValueError(f"square index {sq} is outside the board (0..63, 0..99)")

    @property
    def end(self) -> int:
        """The square where the moving piece ends."""
        return self.landings[-1]

    @property
    def is_capture(self) -> bool:
        """Whether the move captures at least one piece."""
        return bool(self.captured)

    @property
    def path(self) -> tuple[int, ...]:
        """The start square followed by every landing square."""
        return (self.start, *self.landings)

    @property
    def identity(self) -> tuple[int, int, frozenset[int]]:
        """(start, end, set of captured squares): what makes two moves the same move."""
        return (self.start, self.landings[-1], frozenset(self.captured))

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Move):
            return NotImplemented
        return self.identity == other.identity

    def __hash__(self) -> int:
        return hash(self.identity)

    def __str__(self) -> str:
        sep = "x" if self.captured else "-"
        return sep.join(square_name(sq) for sq in self.path)
