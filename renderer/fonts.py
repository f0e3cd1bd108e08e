"""Fonts for names in any script: a chain of system fonts with per-character fallback.

Player names hold any Unicode ("Jürgen", "Дмитрий", "山田太郎", "김민준", "محمد", "😀 Zoe"), and no single
font draws all of it. The renderer uses a chain of fonts found in the standard Debian paths:

1. DejaVu Sans (`fonts-dejavu-core`): Latin, Greek, Cyrillic, Arabic, Hebrew, many symbols;
2. Noto Sans CJK (`fonts-noto-cjk`, its first face: Japanese glyph forms): Chinese, Japanese and Korean, with
   Droid Sans Fallback (`fonts-droid-fallback`) after it, or instead of it where only that is installed;
3. Symbola (`fonts-symbola`): emoji and other symbols, drawn in one colour like the rest of the text (the
   images use a fixed palette per theme, which colour emoji would not survive).

A string is split into runs, each drawn and measured with the first font of the chain whose character map
(read once per font with fontTools) holds every character of the run. Combining marks, variation selectors
and zero-width joiners stay with the character before them (and are dropped where that font lacks them).
A character no font has is drawn as "?".

`TESSERA_FONTS` (font files separated by `os.pathsep`) puts fonts in front of the chain, and `use_fonts`
replaces the chain (tests use it to simulate a machine without fonts). With no font found at all, the
renderer falls back to Pillow's bundled font (ASCII only) and logs one warning; it never fails for a font.
"""

from __future__ import annotations

import logging
import os
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache, lru_cache
from pathlib import Path

from PIL import ImageFont

log = logging.getLogger(__name__)

FONTS_ENV = "TESSERA_FONTS"
"""Environment variable: font files (separated by os.pathsep) to try before the standard ones."""


FONT_DIRS: tuple[str, ...] = ("/usr/share/fonts", "/usr/share/fonts-droid-fallback", "/usr/local/share/fonts")
"""Where the standard fonts are looked for (searched recursively, once per process): Debian's packages put
them under /usr/share/fonts (fonts-noto-cjk in opentype/noto/, the others in truetype/)."""

STANDARD_FONTS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("Latin, Greek, Cyrillic, Arabic, Hebrew (fonts-dejavu-core)", ("DejaVuSans.ttf",)),
    (
        "Chinese, Japanese, Korean (fonts-noto-cjk or fonts-droid-fallback)",
        (
            "NotoSansCJK-Regular.ttc",
            "NotoSansCJKjp-Regular.otf",
            "DroidSansFallbackFull.ttf",
            "DroidSansFallback.ttf",
        ),
    ),
    ("emoji and symbols (fonts-symbola)", ("Symbola_hint.ttf", "Symbola.ttf")),
)
"""The chain in order: (the scripts a font is there for and its Debian package, file names to look for).
Every file found is used: Noto Sans CJK draws Japanese in Japanese forms (Droid Sans Fallback in Chinese
ones); DroidSansFallbackFull has more Chinese, DroidSansFallback has Hangul."""

MISSING = "?"
"""Drawn for a character that no font of the chain has."""

_ATTACHED = frozenset("\u200c\u200d\ufe0e\ufe0f")
"""Zero-width (non-)joiners and text/emoji variation selectors: they belong to the character before them."""

_SKIN_TONES = range(0x1F3FB, 0x1F400)
"""Emoji skin tone modifiers: they only colour the emoji before them, so monochrome text leaves them out."""


def _attaches(ch: str) -> bool:
    """Whether `ch` belongs to the character before it: combining marks, joiners, variation selectors."""
    return ch in _ATTACHED or unicodedata.category(ch) in ("Mn", "Me")


@dataclass(frozen=True)
class Face:
    """One font file of the chain (path None: Pillow's bundled font)."""

    path: str | None
    name: str

    def has(self, ch: str) -> bool:
        if self.path is None:
            return _bundled_has(ch)
        return ord(ch) in _coverage(self.path)

    def font(self, px: int, shaped: bool = True) -> ImageFont.FreeTypeFont:
        """The font at `px` pixels; `shaped=False` gives Pillow's basic layout, about twice as fast, for
        runs that need no shaping or reordering (see `needs_shaping`)."""
        return _load(self.path, px, shaped)


@cache
def _coverage(path: str) -> frozenset[int]:
    """The code points a font file maps to a glyph (read once: 20 ms for DejaVu, 150 ms for a CJK font)."""
    from fontTools.ttLib import TTFont  # type: ignore[import-untyped]

    number = 0 if path.lower().endswith((".ttc", ".otc")) else -1
    with TTFont(path, lazy=True, fontNumber=number) as font:
        cmap = font.getBestCmap() or {}
    return frozenset(cmap)


@lru_cache(maxsize=256)
def _load(path: str | None, px: int, shaped: bool = True) -> ImageFont.FreeTypeFont:
    if path is None:
        loaded = ImageFont.load_default(size=px)
        assert isinstance(loaded, ImageFont.FreeTypeFont), "Pillow was built without FreeType"
        return loaded
    layout = None if shaped else ImageFont.Layout.BASIC
    return ImageFont.truetype(path, px, layout_engine=layout)


_COMPLEX_SCRIPTS = ((0x0590, 0x08FF), (0x0900, 0x0DFF), (0x0E00, 0x0FFF), (0x1000, 0x109F), (0x1780, 0x17FF))
"""Hebrew, Arabic, Syriac, Thaana; Indic; Thai, Lao, Tibetan; Myanmar; Khmer: scripts that need shaping."""


