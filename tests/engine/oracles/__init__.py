"""Independent reference move generators for the engine tests.

Written from ``docs/RULES.md`` alone; they share no code with ``engine/``. They work
on a plain board: a dict ``{square_name: piece}`` where the piece is ``"w"`` (white man),
``"W"`` (white king), ``"b"`` (black man) or ``"B"`` (black king), plus the side to move
(``"w"`` or ``"b"``). Moves come out as routes ``(path, captured)``: ``path`` is the start
square then every landing square, ``captured`` the captured squares in the order taken.
Slow and plain on purpose: every rule is one obvious piece of code.

Modules: ``board`` (squares of the 8×8 and 10×10 boards, FEN, rotation, move identity),
``orthogonal`` (Turkish, Arab), ``diagonal`` (Moroccan, Italian; and the a1-dark Brazilian and
Russian draughts, English checkers and, on the 10×10 board, International draughts),
``reference`` (legal moves under the identity, perft),
``pydraughts_adapter`` (pydraughts 0.6.7 as a second source, its quirks handled),
``positions`` (random legal positions), ``rulecases`` (per-rule test machinery),
``ladder`` (the Italian ladder with its steps in any order, on the reference's routes),
``bridge`` (the only place that touches the engine's Position and Move).

One exception to "no engine code": ``legacy`` is the engine's former move generator
(every capture route listed on bitboards, then merged), kept as a second oracle for the
search over states that replaced it and as the "before" of benchmarks/movegen.py; it reads
the engine's direction tables and variant records.

How they were validated before being trusted: the reference perft equals the published
start tables (Italian and Moroccan to depth 7: 177532; Turkish to depth 6: 931312; Russian
and English checkers to depth 8: 929899 and 845931; International to depth 7: 1049442), and
the reference's move sets equal pydraughts' (routes merged, quirks corrected) on over 4,000
random Italian and over 4,000 random Turkish positions (uniform, crowded corners,
capture-chain trees) and on the random positions of the a1-dark variants (International:
tests/engine/test_international_differential.py).
"""
