"""The rules of Turkish, Arab, Moroccan and Italian draughts. Standard library only."""
