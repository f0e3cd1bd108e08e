"""Ending a match before its natural end: /resign (with a confirm button, on any turn; `/move resign` asks the
same question) and /abort (every player agrees with a button, or a member with Manage Server ends it at once;
whoever started the vote may withdraw it, and /abort shows an open vote again). Either posts the final board,
which says how the match ended (once: no separate message repeats it)."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.i18n import ENGLISH, Tr, for_user
from bot.replies import UserError
from bot.service.records import AbortRequested, Finished, MatchView, Played
from bot.views import ButtonCog, ButtonHandler, ButtonRef, button, view_of
from cogs.common import (
    Interaction,
    is_server_manager,
    match_here,
    parts_of,
    same_server,
    send_board,
    service_of,
)
from games.texts import Text


def bound_seat(ref: ButtonRef) -> int | None:
    """The seat a request's button is bound to (who asked), None for an older button without one."""
    return int(ref.arg) if ref.arg.isdigit() else None


async def ask_to_resign(interaction: Interaction, match: MatchView) -> None:
    """Ask privately before a resignation, whichever way it was asked for (/resign, `/move resign`), on any
    turn: refused at once where it cannot happen (not playing, resigned already), else a Yes button. Before
    every player has moved, the question says that Yes aborts the match instead."""
    aborts = await service_of(interaction).matches.check_resign(match.id, interaction.user.id)
    tr = for_user(interaction)
    confirm = button("resign", match.id, match.ply, tr("Yes, resign"), style=discord.ButtonStyle.danger)
    if aborts:
        question = tr(
            "Resign match #{match_id}? Not every player has moved yet, so the match is aborted instead: no "
            "result, no rating change. This cannot be undone.",
            match_id=match.id,
        )
    else:
        question = tr("Resign match #{match_id}? This cannot be undone.", match_id=match.id)
    await interaction.response.send_message(question, view=view_of(confirm), ephemeral=True)


class Ending(ButtonCog):
    """/resign and /abort, and their buttons."""

    def buttons(self) -> dict[str, ButtonHandler]:
        return {
            "resign": self.on_resign_confirmed,
            "abort": self.on_abort_agreed,
            "ab_withdraw": self.on_abort_withdrawn,
        }

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
        parts = parts_of(self.bot)
        if isinstance(result, Finished):
            message = await parts.boards.board(result.match, finished=result, viewer=viewer)
            await parts.posts.post_board(result.match, message)
        else:
            await parts.posts.post_board(result.match, await parts.boards.played_board(result, viewer=viewer))

    @app_commands.command(
        name="abort", description="End the match here without a result (players agree, or admin)"
    )
    @app_commands.guild_only()
    async def abort(self, interaction: Interaction) -> None:
        """Vote to abort; while a vote is open, a player who agreed already is shown it again instead (its
        buttons move to the new message), so it can be agreed to, or withdrawn by whoever started it."""
        match = await match_here(interaction)
        await self._abort(interaction, match, respond_new=True)

    async def on_abort_agreed(self, interaction: Interaction, ref: ButtonRef) -> None:
        match = await service_of(interaction).matches.get(ref.ref)
        same_server(interaction, match.guild_id)
        await self._abort(interaction, match, respond_new=False, seat=bound_seat(ref))

    async def _abort(
        self, interaction: Interaction, match: MatchView, *, respond_new: bool, seat: int | None = None
    ) -> None:
        service = service_of(interaction)
        admin = is_server_manager(interaction)
        mine = match.seat_of(interaction.user.id)
        if mine is None and not admin:
            raise UserError(Text("Only the players (or a member with Manage Server) can abort this match."))
        shown = None
        if not admin and mine in match.abort_votes:
            if not respond_new:
                waiting = ", ".join(f"<@{p.user_id}>" for p in match.seats if p.seat not in match.abort_votes)
                raise UserError(Text("You have agreed already; waiting for {players}.", players=waiting))
            shown = await service.agreements.open_abort(match.id)
        result = shown or await service.agreements.request_abort(
            match.id, interaction.user.id, admin=admin, seat=seat
        )
        parts = parts_of(interaction)
        if isinstance(result, Finished):  # the final board says it was aborted, and by whom
            if respond_new:
                await interaction.response.defer()
                message = await parts.boards.board(result.match, finished=result, viewer=interaction.user.id)
                await send_board(interaction, result.match, message)
                return
            await interaction.response.edit_message(view=None)  # the request's text stays, as asked
            if interaction.message is not None:
                await parts.posts.request_closed(match.id, interaction.message.id)
            await self.post_result(result, viewer=interaction.user.id)
            return
        public = await parts.looks.public_tr(interaction.guild_id, interaction.guild_locale)
        text, view = self.abort_text(result, public), self.abort_view(result, public)
        if not respond_new:
            await interaction.response.edit_message(content=text, view=view)
            if interaction.message is not None:  # who is still to agree, for an answer made elsewhere
                edited = interaction.message
                await parts.posts.request_posted(result, edited.channel.id, edited.id)
            return
        sent = await interaction.response.send_message(text, view=view)
        if sent.message_id is not None:  # one message shows the vote's buttons: the newest
            await parts.posts.close_requests(match.id, "abort", keep=sent.message_id)
        await parts.posts.request_posted(result, interaction.channel_id, sent.message_id)

    @staticmethod
    def abort_text(vote: AbortRequested, tr: Tr = ENGLISH) -> str:
        return tr(
            "{player} wants to abort match #{match_id} (no result). {waiting}: agree?",
            player=f"<@{vote.by_user}>",
            match_id=vote.match.id,
            waiting=", ".join(f"<@{uid}>" for uid in vote.waiting_for),
        )

    @staticmethod
    def abort_view(vote: AbortRequested, tr: Tr = ENGLISH) -> discord.ui.View:
        """Buttons bound to this vote: the match, the ply and the seat that started it. The others agree; its
        starter may withdraw it."""
        match_id, ply, starter = vote.match.id, vote.match.ply, str(vote.match.abort_votes[0])
        return view_of(
            button(
                "abort", match_id, ply, tr("Agree to abort"), arg=starter, style=discord.ButtonStyle.danger
            ),
            button("ab_withdraw", match_id, ply, tr("Withdraw request"), arg=starter),
        )

    async def on_abort_withdrawn(self, interaction: Interaction, ref: ButtonRef) -> None:
        """Whoever started the abort vote withdraws it (nobody else may); every message showing it loses its
        buttons."""
        service = service_of(interaction)
        same_server(interaction, (await service.matches.get(ref.ref)).guild_id)
        await service.agreements.withdraw_abort(ref.ref, interaction.user.id, seat=bound_seat(ref))
        parts = parts_of(interaction)
        public = await parts.looks.public_tr(interaction.guild_id, interaction.guild_locale)
        withdrawn = public("{player} withdrew their abort request.", player=f"<@{interaction.user.id}>")
        await interaction.response.edit_message(
            content=withdrawn, view=None, allowed_mentions=discord.AllowedMentions.none()
        )
        if interaction.message is not None:
            await parts.posts.request_closed(ref.ref, interaction.message.id)
        await parts.posts.close_requests(ref.ref, "abort", content=withdrawn)


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(Ending(bot))
