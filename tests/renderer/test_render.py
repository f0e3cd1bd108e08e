"""Every game x (start, middle, end) x theme renders a palette PNG of the expected size; pixel checks put the
right stone/disc/piece colour at its cell's centre and the last-move mark where the move was."""

from __future__ import annotations

import math

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from PIL import Image, ImageChops

import games
import renderer
from games.base import Outcome, Termination
from games.grids import bits_of
from games.paint import drawer as paint_drawer
from games.paintscape import drawer as paintscape_drawer
from games.tilingking import drawer as tilingking_drawer
from renderer.canvas import page, square_layout, to_palette
from renderer.theme import RGB, THEME_NAMES, game_colours, get_theme, palette
from tests.renderer.positions import GAME_SETUPS, Position, decode, positions, random_game, save_artifact

ALL_POSITIONS = [(setup, n) for setup in GAME_SETUPS for n in range(3)]
PNG_LIMIT = 60 * 1024


def rgb_of(data: bytes) -> Image.Image:
    return decode(data).convert("RGB")


def near(image: Image.Image, x: float, y: float, colour: RGB, radius: int = 2) -> bool:
    """Whether some pixel within `radius` of (x, y) has exactly `colour`."""
    cx, cy = round(x), round(y)
    for dx in range(-radius, radius + 1):
        for dy in range(-radius, radius + 1):
            px, py = cx + dx, cy + dy
            if 0 <= px < image.width and 0 <= py < image.height and image.getpixel((px, py)) == colour:
                return True
    return False


@pytest.mark.parametrize(("setup", "stage"), ALL_POSITIONS)
@pytest.mark.parametrize("theme", THEME_NAMES)
def test_every_position_renders_a_palette_png_of_the_expected_size(
    setup: str, stage: int, theme: str
) -> None:
    position = positions(setup)[stage]
    data = renderer.render(
        position.game_id, position.state, last_move=position.last_move, players=position.players, theme=theme
    )
    save_artifact(f"{setup}-{position.stage}-{theme}.png", data)
    image = decode(data)
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    assert image.format == "PNG"
    assert image.mode == "P"
    assert image.size == (960, 640)
    assert len(data) <= PNG_LIMIT, f"{len(data)} bytes is over the 60 KB budget"


@pytest.mark.parametrize("width", [480, 1280])
def test_size_sets_the_width_and_keeps_the_aspect(width: int) -> None:
    position = positions("paint")[1]
    image = decode(renderer.render("paint", position.state, last_move=position.last_move, size=width))
    assert image.size == (width, round(width * 2 / 3))


def test_unknown_game_theme_or_size_is_refused_clearly() -> None:
    state = positions("paint")[0].state
    with pytest.raises(KeyError, match="known games"):
        renderer.render("chess", state)
    with pytest.raises(ValueError, match="colorblind"):
        renderer.render("paint", state, theme="neon")
    with pytest.raises(ValueError, match="between"):
        renderer.render("paint", state, size=50)


# --------------------------------------------------------------------------------------------- Paintscape


@pytest.mark.parametrize("theme", THEME_NAMES)
@pytest.mark.parametrize("stage", [0, 1, 2])
def test_paintscape_stones_sit_at_their_square_centres(theme: str, stage: int) -> None:
    position = positions("paintscape")[stage]
    state, colours = position.state, get_theme(theme)
    image = rgb_of(renderer.render("paintscape", state, theme=theme))
    lay = square_layout(960, 8)
    black, white = list(bits_of(state.black)), list(bits_of(state.white))
    assert black and white
    for squares, colour in (
        (black, paintscape_drawer.own_colours(colours).stone_black),
        (white, paintscape_drawer.own_colours(colours).stone_white),
    ):
        for i in squares:
            x, y = lay.centre(i)
            assert near(image, x, y, colour, 1), f"no stone colour at the centre of square {i}"


