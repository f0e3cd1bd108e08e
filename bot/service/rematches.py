"""Rematches: the players of a finished match play it again (issue 43, item 5).

The rules:

- A rematch is offered after a match is over (finished or aborted), by one of its people; it is the same
  game with the same options, rated or not as it was, the same time per turn, in the same channel, with the
  seats rotated (seat 1 takes seat 0, seat 0 the last seat; two players swap).
- Every person of the match must agree: the offer stands for REMATCH_TTL seconds, then lapses (a lapsed or
  declined offer may be made again). Against the bot alone it starts at once: the bot always agrees.
- No rematch of a tournament's game: the tournament pairs the next one.
- One rematch per match: once it started, the match's rematch is that one (RematchTaken); an offer made
  while another player's is open agrees to it.
- The chain of rematches (each match and the rematch after it) keeps a running score: a win is 1 point, a
  draw or a shared first place splits the point between those sharing it; an aborted match counts nothing.

Offers live in the store's `rematches` row of the finished match, changed under that match's row lock
(`MatchStore.update_rematch`), so answers from several processes merge and only one of them starts it.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import replace

from bot.service.errors import (
    NoRematchOffer,
    NotSeated,
    OwnRequest,
    RematchInTournament,
    RematchNotOver,
    RematchPending,
    RematchTaken,
)
from bot.service.matches import MatchService
from bot.service.records import (
    MatchStatus,
    MatchView,
    RematchDeclined,
    RematchOffered,
    RematchRecord,
    RematchScore,
    RematchStarted,
    RematchStatus,
)

REMATCH_TTL = 600.0
"""Seconds a rematch offer stands."""
CHAIN_LIMIT = 1000
"""The longest chain of rematches the running score walks back."""


def rotated(match: MatchView) -> list[tuple[int, str | None]]:
    """The seats of `match`'s rematch: each player one seat earlier, seat 0's player in the last seat."""
    players = [(p.user_id, p.ai_level) for p in match.seats]
    return players[1:] + players[:1]


def score_of(matches: Sequence[MatchView]) -> RematchScore:
    """The running score of a chain of matches (oldest first) between the same players."""
    users = tuple(dict.fromkeys(p.user_id for p in matches[0].seats)) if matches else ()
    points = dict.fromkeys(users, 0.0)
    games = 0
    for match in matches:
        outcome = match.outcome
        if match.status is not MatchStatus.FINISHED or outcome is None:
            continue
        firsts = outcome.winners or tuple(s for s, rank in enumerate(outcome.ranks) if rank == 0)
        if not firsts:
            continue
        games += 1
        for seat in firsts:
            user = match.seats[seat].user_id
            points[user] = points.get(user, 0.0) + 1 / len(firsts)
    return RematchScore(users, tuple(points[u] for u in users), games)


def points_text(points: float) -> str:
    """Points as players write them: 2, ½, 1½ (a third shows as a decimal: 0.33)."""
    whole, part = divmod(points, 1)
    if abs(part) < 1e-9:
        return str(int(whole))
    if abs(part - 0.5) < 1e-9:
        return f"{int(whole)}½" if whole else "½"
    return f"{points:.2f}"


def score_text(score: RematchScore, names: Sequence[str]) -> str:
    """The running score in a line: "Alice 2 - 1 Bob" for two, "Alice 2 · Bob 1 · Carol 0" for more
    (`names` in the order of `score.users`)."""
    shown = [points_text(p) for p in score.points]
    if len(names) == 2:
        return f"{names[0]} {shown[0]} - {shown[1]} {names[1]}"
    return " · ".join(f"{name} {points}" for name, points in zip(names, shown, strict=True))


class Rematches:
    """Rematch offers and the chains of rematches of the matches `matches` plays."""

    def __init__(self, matches: MatchService, *, now: Callable[[], float], rng: random.Random) -> None:
        self.matches = matches
        self.store = matches.store
        self.now = now
        self.rng = rng
        self.listeners: list[Callable[[int], None]] = []
        """Told the id of a finished match whose rematch offer changed (the web board's stream)."""

    def _tell(self, match_id: int) -> None:
        for listener in self.listeners:
            listener(match_id)

    async def _over(self, match_id: int, user_id: int) -> MatchView:
        match = await self.matches.get(match_id)
        if match.is_active:
            raise RematchNotOver(match_id=match_id)
        seat = match.seat_of(user_id)
        if seat is None or match.seats[seat].is_ai:
            raise NotSeated(match_id=match_id)
        if await self.store.tournament_of_match(match_id) is not None:
            raise RematchInTournament(match_id=match_id)
        return match

    async def offers_rematch(self, match: MatchView) -> bool:
        """Whether a Rematch button belongs under the match: finished, with a person in it, not a
        tournament's game."""
        return (
            match.status is MatchStatus.FINISHED
            and bool(match.human_user_ids)
            and await self.store.tournament_of_match(match.id) is None
        )

    async def offer(
        self, match_id: int, user_id: int, *, answer: bool = False
    ) -> RematchOffered | RematchStarted:
        """Offer a rematch of the finished match (see the module doc), or agree to the open offer of another
        player; `answer`: only agree (NoRematchOffer when none is open). Starts once every person agreed."""
        match = await self._over(match_id, user_id)
        people = set(match.human_user_ids)
        now = self.now()
        seen: list[RematchRecord | None] = []

        def change(current: RematchRecord | None) -> RematchRecord | None:
            seen.append(current)
            if current is not None and current.status in (RematchStatus.STARTING, RematchStatus.STARTED):
                return current
            if current is not None and current.is_open(now):
                if user_id in current.accepted:
                    return current
                accepted = (*current.accepted, user_id)
                status = RematchStatus.STARTING if people <= set(accepted) else RematchStatus.OPEN
                return replace(current, accepted=accepted, status=status)
            if answer:
                return current
            status = RematchStatus.STARTING if people <= {user_id} else RematchStatus.OPEN
            return RematchRecord(match_id, user_id, (user_id,), status, now, now + REMATCH_TTL)

        record = await self.store.update_rematch(match_id, change)
        before = seen[-1] if seen else None
        if record is None or (answer and (before is None or not before.is_open(now))):
            raise NoRematchOffer(match_id=match_id)
        if before is not None and before.status is RematchStatus.STARTING:
            raise RematchPending(match_id=match_id)  # another process is starting it this moment
        if before is not None and before.status is RematchStatus.STARTED:
            raise RematchTaken(match_id=match_id, new_match_id=before.new_match_id)
        if record == before:  # this player has agreed already
            raise OwnRequest() if answer else RematchPending(match_id=match_id)
        if record.status is RematchStatus.STARTING:
            return await self._start(match, record)
        self._tell(match_id)
        waiting = tuple(u for u in match.human_user_ids if u not in record.accepted)
        return RematchOffered(match, record.by_user, waiting, record.expires_at)

    async def accept(self, match_id: int, user_id: int) -> RematchOffered | RematchStarted:
        """Agree to the open rematch offer of another player."""
        return await self.offer(match_id, user_id, answer=True)

    async def _start(self, match: MatchView, record: RematchRecord) -> RematchStarted:
        try:
            started = await self.matches.start(
                match.game,
                dict(match.options),
                rotated(match),
                seed=self.rng.randrange(2**31),
                rated=match.rated,
                turn_timeout=match.turn_timeout,
                guild_id=match.guild_id,
                channel_id=match.channel_id,
                side=match.side,
                time_control=match.time_control,
            )
        except BaseException:
            await self.store.update_rematch(
                match.id,
                lambda now: (
                    replace(now, status=RematchStatus.OPEN, accepted=(record.by_user,))
                    if now is not None and now.status is RematchStatus.STARTING
                    else now
                ),
            )
            raise
        await self.store.update_rematch(
            match.id, lambda now: replace(record, status=RematchStatus.STARTED, new_match_id=started.id)
        )
        self._tell(match.id)
        return RematchStarted(match, started, await self.score(started.id))

    async def decline(self, match_id: int, user_id: int) -> RematchDeclined:
        """Refuse the open rematch offer, or (its offerer) withdraw it."""
        match = await self._over(match_id, user_id)
        now = self.now()
        seen: list[RematchRecord | None] = []

        def change(current: RematchRecord | None) -> RematchRecord | None:
            seen.append(current)
            if current is None or not current.is_open(now):
                return current
            return replace(current, status=RematchStatus.DECLINED)

        record = await self.store.update_rematch(match_id, change)
        before = seen[-1] if seen else None
        if record is None or before is None or not before.is_open(now):
            raise NoRematchOffer(match_id=match_id)
        self._tell(match_id)
        return RematchDeclined(match, user_id, before.by_user)

    async def open_offer(self, match_id: int) -> RematchOffered | None:
        """The open rematch offer after the match, with the people still to agree; None if there is none."""
        record = await self.store.rematch(match_id)
        if record is None or not record.is_open(self.now()):
            return None
        match = await self.matches.get(match_id)
        waiting = tuple(u for u in match.human_user_ids if u not in record.accepted)
        return RematchOffered(match, record.by_user, waiting, record.expires_at)

    async def rematch_of(self, match_id: int) -> RematchRecord | None:
        """The rematch offered after the match (open, declined, lapsed or started), if any."""
        return await self.store.rematch(match_id)

    async def chain(self, match_id: int) -> list[MatchView]:
        """The match and the matches it is a rematch of, oldest first."""
        ids = [match_id]
        while len(ids) < CHAIN_LIMIT:
            origin = await self.store.rematch_origin(ids[-1])
            if origin is None or origin in ids:
                break
            ids.append(origin)
        return [await self.matches.get(i) for i in reversed(ids)]

    async def score(self, match_id: int) -> RematchScore:
        """The running score of the chain of rematches that ends with `match_id`."""
        return score_of(await self.chain(match_id))
