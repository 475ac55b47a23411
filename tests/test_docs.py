"""The documents stay true (README.md, "Where the rest is"; docs/TESTING.md, "Layout"):
every relative link leads to a file, and to a heading of it, that exist; every document a
source file cites exists; and the tables that list what the code holds list exactly that:
the commands of the README and of docs/PLAYING.md (as Discord receives them), the settings
of docs/OPERATING.md (as `bot/config.py` reads them) and the puzzle banks of
docs/PUZZLES.md (as shipped)."""

from __future__ import annotations

import json
import re
import unicodedata
from pathlib import Path
from typing import Any

from bot.client import DamaBot
from tests.support.clock import FakeClock
from tests.support.discord_harness import settings_for
from tests.support.fake_discord import FakeDiscord

ROOT = Path(__file__).resolve().parents[1]

LINK = re.compile(r"!?\[[^\]]*\]\(([^)\s]+)\)")
"""A markdown link or image: `[text](target)`; the target without a title."""

FENCE = re.compile(r"^```.*?^```", re.M | re.S)
CODE_SPAN = re.compile(r"`[^`\n]*`")
HEADING = re.compile(r"^#{1,6} +(.+?) *#*$", re.M)


def documents() -> list[Path]:
    """The project's markdown documents: those at the top, in docs/, and each folder's
    README (tools, test data), outside hidden folders and the virtual environment."""
    found = set(ROOT.glob("*.md")) | set((ROOT / "docs").glob("*.md"))
    for folder in ROOT.iterdir():
        if folder.is_dir() and not folder.name.startswith(".") and folder.name != "docs":
            found |= set(folder.glob("**/README.md"))
    return sorted(found)


def _prose(text: str) -> str:
    """`text` without fenced code and code spans: a link written inside code is an example."""
    return CODE_SPAN.sub("", FENCE.sub("", text))


def anchor(heading: str) -> str:
    """The anchor GitHub gives a heading: lower case, punctuation dropped (hyphens and
    underscores kept), spaces as hyphens."""
    text = heading.replace("`", "").strip().lower()
    text = "".join(c for c in text if c in " -_" or unicodedata.category(c)[0] in "LN")
    return text.replace(" ", "-")


def anchors(path: Path) -> set[str]:
    """Every anchor of `path`'s headings, a repeated heading numbered as GitHub does."""
    found: set[str] = set()
    seen: dict[str, int] = {}
    for heading in HEADING.findall(FENCE.sub("", path.read_text(encoding="utf-8"))):
        slug = anchor(heading)
        repeats = seen.get(slug, 0)
        found.add(slug if repeats == 0 else f"{slug}-{repeats}")
        seen[slug] = repeats + 1
    return found


def broken_links(path: Path) -> list[str]:
    """The relative links of `path` that lead to no file, or to no heading of their file."""
    broken = []
    for target in LINK.findall(_prose(path.read_text(encoding="utf-8"))):
        if re.match(r"^[a-z][a-z+.-]*:", target):  # https:, mailto:: not ours to check
            continue
        file_part, _, fragment = target.partition("#")
        linked = (path.parent / file_part).resolve() if file_part else path
        if not linked.exists():
            broken.append(f"{target} (no such file)")
        elif fragment and linked.suffix == ".md" and fragment not in anchors(linked):
            broken.append(f"{target} (no such heading in {linked.name})")
    return broken


def test_every_relative_link_of_the_documents_leads_somewhere() -> None:
    assert len(documents()) > 10  # README.md, docs/*.md, standin/ and tests/data/ READMEs
    broken = {f"{path.relative_to(ROOT)}: {link}"
              for path in documents() for link in broken_links(path)}
    assert not broken, sorted(broken)


def test_the_link_check_sees_a_missing_file_and_a_missing_heading(tmp_path: Path) -> None:
    (tmp_path / "other.md").write_text("# Other\n\n## The parts of `bot/`\n")
    page = tmp_path / "page.md"
    page.write_text(
        "# Page\n\n[fine](other.md) [fine](other.md#the-parts-of-bot) [fine](#page)\n"
        "[gone](missing.md) [gone](other.md#nowhere) ![gone](pictures/none.png)\n"
        "`[code](not-a-link.md)` [web](https://example.org/x)\n"
    )
    assert broken_links(page) == [
        "missing.md (no such file)",
        "other.md#nowhere (no such heading in other.md)",
        "pictures/none.png (no such file)",
    ]


def test_anchors_follow_githubs_rule() -> None:
    assert anchor("Local play (no Discord needed)") == "local-play-no-discord-needed"
    assert anchor("The parts of `bot/`") == "the-parts-of-bot"
    assert anchor("What a crash leaves") == "what-a-crash-leaves"


CITED = re.compile(r"\bdocs/([A-Za-z_]+\.md)")
CITED_SECTION = re.compile(r'\b(README(?:\.md)?|docs/[A-Za-z_]+\.md)(?:\'s)?[,(\s]+"([^"]+)"')
"""A citation by document and section: `docs/OPERATING.md, "Settings"`,
`docs/ENGINE.md ("Engine")`, `README.md, "Commands"`, and the older `README, "Configuration"`."""


def _sources() -> list[Path]:
    """The files that cite documents: the code, tests, benchmarks and deployment files."""
    found = [p for folder in ("bot", "engine", "renderer", "puzzles", "storage", "standin",
                              "localplay", "benchmarks", "tests", "deploy")
             for p in (ROOT / folder).rglob("*") if p.suffix in (".py", ".service")]
    # This file is left out: its own examples cite sections on purpose.
    return [*(p for p in found if p != Path(__file__).resolve()),
            ROOT / "Containerfile", ROOT / ".env.example", ROOT / "Makefile"]


