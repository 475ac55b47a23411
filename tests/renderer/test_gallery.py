"""`make gallery`: every picture it promises is written and readable.

This also keeps the gallery's example positions honest: each example capture must still
be a legal move for the engine, or the gallery fails.
"""

from __future__ import annotations

from pathlib import Path

from renderer.gallery import A1_DARK_EXAMPLES, EXAMPLES, main, write_gallery
from tests.renderer.pixels import decode


def test_gallery_writes_every_picture(tmp_path: Path) -> None:
    paths = write_gallery(tmp_path / "g", size=200)
    names = {p.name for p in paths}
    for key in ("turkish", "arab", "moroccan", "italian", "brazilian", "international",
                "russian", "english"):
        for stem in ("start-white", "start-black", "middle-marks", "capture-white",
                     "capture-black"):
            assert f"{key}-{stem}.png" in names
        assert f"{key}-capture.gif" in names and f"{key}-game.gif" in names
    assert "italian-capture-numbers.png" in names
    assert "international-capture-numbers.png" in names  # the FMJD's numbers 1..50
    assert "english-capture-numbers.png" in names  # 1..32 from b8
    assert "italian-puzzle.png" in names
    assert "italian-puzzle-answered.png" in names
    assert "italian-analysis.png" in names
    standings = {"standings-swiss.png", "standings-swiss-arabic.png",
                 "standings-round-robin.png", "standings-arena.png"}
    assert standings <= names
    assert len(EXAMPLES) == 4 and len(A1_DARK_EXAMPLES) == 4
    for path in paths:
        im = decode(path.read_bytes())
        if path.name == "italian-analysis.png":
            assert im.size == (1080, 540)
        elif path.name in standings:
            assert im.width > im.height or path.name == "standings-arena.png"
        else:
            assert im.size == (200, 200), path.name
        assert im.format == ("GIF" if path.suffix == ".gif" else "PNG")


def test_gallery_usage_error() -> None:
    assert main([]) == 2
