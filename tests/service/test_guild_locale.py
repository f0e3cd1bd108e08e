"""A guild's language for public messages: a setting stored with the others, cleared to follow Discord's
server locale, refused when Tessera has no catalog for it; version 3 databases gain the column."""

from __future__ import annotations

from pathlib import Path

import aiosqlite
import pytest

from bot.service import Service
from bot.service.errors import InvalidSetting
from bot.service.guilds import FOLLOW_DISCORD, LOCALES
from bot.service.store import SCHEMA_VERSION
from bot.service.store.sqlite import SqliteStore
from tests.service.conftest import ServiceFactory
from tests.service.old_databases import SQLITE_MIGRATIONS as MIGRATIONS

GUILD = 10


async def test_a_guild_language_is_kept_and_survives_a_restart(open_service: ServiceFactory) -> None:
    service = await open_service()
    assert (await service.guilds.settings(GUILD)).locale is None
    saved = await service.guilds.update(GUILD, locale="ja", threads=True)
    assert saved.locale == "ja" and saved.threads
    untouched = await service.guilds.update(GUILD, turn_timeout=600)
    assert untouched.locale == "ja" and untouched.turn_timeout == 600
    await service.close()
    reopened = await open_service()
    assert (await reopened.guilds.settings(GUILD)).locale == "ja"
    cleared = await reopened.guilds.update(GUILD, locale=FOLLOW_DISCORD)
    assert cleared.locale is None and cleared.threads and cleared.turn_timeout == 600
    assert (await reopened.guilds.settings(GUILD)).locale is None


@pytest.mark.parametrize("locale", ["ko", "pt-BR", "EN", "", "ja "])
async def test_a_language_without_a_catalog_is_refused(service: Service, locale: str) -> None:
    with pytest.raises(InvalidSetting, match="language"):
        await service.guilds.update(GUILD, locale=locale)
    assert (await service.guilds.settings(GUILD)).locale is None


@pytest.mark.parametrize("locale", LOCALES)
async def test_every_language_can_be_chosen(service: Service, locale: str) -> None:
    assert (await service.guilds.update(GUILD, locale=locale)).locale == locale


async def test_version_3_databases_gain_the_language_column(db_path: Path) -> None:
    async with aiosqlite.connect(db_path) as db:
        for migration in MIGRATIONS[:3]:
            for statement in migration:
                await db.execute(statement)
        await db.execute("PRAGMA user_version = 3")
        await db.execute("INSERT INTO guild_settings VALUES (10, 60.0, 1, '[5]')")
        await db.commit()
    store = await SqliteStore.open(str(db_path))
    try:
        settings = await store.get_guild_settings(GUILD)
        assert settings is not None
        assert (settings.turn_timeout, settings.threads, settings.allowed_channels) == (60.0, True, (5,))
        assert settings.locale is None
    finally:
        await store.close()
    async with aiosqlite.connect(db_path) as db, db.execute("PRAGMA user_version") as cursor:
        assert (await cursor.fetchone()) == (SCHEMA_VERSION,)
