"""The engine's command line: `python -m engine moves|perft|replay`.

Expected figures: the start positions' legal moves from docs/RULES.md (Italian: White's seven
first moves 21-17 ... 24-20; Turkish: the eight men of rank 3 step forward) and published
perft numbers (Turkish 8, 64, 708, 7538 from Mazyod/kish; Italian 7, 49, 302 from
rhalbersma/dctl).
"""

from __future__ import annotations

import io
import subprocess
import sys
from pathlib import Path

import pytest

from engine.cli import main

DATA = Path(__file__).parent.parent / "data" / "italian-assoluto-2005-rounds-1-3.pdn"
ROOT = Path(__file__).parent.parent.parent


def run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    status = main(list(argv), stdout=out, stderr=err)
    return status, out.getvalue(), err.getvalue()


def test_moves_italian_start() -> None:
    status, out, err = run("moves", "italian", "start")
    assert status == 0 and err == ""
    # docs/RULES.md: 21-17, 21-18, 22-18, 22-19, 23-19, 23-20, 24-20 with 17 = a4, 18 = c4,
    # 19 = e4, 20 = g4, 21 = b3, 22 = d3, 23 = f3, 24 = h3.
    assert sorted(out.split()) == sorted(
        ["b3-a4", "b3-c4", "d3-c4", "d3-e4", "f3-e4", "f3-g4", "h3-g4"]
    )
    status, out, _ = run("moves", "Italian-Draughts", "start", "--numeric")
    assert status == 0
    assert sorted(out.split()) == sorted(
        ["21-17", "21-18", "22-18", "22-19", "23-19", "23-20", "24-20"]
    )


def test_moves_turkish_start_and_full_capture_paths() -> None:
    status, out, _ = run("moves", "dama", "start")
    assert status == 0
    assert sorted(out.split()) == [f"{f}3-{f}4" for f in "abcdefgh"]
    # A man on d3 takes c4 and c6 (landing b5, d7) or e4 and e6 (landing f5, d7): the same
    # start and end, so only the full form tells them apart.
    status, out, _ = run("moves", "italian", "W:Wd3:Bc4,c6,e4,e6")
    assert status == 0
    assert sorted(out.split()) == ["d3xb5xd7", "d3xf5xd7"]


@pytest.mark.parametrize(
    ("variant", "depth", "count"),
    [("turkish", 0, 1), ("turkish", 1, 8), ("turkish", 2, 64), ("turkish", 3, 708),
     ("turkish", 4, 7538), ("italian", 1, 7), ("italian", 2, 49), ("italian", 3, 302),
     ("arab", 3, 708), ("moroccan", 3, 302)],
)
def test_perft_start(variant: str, depth: int, count: int) -> None:
    status, out, err = run("perft", variant, "start", str(depth))
    assert (status, out, err) == (0, f"{count}\n", "")


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (("moves", "chess", "start"), "turkish, arab, moroccan, italian"),
        (("moves", "italian", "W:Wa1:Bh8"), "a1"),
        (("perft", "turkish", "X:nonsense", "2"), "error"),
        (("moves", "turkish", "start", "--numeric"), "numeric"),
        (("replay", "/nonexistent/games.pdn"), "no such file"),
        (("replay", str(ROOT / "tests")), "folder"),
        (("replay", str(DATA), "--variant", "chess"), "unknown variant"),
    ],
)
def test_input_errors_go_to_stderr(argv: tuple[str, ...], message: str) -> None:
    status, out, err = run(*argv)
    assert status == 1
    assert out == ""
    assert err.startswith("python -m engine: error: ")
    assert message in err
    assert "Traceback" not in err


