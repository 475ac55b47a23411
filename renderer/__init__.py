"""Board pictures (PNG boards, GIF replays) drawn with Pillow.

Imports the engine, nothing of Discord.
"""
