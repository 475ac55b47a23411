"""Slash commands: `play` (challenge, move, board, resign, draw, abort) and `info` (rating,
leaderboard, history, export, rules, help). Each command reads the interaction, calls one
method, and answers; errors go to the tree's `on_error`."""
