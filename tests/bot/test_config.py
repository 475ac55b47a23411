"""Settings from the environment and `.env` (`bot/config.py`): defaults, values read, one-line
errors naming the setting, and `.env.example` listing every setting."""

from __future__ import annotations

import re
from datetime import timedelta
from ipaddress import ip_network
from pathlib import Path

import pytest

from bot.config import ConfigError, MoveTime, load_settings, settings_from


def test_defaults() -> None:
    settings = settings_from({})
    assert settings.token is None and settings.database == "data/dama.sqlite3"
    assert settings.challenge_expiry == timedelta(minutes=10)
    assert settings.correspondence_challenge_expiry == timedelta(days=3)
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
        "DAMA_CORRESPONDENCE_CHALLENGE_EXPIRY": "1d",
    })
    assert settings.token == "abc" and settings.dev_guild == 1234
    assert settings.challenge_expiry == timedelta(seconds=90)
    assert settings.correspondence_challenge_expiry == timedelta(days=1)
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


@pytest.mark.parametrize("value", [
    "mysql://dama:s3cret@db.example/dama", "postgresq://dama:s3cret@db/dama",
    "sqlite:///data/dama.sqlite3",
])
def test_a_database_url_of_another_kind_is_refused_not_taken_for_a_file(value: str) -> None:
    # Taken for an SQLite path, it would create a folder named after the scheme and an
    # empty database, and the bot would run on it.
    with pytest.raises(ConfigError) as info:
        settings_from({"DAMA_DATABASE": value})
    message = str(info.value)
    assert "\n" not in message and "DAMA_DATABASE" in message and "s3cret" not in message


@pytest.mark.parametrize("value", [
    "data/dama.sqlite3", "/var/lib/dama/dama.sqlite3", "postgresql://dama:pw@db:5432/dama",
    "postgres://dama@db/dama", "C:\\dama\\dama.sqlite3",
])
def test_a_database_path_or_postgresql_url_is_kept(value: str) -> None:
    assert settings_from({"DAMA_DATABASE": value}).database == value


def test_dotenv_file_and_environment_precedence(tmp_path: Path) -> None:
    env_file = tmp_path / ".env"
    env_file.write_text("DISCORD_TOKEN=from-file\nDAMA_DEV_GUILD=42\n")
    settings = load_settings({"DAMA_DEV_GUILD": "43"}, env_file)
    assert settings.token == "from-file" and settings.dev_guild == 43


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


@pytest.mark.parametrize("value", ["99999999999d", "1e300d", "400d", "99999999h"])
def test_huge_durations_are_one_line_config_errors(value: str) -> None:
    # Config errors are one line naming the setting, never a traceback (OverflowError).
    for name in ("DAMA_CHALLENGE_EXPIRY", "DAMA_CORRESPONDENCE_CHALLENGE_EXPIRY",
                 "DAMA_INACTIVITY_LIMIT"):
        with pytest.raises(ConfigError) as caught:
            settings_from({name: value})
        message = str(caught.value)
        assert name in message and "\n" not in message


def test_absent_player_settings() -> None:
    default = settings_from({})
    assert (default.absent_player_level, default.absent_player_budget) == (5, 1.0)
    assert default.computer_budget is None and default.computer_workers is None
    chosen = settings_from({"DAMA_ABSENT_PLAYER_LEVEL": "2", "DAMA_ABSENT_PLAYER_BUDGET": "0.5",
                            "DAMA_COMPUTER_BUDGET": "0.1", "DAMA_COMPUTER_WORKERS": "2"})
    assert (chosen.absent_player_level, chosen.absent_player_budget) == (2, 0.5)
    assert (chosen.computer_budget, chosen.computer_workers) == (0.1, 2)
    for name, value in (("DAMA_ABSENT_PLAYER_LEVEL", "6"), ("DAMA_ABSENT_PLAYER_BUDGET", "x"),
                        ("DAMA_COMPUTER_WORKERS", "0")):
        with pytest.raises(ValueError, match=name):
            settings_from({name: value})


def test_challenge_limits_from_the_environment() -> None:
    assert settings_from({}).challenges_per_challenger == 3
    assert settings_from({}).challenges_per_opponent == 5
    read = settings_from({"DAMA_CHALLENGES_PER_CHALLENGER": "1",
                          "DAMA_CHALLENGES_PER_OPPONENT": "25"})
    assert (read.challenges_per_challenger, read.challenges_per_opponent) == (1, 25)
    for bad in ("0", "26", "many"):
        with pytest.raises(ConfigError, match="DAMA_CHALLENGES_PER_OPPONENT"):
            settings_from({"DAMA_CHALLENGES_PER_OPPONENT": bad})


