"""The Discord application's collaborators, each with one job, wired once around a `Runtime` and a Discord
client (the client does it in `setup_hook`; a bench does it around its own stand-in client). A part that
needs no Discord client (names, looks, board making, board order) can be built alone, by code without one.

| part | job |
|---|---|
| `runtime` (bot.runtime) | the service, the AI runner, the drawing pools, the analyses; start and close |
| `names` (bot.names) | players' display names |
| `looks` (bot.looks) | the server's language for public messages; a viewer's board theme |
| `boards` (bot.board_maker) | a match's board message: names, theme, language, image |
| `order` (bot.board_order) | the bot's board waits for the board of the change that gave it its turn |
| `channels` (bot.channels) | sending and editing the bot's messages; how a Discord call fails |
| `posts` (bot.board_posts) | posting boards; only the newest board and open requests keep live buttons |
| `announcements` (bot.announcements) | the service's events (bot move, timeout, expiry) as posts |
| `reminders` (bot.reminders) | turn reminders by direct message or mention |
"""

from __future__ import annotations

from dataclasses import dataclass

import discord

from bot.announcements import Announcements
from bot.board_maker import BoardMaker
from bot.board_order import BoardOrder
from bot.board_posts import BoardPosts
from bot.channels import Channels
from bot.looks import Looks
from bot.names import PlayerNames
from bot.reminders import ReminderSender
from bot.runtime import Runtime
from bot.service import Service


@dataclass(frozen=True, slots=True)
class Parts:
    """The wired collaborators; nothing here does work of its own."""

    runtime: Runtime
    names: PlayerNames
    looks: Looks
    boards: BoardMaker
    order: BoardOrder
    channels: Channels
    posts: BoardPosts
    announcements: Announcements
    reminders: ReminderSender

    @property
    def service(self) -> Service:
        """The runtime's service."""
        return self.runtime.service

    @classmethod
    def wire(cls, runtime: Runtime, client: discord.Client) -> Parts:
        """Build every part around `runtime` and `client`, and make them listen to the service: the board
        order hears every committed change, the announcements the background events."""
        service = runtime.service
        names = PlayerNames(client)
        looks = Looks(service, client)
        boards = BoardMaker(service, names, looks, runtime.drawing)
        order = BoardOrder(service.shards)
        channels = Channels(client)
        posts = BoardPosts(service, channels, order, looks)
        announcements = Announcements(service, boards, posts, order, looks, channels)
        reminders = ReminderSender(service, looks, channels)
        service.matches.add_match_listener(changed=order.changed)
        announcements.subscribe()
        return cls(runtime, names, looks, boards, order, channels, posts, announcements, reminders)

    async def start(self) -> None:
        """Start the runtime, with the typing indicator while the bot thinks and the turn reminders sent."""
        await self.runtime.start(on_thinking=self.channels.typing, on_reminder=self.reminders.send)