def test_paintscape_tiles_show_their_colour_where_no_stone_stands() -> None:
    state = positions("paintscape")[0].state
    colours = get_theme("default")
    image = rgb_of(renderer.render("paintscape", state))
    lay = square_layout(960, 8)
    for colour, bits in enumerate(state.tiles):
        for i in bits_of(bits):
            x, y = lay.centre(i)
            assert (
                image.getpixel((round(x), round(y))) == paintscape_drawer.own_colours(colours).tiles[colour]
            )


@pytest.mark.parametrize("theme", THEME_NAMES)
def test_paintscape_last_move_is_ringed(theme: str) -> None:
    position = positions("paintscape")[1]
    assert position.last_move is not None
    (square,) = paintscape_drawer.last_move_squares(position.last_move)
    lay = square_layout(960, 8)
    colours = get_theme(theme)
    marked = rgb_of(renderer.render("paintscape", position.state, last_move=position.last_move, theme=theme))
    plain = rgb_of(renderer.render("paintscape", position.state, theme=theme))
    left, _top, _, _ = lay.box(square)
    cx, cy = lay.centre(square)
    ring = lay.cell * 0.41 + 1
    assert near(marked, left + 2, cy, colours.highlight)
    assert near(marked, cx + ring, cy, colours.highlight, 3)
    assert not near(plain, left + 2, cy, colours.highlight)


def test_paintscape_swap_marks_both_squares() -> None:
    assert paintscape_drawer.last_move_squares("swap c3 f6") == [18, 45]
    assert paintscape_drawer.last_move_squares("d4") == [27]
    assert paintscape_drawer.last_move_squares("pass") == []
    assert paintscape_drawer.last_move_squares("black") == []
    assert paintscape_drawer.last_move_squares(None) == []


def test_paintscape_balance_phase_renders_before_colours_are_chosen() -> None:
    start = positions("paintscape-balance")[0]
    assert start.state.phase == "balance"
    data = renderer.render("paintscape", start.state, players=start.players)
    assert decode(data).size == (960, 640)
    assert "Balancer" in renderer.alt_text("paintscape", start.state, players=start.players)


# --------------------------------------------------------------------------------------------- Paint


@pytest.mark.parametrize("theme", THEME_NAMES)
@pytest.mark.parametrize("stage", [0, 1, 2])
def test_paint_discs_and_spheres_sit_at_their_square_centres(theme: str, stage: int) -> None:
    state = positions("paint")[stage].state
    colours = get_theme(theme)
    image = rgb_of(renderer.render("paint", state, theme=theme))
    lay = square_layout(960, 9)
    # the rank number is written at the centre, so look just above it, still inside the disc
    for discs, colour in (
        (state.white_discs, paint_drawer.own_colours(colours).disc_white),
        (state.black_discs, paint_drawer.own_colours(colours).disc_black),
    ):
        for i in bits_of(discs):
            x, y = lay.centre(i)
            assert near(image, x, y - lay.cell * 0.28, colour, 1)
    for i in bits_of(state.spheres):
        x, y = lay.centre(i)
        assert near(
            image, x + lay.cell * 0.1, y + lay.cell * 0.1, paint_drawer.own_colours(colours).sphere, 1
        )


def test_paint_last_move_shows_the_path_and_the_pushed_sphere() -> None:
    rules_states, moves = random_game("paint", 2, {}, seed=3, limit=60)
    pushes = [
        (state, move)
        for state, move in zip(rules_states[1:], moves, strict=True)
        if paint_drawer.pushed_sphere(state, paint_drawer.parse_last_move(move)) is not None
    ]
    assert pushes, "the seeded game should contain a move next to a sphere"
    state, move = pushes[0]
    parsed = paint_drawer.parse_last_move(move)
    assert parsed is not None
    lay = square_layout(960, 9)
    colours = get_theme("default")
    image = rgb_of(renderer.render("paint", state, last_move=move))
    start, end = lay.centre(parsed[0]), lay.centre(parsed[1])
    assert near(image, start[0], start[1], colours.highlight, 4)
    ring = lay.cell * 0.42 + 1
    assert near(image, end[0] + ring, end[1], colours.highlight, 3)
    beyond = paint_drawer.pushed_sphere(state, parsed)
    assert beyond is not None
    bx, by = lay.centre(beyond)
    assert near(image, bx + lay.cell * 0.31 + 1, by, colours.highlight, 3)


