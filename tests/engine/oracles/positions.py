"""Random legal positions for the cross-checks (plain ``random.Random``, reproducible by seed).

A position is legal here when: pieces only on the variant's playable squares; at most the
variant's number of pieces per side (16 orthogonal, 12 diagonal on 8×8, 20 on the 10×10
board), at least one each; no man on its own crowning rank. Kings of both sides, either
side to move. Every generator plays on the variant's own board (`board.board_size`).
"""

from __future__ import annotations

import random

from .board import (
    ORTHOGONAL_VARIANTS,
    Board,
    board_size,
    coords,
    crowning_rank,
    name,
    on_board,
    playable_squares,
)


def men_per_side(variant: str) -> int:
    if board_size(variant) == 10:
        return 20
    return 16 if variant in ORTHOGONAL_VARIANTS else 12


def random_position(rng: random.Random, variant: str, king_share: float = 0.3) -> tuple[Board, str]:
    squares = playable_squares(variant)
    rng.shuffle(squares)
    most = men_per_side(variant)
    size = board_size(variant)
    counts = {"w": rng.randint(1, most), "b": rng.randint(1, most)}
    board: Board = {}
    for colour, count in counts.items():
        for _ in range(count):
            sq = squares.pop()
            king = rng.random() < king_share or coords(sq)[1] == crowning_rank(colour, size)
            board[sq] = colour.upper() if king else colour
    return board, rng.choice("wb")


def random_cluster(rng: random.Random, variant: str, size: int = 5) -> tuple[Board, str]:
    """A crowded corner of the board: long capture chains, kings among the victims (the
    Italian ladder's later steps, loops, routes merging), rare in uniform positions."""
    board_side = board_size(variant)
    f0, r0 = rng.randint(0, board_side - size), rng.randint(0, board_side - size)
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
            king = rng.random() < king_share or coords(sq)[1] == crowning_rank(colour, board_side)
            board[sq] = colour.upper() if king else colour
    return board, side


def random_chains(
    rng: random.Random, variant: str, victim_king_share: float = 0.5
) -> tuple[Board, str]:
    """A piece of the side to move with a tree of capture chains laid out from its square
    (victims men or kings at random, landing squares kept empty), chains that cross and
    share squares, plus a few loose pieces: positions where the precedence rules (maximum
    capture, every step of the Italian ladder) and move identity decide. Each victim is a
    king with probability `victim_king_share` (several kings on the capturing piece's
    paths make the Italian ladder's steps 3 and 4 disagree)."""
    diagonal = variant not in ORTHOGONAL_VARIANTS
    size = board_size(variant)
    squares = set(playable_squares(variant))
    side = rng.choice("wb")
    enemy = "b" if side == "w" else "w"
    start = rng.choice(sorted(squares))
    king = rng.random() < 0.7 or coords(start)[1] == crowning_rank(side, size)
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
            if not (on_board(lf, lr, size) and on_board(vf, vr, size)):
                break
            victim, land = name(vf, vr), name(lf, lr)
            if victim in empty or land in board or victim not in squares:
                break
            if victim not in board:
                vking = (
                    rng.random() < victim_king_share
                    or coords(victim)[1] == crowning_rank(enemy, size)
                )
                board[victim] = enemy.upper() if vking else enemy
            empty.add(land)
            nodes.append(land)
            f, r = lf, lr
    for _ in range(rng.randint(0, 4)):  # loose pieces of both sides
        sq = rng.choice(sorted(squares - set(board) - empty))
        colour = rng.choice("wb")
        king = rng.random() < 0.4 or coords(sq)[1] == crowning_rank(colour, size)
        board[sq] = colour.upper() if king else colour
    if not any(p.lower() == enemy for p in board.values()):
        sq = rng.choice(sorted(squares - set(board) - empty))
        board[sq] = enemy.upper()
    return board, side


