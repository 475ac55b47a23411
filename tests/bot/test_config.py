"""Settings from the environment, the message catalog, and the texts of every game end."""

from __future__ import annotations

import re
from datetime import timedelta
from pathlib import Path

import pytest

import engine
from bot.config import ConfigError, MoveTime, load_settings, settings_from
from bot.messages import CATALOGS, ENGLISH, Msg, fields, template, text
from bot.services import BoardState, Ending, EndReason, SeatView
from bot.ui.present import Presenter, duration_text
from storage import GameResult, GameStatus, Seat


def test_defaults() -> None:
    settings = settings_from({})
    assert settings.token is None and settings.database == "data/dama.sqlite3"
    assert settings.challenge_expiry == timedelta(minutes=10)
    assert settings.inactivity_limit == timedelta(days=3)
    assert settings.default_move_time is MoveTime.NONE and settings.default_rated
    assert settings.dev_guild is None and settings.log_level == "INFO"


def test_values_are_read() -> None:
    settings = settings_from({
        "DISCORD_TOKEN": " abc ", "DAMA_DEV_GUILD": "1234", "DAMA_CHALLENGE_EXPIRY": "90s",
        "DAMA_INACTIVITY_LIMIT": "2d", "DAMA_LEADERBOARD_MIN_GAMES": "0",
        "DAMA_LEADERBOARD_MAX_DEVIATION": "350", "DAMA_DEFAULT_RATED": "no",
        "DAMA_DEFAULT_MOVE_TIME": "40s", "DAMA_LOG_LEVEL": "debug",
        "DAMA_DISCORD_URL": "http://127.0.0.1:8765",
    })
    assert settings.token == "abc" and settings.dev_guild == 1234
    assert settings.challenge_expiry == timedelta(seconds=90)
    assert settings.inactivity_limit == timedelta(days=2)
    assert settings.eligibility.min_games == 0 and settings.eligibility.max_deviation == 350
    assert not settings.default_rated and settings.default_move_time is MoveTime.SECONDS_40
    assert MoveTime.SECONDS_40.seconds == 40 and MoveTime.DAY_1.seconds == 86400
    assert settings.log_level == "DEBUG"


@pytest.mark.parametrize(("name", "value"), [
    ("DAMA_DEV_GUILD", "my-server"),
    ("DAMA_CHALLENGE_EXPIRY", "soon"),
    ("DAMA_INACTIVITY_LIMIT", "0s"),
    ("DAMA_LEADERBOARD_MIN_GAMES", "-1"),
    ("DAMA_LEADERBOARD_MAX_DEVIATION", "x"),
    ("DAMA_DEFAULT_RATED", "maybe"),
    ("DAMA_DEFAULT_MOVE_TIME", "2m"),
    ("DAMA_LOG_LEVEL", "LOUD"),
    ("DAMA_DISCORD_URL", "ftp://x"),
    ("DAMA_BOARD_SIZE", "5000"),
])
def test_bad_values_give_one_line_naming_the_setting(name: str, value: str) -> None:
    with pytest.raises(ConfigError) as info:
        settings_from({name: value})
    message = str(info.value)
    assert "\n" not in message and name in message


def test_dotenv_file_and_environment_precedence(tmp_path: Path) -> None:
    env_file = tmp_path / ".env"
    env_file.write_text("DISCORD_TOKEN=from-file\nDAMA_DEV_GUILD=42\n")
    settings = load_settings({"DAMA_DEV_GUILD": "43"}, env_file)
    assert settings.token == "from-file" and settings.dev_guild == 43


def test_catalog_has_every_message_and_falls_back_to_english() -> None:
    assert set(ENGLISH) == set(Msg)
    for key in Msg:
        assert template(key, "tr") == ENGLISH[key]  # no Turkish catalog yet: English
        assert template(key, "en-GB") == ENGLISH[key]
    assert "en" in CATALOGS
    assert text(Msg.NOT_YOUR_TURN, "fr", player="<@1>", color="White").startswith("It is not")
    assert fields(Msg.MOVE_AMBIGUOUS) == {"text", "candidates"}


