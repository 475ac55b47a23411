"""The web face: a page for every game, player, leaderboard and tournament, rendered on
the server from the same services and storage as the Discord side, never importing
Discord (docs/ARCHITECTURE.md, "The web face")."""

from bot.web.app import make_app
from bot.web.server import WebServer

__all__ = ["WebServer", "make_app"]
