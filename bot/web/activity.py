"""Tessera as a Discord Activity: the web board inside Discord's frame (issue 28).

Discord loads the Activity at the root of its URL mapping with `?frame_id=...&instance_id=...&platform=...`
(and `channel_id`, `guild_id`); `WebBoard` answers such a request with the match page whose script is
`web/activity/activity.js` instead of `app.js`. That script does the Embedded App SDK's handshake, asks
Discord to `authorize` the `identify` scope, and sends the code here:

    GET  /api/activity/config           the application's client id (public), the page's words
    POST /api/activity/token            {"code"}: exchanged at Discord's token endpoint with the client secret
                                        (which never reaches the page) for the user; answers the same signed
                                        session as the browser login (also set as the cookie), which the page
                                        sends back in the `X-Tessera-Session` header: inside Discord's frame
                                        the site's cookies are third-party and browsers may drop them
    GET  /api/activity/channel          ?channel_id&guild_id&instance_id: the channel's match (its page), the
                                        challenges waiting there, the user's matches in this server, the
                                        games to start; the instance is checked with Discord first (its
                                        channel, its guild, the user in it: `_verified`), so a page cannot
                                        name a channel it is not in
    POST /api/activity/start            {"channel_id", "guild_id", "instance_id", "game", "options",
                                        "opponent"}: (the instance checked as above) a match
                                        against the bot, or a challenge, with /play's options and limits
    POST /api/activity/accept           {"challenge_id"}: the challenged player accepts in the Activity

Only the Discord client may frame it: production's CSP says `frame-ancestors` Discord, and the page itself
refuses to start when it is framed by anything else (`parents`).
"""

from __future__ import annotations

import contextlib
import json
import logging
import re
from typing import Any

from aiohttp import web

import games
from bot.boards import level_word
from bot.i18n import catalog_locale, tr_for
from bot.service.errors import ServiceError
from bot.service.options import given_options
from bot.service.timecontrol import presets
from bot.web.limits import client_of
from bot.web.oauth import Failed, Refused
from bot.web.security import WEB_DIR, Session, is_ascii_digits, match_token
from games.ai.levels import LEVEL_IDS, NEW_PLAYER_LEVEL
from games.base import InvalidOptions
from games.texts import N_

log = logging.getLogger("tessera.web.activity")

SESSION_HEADER = "X-Tessera-Session"
DISCORD_PARENTS = (
    "https://discord.com",
    "https://ptb.discord.com",
    "https://canary.discord.com",
)
"""The origins of Discord's client, the only pages that may frame the Activity in production."""
DEFAULT_LEVEL = NEW_PLAYER_LEVEL
INSTANCE_ID = re.compile(r"[A-Za-z0-9_.:-]{1,100}")
"""What an Activity instance id looks like (it goes into a Discord API path)."""

ACTIVITY_TEXTS: dict[str, str] = {
    "connecting": N_("Connecting to Discord..."),
    "authorizing": N_("Waiting for Discord to confirm who you are..."),
    "outside": N_("This page is Tessera's Discord Activity: open it from Discord."),
    "refused": N_("This Activity only runs inside Discord."),
    "failed": N_("Discord did not confirm the login; close the Activity and open it again."),
    "no_match": N_("There is no match in this channel yet."),
    "your_matches": N_("Your matches in this server"),
    "challenges": N_("Challenges waiting here"),
    "challenge_line": N_("{challenger} challenges {opponent} to {game}"),
    "accept": N_("Accept"),
    "open": N_("Open"),
    "start": N_("Start a match"),
    "game": N_("Game"),
    "options": N_("Options (name=value)"),
    "opponent": N_("Opponent"),
    "against_bot": N_("Tessera (the bot)"),
    "opponent_id": N_("A member's user id"),
    "level": N_("My strength"),
    "clock": N_("Clock"),
    "correspondence": N_("Correspondence (a time per turn)"),
    "go": N_("Start"),
    "waiting": N_("Challenge sent: it starts when your opponent accepts it here or in the channel."),
}
"""The Activity's own words (the match page's are bot/web/texts.py)."""


LAUNCH_KEY = "activity-launch:{channel_id}"
LAUNCH_FRESH = 900.0
"""Seconds a /play launch's game stays offered to its user in the Activity; older ones are deleted."""


async def remember_launch(
    service: Any, channel_id: int, user_id: int, game: str, given: dict[str, Any], now: float
) -> None:
    """/play game:X without an opponent opens the Activity (Discord's launch response carries no data): the
    game and its own options are kept for the channel (the store's meta, so a web process of its own sees
    them too), and the Activity offers them to the same user as the match to start."""
    own = {o.name for o in service.rules(game).options}
    options = " ".join(
        f"{name}={str(value).lower() if isinstance(value, bool) else value}"
        for name, value in given.items()
        if name in own
    )
    value = json.dumps({"user": str(user_id), "game": game, "options": options, "at": now})
    await forget_stale_launches(service.store, now)
    await service.store.put_meta(LAUNCH_KEY.format(channel_id=channel_id), value)


