"""Helpers every cog uses: the runtime behind the bot, the match of this channel, permission checks."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import discord

from bot.replies import UserError
from bot.service import Service
from bot.service.records import MatchView

if TYPE_CHECKING:
    from bot.client import TesseraBot
    from bot.runtime import Runtime

Interaction = discord.Interaction[Any]


def runtime_of(interaction: Interaction) -> Runtime:
    """The runtime of the bot that received the interaction."""
    bot: TesseraBot = interaction.client
    return bot.runtime


def service_of(interaction: Interaction) -> Service:
    return runtime_of(interaction).service


def bot_runtime(bot: discord.Client) -> Runtime:
    """The runtime of a bot, for code that runs outside an interaction (posting a board on its own)."""
    tessera: TesseraBot = bot  # type: ignore[assignment]
    return tessera.runtime


def channel_id_of(interaction: Interaction) -> int:
    if interaction.channel_id is None:
        raise UserError("Use this command in a server channel.")
    return interaction.channel_id


async def match_here(interaction: Interaction) -> MatchView:
    """The active match of the channel (or thread) the interaction came from; NoMatchHere if none."""
    runtime = runtime_of(interaction)
    match = await runtime.service.matches.in_channel(channel_id_of(interaction))
    interaction.extras["match_id"] = match.id
    runtime.remember(interaction.user)
    return match


def is_server_manager(interaction: Interaction) -> bool:
    """Whether the user may manage the server here (Manage Server permission)."""
    permissions = interaction.permissions
    return bool(permissions.manage_guild or permissions.administrator)


def bot_user_id(interaction: Interaction) -> int:
    user: discord.ClientUser | None = interaction.client.user
    if user is None:  # only before login, never while handling an interaction
        raise RuntimeError("the bot is not logged in")
    return user.id
