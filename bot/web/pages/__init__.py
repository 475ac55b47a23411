"""The web face's pages, one module each, each registering its handlers with
`add_routes(router)` (`bot.web.app`)."""
