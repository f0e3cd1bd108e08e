"""Reading: /help, /rules, /history, /replay (and the Replay button), /leaderboard, /stats."""

from __future__ import annotations

import io
import logging
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

import games
from bot.boards import BOT_NAME, plural, rating_text, seat_name
from bot.replies import UserError
from bot.service.records import HistoryEntry, MatchRecord, MatchStatus
from bot.views import ButtonRef, register_button, unregister_button
from cogs import GAME_CHOICES, game_name
from cogs.common import Interaction, runtime_of, service_of
from cogs.play import players_text

log = logging.getLogger("tessera.info")

EMBED_LIMIT = 4096
def result_phrase(match: MatchRecord) -> str:
    """ "<@1> beat <@2> by resignation", "draw by ...", "aborted"."""
    outcome = match.outcome
    if match.status is MatchStatus.ABORTED or outcome is None:
        return "aborted"
    if outcome.is_draw:
        return f"draw by {outcome.termination.phrase}"
    players = {s.seat: (f"{BOT_NAME} ({s.ai_level})" if s.is_ai else f"<@{s.user_id}>") for s in match.seats}
    winners = " and ".join(players[s] for s in outcome.winners)
    losers = " and ".join(players[s.seat] for s in match.seats if s.seat not in outcome.winners)
    return f"{winners} beat {losers} by {outcome.termination.phrase}"


def history_line(entry: HistoryEntry) -> str:
    match = entry.match
    when = f" <t:{int(match.finished_at)}:R>" if match.finished_at else ""
    moves = plural(entry.moves, "move")
    return f"#{match.id} {game_name(match.game)}: {result_phrase(match)} · {moves}{when}"


def help_embed(tree: app_commands.CommandTree[Any]) -> discord.Embed:
    """/help: every slash command with its description and every user menu, read from the command tree (so
    it is never out of date), and the games of the registry."""
    embed = discord.Embed(
        title="Tessera: board games in your channels",
        description=(
            "Challenge someone with /play (or right-click a member, Apps, **Challenge to a game**), then "
            "move with /move (start typing for a list of your moves) or the buttons under the board."
        ),
        colour=discord.Colour.blurple(),
    )
    slash = sorted(
        (
            c
            for c in tree.get_commands(type=discord.AppCommandType.chat_input)
            if isinstance(c, app_commands.Command)
        ),
        key=lambda c: c.name,
    )
    lines = [f"`/{c.name}` {c.description}" for c in slash]
    for start in range(0, len(lines), 8):  # fields hold 1024 characters each
        name = "Commands" if start == 0 else "More commands"
        embed.add_field(name=name, value="\n".join(lines[start : start + 8])[:1024], inline=False)
    menus = [c.name for c in tree.get_commands(type=discord.AppCommandType.user)]
    if menus:
        shown = ", ".join(f"**{name}**" for name in menus)
        embed.add_field(name="Right-click a member, Apps", value=shown[:1024], inline=False)
    games_list = [
        f"**{rules.name}** ({players_text(rules)}): `/rules {rules.name}`" for rules in games.GAMES.values()
    ]
    embed.add_field(name="Games", value="\n".join(games_list)[:1024], inline=False)
    return embed


