"""docs/architecture.md says what is true: every file and folder it names exists, every dotted name it
gives resolves, the theme fields and canvas helpers it lists for a drawer are the real ones, the background
paths it describes are the ones the code takes, and the kit's checks are what it says they are."""

from __future__ import annotations

import dataclasses
import importlib
import re
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parent.parent
DOC = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
SPANS = re.findall(r"`([^`\n]+)`", DOC)
PATHS = sorted(
    {
        match.rstrip(".,;:)")
        for match in re.findall(
            r"(?<![\w/<.])((?:games|renderer|bot|cogs|tests|bench|examples|docs|web)/[\w./-]*)", DOC
        )
    }
)
NAMES = sorted(
    {
        found.group(1)
        for span in SPANS
        if (found := re.match(r"((?:games|renderer|bot|cogs)(?:\.[A-Za-z_]\w*)+)", span)) is not None
    }
)


def resolve(dotted: str) -> Any:
    """The object a dotted name names: the longest importable module, then attributes."""
    parts = dotted.split(".")
    for cut in range(len(parts), 0, -1):
        try:
            found: Any = importlib.import_module(".".join(parts[:cut]))
        except ImportError:
            continue
        for attribute in parts[cut:]:
            found = getattr(found, attribute)
        return found
    raise ImportError(dotted)


def test_the_doc_names_files_and_names() -> None:
    assert len(PATHS) > 30 and len(NAMES) > 20


@pytest.mark.parametrize("path", PATHS)
def test_every_path_it_names_exists(path: str) -> None:
    assert (ROOT / path).exists(), f"docs/architecture.md names {path}, which does not exist"


@pytest.mark.parametrize("name", NAMES)
def test_every_dotted_name_it_gives_resolves(name: str) -> None:
    resolve(name)


def test_the_theme_fields_it_lists_for_a_drawer_are_the_themes_own() -> None:
    from renderer.theme import Theme

    section = DOC[DOC.index("the theme's own, by these names:") :]
    listed = re.findall(r"`(\w+)`", section[: section.index("and the game's")])
    fields = {f.name for f in dataclasses.fields(Theme)} - {"name"}
    assert set(listed) - {"last_move"} == fields


def test_the_helpers_it_names_for_a_drawer_exist() -> None:
    import renderer.builder
    import renderer.canvas

    section = DOC[DOC.index("What a drawer builds on:") : DOC.index("Colours are tokens:")]
    helpers = {name for name in re.findall(r"`(\w+)\(", section) if name not in {"N_", "pieces_scene"}}
    assert {"page", "square_layout", "text_width", "square_frame", "last_ring", "label"} <= helpers
    missing = [
        name for name in helpers if not hasattr(renderer.canvas, name) and not hasattr(renderer.builder, name)
    ]
    assert not missing, f"renderer.canvas and renderer.builder have no {missing}"


def test_the_background_paths_it_describes_are_the_codes() -> None:
    """The match service's events go through `service.events` subscriptions; the tournament host's through
    the two callbacks the tournament posts set; the daily puzzle through `Puzzles.on_daily`."""
    from bot.service import records

    announcements = (ROOT / "bot" / "announcements.py").read_text()
    for event in ("TimedOut", "ChallengeExpired", "BotPlayed"):
        assert event in DOC and isinstance(getattr(records, event), type)
        assert f"self.service.events.subscribe({event}, " in announcements, event
    posts = (ROOT / "bot" / "tournament_posts.py").read_text()
    assert "host.channel_for = self.channel_for" in posts and "host.announce = self.announce" in posts
    host = (ROOT / "bot" / "service" / "tournaments" / "host.py").read_text()
    assert "self.announce: Announce | None = None" in host and "self.channel_for: ChannelFor | None" in host
    assert (
        "self.on_daily: DailyHandler | None = None" in (ROOT / "bot" / "service" / "puzzles.py").read_text()
    )
    assert "only through subscriptions" not in " ".join(DOC.split())


def test_the_kit_checks_every_level_a_tournament_and_the_web_board_as_it_says() -> None:
    from bot.testing import checks
    from bot.testing.checks import levels

    names = set(checks.__all__)
    assert "test_every_level_plays_a_legal_move" in names
    assert "for level in LEVEL_IDS" in Path(levels.__file__).read_text()
    assert {
        "test_a_swiss_of_the_game_runs_to_its_podium",
        "test_the_web_board_plays_the_game_by_clicking_its_cells",
    } <= names
    assert "python -m bot.i18n update <id>" in DOC
