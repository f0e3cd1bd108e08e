"""Lobbies: tables of 2-4 players opened by /play with `players` above two; the Join / Leave / Add bot / Start
buttons. Seats are drawn at random when the host starts the match."""

from __future__ import annotations

from typing import Any

import discord
from discord.ext import commands

from bot.boards import bot_label, level_word
from bot.i18n import ENGLISH, Tr
from bot.replies import UserError
from bot.service.lobbies import Lobbies as LobbyService
from bot.service.options import MatchOptions
from bot.service.records import AI_LEVELS, Lobby, LobbyStatus
from bot.views import CUSTOM_ID, ButtonCog, ButtonHandler, ButtonRef, button, view_of
from cogs import game_name
from cogs.common import (
    DEFAULT_LEVEL,
    Interaction,
    bot_user_id,
    channel_id_of,
    delete_thread,
    looks_of,
    names_of,
    open_thread,
    option_summary,
    parts_of,
    post_start,
    same_server,
    service_of,
)
from games.ai.levels import offered_level
from games.base import Rules
from games.texts import Text


def lobby_text(lobby: Lobby, rules: Rules[Any, Any], min_players: int, tr: Tr = ENGLISH) -> str:
    name = game_name(lobby.game)
    members = ", ".join(bot_label(m.ai_level, tr) if m.ai_level else f"<@{m.user_id}>" for m in lobby.members)
    head = tr(
        "**{game} lobby #{lobby_id}** ({count}/{most} players): {members}",
        game=name,
        lobby_id=lobby.id,
        count=len(lobby.members),
        most=lobby.max_players,
        members=members,
    )
    if lobby.status is LobbyStatus.CLOSED:
        return head + "\n" + tr("This lobby is closed.")
    if lobby.status is LobbyStatus.STARTED:
        return head + "\n" + tr("The match has started (#{match_id}).", match_id=lobby.match_id)
    extra = option_summary(MatchOptions.load(rules, lobby.options, lobby=True), rules, tr)
    lines = [head]
    if extra:
        lines.append(tr("Options: {options}", options=extra))
    lines.append(
        tr(
            "Join with the button; {host} starts the match when at least {least} are in.",
            host=f"<@{lobby.host_id}>",
            least=min_players,
        )
    )
    return "\n".join(lines)


def lobby_view(lobby: Lobby, *, level: str, thread: bool, tr: Tr = ENGLISH) -> discord.ui.View | None:
    if lobby.status is not LobbyStatus.OPEN:
        return None
    return view_of(
        button("join", lobby.id, 0, tr("Join"), style=discord.ButtonStyle.success),
        button("leave", lobby.id, 0, tr("Leave")),
        button("addbot", lobby.id, 0, tr("Add bot ({level})", level=level_word(level, tr)), arg=level),
        button(
            "start",
            lobby.id,
            0,
            tr("Start"),
            arg="thread" if thread else "",
            style=discord.ButtonStyle.primary,
        ),
    )


def lobby_choices(message: discord.Message | None, ref: ButtonRef) -> tuple[str, bool]:
    """What /play chose for a lobby, as the buttons of its message carry it: the bot's level (the Add bot
    button's argument; `DEFAULT_LEVEL` if it has none) and whether the match opens a thread (the Start
    button's). The level holds for the lobby's whole life, whoever presses which button."""
    level, thread = ref.arg if ref.action == "addbot" and ref.arg else "", False
    for row in message.components if message is not None else []:
        for child in getattr(row, "children", []):
            found = CUSTOM_ID.fullmatch(getattr(child, "custom_id", None) or "")
            if found is None or found["ref"] != str(ref.ref):
                continue
            if found["action"] == "addbot" and not level:
                level = found["arg"] or ""
            elif found["action"] == "start":
                thread = found["arg"] == "thread"
    return (level if level in AI_LEVELS else DEFAULT_LEVEL), thread


def lobby_message(lobbies: LobbyService, lobby: Lobby, tr: Tr) -> str:
    """The lobby's message with the rules of its game (the options it shows, the players it needs)."""
    rules = lobbies.matches.rules(lobby.game)
    return lobby_text(lobby, rules, lobbies.min_players(lobby), tr)


