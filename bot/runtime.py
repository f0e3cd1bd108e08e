"""The engines of one bot process: the service (over its store), the AI runner, the drawing pools and the
analyses, opened, started and closed together. It knows no Discord client: the application around it
(`bot.parts`) hears the service and posts what happens.

Time: the service reads the clock through `discord.utils.utcnow()`, so a test's virtual clock (SimCord)
moves turn deadlines too.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable

import discord

from bot.drawing import Drawing
from bot.health import count_errors, match_finished, match_started
from bot.i18n import COMMAND_IDS
from bot.service import Service
from bot.service.ai import AIRunner
from bot.service.analysis import Analyses
from bot.service.puzzles import Puzzles, no_starters
from bot.service.records import MatchView
from bot.service.reminders import ReminderHandler
from bot.settings import Settings
from games.ai.puzzles import starter_pool


def utc_seconds() -> float:
    """Seconds since the epoch, from discord.py's clock (which a test harness may drive)."""
    return discord.utils.utcnow().timestamp()


async def open_service(settings: Settings, *, now: Callable[[], float] | None = None) -> Service:
    """Open the service the settings name, for the shards this process owns; raises StoreUnavailable (or
    BadDatabaseUrl for a URL no store handles) when the database cannot be used."""
    return await Service.open(settings.database_url, now=now or utc_seconds, shards=settings.shards)


class Runtime:
    """The service, the AI runner, the drawing pools and the analyses of one bot process."""

    def __init__(
        self,
        service: Service,
        ai: AIRunner,
        *,
        owns_ai: bool,
        drawing: Drawing | None = None,
        mine_puzzles: bool = True,
        starter_puzzles: bool = True,
    ) -> None:
        self.service = service
        self.ai = ai
        self._owns_ai = owns_ai
        self.drawing = drawing or Drawing()
        self.analyses = Analyses(service.matches, ai)
        self.puzzles = Puzzles(
            service.store,
            service.matches,
            now=service.now,
            shards=service.shards,
            starters=starter_pool if starter_puzzles else no_starters,
        )
        self.mine_puzzles = mine_puzzles
        """Whether finished matches are mined for puzzles in the AI pool (settings.puzzle_mining)."""
        service.matches.add_match_listener(started=match_started, finished=match_finished)
        count_errors()
        self._closed = False

    @classmethod
    async def open(
        cls,
        settings: Settings,
        *,
        service: Service | None = None,
        ai_runner: AIRunner | None = None,
        now: Callable[[], float] | None = None,
        drawing: Drawing | None = None,
    ) -> Runtime:
        """The runtime over `service` (opened already, as `python -m bot` does before it logs in) or over a
        service opened now from `settings`."""
        if service is None:
            service = await open_service(settings, now=now)
        return cls(
            service,
            ai_runner or AIRunner(),
            owns_ai=ai_runner is None,
            drawing=drawing,
            mine_puzzles=settings.puzzle_mining,
            starter_puzzles=settings.puzzle_starters,
        )

    async def start(
        self,
        *,
        on_thinking: Callable[[MatchView], Awaitable[None]] | None = None,
        on_reminder: ReminderHandler | None = None,
    ) -> None:
        """Start the board processes, the turn clock (turn reminders go to `on_reminder`), and resume every
        match where the bot is to move (`on_thinking` hears when it starts thinking)."""
        self.drawing.start()
        await self.service.start(ai=self.ai, on_thinking=on_thinking, on_reminder=on_reminder)
        self.puzzles.start(self.ai, mine=self.mine_puzzles)

    async def close(self) -> None:
        """Stop thinking, stop the clock, close the store (every write is a finished transaction)."""
        if self._closed:
            return
        self._closed = True
        COMMAND_IDS.forget()  # the commands' ids are learnt again at the next start
        await self.puzzles.close()
        await self.service.close()
        await self.drawing.close()
        if self._owns_ai:
            await self.ai.aclose()