def test_every_document_the_sources_cite_exists() -> None:
    missing = {f"{p.relative_to(ROOT)} cites docs/{name}"
               for p in _sources() for name in CITED.findall(p.read_text(encoding="utf-8"))
               if not (ROOT / "docs" / name).exists()}
    assert not missing, sorted(missing)


def _words(text: str) -> str:
    """`text` in lower case with its line breaks, comment marks and runs of spaces as one
    space: a section name wrapped over two comment lines reads as written."""
    return re.sub(r"\s+", " ", re.sub(r"\n\s*#:?", " ", text)).strip().lower()


def stale_citations(path: Path) -> list[str]:
    """The sections `path` cites by name that their document does not hold (a heading or a
    paragraph's bold lead, anywhere in the document's text)."""
    stale = []
    for document, section in CITED_SECTION.findall(path.read_text(encoding="utf-8")):
        cited = ROOT / (document if document.endswith(".md") else "README.md")
        if not cited.exists() or _words(section) not in _words(cited.read_text("utf-8")):
            stale.append(f'{document}, "{_words(section)}"')
    return stale


def test_every_section_the_sources_cite_is_in_its_document() -> None:
    stale = {f"{p.relative_to(ROOT)} cites {citation}"
             for p in _sources() for citation in stale_citations(p)}
    assert not stale, sorted(stale)


def test_the_citation_check_sees_a_section_that_moved(tmp_path: Path) -> None:
    source = tmp_path / "source.py"
    source.write_text('# (README, "Running at\n# scale"); docs/OPERATING.md, "Running at scale"\n'
                      '# docs/RULES.md ("Coordinates and notation"); README.md, "Commands"\n')
    assert stale_citations(source) == ['README, "running at scale"']


def _section(path: Path, heading: str) -> str:
    """The text of `path` under `heading` (a `## ` line), up to the next heading of that level."""
    text = path.read_text(encoding="utf-8")
    start = text.index(f"\n## {heading}\n")
    end = text.find("\n## ", start + 1)
    return text[start:] if end == -1 else text[start:end]


def _first_cells(section: str) -> list[str]:
    """The first cell of each row of the section's tables, header and rule rows left out."""
    rows = [line.strip().strip("|").split("|")[0].strip()
            for line in section.splitlines() if line.startswith("|")]
    return [cell for cell in rows[2:] if not set(cell) <= set("-: ")] if rows else []


SUBCOMMAND, GROUP = 1, 2
"""Discord's option types of a subcommand and a subcommand group."""


def _signatures(command: dict[str, Any], prefix: str = "/") -> list[str]:
    """A command as the README writes it: `/name required [optional]`; a command with
    subcommands, each of them: `/name sub required [optional]`."""
    name = f"{prefix}{command['name']}"
    options = command.get("options", [])
    if any(o["type"] in (SUBCOMMAND, GROUP) for o in options):
        return [s for o in options for s in _signatures(o, name + " ")]
    written = [o["name"] if o.get("required") else f"[{o['name']}]" for o in options]
    return [" ".join([name, *written])]


async def test_the_command_tables_list_every_command_with_its_options(tmp_path: Path) -> None:
    fake = FakeDiscord()
    with fake.installed():
        bot = DamaBot(settings_for(tmp_path / "db.sqlite3"), clock=FakeClock(),
                      run_scheduler=False)
        try:
            await bot.login("fake-token")  # registers the commands: the schema Discord gets
        finally:
            await bot.close()
    [registered] = [call.payload for call in fake.calls if call.method == "PUT"]
    expected = sorted(s for command in registered for s in _signatures(command))
    for path in (ROOT / "README.md", ROOT / "docs" / "PLAYING.md"):
        cells = _first_cells(_section(path, "Commands"))
        written = sorted(s for cell in cells for s in re.findall(r"`(/[^`]+)`", cell))
        assert written == expected, path.name


def test_the_settings_table_and_env_example_list_every_setting_the_bot_reads() -> None:
    source = (ROOT / "bot" / "config.py").read_text(encoding="utf-8")
    read = sorted(set(re.findall(r'"((?:DAMA|DISCORD)_[A-Z_]+)"', source)))
    cells = _first_cells(_section(ROOT / "docs" / "OPERATING.md", "Settings"))
    assert sorted(cell.strip("`") for cell in cells) == read
    example = (ROOT / ".env.example").read_text(encoding="utf-8")
    assert sorted(re.findall(r"^((?:DAMA|DISCORD)_[A-Z_]+)=", example, re.M)) == read


def test_the_puzzle_banks_table_counts_the_shipped_puzzles() -> None:
    text = (ROOT / "docs" / "PUZZLES.md").read_text(encoding="utf-8")
    table = text[text.index("<!-- puzzle-banks -->"):text.index("<!-- /puzzle-banks -->")]
    rows = [line.strip("|").split("|") for line in table.splitlines() if line.startswith("|")]
    written = {cells[0].strip(): int(cells[1]) for cells in rows[2:]}
    shipped = {
        path.stem: len(json.loads(path.read_text(encoding="utf-8"))["puzzles"])
        for path in (ROOT / "puzzles" / "data").glob("*.json")
    }
    assert written == shipped
