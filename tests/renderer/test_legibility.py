"""What players read on an image (issue 23): the panel's texts stay inside the image in every language,
Paint's lead bar shows the leader's colour, and two touching TilingKing pieces of one player stay two."""

from __future__ import annotations

import math
from dataclasses import replace
from typing import Any

import pytest
from PIL import Image

import games
import renderer
from bot.i18n import translations
from bot.service.guilds import LOCALES
from games.paint.drawer import own_colours as paint_own_colours
from games.tilingking.drawer import _geometry
from games.tilingking.drawer import own_colours as tilingking_own_colours
from renderer import text as wording
from renderer.canvas import page, text_width, wrap_text
from renderer.theme import RGB, THEME_NAMES, blend, get_theme
from tests.renderer.positions import GAME_SETUPS, decode, positions, save_artifact

SETUPS = list(GAME_SETUPS)
"""Every game's render setups (its fixtures' `RENDER_SETUPS`)."""


def rgb(data: bytes) -> Image.Image:
    return decode(data).convert("RGB")


@pytest.mark.parametrize("locale", LOCALES)
@pytest.mark.parametrize("setup", SETUPS)
def test_no_panel_text_runs_off_the_image_in_any_language(setup: str, locale: str) -> None:
    """The last columns of the image below the header are bare panel: no legend line, no score, no label
    reaches the image's right edge, in each of the eight languages (French's "cellule neutre (compte pour
    tout anneau)" ran off)."""
    for position in positions(setup)[:2]:
        data = renderer.render(
            position.game_id,
            position.state,
            last_move=position.last_move,
            players=position.players,
            translations=translations(locale),
        )
        save_artifact(f"legibility-{setup}-{position.stage}-{locale}.png", data)
        image = rgb(data)
        pg = page(image.width)
        theme = get_theme("default")
        strip = image.crop((image.width - pg.px(8), pg.header[3], image.width, image.height))
        colours = {colour for _, colour in strip.getcolors(strip.width * strip.height) or []}
        assert colours == {theme.panel}, f"ink at the right edge in {locale}: {colours}"


@pytest.mark.parametrize(
    ("text", "width"),
    [
        ("neutral tile (counts for every ring)", 150),
        ("cellule neutre (compte pour tout anneau)", 180),
        ("中立マス（どの輪にも数える）", 120),
        ("Dampfschifffahrtsgesellschaftskapitän", 120),
        ("short", 300),
    ],
)
def test_wrapped_lines_fit_and_keep_every_word(text: str, width: int) -> None:
    lines = wrap_text(text, 16, width, max_lines=4)
    assert all(text_width(line, 16) <= width for line in lines)
    if " " in text:
        assert " ".join(lines) == text or lines[-1].endswith(wording.text("ellipsis"))
    else:
        assert "".join(lines) == text or lines[-1].endswith(wording.text("ellipsis"))
    if text_width(text, 16) <= width:
        assert lines == [text]


def test_wrapping_cuts_only_what_no_line_can_hold() -> None:
    long = "one two three four five six seven eight nine ten eleven twelve"
    lines = wrap_text(long, 16, 90, max_lines=2)
    assert len(lines) == 2 and lines[-1].endswith(wording.text("ellipsis"))
    assert all(text_width(line, 16) <= 90 for line in lines)


# ------------------------------------------------------------------------------------------ Paint


