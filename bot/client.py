"""TesseraBot: the discord.py client. `setup_hook` opens the runtime (bot.runtime: the service, the AI, the
drawing pools), wires the application's parts around it (bot.parts), registers the persistent buttons, loads
the cogs and syncs the slash commands (only when they changed).

No privileged intents. Commands go to `DEV_GUILD_ID` when it is set (instant, for development), otherwise
globally. Commands are synced once per deployment, not per process: only the process that runs shard 0
syncs, and the fingerprint of the synced command payloads is kept in the database (`meta`), so a restart, or
another machine, with the same commands makes no sync call (Discord rate-limits those).

Replies name commands with Discord's clickable mentions, which need the commands' ids: they come back from
the sync, or, when no sync was needed, from one fetch of the commands at start (`bot.i18n.COMMAND_IDS`).
"""

from __future__ import annotations

import hashlib
import json
import logging
import time
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.extensions import EXTENSIONS
from bot.health import interaction_done
from bot.i18n import COMMAND_IDS, CommandTranslator, catalogs_fingerprint
from bot.parts import Parts
from bot.replies import report_error
from bot.runtime import Runtime
from bot.settings import Settings
from bot.views import TesseraButton

if TYPE_CHECKING:
    from bot.drawing import Drawing
    from bot.service import Service
    from bot.service.ai import AIRunner

log = logging.getLogger("tessera")
ENTRY_POINT = 4
"""Discord's application command type of an Activity's entry point (its "Launch" command)."""


def intents() -> discord.Intents:
    """Guilds only: slash commands and buttons need no message content and no member list."""
    wanted = discord.Intents.none()
    wanted.guilds = True
    return wanted


STARTED = "tessera_started"
"""The `interaction.extras` key holding when the bot started handling a command (`time.perf_counter()`)."""


def command_done(interaction: discord.Interaction[Any]) -> None:
    """Record how long a command took (the /metrics latency histogram)."""
    started = interaction.extras.get(STARTED)
    if isinstance(started, float):
        name = interaction.command.qualified_name if interaction.command else "?"
        interaction_done("command", name, started)


def remember_command_ids(synced: Sequence[app_commands.AppCommand]) -> None:
    """Keep the ids of the slash commands (not the user menus) for the mentions in replies."""
    COMMAND_IDS.remember(
        (command.name, command.id) for command in synced if command.type is discord.AppCommandType.chat_input
    )


class TesseraTree(app_commands.CommandTree["TesseraBot"]):
    """The command tree; its `on_error` answers every failed command (never "This interaction failed"), and
    every command's handling time is recorded."""

    async def interaction_check(self, interaction: discord.Interaction[TesseraBot], /) -> bool:
        interaction.extras[STARTED] = time.perf_counter()
        return True

    async def on_error(
        self, interaction: discord.Interaction[TesseraBot], error: app_commands.AppCommandError
    ) -> None:
        name = interaction.command.qualified_name if interaction.command else "?"
        await report_error(interaction, error, where=f"/{name}")
        command_done(interaction)


