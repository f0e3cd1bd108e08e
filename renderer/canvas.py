"""Drawing tools shared by the game drawers: page layout, fonts and cached text, smooth disc sprites, the
header strip with players and status, and palette PNG encoding.

Everything is drawn in RGB and quantized once at the end to the theme's fixed palette (`theme.palette`),
which keeps PNGs small and lets replays reuse one palette for every GIF frame.
"""

from __future__ import annotations

import contextlib
import math
import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from functools import cache, lru_cache, partial
from typing import Any

from PIL import Image, ImageChops, ImageDraw, ImageFont

from games.base import Outcome
from renderer import fonts, png
from renderer import text as wording
from renderer.theme import RGB, Theme, blend, palette

Box = tuple[int, int, int, int]

BASE_WIDTH = 960
"""The default image width; every length below is given for this width and scaled."""
ASPECT = 2 / 3
"""Height / width of every board image (landscape: fits Discord's inline preview on desktop and mobile)."""
HEADER_HEIGHT = 88
SUPERSAMPLE = 4


@dataclass(frozen=True, slots=True)
class Page:
    """Where things go on an image of a given width: header strip, board area and side panel."""

    width: int
    height: int
    k: float
    header: Box
    board: Box
    panel: Box

    def px(self, length: float) -> int:
        """A length given at the base width, scaled to this page (at least 1 pixel)."""
        return max(1, round(length * self.k))


@cache
def page(width: int, board_share: float = 0.6) -> Page:
    """The layout of an image `width` pixels wide: header on top, board left, panel right."""
    k = width / BASE_WIDTH
    height = round(width * ASPECT)
    top = round(HEADER_HEIGHT * k)
    split = round(width * board_share)
    return Page(
        width=width,
        height=height,
        k=k,
        header=(0, 0, width, top),
        board=(0, top, split, height),
        panel=(split, top, width, height),
    )