def test_the_database_pool_size_from_the_environment() -> None:
    assert settings_from({}).database_pool_size == 10
    assert settings_from({"DAMA_DATABASE_POOL_SIZE": "40"}).database_pool_size == 40
    for bad in ("0", "1001", "many"):
        with pytest.raises(ConfigError, match="DAMA_DATABASE_POOL_SIZE"):
            settings_from({"DAMA_DATABASE_POOL_SIZE": bad})


# --- shards (bot.services.shards; docs/OPERATING.md, "Running at scale") ------------------


def test_shards_default_to_every_shard_in_this_process() -> None:
    settings = settings_from({})
    assert settings.shard_count is None and settings.shard_ids is None
    assert settings.shard_scope.everything and settings.machine_processes == 1


@pytest.mark.parametrize(("ids", "expected"), [
    ("0-3", {0, 1, 2, 3}), ("0,2", {0, 2}), ("5", {5}), (" 1 - 2 , 7 ", {1, 2, 7}),
])
def test_shard_ids_are_read_as_ranges_and_lists(ids: str, expected: set[int]) -> None:
    settings = settings_from({"DAMA_SHARD_COUNT": "8", "DAMA_SHARD_IDS": ids})
    assert settings.shard_count == 8 and settings.shard_ids == frozenset(expected)


@pytest.mark.parametrize(("env", "says"), [
    ({"DAMA_SHARD_IDS": "0-1"}, "set DAMA_SHARD_COUNT too"),
    ({"DAMA_SHARD_COUNT": "2", "DAMA_SHARD_IDS": "0-2"}, "shard 2 does not exist with 2 shards"),
    ({"DAMA_SHARD_COUNT": "4", "DAMA_SHARD_IDS": "3-1"}, "runs backwards; write 1-3"),
    ({"DAMA_SHARD_COUNT": "4", "DAMA_SHARD_IDS": "0,0"}, "shard 0 is named twice"),
    ({"DAMA_SHARD_COUNT": "4", "DAMA_SHARD_IDS": "0-1,1"}, "shard 1 is named twice"),
    ({"DAMA_SHARD_COUNT": "4", "DAMA_SHARD_IDS": "first"}, "'first' is not a shard id"),
    ({"DAMA_SHARD_COUNT": "4", "DAMA_SHARD_IDS": "0,,1"}, "'' is not a shard id"),
    ({"DAMA_SHARD_COUNT": "4", "DAMA_SHARD_IDS": "-1"}, "'-1' is not a shard id"),
    ({"DAMA_SHARD_COUNT": "0"}, "DAMA_SHARD_COUNT='0' is not valid: write a whole number"),
    ({"DAMA_SHARD_COUNT": "two"}, "DAMA_SHARD_COUNT='two' is not valid"),
    ({"DAMA_MACHINE_PROCESSES": "0"}, "DAMA_MACHINE_PROCESSES='0' is not valid"),
])
def test_bad_shard_settings_say_what_to_write(env: dict[str, str], says: str) -> None:
    with pytest.raises(ConfigError) as info:
        settings_from(env)
    message = str(info.value)
    assert "\n" not in message and says in message


def test_the_web_face_is_configured_by_its_address_or_its_url() -> None:
    assert settings_from({}).web is None
    by_port = settings_from({"DAMA_WEB_ADDRESS": "8080"}).web
    assert by_port is not None
    assert (str(by_port.address), by_port.url) == ("127.0.0.1:8080", "http://127.0.0.1:8080")
    assert (by_port.secret, by_port.rate, by_port.burst) == (None, 10.0, 40)
    by_url = settings_from({"DAMA_WEB_URL": "https://dama.example.org/",
                            "DAMA_WEB_SECRET": "k" * 32, "DAMA_WEB_RATE": "2",
                            "DAMA_WEB_BURST": "5",
                            "DAMA_WEB_TRUSTED_PROXIES": "127.0.0.1, 0:0::1"}).web
    assert by_url is not None and by_url.address is None
    assert (by_url.url, by_url.secret, by_url.rate, by_url.burst) == (
        "https://dama.example.org", "k" * 32, 2.0, 5)
    assert by_url.trusted_proxies == frozenset({ip_network("127.0.0.1/32"),
                                                 ip_network("::1/128")})
    ipv6 = settings_from({"DAMA_WEB_ADDRESS": "[::1]:9000"}).web
    assert ipv6 is not None and ipv6.url == "http://[::1]:9000"


