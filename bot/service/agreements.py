"""Agreements between the players of a match: aborting by common consent, and taking moves back.

Takebacks need the consent of every other person in the match; against the bot alone a casual match
takes back at once and a rated one never (its moves stand).

Votes and takeback requests live with the match row and merge atomically in the store
(`MatchStore.update_requests`, under the row's lock), so simultaneous votes from several processes all count;
they are valid only at the ply they were made at, so any move closes them. One takeback request and one
abort vote per match may be open at a time, and a button answers only the request it was posted with (the
asker's seat; an abort vote's first seat started it). Until it is answered or made stale, its asker may
withdraw it, and any other player may decline it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from bot.service.errors import (
    NoAbortVote,
    NoTakebackRequest,
    NothingToTakeBack,
    NotYourRequest,
    OwnRequest,
    StaleMove,
    TakebackPending,
    TakebacksCasualOnly,
)
from bot.service.matches import MatchService, aborted_outcome, snapshot_text
from bot.service.records import (
    AbortRequested,
    Finished,
    MatchRecord,
    MatchView,
    MoveRecord,
    Requests,
    TakebackRequest,
    TakebackRequested,
    TakenBack,
)
from games.base import RESIGN, Seat


def takeback_target(moves: Sequence[MoveRecord], seat: Seat) -> int | None:
    """The ply a takeback by `seat` rewinds to: its last chosen move (one decision at a time; a balancer's
    swaps are taken back one by one), with the forced moves and other seats' moves after it."""
    return next(
        (m.ply for m in reversed(moves) if m.seat == seat and not m.forced and m.notation != RESIGN), None
    )


