"""Starting the web board: inside the bot process (WEB_PORT set) or as a process of its own
(`python -m bot web`), and the "Open board" links the bot posts under its board messages."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Mapping, Sequence
from typing import Any

from bot import views
from bot.service import Service
from bot.settings import SettingsError, WebSettings, load_web_settings
from bot.web.app import WebBoard
from bot.web.discord_api import DiscordRest
from bot.web.relay import DiscordPoster, Relay
from bot.web.security import match_token

log = logging.getLogger("tessera.web")


def configure_links(settings: WebSettings) -> None:
    """Let board messages carry the "Open board" link when the web board has a secret (this process may
    not serve it: a separate web process computes the same links)."""
    if settings.web_secret is None or not settings.activity_enabled:
        views.set_activity(None)
    else:
        off = frozenset(settings.web_disabled_guilds)
        views.set_activity(lambda guild_id: guild_id not in off)
    if settings.web_secret is None:
        views.set_board_link(None)
        return
    secret = settings.web_secret.get_secret_value()
    base = settings.web_base_url.rstrip("/")
    disabled = frozenset(settings.web_disabled_guilds)

    def link(match_id: int, guild_id: int | None) -> str | None:
        if guild_id is not None and guild_id in disabled:
            return None
        return f"{base}/m/{match_token(secret, match_id)}"

    views.set_board_link(link)


def rest_for(settings: WebSettings) -> DiscordRest | None:
    """Bot-token calls to Discord where there is a bot token (always in the bot process)."""
    if settings.discord_token is None:
        return None
    return DiscordRest(settings.discord_api_url, settings.discord_token.get_secret_value())


def board_for(settings: WebSettings, service: Service, **kwargs: Any) -> WebBoard:
    assert settings.web_secret is not None
    kwargs.setdefault("rest", rest_for(settings))
    return WebBoard(
        service,
        secret=settings.web_secret.get_secret_value(),
        base_url=settings.web_base_url,
        client_id=settings.discord_client_id,
        client_secret=(
            settings.discord_client_secret.get_secret_value() if settings.discord_client_secret else None
        ),
        api_url=settings.discord_api_url,
        disabled_guilds=settings.web_disabled_guilds,
        activity=settings.activity_enabled,
        trusted_proxies=settings.web_trusted_proxies,
        **kwargs,
    )


def announcer(bot: Any) -> Any:
    """Post what a web request changed (a move, a resignation, a takeback, a takeback or abort request) in
    the match's channel, as the Discord flow would (relay.DiscordPoster)."""
    return DiscordPoster(bot).post


class WebInBot:
    """What the bot process runs for the web board: the board itself (WEB_PORT set) and the relay that
    posts in Discord the changes a web process of its own made (relay.py)."""

    def __init__(self, board: WebBoard | None, relay: Relay | None) -> None:
        self.board = board
        self.relay = relay

    async def close(self) -> None:
        if self.relay is not None:
            await self.relay.close()
        if self.board is not None:
            await self.board.close()


async def start_with_bot(settings: WebSettings, service: Service, bot: Any) -> WebInBot | None:
    """Serve the board from the bot process when WEB_PORT is set, naming players from the bot's cache; and
    wherever the web board is configured (WEB_SECRET), post in Discord what web processes of their own
    change in this process's guilds (on PostgreSQL)."""
    configure_links(settings)
    if settings.web_secret is None:
        return None
    for guild_id in await service.store.guilds_without_web_board():  # the servers' own switches
        views.set_web_board(guild_id, False)
    relay = Relay(service, DiscordPoster(bot))
    relay.start()
    if settings.web_port is None:
        return WebInBot(None, relay)

    async def names(user_ids: Sequence[int]) -> Mapping[int, str]:
        found = {}
        for user_id in user_ids:
            user = bot.get_user(user_id)
            if user is not None:
                found[user_id] = user.display_name
        return found

    board = board_for(
        settings,
        service,
        names=names,
        announce=announcer(bot),
        analyses=lambda: bot.runtime.analyses if hasattr(bot, "parts") else None,
    )
    try:
        await board.start(settings.web_host, settings.web_port)
    except OSError:
        await relay.close()
        raise
    log.info("web board on %s:%s", settings.web_host, settings.web_port)
    return WebInBot(board, relay)


def board_alone(settings: WebSettings, service: Service) -> WebBoard:
    """The board of a web process of its own: players' names from Discord (the bot token's
    `GET /users/{id}`, cached) where DISCORD_TOKEN is set; without it, "Player 1" and "Player 2"."""
    rest = rest_for(settings)
    return board_for(settings, service, rest=rest, **({"names": rest.names} if rest is not None else {}))


class CannotListen(Exception):
    """The web board's address cannot be listened on (one line for the operator)."""


async def run_alone(settings: WebSettings) -> None:
    service = await Service.open(settings.database_url)
    service.listen()  # settings (a server's web board switch) are cached while other processes are heard
    board = board_alone(settings, service)
    assert settings.web_port is not None
    try:
        await board.start(settings.web_host, settings.web_port)
    except OSError as error:  # the port is taken, or the address is not this machine's
        await service.close()
        where = f"{settings.web_host}:{settings.web_port}"
        raise CannotListen(f"cannot listen on {where}: {' '.join(str(error).split())}") from None
    print(f"Tessera web board on {settings.web_host}:{settings.web_port}", flush=True)
    try:
        await asyncio.Event().wait()
    finally:
        await board.close()
        await service.close()


def main(args: Sequence[str]) -> int:
    """`python -m bot web`: the settings come from the environment and .env, as the bot's."""
    if args:
        print("usage: python -m bot web (settings: WEB_PORT, WEB_SECRET, WEB_BASE_URL, DATABASE_URL, ...)")
        return 2
    try:
        settings = load_web_settings()
    except SettingsError as error:
        print(f"tessera: {error}")
        return 2
    if settings.web_port is None:
        print("tessera: WEB_PORT is not set; set it (and WEB_SECRET) to serve the web board")
        return 2
    try:
        with contextlib.suppress(KeyboardInterrupt):
            asyncio.run(run_alone(settings))
    except CannotListen as error:
        print(f"tessera: WEB_PORT: {error}")
        return 2
    return 0