def random_rival_chains(rng: random.Random, variant: str) -> tuple[Board, str]:
    """A piece of the side to move (a king more often than not) with two to four capture
    chains of the same length laid out from its square in different first directions,
    victims kings or men at random, plus a few loose pieces: rival captures of equal size
    that the Italian ladder's later steps (most kings, earliest king) must tell apart, and
    for flying kings rival routes of equal length."""
    diagonal = variant not in ORTHOGONAL_VARIANTS
    size = board_size(variant)
    squares = set(playable_squares(variant))
    side = rng.choice("wb")
    enemy = "b" if side == "w" else "w"
    start = rng.choice(
        sorted(sq for sq in squares if all(2 <= x <= size - 3 for x in coords(sq)))
    )
    king = rng.random() < 0.8 or coords(start)[1] == crowning_rank(side, size)
    board: Board = {start: side.upper() if king else side}
    empty: set[str] = {start}
    directions = (
        [(1, 1), (1, -1), (-1, 1), (-1, -1)] if diagonal else [(1, 0), (-1, 0), (0, 1), (0, -1)]
    )
    flying = king and variant != "italian"
    length = rng.randint(3, 4)
    firsts = rng.sample(directions, rng.randint(2, 4))
    for n, first in enumerate(firsts):
        # Kings in turn: the first chain king-man-man..., the second man-king-king..., the
        # others at random: where the most kings (step 3) and the earliest king (step 4)
        # choose differently. Each chain is laid whole or not at all (a few tries).
        pattern = [
            (lambda step: step == 0),
            (lambda step: step > 0),
        ][n] if n < 2 else (lambda step: rng.random() < 0.5)
        for _ in range(8):
            laid: list[tuple[str, str]] = []  # (victim, landing square)
            taken = set(empty)
            f, r = coords(start)
            for step in range(length):
                df, dr = first if step == 0 else rng.choice(directions)
                gap = rng.randint(0, 1) if flying else 0
                vf, vr = f + df * (gap + 1), r + dr * (gap + 1)
                lf, lr = vf + df, vr + dr
                if not (on_board(lf, lr, size) and on_board(vf, vr, size)):
                    break
                victim, land = name(vf, vr), name(lf, lr)
                if victim in taken or land in board or victim not in squares:
                    break
                if any(land == v for v, _ in laid):
                    break
                laid.append((victim, land))
                taken.add(land)
                f, r = lf, lr
            if len(laid) < length:
                continue
            for step, (victim, land) in enumerate(laid):
                if victim not in board:
                    vking = pattern(step) or coords(victim)[1] == crowning_rank(enemy, size)
                    board[victim] = enemy.upper() if vking else enemy
                empty.add(land)
            break
    for _ in range(rng.randint(0, 3)):  # loose pieces of both sides
        sq = rng.choice(sorted(squares - set(board) - empty))
        colour = rng.choice("wb")
        loose_king = rng.random() < 0.4 or coords(sq)[1] == crowning_rank(colour, size)
        board[sq] = colour.upper() if loose_king else colour
    if not any(p.lower() == enemy for p in board.values()):
        sq = rng.choice(sorted(squares - set(board) - empty))
        board[sq] = enemy.upper()
    return board, side


def random_ladder_duel(rng: random.Random) -> tuple[Board, str]:
    """An Italian position where the ladder's steps 3 (most kings) and 4 (earliest king)
    disagree: a king of the side to move with two capture chains of three jumps from its
    square, one taking a king and then two men, the other a man and then two kings (step 3
    picks the second, step 4 alone would pick the first), laid at random and kept when
    swapping the two steps changes the legal moves (read from the reference generator,
    `ladder`), plus loose pieces where they keep it so. Falls back to a plain
    `random_rival_chains` position after a few tries."""
    from .ladder import legal_under, swapped

    diagonals = [(1, 1), (1, -1), (-1, 1), (-1, -1)]
    for _ in range(60):
        side = rng.choice("wb")
        enemy = "b" if side == "w" else "w"
        centre = [sq for sq in playable_squares("italian") if all(1 <= x <= 6 for x in coords(sq))]
        start = rng.choice(centre)
        board: Board = {start: side.upper()}
        used = {start}
        ok = True
        for first, pattern in zip(rng.sample(diagonals, 2), ("Kmm", "mKK"), strict=True):
            f, r = coords(start)
            d = first
            for kind in pattern:
                vf, vr, lf, lr = f + d[0], r + d[1], f + 2 * d[0], r + 2 * d[1]
                if not (0 <= lf < 8 and 0 <= lr < 8):
                    ok = False
                    break
                victim, land = name(vf, vr), name(lf, lr)
                if victim in used or land in used:
                    ok = False
                    break
                if kind == "m" and coords(victim)[1] == crowning_rank(enemy):
                    ok = False
                    break
                board[victim] = enemy.upper() if kind == "K" else enemy
                used |= {victim, land}
                f, r = lf, lr
                d = rng.choice([x for x in diagonals if x != (-d[0], -d[1])])
            if not ok:
                break
        if not ok or legal_under(board, side) == legal_under(board, side, swapped(3, 4)):
            continue
        for _ in range(rng.randint(0, 3)):  # loose pieces, kept where the duel survives
            sq = rng.choice(sorted(set(playable_squares("italian")) - used))
            colour = rng.choice("wb")
            king = rng.random() < 0.4 or coords(sq)[1] == crowning_rank(colour)
            trial = {**board, sq: colour.upper() if king else colour}
            if legal_under(trial, side) != legal_under(trial, side, swapped(3, 4)):
                board = trial
                used.add(sq)
        return board, side
    return random_rival_chains(rng, "italian")
