"""Local play without Discord: the stand-in, the real bot process, and a terminal session.

A development tool apart from the bot: it uses the product only through the bot's
process, storage and the engine (it starts `standin` and runs the real bot as a child
process, reads the bot's database through storage's public API and replays its games with
the engine; it imports nothing of `bot.services`), and the bot imports nothing of it
(`dama-bot local` and `make run` without a token load it only when local play starts).

`cli` is `dama-bot local` (also `python -m localplay`; its options in `options`);
`server.LocalDiscord` starts the stand-in and the bot process (`process.BotProcess`);
`session.TerminalSession` runs the commands of `script` and prints the answers (`render`, with
the renderer's text board; games from `stored`); `replay` plays PDN records through the bot.
"""
