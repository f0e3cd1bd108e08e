"""Exchanging an OAuth2 code at Discord's token endpoint, for the browser login (`/auth/callback`) and the
Activity (`/api/activity/token`), without letting strangers spend the application's own Discord rate limit.

Anyone can send a code, and each one sent on would be a request to Discord under the application's
credentials. So a code goes on only when:
- it has the shape of a Discord code (`CODE`: letters and digits; anything else is answered 400 here);
- its client (the real one, behind the proxy: forwarded.py) is within its own budget (`per_client`);
- the whole server is within its budget (`overall`): however many clients, the token endpoint is asked at
  most that often, so the login of a real user is slowed, never the bot's other work;
- Discord has not just answered 429: then nothing is sent until its Retry-After has passed;
- the same code was not refused a moment ago (a replayed junk code is answered from memory).
"""

from __future__ import annotations

import re
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import aiohttp
from aiohttp import web

from bot.web.security import RateLimiter, basic_auth

CODE = re.compile(r"[A-Za-z0-9]{16,64}")
"""What a Discord authorization code looks like (30 letters and digits today; some room either way)."""
REFUSED_KEPT = 4096
"""Codes Discord refused that are remembered (for `REFUSED_TTL` seconds each)."""
REFUSED_TTL = 600.0
DEFAULT_COOLDOWN = 5.0
"""Seconds nothing is sent after a 429 that names no Retry-After."""


class Refused(Exception):
    """The code is not sent on: `status` (400, 429 or 503) and a short text saying what to do."""

    def __init__(self, status: int, text: str) -> None:
        super().__init__(text)
        self.status = status
        self.text = text

    def http(self) -> web.HTTPException:
        """The answer to send."""
        if self.status == 400:
            return web.HTTPBadRequest(text=self.text)
        if self.status == 429:
            return web.HTTPTooManyRequests(text=self.text)
        return web.HTTPServiceUnavailable(text=self.text)


class Failed(Exception):
    """Discord did not confirm the login (a refused code, no answer, an odd answer); the kind is logged."""


@dataclass(frozen=True, slots=True)
class DiscordUser:
    """Who the code's user is, and their access token (scope identify: the Activity's SDK needs it)."""

    user_id: int
    name: str
    locale: str | None
    access_token: str


class TokenExchange:
    """The guarded way to Discord's token endpoint (see the module doc)."""

    def __init__(
        self,
        api_url: str,
        client_id: str,
        client_secret: str,
        *,
        per_client: RateLimiter | None = None,
        overall: RateLimiter | None = None,
        clock: Callable[[], float] = time.monotonic,
        timeout: float = 10.0,
    ) -> None:
        self.api_url = api_url.rstrip("/")
        self._auth = basic_auth(client_id, client_secret)
        self._clock = clock
        self.per_client = per_client or RateLimiter(1 / 6, 5, now=clock)
        """Each client: 5 codes at once, then one every 6 seconds."""
        self.overall = overall or RateLimiter(2.0, 20, now=clock)
        """Every client together: 20 at once, then 2 a second (Discord allows the application more)."""
        self._timeout = aiohttp.ClientTimeout(total=timeout)
        self._refused: OrderedDict[str, float] = OrderedDict()
        self._quiet_until = 0.0
        self.sent = 0
        """Codes sent on to Discord (a bench and the tests read it)."""

    def __repr__(self) -> str:  # never the client secret
        return f"TokenExchange({self.api_url!r})"

    def check(self, code: object, client: str) -> str:
        """The code, if it may be sent on now; raises Refused otherwise (nothing is sent)."""
        if not isinstance(code, str) or not CODE.fullmatch(code):
            raise Refused(400, "that is not a Discord authorization code; log in again")
        now = self._clock()
        refused_at = self._refused.get(code)
        if refused_at is not None and now - refused_at < REFUSED_TTL:
            raise Refused(400, "Discord refused that code; log in again")
        if now < self._quiet_until:
            wait = max(1, round(self._quiet_until - now))
            raise Refused(503, f"Discord is busy; try again in {wait} s")
        if not self.per_client.allow(client):
            raise Refused(429, "too many logins from your address; wait a minute")
        if not self.overall.allow("all"):
            raise Refused(503, "too many logins right now; try again in a few seconds")
        return code

    async def exchange(self, code: str, *, redirect_uri: str | None = None) -> DiscordUser:
        """Trade a checked code for its user (`check` it first); Failed when Discord does not confirm it."""
        data = {"grant_type": "authorization_code", "code": code}
        if redirect_uri is not None:
            data["redirect_uri"] = redirect_uri
        self.sent += 1
        try:
            async with aiohttp.ClientSession(timeout=self._timeout) as http:
                async with http.post(
                    f"{self.api_url}/oauth2/token", data=data, headers={"Authorization": self._auth}
                ) as answer:
                    if answer.status == 429:
                        self._quiet(answer.headers.get("Retry-After"))
                        raise Failed("rate limited")
                    if answer.status in (400, 401):
                        self._remember_refused(code)
                    answer.raise_for_status()
                    token = str((await answer.json())["access_token"])
                async with http.get(
                    f"{self.api_url}/users/@me", headers={"Authorization": f"Bearer {token}"}
                ) as answer:
                    if answer.status == 429:
                        self._quiet(answer.headers.get("Retry-After"))
                    answer.raise_for_status()
                    user: Any = await answer.json()
            return DiscordUser(
                int(user["id"]),
                str(user.get("global_name") or user.get("username") or "?"),
                user.get("locale") if isinstance(user.get("locale"), str) else None,
                token,
            )
        except (aiohttp.ClientError, TimeoutError, KeyError, ValueError, TypeError) as error:
            raise Failed(type(error).__name__) from None

    def _quiet(self, retry_after: str | None) -> None:
        try:
            wait = min(600.0, max(0.0, float(retry_after))) if retry_after else DEFAULT_COOLDOWN
        except ValueError:
            wait = DEFAULT_COOLDOWN
        self._quiet_until = max(self._quiet_until, self._clock() + wait)

    def _remember_refused(self, code: str) -> None:
        self._refused[code] = self._clock()
        self._refused.move_to_end(code)
        while len(self._refused) > REFUSED_KEPT:
            self._refused.popitem(last=False)
