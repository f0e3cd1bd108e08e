"""The boards are pixel for pixel what they were before the renderer learnt to cache: every case below is
drawn and compared with a reference made by the renderer as it was (tests/renderer/reference/).

Each reference is the palette PNG the bot sends (open it to look at it) plus the SHA-256 of the RGB drawing
before quantization, which is stricter (quantization merges near colours), and the digest of every theme's
fixed palette (for the games that share it), which decides the quantization of every drawing in every
theme and language. Glyph pixels depend on the font files and on Pillow's FreeType, so the manifest
records them and the image comparison skips, saying why, on a machine whose fonts or FreeType differ.
Regenerate, only after a change that is meant to change the images, with

    python -m tests.renderer.test_reference_images --sheet docs/<name>.png   # first: old | new | difference
    python -m tests.renderer.test_reference_images --write

where the sheet shows, for every case that changed, the reference, the new drawing and their difference
(the changed pixels in magenta over a faded copy, and a crop of the changed box enlarged), for review.

A failing case writes the new image beside a temporary copy of the reference for a look.
"""

from __future__ import annotations

import hashlib
import io
import json
import sys
import tempfile
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import PIL
import pytest
from PIL import Image, ImageChops, features

import games
import renderer
from bot.i18n import translations
from games.base import Outcome, Termination
from renderer import fonts
from renderer.canvas import RegionCache
from renderer.theme import THEME_NAMES, get_theme, palette
from tests.renderer.positions import random_game

REFERENCE = Path(__file__).parent / "reference"
MANIFEST = REFERENCE / "manifest.json"


@dataclass(frozen=True)
class Case:
    """One board to compare: a seeded game's position, with who plays, the theme, language and size."""

    name: str
    setup: str
    seats: int
    options: tuple[tuple[str, Any], ...]
    stage: str
    """"start", "middle", "end", or "ply:N"."""
    theme: str = "default"
    locale: str = "en"
    players: tuple[str, ...] = ("Alice", "Bob", "Carol", "Dave")
    size: int = renderer.DEFAULT_SIZE
    outcome: str = ""
    """"resign:S": seat S resigned (the others win); "abort": an aborted game; "": the engine's own."""
    pieces_seat: int = -1
    """>= 0: TilingKing's /pieces image of that seat instead of the board."""
    seed: int = 11


def _case(name: str, setup: str, seats: int, stage: str, **kw: Any) -> Case:
    options = kw.pop("options", {})
    return Case(name, setup, seats, tuple(sorted(options.items())), stage, **kw)


CASES: tuple[Case, ...] = (
    # Paintscape: balance phase (swaps, no colours yet), play, the end, both themes, three languages
    _case("paintscape-balance", "paintscape", 2, "ply:3", seed=5),
    _case("paintscape-start", "paintscape", 2, "start", options={"balance": False}),
    _case("paintscape-middle", "paintscape", 2, "middle", options={"balance": False}),
    _case(
        "paintscape-middle-cb-fr",
        "paintscape",
        2,
        "middle",
        options={"balance": False},
        theme="colorblind",
        locale="fr",
    ),
    _case(
        "paintscape-end-ja",
        "paintscape",
        2,
        "end",
        options={"balance": False},
        locale="ja",
        players=("山田太郎", "Zoë"),
    ),
    _case(
        "paintscape-resign-cb",
        "paintscape",
        2,
        "middle",
        options={"balance": False},
        theme="colorblind",
        outcome="resign:1",
    ),
    # Paint
    _case("paint-start", "paint", 2, "start"),
    _case("paint-middle", "paint", 2, "middle"),
    _case("paint-middle-cb-ja", "paint", 2, "middle", theme="colorblind", locale="ja"),
    _case("paint-end-fr", "paint", 2, "end", locale="fr", players=("Jürgen", "Дмитрий")),
    _case("paint-abort-de", "paint", 2, "ply:40", locale="de", outcome="abort"),
    _case("paint-small", "paint", 2, "ply:30", size=480),
    # TilingKing on squares, hexagons and triangles, 2 to 4 players
    _case("tk-sq9-middle", "tilingking", 2, "middle", options={"board": "sq9"}),
    _case("tk-sq9-end-cb", "tilingking", 2, "end", options={"board": "sq9"}, theme="colorblind"),
    _case("tk-hex-middle", "tilingking", 3, "middle", options={"board": "hex8bi"}),
    _case(
        "tk-hex-middle-cb-ja",
        "tilingking",
        3,
        "middle",
        options={"board": "hex8bi"},
        theme="colorblind",
        locale="ja",
        players=("山田", "محمد", "Carol (easy)"),
    ),
    _case("tk-hex-end-fr", "tilingking", 3, "end", options={"board": "hex8bi"}, locale="fr"),
    _case("tk-tri-middle", "tilingking", 4, "middle", options={"board": "tri6bi"}),
    _case("tk-tri-end-cb", "tilingking", 4, "end", options={"board": "tri6bi"}, theme="colorblind"),
    _case(
        "tk-tri-resign-ja",
        "tilingking",
        4,
        "ply:20",
        options={"board": "tri6bi"},
        locale="ja",
        outcome="resign:2",
    ),
    _case("tk-hex-large", "tilingking", 3, "ply:12", options={"board": "hex8bi"}, size=1440),
    _case("tk-pieces-hex", "tilingking", 3, "middle", options={"board": "hex8bi"}, pieces_seat=1),
    _case(
        "tk-pieces-tri-cb",
        "tilingking",
        4,
        "ply:8",
        options={"board": "tri6bi"},
        theme="colorblind",
        pieces_seat=3,
        locale="fr",
    ),
)