def test_paint_stopping_in_front_of_a_sphere_is_not_marked_as_a_push() -> None:
    rules = games.get("paint")
    start = rules.new(2, {}, 0)
    stopped = rules.apply(start, rules.parse(start, "c1-c2"))  # c3 holds a sphere; the disc stops before it
    assert paint_drawer.pushed_sphere(stopped, paint_drawer.parse_last_move("c1-c2")) is None
    pushed = rules.apply(start, rules.parse(start, "c1-c3"))  # the sphere on c3 goes to c4
    assert paint_drawer.pushed_sphere(pushed, paint_drawer.parse_last_move("c1-c3")) == 29
    lay = square_layout(960, 9)
    colours = get_theme("default")
    image = rgb_of(renderer.render("paint", stopped, last_move="c1-c2"))
    sx, sy = lay.centre(20)  # the untouched sphere on c3 gets no push ring
    assert not near(image, sx + lay.cell * 0.31 + 1, sy, colours.highlight, 3)


def test_paint_move_parsing() -> None:
    assert paint_drawer.parse_last_move("c1-c5") == (2, 38)
    assert paint_drawer.parse_last_move("C1 - C5") == (2, 38)
    assert paint_drawer.parse_last_move("resign") is None
    assert paint_drawer.path_squares((2, 38)) == [2, 11, 20, 29, 38]


# --------------------------------------------------------------------------------------------- TilingKing


@pytest.mark.parametrize("setup", ["tilingking-sq9", "tilingking-hex8bi", "tilingking-tri6bi"])
def test_tilingking_pieces_show_their_owners_colour(setup: str) -> None:
    state = positions(setup)[1].state
    colours = get_theme("default")
    image = rgb_of(renderer.render("tilingking", state))
    geo = tilingking_drawer._geometry(state.board.kind, tuple(state.board.cells), 960)
    assert state.placed
    for piece in state.placed:
        fill = tilingking_drawer.own_colours(colours).pieces[
            tilingking_drawer.seat_colour_index(state, piece.owner)
        ]
        for i in piece.cells:
            assert near(image, geo.centres[i][0], geo.centres[i][1], fill, 1), (
                f"cell {state.board.label(i)} lacks its owner's colour"
            )


@pytest.mark.parametrize("setup", ["tilingking-sq9", "tilingking-hex8bi", "tilingking-tri6bi"])
@pytest.mark.parametrize("theme", THEME_NAMES)
def test_tilingking_last_piece_is_outlined(setup: str, theme: str) -> None:
    position = positions(setup)[1]
    state = position.state
    last = max(state.placed, key=lambda p: p.ply)
    colours = get_theme(theme)
    geo = tilingking_drawer._geometry(state.board.kind, tuple(state.board.cells), 960)
    marked = rgb_of(renderer.render("tilingking", state, last_move=position.last_move, theme=theme))
    for a, b in geo.outline(last.cells):
        mid = ((a[0] + b[0]) / 2, (a[1] + b[1]) / 2)
        assert near(marked, mid[0], mid[1], colours.highlight, 3)
    passed = rgb_of(renderer.render("tilingking", state, last_move="pass", theme=theme))
    changed = [
        marked.getpixel((round((a[0] + b[0]) / 2), round((a[1] + b[1]) / 2)))
        != passed.getpixel((round((a[0] + b[0]) / 2), round((a[1] + b[1]) / 2)))
        for a, b in geo.outline(last.cells)
    ]
    assert all(changed), "after a pass the last piece is not marked as the last move"


