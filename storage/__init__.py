"""Persistent storage on SQLite through aiosqlite: migrations and repositories. Knows nothing of the rules."""
