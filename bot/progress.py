"""A message that says how far slow work is, edited in place (an interaction's "thinking" reply).

Slow work calls `update(text)` as often as it likes; the message shows the first text at once and then the
latest one at most every `interval` seconds, so a fast loop never floods Discord with edits (an interaction
response is a webhook message, whose edits Discord limits to a few per second; discord.py waits out a 429
itself). `close` stops the edits and lets one that is being sent finish, so the final answer replaces the
last progress text, never the other way round.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable

import discord

log = logging.getLogger("tessera.progress")

PROGRESS_INTERVAL = 2.0
"""Seconds between two edits of one progress message at least."""


class ProgressMessage:
    """The latest of the texts given to `update`, shown through `edit`, throttled (see the module doc)."""

    def __init__(
        self, edit: Callable[[str], Awaitable[object]], *, interval: float = PROGRESS_INTERVAL
    ) -> None:
        self._edit = edit
        self.interval = interval
        self._latest: str | None = None
        self._shown: str | None = None
        self._wake = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self._sending: asyncio.Task[object] | None = None
        self._closed = False
        self.shown: list[str] = []
        """Every text shown, in order."""

    def update(self, text: str) -> None:
        """Show `text` now, or when the interval since the last edit has passed (a later text replaces it)."""
        if self._closed:
            return
        self._latest = text
        self._wake.set()
        if self._task is None:
            self._task = asyncio.create_task(self._run(), name="tessera-progress")

    async def _run(self) -> None:
        while True:
            await self._wake.wait()
            self._wake.clear()
            text = self._latest
            if text is None or text == self._shown:
                continue
            self._sending = asyncio.create_task(self._send(text))
            await asyncio.shield(self._sending)
            self._sending = None
            await asyncio.sleep(self.interval)

    async def _send(self, text: str) -> object:
        try:
            result = await self._edit(text)
        except discord.HTTPException:
            log.warning("a progress edit failed; the next one tries again", exc_info=True)
            return None
        self._shown = text
        self.shown.append(text)
        return result

    @property
    def started(self) -> bool:
        """Whether a progress text was shown (or is being sent)."""
        return bool(self.shown) or self._sending is not None

    async def close(self) -> None:
        """Stop editing; wait for an edit being sent, so nothing overwrites what comes next."""
        self._closed = True
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
        if self._sending is not None:
            with contextlib.suppress(Exception):
                await self._sending