class Info(commands.Cog):
    """Rules, history, replays, leaderboards and statistics."""

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    async def cog_load(self) -> None:
        register_button("replay", self.on_replay_button)

    async def cog_unload(self) -> None:
        unregister_button("replay")

    @app_commands.command(name="help", description="Tessera's commands and games at a glance")
    async def help(self, interaction: Interaction) -> None:
        await interaction.response.send_message(embed=help_embed(self.bot.tree), ephemeral=True)

    @app_commands.command(name="rules", description="How to play a game (and which rules are our proposals)")
    @app_commands.describe(game="Which game")
    @app_commands.choices(game=GAME_CHOICES)
    async def rules(self, interaction: Interaction, game: str) -> None:
        rules = service_of(interaction).rules(game)
        text = rules.summary
        if len(text) > EMBED_LIMIT:
            text = text[: EMBED_LIMIT - 3] + "..."
        embed = discord.Embed(title=f"{rules.name}: rules", description=text, colour=discord.Colour.blurple())
        proposals = [o.name for o in rules.options if o.proposal]
        options = ", ".join(f"`{o.name}`" + (" (proposal)" if o.proposal else "") for o in rules.options)
        if options:
            embed.add_field(name="Match options", value=options[:1024], inline=False)
        if proposals:
            embed.set_footer(text="Proposal = our choice where the published rules are silent.")
        await interaction.response.send_message(embed=embed, ephemeral=True)

    @app_commands.command(name="history", description="Finished matches, newest first")
    @app_commands.describe(user="Whose matches (default: yours)", game="Only this game")
    @app_commands.choices(game=GAME_CHOICES)
    async def history(
        self, interaction: Interaction, user: discord.User | None = None, game: str | None = None
    ) -> None:
        who = user or interaction.user
        # Your own matches from every server; another member's only from this one.
        scope = None if who.id == interaction.user.id else interaction.guild_id
        entries = await service_of(interaction).history.finished(
            user_id=who.id, guild_id=scope, game=game, limit=10
        )
        where = "" if scope is None else " here"
        if not entries:
            await interaction.response.send_message(
                f"{who.display_name} has no finished match{where} yet.", ephemeral=True
            )
            return
        lines = [f"**Finished matches of {who.display_name}{where}**", *(history_line(e) for e in entries)]
        lines.append("Watch one again with /replay match_id.")
        await interaction.response.send_message(
            "\n".join(lines)[:2000], ephemeral=True, allowed_mentions=discord.AllowedMentions.none()
        )

    @app_commands.command(name="replay", description="An animated replay of a finished match")
    @app_commands.describe(match_id="The match number (see /history)")
    async def replay(self, interaction: Interaction, match_id: app_commands.Range[int, 1, 2**53 - 1]) -> None:
        await self.send_replay(interaction, match_id)

    async def on_replay_button(self, interaction: Interaction, ref: ButtonRef) -> None:
        await self.send_replay(interaction, ref.ref)

    async def send_replay(self, interaction: Interaction, match_id: int) -> None:
        """A finished match of this server (or one the user played in) as an animated GIF, drawn in a replay
        process (one per user at a time, a bounded queue) or taken from the cache."""
        runtime = runtime_of(interaction)
        interaction.extras["match_id"] = match_id
        match = await runtime.service.matches.get_visible(
            match_id, guild_id=interaction.guild_id, user_id=interaction.user.id
        )
        if match.is_active:
            raise UserError(f"Match #{match_id} is still being played; its replay comes when it ends.")
        runtime.drawing.admit(interaction.user.id)
        await interaction.response.defer(thinking=True)
        log = [(m.seat, m.notation) for m in await runtime.service.matches.log(match_id)]
        names = await runtime.names_for(match)
        players = [seat_name(s, names) for s in match.seats]
        theme = await runtime.theme_for(interaction.user.id, interaction.guild_id)
        gif = await runtime.drawing.replay(
            user_id=interaction.user.id,
            match_id=match.id,
            game=match.game,
            options=match.options,
            seed=match.seed,
            seats=len(match.seats),
            log=log,
            players=players,
            outcome=match.outcome,
            theme=theme,
        )
        file = discord.File(io.BytesIO(gif), filename=f"match-{match_id}.gif", description="Replay")
        await interaction.followup.send(
            f"Replay of match #{match_id} ({game_name(match.game)}, {plural(len(log), 'move')}): "
            f"{result_phrase(match)}.",
            file=file,
            allowed_mentions=discord.AllowedMentions.none(),
        )

    @app_commands.command(name="leaderboard", description="The best rated players of a game")
    @app_commands.describe(game="Which game", everywhere="Every server, not just this one")
    @app_commands.choices(game=GAME_CHOICES)
    async def leaderboard(self, interaction: Interaction, game: str, everywhere: bool = False) -> None:
        guild_id = None if everywhere else interaction.guild_id
        entries = await service_of(interaction).ratings.leaderboard(game, guild_id=guild_id, limit=10)
        if not entries:
            await interaction.response.send_message(
                f"No rated {game_name(game)} matches yet. Play one with /play.", ephemeral=True
            )
            return
        lines = [f"**{game_name(game)} leaderboard**" + ("" if guild_id is None else " (this server)")]
        for rank, entry in enumerate(entries, start=1):
            who = f"{BOT_NAME} ({entry.ai_level})" if entry.ai_level else f"<@{entry.user_id}>"
            rating = rating_text(entry.mu, entry.sigma)
            lines.append(f"{rank}. {who}: {rating} · {plural(entry.played, 'game')}")
        await interaction.response.send_message(
            "\n".join(lines), allowed_mentions=discord.AllowedMentions.none()
        )

    @app_commands.command(name="stats", description="Games played, won, lost and drawn")
    @app_commands.describe(user="Whose statistics (default: yours)")
    async def stats(self, interaction: Interaction, user: discord.User | None = None) -> None:
        service = service_of(interaction)
        who = user or interaction.user
        scope = None if who.id == interaction.user.id else interaction.guild_id
        rows = await service.history.stats(who.id, guild_id=scope)
        where = "" if scope is None else " here"
        if not rows:
            await interaction.response.send_message(
                f"{who.display_name} has not finished a match{where} yet.", ephemeral=True
            )
            return
        lines = [f"**{who.display_name}**" + (" (matches in this server)" if scope is not None else "")]
        for row in rows:
            rating = await service.ratings.rating(row.game, who.id)
            rated = f" · rating {rating_text(rating.mu, rating.sigma)}" if rating is not None else ""
            lines.append(
                f"{game_name(row.game)}: {row.played} played, {row.won} won, {row.lost} lost, "
                f"{row.drawn} drawn{rated}"
            )
        await interaction.response.send_message("\n".join(lines), ephemeral=True)


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(Info(bot))
