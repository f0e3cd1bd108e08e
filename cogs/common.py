"""Helpers the cogs share: the parts of the application a handler asks for (`names_of`, `looks_of`,
`boards_of`, `posts_of`, `service_of`, `runtime_of`), the match of this channel, permission checks, and what
starting a match needs wherever it starts (a challenge, a lobby, the bot): threads, the first board, the
options line."""

from __future__ import annotations

import logging
from collections.abc import Mapping
from datetime import timedelta
from typing import TYPE_CHECKING, Any

import discord
from babel.dates import format_timedelta
from babel.lists import format_list

from bot.board_maker import BoardMaker
from bot.board_posts import BoardPosts, open_ply
from bot.boards import BoardMessage
from bot.i18n import ENGLISH, Tr
from bot.looks import Looks
from bot.names import PlayerNames
from bot.parts import Parts
from bot.replies import UserError
from bot.runtime import Runtime
from bot.service import Service
from bot.service.options import HostOptions, MatchOptions
from bot.service.records import MatchView
from games.ai.levels import NEW_PLAYER_LEVEL
from games.base import Rules
from games.texts import N_, Text

if TYPE_CHECKING:
    from bot.client import TesseraBot

Interaction = discord.Interaction[Any]

log = logging.getLogger("tessera.cogs")

DEFAULT_LEVEL = NEW_PLAYER_LEVEL
"""The bot's level where no player's rating can choose one (a lobby's "Add bot" button without a level)."""


def parts_of(source: Interaction | discord.Client) -> Parts:
    """The parts of the bot that received the interaction (or of the bot itself, for code that runs outside
    an interaction: posting a board on its own)."""
    client = source if isinstance(source, discord.Client) else source.client
    tessera: TesseraBot = client  # type: ignore[assignment]
    return tessera.parts


def runtime_of(source: Interaction | discord.Client) -> Runtime:
    """The process's service, AI runner, drawing pools and analyses."""
    return parts_of(source).runtime


def service_of(source: Interaction | discord.Client) -> Service:
    return parts_of(source).runtime.service


def names_of(source: Interaction | discord.Client) -> PlayerNames:
    """Players' display names (remember the users a handler sees)."""
    return parts_of(source).names


def looks_of(source: Interaction | discord.Client) -> Looks:
    """The server's language for public messages, a user's board theme."""
    return parts_of(source).looks


def boards_of(source: Interaction | discord.Client) -> BoardMaker:
    """Makes board messages (names, theme, language, image)."""
    return parts_of(source).boards


def posts_of(source: Interaction | discord.Client) -> BoardPosts:
    """Posts boards; keeps only the newest board's and the open requests' buttons live."""
    return parts_of(source).posts


def channel_id_of(interaction: Interaction) -> int:
    if interaction.channel_id is None:
        raise UserError(Text("Use this command in a server channel."))
    return interaction.channel_id


async def match_here(interaction: Interaction) -> MatchView:
    """The active match of the channel (or thread) the interaction came from; NoMatchHere if none."""
    match = await service_of(interaction).matches.in_channel(channel_id_of(interaction))
    interaction.extras["match_id"] = match.id
    names_of(interaction).remember(interaction.user)
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
    posts = posts_of(interaction)
    if interaction.type is discord.InteractionType.component:
        await posts.post_board(match, message)
        return
    try:
        sent = await interaction.followup.send(**message.send_kwargs(), wait=True)
    except BaseException:
        posts.board_lost(match.id, open_ply(match))  # the bot's board, if it waits for this one, goes on
        raise
    await posts.board_sent(match.id, sent, open_at=open_ply(match))


async def open_thread(interaction: Interaction, name: str) -> int | None:
    """A public thread on the interaction's message (or channel) for the match; None if not possible."""
    try:
        if interaction.message is not None and not interaction.message.flags.ephemeral:
            thread = await interaction.message.create_thread(name=name[:100])
        elif isinstance(interaction.channel, discord.TextChannel):
            thread = await interaction.channel.create_thread(
                name=name[:100], type=discord.ChannelType.public_thread
            )
        else:
            return None
    except discord.HTTPException:
        log.warning("could not open a thread in channel %s", interaction.channel_id, exc_info=True)
        return None
    return thread.id


async def delete_thread(client: discord.Client, thread_id: int | None) -> None:
    """Remove a thread opened for a match that then did not start (best effort)."""
    if thread_id is None:
        return
    channel = client.get_channel(thread_id)
    if isinstance(channel, discord.Thread):
        try:
            await channel.delete()
        except discord.HTTPException:
            log.warning("could not delete the unused thread %s", thread_id, exc_info=True)


async def post_start(
    parts: Parts, match: MatchView, headline: str = "", *, viewer: int | None = None
) -> None:
    """Post the first board of a match (in the theme of `viewer`, who started it) with `headline`, by
    default "The match begins." in the server's language."""
    tr = await parts.looks.public_tr(match.guild_id)
    headline = headline or tr("The match begins.")
    await parts.posts.post_board(
        match, await parts.boards.board(match, headline=headline, viewer=viewer, tr=tr)
    )


def duration_text(seconds: float, tr: Tr = ENGLISH) -> str:
    """A duration as people say it, in the language of `tr` (Babel's CLDR words): "12 hours", "1 day and 6
    hours", "1 Tag und 6 Stunden"; whole minutes (at least one)."""
    minutes = max(1, round(seconds / 60))
    days, rest = divmod(minutes, 24 * 60)
    hours, minutes = divmod(rest, 60)
    parts = [
        # threshold = the value itself: each part stays in its own unit (10 days, not "1 week")
        format_timedelta(timedelta(**{unit: value}), threshold=value, locale=tr.locale)
        for unit, value in (("days", days), ("hours", hours), ("minutes", minutes))
        if value
    ]
    return format_list(parts, locale=tr.locale)


SEATS_IN_WORDS = {
    "challenger": N_("the challenger takes the first seat"),
    "opponent": N_("the opponent takes the first seat"),
}


def option_summary(
    options: MatchOptions,
    rules: Rules[Any, Any],
    tr: Tr = ENGLISH,
    *,
    players: Mapping[str, str] | None = None,
) -> str:
    """The options that differ from their defaults, in a short line ("`board=hex5` · `balance=off` · 12 hours
    per turn"): the game's option names and values are notation, written as the `options` field takes them
    in every language (never as English words in a translated sentence); the host's (the turn time, `rated`,
    the first seat) are said in words. The first seat reads as who takes it ("Who plays White and moves
    first: <@1>", its value looked up in `players`), else as "the challenger takes the first seat"."""
    shown = []
    for spec in rules.options:
        value = options.engine.get(spec.name, spec.default)
        if value == spec.default:
            continue
        if isinstance(value, bool):
            shown.append(f"`{spec.name}={'on' if value else 'off'}`")
        else:
            shown.append(f"`{spec.name}={value}`")
    host, default = options.host, HostOptions()
    if host.rated != default.rated:  # a /play field of its own, shown in words
        shown.append(tr("rated") if host.rated else tr("casual match"))
    if host.clock:
        shown.append(tr("live clock {control}", control=f"`{host.clock}`"))
    elif host.turn_timeout != default.turn_timeout:
        shown.append(tr("{duration} per turn", duration=duration_text(host.turn_timeout * 60, tr)))
    first = host.first_seat
    if first is not None and first != default.first_seat:
        if players and first in players:
            shown.append(tr("{choice}: {player}", choice=tr(rules.first_seat.help), player=players[first]))
        elif first in SEATS_IN_WORDS:
            shown.append(tr(SEATS_IN_WORDS[first]))
    return " · ".join(shown)
