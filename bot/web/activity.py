"""Tessera as a Discord Activity: the web board inside Discord's frame (issues 28 and 44).

Discord loads the Activity at the root of its URL mapping with `?frame_id=...&instance_id=...&platform=...`
(and `channel_id`, `guild_id`); `WebBoard` answers such a request with the match page whose script is
`web/activity/activity.js` instead of `app.js`. That script does the Embedded App SDK's handshake, asks
Discord to `authorize` the `identify` and `rpc.activities.write` scopes, and sends the code here:

    GET  /api/activity/config           the application's client id (public), the page's words
    POST /api/activity/token            {"code"}: exchanged at Discord's token endpoint with the client secret
                                        (which never reaches the page) for the user; answers the same signed
                                        session as the browser login (also set as the cookie), which the page
                                        sends back in the `X-Tessera-Session` header: inside Discord's frame
                                        the site's cookies are third-party and browsers may drop them
    GET  /api/activity/channel          ?channel_id&guild_id&instance_id: the channel's match (its page), the
                                        challenges and tables for more waiting there, the instance's tables
                                        (its people's matches in this server), the game cards (seats,
                                        picture, option controls, the bot's rating per level) and presets;
                                        the instance is checked with Discord first (its channel, its guild,
                                        the user in it: `_verified`), so a page cannot name a channel it is
                                        not in
    POST /api/activity/start            {"channel_id", "guild_id", "instance_id", "game", "preset", "rated",
                                        "options", "opponent" | "opponents"}: (the instance checked as
                                        above) a match against the bot, a challenge, or a table for three or
                                        four, with /play's options and limits
    POST /api/activity/accept           {"challenge_id"}: the challenged player accepts in the Activity
    POST /api/activity/join             {"lobby_id"}: one of the people picked joins a table for more; the
                                        last one starts it
    POST /api/activity/withdraw         {"challenge_id"} | {"lobby_id"}: its maker withdraws a waiting
                                        challenge, or closes a table for more still gathering
    GET  /api/activity/picture/<g>.png  a game card's picture
    GET  /api/activity/after/<t>        a finished match's players and their running score (end screen)

Only the Discord client may frame it: production's CSP says `frame-ancestors` Discord, and the page itself
refuses to start when it is framed by anything else (`parents`).

Several tables at once: whatever the Activity starts (a match against the bot, a challenge, a table for more)
is the channel's main match when the channel has none, else a side table beside it (`MatchRecord.side`):
played here and on its web page, its boards posted in the channel as any match's (their buttons name the
match), while the channel's commands (/move ...) keep acting on the main match.
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import json
import logging
import re
from collections.abc import Mapping
from typing import Any

from aiohttp import web
from PIL import Image

import games
import renderer
from bot.boards import level_word
from bot.i18n import catalog_locale, tr_for
from bot.service.errors import NotHost, ServiceError
from bot.service.options import given_options
from bot.service.records import LobbyStatus, MatchView
from bot.service.timecontrol import presets as clock_presets
from bot.web.activity_menu import (
    PRESET_IDS,
    given_mapping,
    option_controls,
    preset_options,
    presets,
    running_score,
)
from bot.web.discord_api import ActivityInstance
from bot.web.limits import client_of
from bot.web.oauth import Failed, Refused
from bot.web.security import WEB_DIR, Session, is_ascii_digits, match_token, parse_token
from games.ai.levels import LEVEL_IDS, NEW_PLAYER_LEVEL, level_rating
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
    "challenges": N_("Challenges waiting here"),
    "challenge_line": N_("{challenger} challenges {opponent} to {game}"),
    "accept": N_("Accept"),
    "start": N_("Start a match"),
    "against_bot": N_("Tessera (the bot)"),
    "clock": N_("Live clock"),
    "clock_hint": N_("{base} minutes each, {increment} seconds more a move"),
    "waiting": N_("Challenge sent: it starts when your opponent accepts it here or in the channel."),
    "who_here": N_("Who is here"),
    "pick_one": N_("Tap the person to play, or the bot."),
    "pick_up_to": N_("Tap the people to play (up to {count}), or the bot."),
    "invite": N_("Invite someone"),
    "bot_level": N_("Level {level}: rating {rating}"),
    "rated": N_("Rated"),
    "more_options": N_("All options"),
    "pick_first": N_("Tap who to play first (a person or the bot)."),
    "too_many": N_("{game} is for at most {count} players: tap fewer people."),
    "not_for_two": N_("{game} needs {count} players or more: tap more people."),
    "tables": N_("Tables"),
    "new_table": N_("New game"),
    "watch": N_("Watch"),
    "play": N_("Play"),
    "lobby_line": N_("{host} invites {players} to {game}"),
    "join": N_("Join"),
    "lobby_waiting": N_("Invitation sent: the game starts when everyone you picked has joined."),
    "new_game_with": N_("New game with {players}"),
    "replay": N_("Replay"),
    "score_line": N_("Score in {game}: {score}"),
    "draws": N_("Draws: {count}"),
    "status_playing": N_("Playing {game} against {opponents}"),
    "status_watching": N_("Watching {game}: {players}"),
    "status_move": N_("Move {ply}"),
    "status_over": N_("Game over: {result}"),
    "withdraw": N_("Withdraw"),
    "withdrawn": N_("Withdrawn: nothing waits for an answer now."),
    "side_table": N_("Side table"),
}
"""The Activity's own words (the match page's are bot/web/texts.py)."""


PICTURE_SIZE = 192
"""The most width or height of a game card's picture (a new board of the game, drawn by the renderer)."""
CARD_RENDER_SIZE = 640
BOARD_SHARE = 0.6
"""The share of the renderer's image that is the board (`renderer.canvas.page`'s default)."""
SCORE_HISTORY = 200
"""The newest finished matches of a player read for the running score."""
LOBBY_KEY = "activity-lobby:{lobby_id}"
"""The people an Activity's table for three or four was started for (the store's meta): only they may join."""

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


