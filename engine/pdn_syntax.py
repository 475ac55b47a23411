"""PDN syntax: split PDN text into games of tag pairs, move tokens and a result token.

This layer knows the shape of PDN (Portable Draughts Notation, the draughts form of chess's
PGN; FMJD PDN 3.0) but nothing of the rules: it does not decide whether a move token is
legal or even well formed, it only hands the tokens over in order (`engine.pdn` plays them).

What it reads, tolerantly:

- tag pairs `[Name "value"]` (value escapes `\\"` and `\\\\`);
- move text: move numbers (`12.`, `12...`, also glued to the move as in `12.d3-d4`), moves,
  move strength marks (`!`, `?`, `!?`, ...) after a move, NAGs (`$12`);
- comments `{...}` (over several lines) and `;` to the end of the line; `%` escape lines;
- variations `(...)`, nested, skipped with everything in them;
- result tokens `1-0`, `0-1`, `1/2-1/2`, `*`, and the 2-point forms `2-0`, `0-2`, `1-1`,
  `0-0` (none of these can be a move: squares start at 1 and a move has two squares);
- CRLF, CR or LF line ends and a leading byte-order mark.

A game ends at its result token, or where the next game's tag pairs begin, or at the end
of the text.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from engine.errors import DamaError


class PdnError(DamaError, ValueError):
    """Base of the PDN errors: text that cannot be read as PDN games."""


class PdnSyntaxError(PdnError):
    """PDN text whose structure is broken (unterminated comment or variation, bad tag pair).

    Attribute `line`: the 1-based line where the problem starts.
    """

    def __init__(self, message: str, line: int) -> None:
        super().__init__(f"PDN line {line}: {message}")
        self.line = line


@dataclass(frozen=True, slots=True)
class MoveToken:
    """One move of the move text as written.

    `text`: the move without move number or strength marks (e.g. `19x12`, `d3xd5xf5`).
    `line`: 1-based line of the text. `number`: the move number written before it (for a
    white move, or a black one written as `12...`), None when the move had none.
    """

    text: str
    line: int
    number: int | None


@dataclass(frozen=True, slots=True)
class RawGame:
    """One game of a PDN text, before its moves are played.

    `tags`: the tag pairs in file order as (name, value), names as written.
    `moves`: the move tokens of the main line in order (variations are dropped).
    `result_token`: the game-termination token as written (`1-0`, `2-0`, `*`, ...), None when
    the move text had none. `line`: 1-based line where the game starts. `index`: 1-based
    number of the game in the text.
    """

    tags: tuple[tuple[str, str], ...]
    moves: tuple[MoveToken, ...]
    result_token: str | None
    line: int
    index: int


RESULT_TOKENS = frozenset(
    {"1-0", "0-1", "1/2-1/2", "½-½", "*", "2-0", "0-2", "1-1", "0-0"}
)

_TAG = re.compile(r'\[\s*([A-Za-z0-9_]+)\s*"((?:[^"\\\n]|\\.)*)"\s*\]')
_NUMBER = re.compile(r"(\d{1,9})(\.+)(.*)\Z", re.DOTALL)  # longer numbers are no move numbers
_NAG = re.compile(r"\$\d+")
_STRENGTH = re.compile(r"[!?]+\Z")
_DELIMITERS = frozenset(" \t\n\f\v{}();[]")


def split_games(text: str) -> list[RawGame]:
    """The games of PDN `text`, in order. An empty or comment-only text gives [].

    Raises PdnSyntaxError (with the line) for an unterminated comment or variation, an
    unmatched `)`, or a `[` that does not start a well-formed tag pair.
    """
    return _Lexer(text).games()


class _Lexer:
    def __init__(self, text: str) -> None:
        self.text = text.lstrip("\ufeff").replace("\r\n", "\n").replace("\r", "\n")
        self.pos = 0
        self.line = 1
        self.result: list[RawGame] = []
        self._reset()

    def _reset(self) -> None:
        self.tags: list[tuple[str, str]] = []
        self.moves: list[MoveToken] = []
        self.open = False
        self.start_line = self.line
        self.number: int | None = None

    def _begin(self) -> None:
        if not self.open:
            self.open = True
            self.start_line = self.line

    def _close(self, result_token: str | None) -> None:
        if self.open or result_token is not None:
            self.result.append(
                RawGame(
                    tags=tuple(self.tags),
                    moves=tuple(self.moves),
                    result_token=result_token,
                    line=self.start_line if self.open else self.line,
                    index=len(self.result) + 1,
                )
            )
        self._reset()

    def _advance_to(self, end: int) -> None:
        self.line += self.text.count("\n", self.pos, end)
        self.pos = end

    def games(self) -> list[RawGame]:
        text = self.text
        n = len(text)
        while self.pos < n:
            ch = text[self.pos]
            if ch in " \t\n\f\v":
                self._advance_to(self.pos + 1)
            elif ch == ";" or (ch == "%" and (self.pos == 0 or text[self.pos - 1] == "\n")):
                self._skip_line()
            elif ch == "{":
                self._skip_comment()
            elif ch == "(":
                self._skip_variation()
            elif ch == ")":
                raise PdnSyntaxError("a ')' closes no variation: remove it", self.line)
            elif ch == "}":
                raise PdnSyntaxError("a '}' closes no comment: remove it", self.line)
            elif ch == "[":
                self._tag()
            elif ch == "]":
                raise PdnSyntaxError("a ']' closes no tag pair: remove it", self.line)
            else:
                self._word()
        self._close(None)
        return self.result

    def _skip_line(self) -> None:
        end = self.text.find("\n", self.pos)
        self._advance_to(len(self.text) if end < 0 else end)

    def _skip_comment(self) -> None:
        end = self.text.find("}", self.pos + 1)
        if end < 0:
            raise PdnSyntaxError("a comment '{' is never closed: add the '}'", self.line)
        self._advance_to(end + 1)

    def _skip_variation(self) -> None:
        start_line = self.line
        depth = 0
        text = self.text
        while self.pos < len(text):
            ch = text[self.pos]
            if ch == "{":
                self._skip_comment()
                continue
            if ch == ";":
                self._skip_line()
                continue
            if ch == "(":
                depth += 1
            elif ch == ")":
                depth -= 1
                if depth == 0:
                    self._advance_to(self.pos + 1)
                    return
            self._advance_to(self.pos + 1)
        raise PdnSyntaxError("a variation '(' is never closed: add the ')'", start_line)

    def _tag(self) -> None:
        match = _TAG.match(self.text, self.pos)
        if match is None:
            raise PdnSyntaxError(
                "a tag pair must look like [Name \"value\"] on one line", self.line
            )
        if self.moves:
            # Tag pairs after move text: the previous game ended without a result token.
            self._close(None)
        self._begin()
        value = re.sub(r"\\(.)", r"\1", match.group(2))
        self.tags.append((match.group(1), value))
        self._advance_to(match.end())

    def _word(self) -> None:
        text = self.text
        end = self.pos
        while end < len(text) and text[end] not in _DELIMITERS:
            end += 1
        word = text[self.pos:end]
        line = self.line
        self._advance_to(end)
        self._token(word, line)

    def _token(self, word: str, line: int) -> None:
        # Move numbers glued to what follows (`12.d3-d4`, even `1.1.1.`) are peeled off in
        # a loop: a word of any length costs no recursion.
        while True:
            if word in RESULT_TOKENS:
                self._close(word)
                return
            number = _NUMBER.match(word)
            if number is None:
                break
            self._begin()
            self.number = int(number.group(1))
            word = number.group(3)
            if not word:
                return
        word = _NAG.sub("", word)
        word = _STRENGTH.sub("", word)
        if not word:
            return
        self._begin()
        self.moves.append(MoveToken(text=word, line=line, number=self.number))
        self.number = None
