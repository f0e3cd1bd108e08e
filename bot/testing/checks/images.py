"""Each chosen game's images: its boards (start, middle and end of seeded random games, every theme) are
palette PNGs of the asked width and two thirds of it high, under the size budget, with their alt text; its
own colours are in its images' palette and survive quantization exactly; a game whose players hold pieces
draws each seat's; a drawer with `redraw` gives, board after board, the very PNG of a full draw; a game
with click play gives a polygon for every cell a legal move touches."""

from __future__ import annotations

import io
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from PIL import Image

import games
import renderer
from bot.testing import fixtures
from games.base import RESIGNATION, Outcome, clickable_moves
from renderer.canvas import to_palette
from renderer.incremental import Boards
from renderer.theme import THEME_NAMES, game_colours, get_theme, palette

PNG_LIMIT = 60_000
"""The most bytes a board may take (Discord shows it at once; the bot's own games stay far below)."""
NAMES = ("Alice", "Bob", "Carol", "Dave")


def seeded_game(game_id: str, seats: int, options: dict[str, Any], seed: int, limit: int = 400) -> list[Any]:
    """(state, last move) along a seeded random game, its moves drawn from the fixtures' `random_moves`."""
    rules = games.get(game_id)
    rng = random.Random(seed)
    state = rules.new(seats, options, seed)
    trail: list[Any] = [(state, None)]
    while rules.outcome(state) is None and len(trail) <= limit:
        move = rng.choice(fixtures.random_moves(game_id, state, list(rules.legal_moves(state))))
        notation = rules.notation(state, move)
        state = rules.apply(state, move)
        trail.append((state, notation))
    return trail


def stages(game_id: str) -> list[tuple[str, int, Any, str | None]]:
    """(setup, seats, state, last move) at the start, middle and end of each render setup's game."""
    found = []
    for name, (seats, options) in fixtures.render_setups(game_id).items():
        trail = seeded_game(game_id, seats, options, seed=11)
        for state, last in (trail[0], trail[len(trail) // 2], trail[-1]):
            found.append((name, seats, state, last))
    return found


def test_boards_are_palette_pngs_of_the_width_asked_with_their_alt_text(game_id: str) -> None:
    for setup, seats, state, last in stages(game_id):
        players = NAMES[:seats]
        for theme in THEME_NAMES:
            for width in (renderer.DEFAULT_SIZE, 480):
                data = renderer.render(
                    game_id, state, last_move=last, players=players, theme=theme, size=width
                )
                image = Image.open(io.BytesIO(data))
                assert data[:8] == b"\x89PNG\r\n\x1a\n" and image.mode == "P", (setup, theme)
                assert image.size == (width, width * 2 // 3), (setup, theme, image.size)
                assert len(data) <= PNG_LIMIT, f"{setup}: {len(data)} bytes is over the budget"
        text = renderer.alt_text(game_id, state, players=players, last_move=last)
        assert 0 < len(text) <= renderer.ALT_TEXT_LIMIT and players[0] in text, (setup, text)


@pytest.mark.parametrize("theme", THEME_NAMES)
def test_the_games_colours_are_in_its_palette_and_drawn_exactly(game_id: str, theme: str) -> None:
    """Every theme names the same colours of the game (the "default" entry where a theme has none), and
    quantizing to the game's palette keeps each one exactly."""
    chosen = get_theme(theme)
    colours = game_colours(chosen, game_id)
    assert colours.keys() == game_colours(get_theme("default"), game_id).keys()
    wanted = chosen.palette_colours()
    wanted += [c for c in colours.values() if c not in wanted]
    strip = Image.new("RGB", (len(wanted), 1))
    for x, colour in enumerate(wanted):
        strip.putpixel((x, 0), colour)
    mapped = to_palette(strip, chosen, game_id).convert("RGB")
    assert [mapped.getpixel((x, 0)) for x in range(len(wanted))] == wanted
    assert len(palette(chosen, game_id)) <= 255, "one palette index must stay free for GIF transparency"


def test_a_game_with_pieces_draws_each_seats(game_id: str) -> None:
    if not renderer.has_pieces(game_id):
        pytest.skip(f"{game_id}'s players hold no pieces")
    rules = games.get(game_id)
    for seats in rules.seats:
        state = rules.new(seats, {}, 5)
        for seat in range(seats):
            image = Image.open(
                io.BytesIO(renderer.render_pieces(game_id, state, seat, players=NAMES[:seats]))
            )
            assert image.mode == "P" and image.width == renderer.DEFAULT_SIZE


def test_click_cells_have_polygons_inside_the_board(game_id: str) -> None:
    """The board's scene (`renderer.board_scene`) gives a polygon inside the image for every cell a click
    move touches, and a name for each."""
    import renderer

    rules = games.get(game_id)
    state = rules.new(min(rules.seats), {}, 2)
    clicks = clickable_moves(rules, state)
    if not clicks:
        pytest.skip(f"{game_id} has no click play")
    drawn = renderer.board_scene(game_id, state)
    assert len(drawn.labels) == len(drawn.cells)
    for cell in {cell for click in clicks for cell in click.cells}:
        assert cell < len(drawn.cells), f"{game_id}: no polygon for cell {cell}"
        polygon = drawn.cells[cell]
        assert len(polygon) >= 3 and drawn.labels[cell], cell
        assert all(0 <= x <= drawn.width and 0 <= y <= drawn.height for x, y in polygon), cell


@settings(max_examples=12, deadline=None)
@given(
    seed=st.integers(0, 10**6),
    steps=st.lists(st.sampled_from(["move", "move", "back", "resign"]), max_size=12),
)
def test_a_board_redrawn_from_the_last_is_the_png_of_a_full_draw(
    game_id: str, seed: int, steps: list[str]
) -> None:
    """Where the drawer has `redraw` (renderer.incremental), `Boards` gives byte for byte the PNG of a full
    draw after moves, a takeback and a result decided outside the engine."""
    if not hasattr(renderer.drawer(game_id), "redraw"):
        return  # drawn in full every time
    rules = games.get(game_id)
    seats = min(rules.seats)
    rng = random.Random(seed)
    history: list[tuple[Any, str | None]] = [(rules.new(seats, {}, seed), None)]
    boards = Boards()
    outcome: Outcome | None = None
    for step in ["move", *steps]:
        state = history[-1][0]
        if step == "move" and rules.outcome(state) is None and outcome is None:
            move = rng.choice(list(rules.legal_moves(state)))
            history.append((rules.apply(state, move), rules.notation(state, move)))
        elif step == "back" and len(history) > 1 and outcome is None:
            history.pop()
        elif step == "resign" and rules.outcome(state) is None and (seat := rules.to_move(state)) is not None:
            outcome = Outcome.loss(seat, seats, RESIGNATION)
        state, last = history[-1]
        players, size = NAMES[:seats], renderer.DEFAULT_SIZE
        full = renderer.render(game_id, state, last_move=last, players=players, outcome=outcome, size=size)
        drawn = boards.render(0, game_id, state, last_move=last, players=players, outcome=outcome, size=size)
        assert drawn == full
