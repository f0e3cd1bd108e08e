"""Draw offers and rematches in Discord (issue 43, items 5-6; the rules are the service's, draws.py and
rematches.py).

`/draw offer|accept|decline` in the match's channel; an offer is posted with Accept and Decline buttons
bound to the ply it was made at (the next move lapses it, so an old button answers nothing). The Rematch
button under every finished board offers the same match again, seats rotated; its offer is posted with
Accept and Decline buttons for the other players (against the bot it starts at once), and the new match's
first board says the running score of the chain. What the web board does with both reaches here through
`post_result` (bot/web/relay.py's poster), so an offer made on the web shows in Discord and vice versa.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Literal

import discord
from discord import app_commands
from discord.ext import commands

from bot.i18n import ENGLISH, Tr
from bot.service.errors import NoDrawOffer
from bot.service.records import (
    DrawDeclined,
    DrawOffered,
    Finished,
    MatchView,
    PostedMessage,
    RematchDeclined,
    RematchOffered,
    RematchStarted,
)
from bot.service.rematches import score_text
from bot.views import ButtonCog, ButtonHandler, ButtonRef, button, view_of
from cogs.common import Interaction, match_here, parts_of, same_server, send_board, service_of
from games.base import AGREED_DRAW

log = logging.getLogger(__name__)

TRACKED = 5000
"""The most offer messages remembered (`Live.offers`)."""

Result = DrawOffered | DrawDeclined | Finished | RematchOffered | RematchStarted | RematchDeclined


def _mentions(user_ids: tuple[int, ...]) -> str:
    return ", ".join(f"<@{u}>" for u in user_ids)


class Live(ButtonCog):
    """/draw and its buttons; the Rematch button and its offer's buttons."""

    def __init__(self, bot: commands.Bot) -> None:
        super().__init__(bot)
        self.offers: dict[tuple[str, int], PostedMessage] = {}
        """The newest message with live buttons of each open offer: ("draw", match id), ("rematch", the
        finished match's id). Kept in memory: after a restart an old offer's buttons still answer, with what
        became of it."""
        self._edits: set[asyncio.Task[None]] = set()
        self.offer_plies: dict[int, int] = {}
        """The ply each match's shown draw offer was made at."""

    async def cog_load(self) -> None:
        await super().cog_load()
        service_of(self.bot).matches.add_match_listener(changed=self._changed)

    def buttons(self) -> dict[str, ButtonHandler]:
        return {
            "draw_yes": self.on_draw_accept,
            "draw_no": self.on_draw_decline,
            "rematch": self.on_rematch,
            "rm_yes": self.on_rematch_accept,
            "rm_no": self.on_rematch_decline,
        }

    # ------------------------------------------------------------------------------------------ draws

    @app_commands.command(name="draw", description="Offer a draw in the match here, or answer an offer")
    @app_commands.describe(action="offer a draw, or accept or decline the open offer")
    @app_commands.guild_only()
    async def draw(self, interaction: Interaction, action: Literal["offer", "accept", "decline"]) -> None:
        match = await match_here(interaction)
        draws = service_of(interaction).draws
        user = interaction.user.id
        result: Result
        if action == "offer":
            result = await draws.offer(match.id, user)
        elif action == "accept":
            result = await draws.accept(match.id, user)
        else:
            result = await draws.decline(match.id, user)
        await self.answer(interaction, result, new=True)

    async def on_draw_accept(self, interaction: Interaction, ref: ButtonRef) -> None:
        service = service_of(interaction)
        same_server(interaction, (await service.matches.get(ref.ref)).guild_id)
        result = await service.draws.accept(ref.ref, interaction.user.id, ply=ref.ply)
        await self.answer(interaction, result, new=False)

    async def on_draw_decline(self, interaction: Interaction, ref: ButtonRef) -> None:
        service = service_of(interaction)
        same_server(interaction, (await service.matches.get(ref.ref)).guild_id)
        if ref.ply != (await service.matches.get(ref.ref)).ply:
            raise NoDrawOffer()
        result = await service.draws.decline(ref.ref, interaction.user.id, ply=ref.ply)
        await self.answer(interaction, result, new=False)

    @staticmethod
    def draw_text(offer: DrawOffered, tr: Tr = ENGLISH) -> str:
        return tr(
            "{player} offers a draw in match #{match_id}. {waiting}: accept? The next move declines it.",
            player=f"<@{offer.by_user}>",
            match_id=offer.match.id,
            waiting=_mentions(offer.waiting_for),
        )

    @staticmethod
    def draw_view(offer: DrawOffered, tr: Tr = ENGLISH) -> discord.ui.View:
        """Buttons bound to this offer (its match and ply)."""
        match_id, ply = offer.match.id, offer.match.ply
        return view_of(
            button("draw_yes", match_id, ply, tr("Accept draw"), style=discord.ButtonStyle.success),
            button("draw_no", match_id, ply, tr("Decline")),
        )

    # -------------------------------------------------------------------------------------- rematches

    async def on_rematch(self, interaction: Interaction, ref: ButtonRef) -> None:
        service = service_of(interaction)
        same_server(interaction, (await service.matches.get(ref.ref)).guild_id)
        await self.answer(interaction, await service.rematches.offer(ref.ref, interaction.user.id), new=True)

    async def on_rematch_accept(self, interaction: Interaction, ref: ButtonRef) -> None:
        service = service_of(interaction)
        same_server(interaction, (await service.matches.get(ref.ref)).guild_id)
        result = await service.rematches.accept(ref.ref, interaction.user.id)
        await self.answer(interaction, result, new=False)

    async def on_rematch_decline(self, interaction: Interaction, ref: ButtonRef) -> None:
        service = service_of(interaction)
        same_server(interaction, (await service.matches.get(ref.ref)).guild_id)
        await self.answer(
            interaction, await service.rematches.decline(ref.ref, interaction.user.id), new=False
        )

    @staticmethod
    def rematch_text(offer: RematchOffered, tr: Tr = ENGLISH) -> str:
        return tr(
            "{player} offers a rematch of match #{match_id}, seats rotated. {waiting}: accept? The offer "
            "lapses {when}.",
            player=f"<@{offer.by_user}>",
            match_id=offer.match.id,
            waiting=_mentions(offer.waiting_for),
            when=f"<t:{int(offer.expires_at)}:R>",
        )

    @staticmethod
    def rematch_view(offer: RematchOffered, tr: Tr = ENGLISH) -> discord.ui.View:
        match_id, ply = offer.match.id, offer.match.ply
        return view_of(
            button("rm_yes", match_id, ply, tr("Accept rematch"), style=discord.ButtonStyle.success),
            button("rm_no", match_id, ply, tr("Decline")),
        )

    async def score_line(self, started: RematchStarted, tr: Tr) -> str:
        names = await parts_of(self.bot).names.names_for(started.match)
        shown = [names.get(u) or f"<@{u}>" for u in started.score.users]
        return tr(
            "Rematch of match #{match_id}. Score: {score}",
            match_id=started.previous.id,
            score=score_text(started.score, shown),
        )

    # ---------------------------------------------------------------------------------------- replies

    def closed_text(self, result: DrawDeclined | RematchDeclined, tr: Tr) -> str:
        player = f"<@{result.by_user}>"
        withdrawn = result.by_user == result.offered_by
        if isinstance(result, DrawDeclined):
            if withdrawn:
                return tr("{player} withdrew their draw offer.", player=player)
            return tr("{player} declined the draw offer.", player=player)
        if withdrawn:
            return tr("{player} withdrew their rematch offer.", player=player)
        return tr("{player} declined the rematch.", player=player)

    def offer_message(self, result: DrawOffered | RematchOffered, tr: Tr) -> tuple[str, discord.ui.View]:
        if isinstance(result, DrawOffered):
            return self.draw_text(result, tr), self.draw_view(result, tr)
        return self.rematch_text(result, tr), self.rematch_view(result, tr)

    @staticmethod
    def _key(result: Result) -> tuple[str, int]:
        """Which offer message a result is about: a match's draw offer, or a finished match's rematch."""
        if isinstance(result, RematchOffered | RematchDeclined):
            return "rematch", result.match.id
        if isinstance(result, RematchStarted):
            return "rematch", result.previous.id
        return "draw", result.match.id

    def _track(self, offer: DrawOffered | RematchOffered, posted: PostedMessage) -> None:
        """Remember the message showing `offer` (the oldest are forgotten past TRACKED: a rematch offer
        that lapses unanswered is never closed, its message says when it lapses)."""
        self.offers[self._key(offer)] = posted
        if isinstance(offer, DrawOffered):
            self.offer_plies[offer.match.id] = offer.match.ply
        while len(self.offers) > TRACKED:
            kind, match_id = next(iter(self.offers))
            del self.offers[(kind, match_id)]
            if kind == "draw":
                self.offer_plies.pop(match_id, None)

    async def _closed(self, key: tuple[str, int], text: str, *, keep: int | None = None) -> None:
        """The message showing offer `key` (unless it is `keep`, edited by its own button) says `text` and
        loses its buttons."""
        posted = self.offers.pop(key, None)
        if key[0] == "draw":
            self.offer_plies.pop(key[1], None)
        if posted is not None and posted.message_id != keep:
            await parts_of(self.bot).channels.edit_posted(
                posted, content=text, view=None, allowed_mentions=discord.AllowedMentions.none()
            )

    def settled_text(self, result: Result, tr: Tr) -> str:
        """What the message of an offer says once `result` settled it."""
        if isinstance(result, DrawDeclined | RematchDeclined):
            return self.closed_text(result, tr)
        if isinstance(result, RematchStarted):
            return tr("Rematch accepted: match #{match_id}.", match_id=result.match.id)
        return tr("Draw agreed.")

    async def _close_for(self, result: Result, tr: Tr, *, keep: int | None = None) -> None:
        """Close the message of the offer `result` settled (declined, a draw agreed, a rematch started)."""
        await self._closed(self._key(result), self.settled_text(result, tr), keep=keep)

    def _changed(self, match: MatchView) -> None:
        """A move, a takeback or the end lapses the open draw offer: its message says so (a draw agreed
        says that instead)."""
        posted = self.offers.get(("draw", match.id))
        if posted is None or self.bot.get_cog(type(self).__qualname__) is not self:
            return
        task = asyncio.get_running_loop().create_task(self._lapsed(match))
        self._edits.add(task)
        task.add_done_callback(self._edits.discard)

    async def _lapsed(self, match: MatchView, still: str | None = None) -> None:
        """Close the message of a draw offer no longer open: agreed, lapsed with the end or a move, or (at
        the same ply) `still` (declined or withdrawn elsewhere)."""
        posted = self.offers.get(("draw", match.id))
        if posted is None:
            return
        tr = await parts_of(self.bot).looks.public_tr(match.guild_id)
        if match.outcome is not None and match.outcome.termination is AGREED_DRAW:
            text = tr("Draw agreed.")
        elif not match.is_active:
            text = tr("The match is over, so the draw offer lapsed.")
        elif still is not None and self.offer_plies.get(match.id) == match.ply:
            text = still
        else:
            text = tr("The match moved on, so the draw offer lapsed.")
        await self._closed(("draw", match.id), text)

    async def answer(self, interaction: Interaction, result: Result, *, new: bool) -> None:
        """Answer a command or a button with `result`: an offer (a new message, or the offer's message
        edited), the offer closed, the final board of a draw, the first board of a rematch."""
        parts = parts_of(interaction)
        match = result.match
        public = await parts.looks.public_tr(interaction.guild_id, interaction.guild_locale)
        none = discord.AllowedMentions.none()
        own = None if new or interaction.message is None else interaction.message.id
        if isinstance(result, DrawOffered | RematchOffered):
            text, view = self.offer_message(result, public)
            if new:
                sent = await interaction.response.send_message(text, view=view)
                if sent.message_id is not None and interaction.channel_id is not None:
                    await self._closed(self._key(result), text)  # one message shows the offer: the newest
                    self._track(result, PostedMessage(interaction.channel_id, sent.message_id))
            else:
                await interaction.response.edit_message(content=text, view=view, allowed_mentions=none)
            return
        if isinstance(result, DrawDeclined | RematchDeclined):
            text = self.closed_text(result, public)
            if new:
                await interaction.response.send_message(text, allowed_mentions=none)
            else:
                await interaction.response.edit_message(content=text, view=None, allowed_mentions=none)
            await self._close_for(result, public, keep=own)
            return
        if new:
            await interaction.response.defer()
        else:
            text = self.settled_text(result, public)
            await interaction.response.edit_message(content=text, view=None, allowed_mentions=none)
        await self._close_for(result, public, keep=own)
        if isinstance(result, Finished):
            message = await parts.boards.board(match, finished=result, viewer=interaction.user.id)
        else:
            headline = await self.score_line(result, public)
            message = await parts.boards.board(result.match, headline=headline, viewer=interaction.user.id)
            match = result.match
        if new:
            await send_board(interaction, match, message)
        else:
            await parts.posts.post_board(match, message)

    async def _show(self, offer: DrawOffered | RematchOffered, tr: Tr) -> None:
        """Show an open offer: its message with live buttons updated, or a new one."""
        text, view = self.offer_message(offer, tr)
        posted = self.offers.get(self._key(offer))
        none = discord.AllowedMentions.none()
        if posted is not None and await parts_of(self.bot).channels.edit_posted(
            posted, content=text, view=view, allowed_mentions=none
        ):
            return
        sent = await parts_of(self.bot).channels.channel(offer.match.channel_id).send(text, view=view)
        self._track(offer, PostedMessage(sent.channel.id, sent.id))

    async def offer_changed(self, match: MatchView, kind: str) -> None:
        """An offer changed in another process (bot/web/relay.py hears it): the open one shown with its
        buttons, or its message closed with what became of it (who declined is not known here)."""
        service = parts_of(self.bot).service
        tr = await parts_of(self.bot).looks.public_tr(match.guild_id)
        try:
            if kind == "draw":
                offer = await service.draws.open_offer(match.id) if match.is_active else None
                if offer is not None:
                    await self._show(offer, tr)
                elif not match.is_active or ("draw", match.id) in self.offers:
                    await self._lapsed(match, tr("The draw offer was declined or withdrawn."))
                return
            record = await service.rematches.rematch_of(match.id)
            shown = await service.rematches.open_offer(match.id)
            if shown is not None:
                await self._show(shown, tr)
            elif record is not None and record.new_match_id is not None:
                text = tr("Rematch accepted: match #{match_id}.", match_id=record.new_match_id)
                await self._closed(("rematch", match.id), text)
            elif record is not None:
                await self._closed(("rematch", match.id), tr("The rematch offer was declined or withdrawn."))
        except discord.HTTPException:
            log.exception("could not show an offer of match %s in channel %s", match.id, match.channel_id)

    async def post_result(self, result: Result, user_id: int | None) -> None:
        """Post in the match's channel what the web board did (bot/web/relay.py): an offer with its
        buttons, an offer closed, a draw's final board, a rematch's first board."""
        parts = parts_of(self.bot)
        match = result.match
        tr = await parts.looks.public_tr(match.guild_id)
        channel = parts.channels.channel(match.channel_id)
        try:
            if isinstance(result, DrawOffered | RematchOffered):
                text, view = self.offer_message(result, tr)
                sent = await channel.send(text, view=view)
                await self._closed(self._key(result), text)
                self._track(result, PostedMessage(sent.channel.id, sent.id))
                return
            await self._close_for(result, tr)
            if isinstance(result, DrawDeclined | RematchDeclined):
                await channel.send(
                    self.closed_text(result, tr), allowed_mentions=discord.AllowedMentions.none()
                )
            elif isinstance(result, Finished):
                await parts.posts.post_board(
                    match, await parts.boards.board(match, finished=result, viewer=user_id)
                )
            else:
                headline = await self.score_line(result, tr)
                new: MatchView = result.match
                await parts.posts.post_board(new, await parts.boards.board(new, headline=headline, tr=tr))
        except discord.HTTPException:
            log.exception("could not post a draw or rematch update in channel %s", match.channel_id)


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(Live(bot))
