"""The English `/rules` texts of the variants (`ENGLISH_RULES`), part of `ENGLISH`
(bot/messages/english.py): a summary of each variant's rules from docs/RULES.md, which
gives their sources."""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from bot.messages.ids import Msg

ENGLISH_RULES: Mapping[Msg, str] = MappingProxyType({
    Msg.RULES_TURKISH: (
        "Played on all 64 squares; 16 men each on the second and third ranks. Men step one "
        "square forward or sideways and capture the same way by jumping. A man reaching the "
        "far rank becomes a king (dama) that moves and captures any distance along ranks and "
        "files. Captured pieces leave at once; no 180° turn within a capture. Capturing is "
        "compulsory and you must take the most pieces. Draw: threefold repetition, one piece "
        "each, or 30 plies with only king moves and no capture."
    ),
    Msg.RULES_ARAB: (
        "Same board, setup and moves as Turkish draughts: men step forward or sideways, kings "
        "fly along ranks and files, capture is compulsory and maximal. Draw: threefold "
        "repetition, one piece each, or 40 moves by each side without a capture or a man move."
    ),
    Msg.RULES_MOROCCAN: (
        "Played on the 32 dark squares (a1 is light); 12 men each. Men move and capture one "
        "square diagonally forward. Kings fly along diagonals and capture from a distance. "
        "Captured pieces leave at the end of the move. Capturing is compulsory and you must "
        "take the most pieces. A man reaching the far rank is crowned and the move ends. "
        "Draw: threefold repetition or 40 moves by each side without progress."
    ),
    Msg.RULES_ITALIAN: (
        "Played on the 32 dark squares; 12 men each. Men move and capture one square "
        "diagonally forward and may never capture a king. Kings move one square in any "
        "diagonal direction. Captures are compulsory; choose by the ladder: most pieces, then "
        "with a king, then most kings, then the king met earliest. Squares may also be given "
        "as numbers 1 to 32 (22-18). Draw: threefold repetition or 40 moves by each side "
        "without progress."
    ),
    Msg.RULES_INTERNATIONAL: (
        "Played on the 50 dark squares of a 10×10 board (a1 is dark); 20 men each, White "
        "first. Men move one square diagonally forward and capture forwards and backwards. "
        "Kings fly: they move any distance along a diagonal and capture from a distance. "
        "Captured pieces are removed when the capture is over. Capturing is compulsory and "
        "you must take the most pieces, a king counting as one. A man that ends its move on "
        "the far rank becomes a king; one that only passes it during a capture stays a man. "
        "Squares are numbered 1 to 50 (32-28); letters (d4-e5) work too. Draw: threefold "
        "repetition; 25 moves by each side with only kings moving and no capture; a lone king "
        "not beaten within 16 moves each by three pieces with a king, or within 5 moves each "
        "by one or two pieces with a king."
    ),
    Msg.RULES_BRAZILIAN: (
        "International draughts on the 8×8 board: the 32 dark squares (a1 is dark), 12 men "
        "each, White first. Men move one square diagonally forward and capture forwards and "
        "backwards. Kings fly: they move any distance along a diagonal and capture from a "
        "distance. Captured pieces are removed when the capture is over. Capturing is "
        "compulsory and you must take the most pieces, a king counting as one. A man that "
        "ends its move on the far rank becomes a king; one that only passes it during a "
        "capture stays a man. Draw: threefold repetition; 20 moves by each side with only "
        "kings moving and no capture; 5 moves each once each side has one or two pieces, a "
        "king among them, with at most one man on the board."
    ),
    Msg.RULES_RUSSIAN: (
        "Played on the 32 dark squares (a1 is dark); 12 men each, White first. Men move one "
        "square diagonally forward and capture forwards and backwards. Kings fly: they move "
        "any distance along a diagonal and capture from a distance. Captured pieces are "
        "removed when the capture is over. Capturing is compulsory, but you may choose any "
        "capture, however many pieces it takes. A man reaching the far rank becomes a king, "
        "even in the middle of a capture, and then goes on capturing as a king if it can. "
        "Draw: threefold repetition; 15 moves by each side with only kings moving and no "
        "capture; or an ending with kings that is not won within the moves its rule allows "
        "(5 to 60, by the pieces left)."
    ),
    Msg.RULES_ENGLISH: (
        "Played on the 32 dark squares (a1 is dark); 12 men each, Black first. Men move and "
        "capture one square diagonally forward. Kings move and capture one square "
        "diagonally in any direction. Capturing is compulsory, but you may choose any "
        "capture. A man reaching the far rank becomes a king and the move ends. Squares are "
        "numbered 1 to 32 as checkers players write them (11-15); letters (f6-e5) work too. "
        "Draw: threefold repetition or 40 moves by each side without a capture or a man move."
    ),
    Msg.HELP_TITLE: "Playing draughts here",
})