def test_tilingking_territory_is_shaded_in_its_owners_colour() -> None:
    for setup in ("tilingking-sq9", "tilingking-hex8bi", "tilingking-tri6bi"):
        state = positions(setup)[2].state
        covered = {i for p in state.placed for i in p.cells}
        owned = [(i, o) for i, o in enumerate(state.territory) if o is not None and i not in covered]
        if not owned:
            continue
        colours = get_theme("default")
        image = rgb_of(renderer.render("tilingking", state))
        geo = tilingking_drawer._geometry(state.board.kind, tuple(state.board.cells), 960)
        i, owner = owned[0]
        tint = tilingking_drawer.own_colours(colours).territories[
            tilingking_drawer.seat_colour_index(state, owner)
        ]
        cx, cy = geo.centres[i]
        r = geo.inner_radius * 0.8
        assert any(near(image, cx + dx * r, cy + dy * r, tint, 1) for dx, dy in ((1, 0), (-1, 0), (0, 1)))
        return
    pytest.skip("no seeded game captured territory")


@pytest.mark.parametrize("setup", ["tilingking-sq9", "tilingking-hex8bi", "tilingking-tri6bi"])
@pytest.mark.parametrize("theme", THEME_NAMES)
def test_render_pieces_shows_a_seats_supply(setup: str, theme: str) -> None:
    position = positions(setup)[1]
    data = renderer.render_pieces("tilingking", position.state, 0, players=position.players, theme=theme)
    save_artifact(f"{setup}-pieces-{theme}.png", data)
    image = decode(data)
    assert image.size == (960, 640)
    assert len(data) <= PNG_LIMIT
    with pytest.raises(ValueError, match="seat"):
        renderer.render_pieces("tilingking", position.state, 7)
    with pytest.raises(ValueError, match="no pieces to show"):
        renderer.render_pieces("paint", positions("paint")[0].state, 0)


# --------------------------------------------------------------------------------------------- alt text


@pytest.mark.parametrize(("setup", "stage"), ALL_POSITIONS)
def test_alt_text_states_the_position_in_words(setup: str, stage: int) -> None:
    position: Position = positions(setup)[stage]
    text = renderer.alt_text(
        position.game_id, position.state, players=position.players, last_move=position.last_move
    )
    assert 0 < len(text) <= renderer.ALT_TEXT_LIMIT
    assert position.players[0] in text
    if position.last_move:
        assert position.last_move in text
    if position.stage == "end":
        assert "wins" in text or "Draw" in text or "first place" in text


def test_alt_text_is_cut_to_discords_limit() -> None:
    long_names = ("A" * 600, "B" * 600)
    state = positions("paint")[1].state
    text = renderer.alt_text("paint", state, players=long_names)
    assert len(text) == renderer.ALT_TEXT_LIMIT
    assert text.endswith("...")


def test_names_the_font_cannot_draw_still_render() -> None:
    state = positions("paintscape")[1].state
    data = renderer.render("paintscape", state, players=("名前", "🦊 " * 40))
    assert decode(data).size == (960, 640)


# --------------------------------------------------------------------------------------------- properties


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 10_000),
    fraction=st.floats(0, 1),
    theme=st.sampled_from(THEME_NAMES),
    setup=st.sampled_from(sorted(GAME_SETUPS)),
)
def test_any_reachable_position_renders_within_budget(
    seed: int, fraction: float, theme: str, setup: str
) -> None:
    game_id, seats, options = GAME_SETUPS[setup]
    states, moves = random_game(game_id, seats, options, seed, limit=120)
    n = math.floor(fraction * (len(states) - 1))
    data = renderer.render(game_id, states[n], last_move=moves[n - 1] if n else None, theme=theme)
    image = decode(data)
    assert image.size == (960, 640)
    assert len(data) <= PNG_LIMIT
    assert len(renderer.alt_text(game_id, states[n])) <= renderer.ALT_TEXT_LIMIT


