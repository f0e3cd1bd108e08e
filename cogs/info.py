"""Reading: /help, /rules, /matches, /history, /replay (and the Replay button), /leaderboard, /stats."""

from __future__ import annotations

import io
import logging
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

import games
from bot.boards import BOT_NAME, level_word, seat_mention, seat_name
from bot.i18n import ENGLISH, Tr, for_user
from bot.replies import UserError
from bot.service.ratings import CORRESPONDENCE, ESTABLISHED_AFTER, LIVE, shown_rating
from bot.service.records import HistoryEntry, MatchRecord, MatchStatus
from bot.views import ButtonCog, ButtonHandler, ButtonRef
from cogs import GAME_CHOICES, game_name
from cogs.common import Interaction, looks_of, parts_of, runtime_of, service_of
from cogs.play import CHALLENGE_MENU, players_text
from cogs.puzzles import puzzle_lines
from cogs.tournaments import tournament_lines
from games.base import Outcome, Termination
from games.texts import N_, Text
from renderer import text as renderer_text

log = logging.getLogger("tessera.info")

EMBED_LIMIT = 4096
RULES_COMMAND = "rules"
"""The /rules command's name (its translation is the command's own)."""


def result_phrase(match: MatchRecord, tr: Tr = ENGLISH) -> str:
    """The result in the words of the final board and its image (`renderer.text.result`), so /history and
    /replay say it as the match did: "<@2> wins on time", "Draw on score", "Game aborted: no result"."""
    outcome = match.outcome
    if match.status is MatchStatus.ABORTED or outcome is None:
        outcome = Outcome(Termination.ABORTED, (0,) * len(match.seats))
    with renderer_text.using(tr.translations):
        return renderer_text.result(outcome, [seat_mention(s, tr) for s in match.seats])


def moves_count(count: int, tr: Tr = ENGLISH) -> str:
    """ "1 move", "12 moves"."""
    return tr.ngettext("{count} move", "{count} moves", count, count=count)


def history_line(entry: HistoryEntry, tr: Tr = ENGLISH) -> str:
    match = entry.match
    when = f" <t:{int(match.finished_at)}:R>" if match.finished_at else ""
    moves = moves_count(entry.moves, tr)
    return f"#{match.id} {game_name(match.game)}: {result_phrase(match, tr)} · {moves}{when}"


SPEED_CHOICES = [
    app_commands.Choice(name="correspondence", value=CORRESPONDENCE),
    app_commands.Choice(name="live", value=LIVE),
]
"""/leaderboard's speeds: ratings are kept apart per speed (bot/service/ratings.py)."""

HELP_SECTIONS: dict[str, str] = {
    "cogs.play": N_("Play a match"),
    "cogs.lobbies": N_("Play a match"),
    "cogs.moves": N_("During a match"),
    "cogs.ending": N_("During a match"),
    "cogs.info": N_("Rules, matches and records"),
    "cogs.analysis": N_("Rules, matches and records"),
    "cogs.admin": N_("Settings"),
    "cogs.tournaments": N_("Tournaments"),
    "cogs.puzzles": N_("Puzzles"),
}
"""/help's sections: the commands of each cog under one title (each title names one field, never twice)."""
OTHER_COMMANDS = N_("Other commands")
GROUP_INTROS: dict[str, tuple[str, ...]] = {
    "tournament": (
        N_(
            "Events run themselves: each round opens its matches in threads and pings the players; standings "
            "and a podium are posted in the channel."
        ),
        N_(
            "At a round's deadline or an arena's end, a match still running is adjudicated by the event's "
            "rule (a draw, or a loss for the player to move) and counts as a game played to that result; "
            "one in which a player has not moved yet is aborted: unrated, no points (a player whose turn "
            "time ran out without a move loses it by forfeit)."
        ),
        N_(
            "Live clocks: `clock:3+2` gives every match that clock; an arena without a turn time plays on "
            "the game's first preset. In an arena you may berserk before your first move (the button, or "
            "{/tournament berserk}): half your clock, no increment, one more point for a win. A live Swiss "
            "or round robin opens its next round one minute after the last match of a round ends; a player "
            "who misses their first move (30 seconds) loses that game by forfeit."
        ),
    ),
}
"""/help's words on a command group before its subcommands, a paragraph each."""
FIELD_LIMIT = 1024
"""The characters an embed field's value holds."""


