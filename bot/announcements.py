"""What the bot posts on its own when background work reports (`service.events`: one handler per event
type): the bot's move, a timeout's board, an expired challenge (edited in place)."""

from __future__ import annotations

import contextlib

import discord

from bot.board_maker import BoardMaker
from bot.board_order import BoardOrder
from bot.board_posts import BoardPosts
from bot.channels import SEND_ERRORS, Channels
from bot.looks import Looks
from bot.service import Service
from bot.service.records import BotPlayed, ChallengeExpired, TimedOut


class Announcements:
    """Turns the service's events into posted messages; `subscribe` hands its handlers to `service.events`."""

    def __init__(
        self,
        service: Service,
        boards: BoardMaker,
        posts: BoardPosts,
        order: BoardOrder,
        looks: Looks,
        channels: Channels,
    ) -> None:
        self.service = service
        self.boards = boards
        self.posts = posts
        self.order = order
        self.looks = looks
        self.channels = channels

    def subscribe(self) -> None:
        """Hear the bot's moves, timeouts and expired challenges."""
        self.service.events.subscribe(BotPlayed, self.on_bot_played)
        self.service.events.subscribe(TimedOut, self.on_timed_out)
        self.service.events.subscribe(ChallengeExpired, self.challenge_expired)

    async def on_bot_played(self, event: BotPlayed) -> None:
        """Post the bot's move, after the board of the change that gave it its turn. A transient failure
        is raised: BotTurns announces the move again later."""
        played = event.played
        message = await self.boards.played_board(played)
        await self.order.wait(played.match.id, played.move.ply)
        await self.posts.post_board(played.match, message, raise_transient=True)

    async def on_timed_out(self, event: TimedOut) -> None:
        """Post a timeout's board: the move the rules made for the player, or the result."""
        if event.played is not None:  # the rules moved for them (even a move that ended the game)
            tr = await self.looks.public_tr(event.played.match.guild_id)
            headline = tr("{player} ran out of time.", player=f"<@{event.user_id}>")
            await self.posts.post_board(
                event.played.match, await self.boards.played_board(event.played, headline=headline)
            )
        elif event.finished is not None:  # the result lines say who ran out of time
            message = await self.boards.board(event.finished.match, finished=event.finished)
            await self.posts.post_board(event.finished.match, message)

    async def challenge_expired(self, event: ChallengeExpired) -> None:
        """Edit the challenge's message in place: its buttons go and it says it expired. A challenge whose
        message was not recorded (made before the bot remembered them) gets a short notice instead."""
        challenge = event.challenge
        tr = await self.looks.public_tr(challenge.guild_id)
        expired = tr(
            "The challenge from {challenger} to {opponent} (#{challenge_id}) expired: nobody answered in "
            "time. Send a new one with {/play}.",
            challenger=f"<@{challenge.challenger_id}>",
            opponent=f"<@{challenge.opponent_id}>",
            challenge_id=challenge.id,
        )
        posted = await self.service.messages.challenge_message(challenge.id)
        if posted is not None:
            await self.channels.edit_posted(
                posted, content=expired, view=None, allowed_mentions=discord.AllowedMentions.none()
            )
            return
        with contextlib.suppress(*SEND_ERRORS):
            await self.channels.channel(challenge.channel_id).send(
                expired, allowed_mentions=discord.AllowedMentions.none()
            )
