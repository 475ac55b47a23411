"""Slash commands, one cog per feature, and each feature's component presses (routed by
`bot.ui.components.ComponentRouter`). Each command reads its options, calls one service
method, builds its answer with the presenter (or the feature's `bot.ui` module) and sends
it through `bot.ui.answer.Answer`; errors go to the tree's `on_error`. Cogs get their
collaborators at construction, never the client, and reach no repository."""
