"""One registry: a game registered in `games` is what /play offers, what the service plays, what the renderer
draws and what the AI knows, and nothing else is."""

from __future__ import annotations

import importlib
import pkgutil

import pytest

import games
import renderer
from bot.service import Service
from bot.service.store import SqliteStore
from cogs import GAME_CHOICES
from games.ai import knowledge_for


def test_the_registry_finds_every_game_module_and_only_those() -> None:
    modules = {info.name for info in pkgutil.iter_modules(games.__path__)}
    with_rules = {name for name in modules if hasattr(importlib.import_module(f"games.{name}"), "RULES")}
    assert with_rules == set(games.GAME_IDS) == {"paint", "paintscape", "tilingking"}
    assert all(games.get(game_id).id == game_id for game_id in games.GAME_IDS)
    with pytest.raises(KeyError, match="known games"):
        games.get("chess")


def test_play_offers_exactly_the_registered_games_by_their_names() -> None:
    assert [(c.value, c.name) for c in GAME_CHOICES] == [(g, games.name(g)) for g in games.GAME_IDS]


@pytest.mark.parametrize("game_id", games.GAME_IDS)
def test_every_game_has_a_drawer_the_service_and_ai_knowledge(game_id: str) -> None:
    drawer = renderer.drawer(game_id)
    assert drawer.__name__ == f"renderer.{game_id}"
    assert callable(drawer.draw) and callable(drawer.describe)
    rules = games.get(game_id)
    state = rules.new(min(rules.seats), {}, 1)
    assert renderer.render(game_id, state)[:8] == b"\x89PNG\r\n\x1a\n"
    assert type(knowledge_for(game_id)).__module__ == f"games.ai.{game_id}"


@pytest.mark.parametrize("game_id", games.GAME_IDS)
async def test_the_service_plays_every_registered_game(game_id: str) -> None:
    service = Service(await SqliteStore.open(":memory:"))
    try:
        assert service.rules(game_id) is games.get(game_id)
        challenge = await service.challenges.create(game_id, {}, 1, 2, guild_id=3, channel_id=4)
        match = await service.challenges.accept(challenge.id, 2)
        assert match.game == game_id and match.is_active
    finally:
        await service.close()


def test_renderer_modules_that_draw_a_board_are_registered_games() -> None:
    drawers = {
        info.name
        for info in pkgutil.iter_modules(renderer.__path__)
        if hasattr(importlib.import_module(f"renderer.{info.name}"), "describe")
    }
    assert drawers == set(games.GAME_IDS)
    with pytest.raises(KeyError):
        renderer.drawer("chess")
