"""The language a web page is written in: the `lang` of its URL (a code of
`bot.language.Language`), else the reader's browser's (`Accept-Language`, negotiated with
Babel), else English. Links inside a page keep `lang` only when it came in the URL
(docs/ARCHITECTURE.md, "The web face")."""

from __future__ import annotations

from dataclasses import dataclass

from aiohttp import web
from babel import negotiate_locale

from bot.language import Direction, Language

LANG = "lang"
"""The query parameter naming the page's language."""

MAX_ACCEPTED = 16
"""The most `Accept-Language` entries read (a longer header is cut there)."""

_CODES = [language.value for language in Language]


@dataclass(frozen=True)
class ReaderLanguage:
    """A page's language, and whether its URL chose it (`from_url`: links keep it)."""

    language: Language
    from_url: bool

    @property
    def code(self) -> str:
        """The language's code, for `<html lang>` and the messages."""
        return self.language.value

    @property
    def direction(self) -> str:
        """"ltr" or "rtl", for `<html dir>`."""
        return self.language.direction.value

    @property
    def right_to_left(self) -> bool:
        return self.language.direction is Direction.RIGHT_TO_LEFT


def url_language(request: web.Request) -> Language | None:
    """The language the URL's `lang` names, None when it names none or one unknown (the
    `bot.web.app` input check answers those with the 400 page)."""
    values = request.query.getall(LANG, [])
    if len(values) != 1:
        return None
    try:
        return Language.of(values[0])
    except ValueError:
        return None


def accepted(header: str) -> list[str]:
    """The language tags of an `Accept-Language` header, most wanted first (by their `q`,
    then their order; `q=0` and malformed entries left out)."""
    weighted: list[tuple[float, int, str]] = []
    for index, part in enumerate(header.split(",")[:MAX_ACCEPTED]):
        tag, _, parameters = part.strip().partition(";")
        tag = tag.strip()
        if not tag or tag == "*" or len(tag) > 35:
            continue
        quality = 1.0
        name, _, value = parameters.strip().partition("=")
        if name.strip().lower() == "q":
            try:
                quality = float(value)
            except ValueError:
                continue
        if quality > 0:
            weighted.append((-quality, index, tag))
    return [tag for _, _, tag in sorted(weighted)]


def reader_language(request: web.Request) -> ReaderLanguage:
    """The page's language: the URL's `lang`, else the best of `Accept-Language` we have
    a catalog for, else English."""
    chosen = url_language(request)
    if chosen is not None:
        return ReaderLanguage(chosen, from_url=True)
    wanted = [tag.lower() for tag in accepted(request.headers.get("Accept-Language", ""))]
    code = negotiate_locale(wanted, _CODES, sep="-") if wanted else None
    if code is None:
        # "pt-BR, fr-CA": Babel matches whole tags, or aliases; the language part too
        code = negotiate_locale([tag.split("-")[0] for tag in wanted], _CODES)
    return ReaderLanguage(Language.of(code) if code in _CODES else Language.ENGLISH,
                          from_url=False)


__all__ = ["LANG", "ReaderLanguage", "accepted", "reader_language", "url_language"]