@lru_cache(maxsize=4096)
def _char_needs_shaping(ch: str) -> bool:
    code = ord(ch)
    return (
        unicodedata.bidirectional(ch) in ("R", "AL", "AN")
        or unicodedata.category(ch) in ("Mn", "Me")
        or ch in _ATTACHED
        or any(low <= code <= high for low, high in _COMPLEX_SCRIPTS)
        or 0xFB1D <= code <= 0xFEFF
    )


def needs_shaping(run: str) -> bool:
    """Whether a run needs a shaping layout (Raqm): right-to-left or joined scripts, combining marks."""
    return not run.isascii() and any(_char_needs_shaping(ch) for ch in run)


@cache
def _bundled_missing_mask() -> bytes:
    return bytes(_load(None, 32).getmask("\U0010fffd"))


@lru_cache(maxsize=4096)
def _bundled_has(ch: str) -> bool:
    """Pillow's bundled font: a glyph is there when it draws differently from the missing-glyph box."""
    if ch == " " or (ch.isascii() and ch.isprintable()):
        return True
    return bytes(_load(None, 32).getmask(ch)) != _bundled_missing_mask()


class FontChain:
    """The fonts in the order they are tried; the first one sets the line height. Compared and hashed by
    identity (caches key on the chain in use), with each character's font remembered."""

    __slots__ = ("_ascii", "_found", "_plain", "faces")

    def __init__(self, faces: Sequence[Face]) -> None:
        if not faces:
            raise ValueError("a font chain needs at least one font")
        self.faces: tuple[Face, ...] = tuple(faces)
        self._found: dict[str, int | None] = {}
        self._plain: set[str] = set()
        """Characters met so far that the first face has and that attach to nothing: a text of these
        alone is one run of the first face (`runs`)."""
        self._ascii = all(faces[0].has(chr(c)) for c in range(0x20, 0x7F))

    def __repr__(self) -> str:
        return f"FontChain({', '.join(f.path or f.name for f in self.faces)})"

    @property
    def primary(self) -> Face:
        return self.faces[0]

    def face_for(self, ch: str) -> int | None:
        """The index of the first face that has `ch`, or None."""
        if ch not in self._found:
            self._found[ch] = next((n for n, face in enumerate(self.faces) if face.has(ch)), None)
        return self._found[ch]

    def runs(self, text: str) -> list[tuple[int, str]]:
        """`text` split into (face index, run) pieces, in logical order; characters no face has become "?"."""
        if self._ascii and text.isascii() and text.isprintable():
            return [(0, text)] if text else []
        if text and self._plain.issuperset(text):
            return [(0, text)]
        out: list[tuple[int, list[str]]] = []
        for ch in text:
            if ord(ch) in _SKIN_TONES:
                continue
            if _attaches(ch):
                if out and self.faces[out[-1][0]].has(ch):
                    out[-1][1].append(ch)
                continue
            found = self.face_for(ch)
            if found == 0:
                self._plain.add(ch)
            face, ch = (found, ch) if found is not None else (0, MISSING)
            if out and out[-1][0] == face:
                out[-1][1].append(ch)
            else:
                out.append((face, [ch]))
        return [(face, "".join(chars)) for face, chars in out]


@cache
def _font_files() -> dict[str, str]:
    """File name -> path for every font file under FONT_DIRS (first found wins)."""
    found: dict[str, str] = {}
    for root in FONT_DIRS:
        base = Path(root)
        if not base.is_dir():
            continue
        for path in sorted(base.rglob("*")):
            if path.suffix.lower() in (".ttf", ".otf", ".ttc") and path.name not in found:
                found[path.name] = str(path)
    return found


def standard_faces() -> list[Face]:
    """The standard fonts found on this machine, in chain order."""
    files = _font_files()
    return [Face(files[n], label) for label, names in STANDARD_FONTS for n in names if n in files]


def _env_faces() -> list[Face]:
    paths = [p for p in os.environ.get(FONTS_ENV, "").split(os.pathsep) if p]
    faces = []
    for p in paths:
        if Path(p).is_file():
            faces.append(Face(p, Path(p).name))
        else:
            log.warning("%s names %s, which is not a file; ignoring it", FONTS_ENV, p)
    return faces


_chosen: list[FontChain] = []


def chain() -> FontChain:
    """The font chain in use (built on first use, logging once what is missing)."""
    if not _chosen:
        _chosen.append(_build(_env_faces() + standard_faces(), warn_missing=True))
    return _chosen[0]


def use_fonts(paths: Sequence[str] | None) -> FontChain:
    """Use exactly these font files (None: back to the environment and the standard paths). Returns the
    new chain; with no usable file it is Pillow's bundled font alone."""
    _chosen.clear()
    if paths is not None:
        faces = [Face(p, Path(p).name) for p in paths if Path(p).is_file()]
        _chosen.append(_build(faces, warn_missing=False))
    return chain()


def _build(faces: list[Face], *, warn_missing: bool) -> FontChain:
    if not faces:
        log.warning(
            "no fonts found; names are drawn with Pillow's bundled font and characters outside ASCII as "
            "'?'. Install fonts-dejavu-core, fonts-noto-cjk and fonts-symbola (looked in %s).",
            ", ".join(FONT_DIRS),
        )
        return FontChain((Face(None, "Pillow's bundled font"),))
    names = {f.name for f in faces}
    missing = [label for label, _ in STANDARD_FONTS if label not in names]
    if warn_missing and missing:
        log.warning("fonts not found (their characters are drawn as '?'): %s", "; ".join(missing))
    return FontChain(tuple(faces))
