"""What keeps the web board safe: capability links, signed sessions, CSRF tokens and per-user rate limits.

- A match page is reachable only by its link `/m/<id>-<key>`, where `key` is an HMAC of the match id under
  WEB_SECRET: unguessable, and derivable, so nothing new is stored and every process (bot shards, web
  processes) computes the same link. Ids alone lead nowhere; a wrong key answers 404 like a missing match.
- The session is a cookie signed with itsdangerous (user id, name, locale, CSRF token), never a Discord
  token: the OAuth2 access token is used once to ask who the user is, then dropped.
- Every state-changing request carries the session's CSRF token in a header (`X-CSRF-Token`), which a page
  of another site cannot read or send.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import secrets
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from itsdangerous import BadSignature, URLSafeTimedSerializer

WEB_DIR = Path(__file__).resolve().parents[2] / "web"
"""The browser side's static folder (no build step)."""
KEY_CHARS = 22
"""Characters of a match key: 22 base64url characters carry 132 bits."""
SESSION_COOKIE = "tessera_session"
STATE_COOKIE = "tessera_oauth_state"
SESSION_MAX_AGE = 30 * 24 * 3600
STATE_MAX_AGE = 600


def match_key(secret: str, match_id: int) -> str:
    """The unguessable part of a match's link."""
    digest = hmac.new(secret.encode(), f"match:{match_id}".encode(), hashlib.sha256).digest()
    return base64.urlsafe_b64encode(digest).decode()[:KEY_CHARS]


def match_token(secret: str, match_id: int) -> str:
    """`<id>-<key>`: the path segment of a match page."""
    return f"{match_id}-{match_key(secret, match_id)}"


def is_ascii_digits(text: str) -> bool:
    """Whether `text` is a non-empty run of 0-9 (`str.isdigit` also accepts "²" and other Unicode digits,
    which `int` refuses)."""
    return text.isascii() and text.isdigit()


def parse_token(secret: str, token: str) -> int | None:
    """The match id of a valid `<id>-<key>`, else None (compared in constant time)."""
    head, _, key = token.partition("-")
    if not is_ascii_digits(head) or len(head) > 19 or len(key) != KEY_CHARS:
        return None
    match_id = int(head)
    return match_id if hmac.compare_digest(key, match_key(secret, match_id)) else None


@dataclass(frozen=True, slots=True)
class Session:
    """A logged-in user: their Discord id and name, their language, the CSRF token of this session, the
    session's own id and when it was issued (what a logout revokes: sessions.py)."""

    user_id: int
    name: str
    locale: str
    csrf: str
    sid: str = ""
    issued: float = 0.0

    def to_json(self) -> dict[str, Any]:
        return {
            "u": str(self.user_id),
            "n": self.name,
            "l": self.locale,
            "c": self.csrf,
            "s": self.sid,
            "t": self.issued,
        }


class Signer:
    """Signs and checks the session cookie and the OAuth2 state cookie."""

    def __init__(self, secret: str) -> None:
        self._sessions = URLSafeTimedSerializer(secret, salt="tessera.session")
        self._states = URLSafeTimedSerializer(secret, salt="tessera.oauth-state")

    def session_cookie(self, user_id: int, name: str, locale: str) -> str:
        """A new session (its own id and CSRF token, issued now) as a signed cookie."""
        session = Session(
            user_id, name[:64], locale, secrets.token_urlsafe(24), secrets.token_urlsafe(18), time.time()
        )
        return self._sessions.dumps(session.to_json())

    def session(self, cookie: str | None) -> Session | None:
        """The session a cookie signs (a cookie from before session ids has its CSRF token as its id and
        counts as issued at 0: "log out everywhere" ends it too)."""
        if not cookie:
            return None
        try:
            data = self._sessions.loads(cookie, max_age=SESSION_MAX_AGE)
            csrf = str(data["c"])
            return Session(
                int(data["u"]),
                str(data["n"]),
                str(data["l"]),
                csrf,
                str(data.get("s") or csrf),
                float(data.get("t") or 0.0),
            )
        except (BadSignature, KeyError, TypeError, ValueError, AttributeError):
            return None

    def state_cookie(self, state: str, next_path: str) -> str:
        return self._states.dumps({"s": state, "next": next_path})

    def state(self, cookie: str | None) -> tuple[str, str] | None:
        if not cookie:
            return None
        try:
            data = self._states.loads(cookie, max_age=STATE_MAX_AGE)
            return str(data["s"]), str(data["next"])
        except (BadSignature, KeyError, TypeError, ValueError):
            return None


def safe_next(path: str) -> str:
    """Where to go after login: only a path on this site (`/m/...`), never another site."""
    return path if path.startswith("/m/") and "//" not in path and "\\" not in path else "/"


class RateLimiter:
    """A token bucket per key (a user id, or an address for anonymous requests): `rate` requests a second
    on average, bursts of `burst`."""

    def __init__(self, rate: float, burst: int, *, now: Any = time.monotonic) -> None:
        self.rate = rate
        self.burst = burst
        self._now = now
        self._buckets: dict[str, tuple[float, float]] = {}

    def allow(self, key: str) -> bool:
        now = self._now()
        tokens, at = self._buckets.get(key, (float(self.burst), now))
        tokens = min(float(self.burst), tokens + (now - at) * self.rate)
        if len(self._buckets) > 100_000:  # forget idle buckets rather than grow without end
            self._buckets.clear()
        if tokens < 1:
            self._buckets[key] = (tokens, now)
            return False
        self._buckets[key] = (tokens - 1, now)
        return True


def basic_auth(user: str, password: str) -> str:
    """An HTTP Basic Authorization value (the client's credentials at Discord's token endpoint)."""
    return "Basic " + base64.b64encode(f"{user}:{password}".encode()).decode()