def _launch_at(value: str) -> float | None:
    """When a kept launch was asked for (None: not a launch this code wrote)."""
    try:
        launch = json.loads(value)
    except ValueError:
        return None
    at = launch.get("at") if isinstance(launch, dict) else None
    return float(at) if isinstance(at, int | float) else None


async def forget_stale_launches(store: Any, now: float) -> int:
    """Delete every kept launch older than LAUNCH_FRESH (or unreadable), in every channel: each new launch
    sweeps them, so the meta table keeps only the last quarter hour's. A row written again meanwhile (by
    another process) stays. The number deleted."""
    prefix = LAUNCH_KEY.split("{", 1)[0]
    deleted = 0
    for key, value in (await store.meta_with_prefix(prefix)).items():
        at = _launch_at(value)
        if at is None or now - at > LAUNCH_FRESH:
            deleted += await store.delete_meta(key, value)
    return deleted


async def forget_launch(store: Any, channel_id: int, user_id: int) -> None:
    """The launch kept for `channel_id` was used by `user_id` (a match or a challenge started in the
    Activity): it is no longer offered, and its row goes."""
    key = LAUNCH_KEY.format(channel_id=channel_id)
    value = await store.get_meta(key)
    if value is None:
        return
    with contextlib.suppress(ValueError, AttributeError):
        if json.loads(value).get("user") == str(user_id):
            await store.delete_meta(key, value)


def _csp_frame_ancestors(parents: tuple[str, ...]) -> str:
    return " ".join(("'self'", *parents, "https://*.discordsays.com"))


