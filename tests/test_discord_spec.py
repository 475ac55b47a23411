"""`tests/support/discord_spec.py`: refreshing the vendored copy of Discord's OpenAPI
specification from a clone of discord/discord-api-spec copies the data and its licence and
names the clone's commit."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from tests.support.discord_spec import SPEC_DIRECTORY, main, refresh


def _git(folder: Path, *args: str) -> str:
    done = subprocess.run(["git", "-C", str(folder), *args], check=True, capture_output=True,
                          text=True)
    return done.stdout.strip()


def test_a_refresh_copies_the_spec_and_licence_and_names_the_commit(tmp_path: Path) -> None:
    clone = tmp_path / "discord-api-spec"
    (clone / "specs").mkdir(parents=True)
    (clone / "specs" / "openapi.json").write_text('{"openapi": "3.1.0"}', encoding="utf-8")
    (clone / "specs" / "openapi_preview.json").write_text("{}", encoding="utf-8")
    (clone / "LICENSE").write_text("MIT License", encoding="utf-8")
    (clone / "uncommitted.txt").write_text("not in HEAD", encoding="utf-8")
    _git(clone, "init", "-q")
    _git(clone, "add", "specs", "LICENSE")
    _git(clone, "-c", "user.name=t", "-c", "user.email=t@example.org", "commit", "-qm", "spec")
    target = tmp_path / "vendored"
    commit = refresh(clone, target)
    assert commit == _git(clone, "rev-parse", "HEAD")
    assert sorted(p.name for p in target.iterdir()) == ["LICENSE", "README.md", "openapi.json"]
    assert (target / "openapi.json").read_text(encoding="utf-8") == '{"openapi": "3.1.0"}'
    assert (target / "LICENSE").read_text(encoding="utf-8") == "MIT License"
    assert f"at commit `{commit}`" in (target / "README.md").read_text(encoding="utf-8")


def test_a_folder_that_is_no_clone_is_refused(tmp_path: Path,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["refresh", str(tmp_path)]) == 1
    assert "not a clone of" in capsys.readouterr().err


def test_the_vendored_copy_names_its_commit_and_licence() -> None:
    readme = (SPEC_DIRECTORY / "README.md").read_text(encoding="utf-8")
    assert "at commit `" in readme and "MIT" in readme
    assert (SPEC_DIRECTORY / "LICENSE").read_text(encoding="utf-8").startswith("MIT License")