def field_values(lines: list[str], limit: int = FIELD_LIMIT) -> list[str]:
    """`lines` packed in order into as few field values as fit `limit` characters each (a line never cut
    between two fields; one longer than a field alone is cut short)."""
    values: list[str] = []
    for line in lines:
        line = line[:limit]
        if values and len(values[-1]) + 1 + len(line) <= limit:
            values[-1] += "\n" + line
        else:
            values.append(line)
    return values


def help_embed(tree: app_commands.CommandTree[Any], tr: Tr = ENGLISH) -> discord.Embed:
    """/help: every slash command with its description and every user menu, read from the command tree (so
    it is never out of date), and the games of the registry; in the language of `tr`."""
    embed = discord.Embed(
        title=tr("Tessera: board games in your channels"),
        description=tr(
            "Challenge someone with {/play} (or right-click a member, Apps, **{menu}**), then move with "
            "{/move} (start typing for a list of your moves) or the buttons under the board.",
            menu=tr(CHALLENGE_MENU),
        ),
        colour=discord.Colour.blurple(),
    )
    slash = sorted(
        (
            c
            for c in tree.get_commands(type=discord.AppCommandType.chat_input)
            if isinstance(c, app_commands.Command | app_commands.Group)
        ),
        key=lambda c: c.name,
    )
    sections: dict[str, list[str]] = {title: [] for title in HELP_SECTIONS.values()}
    for command in slash:
        title = HELP_SECTIONS.get(command.module or "", OTHER_COMMANDS)
        if isinstance(command, app_commands.Group):  # /tournament: what events are, then each subcommand
            lines = [f"{tr.command(command.name)} {tr(command.description)}"]
            lines += [tr(paragraph) for paragraph in GROUP_INTROS.get(command.name, ())]
            lines += [
                f"{tr.command(f'{command.name} {sub.name}')} {tr(sub.description)}"
                for sub in command.commands
            ]
            sections.setdefault(title, []).extend(lines)
            continue
        line = f"{tr.command(command.name)} {tr(command.description)}"
        sections.setdefault(title, []).append(line)
    for title, lines in sections.items():
        values = field_values(lines)
        for number, value in enumerate(values, 1):
            part = "" if len(values) == 1 else f" ({number})"
            embed.add_field(name=tr(title) + part, value=value, inline=False)
    menus = [tr(c.name) for c in tree.get_commands(type=discord.AppCommandType.user)]
    if menus:
        shown = ", ".join(f"**{name}**" for name in menus)
        embed.add_field(name=tr("Right-click a member, Apps"), value=shown[:1024], inline=False)
    embed.add_field(
        name=tr("Live clocks"),
        value=tr(
            "Add `clock` to {/play} for a live game: `5+3` is 5 minutes each and 3 seconds more per "
            "move (the list offers each game's presets). Everyone has 30 seconds for their first move, "
            "or the match is aborted, unrated; after that, a player whose clock runs out loses on time "
            "(TilingKing with more players follows its `timeout` option). Time while Tessera restarts is "
            "not counted: the player to move gets their turn again with the clock it began with."
        )[:1024],
        inline=False,
    )
    rules_command = tr.command(RULES_COMMAND)
    games_list = [
        tr(
            "**{game}** ({players}): {rules}",
            game=rules.name,
            players=players_text(rules, tr),
            rules=f"{rules_command} {rules.name}",
        )
        for rules in games.GAMES.values()
    ]
    embed.add_field(name=tr("Games"), value="\n".join(games_list)[:1024], inline=False)
    return embed


async def event_lines(interaction: Interaction, user_id: int, guild_id: int | None, tr: Tr) -> list[str]:
    """/history's and /stats' part on tournaments: a heading and the user's last events with their place
    (this server's only when `guild_id` is given); nothing when there are none."""
    events = await service_of(interaction).tournaments.of_user(user_id, limit=5)
    if guild_id is not None:
        events = [t for t in events if t.guild_id == guild_id]
    lines = tournament_lines(events, user_id, tr)
    return [tr("**Tournaments**"), *lines] if lines else []