@pytest.mark.parametrize("game_id", [None, *games.GAME_IDS])
@pytest.mark.parametrize("theme", THEME_NAMES)
def test_every_theme_and_game_colour_survives_palette_quantization_exactly(
    theme: str, game_id: str | None
) -> None:
    chosen = get_theme(theme)
    colours = chosen.palette_colours()
    if game_id is not None:
        colours += [c for c in game_colours(chosen, game_id).values() if c not in colours]
    strip = Image.new("RGB", (len(colours), 1))
    for x, colour in enumerate(colours):
        strip.putpixel((x, 0), colour)
    mapped = to_palette(strip, chosen, game_id).convert("RGB")
    assert [mapped.getpixel((x, 0)) for x in range(len(colours))] == colours
    assert len(palette(chosen, game_id)) <= 255, "one palette index must stay free for GIF transparency"


def test_paintscape_layout_without_a_colour_says_it_is_not_in_the_game() -> None:
    rules = games.get("paintscape")
    layout = "B" + "".join(str(colour) * 12 for colour in range(1, 6)) + "W.."
    state = rules.new(2, {"layout": layout, "balance": False}, 0)
    assert state.tiles[0] != 0
    text = renderer.alt_text("paintscape", state)
    assert "not in this game" not in text
    emptied = rules.new(2, {"layout": layout.replace("1", "."), "balance": False}, 0)
    assert emptied.tiles[0] == 0
    assert "yellow not in this game" in renderer.alt_text("paintscape", emptied)
    assert decode(renderer.render("paintscape", emptied)).size == (960, 640)


# --------------------------------------------------------------------------------------------- endings


ENDINGS = {
    "resignation": lambda seats: Outcome.loss(1, seats, Termination.RESIGNATION),
    "timeout": lambda seats: Outcome.loss(0, seats, Termination.TIMEOUT),
    "aborted": lambda seats: Outcome.draw(seats, Termination.ABORTED),
}
HEADER_SETUPS = ["paintscape", "paint", "tilingking-sq9", "tilingking-hex8bi"]


@pytest.mark.parametrize("setup", HEADER_SETUPS)
def test_an_outcome_from_outside_the_engine_replaces_whose_turn(setup: str) -> None:
    position = positions(setup)[1]
    game_id, seats = position.game_id, len(position.players)
    assert games.get(game_id).outcome(position.state) is None, "the middle of a game is still going"
    kwargs = {"last_move": position.last_move, "players": position.players}
    playing = renderer.alt_text(game_id, position.state, **kwargs)
    assert "to play" in playing
    ply = position.state.ply
    assert f"Move {ply + 1}" in playing
    headers = {}
    for ending, make in ENDINGS.items():
        outcome = make(seats)
        text = renderer.alt_text(game_id, position.state, outcome=outcome, **kwargs)
        assert "to play" not in text
        assert f"{ply} moves" in text
        image = renderer.render_image(game_id, position.state, outcome=outcome, **kwargs)
        headers[ending] = image.crop(page(960).header)

    def said(ending: str) -> str:
        return renderer.alt_text(game_id, position.state, outcome=ENDINGS[ending](seats), **kwargs)

    names = position.players
    if seats == 2:
        assert f"{names[0]} wins by resignation" in said("resignation")
        assert f"{names[1]} wins on time" in said("timeout")
    else:
        assert f"{names[0]} and {names[2]} share first place after a resignation" in said("resignation")
    assert "Game aborted: no result" in said("aborted")
    playing_header = renderer.render_image(game_id, position.state, **kwargs).crop(page(960).header)
    for ending, header in headers.items():
        assert ImageChops.difference(header, playing_header).getbbox(), f"{ending} shows no result"
    assert ImageChops.difference(headers["resignation"], headers["aborted"]).getbbox()
    assert ImageChops.difference(headers["resignation"], headers["timeout"]).getbbox()


