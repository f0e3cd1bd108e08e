"""The order of boards in a channel: the bot's board comes after the board of the change that gave it its
turn. The bot thinks as soon as a person's move is committed, while that person's board is still being
drawn and sent by the command that made it; so each committed change that gives the bot its turn owes a
board, and the bot's board of a move from that position waits until it is out (at most `BOARD_ORDER_WAIT`
seconds: a reply that failed never posts its board). Needs no Discord client."""

from __future__ import annotations

import asyncio
import logging

from bot.service.records import MatchView
from bot.service.shards import Shards

log = logging.getLogger("tessera.runtime")

BOARD_ORDER_WAIT = 10.0
"""Seconds the bot's board waits at most for the board of the change that gave it its turn (a person's
move, posted by the command that made it), so the channel shows them in order; a reply that failed holds
the bot's board no longer than this."""

BOARD_ORDER_POLL = 0.05
"""Seconds between two looks whether that board is out (a plain sleep, which SimCord's clock runs)."""


class BoardOrder:
    """The boards owed before the bot's, per match; `changed` listens to the match service's commits, `out`
    hears of each board sent, `wait` holds the bot's board."""

    def __init__(self, shards: Shards | None = None) -> None:
        self.shards = shards
        """The shards whose guilds' bot turns this process plays (None: every guild)."""
        self.owed: dict[int, set[int]] = {}
        """Per match, the plies of committed changes that gave the bot its turn and whose board is not out
        yet: the bot's board of a move from such a ply waits for it (`BOARD_ORDER_WAIT`)."""

    def changed(self, match: MatchView) -> None:
        """A change to `match` was committed (called inside the commit): if the bot is now to move, the
        board of this change is owed before the bot's (where this process plays the bot's turns: the guild's
        shard is its own). A change back to an earlier ply (a takeback) forgets the boards owed after it,
        and the end of the match all of them."""
        shards = self.shards
        owed = {ply for ply in self.owed.get(match.id, ()) if ply < match.ply and match.is_active}
        if match.ai_seat_to_move() is not None and (shards is None or shards.owns(match.guild_id)):
            owed.add(match.ply)
        if owed:
            self.owed[match.id] = owed
        else:
            self.owed.pop(match.id, None)

    def out(self, match_id: int, ply: int | None) -> None:
        """A board of the match at `ply` (None: its final board, every one) was sent, or will never come:
        the boards owed up to it are no longer awaited."""
        left = {p for p in self.owed.get(match_id, ()) if ply is not None and p > ply}
        if left:
            self.owed[match_id] = left
        else:
            self.owed.pop(match_id, None)

    async def wait(self, match_id: int, ply: int) -> None:
        """Wait until the boards owed at `ply` or before are out, at most `BOARD_ORDER_WAIT` seconds (a reply
        that failed never posts its board; then they are forgotten)."""
        waited = 0.0
        while any(p <= ply for p in self.owed.get(match_id, ())):
            if waited >= BOARD_ORDER_WAIT:
                log.info("the board before the bot's move in match %s did not come; posting it", match_id)
                self.out(match_id, ply)
                return
            await asyncio.sleep(BOARD_ORDER_POLL)
            waited += BOARD_ORDER_POLL
