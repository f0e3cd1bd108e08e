"""Playing: /move with autocomplete of the legal moves, /pass, the one-word move buttons, /board,
/takeback (the opponent answers with buttons) and /pieces (TilingKing)."""

from __future__ import annotations

import asyncio
import io
import logging
import time
from collections.abc import Iterable
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

import renderer
from bot.boards import seat_name
from bot.matches import Played, TakenBack
from bot.replies import UserError
from bot.views import ButtonRef, button, register_button, unregister_button, view_of
from cogs.common import Interaction, match_here, runtime_of
from games.base import Rules

log = logging.getLogger("tessera.moves")

AUTOCOMPLETE_LIMIT = 25
AUTOCOMPLETE_BUDGET = 0.8
"""Seconds autocomplete may spend scanning legal moves (Discord waits 3 s for the answer)."""


def rank_moves(notations: Iterable[str], typed: str, *, limit: int = AUTOCOMPLETE_LIMIT) -> list[str]:
    """The legal moves that match what was typed, most useful first.

    Exact match first, then moves that start with the text, then moves containing every typed word
    (so `c4 c3` finds `c3 c4 c5 d4`); shorter moves before longer ones, then alphabetical. Scanning stops
    after `AUTOCOMPLETE_BUDGET` seconds so a huge move list never makes Discord wait.
    """
    wanted = " ".join(typed.lower().split())
    words = wanted.split()
    started = time.perf_counter()
    ranked: list[tuple[int, int, str]] = []
    for index, text in enumerate(notations):
        lowered = text.lower()
        if not wanted:
            group = 1
        elif lowered == wanted:
            group = 0
        elif lowered.startswith(wanted):
            group = 1
        elif all(any(token.startswith(word) for token in lowered.split()) for word in words):
            group = 2
        else:
            continue
        ranked.append((group, len(text), text))
        if index % 512 == 511 and time.perf_counter() - started > AUTOCOMPLETE_BUDGET:
            break
    ranked.sort()
    return [text for _, _, text in ranked[:limit]]


def legal_notations(rules: Rules[Any, Any], state: Any) -> list[str]:
    return [rules.notation(state, move) for move in rules.legal_moves(state)]


