"""The Discord side of the bot: persistent buttons (`buttons`), the `Table` that turns
interactions into service calls and answers (`table`), answers with deferral (`answer`),
and the presenter of boards, challenges and information embeds (`present`, `info`)."""