@cache
def _game(
    setup: str, seats: int, options: tuple[tuple[str, Any], ...], seed: int
) -> tuple[list[Any], list[str]]:
    return random_game(setup, seats, dict(options), seed)


def position(case: Case) -> tuple[Any, str | None]:
    """The case's state and the notation of the move that led to it."""
    states, moves = _game(case.setup, case.seats, case.options, case.seed)
    if case.stage == "start":
        n = 0
    elif case.stage == "middle":
        n = len(moves) // 2
    elif case.stage == "end":
        n = len(moves)
    else:
        n = min(int(case.stage.removeprefix("ply:")), len(moves))
    return states[n], moves[n - 1] if n else None


def outcome_of(case: Case) -> Outcome | None:
    if case.outcome == "abort":
        return Outcome(Termination.ABORTED, tuple(0 for _ in range(case.seats)))
    if case.outcome.startswith("resign:"):
        loser = int(case.outcome.removeprefix("resign:"))
        return Outcome(Termination.RESIGNATION, tuple(1 if s == loser else 0 for s in range(case.seats)))
    return None


def draw_case(case: Case, draw: Callable[..., Any] | None = None) -> tuple[bytes, bytes]:
    """(the PNG the bot would send, the RGB drawing's raw bytes) of one case."""
    state, last = position(case)
    words = translations(case.locale)
    players = case.players[: case.seats]
    if case.pieces_seat >= 0:
        png = renderer.render_pieces(
            case.setup,
            state,
            case.pieces_seat,
            players=players,
            theme=case.theme,
            size=case.size,
            translations=words,
        )
        return png, Image.open(io.BytesIO(png)).convert("RGB").tobytes()
    kwargs: dict[str, Any] = dict(
        last_move=last,
        players=players,
        theme=case.theme,
        size=case.size,
        outcome=outcome_of(case),
        translations=words,
    )
    image = renderer.render_image(case.setup, state, **kwargs)
    return renderer.render(case.setup, state, **kwargs), image.tobytes()


def environment() -> dict[str, Any]:
    """What glyph pixels depend on: the font files of the chain (name and size) and FreeType's version."""
    return {
        "fonts": [
            [Path(f.path).name, Path(f.path).stat().st_size] if f.path else [f.name, 0]
            for f in fonts.chain().faces
        ],
        "freetype": features.version("freetype2"),
        "pillow": PIL.__version__,
    }


def _digest(raw: bytes) -> str:
    return hashlib.sha256(raw).hexdigest()


def palettes() -> dict[str, str]:
    """The digest of each theme's fixed palette, alone and for each game that shares it (the bot's own):
    the palette decides how every drawing is quantized, in every theme and language, of which the
    references hold only a few. A game's colours moving elsewhere must leave it as it is."""
    sharing = [g for g in games.GAME_IDS if games.plugin(g).shared_palette is not None]
    return {
        f"{theme}/{game_id or '-'}": _digest(json.dumps(palette(get_theme(theme), game_id)).encode())
        for theme in THEME_NAMES
        for game_id in (None, *sharing)
    }


def write_references() -> None:
    """Draw every case with the renderer as it is now and store it as the reference."""
    REFERENCE.mkdir(exist_ok=True)
    for old in REFERENCE.glob("*.png"):
        old.unlink()
    digests = {}
    for case in CASES:
        png, raw = draw_case(case)
        (REFERENCE / f"{case.name}.png").write_bytes(png)
        digests[case.name] = _digest(raw)
    stored = {"environment": environment(), "rgb_sha256": digests, "palette_sha256": palettes()}
    MANIFEST.write_text(json.dumps(stored, indent=1) + "\n")


