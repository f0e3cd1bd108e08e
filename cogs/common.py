"""Helpers every cog uses: the runtime behind the bot, the match of this channel, permission checks."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import discord

from bot.boards import BoardMessage
from bot.replies import UserError
from bot.service import Service
from bot.service.records import MatchView
from games.texts import Text

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
        raise UserError(Text("Use this command in a server channel."))
    return interaction.channel_id


async def match_here(interaction: Interaction) -> MatchView:
    """The active match of the channel (or thread) the interaction came from; NoMatchHere if none."""
    runtime = runtime_of(interaction)
    match = await runtime.service.matches.in_channel(channel_id_of(interaction))
    interaction.extras["match_id"] = match.id
    runtime.remember(interaction.user)
    return match


def same_server(interaction: Interaction, guild_id: int | None) -> None:
    """Refuse a button whose match, challenge or lobby belongs to another server than the interaction's."""
    if guild_id != interaction.guild_id:
        raise UserError(Text("That button belongs to a game of another server."))


def is_server_manager(interaction: Interaction) -> bool:
    """Whether the user may manage the server here (Manage Server permission)."""
    permissions = interaction.permissions
    return bool(permissions.manage_guild or permissions.administrator)


def bot_user_id(interaction: Interaction) -> int:
    user: discord.ClientUser | None = interaction.client.user
    if user is None:  # only before login, never while handling an interaction
        raise RuntimeError("the bot is not logged in")
    return user.id


async def send_board(interaction: Interaction, match: MatchView, message: BoardMessage) -> None:
    """Send a board in answer to a deferred interaction: a button's board is posted in the match's channel,
    a command's is the command's reply. Either way it becomes the match's newest board, and the board before
    it loses its buttons."""
    runtime = runtime_of(interaction)
    if interaction.type is discord.InteractionType.component:
        await runtime.post_board(match, message)
        return
    sent = await interaction.followup.send(**message.send_kwargs(), wait=True)
    await runtime.board_sent(match.id, sent)
