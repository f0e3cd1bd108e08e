"""Lobbies: an open table for a game of two to four players (TilingKing). The host opens it and starts the
match; others (and the bot, added by the host) join and leave while it is open. Seats are drawn at random or
kept in joining order. The options are checked completely when the lobby opens."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import replace
from typing import Any

from bot.service.errors import (
    AlreadyJoined,
    BadAiLevel,
    BadSeatOrder,
    ChannelFullOfLobbies,
    LobbyBusy,
    LobbyClosed,
    LobbyFull,
    NotEnoughPlayers,
    NotHost,
    NotInLobby,
    PlayerCount,
    TooManyLobbies,
    UnknownLobby,
    valid_id,
)
from bot.service.matches import MAX_ID, MatchService
from bot.service.options import SEAT_ORDERS, MatchOptions
from bot.service.records import NEW_AI_LEVELS, Lobby, LobbyMember, LobbyStatus, MatchView
from bot.service.starts import Starts
from bot.service.store import LobbyChanged, MatchStore, StoreConflict

MAX_OPEN_PER_HOST = 2
"""Open lobbies one member may host at once."""
MAX_OPEN_PER_CHANNEL = 5
"""Open lobbies one channel may hold at once."""


class Lobbies:
    """Opening, joining, leaving and starting lobbies."""

    def __init__(
        self,
        store: MatchStore,
        matches: MatchService,
        starts: Starts,
        *,
        now: Callable[[], float],
    ) -> None:
        self.store = store
        self.matches = matches
        self.starts = starts
        self.now = now

    async def get(self, lobby_id: int) -> Lobby:
        if not isinstance(lobby_id, int) or not 0 < lobby_id < MAX_ID:
            raise UnknownLobby(lobby_id=lobby_id)
        lobby = await self.store.get_lobby(lobby_id)
        if lobby is None:
            raise UnknownLobby(lobby_id=lobby_id)
        return lobby

    async def open_in(self, channel_id: int | None = None) -> list[Lobby]:
        """The open lobbies of a channel (of every channel when None)."""
        return await self.store.open_lobbies(channel_id)

    def min_players(self, lobby: Lobby) -> int:
        return self.matches.rules(lobby.game).seats.start

    async def create(
        self,
        game: str,
        options: Mapping[str, Any],
        host_id: int,
        *,
        guild_id: int | None,
        channel_id: int,
        max_players: int | None = None,
        seat_order: str = "random",
        side: bool = False,
    ) -> Lobby:
        """Open a lobby for up to `max_players` (the game's most by default); the host is its first member.
        `side`: opened in the channel's Activity, so a running main match is no obstacle (its match may be a
        side table)."""
        valid_id(host_id, "user")
        rules = self.matches.rules(game)
        largest = rules.seats.stop - 1
        size = largest if max_players is None else max_players
        if size not in rules.seats:
            raise PlayerCount(game_name=rules.name, least=rules.seats.start, most=largest)
        if seat_order not in SEAT_ORDERS:
            raise BadSeatOrder()
        resolved = self.starts.options(rules, options, seats=range(rules.seats.start, size + 1), lobby=True)
        await self.matches.check_channel(guild_id, channel_id, side=side)
        if await self.store.count_open_lobbies(host_id=host_id) >= MAX_OPEN_PER_HOST:
            raise TooManyLobbies(count=MAX_OPEN_PER_HOST)
        if await self.store.count_open_lobbies(channel_id=channel_id) >= MAX_OPEN_PER_CHANNEL:
            raise ChannelFullOfLobbies(count=MAX_OPEN_PER_CHANNEL)
        now = self.now()
        return await self.store.insert_lobby(
            game,
            resolved.stored(rules),
            guild_id,
            channel_id,
            LobbyMember(host_id, None, now),
            seat_order,
            size,
            now,
            side=side,
        )

    async def _lobby(self, lobby: int | Lobby) -> Lobby:
        """The lobby as this flow read it already, else read now."""
        return lobby if isinstance(lobby, Lobby) else await self.get(lobby)

    async def join(self, lobby: int | Lobby, user_id: int, *, ai_level: str | None = None) -> Lobby:
        """Take a seat in an open lobby; with `ai_level`, `user_id` is the bot's id and the bot takes it.
        `lobby` is its id, or the lobby as this flow read it; the store adds the member only while the lobby
        is open and has room, and the lobby is read again after, with everyone who joined meanwhile."""
        lobby = await self._lobby(lobby)
        lobby_id = lobby.id
        valid_id(user_id, "user")
        if ai_level is not None and ai_level not in NEW_AI_LEVELS:
            raise BadAiLevel(level=ai_level)
        if lobby.status is not LobbyStatus.OPEN:
            raise LobbyClosed()
        if ai_level is None and any(m.user_id == user_id and m.ai_level is None for m in lobby.members):
            raise AlreadyJoined()
        if len(lobby.members) >= lobby.max_players:
            raise LobbyFull(size=lobby.max_players)
        if not await self.store.add_lobby_member(lobby_id, LobbyMember(user_id, ai_level, self.now())):
            again = await self.get(lobby_id)
            if again.status is not LobbyStatus.OPEN:
                raise LobbyClosed()
            if len(again.members) >= again.max_players:
                raise LobbyFull(size=again.max_players)
            raise AlreadyJoined()
        return await self.get(lobby_id)

    async def leave(self, lobby: int | Lobby, user_id: int) -> Lobby:
        """Leave an open lobby; if the host leaves, the lobby closes. `lobby` as for `join`."""
        lobby = await self._lobby(lobby)
        lobby_id = lobby.id
        if lobby.status is not LobbyStatus.OPEN:
            raise LobbyClosed()
        if not any(m.user_id == user_id and m.ai_level is None for m in lobby.members):
            raise NotInLobby()
        if user_id == lobby.host_id:
            await self.store.set_lobby_status(lobby_id, LobbyStatus.CLOSED)
        elif not await self.store.remove_lobby_member(lobby_id, user_id):
            raise LobbyClosed()
        return await self.get(lobby_id)

    async def check_start(self, lobby: int | Lobby, user_id: int) -> Lobby:
        """What `start` checks before it starts the match: the lobby is open, `user_id` is its host and
        enough players are in. The bot calls it before opening a thread for the match. `lobby` is its id, or
        the lobby as this flow read it (not read again)."""
        lobby = await self._lobby(lobby)
        if lobby.status is not LobbyStatus.OPEN:
            raise LobbyClosed()
        if user_id != lobby.host_id:
            raise NotHost(host_id=lobby.host_id)
        if len(lobby.members) < self.min_players(lobby):
            raise NotEnoughPlayers(have=len(lobby.members), need=self.min_players(lobby))
        return lobby

    START_ATTEMPTS = 5
    """How often `start` reads the members again when someone joined or left meanwhile."""

    async def start(self, lobby_id: int, user_id: int, *, channel_id: int | None = None) -> MatchView:
        """The host starts the match (`started`); returns the match."""
        return (await self.started(lobby_id, user_id, channel_id=channel_id))[1]

    async def started(
        self, lobby: int | Lobby, user_id: int, *, channel_id: int | None = None
    ) -> tuple[Lobby, MatchView]:
        """The host starts the match with the members the lobby has when the match is stored (another
        process may add or remove one meanwhile: then they are read again): seats at random or in joining
        order. `lobby` is its id, or the lobby as this flow read it (read again only after such a change).
        Returns the lobby as the start left it, and the match."""
        if channel_id is not None:
            valid_id(channel_id, "channel")
        for _ in range(self.START_ATTEMPTS):
            lobby = await self.check_start(lobby, user_id)
            try:
                match = await self._start(lobby, channel_id)
            except LobbyChanged:
                lobby = lobby.id
                continue
            return replace(lobby, status=LobbyStatus.STARTED, match_id=match.id), match
        raise LobbyBusy()

    async def _start(self, lobby: Lobby, channel_id: int | None) -> MatchView:
        try:
            return await self.starts.start(
                lobby.game,
                MatchOptions.load(self.matches.rules(lobby.game), lobby.options, lobby=True),
                [(m.user_id, m.ai_level) for m in lobby.members],
                order=lobby.seat_order,
                guild_id=lobby.guild_id,
                channel_id=channel_id if channel_id is not None else lobby.channel_id,
                lobby_id=lobby.id,
                side=lobby.side and channel_id is None,
            )
        except LobbyChanged:
            raise
        except StoreConflict:
            raise LobbyClosed() from None
