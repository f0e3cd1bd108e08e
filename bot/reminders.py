"""Turn reminders (opt-in, /prefs): the turn clock finds them due (`bot.service.reminders`); this sends them,
in the server's language, by direct message or as a mention in the match's channel."""

from __future__ import annotations

import logging

import discord

from bot.channels import Channels
from bot.looks import Looks
from bot.service import Service
from bot.service.prefs import ReminderMode
from bot.service.reminders import TurnReminder

log = logging.getLogger("tessera.runtime")


class ReminderSender:
    """Sends the service's turn reminders through a Discord client (`send` is the clock's handler)."""

    def __init__(self, service: Service, looks: Looks, channels: Channels) -> None:
        self.service = service
        self.looks = looks
        self.channels = channels

    async def send(self, reminder: TurnReminder) -> None:
        """Remind a player that it is their turn: by direct message (a mention in the match's channel if
        their DMs are closed), or by a mention, as they chose in /prefs."""
        match = reminder.match
        game = self.service.rules(match.game).name
        link = f"https://discord.com/channels/{match.guild_id or '@me'}/{match.channel_id}"
        when = f"<t:{int(reminder.deadline)}:R>"
        tr = await self.looks.public_tr(match.guild_id)
        if reminder.mode is ReminderMode.DM:
            text = tr(
                "Your turn in **{game}** match #{match_id} ({link}); time runs out {when}. "
                "Turn these reminders off with {/prefs}.",
                game=game,
                match_id=match.id,
                link=link,
                when=when,
            )
            if await self._direct_message(reminder.user_id, text):
                return
        text = tr(
            "{player}, a reminder: it is your turn in match #{match_id}; time runs out {when}. "
            "({/prefs} turns reminders off.)",
            player=f"<@{reminder.user_id}>",
            match_id=match.id,
            when=when,
        )
        await self.channels.channel(match.channel_id).send(
            text, allowed_mentions=discord.AllowedMentions(users=[discord.Object(reminder.user_id)])
        )

    async def _direct_message(self, user_id: int, text: str) -> bool:
        """Send a direct message; False if the user cannot be reached that way (DMs closed, unknown)."""
        client = self.channels.client
        try:
            user = client.get_user(user_id) or await client.fetch_user(user_id)
            await user.send(text)
        except discord.HTTPException:
            log.info("could not send a direct message to user %s", user_id)
            return False
        return True