@pytest.fixture(autouse=True)
def checked_regions(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every part of a board the renderer stores for later must have been drawn inside its box."""
    monkeypatch.setattr(RegionCache, "check", True)


@pytest.fixture(scope="module")
def manifest() -> Iterator[dict[str, Any]]:
    """The stored references, with the renderer drawing in exactly the fonts they were drawn in (a machine
    may have more fallback fonts); skips where those fonts or FreeType's version are not here."""
    stored = json.loads(MANIFEST.read_text())
    wanted = stored["environment"]["fonts"]
    found = {Path(f.path).name: f.path for f in fonts.standard_faces() if f.path}
    paths = [found.get(name) for name, _ in wanted]
    here = [
        [Path(p).name, Path(p).stat().st_size] if p else [name, 0]
        for p, (name, _) in zip(paths, wanted, strict=True)
    ]
    freetype = features.version("freetype2")
    if here != wanted or freetype != stored["environment"]["freetype"]:
        pytest.skip(
            f"the reference images were drawn with fonts {wanted} and FreeType "
            f"{stored['environment']['freetype']}; this machine has {here} and FreeType {freetype} "
            "(install fonts-dejavu-core and fonts-noto-cjk, or regenerate the references from the commit "
            "before a change)"
        )
    fonts.use_fonts([p for p in paths if p])
    yield stored
    fonts.use_fonts(None)


def test_every_case_has_a_reference(manifest: dict[str, Any]) -> None:
    assert sorted(manifest["rgb_sha256"]) == sorted(c.name for c in CASES)
    assert len({c.name for c in CASES}) == len(CASES)


def test_the_palettes_are_those_the_references_were_quantized_to() -> None:
    """Needs no fonts: the palettes alone, so it runs where the image comparison skips."""
    assert palettes() == json.loads(MANIFEST.read_text())["palette_sha256"]


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_the_board_is_pixel_for_pixel_the_reference(case: Case, manifest: dict[str, Any]) -> None:
    png, raw = draw_case(case)
    again, raw_again = draw_case(case)  # the second time from the renderer's caches
    assert raw_again == raw and again == png, f"{case.name} drawn again from the caches differs"
    new = Image.open(io.BytesIO(png)).convert("RGB")
    ref = Image.open(REFERENCE / f"{case.name}.png").convert("RGB")
    assert new.size == ref.size
    box = ImageChops.difference(new, ref).getbbox()
    if box is not None or _digest(raw) != manifest["rgb_sha256"][case.name]:
        out = Path(tempfile.mkdtemp(prefix="render-ref-"))
        new.save(out / f"{case.name}.new.png")
        ref.save(out / f"{case.name}.reference.png")
        pytest.fail(f"{case.name} differs from its reference (PNG difference box {box}); see {out}")


def sheet(path: Path) -> list[str]:
    """Write a review sheet of every case whose drawing differs from its reference: a row each of the
    reference, the new drawing, their difference (changed pixels in magenta over a faded copy) and the
    changed box enlarged (reference above, new below); returns the cases that differ."""
    from PIL import ImageDraw

    stored = json.loads(MANIFEST.read_text())
    found = {Path(f.path).name: f.path for f in fonts.standard_faces() if f.path}
    fonts.use_fonts([p for name, _ in stored["environment"]["fonts"] if (p := found.get(name))])
    rows: list[tuple[str, Image.Image]] = []
    for case in CASES:
        png, _ = draw_case(case)
        new = Image.open(io.BytesIO(png)).convert("RGB")
        ref = Image.open(REFERENCE / f"{case.name}.png").convert("RGB")
        box = ImageChops.difference(new, ref).getbbox()
        if box is None:
            continue
        changed = ImageChops.difference(new, ref).convert("L").point(lambda v: 255 if v else 0)
        faded = Image.blend(ref, Image.new("RGB", ref.size, (255, 255, 255)), 0.7)
        faded.paste((228, 0, 124), (0, 0), changed)
        pad = 12
        x0, y0 = max(0, box[0] - pad), max(0, box[1] - pad)
        x1, y1 = min(ref.width, box[2] + pad), min(ref.height, box[3] + pad)
        zoom = max(1, min(8, ref.height // 2 // max(1, y1 - y0), ref.width // max(1, x1 - x0)))
        crops = Image.new("RGB", (ref.width, ref.height), (255, 255, 255))
        for n, image in enumerate((ref, new)):
            crop = image.crop((x0, y0, x1, y1))
            crops.paste(
                crop.resize((crop.width * zoom, crop.height * zoom), Image.Resampling.NEAREST),
                (0, n * ref.height // 2),
            )
        row = Image.new("RGB", (ref.width * 4, ref.height + 30), (255, 255, 255))
        for n, image in enumerate((ref, new, faded, crops)):
            row.paste(image, (n * ref.width, 30))
        label = (
            f"{case.name}: reference | new | changed pixels (magenta) | box {box} x{zoom}:"
            " reference above, new below"
        )
        ImageDraw.Draw(row).text((8, 8), label, fill=(0, 0, 0))
        rows.append((case.name, row))
    if rows:
        width = max(row.width for _, row in rows)
        out = Image.new("RGB", (width, sum(row.height for _, row in rows)), (255, 255, 255))
        y = 0
        for _, row in rows:
            out.paste(row, (0, y))
            y += row.height
        scale = min(1.0, 3840 / out.width)
        out = out.resize((round(out.width * scale), round(out.height * scale)), Image.Resampling.LANCZOS)
        out.quantize(256, dither=Image.Dither.NONE).save(path, optimize=True)
    return [name for name, _ in rows]


if __name__ == "__main__":
    if sys.argv[1:] == ["--write"]:
        write_references()
        print(f"wrote {len(CASES)} references to {REFERENCE}")
    elif len(sys.argv) == 3 and sys.argv[1] == "--sheet":
        changed = sheet(Path(sys.argv[2]))
        print(f"{len(changed)} of {len(CASES)} cases differ: {', '.join(changed) or 'none'}")
    else:
        sys.exit("usage: python -m tests.renderer.test_reference_images --write | --sheet PATH")
