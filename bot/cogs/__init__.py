"""Slash commands: `play` (challenge, move, board, resign, draw, abort, and the buttons
of challenges and boards), `computer` (play against the computer) and `info` (rating,
leaderboard, history, export, rules, help). Each command reads the interaction, calls one
service method, and answers with texts the presenter builds; errors go to the tree's
`on_error`. Cogs get their collaborators at construction, never the client."""
