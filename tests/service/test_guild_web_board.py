"""A server's web board switch (`GuildSettings.web_board`, /settings web_board): on by default, kept by both
databases with the other settings untouched, and heard at once by another process that caches settings."""

from __future__ import annotations

import asyncio

from bot.service import Service
from tests.service.conftest import ServiceFactory

GUILD = 420_000_000_000_000_001


async def test_the_web_board_is_on_until_a_server_turns_it_off(open_service: ServiceFactory) -> None:
    service = await open_service()
    assert (await service.guilds.settings(GUILD)).web_board
    await service.guilds.update(GUILD, turn_timeout=7200, locale="de")
    changed = await service.guilds.update(GUILD, web_board=False)
    assert not changed.web_board and changed.turn_timeout == 7200 and changed.locale == "de"
    again = await open_service()  # another process (a fresh cache) reads what was stored
    stored = await again.guilds.settings(GUILD)
    assert not stored.web_board and stored.turn_timeout == 7200 and stored.locale == "de"
    await again.guilds.update(GUILD, turn_timeout=600)  # another setting keeps it off
    assert not (await (await open_service()).guilds.settings(GUILD)).web_board
    await again.guilds.update(GUILD, web_board=True)
    assert (await (await open_service()).guilds.settings(GUILD)).web_board


async def test_another_process_hears_the_switch(open_service: ServiceFactory) -> None:
    """Where the database is shared (PostgreSQL), a listening process's cached settings follow the switch
    another process makes; on SQLite one process is all there is."""
    bot_process: Service = await open_service()
    web_process: Service = await open_service()
    web_process.listen()
    try:
        assert (await web_process.guilds.settings(GUILD)).web_board  # cached while listening
        await asyncio.sleep(0.3)  # its listening connection is up
        await bot_process.guilds.update(GUILD, web_board=False)
        for _ in range(40):
            if not (await web_process.guilds.settings(GUILD)).web_board:
                break
            await asyncio.sleep(0.05)
        assert not (await web_process.guilds.settings(GUILD)).web_board
    finally:
        if web_process._listening is not None:
            web_process._listening.cancel()
