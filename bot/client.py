"""TesseraBot: the discord.py client. `setup_hook` opens the service (bot.runtime), registers the persistent
buttons, loads the cogs and syncs the slash commands (only when they changed).

No privileged intents. Commands go to `DEV_GUILD_ID` when it is set (instant, for development), otherwise
globally. The fingerprint of the synced command payloads is kept in the data folder, so a restart with the
same commands makes no sync call (Discord rate-limits those).
"""

from __future__ import annotations

import hashlib
import json
import logging
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.i18n import CommandTranslator, catalogs_fingerprint
from bot.replies import report_error
from bot.settings import Settings
from bot.views import TesseraButton

if TYPE_CHECKING:
    from bot.drawing import Drawing
    from bot.runtime import Runtime
    from bot.service.ai import AIRunner

log = logging.getLogger("tessera")

EXTENSIONS: tuple[str, ...] = ("cogs.play", "cogs.moves", "cogs.info", "cogs.admin")


def intents() -> discord.Intents:
    """Guilds only: slash commands and buttons need no message content and no member list."""
    wanted = discord.Intents.none()
    wanted.guilds = True
    return wanted


class TesseraTree(app_commands.CommandTree["TesseraBot"]):
    """The command tree; its `on_error` answers every failed command (never "This interaction failed")."""

    async def on_error(
        self, interaction: discord.Interaction[TesseraBot], error: app_commands.AppCommandError
    ) -> None:
        name = interaction.command.qualified_name if interaction.command else "?"
        await report_error(interaction, error, where=f"/{name}")


class TesseraBot(commands.AutoShardedBot):
    """The bot. Tests build it with a temporary database, a small AI budget and `sync_commands=True`."""

    runtime: Runtime

    def __init__(
        self,
        settings: Settings,
        *,
        ai_runner: AIRunner | None = None,
        drawing: Drawing | None = None,
        extensions: Sequence[str] = EXTENSIONS,
        now: Any = None,
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

    async def setup_hook(self) -> None:
        from bot.runtime import Runtime

        self.settings.data_dir.mkdir(parents=True, exist_ok=True)
        self.runtime = await Runtime.open(
            self, ai_runner=self._ai_runner, now=self._now, drawing=self._drawing
        )
        self.add_dynamic_items(TesseraButton)
        await self.tree.set_translator(CommandTranslator())
        for extension in self._extensions:
            await self.load_extension(extension)
        await self.sync_commands_if_changed()
        await self.runtime.start()

    async def close(self) -> None:
        """Stop the clock and the AI, close the service's store, then disconnect."""
        runtime = getattr(self, "runtime", None)
        if runtime is not None:
            await runtime.close()
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

    def _fingerprint_file(self) -> Path:
        scope = self.settings.dev_guild_id
        name = f"commands-guild-{scope}.sha256" if scope is not None else "commands-global.sha256"
        return self.settings.data_dir / name

    async def sync_commands_if_changed(self) -> bool:
        """Sync the slash commands if their payloads changed since the last sync; True if it synced."""
        fingerprint = self.command_fingerprint()
        path = self._fingerprint_file()
        try:
            previous = path.read_text(encoding="utf-8").strip()
        except OSError:
            previous = ""
        if previous == fingerprint:
            log.info("slash commands unchanged; no sync needed")
            return False
        guild = self._sync_scope()
        synced = await self.tree.sync(guild=guild)
        where = f"guild {guild.id}" if guild is not None else "all guilds (global)"
        log.info("synced %d slash commands to %s", len(synced), where)
        temporary = path.with_suffix(".tmp")
        temporary.write_text(fingerprint + "\n", encoding="utf-8")
        temporary.replace(path)
        return True

    async def on_ready(self) -> None:
        log.info("logged in as %s in %d servers", self.user, len(self.guilds))
