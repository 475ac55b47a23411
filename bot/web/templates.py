"""The web pages' templates: one Jinja2 environment (autoescape on for every template,
`StrictUndefined`: a value a template names and the page lacks is an error, never an empty
string) and `render_page`, which fills a template in the reader's language.

Every template extends `base.html` (blocks `title`, `head`, `main`) and reads:

- `t(Msg.X, **params)`: message X in the page's language (`bot.messages.text`);
- `url(path, **query)`: a link inside the site, carrying `?lang=` only when the page's
  own address carried it (docs/ARCHITECTURE.md, "The web face");
- `static(name)`: the address of a file of bot/web/static/;
- `language` (a `bot.language.Language`) and `languages` (the switcher's links);
- `Msg`, the message ids.

Pure functions on plain values (`render`) under the one aiohttp entry (`render_page`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from urllib.parse import urlencode

import jinja2
from aiohttp import web

from bot.language import Language
from bot.messages import Msg, text
from bot.web.access import signed
from bot.web.language import LANG, ReaderLanguage, reader_language

STATIC_PREFIX = "/static/"
"""Where bot/web/static/ is served."""

ENVIRONMENT = jinja2.Environment(
    loader=jinja2.PackageLoader("bot.web", "templates"),
    autoescape=True,
    undefined=jinja2.StrictUndefined,
    trim_blocks=True,
    lstrip_blocks=True,
    auto_reload=False,
)
"""The one template environment: autoescaped (every value is HTML-escaped unless a
template marks it safe, which none does), strict about missing values."""
ENVIRONMENT.globals["Msg"] = Msg


@dataclass(frozen=True)
class LanguageLink:
    """One link of the language switcher: the language, the current page's address in
    it, and whether it is the page's own language."""

    language: Language
    href: str
    current: bool


def site_url(path: str, query: Mapping[str, str | int], page: ReaderLanguage) -> str:
    """`path` with `query` (values written as text, in the order given) and, when the
    reader chose the page's language in its address, `lang` after them."""
    values = {name: str(value) for name, value in query.items() if name != LANG}
    if page.from_url:
        values[LANG] = page.language.value
    return f"{path}?{urlencode(values)}" if values else path


def language_links(path: str, query: Mapping[str, str], page: ReaderLanguage,
                   ) -> tuple[LanguageLink, ...]:
    """The switcher's links: the page at `path` with its other `query` values kept, in
    each language of `bot.language.Language`, in their declared order."""
    kept = {name: value for name, value in query.items() if name != LANG}
    return tuple(
        LanguageLink(language,
                     f"{path}?{urlencode({**kept, LANG: language.value})}",
                     language is page.language)
        for language in Language
    )


def translator(language: Language) -> Callable[..., str]:
    """The templates' `t`: a message in `language` with its parameters."""
    def translate(key: Msg, /, **params: object) -> str:
        return text(key, language.value, **params)
    return translate


def render(name: str, page: ReaderLanguage, path: str, query: Mapping[str, str], /,
           **values: object) -> str:
    """Template `name` (a file of bot/web/templates/) filled with `values` for a page at
    `path` whose address had `query`, written in `page`'s language. Raises
    `jinja2.TemplateNotFound` for a missing template and `jinja2.UndefinedError` when the
    template names a value it was not given (programming errors, answered as 500 pages)."""
    def url(target: str, /, **target_query: str | int) -> str:
        return site_url(target, target_query, page)

    template = ENVIRONMENT.get_template(name)
    return template.render(
        t=translator(page.language),
        url=url,
        static=lambda file: STATIC_PREFIX + file,
        language=page.language,
        languages=language_links(path, query, page),
        **values,
    )


def render_page(request: web.Request, name: str, /, *, status: int = 200,
                **values: object) -> web.Response:
    """The HTML answer to `request`: template `name` filled with `values` (see `render`)
    in the reader's language; pages reached by a signed link (a `token` in the route) are
    marked `noindex` (`noindex` may be given to override). Raises what `render` raises."""
    values.setdefault("noindex", signed(request))
    body = render(name, reader_language(request), request.path, request.query, **values)
    return web.Response(text=body, status=status, content_type="text/html", charset="utf-8")
