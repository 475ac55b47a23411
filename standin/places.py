"""Where a user-installed app lives: the driver's calls for installations, DMs and group
DMs between users, closed DMs, the USE_EXTERNAL_APPS permission and the stand-in's clock.

Discord developer docs: Resources > Application, Installation Context (an app installed
to a server, GUILD_INSTALL, or to a user's account, USER_INSTALL); Interactions >
Receiving and Responding (interaction contexts, authorizing integration owners, follow-up
limits, the 15-minute token); Topics > Permissions (USE_EXTERNAL_APPS).
"""

from __future__ import annotations

from collections.abc import Iterable

from .channels import group_dm, user_dm
from .directory import ChannelInfo, Directory, GuildRef, UserRef
from .dm_limits import DmCounts
from .errors import StandInError


class Places(Directory):
    """The installation and private-channel calls of the driver (see the module)."""

    def install_for_user(self, user: UserRef) -> None:
        """`user` installs the app to their account (USER_INSTALL): its commands whose
        `integration_types` include 1 are offered to them wherever their contexts allow,
        also in DMs and group DMs between users and in servers without the app."""
        u = self._user(user)
        if u.bot:
            raise StandInError(f"{u.username} is a bot account; bots install no apps")
        self.world.user_installs.add(u.id)

    def keep_user_installs(self, user_ids: Iterable[int]) -> None:
        """Installs of an earlier run: the users of these ids, known now or made later
        (a seeded stand-in gives them the same ids, `StandIn(id_seed=...)`), have the app
        installed to their account."""
        self.world.user_installs.update(user_ids)

    def uninstall_for_user(self, user: UserRef) -> None:
        """`user` removes the app from their account."""
        self.world.user_installs.discard(self._user(user).id)

    def installed_for_user(self, user: UserRef) -> bool:
        """Whether `user` has installed the app to their account."""
        return self._user(user).id in self.world.user_installs

    def dm_between(self, first: UserRef, second: UserRef) -> ChannelInfo:
        """The DM channel (type 1) between two users, made on first use: the bot is no
        member, so it answers only interactions there (its REST calls on the channel get
        403 Missing Access)."""
        a, b = self._user(first), self._user(second)
        if a.id == b.id or a.bot or b.bot:
            raise StandInError("a DM between users needs two different people")
        return self._channel_info(user_dm(self.core, a.id, b.id))

    def group_dm(self, owner: UserRef, *others: UserRef, name: str = "") -> ChannelInfo:
        """A new group DM (type 3) of `owner` with `others` (2 to 10 people in all, as
        Discord allows); the bot is no member."""
        people = [self._user(owner), *(self._user(o) for o in others)]
        ids = [p.id for p in people]
        if any(p.bot for p in people) or len(set(ids)) != len(ids) or not 2 <= len(ids) <= 10:
            raise StandInError("a group DM has 2 to 10 different people and no bot")
        return self._channel_info(group_dm(self.core, ids[0], ids[1:], name))

    def close_dms(self, user: UserRef) -> None:
        """`user` takes no more direct messages from the app: the bot's messages to their
        DM are refused 403 with code 50007 (Cannot send messages to this user)."""
        self.world.closed_dms.add(self._user(user).id)

    def open_dms(self, user: UserRef) -> None:
        """`user` takes the app's direct messages again."""
        self.world.closed_dms.discard(self._user(user).id)

    def deny_external_apps(self, guild: GuildRef, user: UserRef) -> None:
        """Take USE_EXTERNAL_APPS from `user` in `guild`: where the app is only
        user-installed, its answers to them there become ephemeral."""
        self.world.external_apps_denied.add((self._guild(guild).id, self._user(user).id))

    def allow_external_apps(self, guild: GuildRef, user: UserRef) -> None:
        """Give USE_EXTERNAL_APPS back to `user` in `guild`."""
        self.world.external_apps_denied.discard((self._guild(guild).id, self._user(user).id))

    def advance_clock(self, seconds: float) -> None:
        """Move the stand-in's clock on by `seconds`: interaction tokens older than their
        lifetime expire (`StandIn(token_lifetime=...)`, Discord's 15 minutes), and DM
        budgets refill."""
        if seconds < 0:
            raise StandInError("the clock only moves on")
        self.core.clock_offset += seconds

    @property
    def dm_counts(self) -> DmCounts:
        """DM channels the bot opened, messages it sent to DMs, requests refused 429."""
        return self.core.dms.counts
