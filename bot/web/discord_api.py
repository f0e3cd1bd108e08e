"""The few Discord REST calls the web board makes with the bot token: players' names for a web process of its
own (`GET /users/{id}`), and the check of an Activity's instance (`GET /applications/{id}/activity-instances/
{instance}`). The token goes only into the Authorization header: never into a page, a URL or a log line (a
failure logs its kind and status, nothing else)."""

from __future__ import annotations

import asyncio
import logging
import time
from collections import OrderedDict
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

import aiohttp

log = logging.getLogger("tessera.web")

NAME_TTL = 3600.0
"""Seconds a looked-up name is kept (a failed look-up: a tenth of it)."""
NAMES_KEPT = 10_000
INSTANCE_TTL = 60.0
"""Seconds a checked Activity instance is kept (its users change as people join and leave)."""


@dataclass(frozen=True, slots=True)
class ActivityInstance:
    """Where an Activity's instance runs, as Discord says, and who is in it."""

    instance_id: str
    channel_id: int | None
    guild_id: int | None
    users: frozenset[int]


class DiscordRest:
    """Bot-token REST calls to `api_url`, with their answers cached."""

    def __init__(
        self, api_url: str, token: str, *, clock: Callable[[], float] = time.monotonic, timeout: float = 5.0
    ) -> None:
        self.api_url = api_url.rstrip("/")
        self._headers = {"Authorization": f"Bot {token}"}
        self._clock = clock
        self._timeout = aiohttp.ClientTimeout(total=timeout)
        self._names: OrderedDict[int, tuple[float, str | None]] = OrderedDict()
        self._instances: dict[str, tuple[float, ActivityInstance | None]] = {}
        self._asking: dict[int, asyncio.Future[str | None]] = {}
        self._http: aiohttp.ClientSession | None = None

    def __repr__(self) -> str:  # never the token
        return f"DiscordRest({self.api_url!r})"

    async def close(self) -> None:
        if self._http is not None:
            await self._http.close()
            self._http = None

    def _session(self) -> aiohttp.ClientSession:
        if self._http is None or self._http.closed:
            self._http = aiohttp.ClientSession(timeout=self._timeout, headers=self._headers)
        return self._http

    async def _get(self, path: str) -> object | None:
        """The JSON at `path`, or None (logged without the token) when Discord does not answer it."""
        try:
            async with self._session().get(self.api_url + path) as answer:
                if answer.status != 200:
                    log.warning("Discord answered %s to a %s look-up", answer.status, path.split("/")[1])
                    return None
                data: object = await answer.json()
                return data
        except (aiohttp.ClientError, TimeoutError, ValueError) as error:
            log.warning("a Discord look-up failed: %s", type(error).__name__)
            return None

    # ------------------------------------------------------------------------------------- names

    async def names(self, user_ids: Sequence[int]) -> Mapping[int, str]:
        """Display names (global name, else user name) of `user_ids`; unknown ones are left out."""
        found: dict[int, str] = {}
        for user_id in dict.fromkeys(user_ids):
            name = await self._name(user_id)
            if name is not None:
                found[user_id] = name
        return found

    async def _name(self, user_id: int) -> str | None:
        now = self._clock()
        kept = self._names.get(user_id)
        if kept is not None and kept[0] > now:
            return kept[1]
        asking = self._asking.get(user_id)
        if asking is not None:  # one request per user however many pages ask at once
            return await asyncio.shield(asking)
        future: asyncio.Future[str | None] = asyncio.get_running_loop().create_future()
        self._asking[user_id] = future
        try:
            data = await self._get(f"/users/{int(user_id)}")
            name = None
            if isinstance(data, dict):
                name = str(data.get("global_name") or data.get("username") or "") or None
            ttl = NAME_TTL if name is not None else NAME_TTL / 10
            self._names[user_id] = (now + ttl, name)
            self._names.move_to_end(user_id)
            while len(self._names) > NAMES_KEPT:
                self._names.popitem(last=False)
            future.set_result(name)
            return name
        except BaseException as error:
            future.set_exception(error)
            future.exception()  # retrieved: the waiters re-raise it
            raise
        finally:
            del self._asking[user_id]

    # ------------------------------------------------------------------------------------- Activity

    async def activity_instance(self, application_id: str, instance_id: str) -> ActivityInstance | None:
        """The Activity instance as Discord knows it (None: no such instance, or Discord did not answer)."""
        now = self._clock()
        kept = self._instances.get(instance_id)
        if kept is not None and kept[0] > now:
            return kept[1]
        data = await self._get(f"/applications/{int(application_id)}/activity-instances/{instance_id}")
        instance = None
        if isinstance(data, dict) and isinstance(data.get("location"), dict):
            where = data["location"]
            try:
                instance = ActivityInstance(
                    str(data.get("instance_id", instance_id)),
                    int(where["channel_id"]) if where.get("channel_id") else None,
                    int(where["guild_id"]) if where.get("guild_id") else None,
                    frozenset(int(u) for u in data.get("users", ())),
                )
            except (TypeError, ValueError):
                instance = None
        if len(self._instances) > NAMES_KEPT:
            self._instances.clear()
        self._instances[instance_id] = (now + (INSTANCE_TTL if instance is not None else 5.0), instance)
        return instance
