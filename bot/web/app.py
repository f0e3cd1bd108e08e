"""The web board: a page per match over the same service as the Discord application (see bot/web/__init__).

Routes (`<t>` is a match's capability token `<id>-<key>`, security.py):
    GET  /m/<t>                     the page (web/index.html), framable by Discord (CSP frame-ancestors)
    GET  /me, /api/me               the viewer's own matches, those where it is their turn first
    GET  /api/m/<t>                 the match as JSON: board scene, players, moves, result, and for a seated
                                    player to move the legal moves as cells to click (bot/web/wire.py)
    GET  /api/m/<t>/clicks          a seated player's legal moves as cells to click and the buttons they may
                                    press, at the current ply
    GET  /api/m/<t>/events          server-sent events: on every change, within a second, the same JSON
                                    with the scene's diff and the new moves instead of the whole scene
    GET  /api/m/<t>/board/<ply>.png the board after `ply` moves (the Discord image)
    GET  /api/m/<t>/scene/<ply>     the board after `ply` moves as a scene (the page's replays)
    POST /api/m/<t>/move            {"move": notation, "ply": n}: through MatchService.play, the engine judges
    POST /api/m/<t>/action          {"action": resign | takeback | abort | draw | rematch | accept | decline
                                     | withdraw, "request": takeback | abort | draw | rematch}
    GET  /login, /auth/callback     Discord OAuth2 (authorization code, scope identify, state cookie)
    POST /logout, /logout/everywhere  this session, or every session of the user, revoked (sessions.py)

Under abuse (limits.py, forwarded.py, oauth.py): connections gated at the socket, event streams capped per
client and per match, board images cached and budgeted per client, limits keyed on the real client behind a
trusted proxy.
"""

from __future__ import annotations

import asyncio
import json
import logging
import re
import secrets
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any, Protocol
from urllib.parse import urlencode

from aiohttp import web

import renderer
from bot.drawing import ByteLRU
from bot.i18n import SOURCE_LOCALE, Tr, catalog_locale, tr_for
from bot.service import Service
from bot.service.analysis import Analyses
from bot.service.errors import ServiceError
from bot.service.guilds import LOCALES
from bot.service.records import (
    AbortRequested,
    Finished,
    MatchView,
    Played,
    RematchRecord,
    RematchScore,
    TakebackRequested,
    TakenBack,
)
from bot.service.rematches import score_text
from bot.service.store.base import MatchChange
from bot.service.tournaments.live import Berserked
from bot.web.actions import (
    ANSWERS,
    DRAWS_AND_REMATCHES,
    LIVE_ACTIONS,
    MATCH_ACTIONS,
    REQUESTS,
    RequestClosed,
    draw_actions,
    draw_pending,
    pending,
    perform,
    perform_live,
    rematch_actions,
    viewer_actions,
)
from bot.web.activity import DISCORD_PARENTS, SESSION_HEADER, Activity
from bot.web.discord_api import DiscordRest
from bot.web.forwarded import TrustedProxies
from bot.web.limits import (
    BUSY_RETRY_MS,
    HEADER_TIMEOUT,
    IMAGE_CACHE_BYTES,
    PER_PEER,
    RENDER_BURST,
    RENDER_QUEUE,
    RENDER_RATE,
    RENDER_SLOTS,
    ConnectionGate,
    GatedSite,
    StreamCaps,
    client_of,
    connection_budget,
    loud_logs,
    quiet_logs,
    raise_descriptor_limit,
)
from bot.web.live import Group, Hub, NoGuild, Subscriber, sse_frame
from bot.web.oauth import Failed, Refused, TokenExchange
from bot.web.review import Review
from bot.web.scenes import Scenes
from bot.web.security import (
    SESSION_COOKIE,
    SESSION_MAX_AGE,
    STATE_COOKIE,
    STATE_MAX_AGE,
    WEB_DIR,
    RateLimiter,
    Session,
    Signer,
    match_token,
    parse_token,
    safe_next,
)
from bot.web.sessions import Sessions
from bot.web.texts import PAGE_TEXTS
from bot.web.wire import Sent, compact_clicks, packed, scene_payload, web_scene
from games.base import MoveError, clickable_moves, replay
from renderer import canvas
from renderer import text as wording
from renderer.scene import Scene, with_clocks
from renderer.theme import THEME_NAMES

log = logging.getLogger("tessera.web")

MENTION = re.compile(r"<@!?([0-9]+)>")
"""A Discord user mention in a service error's text."""
IMAGE_SIZE = 960
"""The width of the board image the page shows: the Discord image's."""
APP_SCRIPT = '<script src="/static/app.js"></script>'
"""How web/index.html loads the page's scripts (the match's state goes in front of it)."""
COMPRESSED_FILES = frozenset({".html", ".js", ".css", ".svg", ".json"})
COMPRESSED_TYPES = frozenset({"application/json", "text/html", "text/plain"})
KEEPALIVE = 20.0
"""Seconds between comments on an idle event stream (proxies close silent connections)."""
FRAME_ANCESTORS = "'self' https://discord.com https://*.discord.com https://*.discordsays.com"
CSP = (
    "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; connect-src 'self'; "
    "base-uri 'none'; form-action 'self'; object-src 'none'; "
    "frame-ancestors " + FRAME_ANCESTORS
)

SESSION_KEY: web.RequestKey[Session | None] = web.RequestKey("tessera.session")
"""A request's checked session, once asked for (`WebBoard._session`)."""
Names = Callable[[Sequence[int]], Awaitable[Mapping[int, str]]]
Analysed = Callable[[int], Any]
"""The cached post-game analysis of a match (`Analyses.cached`: a `MatchAnalysis`), or None."""
Announce = Callable[[Any, int], Awaitable[None]]
"""Called with what a web request changed (`ANNOUNCED`) and the user who made it, after the change: the
bot process posts the new board (or the request, with its buttons) in the match's channel, so Discord sees
web moves and requests too."""


ANNOUNCED = (
    Played,
    Finished,
    TakenBack,
    TakebackRequested,
    AbortRequested,
    RequestClosed,
    Berserked,
    *DRAWS_AND_REMATCHES,
)
"""What a web request's result may be that Discord is told of (a started match too: `announce_later`)."""


class DemoPages(Protocol):
    """The local demo's own pages (bot/web/demo.py)."""

    def index(self) -> web.Response: ...

    def routes(self, app: web.Application) -> None: ...


async def _no_names(user_ids: Sequence[int]) -> Mapping[int, str]:
    return {}