class Info(ButtonCog):
    """Rules, your active matches, history, replays, leaderboards and statistics."""

    def buttons(self) -> dict[str, ButtonHandler]:
        return {"replay": self.on_replay_button}

    @app_commands.command(name="help", description="Tessera's commands and games at a glance")
    async def help(self, interaction: Interaction) -> None:
        await interaction.response.send_message(
            embed=help_embed(self.bot.tree, for_user(interaction)), ephemeral=True
        )

    @app_commands.command(
        name=RULES_COMMAND, description="How to play a game (and which rules are our proposals)"
    )
    @app_commands.describe(game="Which game")
    @app_commands.choices(game=GAME_CHOICES)
    async def rules(self, interaction: Interaction, game: str) -> None:
        rules = service_of(interaction).rules(game)
        tr = for_user(interaction)
        text = tr(rules.summary)
        if len(text) > EMBED_LIMIT:
            text = text[: EMBED_LIMIT - 3] + "..."
        title = tr("{game}: rules", game=rules.name)
        embed = discord.Embed(title=title, description=text, colour=discord.Colour.blurple())
        proposals = [o.name for o in rules.options if o.proposal]
        proposal = tr(" (proposal)")
        options = ", ".join(f"`{o.name}`" + (proposal if o.proposal else "") for o in rules.options)
        if options:
            embed.add_field(name=tr("Match options"), value=options[:1024], inline=False)
        if proposals:
            embed.set_footer(text=tr("Proposal = our choice where the published rules are silent."))
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
        tr = for_user(interaction)
        events = await event_lines(interaction, who.id, scope, tr)
        if not entries and not events:
            if scope is None:
                empty = tr("{name} has no finished match yet.", name=who.display_name)
            else:
                empty = tr("{name} has no finished match here yet.", name=who.display_name)
            await interaction.response.send_message(empty, ephemeral=True)
            return
        if scope is None:
            title = tr("**Finished matches of {name}**", name=who.display_name)
        else:
            title = tr("**Finished matches of {name} here**", name=who.display_name)
        lines = [title, *(history_line(e, tr) for e in entries)]
        if entries:
            lines.append(tr("Watch one again with {/replay} and its number."))
        lines += events
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
        parts = parts_of(interaction)
        interaction.extras["match_id"] = match_id
        match = await parts.service.matches.get_visible(
            match_id, guild_id=interaction.guild_id, user_id=interaction.user.id
        )
        if match.is_active:
            raise UserError(
                Text(
                    "Match #{match_id} is still being played; its replay comes when it ends.",
                    match_id=match_id,
                )
            )
        parts.runtime.drawing.admit(interaction.user.id)
        await interaction.response.defer(thinking=True)
        log = [(m.seat, m.notation) for m in await parts.service.matches.log(match_id)]
        names = await parts.names.names_for(match)
        public = await parts.looks.public_tr(interaction.guild_id, interaction.guild_locale)
        players = [seat_name(s, names, public) for s in match.seats]
        theme = await parts.looks.theme_for(interaction.user.id, interaction.guild_id)
        gif = await parts.runtime.drawing.replay(
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
            locale=public.locale,
        )
        file = discord.File(io.BytesIO(gif), filename=f"match-{match_id}.gif", description=public("Replay"))
        await interaction.followup.send(
            public(
                "Replay of match #{match_id} ({game}, {moves}): {result}.",
                match_id=match_id,
                game=game_name(match.game),
                moves=moves_count(parts.service.rules(match.game).moves_played(match.state), public),
                result=result_phrase(match, public),
            ),
            file=file,
            allowed_mentions=discord.AllowedMentions.none(),
        )

    @app_commands.command(name="leaderboard", description="The best rated players of a game")
    @app_commands.describe(
        game="Which game",
        everywhere="Every server, not just this one",
        speed="Correspondence (a time per turn, the default) or live (a clock) ratings",
    )
    @app_commands.choices(game=GAME_CHOICES, speed=SPEED_CHOICES)
    async def leaderboard(
        self, interaction: Interaction, game: str, everywhere: bool = False, speed: str = CORRESPONDENCE
    ) -> None:
        """Established ratings of people only, as on lichess: provisional ones are left out (the footer says
        how to qualify) and the bot gets a line of its own below the ranking. Live and correspondence
        ratings are kept apart (`speed`)."""
        ratings = service_of(interaction).ratings
        guild_id = None if everywhere else interaction.guild_id
        entries = await ratings.leaderboard(game, guild_id=guild_id, limit=10, speed=speed)
        if not entries:
            tr = for_user(interaction)
            await interaction.response.send_message(
                tr.ngettext(
                    "No {game} player has an established rating yet: it takes about {count} rated game. "
                    "Play one with {/play}.",
                    "No {game} player has an established rating yet: it takes about {count} rated games. "
                    "Play some with {/play}.",
                    ESTABLISHED_AFTER,
                    game=game_name(game),
                    count=ESTABLISHED_AFTER,
                ),
                ephemeral=True,
            )
            return
        bots = await ratings.bot_ratings(game, speed=speed)
        public = await looks_of(interaction).public_tr(interaction.guild_id, interaction.guild_locale)
        if guild_id is None:
            title = public("**{game} leaderboard**", game=game_name(game))
        else:
            title = public("**{game} leaderboard** (this server)", game=game_name(game))
        if speed == LIVE:
            title += " · " + public("live")
        lines = [title]
        for rank, entry in enumerate(entries, start=1):
            rating = shown_rating(entry.mu, entry.sigma)
            games_played = public.ngettext("{count} game", "{count} games", entry.played, count=entry.played)
            lines.append(f"{rank}. <@{entry.user_id}>: {rating} · {games_played}")
        if bots:
            levels = " · ".join(
                f"{level_word(b.ai_level, public)} {shown_rating(b.mu, b.sigma)}" for b in bots
            )
            lines.append(public("{bot}, not ranked: {levels}", bot=BOT_NAME, levels=levels))
        footer = public.ngettext(
            "Only established ratings are ranked: a rating marked ? is provisional until about {count} "
            "rated game.",
            "Only established ratings are ranked: a rating marked ? is provisional until about {count} "
            "rated games.",
            ESTABLISHED_AFTER,
            count=ESTABLISHED_AFTER,
        )
        lines.append(f"-# {footer}")
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
        tr = for_user(interaction)
        events = await event_lines(interaction, who.id, scope, tr)
        puzzles = runtime_of(interaction).puzzles
        solving = puzzle_lines(await puzzles.player(who.id), await puzzles.streak(who.id), tr)
        if not rows and not events and not solving:
            if scope is None:
                empty = tr("{name} has not finished a match yet.", name=who.display_name)
            else:
                empty = tr("{name} has not finished a match here yet.", name=who.display_name)
            await interaction.response.send_message(empty, ephemeral=True)
            return
        if scope is None:
            lines = [f"**{who.display_name}**"]
        else:
            lines = [tr("**{name}** (matches in this server)", name=who.display_name)]
        provisional = False
        for row in rows:
            rating = await service.ratings.rating(row.game, who.id)
            live = await service.ratings.rating(row.game, who.id, speed=LIVE)
            counts = tr(
                "{game}: {played} played, {won} won, {lost} lost, {drawn} drawn",
                game=game_name(row.game),
                played=row.played,
                won=row.won,
                lost=row.lost,
                drawn=row.drawn,
            )
            if rating is not None:
                shown = shown_rating(rating.mu, rating.sigma)
                counts += tr(" · rating {rating}", rating=str(shown))
                provisional = provisional or shown.provisional
            if live is not None:  # live play is rated apart, as on lichess
                shown = shown_rating(live.mu, live.sigma)
                counts += tr(" · live rating {rating}", rating=str(shown))
                provisional = provisional or shown.provisional
            lines.append(counts)
        if provisional:
            footer = tr.ngettext(
                "A rating marked ? is provisional until about {count} rated game.",
                "A rating marked ? is provisional until about {count} rated games.",
                ESTABLISHED_AFTER,
                count=ESTABLISHED_AFTER,
            )
            lines.append(f"-# {footer}")
        lines += solving
        lines += events
        await interaction.response.send_message(
            "\n".join(lines)[:2000], ephemeral=True, allowed_mentions=discord.AllowedMentions.none()
        )

    # ------------------------------------------------------------------------------------------ /matches

    @app_commands.command(name="matches", description="Your active matches, with links")
    async def matches(self, interaction: Interaction) -> None:
        found = await service_of(interaction).matches.of_user(interaction.user.id)
        tr = for_user(interaction)
        if not found:
            await interaction.response.send_message(
                tr("You have no active match. Start one with {/play}."), ephemeral=True
            )
            return
        lines = []
        for match in found[:20]:
            link = f"https://discord.com/channels/{match.guild_id or '@me'}/{match.channel_id}"
            if match.user_to_move == interaction.user.id:
                turn = tr("**your turn**")
            elif match.user_to_move is not None:
                turn = tr("waiting for {player}", player=f"<@{match.user_to_move}>")
            else:
                turn = tr("over")
            lines.append(
                tr(
                    "#{match_id} {game} in {channel} ({link}): {turn}",
                    match_id=match.id,
                    game=game_name(match.game),
                    channel=f"<#{match.channel_id}>",
                    link=link,
                    turn=turn,
                )
            )
        await interaction.response.send_message(
            "\n".join(lines), ephemeral=True, allowed_mentions=discord.AllowedMentions.none()
        )


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(Info(bot))
