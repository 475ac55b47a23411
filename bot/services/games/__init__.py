"""The game service in parts, one job each, around one holder of the live games:

- `table`: `GameTable`, the live games and their channels' locks (the only holder of
  the locks), and the `BoardState` of a live game;
- `core`: `GameCore`, what the parts share, and the steps they end with (announcing a
  change and recording its board, ending a game);
- `starting`: `GameStarts.start`, the one home of starting a game;
- `moves`: a player's and the computer's moves and their commits;
- `endings`: resign, draw, abort;
- `deadlines`: the per-move clock and the inactivity limit;
- `recovery`: `restore` and the owed boards at start-up;
- `reading`: the boards, `/board`, rematches;
- `loading`: a stored game replayed into a `LiveGame`;
- `values`: the service's own values;
- `service`: `GameService`, the facade its callers use.

Reading move text is `bot.services.move_text` (shared with the puzzle service); its names
are also importable from here for the callers written before it moved.
"""

from bot.services.games.reading import move_options
from bot.services.games.service import GameService
from bot.services.games.starting import Store, Vet
from bot.services.games.values import (
    RESIGN_QUESTION_LIFETIME,
    Announce,
    BoardOwed,
    ComputerTurn,
    GameRules,
    GameStart,
    LiveGame,
    Rematch,
    ResignQuestion,
)
from bot.services.move_text import (
    MAX_CHOICES,
    MOVE_PROBLEMS,
    parse_player_move,
    problem_error,
    suggest_moves,
)

__all__ = [
    "MAX_CHOICES",
    "MOVE_PROBLEMS",
    "RESIGN_QUESTION_LIFETIME",
    "Announce",
    "BoardOwed",
    "ComputerTurn",
    "GameRules",
    "GameService",
    "GameStart",
    "LiveGame",
    "Rematch",
    "ResignQuestion",
    "Store",
    "Vet",
    "move_options",
    "parse_player_move",
    "problem_error",
    "suggest_moves",
]