def page_texts(tr: Tr) -> dict[str, str]:
    """The page's words in the language of `tr`."""
    return {key: tr.translations.gettext(message) for key, message in PAGE_TEXTS.items()}


def _compressed(data: Any) -> web.Response:
    """A JSON answer, compressed where the client takes it (every browser): a TilingKing player's first
    state is a few kilobytes on the wire instead of tens."""
    response = web.json_response(data, dumps=lambda d: json.dumps(d, separators=(",", ":")))
    response.enable_compression()
    return response


class WebBoard:
    """The web application over one service. `names` looks up display names of user ids (the bot's member
    cache; a web process of its own shows "Player 1"); `demo_users` enables `/demo/login/<id>` for the local
    demo, never set in production."""

    def __init__(
        self,
        service: Service,
        *,
        secret: str,
        base_url: str,
        client_id: str | None = None,
        client_secret: str | None = None,
        api_url: str = "https://discord.com/api",
        disabled_guilds: Sequence[int] = (),
        names: Names = _no_names,
        demo_users: Mapping[int, str] | None = None,
        move_rate: float = 4.0,
        announce: Announce | None = None,
        analysed: Analysed | None = None,
        analyses: Callable[[], Analyses | None] | None = None,
        activity: bool = False,
        activity_parents: Sequence[str] | None = None,
        rest: DiscordRest | None = None,
        trusted_proxies: Sequence[str] = (),
        stream_caps: StreamCaps | None = None,
        header_timeout: float = HEADER_TIMEOUT,
        per_peer: int = PER_PEER,
    ) -> None:
        self.service = service
        self.rest = rest
        """Bot-token calls to Discord (names in a web process of its own, the Activity's instance check);
        None without a bot token."""
        self.secret = secret
        self.base_url = base_url.rstrip("/")
        self.secure = self.base_url.startswith("https://")
        self.client_id = client_id
        self.client_secret = client_secret
        self.api_url = api_url.rstrip("/")
        self.disabled_guilds = frozenset(disabled_guilds)
        self.names = names
        self.demo_users = dict(demo_users or {})
        self._page_html: str | None = None
        self.demo: DemoPages | None = None
        """The local demo's start page and new-match form (bot/web/demo.py), never set in production."""
        self.signer = Signer(secret)
        self.sessions = Sessions(service.store)
        self.limits = RateLimiter(move_rate, 10)
        self.reads = RateLimiter(20.0, 60)
        self.proxies = TrustedProxies(trusted_proxies)
        self.streams = stream_caps or StreamCaps()
        self.header_timeout = header_timeout
        self.per_peer = per_peer
        self.gate: ConnectionGate | None = None
        """The connection gate of a started board (`start`); None in tests that serve `app()` themselves."""
        self.exchange: TokenExchange | None = (
            TokenExchange(self.api_url, client_id, client_secret) if client_id and client_secret else None
        )
        """The guarded way to Discord's token endpoint (oauth.py); None without the application's
        credentials."""
        self.hub = Hub(self._payload)
        self._pngs = ByteLRU(IMAGE_CACHE_BYTES)
        """Board images drawn, by (match, ply, version of the current one, locale, theme)."""
        self._drawings: dict[tuple[Any, ...], asyncio.Future[bytes]] = {}
        self.renders = RateLimiter(RENDER_RATE, RENDER_BURST)
        """New board images (cache misses) per client."""
        self._render_slots = asyncio.Semaphore(RENDER_SLOTS)
        self._render_waiting = 0
        self.render_queue = RENDER_QUEUE
        """Drawings that may wait for a slot; past this a new one is answered 503."""
        self.scenes = Scenes(service, lambda match, locale: self._player_names(match, tr_for(locale)))
        self._clicks: OrderedDict[tuple[int, int], list[list[Any]]] = OrderedDict()
        self._chain_scores: dict[int, RematchScore | None] = {}
        """The running score before each active match that is a rematch (None: not one), read once."""
        self._scenes: OrderedDict[tuple[Any, ...], Scene] = OrderedDict()
        self.sent = Sent()
        """The last scene and moves each (match, language, theme) stream was sent: updates are diffs."""
        self._runner: web.AppRunner | None = None
        self._listening: asyncio.Task[None] | None = None
        self._seen: dict[int, tuple[Any, ...]] = {}
        self._logs: dict[int, tuple[list[dict[str, Any]], Any, tuple[str, float]]] = {}
        self.announce = announce
        self.review = Review(service, analyses=analyses, cached=analysed, changed=self.hub.changed)
        self._announcing: set[asyncio.Task[None]] = set()
        self._streams: set[Subscriber] = set()
        self._stopping = False
        service.matches.add_match_listener(changed=lambda m: self.hub.changed(m.id))
        service.draws.listeners.append(self.hub.changed)  # an offer or an answer, made anywhere here
        service.rematches.listeners.append(self.hub.changed)
        self.origins = {self.base_url}
        """Origins whose state-changing requests are accepted (the Activity adds Discord's proxy)."""
        self.csp = CSP
        self.activity: Activity | None = None
        if activity:
            self.activity = Activity(self, parents=tuple(activity_parents or DISCORD_PARENTS))
            self.csp = CSP.replace(
                "frame-ancestors " + FRAME_ANCESTORS, "frame-ancestors " + self.activity.frame_ancestors
            )

    # ------------------------------------------------------------------------------------- links

    def link(self, match_id: int) -> str:
        """The match page's address (post it where the match is played)."""
        return f"{self.base_url}/m/{match_token(self.secret, match_id)}"

    # ------------------------------------------------------------------------------------- app

    def app(self) -> web.Application:
        app = web.Application(middlewares=[self.proxies.middleware, self._compress], client_max_size=4096)
        app.on_response_prepare.append(self._headers)
        app.router.add_get("/", self._index)
        app.router.add_get("/m/{token}", self._page)
        app.router.add_get("/me", self._mine_page)
        app.router.add_get("/api/me", self._mine)
        app.router.add_get("/api/m/{token}", self._state)
        app.router.add_get("/api/m/{token}/events", self._events)
        app.router.add_get("/api/m/{token}/clicks", self._clicks_of)
        app.router.add_get("/api/m/{token}/board/{ply:[0-9]{1,9}}.png", self._board)
        app.router.add_get("/api/m/{token}/scene/{ply:[0-9]{1,9}}", self._scene_at)
        app.router.add_post("/api/m/{token}/move", self._move)
        app.router.add_post("/api/m/{token}/action", self._action)
        app.router.add_post("/api/m/{token}/analyse", self._analyse)
        app.router.add_get("/login", self._login)
        app.router.add_get("/auth/callback", self._callback)
        app.router.add_post("/logout", self._logout)
        app.router.add_post("/logout/everywhere", self._logout_everywhere)
        if self.demo_users:
            app.router.add_get("/demo/login/{user}", self._demo_login)
        if self.demo is not None:
            self.demo.routes(app)
        if self.activity is not None:
            self.activity.routes(app)
        app.router.add_static("/static/", WEB_DIR, append_version=False)
        app.on_shutdown.append(self._end_streams)
        return app

    async def _end_streams(self, _app: web.Application) -> None:
        """On shutdown, end every open event stream at once: aiohttp waits for each handler before it stops,
        and a stream otherwise waits up to KEEPALIVE seconds for news (longer than a container's stop)."""
        self._stopping = True
        for subscriber in self._streams:
            subscriber.news.set()

    async def start(self, host: str, port: int) -> None:
        """Serve on host:port and listen for other processes' changes (PostgreSQL NOTIFY)."""
        quiet_logs()
        descriptors = raise_descriptor_limit()
        self.gate = ConnectionGate(
            budget=connection_budget(descriptors), per_peer=self.per_peer, exempt=self.proxies.trusts
        )
        self.streams.total = max(1, self.gate.budget - 64)  # room for page loads beside the streams
        # keepalive_timeout is aiohttp's idle timer, armed from the connection's opening too: a request whose
        # headers have not all come within it is closed (the header timeout).
        self._runner = web.AppRunner(self.app(), access_log=None, keepalive_timeout=self.header_timeout)
        await self._runner.setup()
        await GatedSite(self._runner, host, port, self.gate).start()
        self._listening = asyncio.get_running_loop().create_task(self._listen())

    async def close(self) -> None:
        if self.gate is not None:
            self.gate = None
            loud_logs()
        if self._listening is not None:
            self._listening.cancel()
        await self.review.close()
        self.hub.close()
        for task in list(self._announcing):
            await asyncio.wait({task}, timeout=5)
        if self._runner is not None:
            await self._runner.cleanup()
        if self.rest is not None:
            await self.rest.close()

    async def _listen(self) -> None:
        """Other processes' writes: the store's NOTIFY names the match that changed, which is published if
        anyone watches it (this process's own writes are published by the match service's listener); when
        listening (re)starts, every watched match is read again, since changes meanwhile were not heard
        (SQLite has a single process, so it never calls)."""
        try:
            await self.service.store.listen(self._woken, shards=NoGuild(), matches=self._match_changed)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("the web board cannot listen for other processes' changes")

    def _match_changed(self, change: MatchChange) -> None:
        if not change.own:
            self.hub.changed(change.match_id)

    def _woken(self) -> None:
        asyncio.get_running_loop().create_task(self._recheck())

    async def _recheck(self) -> None:
        for match_id in self.hub.watched():
            try:
                row = await self.service.matches.get(match_id)
            except ServiceError:
                continue
            except Exception:  # the database went away: its reconnection wakes this again
                log.exception("could not check match %s for changes", match_id)
                return
            seen = (row.ply, row.status, row.takeback, row.abort_votes)
            if self._seen.get(match_id) != seen:
                self._seen[match_id] = seen
                self.hub.changed(match_id)

    async def _headers(self, request: web.Request, response: web.StreamResponse) -> None:
        """Every answer's security headers, set as it is prepared: pages, streams and files, and errors too
        (a raised 404, a refused request, an unexpected 500), which a middleware's return path misses."""
        response.headers.setdefault("Content-Security-Policy", self.csp)
        response.headers.setdefault("X-Content-Type-Options", "nosniff")
        response.headers.setdefault("Referrer-Policy", "no-referrer")
        if request.path.startswith("/api/") and "Cache-Control" not in response.headers:
            response.headers["Cache-Control"] = "no-store"

    @web.middleware
    async def _compress(
        self, request: web.Request, handler: Callable[[web.Request], Awaitable[web.StreamResponse]]
    ) -> web.StreamResponse:
        """Text the page loads (its HTML, scripts, styles, the state's JSON) goes gzip- or deflate-compressed
        to a browser that accepts it: a phone on a slow network gets a fraction of the bytes. Event streams
        (prepared by their handler) and images are sent as they are."""
        response = await handler(request)
        if response.prepared:
            return response
        if isinstance(response, web.FileResponse):
            compressible = Path(request.path).suffix in COMPRESSED_FILES or request.path.startswith("/m/")
        elif isinstance(response, web.Response):
            body = response.body
            size = len(body) if isinstance(body, bytes | bytearray) else 0
            compressible = response.content_type in COMPRESSED_TYPES and size > 1024
        else:
            compressible = False
        if compressible:
            response.enable_compression()
        return response

    # ------------------------------------------------------------------------------------- helpers

    def _signed(self, request: web.Request) -> Session | None:
        """The session the request's cookie (or the Activity's header) signs, revoked or not."""
        return self.signer.session(request.headers.get(SESSION_HEADER) or request.cookies.get(SESSION_COOKIE))

    async def _session(self, request: web.Request) -> Session | None:
        """The request's session, unless a logout revoked it (sessions.py); asked once per request."""
        if SESSION_KEY in request:
            return request[SESSION_KEY]
        session = self._signed(request)
        if session is not None and not await self.sessions.valid(session):
            session = None
        request[SESSION_KEY] = session
        return session

    def _locale(self, request: web.Request, session: Session | None) -> str:
        asked = request.query.get("lang", "")
        if asked in LOCALES:
            return asked
        if session is not None and session.locale in LOCALES:
            return session.locale
        for part in request.headers.get("Accept-Language", "").split(","):
            code = part.split(";")[0].strip()
            for candidate in (code, code.replace("-", "_"), code.split("-")[0]):
                if candidate in LOCALES:
                    return candidate
            if catalog_locale(code) != SOURCE_LOCALE:
                return catalog_locale(code)
        return SOURCE_LOCALE

    @staticmethod
    def _theme(request: web.Request) -> str:
        theme = request.query.get("theme", "default")
        return theme if theme in THEME_NAMES else "default"

    async def _match(self, request: web.Request) -> MatchView:
        """The match a valid token names, in a server that allows the web board; 404 otherwise (the same
        answer for a wrong key and a missing match, so ids cannot be probed)."""
        match_id = parse_token(self.secret, request.match_info["token"])
        if match_id is None:
            raise web.HTTPNotFound(text="no such match")
        try:
            match = await self.service.matches.get(match_id)
        except ServiceError:
            raise web.HTTPNotFound(text="no such match") from None
        if await self.turned_off(match.guild_id):
            raise web.HTTPNotFound(text="this server has turned the web board off")
        return match

    async def turned_off(self, guild_id: int | None) -> bool:
        """Whether a server has no web board: the operator's WEB_DISABLED_GUILDS, or the server's own
        setting (/settings web_board; cached, and heard from other processes on PostgreSQL)."""
        if guild_id is None:
            return False
        if guild_id in self.disabled_guilds:
            return True
        return not (await self.service.guilds.settings(guild_id)).web_board

    async def _player_names(self, match: MatchView, tr: Tr) -> list[str]:
        from bot.boards import seat_name

        known = dict(await self.names([p.user_id for p in match.seats if not p.is_ai]))
        known.update({k: v for k, v in self.demo_users.items() if k not in known})
        return [seat_name(p, known, tr) for p in match.seats]

    async def _check_write(self, request: web.Request) -> Session:
        """A state-changing request: logged in, with this session's CSRF token, from this site, not too
        often."""
        session = await self._session(request)
        if session is None:
            raise web.HTTPUnauthorized(text="log in first")
        if not secrets.compare_digest(request.headers.get("X-CSRF-Token", ""), session.csrf):
            raise web.HTTPForbidden(text="missing or wrong CSRF token; reload the page")
        origin = request.headers.get("Origin")
        if (
            origin is not None
            and origin not in self.origins
            and origin != f"{request.scheme}://{request.host}"
        ):
            raise web.HTTPForbidden(text="requests from other sites are refused")
        if not self.limits.allow(str(session.user_id)):
            raise web.HTTPTooManyRequests(text="too many requests; wait a moment")
        return session

    # ------------------------------------------------------------------------------------- state

    async def _public(
        self, match: MatchView, locale: str, theme: str, *, full: bool = True
    ) -> dict[str, Any]:
        """Everything every viewer of this language and theme sees: with `full` (the first load) the whole
        scene and move list and the page's words; without (the live events) the scene's diff and the moves
        since the last event of this language and theme (`wire.Sent`), and not what never changes during a
        match (the page's words, the lists of choices)."""
        tr = tr_for(locale)
        rules = self.service.matches.rules(match.game)
        names = await self._player_names(match, tr)
        moves = await self._moves(match)
        last = moves[-1]["notation"] if moves else None
        with wording.using(tr.translations):
            status = canvas.status_text(rules, match.state, names, "", match.outcome)
        alt = renderer.alt_text(
            match.game,
            match.state,
            players=names,
            last_move=last,
            outcome=match.outcome,
            translations=tr.translations,
        )
        token = match_token(self.secret, match.id)
        query = urlencode({"lang": locale, "theme": theme})
        words = [
            {"move": w.notation, "label": tr.text(w.label), "irreversible": w.irreversible, "main": w.main}
            for w in (rules.word_moves(match.state) if match.is_active else ())
        ]
        data = {
            "id": match.id,
            "game": match.game,
            "gameName": rules.name,
            "ply": match.ply,
            "active": match.is_active,
            "toMove": match.to_move,
            "status": status,
            "alt": alt,
            "deadline": match.deadline,
            "players": [
                {
                    "seat": p.seat,
                    "name": names[p.seat],
                    "role": tr.text(rules.seat_label(match.state, p.seat)),
                    "ai": p.is_ai,
                    "userId": str(p.user_id),
                }
                for p in match.seats
            ],
            "words": words,
            "pending": pending(match, names) or await self._draw_pending(match, names),
            "rematch": await self._rematch(match, names),
            "image": f"/api/m/{token}/board/{match.ply}.png?{query}&v={self._version(match)}",
            "imageBase": f"/api/m/{token}/board/",
            "imageQuery": query,
            "locale": locale,
            "theme": theme,
        }
        data["turningPoints"] = await self.review.points(match)
        data["canAnalyse"] = self.review.can_analyse
        data["analysis"] = self.review.progress(match.id)
        data["spectators"] = self.hub.spectators(match.id)
        board = self._scene(match, names, last, locale)
        if match.time_control is not None:  # the clocks as they stand now; the page counts them down
            clocks = await self.service.matches.clocks(match)
            board = with_clocks(board, clocks, match.time_control.low_under)
            data["clock"] = match.time_control.text
        worded = [dict(m, text=tr.text(m["text"])) for m in moves]
        if full:
            data["scene"] = scene_payload(board)
            data["moves"] = worded
            data["texts"] = page_texts(tr)
            data["themes"] = list(THEME_NAMES)
            data["locales"] = list(LOCALES)
        else:
            data.update(self.sent.update(match.id, (locale, theme), board, worded))
        return data

    def _scene(self, match: MatchView, names: list[str], last: str | None, locale: str) -> Scene:
        """The board's scene as the page paints it (`wire.web_scene`), at the match's ply; the newest few
        hundred kept (every viewer's first load asks for the same)."""
        key = (match.id, self._version(match), locale, tuple(names))
        found = self._scenes.get(key)
        if found is None:
            built = renderer.board_scene(
                match.game,
                match.state,
                last_move=last,
                players=names,
                size=IMAGE_SIZE,
                outcome=match.outcome,
                translations=tr_for(locale).translations,
            )
            found = self._scenes[key] = web_scene(replace(built, ply=match.ply))
            while len(self._scenes) > 256:
                self._scenes.popitem(last=False)
        return found

    async def _moves(self, match: MatchView) -> list[dict[str, Any]]:
        """The move list with each move in words, replaying only the moves added since the last call (a
        whole replay per update would grow with the game); a takeback or a changed log starts again."""
        stored = await self.service.matches.log(match.id)
        rules = self.service.matches.rules(match.game)
        cached = self._logs.get(match.id)
        if cached is not None:
            done, state, key = cached
            if len(done) > len(stored) or (
                done and key != (stored[len(done) - 1].notation, stored[len(done) - 1].at)
            ):
                cached = None
        if cached is None:
            done, state = [], rules.new(len(match.seats), match.options, match.seed)
        done = list(done)
        for step in replay(rules, state, [(m.seat, m.notation) for m in stored[len(done) :]]):
            describe = (
                rules.seat_label(step.before, step.seat) + " resigns"
                if step.move is None
                else rules.describe(step.before, step.move)
            )
            number = None if step.move is None else rules.moves_played(step.before) + 1
            ply = len(done)
            done.append(
                {"ply": ply, "seat": step.seat, "number": number, "notation": step.notation, "text": describe}
            )
            state = step.after
        if stored:
            self._logs[match.id] = (done, state, (stored[-1].notation, stored[-1].at))
            while len(self._logs) > 256:
                self._logs.pop(next(iter(self._logs)))
        return done

    def _click_moves(self, match: MatchView, labels: Sequence[str]) -> list[list[Any]]:
        """The legal moves as cells, compact (`wire.compact_clicks`); computed once per position (TilingKing
        has thousands)."""
        key = (match.id, match.ply)
        cached = self._clicks.get(key)
        if cached is None:
            rules = self.service.matches.rules(match.game)
            cached = compact_clicks(clickable_moves(rules, match.state), labels)
            self._clicks[key] = cached
            while len(self._clicks) > 64:
                self._clicks.popitem(last=False)
        return cached

    async def _payload(self, match_id: int, group: Group) -> bytes | None:
        try:
            match = await self.service.matches.get(match_id)
        except ServiceError:
            return None
        self._seen[match_id] = (match.ply, match.status, match.takeback, match.abort_votes)
        self._prepare_image(match, *group)  # drawn now, while the event travels: ready when asked for
        return packed(await self._public(match, *group, full=False))

    async def _draw_pending(self, match: MatchView, names: Sequence[str]) -> dict[str, Any] | None:
        """The open draw offer of an active match, as `pending` shows a request."""
        return draw_pending(await self.service.draws.open_offer_in(match), names)

    async def _rematch(self, match: MatchView, names: Sequence[str]) -> dict[str, Any] | None:
        """A finished match's rematch as the page shows it: the open offer (who offered, the seats still
        to agree, when it lapses), the started rematch's page (`next`: the page moves there) and the
        running score of the chain (None for a match of no chain). An active rematch shows the score
        of the matches before it (read once per match)."""
        rematches = self.service.rematches
        by_user = {p.user_id: names[p.seat] for p in match.seats}
        if match.is_active:
            if match.id not in self._chain_scores:
                origin = await self.service.store.rematch_origin(match.id)
                self._chain_scores[match.id] = None if origin is None else await rematches.score(origin)
                while len(self._chain_scores) > 1024:
                    self._chain_scores.pop(next(iter(self._chain_scores)))
            before = self._chain_scores[match.id]
            if before is None:
                return None
            shown = score_text(before, [by_user.get(u, "?") for u in before.users])
            return {"offer": None, "next": None, "score": shown}
        record = await rematches.rematch_of(match.id)
        started = record is not None and record.new_match_id is not None
        if not started and await self.service.store.rematch_origin(match.id) is None:
            return None if record is None else self._rematch_offer(match, names, record, None)
        last = record.new_match_id if record is not None and record.new_match_id is not None else match.id
        score = await rematches.score(last)
        shown = score_text(score, [by_user.get(u, "?") for u in score.users])
        return self._rematch_offer(match, names, record, shown)

    def _rematch_offer(
        self, match: MatchView, names: Sequence[str], record: RematchRecord | None, score: str | None
    ) -> dict[str, Any]:
        offer = None
        if record is not None and record.is_open(self.service.now()):
            seat = match.seat_of(record.by_user)
            waiting = [p.seat for p in match.seats if not p.is_ai and p.user_id not in record.accepted]
            offer = {
                "seat": seat,
                "name": names[seat] if seat is not None else "",
                "waiting": waiting,
                "expires": record.expires_at,
            }
        new = record.new_match_id if record is not None else None
        return {
            "offer": offer,
            "next": f"/m/{match_token(self.secret, new)}" if new is not None else None,
            "score": score,
        }

    async def _private(
        self, match: MatchView, session: Session | None, locale: str, labels: Sequence[str]
    ) -> dict[str, Any]:
        """What only this viewer gets: who they are, their legal moves as clicks when they are to move
        (`wire.compact_clicks`), and the buttons they may press (`bot.web.actions.viewer_actions`)."""
        if session is None:
            return {
                "you": None,
                "clicks": [],
                "actions": [],
                "loginUrl": "/login",
                "demo": bool(self.demo_users),
            }
        seats = [p.seat for p in match.seats if p.user_id == session.user_id and not p.is_ai]
        clicks = self._click_moves(match, labels) if match.to_move in seats and match.is_active else []
        actions: list[dict[str, Any]] = []
        if seats and match.is_active:
            tr = tr_for(locale)
            names = await self._player_names(match, tr)
            log_rows = await self.service.matches.log(match)
            berserk = match.time_control is not None and await self.service.tournaments.berserk_allowed(
                match.id
            )
            actions = viewer_actions(match, session.user_id, log_rows, names, berserk=berserk)
            can_draw = getattr(self.service.matches.rules(match.game), "can_draw", True)
            offer = await self.service.draws.open_offer_in(match)
            actions[-1:-1] = draw_actions(match, session.user_id, offer, can_draw=can_draw, log=log_rows)
        elif seats:
            record = await self.service.rematches.rematch_of(match.id)
            offered = await self.service.rematches.offers_rematch(match)
            actions = rematch_actions(match, session.user_id, record, self.service.now(), offered=offered)
        return {
            "actions": actions,
            "you": {
                "name": session.name,
                "seats": seats,
                "csrf": session.csrf,
                "userId": str(session.user_id),
            },
            "clicks": clicks,
            "demo": bool(self.demo_users),
        }

    # ------------------------------------------------------------------------------------- handlers

    async def _index(self, request: web.Request) -> web.Response:
        if self.activity is not None and "frame_id" in request.query:
            return self.activity.page()  # Discord opens the Activity at its URL mapping's root
        if self.demo is not None:
            return self.demo.index()
        body = (
            "<!doctype html><meta charset=utf-8><title>Tessera</title>"
            "<h1>Tessera</h1><p>Open a board from its link under a board message in Discord.</p>"
        )
        return web.Response(text=body, content_type="text/html")

    async def _page(self, request: web.Request) -> web.StreamResponse:
        """The match page (web/index.html) with the match's state in it, as GET /api/m/<t> answers it for
        this viewer (a JSON data block, which no script runs): the page draws the board as soon as its
        scripts have loaded, without asking for it."""
        match = await self._match(request)
        if self.activity is not None and "frame_id" in request.query:
            return self.activity.page()
        if self._page_html is None:
            self._page_html = (WEB_DIR / "index.html").read_text(encoding="utf-8")
        text = self._page_html
        session = await self._session(request)
        if self.reads.allow(str(session.user_id) if session else (request.remote or "?")):
            data = await self._state_data(request, match, session)
            block = json.dumps(data, separators=(",", ":")).replace("<", "\\u003c")
            initial = f'<script type="application/json" id="initial">{block}</script>'
            text = text.replace(APP_SCRIPT, f"{initial}\n{APP_SCRIPT}")
        return web.Response(text=text, content_type="text/html", headers={"Cache-Control": "no-store"})

    async def _mine_page(self, request: web.Request) -> web.StreamResponse:
        response = web.FileResponse(WEB_DIR / "me.html")
        response.headers["Cache-Control"] = "no-store"
        return response

    async def _mine(self, request: web.Request) -> web.Response:
        """The viewer's own active matches, those where it is their turn first (the "my matches" page):
        each with its game, its players, its status line and its page's path."""
        session = await self._session(request)
        locale = self._locale(request, session)
        tr = tr_for(locale)
        texts = page_texts(tr)
        if session is None:
            return web.json_response({"you": None, "texts": texts, "matches": [], "locale": locale})
        if not self.reads.allow(str(session.user_id)):
            raise web.HTTPTooManyRequests(text="too many requests; wait a moment")
        matches = []
        for match in await self.service.matches.of_user_turn_first(session.user_id):
            if await self.turned_off(match.guild_id):
                continue
            rules = self.service.matches.rules(match.game)
            names = await self._player_names(match, tr)
            with wording.using(tr.translations):
                status = canvas.status_text(rules, match.state, names, "", match.outcome)
            matches.append(
                {
                    "id": match.id,
                    "game": rules.name,
                    "path": f"/m/{match_token(self.secret, match.id)}",
                    "players": names,
                    "yourTurn": match.user_to_move == session.user_id,
                    "status": status,
                    "deadline": match.deadline,
                }
            )
        you = {"name": session.name, "csrf": session.csrf}
        return web.json_response(
            {"you": you, "texts": texts, "matches": matches, "locale": locale},
            headers={"Cache-Control": "no-store"},
        )

    async def _state(self, request: web.Request) -> web.Response:
        session = await self._session(request)
        key = str(session.user_id) if session else client_of(request)
        if not self.reads.allow(key):
            raise web.HTTPTooManyRequests(text="too many requests; wait a moment")
        match = await self._match(request)
        data = await self._state_data(request, match, session)
        return _compressed(data)

    async def _clicks_of(self, request: web.Request) -> web.Response:
        """A seated player's legal moves as cells and the buttons they may press, at the match's current ply
        (none for anyone else): what a page asks for when a move gives its player the turn, instead of the
        whole state."""
        session = await self._session(request)
        key = str(session.user_id) if session else client_of(request)
        if not self.reads.allow(key):
            raise web.HTTPTooManyRequests(text="too many requests; wait a moment")
        match = await self._match(request)
        labels = renderer.board_scene(match.game, match.state, size=IMAGE_SIZE).labels
        private = await self._private(match, session, self._locale(request, session), labels)
        return _compressed(
            {
                "ply": match.ply,
                "toMove": match.to_move,
                "clicks": private["clicks"],
                "actions": private["actions"],
            }
        )

    async def _state_data(
        self, request: web.Request, match: MatchView, session: Session | None
    ) -> dict[str, Any]:
        """The state of `match` as this viewer sees it: the public part and their own."""
        locale = self._locale(request, session)
        data = await self._public(match, locale, self._theme(request))
        data.update(await self._private(match, session, locale, data["scene"]["labels"]))
        return data

    async def _events(self, request: web.Request) -> web.StreamResponse:
        """The match's live updates. A page gives the ply it shows (`?ply=`): a stream that opens on a
        match that has moved on since (a change between the page's fetch and its stream) sends the state at
        once, so the page catches up. Viewers who are not seated count as spectators."""
        match = await self._match(request)
        session = await self._session(request)
        group = (self._locale(request, session), self._theme(request))
        client = client_of(request)
        if self.streams.admit(client, match.id) is not None:
            return self._busy_stream(group[0])
        seated = session is not None and match.seat_of(session.user_id) is not None
        try:
            return await self._stream(request, match, group, seated)
        finally:
            self.streams.release(client, match.id)

    @staticmethod
    def _busy_stream(locale: str) -> web.Response:
        """A stream refused by its caps (limits.StreamCaps): one `busy` event with the reason in the viewer's
        language, and the browser asked to come back later rather than hold a connection."""
        text = tr_for(locale).translations.gettext(PAGE_TEXTS["busy"])
        body = f"retry: {BUSY_RETRY_MS}\n\nevent: busy\ndata: {json.dumps({'text': text})}\n\n"
        return web.Response(
            text=body, content_type="text/event-stream", headers={"Cache-Control": "no-store"}
        )

    async def _stream(
        self, request: web.Request, match: MatchView, group: Group, seated: bool
    ) -> web.StreamResponse:
        shown = request.query.get("ply", "")
        response = web.StreamResponse(
            headers={
                "Content-Type": "text/event-stream",
                "Cache-Control": "no-store",
                "X-Accel-Buffering": "no",
            }
        )
        await response.prepare(request)
        transport = request.transport
        subscriber = self.hub.subscribe(
            match.id,
            group,
            response.write,
            (lambda: transport.get_write_buffer_size()) if transport is not None else (lambda: 0),
            spectator=not seated,
        )
        self._streams.add(subscriber)
        if not seated:
            self.hub.recount(match.id)  # one more spectator: every page's count
        try:
            await response.write(b"retry: 1000\n\n")
            if shown.isdigit() and int(shown) != match.ply:
                payload = await self._payload(match.id, group)
                if payload is not None:
                    await response.write(sse_frame(payload))
            while not self._stopping:
                try:
                    async with asyncio.timeout(KEEPALIVE):  # no task per wait, unlike wait_for
                        await subscriber.news.wait()
                except TimeoutError:
                    await response.write(b": keepalive\n\n")
                    continue
                if self._stopping:
                    break
                subscriber.news.clear()
                latest = self.hub.latest(subscriber)
                if latest is not None and latest[0] != subscriber.sent:
                    subscriber.sent = latest[0]
                    await response.write(sse_frame(latest[1]))
        except (ConnectionResetError, asyncio.CancelledError):
            pass
        finally:
            self._streams.discard(subscriber)
            self.hub.unsubscribe(subscriber)
            if not seated and not self._stopping:
                self.hub.recount(match.id)
        return response

    async def _board(self, request: web.Request) -> web.Response:
        match = await self._match(request)
        ply = int(request.match_info["ply"])
        if ply > match.ply:
            raise web.HTTPNotFound(text="that move has not been played")
        locale = self._locale(request, await self._session(request))
        theme = self._theme(request)
        png = await self._image(match, ply, locale, theme, client_of(request))
        # The board at a ply never changes once the match is over, nor the current one under its version
        # (a change of the match, a takeback included, makes a new one): such images may be cached anywhere
        # (a reverse proxy answers the spectators' fetches then); anything else must be asked again.
        fixed = not match.is_active if ply < match.ply else request.query.get("v") == self._version(match)
        headers = {"Cache-Control": "public, max-age=86400, immutable" if fixed else "no-store"}
        return web.Response(body=png, content_type="image/png", headers=headers)

    async def _scene_at(self, request: web.Request) -> web.Response:
        """The board after `ply` moves as a scene (the page's replays), cached like the images."""
        match = await self._match(request)
        ply = int(request.match_info["ply"])
        if ply > match.ply:
            raise web.HTTPNotFound(text="that move has not been played")
        locale = self._locale(request, await self._session(request))
        body = await self.scenes.of(match, ply, locale)
        # a finished match's boards never change; an active one's may (a takeback, then another move)
        headers = {"Cache-Control": "public, max-age=86400, immutable" if not match.is_active else "no-store"}
        return web.Response(body=body, content_type="application/json", headers=headers)

    @staticmethod
    def _version(match: MatchView) -> str:
        """Changes with every change of the match (its last write's time and its status)."""
        return f"{match.status.value}{round(match.updated_at * 1000)}"

    async def _image(
        self, match: MatchView, ply: int, locale: str, theme: str, client: str | None = None
    ) -> bytes:
        """The board PNG: from the cache (the newest `IMAGE_CACHE_BYTES`), or drawn once however many
        viewers ask at the same moment (the first asks the renderer; the others wait for the same drawing).
        A drawing a `client` asks for counts against its own budget (limits.RENDER_RATE: a client cannot
        keep the renderer busy); RENDER_SLOTS draw at once, RENDER_QUEUE may wait (past that 503)."""
        key = self._image_key(match, ply, locale, theme)
        png = self._pngs.get(key)
        if png is not None:
            return png
        drawing = self._drawings.get(key)
        if drawing is None:
            if client is not None and not self.renders.allow(client):
                raise web.HTTPTooManyRequests(
                    text="too many new board images from your address; wait a moment"
                )
            drawing = self._draw(key, match, ply, locale, theme)
            if drawing is None:
                raise web.HTTPServiceUnavailable(text="the board images are busy; try again in a moment")
        return await asyncio.shield(drawing)

    def _image_key(self, match: MatchView, ply: int, locale: str, theme: str) -> tuple[Any, ...]:
        """The current board and any board of a match still going are keyed by the match's version: a
        takeback then another move gives an earlier ply a new board. A finished
        match's boards never change."""
        versioned = ply == match.ply or match.is_active
        return (match.id, ply, self._version(match) if versioned else "", locale, theme)

    def _draw(
        self, key: tuple[Any, ...], match: MatchView, ply: int, locale: str, theme: str
    ) -> asyncio.Future[bytes] | None:
        """Start drawing `key` (None when RENDER_QUEUE drawings already wait); kept in the cache once done."""
        if self._render_waiting >= self.render_queue:
            return None
        drawing = asyncio.ensure_future(self._render_in_turn(match, ply, locale, theme))
        self._drawings[key] = drawing

        def done(future: asyncio.Future[bytes]) -> None:
            self._drawings.pop(key, None)
            if not future.cancelled() and future.exception() is None:
                self._pngs.put(key, future.result())

        drawing.add_done_callback(done)
        return drawing

    def _prepare_image(self, match: MatchView, locale: str, theme: str) -> None:
        """Draw the current board now (a change is being published: its viewers will ask for it), unless it
        is cached, being drawn, or the renderer is full."""
        key = self._image_key(match, match.ply, locale, theme)
        if self._pngs.get(key) is None and key not in self._drawings:
            self._draw(key, match, match.ply, locale, theme)

    async def _render_in_turn(self, match: MatchView, ply: int, locale: str, theme: str) -> bytes:
        self._render_waiting += 1
        try:
            async with self._render_slots:
                return await self._render(match, ply, locale, theme)
        finally:
            self._render_waiting -= 1

    async def _render(self, match: MatchView, ply: int, locale: str, theme: str) -> bytes:
        tr = tr_for(locale)
        rules = self.service.matches.rules(match.game)
        names = await self._player_names(match, tr)
        state, last, outcome = match.state, None, match.outcome
        log_rows = await self.service.matches.log(match.id)
        if log_rows:
            last = log_rows[ply - 1].notation if ply else None
        if ply != match.ply:
            start = rules.new(len(match.seats), match.options, match.seed)
            pairs = [(m.seat, m.notation) for m in log_rows[:ply]]
            state = start
            for step in replay(rules, start, pairs):
                state = step.after
            outcome = None
        return await asyncio.to_thread(
            renderer.render,
            match.game,
            state,
            last_move=last,
            players=names,
            theme=theme,
            size=IMAGE_SIZE,
            outcome=outcome,
            translations=tr.translations,
        )

    async def _answer(
        self, request: web.Request, work: Callable[[], Awaitable[Any]], match: MatchView
    ) -> web.Response:
        session = await self._session(request)
        locale = self._locale(request, session)
        try:
            result = await work()
        except (ServiceError, MoveError) as error:
            tr = tr_for(locale)
            text = await self._unmention(tr.error(error), match, tr)
            return web.json_response({"ok": False, "error": text}, status=409)
        if session is not None and isinstance(result, ANNOUNCED):
            self.announce_later(result, session.user_id)
        return web.json_response({"ok": True})

    async def _unmention(self, text: str, match: MatchView, tr: Tr) -> str:
        """`text` with Discord's user mentions (`<@id>`, which a page cannot show) as the players' names."""
        ids = [int(found) for found in MENTION.findall(text)]
        if not ids:
            return text
        names = dict(zip((p.user_id for p in match.seats), await self._player_names(match, tr), strict=True))
        missing = [i for i in ids if i not in names]
        if missing:
            names.update(await self.names(missing))
        someone = tr.translations.gettext(PAGE_TEXTS["someone"])
        return MENTION.sub(lambda m: names.get(int(m.group(1)), someone), text)

    def announce_later(self, result: object, user_id: int) -> None:
        """Have the bot process post `result` in Discord (`announce`), after this request's answer."""
        if self.announce is None:
            return
        task = asyncio.get_running_loop().create_task(self._announce(result, user_id))
        self._announcing.add(task)
        task.add_done_callback(self._announcing.discard)

    async def _announce(self, result: object, user_id: int) -> None:
        assert self.announce is not None
        try:
            await self.announce(result, user_id)
        except Exception:
            log.exception("could not post the board of a web move", extra={"kind": "web_post"})

    async def _move(self, request: web.Request) -> web.Response:
        session = await self._check_write(request)
        match = await self._match(request)
        body = await self._body(request)
        move, ply = body.get("move"), body.get("ply")
        if not isinstance(move, str) or not isinstance(ply, int):
            raise web.HTTPBadRequest(text='send {"move": "<notation>", "ply": <number>}')
        return await self._answer(
            request,
            lambda: self.service.matches.play(match.id, session.user_id, move, expected_ply=ply),
            match,
        )

    async def _action(self, request: web.Request) -> web.Response:
        session = await self._check_write(request)
        match = await self._match(request)
        body = await self._body(request)
        action, kind = body.get("action"), body.get("request")
        known = (*MATCH_ACTIONS, *LIVE_ACTIONS, *ANSWERS)
        if action not in known:
            raise web.HTTPBadRequest(text=f"action must be one of {', '.join(known)}")
        if kind not in (None, *REQUESTS):
            raise web.HTTPBadRequest(text=f"request must be one of {', '.join(REQUESTS)}")
        live = action in LIVE_ACTIONS or kind in ("draw", "rematch")
        act = perform_live if live else perform
        answer = await self._answer(
            request, lambda: act(self.service, match, session.user_id, str(action), kind), match
        )
        self.hub.changed(match.id)  # a vote or a withdrawn request does not always commit a change
        return answer

    async def _analyse(self, request: web.Request) -> web.Response:
        """Analyse a finished match (the page's Analyse button): started now, its progress and turning
        points reach the page through its stream."""
        session = await self._check_write(request)
        match = await self._match(request)
        if not self.review.can_analyse:
            raise web.HTTPNotFound(text="this board cannot analyse matches; use Analyse in Discord")
        return await self._answer(request, lambda: self.review.start(match, session.user_id), match)

    @staticmethod
    async def _body(request: web.Request) -> dict[str, Any]:
        try:
            body = await request.json()
        except (ValueError, UnicodeDecodeError, RecursionError):  # RecursionError: nested too deep
            raise web.HTTPBadRequest(text="send JSON") from None
        if not isinstance(body, dict):
            raise web.HTTPBadRequest(text="send a JSON object")
        return body

    # ------------------------------------------------------------------------------------- login

    def _set_session(
        self, response: web.StreamResponse, user_id: int, name: str, locale: str, cookie: str | None = None
    ) -> None:
        """Set the session cookie: `cookie`, or a new session's."""
        response.set_cookie(
            SESSION_COOKIE,
            cookie or self.signer.session_cookie(user_id, name, locale),
            max_age=SESSION_MAX_AGE,
            httponly=True,
            secure=self.secure,
            samesite="None" if self.secure else "Lax",  # None lets the page work framed inside Discord
            path="/",
        )

    async def _rotate(self, request: web.Request) -> None:
        """A login replaces the session the browser held (if any): that one is revoked, so a session fixed
        or copied before the login does not live on beside the new one."""
        held = self._signed(request)
        if held is not None:
            await self.sessions.log_out(held)

    async def _login(self, request: web.Request) -> web.Response:
        if not self.client_id or not self.client_secret:
            raise web.HTTPServiceUnavailable(text="login is not configured (DISCORD_CLIENT_ID/SECRET)")
        state = secrets.token_urlsafe(24)
        query = urlencode(
            {
                "client_id": self.client_id,
                "redirect_uri": f"{self.base_url}/auth/callback",
                "response_type": "code",
                "scope": "identify",
                "state": state,
                "prompt": "none",
            }
        )
        response = web.HTTPFound(f"{self.api_url}/oauth2/authorize?{query}")
        response.set_cookie(
            STATE_COOKIE,
            self.signer.state_cookie(state, safe_next(request.query.get("next", "/"))),
            max_age=STATE_MAX_AGE,
            httponly=True,
            secure=self.secure,
            samesite="Lax",
            path="/auth/",
        )
        raise response

    async def _callback(self, request: web.Request) -> web.Response:
        expected = self.signer.state(request.cookies.get(STATE_COOKIE))
        given = request.query.get("state", "")
        if expected is None or not secrets.compare_digest(given, expected[0]):
            raise web.HTTPForbidden(text="the login expired or did not start here; try again")
        if not await self.sessions.use_state(expected[0]):  # single use, in every process
            raise web.HTTPForbidden(text="this login was already used; log in again")
        exchange = self.exchange
        assert exchange is not None
        try:
            code = exchange.check(request.query.get("code"), client_of(request))
        except Refused as refused:
            raise refused.http() from None
        try:
            user = await exchange.exchange(code, redirect_uri=f"{self.base_url}/auth/callback")
        except Failed as error:
            log.warning("Discord login failed: %s", error)  # never the code or the token
            raise web.HTTPBadGateway(text="Discord did not confirm the login; try again") from None
        response = web.HTTPFound(expected[1])
        await self._rotate(request)
        self._set_session(response, user.user_id, user.name, catalog_locale(user.locale))
        response.del_cookie(STATE_COOKIE, path="/auth/")
        raise response

    async def _logout(self, request: web.Request) -> web.Response:
        """End this session (revoked in the store: a copy of the cookie no longer works either)."""
        session = await self._check_write(request)
        await self.sessions.log_out(session)
        response = web.json_response({"ok": True})
        response.del_cookie(SESSION_COOKIE, path="/")
        return response

    async def _logout_everywhere(self, request: web.Request) -> web.Response:
        """End every session of this user, in every browser and the Activity."""
        session = await self._check_write(request)
        await self.sessions.log_out_everywhere(session.user_id)
        response = web.json_response({"ok": True})
        response.del_cookie(SESSION_COOKIE, path="/")
        return response

    async def _demo_login(self, request: web.Request) -> web.Response:
        """The local demo's login: pick a demo user (only with `demo_users`, never in production)."""
        try:
            user_id = int(request.match_info["user"])
        except ValueError:
            raise web.HTTPNotFound() from None
        if user_id not in self.demo_users:
            raise web.HTTPNotFound()
        response = web.HTTPFound(safe_next(request.query.get("next", "/")))
        self._set_session(response, user_id, self.demo_users[user_id], self._locale(request, None))
        raise response