class TesseraBot(commands.AutoShardedBot):
    """The bot. Tests build it with a temporary database, a small AI budget and `sync_commands=True`.
    Its `parts` (set in `setup_hook`) are what the cogs ask for."""

    parts: Parts

    def __init__(
        self,
        settings: Settings,
        *,
        ai_runner: AIRunner | None = None,
        drawing: Drawing | None = None,
        extensions: Sequence[str] = EXTENSIONS,
        now: Any = None,
        service: Service | None = None,
    ) -> None:
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=intents(),
            tree_cls=TesseraTree,
            help_command=None,
            shard_count=settings.shard_count,
            shard_ids=list(settings.shard_ids) if settings.shard_ids is not None else None,  # type: ignore[arg-type]
            allowed_mentions=discord.AllowedMentions(everyone=False, roles=False, users=True),
        )
        self.settings = settings
        self._ai_runner = ai_runner
        self._drawing = drawing
        self._extensions = tuple(extensions)
        self._now = now
        self._service = service

    @property
    def runtime(self) -> Runtime:
        """The process's service, AI and drawing pools (AttributeError before `setup_hook` built them)."""
        return self.parts.runtime

    async def setup_hook(self) -> None:
        runtime = await Runtime.open(
            self.settings,
            service=self._service,
            ai_runner=self._ai_runner,
            now=self._now,
            drawing=self._drawing,
        )
        self.parts = Parts.wire(runtime, self)
        self.add_dynamic_items(TesseraButton)
        await self.tree.set_translator(CommandTranslator())
        for extension in self._extensions:
            await self.load_extension(extension)
        if not await self.sync_commands_if_changed():
            await self.fetch_command_ids()
        await self.parts.start()

    async def close(self) -> None:
        """Stop the clock and the AI, close the service's store, then disconnect."""
        runtime = getattr(self, "runtime", None)
        if runtime is not None:
            await runtime.close()
        elif self._service is not None:  # it never logged in: the service handed to it is still open
            await self._service.close()
        self._service = None
        await super().close()

    # ------------------------------------------------------------------------------------------ sync

    def _sync_scope(self) -> discord.Object | None:
        guild_id = self.settings.dev_guild_id
        return discord.Object(guild_id) if guild_id is not None else None

    def command_fingerprint(self) -> str:
        """A hash of the command payloads Discord would receive for the sync scope, translations included."""
        guild = self._sync_scope()
        if guild is not None:
            self.tree.copy_global_to(guild=guild)
        payload = [command.to_dict(self.tree) for command in self.tree.get_commands(guild=guild)]
        payload.sort(key=lambda command: str(command.get("name")))
        text = json.dumps(payload, sort_keys=True, separators=(",", ":"), default=str)
        text += catalogs_fingerprint()  # the commands' translations are in the catalogs
        return hashlib.sha256(text.encode()).hexdigest()

    def _fingerprint_key(self) -> str:
        scope = self.settings.dev_guild_id
        return f"commands-guild-{scope}.sha256" if scope is not None else "commands-global.sha256"

    @property
    def syncs_commands(self) -> bool:
        """Whether this process syncs the slash commands: the one that runs shard 0 (or every shard)."""
        return self.settings.shard_ids is None or 0 in self.settings.shard_ids

    async def sync_commands_if_changed(self) -> bool:
        """Sync the slash commands if this process is the one that syncs and their payloads changed since the
        deployment's last sync (the fingerprint in the database); True if it synced."""
        if not self.syncs_commands:
            log.info("slash commands are synced by the process that runs shard 0")
            return False
        store = self.runtime.service.store
        fingerprint = self.command_fingerprint()
        key = self._fingerprint_key()
        if await store.get_meta(key) == fingerprint:
            log.info("slash commands unchanged; no sync needed")
            return False
        guild = self._sync_scope()
        synced = await self.sync_tree(guild)
        where = f"guild {guild.id}" if guild is not None else "all guilds (global)"
        log.info("synced %d slash commands to %s", len(synced), where)
        remember_command_ids(synced)
        await store.put_meta(key, fingerprint)
        return True

    async def sync_tree(self, guild: discord.abc.Snowflake | None) -> list[app_commands.AppCommand]:
        """Upload the slash commands. With the Activity on, a global sync sends the Activity's entry point
        command back as it is: Discord creates it when Activities are enabled and refuses a bulk overwrite
        that would delete it."""
        if guild is not None or not self.settings.activity_enabled or self.application_id is None:
            return await self.tree.sync(guild=guild)
        tree = self.tree
        existing: list[Any] = list(await self.http.get_global_commands(self.application_id))
        keep: list[Any] = [
            {key: c[key] for key in ("id", "name", "type", "description", "handler") if key in c}
            for c in existing
            if c.get("type") == ENTRY_POINT
        ]
        translator = tree.translator
        payload: list[Any] = [
            await c.get_translated_payload(tree, translator) if translator else c.to_dict(tree)
            for c in tree._get_all_commands()
        ]
        data = await self.http.bulk_upsert_global_commands(self.application_id, payload=payload + keep)
        return [
            app_commands.AppCommand(data=d, state=tree._state) for d in data if d.get("type") != ENTRY_POINT
        ]

    async def fetch_command_ids(self) -> None:
        """Learn the synced commands' ids (for clickable mentions) from Discord; if it cannot be asked,
        replies name commands in plain text."""
        try:
            remember_command_ids(await self.tree.fetch_commands(guild=self._sync_scope()))
        except discord.HTTPException as error:
            log.warning("could not fetch the commands' ids (%s); replies name them in plain text", error)

    async def on_ready(self) -> None:
        log.info("logged in as %s in %d servers", self.user, len(self.guilds))

    async def on_app_command_completion(
        self,
        interaction: discord.Interaction[Any],
        command: app_commands.Command[Any, ..., Any] | app_commands.ContextMenu,
    ) -> None:
        command_done(interaction)

    def gateway_connected(self) -> bool:
        """Whether every shard of this process has a live gateway connection."""
        if not self.is_ready() or self.is_closed():
            return False
        return all(not shard.is_closed() for shard in self.shards.values())