def paint_with_leader(leader: int) -> tuple[Any, Any]:
    """A Paint position well into a lead, and the same position led by the other seat instead."""
    state = positions("paint")[1].state
    led = replace(state, leader=leader, lead_count=max(1, state.lead_turns * 3 // 4))
    return led, replace(led, leader=1 - leader)


@pytest.mark.parametrize("theme_name", THEME_NAMES)
def test_the_lead_bar_has_the_leaders_colour(theme_name: str) -> None:
    """Where White leads, the lead bar is White's square colour, where Black leads Black's (it was the dark
    turn colour for both)."""
    own = paint_own_colours(get_theme(theme_name))
    white_leads, black_leads = paint_with_leader(0)
    drawn = [
        renderer.render("paint", s, last_move=None, players=["Alice", "Bob"], theme=theme_name)
        for s in (white_leads, black_leads)
    ]
    save_artifact(f"paint-lead-white-{theme_name}.png", drawn[0])
    save_artifact(f"paint-lead-black-{theme_name}.png", drawn[1])
    shown = [rgb(data) for data in drawn]
    pg = page(shown[0].width)
    panel = pg.panel
    white, black = (img.crop(panel) for img in shown)
    w_pixels, b_pixels = white.load(), black.load()
    assert w_pixels is not None and b_pixels is not None
    bar = [
        (x, y)
        for y in range(white.height)
        for x in range(white.width)
        if w_pixels[x, y] == own.light and b_pixels[x, y] == own.dark
    ]
    # the tile bar is the same in both; what differs in these colours is the lead bar, most of its width
    assert len(bar) > (panel[2] - panel[0]) * 0.5 * pg.px(10), len(bar)
    rows = {y for _, y in bar}
    assert max(rows) - min(rows) < pg.px(20), "one bar, not scattered pixels"


# ------------------------------------------------------------------------------------- TilingKing


def touching_pieces(board_id: str) -> tuple[Any, tuple[int, int]]:
    """A TilingKing position where seat 0 placed two pieces side by side (seat 1 passed in between), and
    one pair of touching cells, one of each piece."""
    rules = games.get("tilingking")
    state = rules.new(2, {"board": board_id}, 5)
    first = next(m for m in rules.legal_moves(state) if m.action == "place")
    state = rules.apply(state, first)
    state = rules.apply(state, rules.parse(state, "pass"))
    cells = set(state.placed[0].cells)
    board = state.board
    for move in rules.legal_moves(state):
        if move.action != "place":
            continue
        after = rules.apply(state, move)
        new = set(after.placed[-1].cells)
        for i in new:
            for j in board.edge_neighbours[i]:
                if j in cells:
                    return after, (j, i)
    raise AssertionError(f"no placement touches the first piece on {board_id}")


@pytest.mark.parametrize("theme_name", THEME_NAMES)
@pytest.mark.parametrize("board_id", ["hex8bi", "hex5", "sq9", "tri6bi"])
def test_two_touching_pieces_of_one_player_have_a_boundary_between_them(
    board_id: str, theme_name: str
) -> None:
    """Along the edge two pieces of one player share, a dark line at least three pixels wide (at the default
    size) separates them: darker than the piece, and wider than the light lines between a piece's own
    cells, so same-colour pieces never merge into one blob."""
    state, (a, b) = touching_pieces(board_id)
    theme = get_theme(theme_name)
    image = rgb(renderer.render("tilingking", state, last_move="pass", theme=theme_name))
    save_artifact(
        f"touching-{board_id}-{theme_name}.png", renderer.render("tilingking", state, last_move="pass")
    )
    board = state.board
    geo = _geometry(board.kind, tuple(board.cells), image.width)
    fill = tilingking_own_colours(theme).pieces[state.colours[0] if hasattr(state, "colours") else 0]
    width = _dark_width(image, geo.centres[a], geo.centres[b], fill)
    assert width >= 3, f"the line between the two pieces is {width:.1f} px wide"
    half = image.resize((image.width // 2, image.height // 2), Image.Resampling.LANCZOS)
    (ax, ay), (bx, by) = geo.centres[a], geo.centres[b]
    shrunk = _dark_width(half, (ax / 2, ay / 2), (bx / 2, by / 2), fill)
    assert shrunk >= 1, "the line still shows where Discord shows the image half as wide"


def _luminance(colour: RGB) -> float:
    r, g, b = colour
    return 0.299 * r + 0.587 * g + 0.114 * b


def _dark_width(image: Image.Image, start: tuple[float, float], end: tuple[float, float], fill: RGB) -> float:
    """How far, in pixels, the segment between two cell centres runs through pixels much darker than the
    piece colour `fill`: the width of the line drawn across it."""
    steps = round(max(abs(end[0] - start[0]), abs(end[1] - start[1])))
    threshold = _luminance(blend(fill, (0, 0, 0), 0.4))
    pixels = image.load()
    assert pixels is not None
    dark = 0
    for n in range(steps + 1):
        t = n / steps
        x, y = start[0] + (end[0] - start[0]) * t, start[1] + (end[1] - start[1]) * t
        colour = pixels[round(x), round(y)]
        if _luminance(colour) <= threshold:
            dark += 1
    return dark * math.hypot(end[0] - start[0], end[1] - start[1]) / steps


def test_setups_cover_every_game() -> None:
    assert {GAME_SETUPS[s][0] for s in SETUPS} == set(games.GAMES)
