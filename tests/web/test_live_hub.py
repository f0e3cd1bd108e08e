"""The live hub's spectator count: viewers who come and go together make one update, after a short wait,
and none when the count is back to what every page already shows."""

from __future__ import annotations

import asyncio

from bot.web.live import Hub


async def test_spectators_coming_together_make_one_update() -> None:
    built: list[int] = []

    async def build(match_id: int, group: tuple[str, str]) -> bytes:
        built.append(hub.spectators(match_id))
        return b"{}"

    hub = Hub(build, recount=0.05)
    player = hub.subscribe(1, ("en", "default"))
    watchers = [hub.subscribe(1, ("en", "default"), spectator=True) for _ in range(30)]
    for _ in watchers:
        hub.recount(1)
    assert hub.spectators(1) == 30 and built == []
    await asyncio.sleep(0.2)
    assert built == [30], "one update carries the new count"
    for watcher in watchers[:10]:
        hub.unsubscribe(watcher)
        hub.recount(1)
    newcomer = hub.subscribe(1, ("en", "default"), spectator=True)
    for _ in range(10):
        hub.subscribe(1, ("en", "default"), spectator=True)
    hub.unsubscribe(newcomer)
    hub.recount(1)
    await asyncio.sleep(0.2)
    assert built == [30], "back to the count the pages show: no update"
    hub.unsubscribe(player)
    hub.close()
