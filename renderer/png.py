"""The PNG encoder of board images: a palette ("P") image to the bytes the bot sends.

A board's encode was most of its cost (zlib at level 3 alone took longer than drawing the board), so boards
are written here rather than by Pillow's PNG plugin: the same pixels (the decoded image is the same palette
indices and palette), with

- every scanline unfiltered (filter type 0): palette indices are labels, not quantities, so the predicting
  filters do not help them, and choosing one per row costs time;
- the pixel stream compressed by ISA-L (`isal`) at level 1: a few times faster than zlib at the level the
  boards used (3) for a file of about the same size, and an ordinary zlib stream any PNG reader decodes.

Only the chunks a palette image needs are written: IHDR, PLTE, IDAT, IEND.
"""

from __future__ import annotations

import struct
import zlib
from typing import Any

from isal import isal_zlib
from PIL import Image

SIGNATURE = b"\x89PNG\r\n\x1a\n"
LEVEL = 1
"""ISA-L's compression level (0 to 3); level 1 is about as small as zlib's level 3 on boards and takes a
fraction of its time (bench/render.py --encoders)."""


def chunk(kind: bytes, data: bytes) -> bytes:
    """One PNG chunk: length, type, data and the CRC of type and data."""
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(data, zlib.crc32(kind)))


def scanlines(indices: Any) -> bytes:
    """The rows of a palette image's core (`Image.im`) as PNG scanlines with filter type 0: a zero byte,
    then the row's indices. Built by pasting the image one column right into an image a column wider, whose
    first column is zeros."""
    width, height = indices.size
    rows = Image.new("P", (width + 1, height), 0)
    rows.im.paste(indices, (1, 0, width + 1, height))
    return rows.tobytes()


def encode(img: Image.Image) -> bytes:
    """A "P" image (8 bits per pixel, at most 256 palette colours, no transparency) as PNG bytes."""
    if img.mode != "P" or "transparency" in img.info:
        raise ValueError(f"encode takes a palette image without transparency, not mode {img.mode}")
    img.load()  # a palette just put on the image reaches its core on load
    return encode_indices(img.im, img.im.getpalette("RGB"))


def encode_indices(indices: Any, palette: bytes) -> bytes:
    """PNG bytes of palette indices (the core of a "P" image, `Image.im`, as `convert` returns it) with
    `palette` (RGB triples): `encode` without an `Image` around the indices."""
    width, height = indices.size
    header = struct.pack(">IIBBBBB", width, height, 8, 3, 0, 0, 0)  # 8 bits, palette colour, no interlace
    return b"".join(
        (
            SIGNATURE,
            chunk(b"IHDR", header),
            chunk(b"PLTE", palette),
            chunk(b"IDAT", isal_zlib.compress(scanlines(indices), LEVEL)),
            chunk(b"IEND", b""),
        )
    )
