"""`dama-bot local`'s options: handed over by the bot's entry point unread, parsed by
`localplay`, the same list as before local play left the `bot` package."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from bot.__main__ import main

OPTIONS = {
    "-h", "--script", "--replay", "--variant", "--parallel", "--database", "--fresh",
    "--boards", "--log", "--user", "--locale", "--shards", "--web",
}
"""Every option of `dama-bot local` (docs/LOCAL_PLAY.md)."""


def test_local_help_lists_every_option(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as leaving:
        main(["local", "--help"])
    assert leaving.value.code == 0
    text = capsys.readouterr().out
    assert text.startswith("usage: dama-bot local")
    usage = text.split("\n\n")[0]
    assert set(re.findall(r"\[(--?[a-z]+)", usage)) == OPTIONS


def test_options_and_their_values_reach_local_play(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # A script that cannot be read is refused before anything starts, naming the path given.
    missing = tmp_path / "no such script.txt"
    assert main(["local", "--user", "bob", "--script", str(missing), "--fresh"]) == 2
    assert f"cannot read --script {missing}" in capsys.readouterr().out


def test_a_wrong_local_option_is_refused_by_local_play(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as leaving:
        main(["local", "--parallel", "two"])
    assert leaving.value.code == 2
    error = capsys.readouterr().err
    assert "usage: dama-bot local" in error and "--parallel: invalid int value: 'two'" in error


def test_local_options_are_unknown_to_run(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as leaving:
        main(["run", "--fresh"])
    assert leaving.value.code == 2
    assert "unrecognized arguments: --fresh" in capsys.readouterr().err
