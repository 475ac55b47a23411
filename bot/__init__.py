"""The Discord bot: client, slash commands, views, services. The development tools, the
Discord stand-in (`standin`) and local play (`localplay`), are packages apart that the bot
does not import (its entry point loads local play only when it is asked for)."""