def _card_picture(game: str, state: Any) -> bytes:
    """A new board of `game` for its card: the renderer's image cut to the board (the page's left part,
    without its panel), `PICTURE_SIZE` pixels wide, as a PNG."""
    image = renderer.render_image(game, state, size=CARD_RENDER_SIZE)
    board = image.crop((0, 0, round(image.width * BOARD_SHARE), image.height))
    board.thumbnail((PICTURE_SIZE, PICTURE_SIZE))
    out = io.BytesIO()
    board.convert("P", palette=Image.Palette.ADAPTIVE, colors=64).save(out, "PNG", optimize=True)
    return out.getvalue()


async def forget_closed_tables(service: Any) -> int:
    """Delete the kept invitations (`LOBBY_KEY`) of tables for more that are no longer gathering (started,
    closed, gone): each new such table sweeps them, so the meta table keeps only the open ones'. The number
    deleted."""
    prefix = LOBBY_KEY.split("{", 1)[0]
    deleted = 0
    for key, value in (await service.store.meta_with_prefix(prefix)).items():
        try:
            lobby = await service.lobbies.get(int(key.removeprefix(prefix)))
        except (ServiceError, ValueError):
            lobby = None
        if lobby is None or lobby.status is not LobbyStatus.OPEN:
            deleted += await service.store.delete_meta(key, value)
    return deleted


def _csp_frame_ancestors(parents: tuple[str, ...]) -> str:
    return " ".join(("'self'", *parents, "https://*.discordsays.com"))


