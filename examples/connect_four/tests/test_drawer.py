"""Connect Four's image: a 7x6 board, wider than tall, each disc drawn in its cell in its seat's colour, and
alt text that names every disc. The board is declared (`renderer.cellboard`): the host builds its scene."""

from __future__ import annotations

import io
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from PIL import Image
from tessera_connect_four.rules import COLUMNS, LETTERS, ROWS, RULES, FourState

import renderer
from games.base import RESIGNATION, Outcome
from renderer.cellboard import Declared
from renderer.incremental import Boards
from renderer.scene import Circle, Mark, Show
from renderer.theme import game_colours, get_theme


def centre(size: int, column: int, row: int) -> tuple[float, float]:
    """The middle of the cell at (column, row) in the image `size` pixels wide (its polygon's centroid)."""
    polygon = renderer.board_scene(RULES.id, RULES.new(2, {}, 0), size=size).cells[row * COLUMNS + column]
    return sum(x for x, _ in polygon) / len(polygon), sum(y for _, y in polygon) / len(polygon)


def play(columns: str) -> FourState:
    state = RULES.new(2, {}, 0)
    for letter in columns:
        state = RULES.apply(state, RULES.parse(state, letter))
    return state


@pytest.mark.parametrize("theme", ["default", "colorblind"])
def test_every_disc_is_drawn_in_its_cell_in_its_colour(theme: str) -> None:
    state = play("ddc")  # Red d1, Yellow d2, Red c1
    size = 960
    image = Image.open(io.BytesIO(renderer.render(RULES.id, state, theme=theme, size=size))).convert("RGB")
    colours = game_colours(get_theme(theme), RULES.id)
    for column in range(COLUMNS):
        for row in range(ROWS):
            x, y = centre(size, column, row)
            # Beside the centre: the colour-blind theme marks each disc with a small shape there.
            seen = image.getpixel((round(x + size * 0.02), round(y)))
            seat = state.at(column, row)
            expected = get_theme(theme).background if seat is None else colours[("red", "yellow")[seat]]
            assert seen == expected, (LETTERS[column], row + 1)


def test_the_board_is_seven_columns_wide_and_six_rows_high() -> None:
    size = 960
    left, bottom = centre(size, 0, 0)
    right, top = centre(size, COLUMNS - 1, ROWS - 1)
    step_x = (right - left) / (COLUMNS - 1)
    step_y = (bottom - top) / (ROWS - 1)
    assert step_x == pytest.approx(step_y)  # square cells, so the board is 7:6
    assert right - left > bottom - top


def test_the_alt_text_names_the_players_and_every_disc() -> None:
    text = renderer.alt_text(RULES.id, play("ddc"), players=["Ann", "Ben"], last_move="c")
    assert text.startswith("Connect Four board. Move 4 · Ben (Yellow) to play.")
    assert "Last move: c." in text
    assert "Discs of Ann (Red): c1, d1." in text and "Discs of Ben (Yellow): d2." in text


def test_each_click_cell_is_drawn_where_its_disc_lands() -> None:
    """The web board clicks the cell a disc lands on: its polygon in the image is the cell the drawer draws
    that disc in, and its label names the column and row."""
    from games.base import clickable_moves

    state = RULES.new(2, {}, 0)
    for column in (3, 3, 2, 3):
        state = RULES.apply(state, column)
    scene = renderer.board_scene(RULES.id, state, size=960)
    polygons, labels = scene.cells, scene.labels
    for click in clickable_moves(RULES, state):
        (cell,) = click.cells
        column = "abcdefg".index(click.notation)
        row = len(state.columns[column])
        xs = [x for x, _ in polygons[cell]]
        ys = [y for _, y in polygons[cell]]
        assert (sum(xs) / 4, sum(ys) / 4) == pytest.approx(centre(960, column, row))
        assert labels[cell] == f"{click.notation}{row + 1}"


@settings(max_examples=30, deadline=None)
@given(
    seed=st.integers(0, 10**6),
    steps=st.lists(st.sampled_from(["move", "move", "move", "back", "resign"]), min_size=1, max_size=30),
    theme=st.sampled_from(["default", "colorblind"]),
    size=st.sampled_from([renderer.DEFAULT_SIZE, 480]),
)
def test_a_board_drawn_from_its_last_board_is_the_png_of_a_full_draw(
    seed: int, steps: list[str], theme: str, size: int
) -> None:
    """A board drawn from its last (only the items that changed, the header and the panel) gives, through
    `renderer.incremental.Boards`, byte for byte the PNG a full draw gives: after every move of a random game,
    a takeback, and a result decided outside the engine (a resignation); every board but the first is drawn
    so."""
    rng = random.Random(seed)
    history: list[tuple[FourState, str | None]] = [(RULES.new(2, {}, seed), None)]
    boards = Boards()
    outcome: Outcome | None = None
    for step in ["move", *steps]:
        state = history[-1][0]
        if step == "move" and RULES.outcome(state) is None and outcome is None:
            move = rng.choice(list(RULES.legal_moves(state)))
            history.append((RULES.apply(state, move), RULES.notation(state, move)))
        elif step == "back" and len(history) > 1 and outcome is None:
            history.pop()
        elif step == "resign" and RULES.outcome(state) is None and (seat := RULES.to_move(state)) is not None:
            outcome = Outcome(RESIGNATION, tuple(0 if s != seat else 1 for s in range(2)))
        state, last_move = history[-1]
        players = ["Ann", "Ben"]
        full = renderer.render(
            RULES.id, state, last_move=last_move, players=players, outcome=outcome, theme=theme, size=size
        )
        drawn = boards.render(
            0, RULES.id, state, last_move=last_move, players=players, outcome=outcome, theme=theme, size=size
        )
        assert drawn == full
    assert boards.redrawn == len(steps)


def test_the_board_is_declared_and_the_host_draws_it() -> None:
    """The drawer module declares its board; the host's drawer builds the scene: a hole per cell, a disc
    per disc with its seat's mark shown only with second cues, the winning line dotted, the last disc
    ringed, a line per seat in the panel."""
    drawer = renderer.drawer(RULES.id)
    assert isinstance(drawer, Declared)
    state = play("aabbccd")  # Red wins along the bottom row
    scene = renderer.board_scene(RULES.id, state, last_move="d", players=["Ann", "Ben"])
    items = scene.keyed()
    assert len(scene.cells) == COLUMNS * ROWS and scene.labels[3] == "d1" and scene.labels[7] == "a2"
    assert all(isinstance(items[f"cell:{i}"], Circle) for i in range(COLUMNS * ROWS))
    assert {k for k in items if k.startswith("disc:") and not k.endswith(":mark")} == {
        f"disc:{i}" for i in (0, 1, 2, 3, 7, 8, 9)
    }
    mark = items["disc:0:mark"]
    assert isinstance(mark, Mark) and mark.show is Show.CUES and mark.shape == "square"
    assert {k for k in items if k.startswith("dot:")} == {"dot:0", "dot:1", "dot:2", "dot:3"}
    assert items["mark:last"].cells == (3,)
    assert [s.name for s in scene.panel.players] == ["Ann", "Ben"] and scene.panel.over
    assert scene.panel.players[0].winner and scene.panel.players[0].score == 4
