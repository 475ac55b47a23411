"""Local play without Discord: the stand-in, the real bot process, and a terminal session.

A development tool apart from the bot: it uses the product only through the bot's
process, storage and the engine (it starts `standin` and runs the real bot as a child
process, reads the bot's database through storage's public API and replays its games with
the engine's `Game.replay`; it imports nothing of `bot.services`), and the bot imports
nothing of it (`dama-bot local` and `make run` without a token load it only when local
play starts). Its entry point is `dama-bot local` (also `python -m localplay`);
docs/LOCAL_PLAY.md describes it.
"""
