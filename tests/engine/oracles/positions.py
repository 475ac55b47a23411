"""Random legal positions for the cross-checks (plain ``random.Random``, reproducible by seed).

A position is legal here when: pieces only on the variant's playable squares; at most the
variant's number of pieces per side (16 orthogonal, 12 diagonal), at least one each; no man
on its own crowning rank. Kings of both sides, either side to move.
"""

from __future__ import annotations

import random

from .board import FILES, ORTHOGONAL_VARIANTS, Board, coords, crowning_rank, playable_squares


def men_per_side(variant: str) -> int:
    return 16 if variant in ORTHOGONAL_VARIANTS else 12


def random_position(rng: random.Random, variant: str, king_share: float = 0.3) -> tuple[Board, str]:
    squares = playable_squares(variant)
    rng.shuffle(squares)
    most = men_per_side(variant)
    counts = {"w": rng.randint(1, most), "b": rng.randint(1, most)}
    board: Board = {}
    for colour, count in counts.items():
        for _ in range(count):
            sq = squares.pop()
            king = rng.random() < king_share or coords(sq)[1] == crowning_rank(colour)
            board[sq] = colour.upper() if king else colour
    return board, rng.choice("wb")


def random_cluster(rng: random.Random, variant: str, size: int = 5) -> tuple[Board, str]:
    """A crowded corner of the board: long capture chains, kings among the victims (the
    Italian ladder's later steps, loops, routes merging), rare in uniform positions."""
    f0, r0 = rng.randint(0, 8 - size), rng.randint(0, 8 - size)
    window = [
        s
        for s in playable_squares(variant)
        if f0 <= coords(s)[0] < f0 + size and r0 <= coords(s)[1] < r0 + size
    ]
    rng.shuffle(window)
    side = rng.choice("wb")
    board: Board = {}
    movers = rng.randint(1, 2)
    victims = rng.randint(2, min(len(window) - movers, 12))
    enemy = "b" if side == "w" else "w"
    for colour, count, king_share in ((side, movers, 0.7), (enemy, victims, 0.5)):
        for _ in range(count):
            sq = window.pop()
            king = rng.random() < king_share or coords(sq)[1] == crowning_rank(colour)
            board[sq] = colour.upper() if king else colour
    return board, side


def random_chains(rng: random.Random, variant: str) -> tuple[Board, str]:
    """A piece of the side to move with a tree of capture chains laid out from its square
    (victims men or kings at random, landing squares kept empty), chains that cross and
    share squares, plus a few loose pieces: positions where the precedence rules (maximum
    capture, every step of the Italian ladder) and move identity decide."""
    diagonal = variant not in ORTHOGONAL_VARIANTS
    squares = set(playable_squares(variant))
    side = rng.choice("wb")
    enemy = "b" if side == "w" else "w"
    start = rng.choice(sorted(squares))
    king = rng.random() < 0.7 or coords(start)[1] == crowning_rank(side)
    board: Board = {start: side.upper() if king else side}
    empty: set[str] = {start}
    directions = (
        [(1, 1), (1, -1), (-1, 1), (-1, -1)] if diagonal else [(1, 0), (-1, 0), (0, 1), (0, -1)]
    )
    flying = king and variant != "italian"
    nodes = [start]  # chains branch from the start or from any landing square laid so far
    for _ in range(rng.randint(2, 5)):
        f, r = coords(rng.choice(nodes))
        for _ in range(rng.randint(1, 4)):
            df, dr = rng.choice(directions)
            gap = rng.randint(0, 2) if flying else 0
            vf, vr = f + df * (gap + 1), r + dr * (gap + 1)
            lf, lr = vf + df, vr + dr
            if not (0 <= lf < 8 and 0 <= lr < 8 and 0 <= vf < 8 and 0 <= vr < 8):
                break
            victim, land = FILES[vf] + str(vr + 1), FILES[lf] + str(lr + 1)
            if victim in empty or land in board or victim not in squares:
                break
            if victim not in board:
                vking = rng.random() < 0.5 or coords(victim)[1] == crowning_rank(enemy)
                board[victim] = enemy.upper() if vking else enemy
            empty.add(land)
            nodes.append(land)
            f, r = lf, lr
    for _ in range(rng.randint(0, 4)):  # loose pieces of both sides
        sq = rng.choice(sorted(squares - set(board) - empty))
        colour = rng.choice("wb")
        king = rng.random() < 0.4 or coords(sq)[1] == crowning_rank(colour)
        board[sq] = colour.upper() if king else colour
    if not any(p.lower() == enemy for p in board.values()):
        sq = rng.choice(sorted(squares - set(board) - empty))
        board[sq] = enemy.upper()
    return board, side
