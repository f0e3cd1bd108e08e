"""/tournament: create, join, leave, start, standings, pairings, cancel and list events (the host runs them:
bot/service/tournaments/host.py; its posts: bot/tournament_posts.py). Private replies in the user's language;
what the channel sees (the event's own posts, /tournament create, join and standings) in the server's."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.i18n import Tr, for_user
from bot.replies import UserError
from bot.service.options import given_options
from bot.service.tournaments import texts
from bot.service.tournaments.live import Berserked, event_clock
from bot.service.tournaments.model import (
    DeadlineRule,
    Format,
    Settings,
    Status,
    Tournament,
    default_turn_s,
)
from bot.service.tournaments.standings import as_of, compute
from bot.tournament_posts import TournamentPosts
from bot.views import ButtonCog, ButtonHandler, ButtonRef
from cogs import GAME_CHOICES, game_name
from cogs.common import (
    Interaction,
    channel_id_of,
    duration_text,
    is_server_manager,
    match_here,
    names_of,
    parts_of,
    same_server,
    service_of,
)
from cogs.play import TIMEOUT_CHOICES, clock_choices
from games.texts import N_, Text

FORMAT_WORDS = {
    Format.SWISS: N_("Swiss"),
    Format.ROUND_ROBIN: N_("round robin"),
    Format.ARENA: N_("arena"),
}
FORMAT_CHOICES = [
    app_commands.Choice(name="Swiss", value=Format.SWISS.value),
    app_commands.Choice(name="Round robin", value=Format.ROUND_ROBIN.value),
    app_commands.Choice(name="Arena", value=Format.ARENA.value),
]
RULE_CHOICES = [
    app_commands.Choice(name="Draw", value=DeadlineRule.DRAW.value),
    app_commands.Choice(name="Loss for the player to move", value=DeadlineRule.LOSS_TO_MOVE.value),
]
STATUS_WORDS = {
    Status.OPEN: N_("open for players"),
    Status.RUNNING: N_("running"),
    Status.FINISHED: N_("finished"),
    Status.CANCELLED: N_("cancelled"),
}


def summary(t: Tournament, tr: Tr) -> str:
    """One line: "#3 Paint Swiss, 5 rounds, 1 day per turn: 6 players, running (round 2 of 5)"."""
    s = t.settings
    shape = tr(FORMAT_WORDS[s.format])
    if s.format is Format.ARENA:
        shape = tr("{format} of {duration}", format=shape, duration=duration_text(s.duration_s, tr))
    elif t.rounds_total or s.rounds:
        rounds = t.rounds_total or s.rounds or 0
        shape = tr.ngettext(
            "{format}, {count} round", "{format}, {count} rounds", rounds, format=shape, count=rounds
        )
    state = tr(STATUS_WORDS[t.status])
    if t.status is Status.RUNNING and t.rounds_total:
        state = tr("{state} (round {round} of {total})", state=state, round=t.round, total=t.rounds_total)
    players = sum(1 for p in t.players if p.active)
    if s.clock is not None:
        return f"**#{t.id}** {_live_line(tr, game_name(s.game), shape, s.clock, players, state)}"
    return f"**#{t.id}** {_line(tr, game_name(s.game), shape, duration_text(s.turn_s, tr), players, state)}"


def berserked_text(tr: Tr, user_id: int) -> str:
    """What the match's channel is told when a player berserks."""
    return tr(
        "{player} berserked: half the clock and no increment; a win scores one more point.",
        player=f"<@{user_id}>",
    )


def _live_line(tr: Tr, game: str, shape: str, clock: str, players: int, state: str) -> str:
    return tr.ngettext(
        "{game} {shape}, {clock} live clock: {count} player, {state}",
        "{game} {shape}, {clock} live clock: {count} players, {state}",
        players,
        game=game,
        shape=shape,
        clock=clock,
        count=players,
        state=state,
    )


def _line(tr: Tr, game: str, shape: str, turn: str, players: int, state: str) -> str:
    return tr.ngettext(
        "{game} {shape}, {turn} per turn: {count} player, {state}",
        "{game} {shape}, {turn} per turn: {count} players, {state}",
        players,
        game=game,
        shape=shape,
        turn=turn,
        count=players,
        state=state,
    )