def test_service_errors_fill_their_templates() -> None:
    """Every `PlayerError` the services raise names exactly the fields its message uses."""
    root = Path(__file__).resolve().parents[2] / "bot" / "services"
    pattern = re.compile(r"PlayerError\(\s*Msg\.([A-Z_]+)((?:[^()]|\([^()]*\))*)\)", re.S)
    seen = 0
    for source in root.glob("*.py"):
        for match in pattern.finditer(source.read_text()):
            key = Msg[match.group(1)]
            given = set(re.findall(r"(\w+)=", match.group(2)))
            assert fields(key) <= given, (key, given)
            seen += 1
    assert seen >= 15


def _state(reason: EndReason, winner: engine.Color | None, result: GameResult | None,
           by_user: int | None = None) -> BoardState:
    variant = engine.get_variant("turkish")
    return BoardState(
        game_id=7, channel_id=1, guild_id=2, variant=variant, rated=False, move_seconds=None,
        status=GameStatus.FINISHED if result else GameStatus.ABORTED,
        position=engine.Position.start(variant), before=None, last_move=None,
        last_move_text=None, ply=0,
        white=SeatView(Seat.human(11), engine.Color.WHITE, None),
        black=SeatView(Seat.human(22), engine.Color.BLACK, None),
        draw_offer_by=None, deadline=None, ending=Ending(reason, winner, result, by_user),
        board_message_id=None,
    )


@pytest.mark.parametrize(("reason", "winner", "expected"), [
    (EndReason.NO_PIECES, engine.Color.WHITE, "<@11> wins (1-0). <@22> has no pieces left."),
    (EndReason.NO_LEGAL_MOVE, engine.Color.BLACK, "<@22> wins (0-1). <@11> has no legal move."),
    (EndReason.REPETITION, None, "Draw (½-½). The same position occurred three times."),
    (EndReason.ONE_PIECE_EACH, None, "Draw (½-½). Each side has one piece left."),
    (EndReason.MOVE_LIMIT, None, "Draw (½-½). The move limit"),
    (EndReason.RESIGNATION, engine.Color.WHITE, "<@11> wins (1-0). <@22> resigned."),
    (EndReason.AGREEMENT, None, "Draw (½-½). The players agreed to a draw."),
    (EndReason.TIME_FORFEIT, engine.Color.BLACK, "<@22> wins (0-1). <@11> ran out of time."),
    (EndReason.INACTIVITY, engine.Color.WHITE, "<@22> did not move for 3 days"),
])
def test_every_ending_has_a_result_line(reason: EndReason, winner: engine.Color | None,
                                        expected: str) -> None:
    result = {engine.Color.WHITE: GameResult.WHITE_WINS,
              engine.Color.BLACK: GameResult.BLACK_WINS, None: GameResult.DRAW}[winner]
    line = Presenter().result_text(_state(reason, winner, result), None)
    assert expected in line


def test_engine_terminations_all_have_an_end_reason() -> None:
    for termination in engine.Termination:
        assert EndReason.of(termination).value == termination.value


def test_aborted_line_and_durations() -> None:
    line = Presenter().result_text(_state(EndReason.ABORTED, None, None, by_user=33), None)
    assert line.startswith("Game aborted") and "<@33>" in line
    assert duration_text(timedelta(minutes=10)) == "10 minutes"
    assert duration_text(timedelta(seconds=40)) == "40 seconds"
    assert duration_text(timedelta(days=1)) == "1 day"


def test_env_example_lists_every_setting_and_parses() -> None:
    root = Path(__file__).resolve().parents[2]
    source = (root / "bot" / "config.py").read_text()
    read = set(re.findall(r'"((?:DAMA|DISCORD)_[A-Z_]+)"', source))
    example = (root / ".env.example").read_text()
    listed = set(re.findall(r"^((?:DAMA|DISCORD)_[A-Z_]+)=", example, re.M))
    assert read <= listed, read - listed
    values = dict(re.findall(r"^([A-Z_]+)=(.*)$", example, re.M))
    settings = settings_from(values)  # the example's values are valid
    assert settings.token is None and settings.challenge_expiry == timedelta(minutes=10)
