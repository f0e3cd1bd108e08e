"""The Discord side of the tournament host (bot/service/tournaments/host.py): a thread of the tournament's
channel for each match (one channel holds one match), the first board in it, and the host's announcements in
the tournament's channel, in the server's language: pairings (with pings), standings and the podium (text
and an image drawn on the board pool, off the event loop), and a cancellation."""

from __future__ import annotations

import asyncio
import io
import logging
from collections.abc import Mapping
from dataclasses import dataclass

import discord

from bot.channels import SEND_ERRORS
from bot.i18n import Tr, translations
from bot.parts import Parts
from bot.service.records import MatchView
from bot.service.tournaments import lifecycle, texts
from bot.service.tournaments.model import Format, Tournament
from bot.service.tournaments.standings import Standing, as_of, compute
from bot.views import button, view_of
from renderer.standings import Row, podium_alt, podium_png, standings_alt, standings_png

log = logging.getLogger(__name__)


def draw_standings(rows: list[Row], tiebreaks: list[str], title: str, theme: str, locale: str) -> bytes:
    """The standings table image (run on the board pool)."""
    return standings_png(rows, tiebreaks, title, theme=theme, translations=translations(locale))


def draw_podium(rows: list[Row], title: str, theme: str, locale: str) -> bytes:
    """The podium image (run on the board pool)."""
    return podium_png(rows, title, theme=theme, translations=translations(locale))


def rows_of(table: list[Standing], names: Mapping[int, str]) -> list[Row]:
    return [
        Row(
            s.place,
            names.get(s.user_id, str(s.user_id)),
            s.score,
            s.tiebreaks,
            s.played,
            withdrawn=s.withdrawn,
            on_fire=s.on_fire,
        )
        for s in table
    ]


@dataclass(frozen=True, slots=True)
class Untitled:
    """A match thread titled before every player's name could be had (a raw id stands in): renamed once
    the names arrive."""

    tournament: int
    guild_id: int | None
    round: int
    seats: tuple[int, ...]


