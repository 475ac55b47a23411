"""The slash commands, one cog per feature; docs/ARCHITECTURE.md says what a command
does and where a new one goes.
"""
