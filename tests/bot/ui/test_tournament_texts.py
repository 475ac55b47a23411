"""The words of tournaments (`bot/ui/tournament_texts.py`): the sign-up post, pairings,
results, standings, listing and the game threads' names, from hand-built service values
(`tests/support/tournament_views.py`)."""

from __future__ import annotations

from dataclasses import replace
from datetime import timedelta

from bot import tournament_display as display
from bot.services.tournaments import Cell, ResultCell
from bot.ui import tournament_texts as texts
from storage import TournamentStatus
from tests.support.tournament_views import (
    CREATED,
    ORGANISER,
    PLAYERS,
    arena_view,
    round_one,
    standings_after_one,
    swiss_view,
)
from tournaments.model import Colour, Format


def test_the_signup_post_shows_the_settings_the_players_and_what_to_do() -> None:
    view = swiss_view(player_limit=16, role_id=123)
    embed = texts.tournament_embed(view, "en")
    assert embed.title == "Tournament #7: Friday Swiss"
    body = embed.description or ""
    assert "Swiss system, 5 rounds · Turkish draughts · 5 minutes per move · rated" in body
    assert f"Organiser: <@{ORGANISER}>" in body
    assert "<@&123>" in body and "Player limit: 16" in body
    assert "Starts when the organiser starts it" in body
    assert "Sign-up is open: press Join to play." in body
    [players] = embed.fields
    assert players.name == "Players: 3"
    assert players.value == ", ".join(f"<@{p}>" for p in PLAYERS[:3])


def test_a_timed_start_shows_in_each_readers_time_zone() -> None:
    starts = CREATED + timedelta(hours=2)
    body = texts.tournament_embed(swiss_view(starts_at=starts), "en").description or ""
    stamp = int(starts.timestamp())
    assert f"Starts <t:{stamp}:f> (<t:{stamp}:R>)" in body


def test_a_long_list_of_players_is_cut_with_how_many_more() -> None:
    embed = texts.tournament_embed(swiss_view(players=100), "en")
    [players] = embed.fields
    value = players.value or ""
    assert len(value) <= 1024  # Discord's limit for a field's value
    shown = value.count("<@")
    assert 40 <= shown < 100 and value.endswith(f"…and {100 - shown} more")


def test_no_player_yet_is_said() -> None:
    [players] = texts.tournament_embed(swiss_view(players=0), "en").fields
    assert players.value == "No one has joined yet."


def test_each_status_says_where_the_tournament_stands() -> None:
    running = swiss_view(status=TournamentStatus.RUNNING)
    assert display.status_text(running, "en") == "Under way: round 1 of 5."
    # The sign-up post is edited when the status changes, not at each round.
    assert display.status_text(running, "en", live=False) == "Under way."
    assert "Under way.\n" in (texts.tournament_embed(running, "en").description or "") + "\n"
    assert "join while it runs" in display.status_text(arena_view(), "en")
    assert texts.is_open(arena_view(status=TournamentStatus.RUNNING))
    assert not texts.is_open(running)
    assert display.status_text(replace(running, status=TournamentStatus.FINISHED),
                               "en") == "Finished."


def test_a_reader_without_the_join_button_is_not_told_to_press_it() -> None:
    # a web page's reader (`can_join=False`): the round under way, never "join"
    running = swiss_view(status=TournamentStatus.RUNNING)
    assert display.status_text(running, "en", can_join=False) == "Under way: round 1 of 5."
    arena = arena_view(status=TournamentStatus.RUNNING)
    assert display.status_text(arena, "en", can_join=False) == "Under way."
    assert "join" not in display.status_text(arena_view(), "en", can_join=False).lower()


def test_the_formats_are_named_with_their_length() -> None:
    assert display.format_text(arena_view(), "en") == "Arena, 1 hour"
    round_robin = swiss_view()
    round_robin = replace(round_robin, settings=replace(
        round_robin.settings, format=Format.ROUND_ROBIN, rounds=None, cycles=2))
    assert display.format_text(round_robin, "en").startswith("Double round robin")


def test_a_game_threads_name_fits_discords_100_characters_with_the_round_and_board() -> None:
    short = texts.game_thread_name(swiss_view(), 3, 12, "en")
    assert short == "Friday Swiss: round 3, board 12"
    long = texts.game_thread_name(swiss_view(name="x" * 100), 3, 12, "en")
    assert len(long) == 100 and long.endswith("…: round 3, board 12")


def test_pairings_name_each_board_with_its_thread_and_the_bye() -> None:
    lines = texts.pairings_text(swiss_view(), round_one(), "en").splitlines()
    assert lines == [
        "**Round 1: the pairings**",
        f"Board 1: <@{PLAYERS[0]}> (White) – <@{PLAYERS[1]}> (Black): <#9001>",
        f"<@{PLAYERS[2]}>: bye",
    ]
    assert texts.pairings_text(arena_view(), round_one(), "en").startswith("**New games**")


def test_results_are_written_on_the_tournaments_scale() -> None:
    assert texts.results_lines(round_one(), "en")[1] == (
        f"Board 1: <@{PLAYERS[0]}> **2-0** <@{PLAYERS[1]}>")


def test_standings_show_the_rank_score_and_the_tie_breaks_that_apply() -> None:
    embed = texts.standings_embed(standings_after_one(), "en")
    lines = (embed.description or "").splitlines()
    assert lines[0] == "After round 1"
    assert lines[1] == (f"**1.** <@{PLAYERS[0]}>: **2** · Buchholz Cut 1: 0 · "
                        "Sonneborn-Berger: 1.5")
    assert "direct encounter" not in (embed.description or "")


def test_the_podium_has_its_medals() -> None:
    assert texts.podium_lines(standings_after_one(final=True), "en") == [
        f"🥇 <@{PLAYERS[0]}>: 2 points", f"🥈 <@{PLAYERS[2]}>: 2 points",
        f"🥉 <@{PLAYERS[1]}>: 0 points"]


def test_the_listing_and_the_history_say_when_there_is_none() -> None:
    assert texts.listing_embed([], "en").description == (
        "No tournament is open or under way here. Members with Manage Server or the "
        "organiser role start one with /tournament create.")
    assert "#7" in (texts.listing_embed([swiss_view()], "en").description or "")
    assert texts.history_embed([], "en").description == (
        "No tournament has finished in this server yet.")


def test_a_long_listing_keeps_within_an_embeds_text() -> None:
    views = [replace(swiss_view(name="n" * 100), id=n) for n in range(1, 40)]
    description = texts.listing_embed(views, "en").description or ""
    assert len(description) <= 4096 and description.startswith("**#1** ")
    assert texts.fitted(["ab", "cd", "ef"], limit=5) == "ab\ncd"


def test_standings_while_a_round_is_under_way_say_so() -> None:
    """A game of the last round still under way: the standings are during that round,
    not after it, and its games count as they end."""
    standings = standings_after_one()
    first = standings.rows[0]
    playing = replace(first, results=(ResultCell(1, Cell.UNDER_WAY, 0, opponent=PLAYERS[1],
                                                 opponent_number=2, colour=Colour.WHITE),))
    during = replace(standings, rows=(playing, *standings.rows[1:]))
    lines = (texts.standings_embed(during, "en").description or "").splitlines()
    assert lines[0] == "During round 1: its games count as they end"
