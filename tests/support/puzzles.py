"""Hand-made puzzle positions (Italian draughts), solved by hand, and a bank built of them.

`SHOT`: White to move. 1. c4-d5! gives a man; Black must capture it, either 1... c6xe4,
when 2. f3xd5xf7 takes e4 and e6, or 1... e6xc4, when 2. b3xd5xb7 takes c4 and c6: two
for one either way (White's a2 and g2 stop Black's capture from going on to a2 or g2;
Black's e8 cannot take back on f7 because g6 is occupied, and nothing can reach b7).
Every other white move wins nothing: b3-a4, f3-e4, f3-g4, g2-h3 are quiet, and c4-b5 loses
the man to a6xc4 with no return.

`SHOT_BEFORE`: the position one ply earlier, Black to move; Black's f7-e6 walks into it.

`TWO_WINS`: White to move. White's kings on c4 and e4 can each take Black's king on d5
(c4xe6 or e4xc6; men cannot take kings in Italian draughts, so no black man can take back):
two moves win the same king, so it is no puzzle.
"""

from __future__ import annotations

from puzzles import Puzzle, PuzzleSource

SHOT = "W:Wa2,b3,c4,f3,g2:Ba6,c6,e6,g6,e8"
SHOT_BEFORE = "B:Wa2,b3,c4,f3,g2:Ba6,c6,f7,g6,e8"
SHOT_LINES = {("c4-d5", "c6xe4", "f3xd5xf7"), ("c4-d5", "e6xc4", "b3xd5xb7")}
TWO_WINS = "W:Wa2,g2,Kc4,Ke4:Ba6,g6,c8,e8,Kd5"


def shot_puzzle(solution: tuple[str, ...] = ("c4-d5", "c6xe4", "f3xd5xf7")) -> Puzzle:
    """The `SHOT` puzzle as a bank holds it (rating 1200)."""
    return Puzzle(
        id="italian-0000000001", variant="italian", fen=SHOT, solution=solution,
        rating=1200, score=200, runner_up=0, verify_depth=6,
        source=PuzzleSource("pdn", "hand-made.pdn#1", 1, "a test position"),
    )