class TournamentPosts:
    """Wired to `service.tournaments` (`channel_for`, `announce`, `opened`) by the tournaments cog. Names come
    from the one name service (`PlayerNames`), which fetches a player the bot has not seen since it started;
    a thread titled while Discord could not name a player is renamed when the name arrives."""

    def __init__(self, parts: Parts, client: discord.Client) -> None:
        self.parts = parts
        self.client = client
        self.untitled: dict[int, Untitled] = {}
        """Thread id -> a match thread whose title shows a raw id (in memory: a restart forgets it)."""
        self._renaming: set[asyncio.Task[None]] = set()

    def wire(self) -> None:
        host = self.parts.service.tournaments
        host.channel_for = self.channel_for
        host.announce = self.announce
        host.opened = self.opened
        self.parts.names.on_learned(self.name_arrived)

    async def names(self, user_ids: list[int]) -> dict[int, str]:
        """Display names for images and thread titles (mentions are for text); a player Discord could not
        name for now shows as their id."""
        found = await self.parts.names.names(user_ids)
        return {user: found.get(user, str(user)) for user in user_ids}

    async def _tr(self, t: Tournament) -> Tr:
        return await self.parts.looks.public_tr(t.guild_id or None)

    async def _title(self, number: int, guild_id: int | None, round: int, seats: tuple[int, ...]) -> str:
        tr = await self.parts.looks.public_tr(guild_id)
        names = await self.names(list(seats))
        title: str = tr(
            "Tournament #{number}, round {round}: {players}",
            number=number,
            round=round,
            players=" – ".join(names[u] for u in seats),
        )
        return title[:100]

    async def channel_for(self, t: Tournament, action: lifecycle.OpenMatch) -> int:
        """A public thread of the tournament's channel for one match, titled with its players' names."""
        title = await self._title(t.id, t.guild_id or None, action.round, action.seats)
        channel = self.client.get_channel(t.channel_id) or await self.client.fetch_channel(t.channel_id)
        if not isinstance(channel, discord.TextChannel):
            raise RuntimeError(f"tournament {t.id}: channel {t.channel_id} cannot hold threads")
        thread = await channel.create_thread(name=title, type=discord.ChannelType.public_thread)
        if self.parts.names.missed & set(action.seats):
            self.untitled[thread.id] = Untitled(t.id, t.guild_id or None, action.round, action.seats)
        return thread.id

    def name_arrived(self, user_id: int, name: str) -> None:
        """A name the bot could not have before arrived: retitle the threads that showed its id (the name
        service's listener: only schedules)."""
        for thread_id, untitled in list(self.untitled.items()):
            if user_id in untitled.seats:
                task = asyncio.get_running_loop().create_task(self._retitle(thread_id, untitled))
                self._renaming.add(task)
                task.add_done_callback(self._renaming.discard)

    async def _retitle(self, thread_id: int, untitled: Untitled) -> None:
        """Rename a match thread now that a name arrived; it stays listed while a name is still missing (a
        failed rename is logged and tried again at the next name)."""
        if self.untitled.get(thread_id) != untitled:
            return
        if not self.parts.names.missed & set(untitled.seats):
            del self.untitled[thread_id]
        title = await self._title(untitled.tournament, untitled.guild_id, untitled.round, untitled.seats)
        try:
            thread = self.client.get_channel(thread_id) or await self.client.fetch_channel(thread_id)
            if isinstance(thread, discord.Thread):
                await thread.edit(name=title)
        except SEND_ERRORS:
            log.exception("could not rename the thread %s of tournament %s", thread_id, untitled.tournament)
            self.untitled.setdefault(thread_id, untitled)

    async def opened(self, t: Tournament, match: MatchView) -> None:
        """Post the first board of a tournament match in its thread; in an arena on a live clock, the
        Berserk button under it."""
        tr = await self._tr(t)
        headline = tr("Tournament #{number}, round {round}. The match begins.", number=t.id, round=t.round)
        board = await self.parts.boards.board(match, headline=headline, tr=tr)
        await self.parts.posts.post_board(match, board)
        if t.settings.format is Format.ARENA and match.time_control is not None:
            offer = tr(
                "Berserk before your first move: half your clock, no increment, and one more point for a win."
            )
            berserk = button("berserk", match.id, 0, tr("Berserk"), style=discord.ButtonStyle.danger)
            await self.parts.channels.channel(match.channel_id).send(offer, view=view_of(berserk))

    async def _send(
        self, t: Tournament, content: str, image: discord.File | None = None, *, ping: bool = False
    ) -> None:
        mentions = discord.AllowedMentions(users=True) if ping else discord.AllowedMentions.none()
        channel = self.parts.channels.channel(t.channel_id)
        if image is None:
            await channel.send(content[:2000], allowed_mentions=mentions)
        else:
            await channel.send(content[:2000], file=image, allowed_mentions=mentions)

    async def standings_image(
        self, t: Tournament, table: list[Standing], tr: Tr, *, final: bool
    ) -> discord.File:
        """The standings table image of `t` as `as_of` counts it (`table` is `compute(as_of(t))`), with
        its alt text, in the language of `tr`."""
        names = await self.names([s.user_id for s in table])
        theme = await self.parts.looks.theme_for(None, t.guild_id or None)
        keys = [tb.value for tb in t.settings.tiebreak_order()]
        title = tr.text(texts.title(as_of(t), final))
        rows = rows_of(table, names)
        png = await self.parts.runtime.drawing.picture(draw_standings, rows, keys, title, theme, tr.locale)
        alt = standings_alt(rows, keys, title, translations=tr.translations)
        return discord.File(io.BytesIO(png), filename="standings.png", description=alt)

    async def announce(self, t: Tournament, action: lifecycle.Action) -> None:
        tr = await self._tr(t)
        if isinstance(action, lifecycle.PostPairings):
            await self._send(t, tr.text(texts.pairings(t, action.round, {})))
        elif isinstance(action, lifecycle.Ping):
            mentions = " ".join(f"<@{u}>" for u in dict.fromkeys(action.user_ids))
            await self._send(
                t,
                tr(
                    "{players}: round {round} of tournament #{number} has begun. Your matches are in their "
                    "threads below.",
                    players=mentions,
                    round=action.round,
                    number=t.id,
                ),
                ping=True,
            )
        elif isinstance(action, lifecycle.PostStandings):
            table = compute(as_of(t))  # a game of the next round may have ended before this is carried out
            text = tr.text(texts.standings(as_of(t), table, {}, final=action.final))
            if action.next_round_at is not None:
                when = f"<t:{int(action.next_round_at)}:R>"
                text += "\n" + tr("The next round begins {when}.", when=when)
            await self._send(t, text, await self.standings_image(t, table, tr, final=action.final))
        elif isinstance(action, lifecycle.Podium):
            names = await self.names([s.user_id for s in action.places])
            theme = await self.parts.looks.theme_for(None, t.guild_id or None)
            title = tr("Tournament #{number}: the podium", number=t.id)
            rows = rows_of(list(action.places), names)
            png = await self.parts.runtime.drawing.picture(draw_podium, rows, title, theme, tr.locale)
            alt = podium_alt(rows, title, translations=tr.translations)
            image = discord.File(io.BytesIO(png), filename="standings.png", description=alt)
            await self._send(t, tr.text(texts.podium(t, action.places, {})), image)
        elif isinstance(action, lifecycle.Cancelled):
            await self._send(t, tr("Tournament #{number} was cancelled.", number=t.id))
