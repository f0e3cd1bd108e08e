"""Live clocks in the board's scene and image (issue 43): the panel carries each seat's clock and its low
time, and the header's chips show the clocks as of the move."""

from __future__ import annotations

import games
import renderer
from renderer.painter import clock_text
from renderer.scene import panel_from_json, panel_json, with_clocks


def test_the_panel_carries_every_seats_clock_and_round_trips() -> None:
    rules = games.get("tilingking")
    state = rules.new(3, {"board": "hex5"}, 1)
    scene = renderer.board_scene(
        "tilingking", state, players=["A", "B", "C"], clocks=(61.5, 300.0, 9.0), clock_low=30.0
    )
    assert [(s.clock, s.clock_low) for s in scene.panel.players] == [(61.5, 30.0), (300.0, 30.0), (9.0, 30.0)]
    assert panel_from_json(panel_json(scene.panel)) == scene.panel
    plain = renderer.board_scene("tilingking", state, players=["A", "B", "C"])
    assert all(s.clock is None for s in plain.panel.players)
    assert with_clocks(plain, None) is plain


def test_the_header_shows_the_clocks() -> None:
    rules = games.get("paint")
    state = rules.new(2, {}, 1)
    with_clock = renderer.render("paint", state, players=["Alice", "Bob"], clocks=(245.0, 3723.0))
    without = renderer.render("paint", state, players=["Alice", "Bob"])
    assert with_clock != without
    assert [clock_text(s) for s in (245.0, 3723.0, 9.9, -1)] == ["4:05", "1:02:03", "0:09", "0:00"]
