"""The tournament service in parts, one job each, behind one facade (`service`,
`TournamentService`); nothing of discord (docs/ARCHITECTURE.md, "Services and their
events"):

- `values`: the settings and their checks, the views, the posts (`Post`);
- `outlet`: `TournamentOutlet`, where threads and posts go (the Discord layer's);
- `service`: `TournamentService`, the facade its callers use.
"""

from bot.services.tournaments.outlet import TournamentOutlet
from bot.services.tournaments.service import TournamentService
from bot.services.tournaments.values import (
    ByeView,
    Cancelled,
    Cell,
    Ended,
    EntrantView,
    Final,
    PairingView,
    Paused,
    PlayerRemoved,
    Post,
    PostKey,
    PostKind,
    ResultCell,
    Resumed,
    RoundPaired,
    RoundResults,
    RoundView,
    SignUp,
    StandingRow,
    StandingsView,
    Started,
    TieBreak,
    TournamentSettings,
    TournamentView,
    post_key,
)

__all__ = [
    "ByeView",
    "Cancelled",
    "Cell",
    "Ended",
    "EntrantView",
    "Final",
    "PairingView",
    "Paused",
    "PlayerRemoved",
    "Post",
    "PostKey",
    "PostKind",
    "ResultCell",
    "Resumed",
    "RoundPaired",
    "RoundResults",
    "RoundView",
    "SignUp",
    "StandingRow",
    "StandingsView",
    "Started",
    "TieBreak",
    "TournamentOutlet",
    "TournamentService",
    "TournamentSettings",
    "TournamentView",
    "post_key",
]
