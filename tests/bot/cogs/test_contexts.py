"""Where each slash command works, as registered with Discord (`bot/cogs/installs.py`;
docs/PLAYING.md, "Where the commands work"): the `integration_types` and `contexts` of
every command in the payload the bot syncs, checked against the table below, so a command
added without its decision fails here."""

from __future__ import annotations

from tests.support.discord_harness import Harness

GUILD_INSTALL, USER_INSTALL = 0, 1
"""Discord's application integration types."""
GUILD, BOT_DM, PRIVATE_CHANNEL = 0, 1, 2
"""Discord's interaction context types."""

EVERYWHERE = ([GUILD_INSTALL, USER_INSTALL], [GUILD, BOT_DM, PRIVATE_CHANNEL])
SERVERS = ([GUILD_INSTALL], [GUILD])

WHERE: dict[str, tuple[list[int], list[int]]] = {
    # Games: between players anywhere, the place decides how boards are shown.
    "challenge": EVERYWHERE,
    "play": EVERYWHERE,
    "move": EVERYWHERE,
    "board": EVERYWHERE,
    "resign": EVERYWHERE,
    "draw": EVERYWHERE,
    "abort": EVERYWHERE,
    "rematch": EVERYWHERE,
    # A player's own information and the public ratings.
    "rating": EVERYWHERE,
    "leaderboard": EVERYWHERE,
    "history": EVERYWHERE,
    "export": EVERYWHERE,
    "analyze": EVERYWHERE,
    "rules": EVERYWHERE,
    "help": EVERYWHERE,
    "settings": EVERYWHERE,
    "puzzle": EVERYWHERE,
    "solve": EVERYWHERE,
    # A server's own: its settings, its daily puzzle, its tournaments.
    "server-settings": SERVERS,
    "puzzle-daily": SERVERS,
    "puzzle-daily-stop": SERVERS,
    "tournament": SERVERS,
}


async def test_every_command_is_registered_with_its_installs_and_contexts(
        harness: Harness) -> None:
    [sync] = [c for c in harness.discord.calls if c.method == "PUT"]
    registered = {c["name"]: (sorted(c["integration_types"]), sorted(c["contexts"]))
                  for c in sync.payload}
    assert set(registered) == set(WHERE), "a command without its decision, or a stale row"
    for name, where in WHERE.items():
        assert registered[name] == where, name
