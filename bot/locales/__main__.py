"""`python -m bot.locales`: rewrite each domain's template from the English and merge it
into every catalog, matching entries by their context (the message id): a new id is added
untranslated, an entry whose English changed keeps its translation marked fuzzy (gettext
leaves fuzzy entries out, so English shows until a translator has looked), a removed id is
dropped. Then translate what the catalog checks report (`make test`)."""

from __future__ import annotations

from babel.messages.catalog import Catalog
from babel.messages.pofile import read_po, write_po

from bot.locales import DOMAINS, LOCALES, catalog_path, template


def merge(pot: Catalog, old: Catalog, language: str, domain: str) -> Catalog:
    """A catalog of `language` with `pot`'s entries, translated as in `old`."""
    previous = {message.context: message for message in old if message.id}
    # The dates are kept, so a run that changes nothing rewrites the files unchanged.
    merged = Catalog(locale=language, domain=domain, project="dama-bot", charset="utf-8",
                     copyright_holder="the dama-bot authors", msgid_bugs_address="",
                     last_translator="dama-bot translators", fuzzy=False,
                     creation_date=old.creation_date, revision_date=old.revision_date)
    for entry in pot:
        if not entry.id:
            continue
        before = previous.get(entry.context)
        empty: str | tuple[str, ...] = ("",) * merged.num_plurals if entry.pluralizable else ""
        string: str | tuple[str, ...] | list[str] = empty
        flags: set[str] = set()
        # Kept only when it has the entry's shape (a plural message stays plural).
        if before is not None and before.string and (
            isinstance(before.string, str) != entry.pluralizable
        ):
            string = before.string
            if before.id != entry.id or before.fuzzy:
                flags.add("fuzzy")
        merged.add(entry.id, string, context=entry.context, flags=flags,
                   auto_comments=entry.auto_comments)
    return merged


def main() -> None:
    for domain, languages in DOMAINS.items():
        pot = template(domain)
        pot_path = LOCALES / f"{domain}.pot"
        if pot_path.is_file():
            with pot_path.open("rb") as source:
                pot.creation_date = read_po(source).creation_date
        with pot_path.open("wb") as out:
            write_po(out, pot, width=100)
        for language in languages:
            path = catalog_path(domain, language)
            old = Catalog(locale=language, domain=domain)
            if path.is_file():
                with path.open("rb") as source:
                    old = read_po(source, locale=language, domain=domain)
            merged = merge(pot, old, language, domain)
            with path.open("wb") as out:
                write_po(out, merged, width=100)
            print(f"bot/locales/{domain}/{language}.po: {len(merged)} entries")


if __name__ == "__main__":
    main()
