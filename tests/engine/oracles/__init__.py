"""Independent reference move generators for the engine tests.

Written from ``/work/shared/RULES.md`` alone; they share no code with ``engine/``. They work
on a plain board: a dict ``{square_name: piece}`` where the piece is ``"w"`` (white man),
``"W"`` (white king), ``"b"`` (black man) or ``"B"`` (black king), plus the side to move
(``"w"`` or ``"b"``). Moves come out as routes ``(path, captured)``: ``path`` is the start
square then every landing square, ``captured`` the captured squares in the order taken.
Slow and plain on purpose: every rule is one obvious piece of code.
"""
