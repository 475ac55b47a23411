"""`python -m renderer`: pictures written, bad input reported in one line (status 2)."""

from __future__ import annotations

import io
import subprocess
import sys
from pathlib import Path

import pytest

from renderer.cli import main
from tests.renderer.pixels import decode

ROOT = Path(__file__).parent.parent.parent


def run(*argv: str) -> tuple[int, str]:
    err = io.StringIO()
    return main(list(argv), stderr=err), err.getvalue()


def test_png_of_a_position(tmp_path: Path) -> None:
    out = tmp_path / "board.png"
    status, err = run("italian", "start", str(out), "--size", "300", "--numbers")
    assert (status, err) == (0, "")
    im = decode(out.read_bytes())
    assert (im.format, im.size, im.mode) == ("PNG", (300, 300), "P")


def test_png_after_a_move_from_blacks_side(tmp_path: Path) -> None:
    out = tmp_path / "board.png"
    status, err = run("turkish", "W:Wd3,Ka1,h2:Bd4,c5,b6,e7,f8,d7", str(out),
                      "--last-move", "d3xd5xb5xb7", "--perspective", "black",
                      "--marks", "a5,h4")
    assert (status, err) == (0, "")
    assert decode(out.read_bytes()).size == (512, 512)


def test_international_after_a_move_in_fmjd_numbers(tmp_path: Path) -> None:
    out = tmp_path / "board.png"
    status, err = run("international", "start", str(out), "--last-move", "32-28",
                      "--numbers", "--marks", "j10,e5")
    assert (status, err) == (0, "")
    assert decode(out.read_bytes()).size == (512, 512)
    status, err = run("international", "start", str(out), "--size", "160")
    assert status == 2 and "200..2048" in err


def test_gif_of_a_move(tmp_path: Path) -> None:
    out = tmp_path / "move.gif"
    status, _ = run("turkish", "W:Wd3,Ka1,h2:Bd4,c5,b6,e7,f8,d7", str(out),
                    "--last-move", "d3xb7", "--size", "200")
    assert status == 0
    im = decode(out.read_bytes())
    assert im.format == "GIF"
    assert getattr(im, "n_frames", 1) == 4


@pytest.mark.parametrize(
    ("argv", "needle"),
    [
        (["chess", "start", "X.png"], "unknown variant"),
        (["italian", "W:Wz9", "X.png"], "z9"),
        (["italian", "start", "X.png", "--last-move", "22-99"], "22-99"),
        (["italian", "start", "X.png", "--last-move", "21-13"], "not legal"),
        (["italian", "start", "X.png", "--size", "64"], "160"),
        (["italian", "start", "X.png", "--size", "big"], "whole number"),
        (["italian", "start", "X.png", "--perspective", "red"], "perspective"),
        (["italian", "start", "X.jpg"], ".png or .gif"),
        (["italian", "start", "X.gif"], "--last-move"),
        (["turkish", "start", "X.png", "--numbers"], "numbers"),
        (["italian", "start"], "required"),
    ],
)
def test_bad_input_is_one_line_and_status_2(tmp_path: Path, argv: list[str],
                                            needle: str) -> None:
    argv = [str(tmp_path / a) if a.startswith("X.") else a for a in argv]
    status, err = run(*argv)
    assert status == 2
    assert needle in err
    assert err.count("\n") == 1 and "Traceback" not in err
    assert not any(tmp_path.iterdir())


def test_module_entry_point(tmp_path: Path) -> None:
    out = tmp_path / "b.png"
    ok = subprocess.run([sys.executable, "-m", "renderer", "moroccan", "start", str(out)],
                        cwd=ROOT, capture_output=True, text=True)
    assert ok.returncode == 0 and out.exists()
    bad = subprocess.run([sys.executable, "-m", "renderer", "moroccan", "start",
                          str(tmp_path / "b.png"), "--size", "1"],
                         cwd=ROOT, capture_output=True, text=True)
    assert bad.returncode == 2
    assert "Traceback" not in bad.stderr and "160" in bad.stderr
