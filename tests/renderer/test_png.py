"""The board PNG encoder (renderer/png.py) writes files any reader decodes to exactly the palette image it
was given: the same indices and the same palette as Pillow's own PNG writer."""

from __future__ import annotations

import io
import struct
import zlib

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from PIL import Image

import renderer
from renderer import png
from renderer.canvas import png_bytes, to_palette
from renderer.theme import get_theme
from tests.renderer.positions import random_game


def decoded(data: bytes) -> Image.Image:
    image = Image.open(io.BytesIO(data))
    image.load()
    return image


def chunks(data: bytes) -> list[tuple[bytes, bytes]]:
    """The file's chunks (type, data), each CRC checked."""
    assert data[:8] == png.SIGNATURE
    found, at = [], 8
    while at < len(data):
        (length,) = struct.unpack(">I", data[at : at + 4])
        kind, body = data[at + 4 : at + 8], data[at + 8 : at + 8 + length]
        (crc,) = struct.unpack(">I", data[at + 8 + length : at + 12 + length])
        assert crc == zlib.crc32(kind + body), kind
        found.append((kind, body))
        at += 12 + length
    return found


def same_as_pillow(image: Image.Image) -> None:
    ours = decoded(png.encode(image))
    out = io.BytesIO()
    image.save(out, "PNG")
    pillows = decoded(out.getvalue())
    assert ours.mode == pillows.mode == "P"
    assert ours.size == image.size
    assert ours.tobytes() == image.tobytes() == pillows.tobytes()
    assert ours.getpalette() == pillows.getpalette()
    assert ours.convert("RGB").tobytes() == pillows.convert("RGB").tobytes()


@pytest.mark.parametrize(
    ("game", "seats", "options", "theme"),
    [
        ("paint", 2, {}, "default"),
        ("paintscape", 2, {"balance": False}, "colorblind"),
        ("tilingking", 3, {"board": "hex8bi"}, "default"),
        ("tilingking", 4, {"board": "tri6bi"}, "colorblind"),
    ],
)
def test_a_board_decodes_to_the_same_pixels_as_pillows_png(
    game: str, seats: int, options: dict[str, str], theme: str
) -> None:
    states, moves = random_game(game, seats, options, 3)
    n = len(moves) // 2
    image = renderer.render_image(game, states[n], last_move=moves[n - 1], theme=theme)
    same_as_pillow(to_palette(image, get_theme(theme)))
    mapped = to_palette(image, get_theme(theme))
    sent = png_bytes(image, get_theme(theme))
    assert sent == png.encode(mapped), "the bot's path maps the drawing as to_palette does"
    assert decoded(sent).convert("RGB").tobytes() == mapped.convert("RGB").tobytes()


def test_the_file_has_the_chunks_of_a_palette_image_and_unfiltered_rows() -> None:
    image = Image.new("P", (5, 3), 2)
    image.putpalette([0, 0, 0, 255, 0, 0, 0, 255, 0])
    kinds = chunks(png.encode(image))
    assert [kind for kind, _ in kinds] == [b"IHDR", b"PLTE", b"IDAT", b"IEND"]
    assert kinds[0][1] == struct.pack(">IIBBBBB", 5, 3, 8, 3, 0, 0, 0)
    rows = zlib.decompress(kinds[2][1])
    assert rows == (b"\0" + b"\2" * 5) * 3


@settings(max_examples=60, deadline=None)
@given(
    width=st.integers(1, 40),
    height=st.integers(1, 12),
    colours=st.integers(1, 256),
    data=st.data(),
)
def test_any_palette_image_round_trips(width: int, height: int, colours: int, data: st.DataObject) -> None:
    pixels = data.draw(st.binary(min_size=width * height, max_size=width * height))
    palette = data.draw(st.binary(min_size=3 * colours, max_size=3 * colours))
    image = Image.frombytes("P", (width, height), bytes(p % colours for p in pixels))
    image.putpalette(palette)
    same_as_pillow(image)


def test_only_palette_images_without_transparency_are_taken() -> None:
    with pytest.raises(ValueError, match="palette image"):
        png.encode(Image.new("RGB", (2, 2)))
    holey = Image.new("P", (2, 2))
    holey.info["transparency"] = 0
    with pytest.raises(ValueError, match="palette image"):
        png.encode(holey)