def test_trusted_proxies_may_be_networks_written_in_cidr_form() -> None:
    web = settings_from({"DAMA_WEB_ADDRESS": "8080", "DAMA_WEB_TRUSTED_PROXIES":
                         "10.0.0.0/8,172.16.0.0/12, 127.0.0.1,192.168.5.9/24,fd00::/8"}).web
    assert web is not None
    assert web.trusted_proxies == frozenset(ip_network(text) for text in (
        "10.0.0.0/8", "172.16.0.0/12", "127.0.0.1/32", "192.168.5.0/24", "fd00::/8"))


def test_a_trusted_proxy_written_as_an_ipv4_mapped_address_is_its_ipv4_network() -> None:
    """A dual-stack socket names an IPv4 peer `::ffff:10.0.0.1`, and the limits read it as
    `10.0.0.1` (`bot.web.limits`): a proxy written as its log shows it is trusted."""
    web = settings_from({"DAMA_WEB_ADDRESS": "8080",
                         "DAMA_WEB_TRUSTED_PROXIES": "::ffff:10.0.0.0/104, ::ffff:127.0.0.1"
                         }).web
    assert web is not None
    assert web.trusted_proxies == frozenset({ip_network("10.0.0.0/8"),
                                             ip_network("127.0.0.1/32")})


@pytest.mark.parametrize("address", ["0.0.0.0:8080", "[::]:8080"])
def test_listening_on_every_interface_needs_the_pages_url(address: str) -> None:
    """No browser opens `http://0.0.0.0:8080`: the links need `DAMA_WEB_URL` then."""
    with pytest.raises(ConfigError) as caught:
        settings_from({"DAMA_WEB_ADDRESS": address})
    assert "DAMA_WEB_URL" in str(caught.value) and "\n" not in str(caught.value)
    told = settings_from({"DAMA_WEB_ADDRESS": address,
                          "DAMA_WEB_URL": "https://dama.example.org"}).web
    assert told is not None and told.url == "https://dama.example.org"


def test_the_pages_url_is_an_origin_and_a_path_is_refused() -> None:
    origin = settings_from({"DAMA_WEB_URL": "https://dama.example.org:8443/"}).web
    assert origin is not None and origin.url == "https://dama.example.org:8443"
    with pytest.raises(ConfigError) as caught:
        settings_from({"DAMA_WEB_URL": "https://example.org/dama"})
    message = str(caught.value)
    assert "DAMA_WEB_URL" in message and "\n" not in message
    assert "own host name" in message


@pytest.mark.parametrize("url", [
    "https://dama.example.org:abc",
    "https://dama.example.org:",
    "https://dama.example.org:99999",
    "https://:443",
    "https://user:secret@dama.example.org",
    "https://dama.example.org\\games",
    "https://[::1",
])
def test_a_web_url_that_is_no_origin_is_refused(url: str) -> None:
    """A link button's URL Discord refuses fails the whole message it is under, so a bad
    host or port is refused at start, not at the first `/rating`."""
    with pytest.raises(ConfigError) as caught:
        settings_from({"DAMA_WEB_URL": url})
    assert "DAMA_WEB_URL" in str(caught.value) and "\n" not in str(caught.value)


@pytest.mark.parametrize("url", ["https://dama.example.org:8443", "http://[2001:db8::1]:8080",
                                 "http://127.0.0.1", "https://dama-bot.example.org"])
def test_a_web_url_that_is_an_origin_is_taken(url: str) -> None:
    web = settings_from({"DAMA_WEB_URL": url}).web
    assert web is not None and web.url == url


@pytest.mark.parametrize("name, value", [
    ("DAMA_WEB_ADDRESS", "localhost"),
    ("DAMA_WEB_ADDRESS", "127.0.0.1:70000"),
    ("DAMA_WEB_ADDRESS", "a b:80"),
    ("DAMA_WEB_URL", "dama.example.org"),
    ("DAMA_WEB_URL", "ftp://dama.example.org"),
    ("DAMA_WEB_URL", "https://example.org/dama"),
    ("DAMA_WEB_SECRET", "short"),
    ("DAMA_WEB_TRUSTED_PROXIES", "proxy.example.org"),
    ("DAMA_WEB_TRUSTED_PROXIES", "10.0.0.0/33"),
    ("DAMA_WEB_TRUSTED_PROXIES", "10.0.0.0/8,, 300.1.2.3"),
    ("DAMA_WEB_URL", "https://example.org/dama/"),
    ("DAMA_WEB_RATE", "0"),
])
def test_a_bad_web_setting_is_one_line(name: str, value: str) -> None:
    env = {"DAMA_WEB_ADDRESS": "8080", name: value}
    with pytest.raises(ConfigError) as caught:
        settings_from(env)
    assert name in str(caught.value) and "\n" not in str(caught.value)
    if name == "DAMA_WEB_SECRET":
        assert value not in str(caught.value)  # a secret is never repeated
