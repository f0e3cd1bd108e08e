"""What the web board changes, posted in Discord by the bot process that serves the match's guild.

Two ways in, one poster (`DiscordPoster`):
- a move or request made through the web board served by this process arrives as its result (`announce`,
  called by `WebBoard` after the request);
- one made through a web process of its own (`python -m bot web`, the Activity there) arrives by the
  store's NOTIFY (`MatchChange`, schema.py's `MATCH_CHANNEL`), which names the match, the plies before and
  after, and what happened. `Relay` hears every such change, keeps those that another process wrote
  (`MatchChange.own` is false: what this process wrote, a command or the web board here posted already) in
  a guild whose shard this process runs, and posts them one after the other in the order they were
  committed: exactly once each, with the board a /move posts.

A change that gives the bot its turn owes its board before the bot's (`BoardOrder`): the relay marks it owed
as soon as it hears it, so the bot's answer, which the same NOTIFY wakes, waits for it.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from dataclasses import replace
from typing import Any

import discord

import games
from bot.i18n import Tr
from bot.parts import Parts
from bot.service import Service
from bot.service.errors import ServiceError
from bot.service.records import (
    AbortRequested,
    Challenge,
    ChallengeStatus,
    Finished,
    MatchView,
    MoveView,
    Played,
    TakebackRequested,
    TakenBack,
)
from bot.service.store.base import MatchChange
from bot.service.tournaments.live import Berserked
from bot.web.actions import DRAWS_AND_REMATCHES, RequestClosed
from bot.web.live import NoGuild
from games.base import Termination

log = logging.getLogger("tessera.web")


class StaleChange(Exception):
    """The change heard is no longer in the match (taken back since): nothing to post."""


class DiscordPoster:
    """Posts what happened in a match as the Discord flows do: boards, the final board, takeback and abort
    requests with their buttons (the cogs' own texts and buttons)."""

    def __init__(self, bot: Any) -> None:
        self.bot = bot

    @property
    def parts(self) -> Parts:
        parts: Parts = self.bot.parts  # wired by the client's setup_hook
        return parts

    async def post(self, result: object, user_id: int | None) -> None:
        """Post `result` (what a service call returned) as the Discord flow that made it would."""
        parts = self.parts
        if isinstance(result, Played):
            message = await parts.boards.played_board(result, viewer=user_id)
            await parts.posts.post_board(result.match, message)
        elif isinstance(result, Finished):
            message = await parts.boards.board(result.match, finished=result, viewer=user_id)
            await parts.posts.post_board(result.match, message)
        elif isinstance(result, TakenBack):
            await self.taken_back(result.match, [m.notation for m in result.undone], user_id)
        elif isinstance(result, TakebackRequested | AbortRequested):
            await self.request(result)
        elif isinstance(result, RequestClosed):
            await self.request_closed(result.match, result.kind, user_id, result.how)
        elif isinstance(result, MatchView):  # a match started in the Activity
            await self.started(result)
        elif isinstance(result, Berserked):  # cogs/tournaments.py words and posts it
            await self.bot.get_cog("Tournaments").post_berserked(result)
        elif isinstance(result, DRAWS_AND_REMATCHES):  # cogs/live.py words and posts them
            await self.bot.get_cog("Live").post_result(result, user_id)
        elif isinstance(result, Challenge) and result.status is ChallengeStatus.WITHDRAWN:
            await self.withdrawn(result)

    async def offer_changed(self, match: MatchView, kind: str) -> None:
        """A draw offer ("draw") or a rematch offer ("rematch") changed elsewhere: shown, updated or closed
        as the Discord flow's buttons leave it (cogs/live.py)."""
        await self.bot.get_cog("Live").offer_changed(match, kind)

    async def withdrawn(self, challenge: Challenge) -> None:
        """A challenge withdrawn in the Activity: its message in the channel (if it has one) says so and
        loses its buttons, as its Withdraw button does."""
        parts = self.parts
        posted = await parts.service.messages.challenge_message(challenge.id)
        if posted is None:
            return
        tr = await parts.looks.public_tr(challenge.guild_id)
        text = tr(
            "{challenger} withdrew the {game} challenge.",
            challenger=f"<@{challenge.challenger_id}>",
            game=games.name(challenge.game),
        )
        await parts.channels.edit_posted(
            posted, content=text, view=None, allowed_mentions=discord.AllowedMentions.none()
        )

    async def started(self, match: MatchView) -> None:
        """The first board of a match started elsewhere (the Activity), as /play's accept posts it; a
        challenge accepted there has its message say so and lose its buttons, as its Accept button does."""
        parts = self.parts
        tr = await parts.looks.public_tr(match.guild_id)
        challenge = await parts.service.challenges.of_match(match.id)
        posted = await parts.service.messages.challenge_message(challenge.id) if challenge else None
        if challenge is not None and posted is not None:
            text = self.bot.get_cog("Play").accepted_text(challenge, match, tr)
            await parts.channels.edit_posted(
                posted, content=text, view=None, allowed_mentions=discord.AllowedMentions.none()
            )
        message = await parts.boards.board(match, headline=tr("The match begins."), tr=tr)
        await parts.posts.post_board(match, message)

    async def taken_back(self, match: MatchView, undone: list[str], user_id: int | None) -> None:
        parts = self.parts
        tr = await parts.looks.public_tr(match.guild_id)
        await parts.posts.close_requests(match.id, "takeback", content=tr("Takeback accepted."))
        headline = tr("Taken back: {moves}.", moves=", ".join(undone)) if undone else ""
        message = await parts.boards.board(match, headline=headline, viewer=user_id, tr=tr)
        await parts.posts.post_board(match, message)

    async def request_closed(
        self, match: MatchView, kind: str, user_id: int | None, how: str | None = None
    ) -> None:
        """A takeback or an abort vote closed elsewhere, `how` ("declined" by `user_id`, "withdrawn" by its
        asker `user_id`; None: not known here, then a takeback is taken as declined, by `user_id` if known,
        and an abort vote as withdrawn by its starter, `user_id`): every message showing that request says
        so and loses its buttons, as the request's own Decline or Withdraw button leaves it."""
        parts = self.parts
        tr = await parts.looks.public_tr(match.guild_id)
        player = f"<@{user_id}>"
        if how is None:
            how = "declined" if kind == "takeback" else "withdrawn"
        if kind == "takeback" and user_id is None:
            text = tr("The takeback request was declined.")
        elif kind == "takeback":
            if how == "withdrawn":
                text = tr("{player} withdrew their takeback request.", player=player)
            else:
                text = tr("{player} declined the takeback.", player=player)
        elif how == "declined":
            text = tr("{player} declined to abort the match.", player=player)
        else:
            text = tr("{player} withdrew their abort request.", player=player)
        await parts.posts.close_requests(match.id, kind, content=text)

    def _shown(self, result: TakebackRequested | AbortRequested, tr: Tr) -> tuple[str, str, discord.ui.View]:
        """A request's kind, and its text and buttons as the Discord flow words them (the cogs' `Moves`
        and `Ending`)."""
        if isinstance(result, TakebackRequested):
            cog = self.bot.get_cog("Moves")
            return "takeback", cog.takeback_text(result, tr), cog.takeback_view(result, tr)
        cog = self.bot.get_cog("Ending")
        return "abort", cog.abort_text(result, tr), cog.abort_view(result, tr)

    async def request(self, result: TakebackRequested | AbortRequested) -> None:
        """A takeback or abort request with the buttons the Discord flow gives it (the cogs' `Moves` and
        `Ending`); the newest request message is the one with live buttons."""
        parts = self.parts
        match = result.match
        tr = await parts.looks.public_tr(match.guild_id)
        kind, text, view = self._shown(result, tr)
        try:
            sent = await parts.channels.channel(match.channel_id).send(text, view=view)
        except discord.HTTPException:
            log.exception("could not post a %s request in channel %s", kind, match.channel_id)
            return
        await parts.posts.close_requests(match.id, kind, keep=sent.id)
        await parts.posts.request_posted(result, sent.channel.id, sent.id)

    async def request_updated(self, result: TakebackRequested | AbortRequested) -> None:
        """A takeback accepted, or an abort agreed to, by some of the players elsewhere: every message that
        shows the request says who is still to answer, with its buttons, as its own Accept button leaves
        it."""
        parts = self.parts
        match = result.match
        tr = await parts.looks.public_tr(match.guild_id)
        kind, text, view = self._shown(result, tr)
        for request in await parts.posts.open_requests(match.id):
            if request.kind != kind or request.ply != match.ply:
                continue
            await parts.channels.edit_posted(
                request.posted, content=text, view=view, allowed_mentions=discord.AllowedMentions.none()
            )
            await parts.posts.request_posted(result, request.posted.channel_id, request.posted.message_id)


class Relay:
    """Hears the matches other processes change (PostgreSQL) and posts them in Discord (module doc)."""

    def __init__(self, service: Service, poster: DiscordPoster) -> None:
        self.service = service
        self.poster = poster
        self._queue: asyncio.Queue[MatchChange] = asyncio.Queue()
        self._tasks: list[asyncio.Task[None]] = []

    def start(self) -> None:
        """Listen and post in the background (nothing to hear on SQLite: one process is all there is)."""
        if self.service.store.shared and not self._tasks:
            loop = asyncio.get_running_loop()
            self._tasks = [
                loop.create_task(self._listen(), name="tessera-web-relay-listen"),
                loop.create_task(self._consume(), name="tessera-web-relay"),
            ]

    async def close(self) -> None:
        for task in self._tasks:
            task.cancel()
        for task in self._tasks:
            with contextlib.suppress(asyncio.CancelledError):
                await task
        self._tasks = []

    async def _listen(self) -> None:
        try:
            await self.service.store.listen(lambda: None, shards=NoGuild(), matches=self.heard)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("the web relay cannot listen for other processes' changes")

    def owns(self, change: MatchChange) -> bool:
        """Whether this process posts `change`: another process wrote it, in a guild of this process's
        shards."""
        return not change.own and self._serves(change)

    def _serves(self, change: MatchChange) -> bool:
        """Whether `change` is in a guild of this process's shards."""
        shards = self.service.shards
        return shards is None or shards.owns(change.guild_id)

    def heard(self, change: MatchChange) -> None:
        """A NOTIFY (sync, in commit order): queue what this process posts, and hold the bot's answer to a
        move or a start until its board is out."""
        if not self.owns(change):
            return
        if change.kind in ("move", "start", "back"):
            with contextlib.suppress(AttributeError):  # before the client wired its parts
                self.poster.parts.order.owed.setdefault(change.match_id, set()).add(change.after)
        self._queue.put_nowait(change)

    async def _consume(self) -> None:
        while True:
            change = await self._queue.get()
            try:
                await self.relay(change)
            except (ServiceError, StaleChange):
                log.info("match %s of a web change is gone, damaged or taken back", change.match_id)
            except Exception:
                log.exception("could not post the web change %s in Discord", change)
            finally:
                with contextlib.suppress(AttributeError):
                    self.poster.parts.order.out(change.match_id, change.after)

    async def relay(self, change: MatchChange) -> None:
        """Post one change heard from another process."""
        matches = self.service.matches
        match = await matches.get(change.match_id)
        if change.kind == "start":
            await self.poster.started(match)
        elif change.kind in ("move", "end"):
            moves, match = await self._moves(match, change.before, change.after)
            finished = await self._finished(match, moves) if change.kind == "end" else None
            played_moves = [m for m in moves if m.number is not None]
            if played_moves and len(played_moves) == len(moves):
                played = Played(match, played_moves[0], tuple(played_moves[1:]), finished)
                await self.poster.post(played, played_moves[0].user_id)
            elif finished is not None:
                await self.poster.post(finished, finished.by_user)
        elif change.kind == "back":
            taken = await self.service.store.last_takeback(match.id)
            same = taken is not None and (taken.from_ply, taken.to_ply) == (change.before, change.after)
            await self.poster.taken_back(match, list(taken.moves) if taken is not None and same else [], None)
        elif change.kind in ("takeback", "abort"):
            request = await self._open(match, change.kind)
            if request is not None:
                await self.poster.request(request)
        elif change.kind == "other":
            await self._answered(match)
        elif change.kind in ("draw", "rematch"):
            await self.poster.offer_changed(match, change.kind)
        if change.kind in ("move", "back", "end"):
            await self.poster.offer_changed(match, "draw")  # a draw offer lapses with them

    async def _open(self, match: MatchView, kind: str) -> TakebackRequested | AbortRequested | None:
        """The match's open request of `kind`, None if there is none."""
        agreements = self.service.agreements
        if kind == "takeback":
            return await agreements.open_takeback(match.id)
        return await agreements.open_abort(match.id)

    async def _answered(self, match: MatchView) -> None:
        """A change that neither moved nor asked, to the requests whose messages this process posted (the
        database keeps them, and who was still to answer, across restarts): one no longer open at its ply,
        the match still at that ply, was declined (a takeback) or withdrawn (an abort vote, by its starter)
        elsewhere, and its messages say so; one still open that some accepted says who is left, as its own
        Accept button does (one nobody is left to answer is about to be carried out, and a match that moved
        on or was taken back since closes it with that change's board). The decliner of a takeback is named
        when only one player was left to answer it."""
        shown = {r.kind: r for r in await self.poster.parts.posts.open_requests(match.id)}
        for kind, still_open in (("takeback", match.takeback), ("abort", match.abort_votes)):
            request = shown.get(kind)
            if request is None:
                continue
            if match.ply != request.ply:
                continue  # moved on or taken back since: that change's board closes it
            if still_open:
                current = await self._open(match, kind)
                if (
                    current is not None
                    and current.waiting_for
                    and tuple(current.waiting_for) != request.waiting
                ):
                    await self.poster.request_updated(current)
                continue
            if kind == "takeback":
                by = request.waiting[0] if len(request.waiting) == 1 else None
            else:
                by = request.by_user
            await self.poster.request_closed(match, kind, by)

    async def _moves(self, match: MatchView, before: int, after: int) -> tuple[list[MoveView], MatchView]:
        """The moves the change added (plies `before` to `after`), described as the service describes
        them, and the match as that change left it: the bot may have answered meanwhile (its board waits
        for this one), and this board shows the position before its answer."""
        matches = self.service.matches
        stored = await matches.log(match)
        if len(stored) < after:
            raise StaleChange(match.id)  # taken back since: that board would show a position gone
        rules = matches.rules(match.game)
        steps = await matches.replay_or_set_aside(match, rules, stored[:after])
        moves = [matches.move_view(match, rules, steps[i], stored[i]) for i in range(before, after)]
        if match.ply != after and match.is_active:
            state = (
                steps[after - 1].after if after else rules.new(len(match.seats), match.options, match.seed)
            )
            match = replace(
                match, ply=after, state=state, to_move=rules.to_move(state), takeback=None, abort_votes=()
            )
        return moves, match

    async def _finished(self, match: MatchView, moves: list[MoveView]) -> Finished | None:
        """The end as the flow that made it reported it: the result, the rating changes, and who resigned
        (the resignation's log entry, or the loser of a two-player resignation without one)."""
        outcome = match.outcome
        if outcome is None:
            return None
        winners = tuple(match.seats[s].user_id for s in outcome.winners)
        by_user = next((m.user_id for m in moves if m.number is None), None)
        if by_user is None and outcome.termination is Termination.RESIGNATION and len(match.seats) == 2:
            by_user = next((p.user_id for p in match.seats if p.seat not in outcome.winners), None)
        changes = tuple(await self.service.ratings.changes(match.id))
        return Finished(match, outcome, winners, by_user, changes)