class SquareLayout:
    """An n x n square board in a page's board area: square boxes in pixels, coordinates outside the grid.

    Square i is file i % n, rank i // n (a1 = 0 at the bottom left), as in `games.grids.SquareGrid`.
    """

    def __init__(self, pg: Page, n: int) -> None:
        self.pg = pg
        self.n = n
        bx0, by0, bx1, by1 = pg.board
        margin, label = pg.px(14), pg.px(28)
        side = min(bx1 - bx0 - label - 2 * margin, by1 - by0 - label - 2 * margin)
        self.cell = int(side // n)
        self.left = int(bx0 + label + margin + (bx1 - bx0 - label - 2 * margin - n * self.cell) // 2)
        self.top = int(by0 + margin)
        self.right = self.left + n * self.cell
        self.bottom = self.top + n * self.cell
        self.label_px = pg.px(17)
        self._boxes = tuple(self._box(i) for i in range(n * n))  # looked up a hundred times a board
        self._centres = tuple(((b[0] + b[2]) / 2, (b[1] + b[3]) / 2) for b in self._boxes)

    def _box(self, i: int) -> tuple[int, int, int, int]:
        x, y = i % self.n, i // self.n
        left, top = self.left + x * self.cell, self.top + (self.n - 1 - y) * self.cell
        return left, top, left + self.cell, top + self.cell

    def box(self, i: int) -> tuple[int, int, int, int]:
        return self._boxes[i]

    def centre(self, i: int) -> tuple[float, float]:
        return self._centres[i]

    def draw_frame(self, img: Image.Image, theme: Theme) -> None:
        """The board's frame and its coordinates: files a.. below, ranks 1.. on the left."""
        draw = ImageDraw.Draw(img)
        frame = self.pg.px(5)
        draw.rectangle(
            (self.left - frame, self.top - frame, self.right + frame - 1, self.bottom + frame - 1),
            fill=theme.board_edge,
        )
        for n in range(self.n):
            cx = self.left + (n + 0.5) * self.cell
            draw_text(
                img,
                cx,
                self.bottom + frame + self.pg.px(4),
                "abcdefghijklm"[n],
                self.label_px,
                theme.ink,
                "mt",
            )
            cy = self.top + (self.n - 1 - n + 0.5) * self.cell
            draw_text(img, self.left - frame - self.pg.px(7), cy, str(n + 1), self.label_px, theme.ink, "rc")

    def draw_grid(self, img: Image.Image, colour: RGB) -> None:
        draw = ImageDraw.Draw(img)
        for n in range(self.n + 1):
            x = self.left + n * self.cell
            y = self.top + n * self.cell
            draw.line(((x, self.top), (x, self.bottom)), fill=colour, width=1)
            draw.line(((self.left, y), (self.right, y)), fill=colour, width=1)


@cache
def square_layout(width: int, n: int) -> SquareLayout:
    return SquareLayout(page(width), n)


@lru_cache(maxsize=32)
def square_polygons(lay: SquareLayout) -> tuple[tuple[tuple[float, float], ...], ...]:
    """Each square's corners (clockwise from the top left) in pixels, in square order."""
    out = []
    for i in range(lay.n * lay.n):
        left, top, right, bottom = lay.box(i)
        out.append(((left, top), (right, top), (right, bottom), (left, bottom)))
    return tuple(out)


# --------------------------------------------------------------------------------------------- text


@dataclass(frozen=True, slots=True)
class Line:
    """One line of text drawn as an "L" mask. Rows `top` to `top + height` are the line box of the chain's
    first font (ascent + descent); glyphs of fallback fonts that reach beyond it widen the mask."""

    mask: Image.Image
    top: int
    height: int

    @property
    def width(self) -> int:
        return self.mask.width


def text_line(text: str, px: int) -> Line:
    """`text` rendered one line high with per-character font fallback (see `renderer.fonts`)."""
    return _line(fonts.chain(), text, px)


def _words(chain: fonts.FontChain, text: str) -> list[str] | None:
    """The words of a text the first font draws alone without shaping ("Move 27 · Alice to play"), or
    None. Such a line is put together from its words' cached masks: FreeType rasterizes every glyph of a
    new text, and texts that change every move differ from the last one in a word or two."""
    if " " not in text.strip(" "):
        return None
    runs = chain.runs(text)
    if len(runs) != 1 or runs[0][0] != 0 or fonts.needs_shaping(text):
        return None
    return text.split(" ")


@lru_cache(maxsize=4096)
def _line(chain: fonts.FontChain, text: str, px: int) -> Line:
    ascent, descent = chain.primary.font(px).getmetrics()
    words = _words(chain, text)
    if words is not None:
        space = _plain_length(chain, " ", px)
        mask = Image.new("L", (_width(chain, text, px), ascent + descent), 0)
        x = 0.0
        for word in words:
            if word:
                piece, ink_left = _word_ink(chain, word, px)
                if (
                    piece is not None
                ):  # only the word's inked columns: no blank margin covers a neighbour's ink
                    left = round(x) + ink_left
                    mask.im.paste(piece.im, (left, 0, left + piece.width, piece.height))
                x += _plain_length(chain, word, px)
            x += space
        return Line(mask, 0, ascent + descent)
    runs = [_run_font(chain, face, run, px) for face, run in chain.runs(text)]
    lengths = [f.getlength(run) for f, run, _ in runs]
    above, below = ascent, descent
    for f, run, face in runs:
        if face:  # a fallback font's glyphs may reach above or below the first font's line box
            box = f.getbbox(run, anchor="ls")
            above, below = max(above, -math.floor(box[1])), max(below, math.ceil(box[3]))
    mask = Image.new("L", (max(1, math.ceil(sum(lengths)) + 2), above + below), 0)
    draw = ImageDraw.Draw(mask)
    x = 1.0
    for (f, run, _), length in zip(runs, lengths, strict=True):
        # Raqm lays a right-to-left name out right to left inside a left-to-right line ("محمد (Yellow)")
        direction = "ltr" if f.layout_engine == ImageFont.Layout.RAQM else None
        draw.text((x, above), run, font=f, fill=255, anchor="ls", direction=direction)
        x += length
    return Line(mask, above - ascent, ascent + descent)


@lru_cache(maxsize=4096)
def _word_ink(chain: fonts.FontChain, word: str, px: int) -> tuple[Image.Image | None, int]:
    """A word's mask cut to its inked columns, and where they start (None: a word without ink)."""
    piece = _line(chain, word, px).mask
    ink = piece.getbbox()
    if not ink:
        return None, 0
    return piece.crop((ink[0], 0, ink[2], piece.height)), ink[0]


@lru_cache(maxsize=8192)
def _plain_length(chain: fonts.FontChain, word: str, px: int) -> float:
    """A word's advance in the first font's basic layout (words of plain lines recur move after move)."""
    return chain.primary.font(px, shaped=False).getlength(word)


def _run_font(
    chain: fonts.FontChain, face: int, run: str, px: int
) -> tuple[ImageFont.FreeTypeFont, str, int]:
    """(font, run, face index): the shaping layout only for runs that need it, the faster basic one else."""
    return chain.faces[face].font(px, shaped=fonts.needs_shaping(run)), run, face


def text_mask(text: str, px: int) -> Image.Image:
    """The text as an "L" mask (see `text_line`)."""
    return text_line(text, px).mask


def text_width(text: str, px: int) -> int:
    return _width(fonts.chain(), text, px)


@lru_cache(maxsize=8192)
def _width(chain: fonts.FontChain, text: str, px: int) -> int:
    """The width of `text`'s mask: its advance plus a pixel each side (a line put together from words is
    measured word by word, as `_line` lays it out)."""
    advance = 0.0
    words = _words(chain, text)
    if words is not None:
        spaces = (len(words) - 1) * _plain_length(chain, " ", px)
        advance = sum(_plain_length(chain, w, px) for w in words) + spaces
    else:
        for face, run in chain.runs(text):
            font, _, _ = _run_font(chain, face, run, px)
            advance += font.getlength(run)
    return max(1, math.ceil(advance) + 2)


def fit_text(text: str, px: int, max_width: float) -> str:
    """The text, cut short with "..." if it is wider than `max_width` pixels."""
    if text_width(text, px) <= max_width:
        return text
    dots = wording.text("ellipsis")
    while text and text_width(text + dots, px) > max_width:
        text = text[:-1]
    return text.rstrip() + dots


def fit_name_with_role(name: str, role: str, px: int, max_width: float) -> str:
    """ "Alice (White)" where it fits; else the name alone, cut short only if it must. For places where the
    role is shown another way too (a swatch, a side of a bar), so it gives way before the name does."""
    full = name if not role or role == name else wording.with_role(name, role)
    return full if text_width(full, px) <= max_width else fit_text(name, px, max_width)


NO_BREAK_BEFORE = frozenset(
    "、。，．・：；？！）」』】〕〉》ー…ぁぃぅぇぉっゃゅょゎァィゥェォッャュョヮヵヶ,.:;?!)]}%"
)
"""Characters a line never starts with (closing punctuation, small kana, the long vowel mark)."""
NO_BREAK_AFTER = frozenset("（「『【〔〈《([{")
"""Characters a line never ends with (opening brackets)."""


def _is_wide(char: str) -> bool:
    """Whether a line may break right before or after `char`: scripts written without spaces (Chinese,
    Japanese kana and kanji, full-width forms)."""
    code = ord(char)
    return (
        0x2E80 <= code <= 0x9FFF  # CJK radicals, kana, CJK symbols and punctuation, ideographs
        or 0xAC00 <= code <= 0xD7AF  # Hangul syllables
        or 0xF900 <= code <= 0xFAFF
        or 0xFF00 <= code <= 0xFFEF  # full-width forms
    )


def _break_points(text: str) -> list[int]:
    """Where `text` may be broken: after a space, or between two characters where one is wide (CJK), never
    before closing punctuation."""
    points = []
    for i in range(1, len(text)):
        before, after = text[i - 1], text[i]
        if after in NO_BREAK_BEFORE or after == " " or before in NO_BREAK_AFTER:
            continue
        if before == " " or _is_wide(before) or _is_wide(after):
            points.append(i)
    return points


def wrap_text(text: str, px: int, max_width: float, max_lines: int | None = None) -> list[str]:
    """`text` in lines no wider than `max_width` pixels, broken at spaces (and between CJK characters);
    nothing is left out. Only a single word wider than a whole line is cut ("..."), as a last resort, and,
    with `max_lines`, the last line allowed when the rest still does not fit."""
    lines: list[str] = []
    rest = text.strip()
    while rest:
        if max_lines is not None and len(lines) == max_lines - 1:
            lines.append(fit_text(rest, px, max_width))
            break
        if text_width(rest, px) <= max_width:
            lines.append(rest)
            break
        fitting = [i for i in _break_points(rest) if text_width(rest[:i].rstrip(), px) <= max_width]
        if not fitting:
            cut = next(iter(_break_points(rest)), len(rest))
            lines.append(fit_text(rest[:cut].rstrip(), px, max_width))
            rest = rest[cut:].strip()
            continue
        end = fitting[-1]
        lines.append(rest[:end].rstrip())
        rest = rest[end:].strip()
    return lines


def line_pitch(px: int) -> int:
    """The distance between two wrapped lines of `px`-pixel text."""
    return round(px * 1.25)


def draw_wrapped(
    img: Image.Image, x: float, y: float, text: str, px: int, colour: RGB, max_width: float
) -> int:
    """Draw `text` wrapped to `max_width` (see `wrap_text`) from (x, y) down, left-aligned; returns how many
    lines it took."""
    lines = wrap_text(text, px, max_width)
    for n, line in enumerate(lines):
        draw_text(img, x, y + n * line_pitch(px), line, px, colour)
    return len(lines)


def draw_text(
    img: Image.Image, x: float, y: float, text: str, px: int, colour: RGB, anchor: str = "lt"
) -> int:
    """Draw one line of text and return its width.

    `anchor` is two letters: horizontal l/m/r (left, middle, right of the text), then vertical t/m/b of the
    line box, or "c" for the centre of the ink itself (for labels that must sit dead centre in a cell).
    """
    if not text:
        return 0
    if img.mode != "RGB":  # a sprite with an alpha channel: the text's ink sets its alpha too
        line = text_line(text, px)
        left, top = _text_origin(line, x, y, anchor)
        img.paste(colour, (left, top), line.mask)
        return line.width
    chain = fonts.chain()
    spread = _spread(chain, text, px) if anchor[1] != "c" else None
    if spread is not None:  # a new line of known words ("Move 27 · Alice to play"): each word's stamp
        width, height, words = spread
        # where `_text_origin` puts the line's mask
        origin_x = round(x - {"l": 0.0, "m": width / 2, "r": float(width)}[anchor[0]])
        origin_y = round(y - {"t": 0.0, "m": height / 2, "b": float(height)}[anchor[1]])
        for word, offset in words:
            stamp = _stamp(chain, word, px, colour)
            if stamp.image is not None:
                paste_rgba(img, stamp.image, origin_x + offset + stamp.ink[0], origin_y + stamp.ink[1])
        return width
    stamp = _stamp(chain, text, px, colour)
    left, top = _text_origin(stamp.line, x, y, anchor)
    if stamp.image is not None:
        left, top = left + stamp.ink[0], top + stamp.ink[1]
        paste_rgba(img, stamp.image, left, top)
    return stamp.line.width


@lru_cache(maxsize=4096)
def _spread(
    chain: fonts.FontChain, text: str, px: int
) -> tuple[int, int, tuple[tuple[str, int], ...]] | None:
    """A line put together from its words' masks (`_line`), as (its width, its height, each inked word
    with where its own mask starts in the line), where the words' inked columns do not overlap and stay
    inside the line: then pasting each word's stamp there changes exactly the pixels the line's stamp
    does, without drawing the line (most such lines are new: the move number, the counters). None for
    any other line."""
    words = _words(chain, text)
    if words is None:
        return None
    ascent, descent = chain.primary.font(px).getmetrics()
    width = _width(chain, text, px)
    space = _plain_length(chain, " ", px)
    placed: list[tuple[str, int]] = []
    x, inked_to = 0.0, 0
    for word in words:
        if word:
            piece, ink_left = _word_ink(chain, word, px)
            if piece is not None:
                start = round(x) + ink_left
                if start < inked_to or start + piece.width > width or piece.height != ascent + descent:
                    return None
                inked_to = start + piece.width
                placed.append((word, round(x)))
            x += _plain_length(chain, word, px)
        x += space
    return width, ascent + descent, tuple(placed)


def _text_origin(line: Line, x: float, y: float, anchor: str) -> tuple[int, int]:
    """Where the top left corner of a line's mask goes for `draw_text`'s anchor."""
    mask = line.mask
    w = mask.width
    left = x - {"l": 0.0, "m": w / 2, "r": float(w)}[anchor[0]]
    if anchor[1] == "c":
        ink = _ink_box(line)
        top = y - (ink[1] + ink[3]) / 2
    else:
        top = y - line.top - {"t": 0.0, "m": line.height / 2, "b": float(line.height)}[anchor[1]]
    return round(left), round(top)


def text_origin(line: Line, x: float, y: float, anchor: str) -> tuple[int, int]:
    """Where the top left corner of a line's mask goes when `draw_text` draws it at (x, y) with `anchor`."""
    return _text_origin(line, x, y, anchor)


def _ink_box(line: Line) -> Box:
    """The box of a line's inked pixels (the whole mask for a blank line)."""
    return line.mask.getbbox() or (0, 0, line.mask.width, line.mask.height)


@dataclass(frozen=True, slots=True)
class Stamp:
    """A line of text in one colour, ready to paste: the RGBA image of its inked pixels only (alpha: the
    mask), where that box sits in the line's mask, and the line (for its anchors)."""

    line: Line
    image: Image.Image | None
    ink: Box


STAMP_CACHE_SIZE = 1024
"""Text stamps remembered (most are a word or two: a few kB each)."""


@lru_cache(maxsize=STAMP_CACHE_SIZE)
def _stamp(chain: fonts.FontChain, text: str, px: int, colour: RGB) -> Stamp:
    """`text` drawn once per font chain, size and colour. Pasting it changes exactly the pixels that pasting
    the colour through the line's mask does (outside the ink the mask is 0), with a fraction of the work."""
    line = _line(chain, text, px)
    ink = line.mask.getbbox()
    if ink is None:
        return Stamp(line, None, (0, 0, 0, 0))
    image = Image.new("RGBA", (ink[2] - ink[0], ink[3] - ink[1]), (*colour, 0))
    image.putalpha(line.mask.crop(ink))
    return Stamp(line, image, ink)


def paste_rgba(img: Image.Image, sprite: Image.Image, left: int, top: int) -> None:
    """Blend an RGBA sprite onto an image through its alpha with its top left corner at (left, top): the
    same pixels as `img.paste(sprite, (left, top), sprite)`, without that method's checks (dozens of
    pastes make a board)."""
    if img.mode != "RGB" or sprite.mode != "RGBA" or img.readonly:
        img.paste(sprite, (left, top), sprite)
        return
    core = sprite.im
    img.im.paste(core, (left, top, left + sprite.width, top + sprite.height), core)


# --------------------------------------------------------------------------------------------- shapes


@lru_cache(maxsize=512)
def disc_sprite(radius: float, fill: RGB, rim: RGB, rim_width: float, shadow: bool = False) -> Image.Image:
    """A smooth (supersampled) disc with a rim, as a square RGBA sprite centred on the disc's centre."""
    pad = math.ceil(radius * 0.12) if shadow else 0
    half = math.ceil(radius) + 1 + pad
    side = 2 * half
    big = Image.new("RGBA", (side * SUPERSAMPLE, side * SUPERSAMPLE), (0, 0, 0, 0))
    draw = ImageDraw.Draw(big)
    c = half * SUPERSAMPLE
    r = radius * SUPERSAMPLE
    if shadow:
        o = pad * SUPERSAMPLE
        draw.ellipse((c - r + o, c - r + o, c + r + o, c + r + o), fill=(0, 0, 0, 90))
    draw.ellipse((c - r, c - r, c + r, c + r), fill=(*rim, 255))
    inner = r - rim_width * SUPERSAMPLE
    if inner > 0:
        draw.ellipse((c - inner, c - inner, c + inner, c + inner), fill=(*fill, 255))
    return big.resize((side, side), Image.Resampling.LANCZOS)


@lru_cache(maxsize=512)
def ring_sprite(radius: float, colour: RGB, width: float) -> Image.Image:
    """A smooth ring (circle outline) as an RGBA sprite, for last-move marks."""
    half = math.ceil(radius + width) + 1
    side = 2 * half
    big = Image.new("RGBA", (side * SUPERSAMPLE, side * SUPERSAMPLE), (0, 0, 0, 0))
    draw = ImageDraw.Draw(big)
    c = half * SUPERSAMPLE
    r = (radius + width / 2) * SUPERSAMPLE
    draw.ellipse((c - r, c - r, c + r, c + r), outline=(*colour, 255), width=round(width * SUPERSAMPLE))
    return big.resize((side, side), Image.Resampling.LANCZOS)


def mark_ring(img: Image.Image, cx: float, cy: float, radius: float, theme: Theme, k: float) -> None:
    """The last-move ring: a thick highlight ring edged by a thin ink line outside and a thin contrasting
    line inside, so it shows on every tile and disc colour."""
    for sprite in ring_sprites(radius, theme, k):
        paste_centred(img, sprite, cx, cy)


def paste_opaque(img: Image.Image, tile: Image.Image, left: int, top: int) -> None:
    """Copy an image of the same mode into `img` with its top left corner at (left, top) (what
    `img.paste(tile, (left, top))` does, without that method's checks)."""
    if img.mode != tile.mode or img.readonly:
        img.paste(tile, (left, top))
        return
    img.im.paste(tile.im, (left, top, left + tile.width, top + tile.height))


def inside_cell(sprite: Image.Image, cell: Box, cx: float, cy: float) -> bool:
    """Whether a sprite pasted centred on (cx, cy) (`paste_centred`) stays inside the box `cell`."""
    left, top = round(cx - sprite.width / 2), round(cy - sprite.height / 2)
    return (
        left >= cell[0]
        and top >= cell[1]
        and left + sprite.width <= cell[2]
        and top + sprite.height <= cell[3]
    )


def ink_box(sprite: Image.Image, cx: float, cy: float) -> Box | None:
    """The box of the inked (not fully transparent) pixels of an RGBA sprite pasted centred on (cx, cy)
    (`paste_centred`); None if it has no ink."""
    ink = sprite.getchannel("A").getbbox()
    if ink is None:
        return None
    left, top = round(cx - sprite.width / 2), round(cy - sprite.height / 2)
    return left + ink[0], top + ink[1], left + ink[2], top + ink[3]


@lru_cache(maxsize=256)
def ring_ink(radius: float, theme: Theme, k: float, cx: float, cy: float) -> tuple[Box, ...]:
    """The boxes of the ink of `mark_ring`'s ring centred on (cx, cy) (`ink_box`), outermost first."""
    return tuple(
        box for sprite in ring_sprites(radius, theme, k) if (box := ink_box(sprite, cx, cy)) is not None
    )


def ring_sprites(radius: float, theme: Theme, k: float) -> tuple[Image.Image, ...]:
    """The sprites of `mark_ring`'s last-move ring, outermost first."""
    width, thin = 3.5 * k, max(1.0, 1.2 * k)
    return (
        ring_sprite(radius + width / 2 + thin / 2, theme.ink, thin),
        ring_sprite(radius, theme.highlight, width),
        ring_sprite(radius - thin, theme.highlight_ink, thin),
    )


def paste_centred(img: Image.Image, sprite: Image.Image, cx: float, cy: float) -> None:
    """Paste an RGBA sprite with its centre pixel on (cx, cy)."""
    paste_rgba(img, sprite, round(cx - sprite.width / 2), round(cy - sprite.height / 2))


def mark_polygon(shape: str, cx: float, cy: float, r: float) -> list[tuple[float, float]]:
    """A small seat mark ("square", "triangle", "diamond"; a circle is drawn as a 16-gon)."""
    if shape == "square":
        s = r * 0.85
        return [(cx - s, cy - s), (cx + s, cy - s), (cx + s, cy + s), (cx - s, cy + s)]
    if shape == "triangle":
        return [(cx, cy - r * 1.1), (cx + r, cy + r * 0.75), (cx - r, cy + r * 0.75)]
    if shape == "diamond":
        return [(cx, cy - r * 1.15), (cx + r, cy), (cx, cy + r * 1.15), (cx - r, cy)]
    return [(cx + r * math.cos(a * math.pi / 8), cy + r * math.sin(a * math.pi / 8)) for a in range(16)]


def thick_line(
    draw: ImageDraw.ImageDraw, a: tuple[float, float], b: tuple[float, float], colour: RGB, width: int
) -> None:
    """A line with round ends, so joined segments have no gaps at their corners."""
    draw.line((a, b), fill=colour, width=width)
    r = width / 2 - 0.5
    if r >= 1:
        for x, y in (a, b):
            draw.ellipse((x - r, y - r, x + r, y + r), fill=colour)


# --------------------------------------------------------------------------------------------- regions


class RegionCache:
    """Parts of boards remembered as drawn: a box of pixels per key, at most `maxsize` boxes (the least
    recently used go first). The key names everything drawn in the box and what lay under it (theme, size,
    language, fonts, the values shown); the box is part of it, so a part is only ever pasted back where it
    was drawn, which makes the result the same pixels as drawing it again. Safe to share between the
    threads that draw boards: the boxes are never changed once stored."""

    check = False
    """Tests set this: every drawing stored is checked to stay inside its box, and every paste to go where
    the pixels are those the stored drawing was made over (else the key misses something)."""

    def __init__(self, maxsize: int) -> None:
        self.maxsize = maxsize
        self._boxes: OrderedDict[Hashable, Image.Image] = OrderedDict()
        self._under: dict[Hashable, Image.Image] = {}  # with `check` only: what each box was drawn over
        self._lock = threading.Lock()

    def __len__(self) -> int:
        return len(self._boxes)

    def clear(self) -> None:
        with self._lock:
            self._boxes.clear()
            self._under.clear()

    def draw(self, img: Image.Image, box: Box, key: Hashable, paint: Callable[[], None]) -> None:
        """Paste the pixels stored for `key` into `box`, or call `paint` (which draws inside `box` only) and
        store what it drew."""
        full_key = (key, box, img.mode, fonts.chain())  # every part may hold text: the fonts are in the key
        stored = self._boxes.get(full_key)  # one atomic step each: a board reads without the lock
        if stored is not None:
            with contextlib.suppress(KeyError):  # another thread may have just let it go
                self._boxes.move_to_end(full_key)
            if self.check:
                under = self._under.get(full_key)
                same = under is None or ImageChops.difference(under, img.crop(box)).getbbox() is None
                assert same, f"the pixels under {key!r} in {box} differ from those it was drawn over"
            paste_opaque(img, stored, box[0], box[1])
            return
        before = img.copy() if self.check else None
        paint()
        if before is not None:
            changed = ImageChops.difference(before, img).getbbox()
            inside = changed is None or (
                changed[0] >= box[0]
                and changed[1] >= box[1]
                and changed[2] <= box[2]
                and changed[3] <= box[3]
            )
            assert inside, f"a drawing for {key!r} reached {changed}, outside its box {box}"
            self._under[full_key] = before.crop(box)
        part = img.crop(box)
        with self._lock:
            self._boxes[full_key] = part
            while len(self._boxes) > self.maxsize:
                self._boxes.popitem(last=False)


# --------------------------------------------------------------------------------------------- header


@dataclass(frozen=True, slots=True)
class SeatChip:
    """One player in the header: name, role ("Black", "Red"), a score line, and a swatch."""

    name: str
    role: str
    detail: str
    fill: RGB
    rim: RGB
    mark: str = ""
    """A shape drawn on the swatch ("circle", "square", ...), or "" for none."""
    mark_ink: RGB | None = None
    to_move: bool = False
    winner: bool = False


def _chip_detail(chip: SeatChip, flag: str, px: int, room: float) -> str:
    """The chip's second line: "TO PLAY  Red · 24 cells"; in a narrow chip the role (shown by the swatch
    and the panel) gives way before the text is cut short."""
    if flag:
        if chip.detail:
            full = wording.text("chip.flag_detail", flag=flag, role=chip.role, detail=chip.detail)
            if text_width(full, px) > room:
                full = wording.text("chip.flag_detail_only", flag=flag, detail=chip.detail)
            return fit_text(full, px, room)
        return fit_text(wording.text("chip.flag_role", flag=flag, role=chip.role), px, room)
    plain = wording.text("chip.detail", role=chip.role, detail=chip.detail) if chip.detail else chip.role
    return fit_text(plain, px, room)


CHIP_FRAMES = RegionCache(64)
"""The rounded box of the seat to move or of a winner, by theme, size and place (a handful per layout)."""


def draw_header(img: Image.Image, pg: Page, theme: Theme, chips: Sequence[SeatChip], status: str) -> None:
    """The header strip: one chip per seat (the seat to move boxed, winners starred) and a status line."""
    draw = ImageDraw.Draw(img)
    x0, y0, x1, y1 = pg.header
    draw.rectangle((x0, y0, x1 - 1, y1 - 1), fill=theme.header)
    margin, gap = pg.px(10), pg.px(8)
    slot = (x1 - x0 - 2 * margin - gap * (len(chips) - 1)) / max(1, len(chips))
    chip_top, chip_bottom = y0 + pg.px(6), y0 + pg.px(58)
    name_px, detail_px, status_px = pg.px(21), pg.px(15), pg.px(17)
    for n, chip in enumerate(chips):
        left = x0 + margin + n * (slot + gap)
        right = left + slot
        if chip.winner or chip.to_move:
            outline = theme.win if chip.winner else theme.header_ink
            frame = (math.floor(left), chip_top, math.ceil(right) + 1, chip_bottom + 1)
            rounded = partial(
                draw.rounded_rectangle,
                (left, chip_top, right, chip_bottom),
                radius=pg.px(8),
                fill=theme.turn_box,
                outline=outline,
                width=pg.px(2),
            )
            CHIP_FRAMES.draw(img, frame, (theme, pg.width, outline), rounded)
        r = pg.px(14)
        cx, cy = left + pg.px(10) + r, (chip_top + chip_bottom) / 2
        paste_centred(img, disc_sprite(r, chip.fill, chip.rim, max(1.0, pg.k * 2), False), cx, cy)
        if chip.mark:
            draw.polygon(mark_polygon(chip.mark, cx, cy, r * 0.5), fill=chip.mark_ink or chip.rim)
        text_left = cx + r + pg.px(9)
        room = right - text_left - pg.px(8)
        flag = (
            wording.text("chip.winner")
            if chip.winner
            else wording.text("chip.to_play")
            if chip.to_move
            else ""
        )
        name = fit_text(chip.name, name_px, room)
        draw_text(img, text_left, chip_top + pg.px(3), name, name_px, theme.header_ink)
        detail = _chip_detail(chip, flag, detail_px, room)
        colour = theme.win if chip.winner else theme.header_muted
        draw_text(img, text_left, chip_top + pg.px(30), detail, detail_px, colour)
    status_text = fit_text(status, status_px, x1 - x0 - 2 * margin)
    draw_text(
        img, (x0 + x1) / 2, (chip_bottom + y1) / 2 + pg.px(1), status_text, status_px, theme.header_ink, "mm"
    )


def seat_names(rules: Any, state: Any, players: Sequence[str] | None, seats: int) -> list[str]:
    """Display names per seat: the given players, or the seats' roles when no names are known."""
    names = list(players or ())
    return [
        names[s] if s < len(names) and names[s] else wording.word(rules.seat_label(state, s))
        for s in range(seats)
    ]


def final_outcome(rules: Any, state: Any, outcome: Outcome | None) -> Outcome | None:
    """The result to show: the one given (a resignation, timeout or abort decided outside the engine), else
    the engine's own (None while the game goes on)."""
    return outcome if outcome is not None else rules.outcome(state)


def status_text(
    rules: Any, state: Any, names: Sequence[str], note: str = "", outcome: Outcome | None = None
) -> str:
    """The header's status line: the move number and whose turn, or the result and the number of moves
    (`Rules.moves_played`, the count the bot's texts use too). `outcome` overrides the engine's result."""
    ply = rules.moves_played(state)
    shown = final_outcome(rules, state, outcome)
    if shown is not None:
        return wording.text(
            "status.over", result=wording.result(shown, names), moves=wording.move_caption(ply, True)
        )
    seat = rules.to_move(state)
    who = names[seat] if seat is not None else wording.text("mover.nobody")
    role = wording.word(rules.seat_label(state, seat)) if seat is not None else ""
    mover = who if role == who or not role else wording.with_role(who, role)
    return wording.status(wording.move_caption(ply, False), mover, note)


# --------------------------------------------------------------------------------------------- output


@cache
def palette_image(theme: Theme, game_id: str | None = None) -> Image.Image:
    """A 1x1 "P" image carrying the theme's fixed palette (with `game_id`'s own colours), for
    `Image.quantize`."""
    flat: list[int] = []
    for colour in palette(theme, game_id):
        flat.extend(colour)
    holder = Image.new("P", (1, 1))
    holder.putpalette(flat)
    holder.load()  # the palette reaches the image's core, which `png_bytes` converts with
    return holder


def to_palette(img: Image.Image, theme: Theme, game_id: str | None = None) -> Image.Image:
    """Map an RGB drawing onto the theme's fixed palette (nearest colour, no dithering)."""
    return img.quantize(palette=palette_image(theme, game_id), dither=Image.Dither.NONE)


@cache
def palette_bytes(theme: Theme, game_id: str | None = None) -> bytes:
    """The theme's fixed palette (with `game_id`'s own colours) as a PNG's PLTE holds it (RGB triples)."""
    holder = palette_image(theme, game_id)
    holder.load()
    return bytes(holder.im.getpalette("RGB"))


def png_bytes(img: Image.Image, theme: Theme, game_id: str | None = None) -> bytes:
    """The drawing as a palette-mode PNG with `game_id`'s own colours in the palette (`renderer.png`: fast to
    write, same pixels as Pillow's). An RGB drawing is mapped as `to_palette` maps it, without building an
    `Image` around the indices."""
    if img.mode != "RGB":
        return png.encode(to_palette(img, theme, game_id))
    img.load()
    return png.encode_indices(
        img.im.convert("P", 0, palette_image(theme, game_id).im), palette_bytes(theme, game_id)
    )


def new_canvas(pg: Page, theme: Theme) -> Image.Image:
    img = Image.new("RGB", (pg.width, pg.height), theme.background)
    ImageDraw.Draw(img).rectangle(
        (pg.panel[0], pg.panel[1], pg.panel[2] - 1, pg.panel[3] - 1), fill=theme.panel
    )
    return img


def shade(colour: RGB, towards: RGB, t: float) -> RGB:
    """`blend`, re-exported for drawers."""
    return blend(colour, towards, t)
