"""Sending and editing the bot's own messages in Discord channels: the one place that knows how a Discord call
fails. A post that cannot be sent is logged (or raised for the caller to try again, if it may pass); a
cosmetic call (the typing indicator, taking the buttons off an old message) never fails its caller."""

from __future__ import annotations

import asyncio
import logging
from typing import Any

import aiohttp
import discord

from bot.boards import BoardMessage
from bot.service.messages import PostedMessage
from bot.service.records import MatchView

log = logging.getLogger("tessera.runtime")

NETWORK_ERRORS: tuple[type[Exception], ...] = (aiohttp.ClientError, OSError, asyncio.TimeoutError)
"""What a Discord call raises when the network fails (DNS, refused, reset, timed out), besides the
`discord.HTTPException`s of an answer that came back."""

SEND_ERRORS: tuple[type[Exception], ...] = (discord.HTTPException, *NETWORK_ERRORS)
"""Every way a Discord call can fail; cosmetic calls (typing, edits of old messages) swallow all of them."""


class Channels:
    """The channels of one Discord client, as the bot posts in them on its own (not as a reply)."""

    def __init__(self, client: discord.Client) -> None:
        self.client = client

    def channel(self, channel_id: int) -> discord.abc.Messageable:
        found = self.client.get_channel(channel_id)
        if isinstance(found, discord.abc.Messageable):
            return found
        return self.client.get_partial_messageable(channel_id)

    async def post(
        self, channel_id: int, message: BoardMessage, *, raise_transient: bool = False
    ) -> discord.Message | None:
        """Send a board message to a channel (a new message, so the mention pings); None (logged) if it
        could not be sent. With `raise_transient`, a failure that may pass (a network error, a Discord
        server error) is raised instead, for the caller to try again; a refusal (no access, no channel)
        is still None."""
        try:
            return await self.channel(channel_id).send(**message.send_kwargs())
        except (discord.Forbidden, discord.NotFound):
            log.exception("could not post to channel %s", channel_id, extra={"kind": "post"})
            return None
        except SEND_ERRORS:
            if raise_transient:
                raise
            log.exception("could not post to channel %s", channel_id, extra={"kind": "post"})
            return None

    async def edit_posted(self, posted: PostedMessage, **changes: Any) -> bool:
        """Edit a message the bot posted earlier; False (logged) if it is gone or cannot be edited."""
        message = self.client.get_partial_messageable(posted.channel_id).get_partial_message(
            posted.message_id
        )
        try:
            await message.edit(**changes)
        except discord.NotFound:
            log.info(
                "message %s in channel %s is gone; nothing to edit", posted.message_id, posted.channel_id
            )
            return False
        except SEND_ERRORS:
            log.warning("could not edit message %s in channel %s", posted.message_id, posted.channel_id)
            return False
        return True

    async def remove_buttons(self, posted: PostedMessage) -> bool:
        """Take the buttons off a superseded board (its text and image stay)."""
        return await self.edit_posted(posted, view=None)

    async def typing(self, match: MatchView) -> None:
        """Show "typing..." while the bot thinks: cosmetic, so no failure of it ever reaches the caller."""
        try:
            await self.channel(match.channel_id).typing()
        except SEND_ERRORS as error:
            log.info("could not show typing in channel %s: %r", match.channel_id, error)
