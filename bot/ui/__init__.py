"""The Discord side of the bot apart from the commands (`bot.cogs`): reading and answering
interactions, buttons and selects, announcing the services' updates, and presenting
boards and embeds, every text from the message catalog (`bot.messages`). See
docs/ARCHITECTURE.md.
"""
