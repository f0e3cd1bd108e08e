"""Ending a match before its natural end: /resign (with a confirm button, on any turn; `/move resign` asks the
same question) and /abort (every player agrees with a button, or a member with Manage Server ends it at once).
Either posts the final board, which says how the match ended (once: no separate message repeats it)."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.i18n import for_user
from bot.replies import UserError
from bot.service.records import Finished, MatchView, Played
from bot.views import ButtonCog, ButtonHandler, ButtonRef, button, view_of
from cogs.common import (
    Interaction,
    bot_runtime,
    is_server_manager,
    match_here,
    runtime_of,
    same_server,
    send_board,
    service_of,
)
from games.texts import Text


async def ask_to_resign(interaction: Interaction, match: MatchView) -> None:
    """Ask privately before a resignation, whichever way it was asked for (/resign, `/move resign`), on any
    turn: refused at once where it cannot happen (not playing, resigned already), else a Yes button."""
    await service_of(interaction).matches.check_resign(match.id, interaction.user.id)
    tr = for_user(interaction)
    confirm = button("resign", match.id, match.ply, tr("Yes, resign"), style=discord.ButtonStyle.danger)
    await interaction.response.send_message(
        tr("Resign match #{match_id}? This cannot be undone.", match_id=match.id),
        view=view_of(confirm),
        ephemeral=True,
    )


class Ending(ButtonCog):
    """/resign and /abort, and their buttons."""

    def buttons(self) -> dict[str, ButtonHandler]:
        return {"resign": self.on_resign_confirmed, "abort": self.on_abort_agreed}

    @app_commands.command(name="resign", description="Give up the match in this channel (asks to confirm)")
    @app_commands.guild_only()
    async def resign(self, interaction: Interaction) -> None:
        await ask_to_resign(interaction, await match_here(interaction))

    async def on_resign_confirmed(self, interaction: Interaction, ref: ButtonRef) -> None:
        matches = service_of(interaction).matches
        same_server(interaction, (await matches.get(ref.ref)).guild_id)
        result = await matches.resign(ref.ref, interaction.user.id)
        tr = for_user(interaction)
        await interaction.response.edit_message(content=tr("You resigned."), view=None)
        await self.post_result(result, viewer=interaction.user.id)

    async def post_result(self, result: Finished | Played, *, viewer: int | None = None) -> None:
        """Post the board after a resignation or an abort (in the theme of `viewer`, who did it)."""
        runtime = bot_runtime(self.bot)
        if isinstance(result, Finished):
            message = await runtime.board(result.match, finished=result, viewer=viewer)
            await runtime.post_board(result.match, message)
        else:
            await runtime.post_board(result.match, await runtime.played_board(result, viewer=viewer))
            runtime.after_change(result.match)

    @app_commands.command(
        name="abort", description="End the match here without a result (players agree, or admin)"
    )
    @app_commands.guild_only()
    async def abort(self, interaction: Interaction) -> None:
        match = await match_here(interaction)
        await self._abort(interaction, match, respond_new=True)

    async def on_abort_agreed(self, interaction: Interaction, ref: ButtonRef) -> None:
        match = await service_of(interaction).matches.get(ref.ref)
        same_server(interaction, match.guild_id)
        await self._abort(interaction, match, respond_new=False)

    async def _abort(self, interaction: Interaction, match: MatchView, *, respond_new: bool) -> None:
        service = service_of(interaction)
        admin = is_server_manager(interaction)
        seat = match.seat_of(interaction.user.id)
        if seat is None and not admin:
            raise UserError(Text("Only the players (or a member with Manage Server) can abort this match."))
        if not admin and seat in match.abort_votes:
            waiting = ", ".join(f"<@{p.user_id}>" for p in match.seats if p.seat not in match.abort_votes)
            raise UserError(Text("You have agreed already; waiting for {players}.", players=waiting))
        result = await service.agreements.request_abort(match.id, interaction.user.id, admin=admin)
        public = await runtime_of(interaction).public_tr(interaction.guild_id, interaction.guild_locale)
        if isinstance(result, Finished):  # the final board says it was aborted, and by whom
            runtime = runtime_of(interaction)
            if respond_new:
                await interaction.response.defer()
                message = await runtime.board(result.match, finished=result, viewer=interaction.user.id)
                await send_board(interaction, result.match, message)
                return
            await interaction.response.edit_message(view=None)  # the request's text stays, as asked
            if interaction.message is not None:
                runtime.request_closed(match.id, interaction.message.id)
            await self.post_result(result, viewer=interaction.user.id)
            return
        waiting = ", ".join(f"<@{uid}>" for uid in result.waiting_for)
        agree = button(
            "abort", match.id, result.match.ply, public("Agree to abort"), style=discord.ButtonStyle.danger
        )
        text = public(
            "{player} wants to abort match #{match_id} (no result). {waiting}: agree?",
            player=f"<@{interaction.user.id}>",
            match_id=match.id,
            waiting=waiting,
        )
        if respond_new:
            sent = await interaction.response.send_message(text, view=view_of(agree))
            runtime_of(interaction).request_posted(
                match.id, interaction.channel_id, sent.message_id, kind="abort", ply=result.match.ply
            )
        else:
            await interaction.response.edit_message(content=text, view=view_of(agree))


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(Ending(bot))
