"""The web face's routes, written once (docs/ARCHITECTURE.md, "The web face"): each page
module registers its handlers on these patterns (`add_routes`), and `bot.web.access`
reads their parts (`ID`, `TOKEN`). Ids are decimal digits (at most 19: within a signed
64-bit number, checked again when read), tokens 22 base64url characters; any other path
is not matched, so it is the 404 page."""

from __future__ import annotations

ID = "id"
"""The match part of a page's number (a game, player, server or tournament id)."""
TOKEN = "token"
"""The match part of a signed link's token."""

ID_PATTERN = "{id:[0-9]{1,19}}"
"""A path part matching a page's id (`ID`)."""
TOKEN_PATTERN = "{token:[A-Za-z0-9_-]{22}}"
"""A path part matching a signed link's token (`TOKEN`)."""
_ID, _TOKEN = ID_PATTERN, TOKEN_PATTERN

HOME = "/"
HEALTH = "/health"
STATIC = "/static"
"""The static files' prefix (`/static/{name}`)."""

GAME = f"/games/{_ID}"
GAME_SIGNED = f"/games/{_ID}/{_TOKEN}"
GAMES = (GAME, GAME_SIGNED)
"""A game's page by its id (PUBLIC games) and by its signed link; the pictures and the
live events hang under either (`GAMES[i] + BOARD`, ...)."""
BOARD = "/board.png"
GRAPH = "/graph.png"
EVENTS = "/events"
PDN = "/game.pdn"
"""The game's record as a PDN file (its analysis as comments, when it has one)."""

PLAYER = f"/players/{_ID}/{_TOKEN}"
"""A player's page: by a signed link only."""

LEADERBOARDS = (f"/servers/{_ID}/leaderboard", f"/servers/{_ID}/leaderboard/{_TOKEN}")
TOURNAMENTS = (f"/tournaments/{_ID}", f"/tournaments/{_ID}/{_TOKEN}")

__all__ = ["BOARD", "EVENTS", "GAME", "GAMES", "GAME_SIGNED", "GRAPH", "HEALTH", "HOME", "ID",
           "ID_PATTERN", "LEADERBOARDS", "PDN", "PLAYER", "STATIC", "TOKEN", "TOKEN_PATTERN",
           "TOURNAMENTS"]