async def open_lobby(
    interaction: Interaction,
    game: str,
    given: dict[str, Any],
    players: int,
    opponent: discord.Member | None,
    level: str,
    thread: bool,
) -> None:
    """Open a lobby for /play with more than two players (the bot joins at once if it is the opponent;
    another member is invited by mention)."""
    lobbies = service_of(interaction).lobbies
    lobby = await lobbies.create(
        game,
        given,
        interaction.user.id,
        guild_id=interaction.guild_id,
        channel_id=channel_id_of(interaction),
        max_players=players,
    )
    me = bot_user_id(interaction)
    public = await looks_of(interaction).public_tr(interaction.guild_id, interaction.guild_locale)
    invite = ""
    if opponent is not None and opponent.id == me:
        lobby = await lobbies.join(lobby.id, me, ai_level=level)
    elif opponent is not None and opponent.id != interaction.user.id:
        invite = "\n" + public("{player}, you are invited: press Join.", player=f"<@{opponent.id}>")
    view = lobby_view(lobby, level=level, thread=thread, tr=public) or discord.utils.MISSING
    await interaction.response.send_message(lobby_message(lobbies, lobby, public) + invite, view=view)


class Lobbies(ButtonCog):
    """The buttons of a lobby's message."""

    def buttons(self) -> dict[str, ButtonHandler]:
        return {
            "join": self.on_join,
            "leave": self.on_leave,
            "addbot": self.on_add_bot,
            "start": self.on_start,
        }

    async def _refresh_lobby(self, interaction: Interaction, lobby: Lobby, ref: ButtonRef) -> None:
        """Redraw the lobby's message after a button: the level chosen in /play and the thread choice stay
        as its buttons carry them, whichever button was pressed."""
        level, thread = lobby_choices(interaction.message, ref)
        public = await looks_of(interaction).public_tr(interaction.guild_id, interaction.guild_locale)
        await interaction.response.edit_message(
            content=lobby_message(service_of(interaction).lobbies, lobby, public),
            view=lobby_view(lobby, level=level, thread=thread, tr=public),
            allowed_mentions=discord.AllowedMentions.none(),
        )

    async def on_join(self, interaction: Interaction, ref: ButtonRef) -> None:
        lobbies = service_of(interaction).lobbies
        lobby = await lobbies.get(ref.ref)
        same_server(interaction, lobby.guild_id)
        names_of(interaction).remember(interaction.user)
        lobby = await lobbies.join(lobby, interaction.user.id)
        await self._refresh_lobby(interaction, lobby, ref)

    async def on_leave(self, interaction: Interaction, ref: ButtonRef) -> None:
        lobbies = service_of(interaction).lobbies
        lobby = await lobbies.get(ref.ref)
        same_server(interaction, lobby.guild_id)
        lobby = await lobbies.leave(lobby, interaction.user.id)
        await self._refresh_lobby(interaction, lobby, ref)

    async def on_add_bot(self, interaction: Interaction, ref: ButtonRef) -> None:
        lobbies = service_of(interaction).lobbies
        lobby = await lobbies.get(ref.ref)
        same_server(interaction, lobby.guild_id)
        if interaction.user.id != lobby.host_id:
            raise UserError(
                Text("Only {host}, who opened the lobby, can add me.", host=f"<@{lobby.host_id}>")
            )
        # a lobby opened before the eight levels may carry an old one: the bot joins at the nearest one
        level = offered_level(lobby.game, ref.arg) if ref.arg in AI_LEVELS else DEFAULT_LEVEL
        lobby = await lobbies.join(lobby, bot_user_id(interaction), ai_level=level)
        await self._refresh_lobby(interaction, lobby, ref)

    async def on_start(self, interaction: Interaction, ref: ButtonRef) -> None:
        """The host starts the match (in a new thread if the lobby asked for one). One flow: the lobby and
        the server's settings are read once (`Guilds.flow`)."""
        parts = parts_of(interaction)
        lobbies = parts.service.lobbies
        with parts.service.guilds.flow():
            lobby = await lobbies.get(ref.ref)
            same_server(interaction, lobby.guild_id)
            lobby = await lobbies.check_start(lobby, interaction.user.id)
            await interaction.response.defer()
            thread_id = None
            if ref.arg == "thread":
                thread_id = await open_thread(interaction, f"{game_name(lobby.game)} #{lobby.id}")
            try:
                lobby, match = await lobbies.started(lobby, interaction.user.id, channel_id=thread_id)
            except BaseException:
                await delete_thread(self.bot, thread_id)
                raise
            interaction.extras["match_id"] = match.id
            public = await parts.looks.public_tr(interaction.guild_id, interaction.guild_locale)
            await interaction.edit_original_response(content=lobby_message(lobbies, lobby, public), view=None)
            await post_start(parts, match, viewer=interaction.user.id)


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(Lobbies(bot))