class Tournaments(ButtonCog):
    """Swiss, round robin and arena events that run themselves."""

    group = app_commands.Group(
        name="tournament", description="Swiss, round robin and arena events", guild_only=True
    )

    def buttons(self) -> dict[str, ButtonHandler]:
        return {"berserk": self.on_berserk_button}

    async def cog_load(self) -> None:
        await super().cog_load()
        TournamentPosts(parts_of(self.bot), self.bot).wire()

    @group.command(name="create", description="Create an event: players join, then it runs itself")
    @app_commands.describe(
        game="Which game",
        format="Swiss (paired by score), round robin (everyone meets everyone) or arena (timed, re-paired)",
        rounds="Swiss: the number of rounds (default: enough to find a winner)",
        duration="Arena: minutes of play",
        turn_timeout="Time per turn in the event's matches (default: fits the event, at most a day)",
        clock="A live clock for every match, like 3+2 (an arena's default: the game's first preset)",
        rated="Whether the games count for ratings (forfeits never do)",
        starts_in="Start by itself after this many minutes (default: /tournament start)",
        role="Only members with this role may join",
        max_players="Player limit",
        round_hours="A round's deadline in hours (default: none, a round waits for its last match)",
        deadline_rule="What a match still running at the deadline becomes",
        options="The game's options, as in /play (board=hex5 ...)",
        seats="Players per table: 3 or 4 for TilingKing tables (Swiss)",
        double="Round robin: play everyone twice",
    )
    @app_commands.choices(game=GAME_CHOICES, format=FORMAT_CHOICES, deadline_rule=RULE_CHOICES)
    @app_commands.choices(turn_timeout=TIMEOUT_CHOICES)
    async def create(
        self,
        interaction: Interaction,
        game: str,
        format: str,
        rounds: app_commands.Range[int, 1, 30] | None = None,
        duration: app_commands.Range[int, 1, 10080] | None = None,
        turn_timeout: int | None = None,
        rated: bool = True,
        starts_in: app_commands.Range[int, 1, 43200] | None = None,
        role: discord.Role | None = None,
        max_players: app_commands.Range[int, 2, 1000] | None = None,
        round_hours: app_commands.Range[int, 1, 720] | None = None,
        deadline_rule: str = DeadlineRule.DRAW.value,
        options: str | None = None,
        seats: app_commands.Range[int, 2, 4] = 2,
        double: bool = False,
        clock: app_commands.Range[str, 1, 20] | None = None,
    ) -> None:
        service = service_of(interaction)
        rules = service.rules(game)
        given = given_options(rules, options)
        live_clock = event_clock(Format(format), clock, turn_timeout is not None, rules)
        if live_clock is not None and turn_timeout is not None:
            raise UserError(
                Text("A live clock has no time per turn: choose `clock` or `turn_timeout`, not both.")
            )
        now = service.now()
        duration_s = (duration or 60) * 60
        round_s = round_hours * 3600 if round_hours is not None else None
        settings = Settings(
            game,
            Format(format),
            given,
            seats=seats,
            rounds=rounds,
            double=double,
            duration_s=duration_s,
            turn_s=turn_timeout * 60 if turn_timeout else default_turn_s(Format(format), duration_s, round_s),
            round_s=round_s,
            deadline_rule=DeadlineRule(deadline_rule),
            rated=rated,
            starts_at=now + starts_in * 60 if starts_in is not None else None,
            role_id=role.id if role is not None else None,
            max_players=max_players,
            clock=live_clock,
        )
        t = await service.tournaments.create(
            interaction.guild_id,
            channel_id_of(interaction),
            interaction.user.id,
            settings,
            limited=not is_server_manager(interaction),
        )
        public = await parts_of(interaction).looks.public_tr(interaction.guild_id, interaction.guild_locale)
        lines = [
            public("{organiser} created a tournament.", organiser=interaction.user.mention),
            summary(t, public),
        ]
        if role is not None:
            lines.append(public("Open to members with the {role} role.", role=role.mention))
        if starts_in is not None:
            lines.append(
                public("It starts by itself {when}.", when=f"<t:{int(settings.starts_at or now)}:R>")
            )
        lines.append(
            public(
                "Join with {join} (tournament #{number}); the organiser starts it with {start}.",
                join=public.command("tournament join"),
                start=public.command("tournament start"),
                number=t.id,
            )
        )
        await interaction.response.send_message(
            "\n".join(lines), allowed_mentions=discord.AllowedMentions.none()
        )

    @create.autocomplete("clock")
    async def clock_autocomplete(
        self, interaction: Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        """The game's live presets, then correspondence (as /play's)."""
        return await clock_choices(interaction, current)

    @group.command(
        name="berserk",
        description="Arena on a live clock: halve your clock before your first move, +1 point for a win",
    )
    async def berserk(self, interaction: Interaction) -> None:
        """Berserk in this thread's arena match (bot/service/tournaments/live.py)."""
        match = await match_here(interaction)
        await self._berserk(interaction, match.id)

    async def on_berserk_button(self, interaction: Interaction, ref: ButtonRef) -> None:
        """The Berserk button under an arena match's first board."""
        match = await service_of(interaction).matches.get(ref.ref)
        same_server(interaction, match.guild_id)
        await self._berserk(interaction, match.id)

    async def _berserk(self, interaction: Interaction, match_id: int) -> None:
        """Berserk, then tell the match's channel ("Alice berserked")."""
        await service_of(interaction).tournaments.berserk(match_id, interaction.user.id)
        public = await parts_of(interaction).looks.public_tr(interaction.guild_id, interaction.guild_locale)
        await interaction.response.send_message(
            berserked_text(public, interaction.user.id), allowed_mentions=discord.AllowedMentions.none()
        )

    async def post_berserked(self, berserked: Berserked) -> None:
        """A berserk on the web board: the match's channel is told, as the button's answer tells it."""
        parts = parts_of(self.bot)
        public = await parts.looks.public_tr(berserked.match.guild_id)
        await parts.channels.channel(berserked.match.channel_id).send(
            berserked_text(public, berserked.user_id), allowed_mentions=discord.AllowedMentions.none()
        )

    async def _number(self, interaction: Interaction, number: int | None) -> Tournament:
        """The tournament named, else the only open or running one of this server."""
        host = service_of(interaction).tournaments
        if number is not None:
            return await host.get(number, guild_id=interaction.guild_id)
        live = await host.live(interaction.guild_id or 0)
        if len(live) == 1:
            return live[0]
        if not live:
            raise UserError(
                Text("No tournament is open or running here. Create one with {/tournament create}.")
            )
        raise UserError(Text("Several tournaments run here: give the number (see {/tournament list})."))

    @group.command(name="join", description="Join an event")
    @app_commands.describe(number="The tournament's number (default: the only one here)")
    async def join(self, interaction: Interaction, number: int | None = None) -> None:
        t = await self._number(interaction, number)
        roles = frozenset(r.id for r in getattr(interaction.user, "roles", ()))
        t = await service_of(interaction).tournaments.join(t.id, interaction.user.id, roles)
        names_of(interaction).remember(interaction.user)
        public = await parts_of(interaction).looks.public_tr(interaction.guild_id, interaction.guild_locale)
        joined = sum(1 for p in t.players if p.active)
        await interaction.response.send_message(
            public.ngettext(
                "{player} joined tournament #{number} ({count} player).",
                "{player} joined tournament #{number} ({count} players).",
                joined,
                player=interaction.user.mention,
                number=t.id,
                count=joined,
            ),
            allowed_mentions=discord.AllowedMentions.none(),
        )

    @group.command(name="leave", description="Leave an event (once it runs: withdraw from it)")
    @app_commands.describe(number="The tournament's number (default: the only one here)")
    async def leave(self, interaction: Interaction, number: int | None = None) -> None:
        t = await self._number(interaction, number)
        t = await service_of(interaction).tournaments.leave(t.id, interaction.user.id)
        tr = for_user(interaction)
        if t.status is Status.OPEN:
            text = tr("You left tournament #{number}.", number=t.id)
        else:
            text = tr("You withdrew from tournament #{number}; your results so far stay.", number=t.id)
        await interaction.response.send_message(text, ephemeral=True)

    @group.command(name="start", description="Start an event now (its organiser or Manage Server)")
    @app_commands.describe(number="The tournament's number (default: the only one here)")
    async def start(self, interaction: Interaction, number: int | None = None) -> None:
        t = await self._number(interaction, number)
        await interaction.response.defer(ephemeral=True)  # the pairings and pings are the public posts
        t = await service_of(interaction).tournaments.begin(
            t.id, interaction.user.id, manager=is_server_manager(interaction)
        )
        tr = for_user(interaction)
        await interaction.followup.send(tr("Tournament #{number} has started.", number=t.id), ephemeral=True)

    @group.command(name="cancel", description="Cancel an event (its organiser or Manage Server)")
    @app_commands.describe(number="The tournament's number (default: the only one here)")
    async def cancel(self, interaction: Interaction, number: int | None = None) -> None:
        t = await self._number(interaction, number)
        await interaction.response.defer(ephemeral=True)
        t = await service_of(interaction).tournaments.cancel(
            t.id, interaction.user.id, manager=is_server_manager(interaction)
        )
        tr = for_user(interaction)
        await interaction.followup.send(tr("Tournament #{number} is cancelled.", number=t.id), ephemeral=True)

    @group.command(name="standings", description="An event's standings, as text and as an image")
    @app_commands.describe(number="The tournament's number (default: the only one here)")
    async def standings(self, interaction: Interaction, number: int | None = None) -> None:
        """The standings, posted for the channel: in the server's language, as every public post."""
        t = await self._number(interaction, number)
        await interaction.response.defer()
        public = await parts_of(interaction).looks.public_tr(interaction.guild_id, interaction.guild_locale)
        table = compute(as_of(t))
        final = t.status is Status.FINISHED
        text = public.text(texts.standings(as_of(t), table, {}, final=final))
        posts = TournamentPosts(parts_of(interaction), self.bot)
        image = await posts.standings_image(t, table, public, final=final)
        await interaction.followup.send(
            text[:2000], file=image, allowed_mentions=discord.AllowedMentions.none()
        )

    @group.command(name="pairings", description="A round's pairings (default: the current round)")
    @app_commands.describe(number="The tournament's number (default: the only one here)", round="Which round")
    async def pairings(
        self, interaction: Interaction, number: int | None = None, round: int | None = None
    ) -> None:
        t = await self._number(interaction, number)
        tr = for_user(interaction)
        wanted = round if round is not None else t.round
        if not 1 <= wanted <= t.round:
            raise UserError(Text("Tournament #{number} has no round {round} yet.", number=t.id, round=wanted))
        await interaction.response.send_message(
            tr.text(texts.pairings(t, wanted, {}))[:2000],
            ephemeral=True,
            allowed_mentions=discord.AllowedMentions.none(),
        )

    @group.command(name="list", description="The open and running events of this server")
    async def list(self, interaction: Interaction) -> None:
        tr = for_user(interaction)
        live = await service_of(interaction).tournaments.live(interaction.guild_id or 0)
        if not live:
            text = tr("No tournament is open or running here. Create one with {/tournament create}.")
        else:
            text = "\n".join(summary(t, tr) for t in live[:15])
        await interaction.response.send_message(text[:2000], ephemeral=True)


def tournament_lines(tournaments: list[Tournament], user_id: int, tr: Tr) -> list[str]:
    """/history's and /stats' lines about a user's events: "#3 Paint Swiss: 2nd of 8 (finished)"."""
    lines = []
    for t in tournaments:
        table = compute(t)
        mine = next((s for s in table if s.user_id == user_id), None)
        if mine is None:
            continue
        lines.append(
            tr(
                "#{number} {game} {format}: place {place} of {count}, score {points} ({state})",
                number=t.id,
                game=game_name(t.settings.game),
                format=tr(FORMAT_WORDS[t.settings.format]),
                place=mine.place,
                count=len(table),
                points=texts.points(mine.score),
                state=tr(STATUS_WORDS[t.status]),
            )
        )
    return lines


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(Tournaments(bot))


__all__: list[Any] = ["Tournaments", "setup", "summary", "tournament_lines"]
