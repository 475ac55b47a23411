"""The Discord bot: client, slash commands, views, services, the local Discord stand-in."""
