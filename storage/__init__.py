"""Persistent storage on SQLite through aiosqlite: migrations and repositories.

Stores strings and ints; knows nothing of the rules.
"""
