"""Per-server settings (Manage Server): default turn timeout, matches in threads, channels for games."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.boards import plural
from bot.replies import UserError
from bot.service.records import GuildSettings
from cogs.common import Interaction, service_of
from cogs.play import TIMEOUT_CHOICES


def describe_timeout(seconds: float) -> str:
    """ "1 day", "12 hours", "1 minute"."""
    minutes = round(seconds / 60)
    if minutes and minutes % (24 * 60) == 0:
        return plural(minutes // (24 * 60), "day")
    if minutes and minutes % 60 == 0:
        return plural(minutes // 60, "hour")
    return plural(minutes, "minute")


def settings_text(settings: GuildSettings) -> str:
    channels = ", ".join(f"<#{c}>" for c in settings.allowed_channels) or "every channel"
    return (
        "**Tessera settings for this server**\n"
        f"Turn timeout: {describe_timeout(settings.turn_timeout)}\n"
        f"New matches in their own thread: {'on' if settings.threads else 'off'}\n"
        f"Games may start in: {channels}"
    )


class Admin(commands.Cog):
    """Server settings."""

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    @app_commands.command(
        name="settings", description="Show or change Tessera's settings here (Manage Server)"
    )
    @app_commands.guild_only()
    @app_commands.checks.has_permissions(manage_guild=True)
    @app_commands.describe(
        turn_timeout="Default time per turn for new matches",
        threads="Open a public thread for every new match",
        allow_channel="Let games start in this channel (once any is set, only listed channels allow games)",
        disallow_channel="Stop games starting in this channel",
        every_channel="Allow games in every channel again",
    )
    @app_commands.choices(turn_timeout=TIMEOUT_CHOICES)
    async def settings(
        self,
        interaction: Interaction,
        turn_timeout: int | None = None,
        threads: bool | None = None,
        allow_channel: discord.TextChannel | None = None,
        disallow_channel: discord.TextChannel | None = None,
        every_channel: bool | None = None,
    ) -> None:
        guilds = service_of(interaction).guilds
        guild_id = interaction.guild_id
        if guild_id is None:
            raise UserError("Settings belong to a server; use this command in one.")
        current = await guilds.settings(guild_id)
        channels: set[int] | None = None
        if allow_channel is not None or disallow_channel is not None or every_channel:
            channels = set() if every_channel else set(current.allowed_channels)
            if allow_channel is not None:
                channels.add(allow_channel.id)
            if disallow_channel is not None:
                if disallow_channel.id not in channels:
                    raise UserError(f"{disallow_channel.mention} is not in the list of game channels.")
                channels.discard(disallow_channel.id)
        changed = turn_timeout is not None or threads is not None or channels is not None
        if changed:
            current = await guilds.update(
                guild_id,
                turn_timeout=turn_timeout * 60.0 if turn_timeout is not None else None,
                threads=threads,
                allowed_channels=channels,
            )
        prefix = "Saved.\n" if changed else ""
        await interaction.response.send_message(prefix + settings_text(current), ephemeral=True)


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(Admin(bot))
