"""Draw offers: the players of a match agree a draw (issue 43, item 6).

The rules:

- Only in a game that can end drawn (`Rules.can_draw`; Paintscape always has a winner), and only once every
  seat has moved once (before that, an abort ends the match with no result).
- The bot does not agree to draws: with a bot seat still playing, no offer can be made.
- An offer stands only where it was made: the next move (or a takeback, or a resignation that leaves the
  game going) lapses it. At most one offer is open per match: a second player's offer while one is open
  agrees to it.
- One offer per player per few moves: after offering at ply p, a player may offer again from ply
  p + DRAW_OFFER_GAP on (an offer declined or lapsed counts).
- The draw needs every player still playing (three or four in TilingKing, less those who resigned); those
  who resigned rank last. The match ends by `AGREED_DRAW` and is rated as a draw.

Offers live in the store's `match_draws` row of the match and change under the match row's lock
(`MatchStore.update_draws`), so answers from several processes merge.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any

from bot.service.errors import (
    DrawOfferPending,
    DrawOfferTooSoon,
    DrawsNotInGame,
    DrawsTooEarly,
    DrawsWithBot,
    NoDrawOffer,
    OwnRequest,
    StaleMove,
)
from bot.service.matches import MatchService
from bot.service.records import (
    DrawDeclined,
    DrawOffer,
    DrawOffered,
    DrawState,
    Finished,
    MatchRecord,
    MatchView,
)
from games.base import AGREED_DRAW, Outcome, Rules, Seat

DRAW_OFFER_GAP = 4
"""Plies between two draw offers of one player."""


def still_playing(rules: Rules[Any, Any], state: Any, row: MatchRecord) -> list[Seat]:
    """The seats still in the game: all of them, less those who resigned where the game goes on without them
    (a seat that resigned is one whose resignation changes nothing any more)."""
    seats = []
    for player in row.seats:
        after = rules.resign(state, player.seat)
        if after is not None and rules.dump(after) == rules.dump(state):
            continue
        seats.append(player.seat)
    return seats


def is_open(offer: DrawOffer | None, row: MatchRecord) -> bool:
    """Whether `offer` still stands: made where the match stands now (its ply, its last change)."""
    return offer is not None and offer.ply == row.ply and offer.since == row.updated_at


class Draws:
    """Draw offers in the matches `matches` plays (same locks, same stale checks)."""

    def __init__(self, matches: MatchService) -> None:
        self.matches = matches
        self.store = matches.store
        self.listeners: list[Callable[[int], None]] = []
        """Told the id of a match whose draw offer changed without a move (the web board's stream); a draw
        agreed ends the match, which the match service's own listeners hear."""

    def _tell(self, match_id: int) -> None:
        for listener in self.listeners:
            listener(match_id)

    async def _context(self, row: MatchRecord) -> tuple[Rules[Any, Any], list[Seat]]:
        """The rules and the seats still playing of a match where draws may be offered now."""
        rules = self.matches.rules(row.game)
        if not getattr(rules, "can_draw", True):  # the protocol's default for rules not subclassing it
            raise DrawsNotInGame(game=rules.name)
        if not await self.matches.has_everyone_moved(row):
            raise DrawsTooEarly()
        playing = still_playing(rules, self.matches.view_of(row).state, row)
        if any(row.seats[s].is_ai for s in playing):
            raise DrawsWithBot()
        return rules, playing

    def _offered(self, row: MatchRecord, offer: DrawOffer, playing: list[Seat]) -> DrawOffered:
        waiting = tuple(dict.fromkeys(row.seats[s].user_id for s in playing if s not in offer.accepted))
        return DrawOffered(self.matches.view_of(row), offer.user_id, waiting)

    async def offer(self, match_id: int, user_id: int) -> DrawOffered | Finished:
        """Offer a draw (see the module doc); while another player's offer is open, agree to it."""
        async with self.matches.lock(match_id):
            row = await self.matches.active_row(match_id)
            self.matches.player_in(row, user_id)
            _, playing = await self._context(row)
            draws = await self.store.draws(match_id)
            if is_open(draws.offer, row):
                assert draws.offer is not None
                if draws.offer.user_id == user_id:
                    raise DrawOfferPending()
                return await self._agree(row, playing, draws.offer, user_id)
            mine = [s for s in playing if row.seats[s].user_id == user_id]
            last = max((draws.offered[s] for s in mine if s in draws.offered), default=None)
            if last is not None and row.ply < last + DRAW_OFFER_GAP:
                raise DrawOfferTooSoon(plies=last + DRAW_OFFER_GAP - row.ply)
            offer = DrawOffer(mine[0], user_id, row.ply, row.updated_at, tuple(mine))

            def make(now: DrawState) -> DrawState:
                if is_open(now.offer, row):
                    return now
                return DrawState(offer, {**now.offered, **dict.fromkeys(mine, row.ply)})

            changed = await self.store.update_draws(row.id, row.ply, make)
            if changed is None or changed.offer != offer:
                raise StaleMove()
            self._tell(match_id)
            return self._offered(row, offer, playing)

    async def accept(self, match_id: int, user_id: int, *, ply: int | None = None) -> DrawOffered | Finished:
        """Agree to the open draw offer (the one made at `ply`, if given: a button answers only the offer it
        was posted with); the match ends drawn once every player still playing has agreed."""
        async with self.matches.lock(match_id):
            row = await self.matches.active_row(match_id)
            self.matches.player_in(row, user_id)
            _, playing = await self._context(row)
            offer = (await self.store.draws(match_id)).offer
            if offer is None or not is_open(offer, row) or ply not in (None, offer.ply):
                raise NoDrawOffer()
            if offer.user_id == user_id:
                raise OwnRequest()
            return await self._agree(row, playing, offer, user_id)

    async def _agree(
        self, row: MatchRecord, playing: list[Seat], offer: DrawOffer, user_id: int
    ) -> DrawOffered | Finished:
        mine = {s for s in playing if row.seats[s].user_id == user_id}

        def agree(now: DrawState) -> DrawState:
            if now.offer != offer:
                return now
            return replace(now, offer=replace(offer, accepted=tuple(sorted({*offer.accepted, *mine}))))

        changed = await self.store.update_draws(row.id, row.ply, agree)
        if changed is None or changed.offer is None or not is_open(changed.offer, row):
            raise StaleMove()
        if set(playing) <= set(changed.offer.accepted):
            ranks = tuple(0 if p.seat in playing else 1 for p in row.seats)
            return await self.matches.end_without_move(row, Outcome(AGREED_DRAW, ranks), by_user=None)
        self._tell(row.id)
        return self._offered(row, changed.offer, playing)

    async def decline(self, match_id: int, user_id: int, *, ply: int | None = None) -> DrawDeclined:
        """Refuse the open draw offer (the one made at `ply`, if given), or (its offerer) withdraw it; the
        offer is closed either way."""
        async with self.matches.lock(match_id):
            row = await self.matches.active_row(match_id)
            self.matches.player_in(row, user_id)
            offer = (await self.store.draws(match_id)).offer
            if offer is None or not is_open(offer, row) or ply not in (None, offer.ply):
                raise NoDrawOffer()
            changed = await self.store.update_draws(
                row.id, row.ply, lambda now: replace(now, offer=None) if now.offer == offer else now
            )
            if changed is None or changed.offer is not None:
                raise StaleMove()
            self._tell(match_id)
            return DrawDeclined(self.matches.view_of(row), user_id, offer.user_id)

    async def open_offer(self, match_id: int) -> DrawOffered | None:
        """The match's open draw offer with the players still to agree, None if there is none."""
        return await self.open_offer_in(await self.matches.get(match_id))

    async def open_offer_in(self, match: MatchView) -> DrawOffered | None:
        """`open_offer` of a match already read (one query, none for a match where no offer can be open)."""
        rules = self.matches.rules(match.game)
        if not match.is_active or not getattr(rules, "can_draw", True) or any(p.is_ai for p in match.seats):
            return None
        offer = (await self.store.draws(match.id)).offer
        if offer is None or not is_open(offer, match):
            return None
        return self._offered(match, offer, still_playing(rules, match.state, match))