class Activity:
    """The Activity's routes over a `WebBoard` (its service, signer, session and CSRF checks; typed Any, as
    bot.web.app builds this and may not be imported back: no import cycle)."""

    def __init__(self, board: Any, *, parents: tuple[str, ...] = DISCORD_PARENTS) -> None:
        self.board = board
        self.parents = parents
        self._page: str | None = None
        if board.client_id:
            # requests made inside Discord come from the application's proxy origin
            board.origins.add(f"https://{board.client_id}.discordsays.com")

    @property
    def frame_ancestors(self) -> str:
        return _csp_frame_ancestors(self.parents)

    def routes(self, app: web.Application) -> None:
        app.router.add_get("/api/activity/config", self._config)
        app.router.add_post("/api/activity/token", self._token)
        app.router.add_get("/api/activity/channel", self._channel)
        app.router.add_post("/api/activity/start", self._start)
        app.router.add_post("/api/activity/accept", self._accept)

    def page(self) -> web.Response:
        """The match page with the Activity's script in place of app.js (which it loads once signed in)."""
        if self._page is None:
            text = (WEB_DIR / "index.html").read_text(encoding="utf-8")
            script = '<script src="/static/app.js"></script>'
            assert script in text, "web/index.html must load /static/app.js"
            self._page = text.replace(
                script, '<script type="module" src="/static/activity/activity.js"></script>'
            )
        return web.Response(text=self._page, content_type="text/html", headers={"Cache-Control": "no-store"})

    # ------------------------------------------------------------------------------------- handlers

    async def _config(self, request: web.Request) -> web.Response:
        if not self.board.client_id:
            raise web.HTTPServiceUnavailable(
                text="the Activity needs DISCORD_CLIENT_ID and DISCORD_CLIENT_SECRET"
            )
        locale = self.board._locale(request, await self.board._session(request))
        tr = tr_for(locale)
        texts = {key: tr.translations.gettext(message) for key, message in ACTIVITY_TEXTS.items()}
        body = {
            "clientId": self.board.client_id,
            "parents": list(self.parents),
            "texts": texts,
            "locale": locale,
        }
        return web.json_response(body, headers={"Cache-Control": "no-store"})

    async def _token(self, request: web.Request) -> web.Response:
        """The code from the SDK's `authorize`, exchanged on this server: the page gets a session and the
        access token (for the SDK's `authenticate`: the user's own token, scope identify), never the
        client secret."""
        board = self.board
        if not board.client_id or not board.client_secret:
            raise web.HTTPServiceUnavailable(
                text="the Activity needs DISCORD_CLIENT_ID and DISCORD_CLIENT_SECRET"
            )
        try:
            code = board.exchange.check((await board._body(request)).get("code"), client_of(request))
        except Refused as refused:
            raise refused.http() from None
        try:
            user = await board.exchange.exchange(code)
        except Failed as error:
            log.warning("Activity login failed: %s", error)  # never the code or the token
            raise web.HTTPBadGateway(
                text="Discord did not confirm the login; open the Activity again"
            ) from None
        user_id, name, token = user.user_id, user.name, user.access_token
        locale = catalog_locale(user.locale)
        await board._rotate(request)
        cookie = board.signer.session_cookie(user_id, name, locale)
        session = board.signer.session(cookie)
        assert session is not None
        response = web.json_response(
            {
                "session": cookie,
                "csrf": session.csrf,
                "accessToken": token,
                "user": {"id": str(user_id), "name": name, "locale": locale},
            },
            headers={"Cache-Control": "no-store"},
        )
        board._set_session(response, user_id, name, locale, cookie)  # one session: header and cookie alike
        return response

    async def _signed_in(self, request: web.Request) -> Session:
        session: Session | None = await self.board._session(request)
        if session is None:
            raise web.HTTPUnauthorized(text="open the Activity from Discord to sign in")
        return session

    @staticmethod
    def _id(value: Any, what: str) -> int | None:
        if value in (None, "", "null"):
            return None
        text = str(value)
        if not is_ascii_digits(text) or len(text) > 19:
            raise web.HTTPBadRequest(text=f"{what} must be a Discord id")
        return int(text)

    async def _disabled(self, guild_id: int | None) -> bool:
        off: bool = await self.board.turned_off(guild_id)
        return off

    async def _verified(
        self, session: Session, instance_id: Any, channel_id: int | None, guild_id: int | None
    ) -> None:
        """The page says which channel it runs in; Discord says where the instance really runs and who is
        in it (`GET /applications/{id}/activity-instances/{instance}`, with the bot token): a channel the
        instance is not in, or a user who is not in the instance, is refused."""
        rest = self.board.rest
        if rest is None or not self.board.client_id:
            raise web.HTTPServiceUnavailable(
                text="the Activity needs DISCORD_TOKEN to check its instance with Discord"
            )
        if not isinstance(instance_id, str) or not INSTANCE_ID.fullmatch(instance_id):
            raise web.HTTPBadRequest(text="instance_id is required (the SDK's instanceId)")
        instance = await rest.activity_instance(self.board.client_id, instance_id)
        if (
            instance is None
            or instance.channel_id != channel_id
            or instance.guild_id != guild_id
            or session.user_id not in instance.users
        ):
            raise web.HTTPForbidden(text="this Activity is not running in that channel; open it again")

    async def _channel(self, request: web.Request) -> web.Response:
        """What the instance's channel offers the signed-in user: its match, waiting challenges, the user's
        own matches in this server, and the games to start."""
        session = await self._signed_in(request)
        if not self.board.reads.allow(str(session.user_id)):
            raise web.HTTPTooManyRequests(text="too many requests; wait a moment")
        channel_id = self._id(request.query.get("channel_id"), "channel_id")
        guild_id = self._id(request.query.get("guild_id"), "guild_id")
        if await self._disabled(guild_id):
            raise web.HTTPNotFound(text="this server has turned the web board off")
        await self._verified(session, request.query.get("instance_id"), channel_id, guild_id)
        service = self.board.service
        match: dict[str, Any] | None = None
        challenges: list[dict[str, Any]] = []
        if channel_id is not None:
            try:
                found = await service.matches.in_channel(channel_id)
            except ServiceError:
                found = None
            if found is not None and found.guild_id == guild_id:
                match = self._match_entry(found.id, found.game)
            for challenge in await service.challenges.pending(channel_id):
                if challenge.guild_id != guild_id:
                    continue
                names = await self.board.names([challenge.challenger_id, challenge.opponent_id])
                challenges.append(
                    {
                        "id": challenge.id,
                        "game": service.matches.rules(challenge.game).name,
                        "challenger": names.get(challenge.challenger_id, f"<{challenge.challenger_id}>"),
                        "opponent": names.get(challenge.opponent_id, f"<{challenge.opponent_id}>"),
                        "yours": challenge.opponent_id == session.user_id,
                    }
                )
        mine = [
            self._match_entry(m.id, m.game)
            for m in await service.matches.of_user(session.user_id)
            if m.guild_id == guild_id and (match is None or m.id != match["id"])
        ]
        games_list = []
        for game_id in games.GAME_IDS:
            rules = service.matches.rules(game_id)
            if 2 in rules.seats:
                games_list.append(
                    {
                        "id": game_id,
                        "name": rules.name,
                        "options": [o.name for o in rules.options],
                        "clocks": [control.text for control in presets(rules)],
                    }
                )
        asked = await self._asked(channel_id, session.user_id) if match is None else None
        tr = tr_for(self.board._locale(request, session))
        levels = [
            {"id": level, "name": level_word(level, tr), "default": level == DEFAULT_LEVEL}
            for level in LEVEL_IDS
        ]
        body = {"match": match, "challenges": challenges, "mine": mine, "games": games_list, "asked": asked}
        return web.json_response(body | {"levels": levels}, headers={"Cache-Control": "no-store"})

    async def _asked(self, channel_id: int | None, user_id: int) -> dict[str, str] | None:
        """The game (and options) this user asked for with /play in this channel lately, to start here."""
        if channel_id is None:
            return None
        kept = await self.board.service.store.get_meta(LAUNCH_KEY.format(channel_id=channel_id))
        try:
            launch = json.loads(kept) if kept else None
        except ValueError:
            return None
        if (
            not isinstance(launch, dict)
            or launch.get("user") != str(user_id)
            or launch.get("game") not in games.GAME_IDS
            or not isinstance(launch.get("at"), int | float)
        ):
            return None
        if self.board.service.now() - launch["at"] > LAUNCH_FRESH:
            await self.board.service.store.delete_meta(LAUNCH_KEY.format(channel_id=channel_id), kept)
            return None
        return {"game": str(launch["game"]), "options": str(launch.get("options", ""))}

    def _match_entry(self, match_id: int, game: str) -> dict[str, Any]:
        name = self.board.service.matches.rules(game).name
        return {"id": match_id, "game": name, "path": f"/m/{match_token(self.board.secret, match_id)}"}

    async def _start(self, request: web.Request) -> web.Response:
        """Start from the Activity as /play does: the same option parsing and checks (the service's), the
        same limits (one match per channel, open challenges per user and channel, allowed channels)."""
        session = await self.board._check_write(request)
        body = await self.board._body(request)
        channel_id = self._id(body.get("channel_id"), "channel_id")
        guild_id = self._id(body.get("guild_id"), "guild_id")
        if channel_id is None:
            raise web.HTTPBadRequest(text="channel_id is required")
        if await self._disabled(guild_id):
            raise web.HTTPNotFound(text="this server has turned the web board off")
        await self._verified(session, body.get("instance_id"), channel_id, guild_id)
        game, text, opponent = body.get("game"), body.get("options") or "", body.get("opponent")
        locale = self.board._locale(request, session)
        tr = tr_for(locale)
        service = self.board.service
        if not isinstance(game, str) or game not in games.GAME_IDS or not isinstance(text, str):
            raise web.HTTPBadRequest(text="game must be one of " + ", ".join(games.GAME_IDS))
        clock = body.get("clock") or ""
        if not isinstance(clock, str):
            raise web.HTTPBadRequest(text='clock must be text, like "5+3"')
        try:
            given = given_options(service.matches.rules(game), text)
            if clock:
                given["clock"] = clock  # a live control, checked with the rest of the options
        except ServiceError as error:
            return web.json_response({"ok": False, "error": tr.error(error)}, status=409)
        try:
            if opponent == "bot":
                assert self.board.client_id is not None
                match = await service.challenges.play_bot(
                    game,
                    given,
                    session.user_id,
                    bot_id=int(self.board.client_id),
                    level=str(body.get("level") or DEFAULT_LEVEL),
                    guild_id=guild_id,
                    channel_id=channel_id,
                )
                self.board.announce_later(match, session.user_id)  # its first board, as /play posts it
                await forget_launch(service.store, channel_id, session.user_id)
                return web.json_response({"ok": True, "match": self._match_entry(match.id, match.game)})
            opponent_id = self._id(opponent, "opponent")
            if opponent_id is None:
                raise web.HTTPBadRequest(text='opponent must be "bot" or a user id')
            challenge = await service.challenges.create(
                game, given, session.user_id, opponent_id, guild_id=guild_id, channel_id=channel_id
            )
        except (ServiceError, InvalidOptions) as error:
            return web.json_response({"ok": False, "error": tr.error(error)}, status=409)
        await forget_launch(service.store, channel_id, session.user_id)
        return web.json_response({"ok": True, "challenge": challenge.id})

    async def _accept(self, request: web.Request) -> web.Response:
        session = await self.board._check_write(request)
        body = await self.board._body(request)
        challenge_id = body.get("challenge_id")
        if not isinstance(challenge_id, int):
            raise web.HTTPBadRequest(text='send {"challenge_id": <number>}')
        tr = tr_for(self.board._locale(request, session))
        service = self.board.service
        try:
            challenge = await service.challenges.get(challenge_id)
            if await self._disabled(challenge.guild_id):
                raise web.HTTPNotFound(text="this server has turned the web board off")
            match = await service.challenges.accept(challenge_id, session.user_id)
        except ServiceError as error:
            return web.json_response({"ok": False, "error": tr.error(error)}, status=409)
        self.board.announce_later(match, session.user_id)  # its first board, as an accept in Discord posts it
        return web.json_response({"ok": True, "match": self._match_entry(match.id, match.game)})
