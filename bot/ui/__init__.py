"""The Discord side of the bot apart from the commands (`bot.cogs`): reading interactions,
answers with deferral, progress messages, the announcer of the services' updates, the
one error reporter, the component router and each feature's components, and the
presenter, whose every text comes from the message catalog (`bot.messages`). One module
per job; docs/ARCHITECTURE.md says which."""
