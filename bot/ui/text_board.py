"""The text board's piece letters in the reader's language (docs/LANGUAGES.md, "The text
board"): the board drawn as text where a channel denies the bot the permissions a picture
needs (`bot.ui.present.Presenter.text_board`)."""

from __future__ import annotations

from bot.messages import Msg, text
from renderer import PieceLetters

_PIECE_LETTERS = (Msg.TEXT_BOARD_WHITE_MAN, Msg.TEXT_BOARD_BLACK_MAN,
                  Msg.TEXT_BOARD_WHITE_KING, Msg.TEXT_BOARD_BLACK_KING)
_ISOLATES = str.maketrans("", "", "\u2066\u2067\u2068\u2069")


def piece_letters(locale: str | None) -> PieceLetters:
    """The text board's piece letters in `locale`'s language, from the catalog (`w b W B`
    in English, Turkish `b s B S` for beyaz/siyah, Italian and French `b n B N`): a
    letter means what the reader's words for White and Black begin with. Arabic keeps
    the Latin letters, written in the catalog inside an LRI isolate (as every Latin run
    in an Arabic text); the isolate is dropped here, the board being drawn left to right
    in a code block, one character a square (docs/LANGUAGES.md, "The text board")."""
    white_man, black_man, white_king, black_king = (
        text(key, locale).translate(_ISOLATES) for key in _PIECE_LETTERS)
    return PieceLetters(white_man, black_man, white_king, black_king)
