"""The Discord side of the bot, apart from the commands (`bot.cogs`): reading an
interaction (`reading`), answers with deferral (`answer`), the `GameAnnouncer` that shows
the services' updates (`announcer`), the one error reporter (`errors`), persistent
buttons (`buttons`), and the presenter of boards, challenges and information embeds
(`present`, `info`), whose every text comes from the message catalog (`bot.messages`)."""