@pytest.mark.parametrize("setup", HEADER_SETUPS)
def test_winner_chips_follow_the_outcome(setup: str) -> None:
    """A winner's chip is outlined in the theme's win colour; an aborted game crowns nobody."""
    position = positions(setup)[1]
    theme = get_theme("default")
    seats = len(position.players)

    def win_pixels(outcome: Outcome) -> int:
        header = renderer.render_image(
            position.game_id, position.state, players=position.players, outcome=outcome
        ).crop(page(960).header)
        return sum(count for count, colour in header.getcolors(1 << 24) or [] if colour == theme.win)

    assert win_pixels(ENDINGS["resignation"](seats)) > 100
    assert win_pixels(ENDINGS["aborted"](seats)) == 0


def test_the_engines_own_result_still_shows_without_an_outcome() -> None:
    end = positions("paintscape")[2]
    assert games.get("paintscape").outcome(end.state) is not None
    text = renderer.alt_text("paintscape", end.state, players=end.players)
    assert "wins by collecting three colours" in text and "to play" not in text
    assert f"{end.state.ply} moves" in text


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_tilingking_key_uses_every_seats_colour(players: int) -> None:
    setup = {2: "tilingking-sq9", 3: "tilingking-hex8bi", 4: "tilingking-tri6bi"}[players]
    position = positions(setup)[0]
    theme = get_theme("default")
    image = renderer.render_image("tilingking", position.state, players=position.players)
    pg = page(960, tilingking_drawer.BOARD_SHARE)
    panel = image.crop(pg.panel)
    seen = {colour for _, colour in panel.getcolors(1 << 24) or []}
    colours = [tilingking_drawer.seat_colour_index(position.state, s) for s in range(players)]
    for colour in range(4):
        # territory colours appear in the panel only in the key's territory swatch
        assert (tilingking_drawer.own_colours(theme).territories[colour] in seen) == (colour in colours)


@pytest.mark.parametrize("setup", GAME_SETUPS)
def test_a_name_with_a_bracket_shares_it_with_the_role(setup: str) -> None:
    """The bot's seat reads "Tessera (easy, Black)", never "Tessera (easy) (Black)"."""
    position = positions(setup)[1]
    players = ("Tessera (easy)", *position.players[1:])
    text = renderer.alt_text(position.game_id, position.state, players=players)
    assert "Tessera (easy, " in text
    assert ") (" not in text


def test_a_name_drops_its_role_before_it_is_cut_short() -> None:
    """Under Paint's tile counts and beside TilingKing's swatches the role is shown another way, so a name
    too long to keep its role loses the role first: "Tessera (easy)", not "Tessera (eas..."."""
    from renderer.canvas import fit_name_with_role, text_width

    px, name = 20, "Tessera (easy)"
    with_role = fit_name_with_role(name, "White", px, 10_000)
    assert with_role == "Tessera (easy, White)"
    room = text_width(name, px) + 1
    assert text_width(with_role, px) > room
    assert fit_name_with_role(name, "White", px, room) == name
    cut = fit_name_with_role(name, "White", px, text_width("Tessera", px))
    assert cut.startswith("Tes") and cut != name and len(cut) < len(name)
    assert fit_name_with_role("Red", "Red", px, 10_000) == "Red"  # a seat named by its colour says it once


def test_paints_lead_title_drops_the_role_where_it_does_not_fit() -> None:
    from renderer.canvas import text_width

    names = ["Maximiliana Longname", "Bob"]
    wide = paint_drawer._lead_title(names, 0, 19, 10_000)
    assert wide == "Maximiliana Longname (White) leads"
    narrow = paint_drawer._lead_title(names, 0, 19, text_width(wide, 19) - 1)
    assert narrow == "Maximiliana Longname leads"
