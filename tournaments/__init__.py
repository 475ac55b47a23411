"""Tournaments on plain values: the formats (arena, Swiss, round robin), their scores,
their pairings and their tie-breaks, as docs/RULES.md ("Tournaments") states them with
their sources. Pure functions: standings and history in, pairings or standings out; no
storage, no Discord. The bot's tournament flow uses them."""
