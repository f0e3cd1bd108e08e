"""Sessions that a logout really ends, and OAuth2 states that work once (issue 40, item 4).

The session stays a signed cookie (security.Signer): every process checks it without a shared secret store.
What ends sessions early is kept in the store, which every process reads (table web_revocations):
- a logout revokes that session (``session:<digest>`` of its id): its cookie, copied or not, no longer
  signs anyone in;
- "log out everywhere" revokes every session of the user issued until then (``user:<id>``);
- a login's OAuth2 state is marked used (``state:<digest>``) as the callback takes it: a second callback
  with the same state (a replayed or leaked redirect) is refused;
- each login makes a new session (new id, new CSRF token), and the session the browser held before it, if
  any, is revoked (rotation).
Only digests of session ids and states are stored, so the table's rows sign no one in.
"""

from __future__ import annotations

import hashlib
import time
from collections.abc import Callable
from typing import Any

from bot.web.security import SESSION_MAX_AGE, STATE_MAX_AGE, Session


def _digest(value: str) -> str:
    return hashlib.sha256(value.encode()).hexdigest()


class Sessions:
    """Revocations and used states over the store (`MatchStore.revoke_web`, `consume_web`, `web_revoked`)."""

    def __init__(self, store: Any, clock: Callable[[], float] = time.time) -> None:
        self.store = store
        self.clock = clock

    async def valid(self, session: Session) -> bool:
        """Whether a signed session has not been revoked (by its own logout, or everywhere)."""
        keys = [f"session:{_digest(session.sid)}", f"user:{session.user_id}"]
        revoked = await self.store.web_revoked(keys, self.clock())
        if keys[0] in revoked:
            return False
        everywhere = revoked.get(keys[1])
        return everywhere is None or session.issued > everywhere

    async def log_out(self, session: Session) -> None:
        now = self.clock()
        await self.store.revoke_web(f"session:{_digest(session.sid)}", now, now + SESSION_MAX_AGE)

    async def log_out_everywhere(self, user_id: int) -> None:
        now = self.clock()
        await self.store.revoke_web(f"user:{user_id}", now, now + SESSION_MAX_AGE)

    async def use_state(self, state: str) -> bool:
        """Mark a login's OAuth2 state used; False if it was used before (in any process)."""
        now = self.clock()
        used: bool = await self.store.consume_web(f"state:{_digest(state)}", now, now + STATE_MAX_AGE)
        return used