@pytest.mark.parametrize("depth", ["-1", "two", "1.5"])
def test_bad_depth_is_a_usage_error(depth: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as info:
        main(["perft", "turkish", "start", depth])
    assert info.value.code == 2
    assert "depth" in capsys.readouterr().err


def test_replay_the_italian_championship() -> None:
    status, out, err = run("replay", str(DATA), "--variant", "italian")
    assert status == 0 and err == ""
    lines = out.splitlines()
    games = [line for line in lines if line.startswith("game ")]
    assert len(games) == 27
    assert games[0].startswith("game 1: italian, Giocatore 01 - Giocatore 02: 1-0 after 75 plies")
    assert all("not over by rule" in line for line in games)
    results = [line.split(": ")[2].split()[0] for line in games]
    assert results.count("1-0") == 6 and results.count("0-1") == 9
    assert results.count("1/2-1/2") == 12
    warnings = [line for line in lines if line.startswith("    warning: ")]
    assert len(warnings) == 1 and "repetition" in warnings[0]
    assert lines[-1] == "27 games, 27 replayed"


@pytest.mark.parametrize(
    ("variant", "depth", "count"),
    # Published start perft: Brazilian and Russian 7, 49, 302 (rhalbersma/dctl); English
    # checkers 7, 49, 302 (OEIS A133046); International 9, 81 (rhalbersma/dctl).
    [("brazilian", 3, 302), ("russian", 3, 302), ("english", 3, 302),
     ("international", 2, 81)],
)
def test_perft_start_of_the_a1_dark_variants(variant: str, depth: int, count: int) -> None:
    status, out, err = run("perft", variant, "start", str(depth))
    assert (status, out, err) == (0, f"{count}\n", "")


def test_moves_english_start_in_numbers() -> None:
    # docs/RULES.md: Black's seven first moves 9-13, 9-14, 10-14, 10-15, 11-15, 11-16, 12-16.
    status, out, err = run("moves", "english", "start", "--numeric")
    assert status == 0 and err == ""
    assert sorted(out.split()) == sorted(
        ["9-13", "9-14", "10-14", "10-15", "11-15", "11-16", "12-16"]
    )


def test_replay_english_checkers_with_results_black_first() -> None:
    # tests/data/README.md: 43 games; the file writes Black's score first, so its first
    # game's `1-0` (a win for Black) is printed White first, `0-1`.
    path = DATA.parent / "english-oca-1841-1849.pdn"
    status, out, err = run("replay", str(path), "--variant", "english",
                           "--result-first", "black")
    assert status == 0 and err == ""
    lines = out.splitlines()
    assert lines[-1] == "43 games, 43 replayed"
    first = next(line for line in path.read_text(encoding="utf-8").splitlines()
                 if line.startswith("[Result "))
    printed = lines[0].split(": ")[2].split()[0]
    flipped = {"1-0": "0-1", "0-1": "1-0"}
    assert printed == flipped.get(first[9:-2], first[9:-2])
    assert lines[0].startswith("game 1: english, ")


def test_replay_without_a_variant_says_how_to_give_one() -> None:
    status, out, err = run("replay", str(DATA))
    assert status == 1
    assert out.count("ILLEGAL") == 0
    lines = out.splitlines()
    assert len(lines) == 28
    assert lines[0].startswith("game 1 (line 1): the game does not say its variant")
    assert lines[-1] == "27 games, 0 replayed, 27 not replayed"
    assert "did not replay" in err


def test_replay_reports_the_first_illegal_move(tmp_path: Path) -> None:
    path = tmp_path / "bad.pdn"
    path.write_text(
        '[Variant "italian"]\n1. 21-17 12-15 *\n\n[Variant "italian"]\n'
        '1. 21-17 12-16 2. 22-18 11-15 3. 21-17 *\n',
        encoding="latin-1",
    )
    status, out, err = run("replay", str(path))
    assert status == 1
    lines = out.splitlines()
    assert lines[0].startswith("game 1: italian, ? - ?: * after 2 plies")
    assert lines[1].startswith("game 2: ILLEGAL move 3 (white) '21-17' on line 5: ")
    assert "empty" in lines[1]
    assert lines[2] == "2 games, 1 replayed, 1 not replayed"
    assert "1 of 2 games" in err


def test_replay_broken_pdn(tmp_path: Path) -> None:
    path = tmp_path / "broken.pdn"
    path.write_text('[Variant "italian"]\n1. 21-17 {never closed\n', encoding="utf-8")
    status, out, err = run("replay", str(path))
    assert status == 1 and out == ""
    assert "line 2" in err and "comment" in err
    empty = tmp_path / "empty.pdn"
    empty.write_text("; nothing here\n", encoding="utf-8")
    assert run("replay", str(empty))[0] == 1


def test_python_dash_m_engine_as_make_run_calls_it() -> None:
    for argv, first in ((["moves", "italian", "start"], "b3-a4"),
                        (["perft", "turkish", "start", "4"], "7538")):
        done = subprocess.run(
            [sys.executable, "-m", "engine", *argv], capture_output=True, text=True,
            cwd=ROOT, check=False,
        )
        assert done.returncode == 0, done.stderr
        assert first in done.stdout.split()
    done = subprocess.run(
        [sys.executable, "-m", "engine", "perft", "chess", "start", "2"],
        capture_output=True, text=True, cwd=ROOT, check=False,
    )
    assert done.returncode == 1 and "Traceback" not in done.stderr
    assert "unknown variant" in done.stderr
    done = subprocess.run([sys.executable, "-m", "engine", "--help"], capture_output=True,
                          text=True, cwd=ROOT, check=False)
    assert done.returncode == 0 and "replay" in done.stdout and "perft" in done.stdout