class Agreements:
    """Abort votes and takebacks of the matches that `matches` plays (same locks, same stale checks)."""

    def __init__(self, matches: MatchService) -> None:
        self.matches = matches
        self.store = matches.store

    async def request_abort(
        self, match_id: int, user_id: int, *, admin: bool = False, seat: Seat | None = None
    ) -> Finished | AbortRequested:
        """End the match with no result: at once for a server admin (the caller says so) or, before every seat
        has moved once, for any of its players (as on lichess); otherwise once every seated player has asked
        (the bot's seats agree by themselves). `seat` (from a button) must be the seat that started the open
        vote, so a button never answers another vote than the one it was posted with."""
        async with self.matches.lock(match_id):
            row = await self.matches.active_row(match_id)
            aborted = aborted_outcome(len(row.seats))
            if admin:
                return await self.matches.end_without_move(row, aborted, by_user=user_id)
            self.matches.player_in(row, user_id)
            if not await self.matches.has_everyone_moved(row):
                return await self.matches.end_without_move(row, aborted, by_user=user_id)
            if seat is not None and row.abort_votes[:1] != (seat,):
                raise NoAbortVote()
            mine = [p.seat for p in row.seats if p.user_id == user_id]
            bots = [p.seat for p in row.seats if p.is_ai]
            requests = await self.store.update_requests(
                row.id,
                row.ply,
                lambda now: replace(now, abort_votes=(*now.abort_votes, *mine, *bots)),
            )
            if requests is None:
                raise StaleMove()
            changed = replace(row, abort_votes=requests.abort_votes)
            shown = self._abort_vote(changed)
            if shown is None:
                return await self.matches.end_without_move(row, aborted, by_user=user_id)
            return shown

    def _abort_vote(self, row: MatchRecord) -> AbortRequested | None:
        """The open abort vote of `row` (started by its first voting seat) with the players still to agree;
        None when nobody voted, or everyone has (the match is to be aborted)."""
        if not row.abort_votes:
            return None
        votes = set(row.abort_votes)
        waiting = tuple(dict.fromkeys(p.user_id for p in row.seats if p.seat not in votes))
        if not waiting:
            return None
        return AbortRequested(self.matches.view_of(row), row.seats[row.abort_votes[0]].user_id, waiting)

    async def open_abort(self, match_id: int) -> AbortRequested | None:
        """The match's open abort vote with the players still to agree, None if there is none (a player who
        asks again is shown it, so it can be agreed to or withdrawn)."""
        return self._abort_vote(await self.matches.active_row(match_id))

    async def withdraw_abort(self, match_id: int, user_id: int, *, seat: Seat | None = None) -> MatchView:
        """The player who started the open abort vote (its first seat; `seat`, if given, from a button)
        withdraws it, with every agreement so far; nobody else may (NotYourRequest)."""
        async with self.matches.lock(match_id):
            row = await self.matches.active_row(match_id)
            votes = row.abort_votes
            if not votes or seat not in (None, votes[0]):
                raise NoAbortVote()
            starter = row.seats[votes[0]].user_id
            if user_id != starter:
                self.matches.player_in(row, user_id)
                raise NotYourRequest(user_id=starter)
            requests = await self.store.update_requests(
                row.id,
                row.ply,
                lambda now: replace(now, abort_votes=()) if now.abort_votes[:1] == votes[:1] else now,
            )
            if requests is None or requests.abort_votes:
                raise StaleMove()
            return self.matches.view_of(
                replace(row, abort_votes=requests.abort_votes, takeback=requests.takeback)
            )

    async def decline_abort(self, match_id: int, user_id: int, *, seat: Seat | None = None) -> MatchView:
        """A player of the match other than the one who started the open abort vote (its first seat; `seat`,
        if given, from a button) refuses it: the vote is closed with every agreement so far. Its starter
        withdraws it instead (OwnRequest)."""
        async with self.matches.lock(match_id):
            row = await self.matches.active_row(match_id)
            votes = row.abort_votes
            if not votes or seat not in (None, votes[0]):
                raise NoAbortVote()
            self.matches.player_in(row, user_id)
            if row.seats[votes[0]].user_id == user_id:
                raise OwnRequest()
            requests = await self.store.update_requests(
                row.id,
                row.ply,
                lambda now: replace(now, abort_votes=()) if now.abort_votes[:1] == votes[:1] else now,
            )
            if requests is None or requests.abort_votes:
                raise StaleMove()
            return self.matches.view_of(
                replace(row, abort_votes=requests.abort_votes, takeback=requests.takeback)
            )

    async def request_takeback(self, match_id: int, user_id: int) -> TakebackRequested | TakenBack:
        """Ask to undo your last move and what followed it. Every other player must accept; the bot's seats
        have no say. So against the bot alone it happens at once, in a casual match only: a rated one
        refuses it (TakebacksCasualOnly), as its moves would be tried on the bot and undone (lichess: a
        takeback in a rated game needs the human opponent's consent). One request per match may be open at
        a time. Discord and the web board both ask here."""
        async with self.matches.lock(match_id):
            row = await self.matches.active_row(match_id)
            player = self.matches.player_in(row, user_id)
            if row.rated and all(p.is_ai for p in row.seats if p.user_id != user_id):
                raise TakebacksCasualOnly(match_id=match_id)
            moves = await self.store.moves(match_id)
            if takeback_target(moves, player.seat) is None:
                raise NothingToTakeBack()
            if self._is_open(row.takeback, row.ply):
                raise TakebackPending(match_id=match_id)
            others = [p for p in row.seats if p.user_id != user_id and not p.is_ai]
            if not others:
                return await self._rewind(row, player.seat, user_id, moves)
            request = TakebackRequest(player.seat, user_id, row.ply)
            requests = await self.store.update_requests(
                row.id,
                row.ply,
                lambda now: now if self._is_open(now.takeback, row.ply) else replace(now, takeback=request),
            )
            if requests is None:
                raise StaleMove()
            if requests.takeback != request:
                raise TakebackPending(match_id=match_id)
            waiting = tuple(dict.fromkeys(p.user_id for p in others))
            return TakebackRequested(self.matches.view_of(replace(row, takeback=request)), user_id, waiting)

    @staticmethod
    def _is_open(takeback: TakebackRequest | None, ply: int, seat: Seat | None = None) -> bool:
        """Whether `takeback` is a request open at `ply` (asked from `seat`, if given)."""
        return takeback is not None and takeback.ply == ply and seat in (None, takeback.seat)

    async def _open_request(
        self, match_id: int, user_id: int, seat: Seat | None
    ) -> tuple[MatchRecord, TakebackRequest]:
        """The match and its open takeback request, answered by `user_id`; `seat` (from a button) must be the
        asker's seat, so a button never answers another request than the one it was posted with."""
        row = await self.matches.active_row(match_id)
        request = row.takeback
        if request is None or not self._is_open(request, row.ply, seat):
            raise NoTakebackRequest()
        if user_id == request.user_id:
            raise OwnRequest()
        self.matches.player_in(row, user_id)
        return row, request

    async def accept_takeback(
        self, match_id: int, user_id: int, *, seat: Seat | None = None
    ) -> TakenBack | TakebackRequested:
        """Agree to the open takeback (the one asked from `seat`, if given); it happens once every other
        player has agreed, until then the request with the players still to answer comes back."""
        async with self.matches.lock(match_id):
            row, request = await self._open_request(match_id, user_id, seat)
            mine = {p.seat for p in row.seats if p.user_id == user_id}

            def accept(now: Requests) -> Requests:
                if now.takeback is None or not self._is_open(now.takeback, row.ply, request.seat):
                    return now
                accepted = tuple(sorted({*now.takeback.accepted, *mine}))
                return replace(now, takeback=replace(now.takeback, accepted=accepted))

            requests = await self.store.update_requests(row.id, row.ply, accept)
            updated = requests.takeback if requests is not None else None
            if updated is None or not self._is_open(updated, row.ply, request.seat):
                raise StaleMove()
            accepted = set(updated.accepted)
            others = {p.seat for p in row.seats if p.user_id != request.user_id and not p.is_ai}
            if others <= accepted:
                moves = await self.store.moves(match_id)
                return await self._rewind(row, request.seat, request.user_id, moves)
            waiting = tuple(dict.fromkeys(row.seats[s].user_id for s in sorted(others - accepted)))
            return TakebackRequested(
                self.matches.view_of(replace(row, takeback=updated)), request.user_id, waiting
            )

    async def open_takeback(self, match_id: int) -> TakebackRequested | None:
        """The match's open takeback request with the players still to answer it, None if there is none (a
        player who asks again is shown it, so it can be answered or withdrawn)."""
        row = await self.matches.active_row(match_id)
        request = row.takeback
        if request is None or not self._is_open(request, row.ply):
            return None
        waiting = tuple(
            dict.fromkeys(
                p.user_id
                for p in row.seats
                if p.user_id != request.user_id and not p.is_ai and p.seat not in request.accepted
            )
        )
        return TakebackRequested(self.matches.view_of(row), request.user_id, waiting)

    async def withdraw_takeback(self, match_id: int, user_id: int, *, seat: Seat | None = None) -> MatchView:
        """The asker takes back their open takeback request (the one asked from `seat`, if given); nobody
        else may (NotYourRequest)."""
        async with self.matches.lock(match_id):
            row = await self.matches.active_row(match_id)
            request = row.takeback
            if request is None or not self._is_open(request, row.ply, seat):
                raise NoTakebackRequest()
            if user_id != request.user_id:
                self.matches.player_in(row, user_id)
                raise NotYourRequest(user_id=request.user_id)
            requests = await self.store.update_requests(
                row.id,
                row.ply,
                lambda now: replace(now, takeback=None) if now.takeback == request else now,
            )
            if requests is None or requests.takeback == request:
                raise StaleMove()
            return self.matches.view_of(
                replace(row, abort_votes=requests.abort_votes, takeback=requests.takeback)
            )

    async def decline_takeback(self, match_id: int, user_id: int, *, seat: Seat | None = None) -> MatchView:
        """Refuse the open takeback (the one asked from `seat`, if given); the request is closed."""
        async with self.matches.lock(match_id):
            row, request = await self._open_request(match_id, user_id, seat)
            requests = await self.store.update_requests(
                row.id,
                row.ply,
                lambda now: replace(now, takeback=None) if now.takeback == request else now,
            )
            if requests is None:
                raise StaleMove()
            return self.matches.view_of(
                replace(row, abort_votes=requests.abort_votes, takeback=requests.takeback)
            )

    async def _rewind(
        self, row: MatchRecord, seat: Seat, user_id: int, moves: Sequence[MoveRecord]
    ) -> TakenBack:
        target = takeback_target(moves, seat)
        if target is None:
            raise NothingToTakeBack()
        rules = self.matches.rules(row.game)
        steps = await self.matches.replay_or_set_aside(row, rules, moves)
        kept = steps[target].before
        undone = tuple(self.matches.move_view(row, rules, step, moves[step.ply]) for step in steps[target:])
        now = self.matches.now()
        deadline = self.matches.deadline_for(row, rules, kept, now, moves[:target])
        snapshot = snapshot_text(rules, kept)
        if not await self.store.rewind_match(row.id, row.ply, target, snapshot, deadline, now):
            raise StaleMove()
        self.matches.states.put(row.id, snapshot, kept)
        self.matches.deadlines_changed()
        changed = self.matches.view_of(row.moved_to(target, snapshot, deadline, now), kept)
        self.matches.changed(changed)
        return TakenBack(changed, user_id, undone)