class Activity:
    """The Activity's routes over a `WebBoard` (its service, signer, session and CSRF checks; typed Any, as
    bot.web.app builds this and may not be imported back: no import cycle)."""

    def __init__(self, board: Any, *, parents: tuple[str, ...] = DISCORD_PARENTS) -> None:
        self.board = board
        self.parents = parents
        self._page: str | None = None
        self._pictures: dict[str, bytes] = {}
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
        app.router.add_post("/api/activity/join", self._join)
        app.router.add_post("/api/activity/withdraw", self._withdraw)
        app.router.add_get("/api/activity/picture/{game}.png", self._picture)
        app.router.add_get("/api/activity/after/{token}", self._after)

    def page(self) -> web.Response:
        """The match page with the Activity's script in place of app.js (which it loads once signed in)."""
        if self._page is None:
            text = (WEB_DIR / "index.html").read_text(encoding="utf-8")
            script = '<script src="/static/app.js"></script>'
            assert script in text, "web/index.html must load /static/app.js"
            viewport = '<meta name="viewport" content="width=device-width, initial-scale=1">'
            assert viewport in text, "web/index.html must have its viewport line"
            # the whole screen of a phone, its notch and rounded corners kept clear by activity.css's
            # safe-area padding
            self._page = text.replace(
                script, '<script type="module" src="/static/activity/activity.js"></script>'
            ).replace(viewport, viewport.replace("initial-scale=1", "initial-scale=1, viewport-fit=cover"))
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
    ) -> ActivityInstance:
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
        instance: ActivityInstance | None = await rest.activity_instance(self.board.client_id, instance_id)
        if (
            instance is None
            or instance.channel_id != channel_id
            or instance.guild_id != guild_id
            or session.user_id not in instance.users
        ):
            raise web.HTTPForbidden(text="this Activity is not running in that channel; open it again")
        return instance

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
        instance = await self._verified(session, request.query.get("instance_id"), channel_id, guild_id)
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
                        "mine": challenge.challenger_id == session.user_id,
                    }
                )
        mine = [
            self._match_entry(m.id, m.game)
            for m in await service.matches.of_user(session.user_id)
            if m.guild_id == guild_id and (match is None or m.id != match["id"])
        ]
        tr = tr_for(self.board._locale(request, session))
        games_list = []
        for game_id in games.GAME_IDS:
            rules = service.matches.rules(game_id)
            games_list.append(
                {
                    "id": game_id,
                    "name": rules.name,
                    "seats": list(rules.seats),
                    "picture": f"/api/activity/picture/{game_id}.png",
                    "controls": option_controls(rules, tr),
                    "ratings": {level: level_rating(game_id, level) for level in LEVEL_IDS},
                    "clocks": [control.text for control in clock_presets(rules)],
                }
            )
        asked = await self._asked(channel_id, session.user_id) if match is None else None
        levels = [
            {"id": level, "name": level_word(level, tr), "default": level == DEFAULT_LEVEL}
            for level in LEVEL_IDS
        ]
        body = {"match": match, "challenges": challenges, "mine": mine, "games": games_list, "asked": asked}
        body |= {
            "levels": levels,
            "presets": presets(tr),
            "tables": await self._tables(instance, guild_id),
            "lobbies": await self._lobbies(channel_id, guild_id, session.user_id),
            "bot": self.board.client_id,
        }
        return web.json_response(body, headers={"Cache-Control": "no-store"})

    async def _tables(self, instance: ActivityInstance, guild_id: int | None) -> list[dict[str, Any]]:
        """The tables of an instance: the active matches in this server of everyone in it, the instance's
        channel's first, each with its players and whose turn it is, for anyone there to watch or play."""
        service = self.board.service
        found: dict[int, MatchView] = {}
        for user in sorted(instance.users):
            for m in await service.matches.of_user(user):
                if m.guild_id == guild_id:
                    found.setdefault(m.id, m)
        tables = []
        for m in sorted(found.values(), key=lambda m: (m.channel_id != instance.channel_id, -m.id)):
            names = await self.board.names([p.user_id for p in m.seats if not p.is_ai])
            players = [
                {
                    "name": names.get(p.user_id, f"<{p.user_id}>") if not p.is_ai else "Tessera",
                    "userId": str(p.user_id),
                    "ai": p.is_ai,
                }
                for p in m.seats
            ]
            entry = self._match_entry(m.id, m.game) | {"players": players, "toMove": m.to_move}
            tables.append(entry | {"here": m.channel_id == instance.channel_id, "side": m.side})
        return tables

    async def _lobbies(
        self, channel_id: int | None, guild_id: int | None, user_id: int
    ) -> list[dict[str, Any]]:
        """The tables for three or four started in this channel's Activity and still gathering: who started
        it, who is invited, and whether this user may join."""
        if channel_id is None:
            return []
        service = self.board.service
        found = []
        for lobby in await service.lobbies.open_in(channel_id):
            invited = await self._invited(lobby.id)
            if lobby.guild_id != guild_id or invited is None:
                continue
            names = await self.board.names([lobby.host_id, *invited])
            joined = {m.user_id for m in lobby.members}
            found.append(
                {
                    "id": lobby.id,
                    "game": service.matches.rules(lobby.game).name,
                    "host": names.get(lobby.host_id, f"<{lobby.host_id}>"),
                    "players": [names.get(u, f"<{u}>") for u in invited],
                    "yours": user_id in invited and user_id not in joined,
                    "mine": lobby.host_id == user_id,
                }
            )
        return found

    async def _invited(self, lobby_id: int) -> list[int] | None:
        """The people a table for three or four was started for in the Activity (None: not one of them)."""
        kept = await self.board.service.store.get_meta(LOBBY_KEY.format(lobby_id=lobby_id))
        try:
            invited = json.loads(kept) if kept else None
        except ValueError:
            return None
        if not isinstance(invited, list) or not all(isinstance(u, int) for u in invited):
            return None
        return invited

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
        """Start from the Activity as /play does: the same option checks (the service's), the same limits
        (one match per channel, open challenges per user and channel, allowed channels). The page names the
        game, a preset (`PRESETS`) and rated or casual, the options changed from the game's defaults (a
        mapping; or /play's "name=value" text), and the opponent: "bot" (with a level), or the people picked
        from the instance's participants (`opponents`, user ids that Discord says are in the instance): one is
        challenged, two or three get a table for three or four that starts when they have all joined."""
        session = await self.board._check_write(request)
        body = await self.board._body(request)
        channel_id = self._id(body.get("channel_id"), "channel_id")
        guild_id = self._id(body.get("guild_id"), "guild_id")
        if channel_id is None:
            raise web.HTTPBadRequest(text="channel_id is required")
        if await self._disabled(guild_id):
            raise web.HTTPNotFound(text="this server has turned the web board off")
        instance = await self._verified(session, body.get("instance_id"), channel_id, guild_id)
        game, options, opponent = body.get("game"), body.get("options") or "", body.get("opponent")
        preset, rated = body.get("preset"), body.get("rated", True)
        locale = self.board._locale(request, session)
        tr = tr_for(locale)
        service = self.board.service
        if not isinstance(game, str) or game not in games.GAME_IDS:
            raise web.HTTPBadRequest(text="game must be one of " + ", ".join(games.GAME_IDS))
        if (preset is not None and preset not in PRESET_IDS) or not isinstance(rated, bool):
            raise web.HTTPBadRequest(
                text="preset must be one of " + ", ".join(PRESET_IDS) + "; rated true or false"
            )
        clock = body.get("clock") or ""
        if not isinstance(clock, str):
            raise web.HTTPBadRequest(text='clock must be text, like "5+3"')
        rules = service.matches.rules(game)
        try:
            if isinstance(options, str):
                given: dict[str, Any] = dict(given_options(rules, options))
            else:
                given = dict(given_mapping(options))
        except ValueError:
            raise web.HTTPBadRequest(text="options must map option names to values") from None
        except ServiceError as error:
            return web.json_response({"ok": False, "error": tr.error(error)}, status=409)
        if preset is not None or "rated" in body:
            given = preset_options(preset, rated) | given
        if clock:  # a live control instead of the preset's time per turn, checked with the other options
            given = {k: v for k, v in given.items() if k != "turn_timeout"} | {"clock": clock}
        opponents = self._opponents(body, instance, session.user_id)
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
                    side=True,
                )
                self.board.announce_later(match, session.user_id)  # its first board, as /play posts it
                await forget_launch(service.store, channel_id, session.user_id)
                return web.json_response({"ok": True, "match": self._match_entry(match.id, match.game)})
            if len(opponents) > 1:
                await forget_closed_tables(service)
                lobby = await service.lobbies.create(
                    game,
                    {k: v for k, v in given.items() if k != rules.first_seat.option},
                    session.user_id,
                    guild_id=guild_id,
                    channel_id=channel_id,
                    max_players=1 + len(opponents),
                    side=True,
                )
                await service.store.put_meta(LOBBY_KEY.format(lobby_id=lobby.id), json.dumps(opponents))
                await forget_launch(service.store, channel_id, session.user_id)
                return web.json_response({"ok": True, "lobby": lobby.id})
            opponent_id = opponents[0] if opponents else self._id(opponent, "opponent")
            if opponent_id is None:
                raise web.HTTPBadRequest(text='opponent must be "bot", or opponents the people picked')
            challenge = await service.challenges.create(
                game,
                given,
                session.user_id,
                opponent_id,
                guild_id=guild_id,
                channel_id=channel_id,
                side=True,
            )
        except (ServiceError, InvalidOptions) as error:
            return web.json_response({"ok": False, "error": tr.error(error)}, status=409)
        await forget_launch(service.store, channel_id, session.user_id)
        return web.json_response({"ok": True, "challenge": challenge.id})

    def _opponents(self, body: Mapping[str, Any], instance: ActivityInstance, user_id: int) -> list[int]:
        """The people picked to play (`opponents`): each must be in the instance (as Discord says), none
        twice, never the one who starts; at most three."""
        picked = body.get("opponents") or []
        if not isinstance(picked, list) or len(picked) > 3:
            raise web.HTTPBadRequest(text="opponents must be a list of up to three user ids")
        found: list[int] = []
        for value in picked:
            user = self._id(value, "opponents")
            if user is None or user == user_id or user in found:
                raise web.HTTPBadRequest(text="opponents must be other people, each once")
            if user not in instance.users:
                raise web.HTTPForbidden(text="pick people who are in this Activity")
            found.append(user)
        return found

    async def _join(self, request: web.Request) -> web.Response:
        """An invited player joins a table for three or four started in the Activity; the last one to join
        starts it (as its host asked when picking them), and everyone's page goes to the board."""
        session = await self.board._check_write(request)
        body = await self.board._body(request)
        lobby_id = body.get("lobby_id")
        if not isinstance(lobby_id, int) or isinstance(lobby_id, bool):
            raise web.HTTPBadRequest(text='send {"lobby_id": <number>}')
        tr = tr_for(self.board._locale(request, session))
        service = self.board.service
        invited = await self._invited(lobby_id)
        if invited is None or session.user_id not in invited:
            raise web.HTTPForbidden(text="only the people picked for this table may join it")
        try:
            lobby = await service.lobbies.get(lobby_id)
            if await self._disabled(lobby.guild_id):
                raise web.HTTPNotFound(text="this server has turned the web board off")
            lobby = await service.lobbies.join(lobby, session.user_id)
            if len(lobby.members) < lobby.max_players:
                return web.json_response({"ok": True, "lobby": lobby.id})
            match = await service.lobbies.start(lobby.id, lobby.host_id)
        except ServiceError as error:
            return web.json_response({"ok": False, "error": tr.error(error)}, status=409)
        await service.store.delete_meta(LOBBY_KEY.format(lobby_id=lobby_id), json.dumps(invited))
        self.board.announce_later(match, lobby.host_id)
        return web.json_response({"ok": True, "match": self._match_entry(match.id, match.game)})

    async def _withdraw(self, request: web.Request) -> web.Response:
        """Whoever made it withdraws a waiting challenge (as its Withdraw button in the channel does: the
        channel's message says so), or closes a table for more that is still gathering (its host leaving)."""
        session = await self.board._check_write(request)
        body = await self.board._body(request)
        challenge_id, lobby_id = body.get("challenge_id"), body.get("lobby_id")
        tr = tr_for(self.board._locale(request, session))
        service = self.board.service
        try:
            if isinstance(challenge_id, int) and not isinstance(challenge_id, bool):
                challenge = await service.challenges.get(challenge_id)
                if await self._disabled(challenge.guild_id):
                    raise web.HTTPNotFound(text="this server has turned the web board off")
                withdrawn = await service.challenges.withdraw(challenge, session.user_id)
                self.board.announce_later(withdrawn, session.user_id)
                return web.json_response({"ok": True, "challenge": withdrawn.id})
            if isinstance(lobby_id, int) and not isinstance(lobby_id, bool):
                lobby = await service.lobbies.get(lobby_id)
                if await self._disabled(lobby.guild_id):
                    raise web.HTTPNotFound(text="this server has turned the web board off")
                if lobby.host_id != session.user_id:
                    raise NotHost(host_id=lobby.host_id)
                await service.lobbies.leave(lobby, session.user_id)  # its host leaving closes it
                await forget_closed_tables(service)
                return web.json_response({"ok": True, "lobby": lobby.id})
        except ServiceError as error:
            return web.json_response({"ok": False, "error": tr.error(error)}, status=409)
        raise web.HTTPBadRequest(text='send {"challenge_id": <number>} or {"lobby_id": <number>}')

    async def _picture(self, request: web.Request) -> web.Response:
        """A game card's picture: a new board of the game (fewest players, default options), drawn once."""
        game = request.match_info["game"]
        if game not in games.GAME_IDS:
            raise web.HTTPNotFound(text="no such game")
        picture = self._pictures.get(game)
        if picture is None:
            rules = self.board.service.matches.rules(game)
            state = rules.new(rules.seats.start, {o.name: o.default for o in rules.options}, 1)
            picture = await asyncio.to_thread(_card_picture, game, state)
            self._pictures[game] = picture
        return web.Response(
            body=picture, content_type="image/png", headers={"Cache-Control": "public, max-age=86400"}
        )

    async def _after(self, request: web.Request) -> web.Response:
        """What the end screen of a finished match shows besides the page's result and actions: its players
        (for "new game with ...") and their running score in this game and server."""
        await self._signed_in(request)
        match_id = parse_token(self.board.secret, request.match_info["token"])
        if match_id is None:
            raise web.HTTPNotFound(text="no such match")
        service = self.board.service
        try:
            match = await service.matches.get(match_id)
        except ServiceError:
            raise web.HTTPNotFound(text="no such match") from None
        if await self._disabled(match.guild_id):
            raise web.HTTPNotFound(text="this server has turned the web board off")
        people = [p.user_id for p in match.seats if not p.is_ai]
        names = await self.board.names(people)
        players = [
            {"userId": str(p.user_id), "name": names.get(p.user_id, f"<{p.user_id}>"), "ai": p.is_ai}
            for p in match.seats
        ]
        entries = await service.history.finished(
            user_id=people[0] if people else None,
            guild_id=match.guild_id,
            game=match.game,
            limit=SCORE_HISTORY,
        )
        score = running_score(entries, [p.user_id for p in match.seats])
        body = {"game": match.game, "gameName": service.matches.rules(match.game).name}
        return web.json_response(
            body | {"players": players, "score": score}, headers={"Cache-Control": "no-store"}
        )

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
