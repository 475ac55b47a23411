"""Discord's OpenAPI specification in the tests: the vendored copy, the shared check, and the
script that refreshes the copy.

    python -m tests.support.discord_spec refresh PATH   # PATH: a discord/discord-api-spec
                                                        # clone (or its bare git directory)

copies `specs/openapi.json` and `LICENSE` of the clone's HEAD into
`tests/data/discord-api-spec/` and records the commit in its README. After a refresh, run
the end-to-end tests: a change of the specification may show new violations, or make an
entry of `standin.openapi.KNOWN_GAPS` unnecessary.

`openapi_check()` is the process's one `OpenApiCheck` (loading the 1.2 MB document takes a
moment); `checked_by_spec()` is the fixture body that makes every stand-in of a test use it
and fails the test on any violation.
"""

from __future__ import annotations

import argparse
import functools
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

from standin.openapi import Direction, OpenApiCheck, checking_by_default

SPEC_DIRECTORY = Path(__file__).resolve().parents[1] / "data" / "discord-api-spec"
SPEC_PATH = SPEC_DIRECTORY / "openapi.json"
UPSTREAM = "https://github.com/discord/discord-api-spec"
FILES = {"specs/openapi.json": "openapi.json", "LICENSE": "LICENSE"}
"""What is copied: path in the upstream repository -> name here. Data only, no code."""

README = """\
# Discord's OpenAPI specification (vendored)

`openapi.json` is `specs/openapi.json` of {upstream} (Discord's OpenAPI 3.1 description
of API v10, MIT licence: `LICENSE`), unchanged, at commit `{commit}` ({date}).

The stand-in's test mode (`standin/openapi.py`) validates every REST request the bot sends
and every answer the stand-in gives against it, in the end-to-end tests and the stand-in's
own tests (`tests/support/discord_spec.py`). The specification's own known gaps are
amended in memory only, each with its reason, in `standin.openapi.KNOWN_GAPS`.

Refresh from a clone of the upstream repository:

    python -m tests.support.discord_spec refresh PATH/TO/discord-api-spec
"""


@functools.cache
def openapi_check() -> OpenApiCheck:
    """The process's check against the vendored specification (made once)."""
    return OpenApiCheck(SPEC_PATH)


def checked_by_spec(*, requests: bool = True) -> Iterator[OpenApiCheck]:
    """For a fixture: every stand-in made during the test is checked against Discord's
    specification; raises `AssertionError` listing each violation (method, route, JSON
    pointer, message) when the test is over. With `requests=False` only the stand-in's
    answers count (for tests that send invalid requests on purpose, to see them refused)."""
    check = openapi_check()
    check.take_violations()
    with checking_by_default(check):
        yield check
    violations = [violation for violation in check.take_violations()
                  if requests or violation.direction is Direction.RESPONSE]
    assert not violations, (
        "Discord's OpenAPI specification (tests/data/discord-api-spec) was not met:\n"
        + "\n".join(f"  {violation}" for violation in dict.fromkeys(map(str, violations)))
    )


def _git(checkout: Path, *args: str) -> bytes:
    return subprocess.run(["git", "-C", str(checkout), *args], check=True,
                          capture_output=True).stdout


def refresh(checkout: Path, target: Path = SPEC_DIRECTORY) -> str:
    """Copy the specification and its licence from the HEAD of `checkout` (a clone of
    discord/discord-api-spec, with or without a work tree) into `target` and write its
    README; returns the commit. Raises `subprocess.CalledProcessError` when `checkout` is
    not such a repository."""
    commit = _git(checkout, "rev-parse", "HEAD").decode().strip()
    date = _git(checkout, "show", "-s", "--format=%cI", "HEAD").decode().strip()
    target.mkdir(parents=True, exist_ok=True)
    for source, name in FILES.items():
        (target / name).write_bytes(_git(checkout, "show", f"HEAD:{source}"))
    (target / "README.md").write_text(
        README.format(upstream=UPSTREAM, commit=commit, date=date), encoding="utf-8")
    return commit


def main(argv: list[str] | None = None) -> int:
    """`refresh PATH`: see the module docstring. Exit status 0, or 1 when PATH is not a
    clone of the specification's repository."""
    parser = argparse.ArgumentParser(prog="python -m tests.support.discord_spec")
    commands = parser.add_subparsers(dest="command", required=True)
    refresh_parser = commands.add_parser("refresh", help="copy the spec from a clone")
    refresh_parser.add_argument("checkout", type=Path)
    args = parser.parse_args(argv)
    try:
        commit = refresh(args.checkout)
    except subprocess.CalledProcessError as error:
        print(f"not a clone of {UPSTREAM}: {error.stderr.decode().strip()}", file=sys.stderr)
        return 1
    print(f"tests/data/discord-api-spec: {UPSTREAM} at {commit}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
