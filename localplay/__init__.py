"""Local play without Discord: the stand-in, the real bot process, and a terminal session.

`cli` is `dama-bot local`; `server.LocalDiscord` starts the stand-in and the bot process
(`process.BotProcess`); `session.Session` runs the commands of `script` and prints the
answers (`render`, `textboard`, boards from `stored`); `replay` plays PDN records through
the bot.
"""
