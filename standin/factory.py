"""Interaction payloads as Discord's client would send them for a user's action.

`InteractionFactory` checks what a real user could do (see the command, have the option,
press an enabled button, see the message) and builds INTERACTION_CREATE data with the
fields discord.py needs: `attachment_size_limit`, `app_permissions`, `locale`,
`entitlements`, `authorizing_integration_owners`, `context`, the member with its channel
permissions, and `resolved` users, members, channels, roles and attachments.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from .bodies import UploadedFile
from .directory import ChannelRef, Directory, MessageRef, RoleInfo, UserRef
from .errors import NotInstalledError, StandInError
from .interaction_state import InteractionState
from .model import (
    PRIVATE_APP_PERMISSIONS,
    Channel,
    ChannelType,
    IntegrationType,
    InteractionContext,
    Json,
    Member,
    Message,
    Permission,
    User,
    permission_names,
)
from .options import Resolvers, build_options, descend, split_command
from .payloads import FLAG_EPHEMERAL
from .records import (
    ButtonStyle,
    ComponentType,
    InteractionKind,
    InteractionResult,
    MessageRecord,
)


class InteractionFactory:
    """Builds interactions for the users of a `Directory`."""

    def __init__(self, directory: Directory) -> None:
        self.directory = directory
        self.core = directory.core
        self.world = directory.world
        self._payloads = directory._payloads

    def _user(self, ref: UserRef) -> User:
        return self.directory._user(ref)

    def _channel(self, ref: ChannelRef) -> Channel:
        return self.directory._channel(ref)

    async def _ensure_member(self, channel: Channel, user: User) -> None:
        await self.directory._ensure_member(channel, user)

    def app_permissions(self, channel: Channel) -> int:
        """What the app may do in `channel`, as an interaction's `app_permissions` says:
        the bot's permissions where it is a member (its DM with a user: those and
        MENTION_EVERYONE); in a DM or group DM between users the fixed set Discord
        documents (`PRIVATE_APP_PERMISSIONS`). In a server that did not install the app
        Discord's documentation says nothing: the stand-in gives the same fixed set."""
        bot_id = self._payloads.app.bot_user_id
        if not self.world.bot_is_member(channel, bot_id):
            return int(PRIVATE_APP_PERMISSIONS)
        perms = self.world.permissions_in(channel, bot_id)
        if channel.guild_id is None:
            perms |= PRIVATE_APP_PERMISSIONS | Permission.USE_EXTERNAL_EMOJIS
        return int(perms)

    def base(
        self, kind: InteractionKind, user: User, channel: Channel, owners: dict[str, str]
    ) -> tuple[Json, int, str]:
        """The fields every interaction has, for `user` in `channel` authorized by
        `owners` (the `authorizing_integration_owners`): (payload, id, token).

        In a guild: `member` with its channel permissions, `guild`, context 0; in the bot's
        DM: `user`, context 1; in a DM or group DM between users: `user`, context 2, and
        the `channel` with its type and recipients (Receiving and Responding >
        Interaction Object).
        """
        ident, token = self.core.new_interaction_ids()
        guild = self.world.guilds.get(channel.guild_id) if channel.guild_id else None
        payload: Json = {
            "id": str(ident),
            "application_id": str(self._payloads.app.id),
            "type": int(kind),
            "token": token,
            "version": 1,
            "channel_id": str(channel.id),
            "channel": self._payloads.channel(channel),
            "app_permissions": str(self.app_permissions(channel)),
            "locale": user.locale,
            "entitlements": [],
            "entitlement_sku_ids": [],
            "attachment_size_limit": self.core.attachment_size_limit,
            "authorizing_integration_owners": dict(owners),
            "context": int(self.world.context_of(channel, self._payloads.app.bot_user_id)),
        }
        if guild is not None:
            member = guild.members[user.id]
            payload.update(
                {
                    "guild_id": str(guild.id),
                    "guild": {
                        "id": str(guild.id),
                        "locale": guild.preferred_locale,
                        "features": [],
                    },
                    "guild_locale": guild.preferred_locale,
                    "member": self._payloads.member(
                        member, permissions=self.world.permissions_in(channel, user.id)
                    ),
                }
            )
        else:
            payload["user"] = self._payloads.user(user)
        return payload, ident, token

    def forced_ephemeral(self, user: User, channel: Channel, owners: dict[str, str]) -> bool:
        """Whether Discord makes every answer ephemeral: in a server where the app is only
        user-installed (no guild installation in `owners`) and the member may not use
        external apps (Topics > Permissions, USE_EXTERNAL_APPS: "Allows user-installed apps
        to send public responses. When disabled, users will still be allowed to use their
        apps but the responses will be ephemeral")."""
        return (
            channel.guild_id is not None
            and str(int(IntegrationType.GUILD_INSTALL)) not in owners
            and not self.world.uses_external_apps(channel, user.id)
        )

    def _state(
        self, kind: InteractionKind, user: User, channel: Channel, owners: dict[str, str],
        name: str, **extra: Any
    ) -> InteractionState:
        """A new interaction's state with its payload's common fields (`base`)."""
        payload, ident, token = self.base(kind, user, channel, owners)
        return InteractionState(
            id=ident, token=token, kind=kind, name=name, user_id=user.id,
            channel_id=channel.id, guild_id=channel.guild_id, payload=payload,
            owners=dict(owners), forced_ephemeral=self.forced_ephemeral(user, channel, owners),
            **extra,
        )

    async def _prepare_person(self, user: UserRef, channel: ChannelRef) -> tuple[User, Channel]:
        """`_prepare_actor` for things only people do (slash commands, components)."""
        u, ch = await self._prepare_actor(user, channel)
        if u.bot:
            raise StandInError(
                f"{u.username} is a bot account; bots cannot use application commands "
                "or press buttons"
            )
        if ch.type.is_thread and ch.archived:
            # Topics > Threads, Active & Archived Threads: no application commands there.
            raise StandInError(
                f"#{ch.name} is an archived thread; nobody uses application commands there "
                "(a message in it unarchives it, unless it is locked)"
            )
        return u, ch

    async def _prepare_actor(self, user: UserRef, channel: ChannelRef) -> tuple[User, Channel]:
        u = self._user(user)
        ch = self._channel(channel)
        if ch.type is ChannelType.GUILD_CATEGORY:
            raise StandInError(f"{ch.name} is a category, not a channel one can type in")
        await self._ensure_member(ch, u)
        if ch.type.is_private and u.id not in ch.recipient_ids:
            raise StandInError(f"{u.username} is not in that DM channel")
        if (
            not ch.type.is_private
            and not self.world.permissions_in(ch, u.id) & Permission.VIEW_CHANNEL
        ):
            raise StandInError(f"{u.username} cannot see #{ch.name}")
        return u, ch

    def _find_command(
        self, user: User, channel: Channel, path: list[str]
    ) -> tuple[Json, dict[str, str]]:
        """The command `path[0]` as `user`'s client offers it in `channel`, and the
        installations that authorize it there (`authorizing_integration_owners`).

        A client offers a command where its `contexts` include the place's context and an
        installation of the app matches (Interactions > Application Commands, Contexts and
        Installation Context): the server's, in a server that installed the app; the bot's
        DM counts as a guild installation with the guild id "0"; the user's own, anywhere
        the command's contexts allow, when the user installed the app and the command's
        `integration_types` include USER_INSTALL. Raises `StandInError` saying why
        otherwise (as a client would not show the command).
        """
        pools: list[Json] = []
        if channel.guild_id is not None:
            pools.extend(self.core.guild_commands.get(channel.guild_id, {}).values())
        pools.extend(self.core.global_commands.values())
        command = next((c for c in pools if c["name"] == path[0] and c["type"] == 1), None)
        if command is None:
            names = sorted({"/" + c["name"] for c in pools if c["type"] == 1})
            raise StandInError(
                f"no slash command /{path[0]} here; registered: {', '.join(names) or 'none'} "
                "(did the bot sync its command tree?)"
            )
        context = self.world.context_of(channel, self._payloads.app.bot_user_id)
        if context not in command_contexts(command):
            where = {
                InteractionContext.GUILD: "in a server",
                InteractionContext.BOT_DM: "in direct messages with the bot",
                InteractionContext.PRIVATE_CHANNEL: "in a DM or group DM between users",
            }[context]
            raise StandInError(f"/{path[0]} cannot be used {where} (its contexts)")
        owners = self._owners(user, channel, command, context)
        if not owners:
            if self._user_could_install(user, command):
                raise NotInstalledError(user.username, path[0])
            raise StandInError(self._not_installed(command, path[0]))
        guild_installed = str(int(IntegrationType.GUILD_INSTALL)) in owners
        in_guild = context is InteractionContext.GUILD
        needed = command.get("default_member_permissions")
        if needed is not None and in_guild and guild_installed:
            perms = self.world.permissions_in(channel, user.id)
            # "0": nobody by default, administrators still can (Application Commands docs).
            required = int(needed) or int(Permission.ADMINISTRATOR)
            if perms & required != required:
                raise StandInError(
                    f"{user.username} does not see /{path[0]}: it needs the permission "
                    f"{permission_names(required)} (the server's owner has every permission)"
                )
        if (
            in_guild
            and not self.world.permissions_in(channel, user.id)
            & Permission.USE_APPLICATION_COMMANDS
        ):
            raise StandInError(
                f"{user.username} may not use application commands in #{channel.name}"
            )
        return command, owners

    def _owners(
        self, user: User, channel: Channel, command: Json, context: InteractionContext
    ) -> dict[str, str]:
        """The installations of the app that offer `command` to `user` in `channel`."""
        types = command.get("integration_types") or [int(IntegrationType.GUILD_INSTALL)]
        owners: dict[str, str] = {}
        if IntegrationType.GUILD_INSTALL in types:
            if context is InteractionContext.BOT_DM:
                owners[str(int(IntegrationType.GUILD_INSTALL))] = "0"
            elif channel.guild_id is not None and self.world.guilds[channel.guild_id].bot_installed:
                owners[str(int(IntegrationType.GUILD_INSTALL))] = str(channel.guild_id)
        if (
            IntegrationType.USER_INSTALL in types
            and "guild_id" not in command
            and user.id in self.world.user_installs
        ):
            owners[str(int(IntegrationType.USER_INSTALL))] = str(user.id)
        return owners

    def _user_could_install(self, user: User, command: Json) -> bool:
        """Whether `user`'s own installation would offer `command` and they have none."""
        types = command.get("integration_types") or [int(IntegrationType.GUILD_INSTALL)]
        return IntegrationType.USER_INSTALL in types and user.id not in self.world.user_installs

    def _not_installed(self, command: Json, name: str) -> str:
        """Why no installation offers `/name` here, the user's own aside."""
        types = command.get("integration_types") or [int(IntegrationType.GUILD_INSTALL)]
        if IntegrationType.USER_INSTALL not in types:
            return (f"/{name} is offered only where the app is installed to the server "
                    "(its integration_types), and it is not installed here")
        return f"/{name} is a server's own command: no user installation offers it"

    def _resolvers(self, channel: Channel) -> Resolvers:
        guild = self.world.guilds.get(channel.guild_id) if channel.guild_id else None

        def user(value: Any, resolved: Json) -> int:
            if isinstance(value, str) and value.startswith("<@") and value.endswith(">"):
                value = int(value.strip("<@!>"))
            u = self._user(value)
            resolved.setdefault("users", {})[str(u.id)] = self._payloads.user(u)
            if guild is not None:
                member = guild.members.get(u.id)
                if member is None:
                    member = Member(u.id, guild.id)
                    guild.members[u.id] = member
                data = self._payloads.member(
                    member, with_user=False, permissions=self.world.permissions_in(channel, u.id)
                )
                data.pop("deaf")
                data.pop("mute")
                resolved.setdefault("members", {})[str(u.id)] = data
            return u.id

        def chan(value: Any, resolved: Json) -> int:
            c = self._channel(value)
            data = self._payloads.channel(c)
            data["permissions"] = str(self.world.permissions_in(c, self._payloads.app.bot_user_id))
            resolved.setdefault("channels", {})[str(c.id)] = data
            return c.id

        def role(value: Any, resolved: Json) -> int:
            if guild is None:
                raise StandInError("roles exist only in servers")
            ref = value.id if isinstance(value, RoleInfo) else value
            match = next(
                (r for r in guild.roles.values() if r.id == ref or r.name == str(ref).lstrip("@")),
                None,
            )
            if match is None:
                raise StandInError(f"no role {value!r} in {guild.name}")
            resolved.setdefault("roles", {})[str(match.id)] = self._payloads.role(match)
            return match.id

        def attachment(value: Any, resolved: Json) -> int:
            if not (isinstance(value, tuple) and len(value) == 2 and isinstance(value[1], bytes)):
                raise StandInError("an attachment option takes (filename, bytes)")
            att = self.core._store_upload(
                UploadedFile(0, str(value[0]), None, value[1]), ephemeral=True
            )
            resolved.setdefault("attachments", {})[str(att.id)] = self._payloads.attachment(att)
            return att.id

        return Resolvers(user=user, channel=chan, role=role, attachment=attachment)

    async def command(
        self,
        kind: InteractionKind,
        user: UserRef,
        channel: ChannelRef,
        command: str,
        options: Mapping[str, Any] | None,
        focused: str | None,
    ) -> InteractionState:
        """An APPLICATION_COMMAND or AUTOCOMPLETE interaction for `/command` with `options`.

        Raises `StandInError` when the user could not send it (see the module docstring).
        """
        u, ch = await self._prepare_person(user, channel)
        path = split_command(command)
        cmd, owners = self._find_command(u, ch, path)
        schema, nest = descend(cmd, path)
        label = "/" + " ".join(path)
        resolvers = self._resolvers(ch)
        values = dict(options or {})
        if kind is InteractionKind.AUTOCOMPLETE:
            if focused is None:
                if not values:
                    raise StandInError(f"autocomplete of {label} needs the option being typed")
                focused = list(values)[-1]
            spec = next((o for o in schema if o["name"] == focused), None)
            if spec is None or not spec.get("autocomplete"):
                raise StandInError(f"{label} option {focused!r} has no autocomplete")
        built = build_options(label, schema, values, resolvers, focused=focused)
        name = label if kind is InteractionKind.APPLICATION_COMMAND else f"autocomplete of {label}"
        state = self._state(kind, u, ch, owners, name)
        data: Json = {"id": cmd["id"], "name": cmd["name"], "type": 1, "options": nest(built)}
        if resolvers.resolved:
            data["resolved"] = resolvers.resolved
        if "guild_id" in cmd:
            data["guild_id"] = cmd["guild_id"]
        state.payload["data"] = data
        return state

    def _find_component(self, message: Message, wanted: str, types: tuple[int, ...]) -> Json:
        found: list[Json] = []

        def walk(components: Any) -> None:
            for comp in components or []:
                if not isinstance(comp, dict):
                    continue
                if comp.get("type") in types:
                    found.append(comp)
                walk(comp.get("components"))
                if isinstance(comp.get("accessory"), dict):
                    walk([comp["accessory"]])

        walk(message.components)
        for match in (
            lambda c: c.get("custom_id") == wanted,
            lambda c: c.get("label") == wanted or c.get("placeholder") == wanted,
            lambda c: (
                str(c.get("label") or c.get("placeholder") or "").casefold() == wanted.casefold()
            ),
        ):
            hits = [c for c in found if match(c)]
            if len(hits) == 1:
                return hits[0]
            if len(hits) > 1:
                raise StandInError(f"{len(hits)} components match {wanted!r}; use the custom_id")
        labels = [str(c.get("label") or c.get("placeholder") or c.get("custom_id")) for c in found]
        raise StandInError(
            f"no component {wanted!r} on message {message.id}; it has: "
            f"{', '.join(labels) or 'none'}"
        )

    async def component(
        self,
        user: UserRef,
        message: MessageRef,
        wanted: str,
        types: tuple[int, ...],
        values: Sequence[str] | None,
    ) -> InteractionState:
        """A MESSAGE_COMPONENT interaction: `user` uses component `wanted` on `message`."""
        ident = message.id if isinstance(message, MessageRecord) else message
        msg = self.world.messages.get(ident)
        if msg is None or msg.deleted:
            raise StandInError(f"message {ident} does not exist (any more)")
        u, ch = await self._prepare_person(user, msg.channel_id)
        if msg.flags & FLAG_EPHEMERAL and msg.visible_to != u.id:
            raise StandInError(
                f"{u.username} cannot see message {ident}: it is ephemeral for someone else"
            )
        comp = self._find_component(msg, wanted, types)
        label = repr(comp.get("label") or comp.get("placeholder") or comp.get("custom_id"))
        if comp.get("disabled"):
            raise StandInError(f"the component {label} is disabled")
        if comp.get("type") == ComponentType.BUTTON and comp.get("style") in (
            ButtonStyle.LINK,
            ButtonStyle.PREMIUM,
        ):
            raise StandInError(f"the button {label} is a link, not something the bot hears")
        kind_name = "button" if comp["type"] == ComponentType.BUTTON else "select menu"
        state = self._state(
            InteractionKind.MESSAGE_COMPONENT, u, ch, self.message_owners(msg),
            f"{kind_name} {label}", component_message_id=msg.id,
        )
        data: Json = {"custom_id": comp["custom_id"], "component_type": comp["type"]}
        if comp.get("id") is not None:
            data["id"] = comp["id"]
        if values is not None:
            data["values"] = list(values)
        state.payload["data"] = data
        state.payload["message"] = self._payloads.message(msg)
        return state

    def message_owners(self, msg: Message) -> dict[str, str]:
        """The installations a component on `msg` is authorized by: those of the
        interaction the message answered (anyone in the chat may use its components,
        without installing the app), else the app's installation where it posted."""
        meta = msg.interaction_metadata or {}
        owners = meta.get("authorizing_integration_owners")
        if isinstance(owners, dict) and owners:
            return {str(k): str(v) for k, v in owners.items()}
        return {str(int(IntegrationType.GUILD_INSTALL)): str(msg.guild_id or 0)}

    async def modal_submit(
        self, user: UserRef, opened: InteractionResult, values: Mapping[str, str]
    ) -> InteractionState:
        """A MODAL_SUBMIT interaction: `user` fills in the modal `opened` showed and submits."""
        if opened.modal is None:
            raise StandInError(f"the bot did not open a modal for {opened.name}")
        unknown = set(values) - set(opened.modal.inputs)
        if unknown:
            raise StandInError(
                f"the modal has no input(s) {', '.join(sorted(unknown))}; "
                f"it has {', '.join(opened.modal.inputs)}"
            )
        origin = self.core.interactions[opened.interaction_id]
        u, ch = await self._prepare_person(user, opened.channel_id)
        state = self._state(
            InteractionKind.MODAL_SUBMIT, u, ch, origin.owners,
            f"modal {opened.modal.title!r}",
            component_message_id=origin.component_message_id, opened_by=origin.id,
        )
        payload = state.payload

        def answer(comp: Json) -> Json:
            kind = comp.get("type")
            if kind == ComponentType.TEXT_INPUT:
                out: Json = {
                    "type": 4,
                    "custom_id": comp["custom_id"],
                    "value": str(values.get(comp["custom_id"], comp.get("value") or "")),
                }
                if comp.get("id") is not None:
                    out["id"] = comp["id"]
                return out
            if kind == ComponentType.LABEL and isinstance(comp.get("component"), dict):
                return {"type": 18, "id": comp.get("id"), "component": answer(comp["component"])}
            return {
                "type": kind,
                "id": comp.get("id"),
                "components": [answer(c) for c in comp.get("components") or []],
            }

        payload["data"] = {
            "custom_id": opened.modal.custom_id,
            "components": [answer(c) for c in opened.modal.raw.get("components") or []],
        }
        if origin.component_message_id is not None:
            msg = self.world.messages.get(origin.component_message_id)
            if msg is not None:
                payload["message"] = self._payloads.message(msg)
        return state


def command_contexts(command: Json) -> set[InteractionContext]:
    """Where a registered command may be used: its `contexts`, else what Discord assumes
    without them: a server's own command in that server only; a global one in servers and,
    unless `dm_permission` is false, in the bot's DM and (for a user installation) DMs and
    group DMs between users."""
    contexts = command.get("contexts")
    if contexts is not None:
        return {InteractionContext(int(c)) for c in contexts}
    if "guild_id" in command:
        return {InteractionContext.GUILD}
    if command.get("dm_permission") is False:
        return {InteractionContext.GUILD}
    return set(InteractionContext)