class Moves(commands.Cog):
    """Moves, boards, takebacks and TilingKing pieces."""

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    async def cog_load(self) -> None:
        register_button("move", self.on_move_button)
        register_button("tb_yes", self.on_takeback_accepted)
        register_button("tb_no", self.on_takeback_declined)

    async def cog_unload(self) -> None:
        for action in ("move", "tb_yes", "tb_no"):
            unregister_button(action)

    async def reply_with_board(self, interaction: Interaction, played: Played) -> None:
        """Answer the interaction with the new board: defer (rendering takes a moment), then send it."""
        runtime = runtime_of(interaction)
        await interaction.response.defer()
        message = await runtime.played_board(played)
        if interaction.type is discord.InteractionType.component:
            await runtime.post(played.match.channel_id, message)
        else:
            await interaction.followup.send(**message.send_kwargs())
        runtime.after_change(played.match)

    # ------------------------------------------------------------------------------------------- /move

    @app_commands.command(name="move", description="Make your move in this channel's match")
    @app_commands.guild_only()
    @app_commands.describe(
        notation="Your move, e.g. d4, c1-c5, swap c3 f6, c3 c4 c5 d4 (start typing for a list)"
    )
    async def move(self, interaction: Interaction, notation: app_commands.Range[str, 1, 200]) -> None:
        match = await match_here(interaction)
        played = await runtime_of(interaction).service.play(match.id, interaction.user.id, notation)
        await self.reply_with_board(interaction, played)

    @move.autocomplete("notation")
    async def move_autocomplete(
        self, interaction: Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        runtime = runtime_of(interaction)
        try:
            match = await runtime.service.match_in_channel(interaction.channel_id or 0)
        except Exception:
            return []
        if match.user_to_move != interaction.user.id:
            return []
        rules = runtime.service.rules(match.game)
        notations = await asyncio.to_thread(legal_notations, rules, match.state)
        return [
            app_commands.Choice(name=text[:100], value=text[:100]) for text in rank_moves(notations, current)
        ]

    @app_commands.command(name="pass", description="Pass this turn (where the game allows it)")
    @app_commands.guild_only()
    async def pass_(self, interaction: Interaction) -> None:
        match = await match_here(interaction)
        played = await runtime_of(interaction).service.pass_turn(match.id, interaction.user.id)
        await self.reply_with_board(interaction, played)

    async def on_move_button(self, interaction: Interaction, ref: ButtonRef) -> None:
        runtime = runtime_of(interaction)
        runtime.remember(interaction.user)
        played = await runtime.service.play(ref.ref, interaction.user.id, ref.arg, expected_ply=ref.ply)
        await self.reply_with_board(interaction, played)

    # ------------------------------------------------------------------------------------------ /board

    @app_commands.command(name="board", description="Show this channel's board again")
    @app_commands.guild_only()
    async def board(self, interaction: Interaction) -> None:
        runtime = runtime_of(interaction)
        match = await match_here(interaction)
        await interaction.response.defer()
        moves = await runtime.store.moves(match.id)
        last = moves[-1].notation if moves else None
        message = await runtime.board(match, last_move=last)
        await interaction.followup.send(**message.send_kwargs())

    # --------------------------------------------------------------------------------------- /takeback

    @app_commands.command(name="takeback", description="Ask to take back your last move")
    @app_commands.guild_only()
    async def takeback(self, interaction: Interaction) -> None:
        runtime = runtime_of(interaction)
        match = await match_here(interaction)
        result = await runtime.service.request_takeback(match.id, interaction.user.id)
        if isinstance(result, TakenBack):
            await self.post_taken_back(interaction, result)
            return
        waiting = ", ".join(f"<@{uid}>" for uid in result.waiting_for)
        ply = result.match.ply
        view = view_of(
            button("tb_yes", match.id, ply, "Accept takeback", style=discord.ButtonStyle.success),
            button("tb_no", match.id, ply, "Decline", style=discord.ButtonStyle.danger),
        )
        await interaction.response.send_message(
            f"<@{interaction.user.id}> asks to take back their last move in match #{match.id}. {waiting}?",
            view=view,
        )

    async def post_taken_back(self, interaction: Interaction, taken: TakenBack) -> None:
        runtime = runtime_of(interaction)
        if interaction.type is discord.InteractionType.component:
            await interaction.response.edit_message(content="Takeback accepted.", view=None)
        else:
            await interaction.response.defer()
        undone = ", ".join(m.notation for m in taken.undone)
        message = await runtime.board(taken.match, headline=f"Taken back: {undone}.")
        if interaction.type is discord.InteractionType.component:
            await runtime.post(taken.match.channel_id, message)
        else:
            await interaction.followup.send(**message.send_kwargs())
        runtime.after_change(taken.match)

    async def on_takeback_accepted(self, interaction: Interaction, ref: ButtonRef) -> None:
        runtime = runtime_of(interaction)
        match = await runtime.service.get_match(ref.ref)
        if match.ply != ref.ply:
            raise UserError("That board has changed: the takeback request no longer applies.")
        taken = await runtime.service.accept_takeback(ref.ref, interaction.user.id)
        await self.post_taken_back(interaction, taken)

    async def on_takeback_declined(self, interaction: Interaction, ref: ButtonRef) -> None:
        runtime = runtime_of(interaction)
        await runtime.service.decline_takeback(ref.ref, interaction.user.id)
        await interaction.response.edit_message(
            content=f"<@{interaction.user.id}> declined the takeback.",
            view=None,
            allowed_mentions=discord.AllowedMentions.none(),
        )

    # ----------------------------------------------------------------------------------------- /pieces

    @app_commands.command(name="pieces", description="TilingKing: see the pieces you have left")
    @app_commands.guild_only()
    async def pieces(self, interaction: Interaction) -> None:
        runtime = runtime_of(interaction)
        match = await match_here(interaction)
        if match.game != "tilingking":
            raise UserError("Only TilingKing has pieces to show; this match is not TilingKing.")
        seat = match.seat_of(interaction.user.id)
        if seat is None:
            raise UserError(f"You are not playing in match #{match.id}.")
        await interaction.response.defer(ephemeral=True, thinking=True)
        names = await runtime.names_for(match)
        players = [seat_name(s, names) for s in match.seats]
        png = await asyncio.to_thread(renderer.render_pieces, match.game, match.state, seat, players=players)
        file = discord.File(io.BytesIO(png), filename="pieces.png", description="Your remaining pieces")
        await interaction.followup.send(f"Your pieces in match #{match.id}:", file=file, ephemeral=True)


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(Moves(bot))
