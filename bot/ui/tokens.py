"""The interactions through which the games of INTERACTIONS places are shown
(docs/ARCHITECTURE.md, "Places"): where the app is not a member of the chat it cannot
post, only answer an interaction, within its token's 15 minutes and `FOLLOW_UPS`
follow-ups. `GameTokens` keeps, in memory only (a token is a secret: never stored, gone
with a restart), each game's most recent interaction, the interaction that sent or last
edited each of its boards, and the boards owed until the next interaction."""

from __future__ import annotations

from bot.services import GameUpdate
from bot.ui.answer import Answer


class GameTokens:
    """The games' interactions (their `Answer`s) and owed boards, by game id."""

    def __init__(self) -> None:
        self._latest: dict[int, Answer] = {}
        self._channels: dict[int, int] = {}
        self._boards: dict[int, Answer] = {}
        self._owed: dict[int, GameUpdate] = {}
        self._answers_only: set[int] = set()

    def remember(self, game_id: int, channel_id: int, answer: Answer,
                 message_id: int | None = None) -> None:
        """`answer` is game `game_id`'s most recent interaction (in `channel_id`); it sent
        or edited board `message_id` (None: no board). Forgets the interactions whose
        token has run out."""
        self._latest[game_id] = answer
        self._channels[channel_id] = game_id
        self._answers_only.add(channel_id)
        if message_id is not None:
            self._boards[message_id] = answer
        self._forget_expired()

    def remember_message(self, channel_id: int, message_id: int, answer: Answer) -> None:
        """`answer`'s interaction sent message `message_id` (a challenge) in `channel_id`,
        an INTERACTIONS place: later edits of it go through its token (`of_board`)."""
        self._boards[message_id] = answer
        self._answers_only.add(channel_id)
        self._forget_expired()

    def _forget_expired(self) -> None:
        for table in (self._latest, self._boards):
            for key in [key for key, answer in table.items() if not answer.token_valid()]:
                del table[key]
        self._channels = {channel: game for channel, game in self._channels.items()
                          if game in self._latest}

    def latest(self, game_id: int) -> Answer | None:
        """Game `game_id`'s most recent interaction if it can still send a message (a
        follow-up: token valid, follow-ups left), else None."""
        answer = self._latest.get(game_id)
        return answer if answer is not None and answer.can_follow_up else None

    def latest_in(self, channel_id: int) -> Answer | None:
        """As `latest`, for the game of `channel_id`."""
        game_id = self._channels.get(channel_id)
        return None if game_id is None else self.latest(game_id)

    def answers_only(self, channel_id: int) -> bool:
        """Whether `channel_id` is known (since start-up) as an INTERACTIONS place, where
        nothing is posted but answers."""
        return channel_id in self._answers_only

    def of_board(self, message_id: int) -> Answer | None:
        """The interaction that sent or last edited board (or challenge) `message_id`,
        while its token can still edit it; else None."""
        answer = self._boards.get(message_id)
        return answer if answer is not None and answer.token_valid() else None

    def owe(self, update: GameUpdate) -> None:
        """`update`'s board could not be shown: it waits for the game's next
        interaction (a later owed board of the game replaces it). An ended game has no
        next interaction: its owed board is forgotten (its players' `/board` and
        `/history` say how it ended), so nothing waits here for ever."""
        if update.state.is_over:
            self._owed.pop(update.state.game_id, None)
            return
        self._owed[update.state.game_id] = update

    def take_owed(self, game_id: int) -> GameUpdate | None:
        """The board owed to game `game_id`'s next interaction (None: none), forgotten."""
        return self._owed.pop(game_id, None)
