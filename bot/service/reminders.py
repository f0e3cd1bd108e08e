"""Turn reminders: an opt-in nudge (a direct message, or a mention in the match's channel) when it is your
turn in a long match and you have not moved for a while.

The rule: only turns of at least `MIN_TURN` (12 hours: shorter turns are live games whose players are
watching); the reminder comes `min(turn_timeout * FRACTION, MAX_DELAY)` after the turn began (half the turn,
at most 12 hours: a 12-hour turn is reminded after 6 hours, a day or a week after 12); once per turn; only
to a player whose reminders are on (`/prefs`, off by default); never for the bot's seats (they have no
deadline).

Durable like the turn clock: the due time is derived from the match's own deadline column (a turn began at
deadline - turn_timeout), and the turn reminded last is a row (`claim_turn_reminder`), so nothing is kept
in memory, a restart sends what became due meanwhile, and no turn is reminded twice. The turn clock runs
`Reminders` as one of its timers (`next_due`, `run_due`).
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from bot.service.errors import MatchDamaged, UnknownMatch
from bot.service.matches import MatchService
from bot.service.prefs import Prefs, ReminderMode
from bot.service.records import MatchView
from bot.service.shards import Shards
from bot.service.store import MatchStore

log = logging.getLogger(__name__)

MIN_TURN = 12 * 3600.0
"""Seconds: turns shorter than this are never reminded."""
FRACTION = 0.5
"""The share of the turn that passes before the reminder..."""
MAX_DELAY = 12 * 3600.0
"""...but never more than this many seconds after the turn began."""


def reminder_due(deadline: float, turn_timeout: float) -> float | None:
    """When the turn ending at `deadline` is reminded, None for a short turn (the rule in the module doc;
    the store computes the same in SQL)."""
    if turn_timeout < MIN_TURN:
        return None
    return deadline - turn_timeout + min(turn_timeout * FRACTION, MAX_DELAY)


@dataclass(frozen=True, slots=True)
class TurnReminder:
    """Remind `user_id` (by `mode`) that it is their turn in `match`, which times out at `deadline`."""

    match: MatchView
    user_id: int
    mode: ReminderMode
    deadline: float


ReminderHandler = Callable[[TurnReminder], Awaitable[None]]


class Reminders:
    """Finds due reminders of the guilds `shards` owns (None: every guild) and hands each to `handler`
    once (the application sends it)."""

    def __init__(
        self,
        store: MatchStore,
        matches: MatchService,
        prefs: Prefs,
        *,
        now: Callable[[], float],
        shards: Shards | None = None,
    ):
        self.store = store
        self.matches = matches
        self.prefs = prefs
        self.now = now
        self.shards = shards
        self.handler: ReminderHandler | None = None

    async def next_due(self) -> float | None:
        """When the next reminder is due (maybe in the past), None if none is waiting."""
        return await self.store.next_turn_reminder(
            min_turn=MIN_TURN, fraction=FRACTION, max_delay=MAX_DELAY, shards=self.shards
        )

    async def run_due(self, now: float) -> list[TurnReminder]:
        """Claim every turn whose reminder is due by `now` and send the reminder of each whose player wants
        one; returns what was sent. A due turn whose player has reminders off is claimed too, so it is not
        looked at again (the query only returns matches where some seated person has reminders on)."""
        sent = []
        for match_id, deadline in await self.store.due_turn_reminders(
            now, min_turn=MIN_TURN, fraction=FRACTION, max_delay=MAX_DELAY, shards=self.shards
        ):
            reminder = await self._reminder(match_id, deadline)
            if not await self.store.claim_turn_reminder(match_id, deadline, now):
                continue
            if reminder is None or self.handler is None:
                continue
            try:
                await self.handler(reminder)
            except Exception:
                log.exception("sending the turn reminder of match %s failed", match_id)
                continue
            sent.append(reminder)
        return sent

    async def _reminder(self, match_id: int, deadline: float) -> TurnReminder | None:
        """The reminder for this turn, or None if nobody is to be reminded (the match moved on, the bot is to
        move, or the player to move has reminders off)."""
        try:
            match = await self.matches.get(match_id)
        except (UnknownMatch, MatchDamaged):
            return None
        user_id = match.user_to_move
        if not match.is_active or match.deadline != deadline or user_id is None or match.ai_seat_to_move():
            return None
        mode = (await self.prefs.of_user(user_id)).reminders
        if mode is ReminderMode.OFF:
            return None
        return TurnReminder(match, user_id, mode, deadline)
