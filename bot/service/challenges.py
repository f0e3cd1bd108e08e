"""Challenges: one member asks another to a two-player match (or plays the bot at once).

A challenge's options are checked completely when it is made, by building the start position, so a bad
layout or size is the challenger's error, never the opponent's at Accept. A challenge waits `ttl` seconds
for an answer; the turn clock expires it (`expire`), each exactly once.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import replace
from typing import Any

from bot.service.errors import (
    BadAiLevel,
    ChallengeClosed,
    ChannelFullOfChallenges,
    OnlyChallenger,
    OnlyOpponent,
    SelfChallenge,
    TooManyChallenges,
    TwoPlayersOnly,
    UnknownChallenge,
    valid_id,
)
from bot.service.matches import MAX_ID, MatchService
from bot.service.options import MatchOptions
from bot.service.records import NEW_AI_LEVELS, Challenge, ChallengeStatus, MatchView
from bot.service.shards import Shards
from bot.service.starts import Starts
from bot.service.store import MatchStore, StoreConflict
from games.base import Rules

CHALLENGE_TTL = 15 * 60.0
"""Seconds a challenge waits for an answer before it expires."""
MAX_OPEN_PER_USER = 5
"""Pending challenges one member may have sent at once (each is a public message that pings)."""
MAX_OPEN_PER_CHANNEL = 10
"""Pending challenges one channel may hold at once."""


class Challenges:
    """Challenges between two members, and matches against the bot."""

    def __init__(
        self,
        store: MatchStore,
        matches: MatchService,
        starts: Starts,
        *,
        now: Callable[[], float],
        ttl: float = CHALLENGE_TTL,
    ) -> None:
        self.store = store
        self.matches = matches
        self.starts = starts
        self.now = now
        self.ttl = ttl

    def _two_player(self, game: str) -> Rules[Any, Any]:
        rules = self.matches.rules(game)
        if 2 not in rules.seats:
            raise TwoPlayersOnly(game_name=rules.name, least=rules.seats.start, most=rules.seats.stop - 1)
        return rules

    def check_options(self, game: str, options: Mapping[str, Any]) -> MatchOptions:
        """The resolved options of a two-player match of `game`, checked completely (InvalidOptions)."""
        return self.starts.options(self._two_player(game), options, seats=2)

    async def create(
        self,
        game: str,
        options: Mapping[str, Any],
        challenger_id: int,
        opponent_id: int,
        *,
        guild_id: int | None,
        channel_id: int,
        side: bool = False,
    ) -> Challenge:
        """Challenge another member to a two-player match; options are checked now, completely. `side`: made
        in the channel's Activity, so a running main match is no obstacle (its match may be a side table)."""
        valid_id(challenger_id, "user")
        valid_id(opponent_id, "user")
        if challenger_id == opponent_id:
            raise SelfChallenge()
        resolved = self.check_options(game, options).stored(self.matches.rules(game))
        await self.matches.check_channel(guild_id, channel_id, side=side)
        if await self.store.count_pending_challenges(challenger_id=challenger_id) >= MAX_OPEN_PER_USER:
            raise TooManyChallenges(count=MAX_OPEN_PER_USER)
        if await self.store.count_pending_challenges(channel_id=channel_id) >= MAX_OPEN_PER_CHANNEL:
            raise ChannelFullOfChallenges(count=MAX_OPEN_PER_CHANNEL)
        now = self.now()
        challenge = await self.store.insert_challenge(
            game, resolved, guild_id, channel_id, challenger_id, opponent_id, now, now + self.ttl, side=side
        )
        self.matches.deadlines_changed()
        return challenge

    async def get(self, challenge_id: int) -> Challenge:
        if not isinstance(challenge_id, int) or not 0 < challenge_id < MAX_ID:
            raise UnknownChallenge(challenge_id=challenge_id)
        challenge = await self.store.get_challenge(challenge_id)
        if challenge is None:
            raise UnknownChallenge(challenge_id=challenge_id)
        return challenge

    async def of_match(self, match_id: int) -> Challenge | None:
        """The challenge whose acceptance started the match (None: it started otherwise), for its message."""
        return await self.store.challenge_of_match(match_id)

    async def pending(self, channel_id: int | None = None) -> list[Challenge]:
        return await self.store.pending_challenges(channel_id)

    async def _pending(self, challenge: int | Challenge) -> Challenge:
        """The challenge (as this flow read it already, or read now) while it is pending; ChallengeClosed
        once it is not, or expired (then marked so)."""
        if not isinstance(challenge, Challenge):
            challenge = await self.get(challenge)
        if challenge.status is ChallengeStatus.PENDING and challenge.expires_at <= self.now():
            await self.store.set_challenge_status(challenge.id, ChallengeStatus.EXPIRED)
            raise ChallengeClosed(status=ChallengeStatus.EXPIRED)
        if challenge.status is not ChallengeStatus.PENDING:
            raise ChallengeClosed(status=challenge.status)
        return challenge

    async def check_accept(self, challenge: int | Challenge, user_id: int) -> Challenge:
        """What `accept` checks before it starts the match: the challenge is pending and `user_id` is the
        one challenged. The bot calls it before opening a thread for the match. `challenge` is its id, or the
        challenge as this flow read it (not read again)."""
        challenge = await self._pending(challenge)
        if user_id != challenge.opponent_id:
            raise OnlyOpponent(user_id=challenge.opponent_id)
        return challenge

    async def accept(
        self, challenge: int | Challenge, user_id: int, *, channel_id: int | None = None
    ) -> MatchView:
        """The opponent accepts: the match starts (in `channel_id` if given, e.g. a new thread). `challenge`
        is its id, or the challenge as this flow read it: it is not read again, since the store starts the
        match only while the challenge is still pending (else ChallengeClosed)."""
        challenge = await self.check_accept(challenge, user_id)
        if channel_id is not None:
            valid_id(channel_id, "channel")
        options = MatchOptions.load(self.matches.rules(challenge.game), challenge.options)
        try:
            return await self.starts.start(
                challenge.game,
                options,
                [(challenge.challenger_id, None), (challenge.opponent_id, None)],
                order=options.host.first_seat,
                guild_id=challenge.guild_id,
                channel_id=channel_id if channel_id is not None else challenge.channel_id,
                challenge_id=challenge.id,
                side=challenge.side and channel_id is None,
            )
        except StoreConflict:
            again = await self.get(challenge.id)
            raise ChallengeClosed(status=again.status) from None

    async def _close(self, challenge: Challenge, status: ChallengeStatus) -> Challenge:
        """Close a pending challenge; the store does it only while it is pending (else ChallengeClosed)."""
        if not await self.store.set_challenge_status(challenge.id, status):
            raise ChallengeClosed(status=(await self.get(challenge.id)).status)
        return replace(challenge, status=status)

    async def decline(self, challenge: int | Challenge, user_id: int) -> Challenge:
        """The opponent declines. `challenge` is its id, or the challenge as this flow read it."""
        challenge = await self.check_accept(challenge, user_id)
        return await self._close(challenge, ChallengeStatus.DECLINED)

    async def withdraw(self, challenge: int | Challenge, user_id: int) -> Challenge:
        """The challenger withdraws it. `challenge` is its id, or the challenge as this flow read it."""
        challenge = await self._pending(challenge)
        if user_id != challenge.challenger_id:
            raise OnlyChallenger(user_id=challenge.challenger_id)
        return await self._close(challenge, ChallengeStatus.WITHDRAWN)

    async def expire(self, now: float | None = None, *, shards: Shards | None = None) -> list[Challenge]:
        """Mark every challenge overdue by `now` (the service's time by default) in the guilds `shards` owns
        (None: every guild) expired; returns the ones this call expired (each exactly once)."""
        now = self.now() if now is None else now
        expired = []
        for challenge in await self.store.due_challenges(now, shards=shards):
            if await self.store.set_challenge_status(challenge.id, ChallengeStatus.EXPIRED):
                expired.append(replace(challenge, status=ChallengeStatus.EXPIRED))
        return expired

    async def next_expiry(self, *, shards: Shards | None = None) -> float | None:
        return await self.store.next_challenge_expiry(shards=shards)

    async def play_bot(
        self,
        game: str,
        options: Mapping[str, Any],
        user_id: int,
        *,
        bot_id: int,
        level: str,
        guild_id: int | None,
        channel_id: int,
        opened_from: int | None = None,
        side: bool = False,
    ) -> MatchView:
        """A match against the bot, at once; `bot_id` is the bot's own user id. The user is the challenger.

        `channel_id` is where the match lives; for a thread the bot opened for it, `opened_from` is the
        channel the command was used in, which the guild's allowed-channels setting must list. `side`:
        started in the channel's Activity, a side table if the channel has its main match."""
        if level not in NEW_AI_LEVELS:
            raise BadAiLevel(level=level)
        valid_id(user_id, "user")
        if user_id == bot_id:
            raise SelfChallenge()
        resolved = self.check_options(game, options)
        await self.matches.check_channel(guild_id, channel_id, opened_from=opened_from, side=side)
        return await self.starts.start(
            game,
            resolved,
            [(user_id, None), (bot_id, level)],
            order=resolved.host.first_seat,
            guild_id=guild_id,
            channel_id=channel_id,
            side=side,
        )
