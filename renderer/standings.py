"""A tournament's standings as a table image, and its podium.

Pure drawing from plain rows (the service's standings, with names already chosen): one header strip with
the title, a row of column heads (place, player, points, each tie-break by its short name, games), then one
row per player, the first three places marked by medal discs, a withdrawn player's row muted, an arena
player on a winning streak flagged. Each image has its alt text (`standings_alt`, `podium_alt`): the same
table in words. Theme colours come from the theme (`get_theme`), text through the
font chain (CJK and emoji included), in the language of `translations` (None: English).
"""

from __future__ import annotations

import gettext
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import partial

from PIL import Image, ImageDraw

from games.texts import N_, Translations, table_numbers
from renderer import text as wording
from renderer.canvas import disc_sprite, draw_text, fit_text, paste_centred, png_bytes
from renderer.theme import RGB, Theme, blend, get_theme

WIDTH = 960
ALT_TEXT_LIMIT = 1024
"""Discord's limit on an attachment's description."""
MAX_ROWS = 40
"""Rows drawn at most; the rest are counted in a footer."""

TIEBREAK_HEADS = {
    "buchholz": N_("Bh"),
    "median_buchholz": N_("MBh"),
    "sonneborn_berger": N_("SB"),
    "direct_encounter": N_("DE"),
    "wins": N_("Wins"),
}
"""Short names of the tie-breaks by their service key (the same words as the text standings)."""


@dataclass(frozen=True, slots=True)
class Row:
    place: int
    name: str
    points: float
    tiebreaks: tuple[float, ...] = ()
    games: int = 0
    withdrawn: bool = False
    on_fire: bool = False


def _words(translations: Translations | None) -> Translations:
    return translations if translations is not None else gettext.NullTranslations()


def medal_colours(theme: Theme) -> tuple[RGB, RGB, RGB]:
    """Gold, silver and bronze in the theme's colours (gold is the theme's winner colour)."""
    return theme.win, blend(theme.muted, theme.background, 0.45), blend(theme.win, theme.board_edge, 0.55)


def standings_png(
    rows: Sequence[Row],
    tiebreaks: Sequence[str],
    title: str,
    *,
    theme: str | Theme = "default",
    width: int = WIDTH,
    translations: Translations | None = None,
) -> bytes:
    """The standings table as a PNG `width` pixels wide; `tiebreaks` are the service's keys of the
    tie-break columns, in the order of each row's values; `title` is already worded."""
    chosen = get_theme(theme)
    words = _words(translations)
    k = width / WIDTH
    shown = list(rows[:MAX_ROWS])
    more = len(rows) - len(shown)
    header, head_row, row_h = round(72 * k), round(40 * k), round(40 * k)
    footer = round(44 * k) if more > 0 else round(12 * k)
    height = header + head_row + row_h * max(1, len(shown)) + footer
    img = Image.new("RGB", (width, height), chosen.background)
    draw = ImageDraw.Draw(img)
    draw.rectangle((0, 0, width, header), fill=chosen.header)
    margin = round(20 * k)
    title_px, head_px, cell_px = round(30 * k), round(17 * k), round(20 * k)
    draw_text(
        img,
        margin,
        header / 2,
        fit_text(title, title_px, width - 2 * margin),
        title_px,
        chosen.header_ink,
        "lm",
    )

    tie_w = round(78 * k)
    columns_right = width - margin
    games_x = columns_right
    tie_xs = [games_x - round(100 * k) - (len(tiebreaks) - 1 - i) * tie_w for i in range(len(tiebreaks))]
    points_x = (tie_xs[0] if tie_xs else games_x - round(70 * k)) - round(90 * k)
    place_x, name_x = margin + round(22 * k), margin + round(58 * k)

    top = header
    draw.rectangle((0, top, width, top + head_row), fill=chosen.panel)
    mid = top + head_row / 2
    heads = [
        (place_x, "#", "mm"),
        (name_x, words.gettext(N_("Player")), "lm"),
        (points_x, words.gettext(N_("Points")), "rm"),
        *(
            (x, words.gettext(TIEBREAK_HEADS.get(key, key)), "rm")
            for x, key in zip(tie_xs, tiebreaks, strict=True)
        ),
        (games_x, words.gettext(N_("Played")), "rm"),
    ]
    for x, text, anchor in heads:
        draw_text(img, x, mid, text, head_px, chosen.muted, anchor)

    medals = medal_colours(chosen)
    number = table_numbers([value for row in rows for value in (row.points, *row.tiebreaks)])  # as its text
    name_room = points_x - round(70 * k) - name_x
    for index, row in enumerate(shown):
        y0 = top + head_row + index * row_h
        if index % 2:
            draw.rectangle((0, y0, width, y0 + row_h - 1), fill=blend(chosen.panel, chosen.background, 0.5))
        cy = y0 + row_h / 2
        ink = chosen.muted if row.withdrawn else chosen.ink
        if row.place <= 3 and not row.withdrawn:
            r = row_h * 0.36
            paste_centred(
                img, disc_sprite(r, medals[row.place - 1], chosen.board_edge, max(1.0, k * 1.5)), place_x, cy
            )
            draw_text(img, place_x, cy, str(row.place), round(17 * k), chosen.ink, "mc")
        else:
            draw_text(img, place_x, cy, str(row.place), cell_px, ink, "mm")
        name = row.name
        if row.withdrawn:
            name = words.gettext(N_("{name} (withdrew)")).format(name=name)
        if row.on_fire:
            name = f"{name} 🔥"
        draw_text(img, name_x, cy, fit_text(name, cell_px, name_room), cell_px, ink, "lm")
        draw_text(img, points_x, cy, number(row.points), round(23 * k), ink, "rm")
        for x, value in zip(tie_xs, row.tiebreaks, strict=False):
            draw_text(img, x, cy, number(value), cell_px, chosen.muted if not row.withdrawn else ink, "rm")
        draw_text(img, games_x, cy, str(row.games), cell_px, ink, "rm")
    if not shown:
        draw_text(
            img,
            width / 2,
            top + head_row + row_h / 2,
            words.gettext(N_("No players yet")),
            cell_px,
            chosen.muted,
            "mm",
        )
    foot_y = height - footer / 2
    if more > 0:
        text = words.ngettext("…and {count} more player", "…and {count} more players", more).format(
            count=more
        )
        draw_text(img, margin, foot_y, text, head_px, chosen.muted, "lm")
    return png_bytes(img, chosen)


def podium_png(
    rows: Sequence[Row],
    title: str,
    *,
    theme: str | Theme = "default",
    width: int = WIDTH,
    translations: Translations | None = None,
) -> bytes:
    """The podium: places 1 to 3 on steps (2nd left, 1st centre, 3rd right), each with the name and points
    above it; players sharing a place share its step (names one under the other; more than three: the first
    two and how many more share it)."""
    chosen = get_theme(theme)
    words = _words(translations)
    k = width / WIDTH
    height = round(width * 0.56)
    img = Image.new("RGB", (width, height), chosen.background)
    draw = ImageDraw.Draw(img)
    header = round(72 * k)
    draw.rectangle((0, 0, width, header), fill=chosen.header)
    title_px, name_px, points_px = round(30 * k), round(24 * k), round(20 * k)
    draw_text(
        img,
        width / 2,
        header / 2,
        fit_text(title, title_px, width - 40 * k),
        title_px,
        chosen.header_ink,
        "mm",
    )
    medals = medal_colours(chosen)
    number = table_numbers([row.points for row in rows if row.place <= 3])
    step_w = width / 3 - round(24 * k)
    floor = height - round(24 * k)
    rise = {1: 0.42, 2: 0.3, 3: 0.2}
    slots = {2: 0, 1: 1, 3: 2}
    for place in (1, 2, 3):
        left = round(12 * k) + slots[place] * (width / 3)
        top = floor - (height - header) * rise[place]
        draw.rectangle(
            (left, top, left + step_w, floor),
            fill=medals[place - 1],
            outline=chosen.board_edge,
            width=max(1, round(2 * k)),
        )
        cx = left + step_w / 2
        draw_text(img, cx, (top + floor) / 2, str(place), round(48 * k), chosen.ink, "mc")
        standing = [r for r in rows if r.place == place]
        shown = standing if len(standing) <= 3 else standing[:2]
        y = top - round(10 * k)
        if len(standing) > len(shown):
            more = len(standing) - len(shown)
            text = words.ngettext("…and {count} more player", "…and {count} more players", more)
            draw_text(
                img,
                cx,
                y,
                fit_text(text.format(count=more), points_px, step_w),
                points_px,
                chosen.muted,
                "mb",
            )
            y -= round(34 * k)
        for row in reversed(shown):
            points = words.gettext(N_("Points: {points}")).format(points=number(row.points))
            draw_text(img, cx, y, points, points_px, chosen.muted, "mb")
            y -= round(26 * k)
            draw_text(img, cx, y, fit_text(row.name, name_px, step_w), name_px, chosen.ink, "mb")
            y -= round(34 * k)
    return png_bytes(img, chosen)


def _alt(title: str, parts: list[str], more_player: Callable[[int], str]) -> str:
    """`title` and `parts` in words in the current language ("Final standings: 1. ...; 2. ..."), as many
    parts as fit `ALT_TEXT_LIMIT`, then how many more there are."""
    separator = wording.text("alt.items", first="", then="")
    head = wording.text("standings.alt", title=title, rows="")
    room = ALT_TEXT_LIMIT - len(head) - len(separator) - len(more_player(len(parts)))
    shown: list[str] = []
    used = 0
    for part in parts:
        extra = len(part) + (len(separator) if shown else 0)
        if used + extra > room:
            break
        shown.append(part)
        used += extra
    rest = len(parts) - len(shown)
    rows = separator.join([*shown, more_player(rest)] if rest else shown)
    return wording.text("standings.alt", title=title, rows=rows)[:ALT_TEXT_LIMIT]


def standings_alt(
    rows: Sequence[Row], tiebreaks: Sequence[str], title: str, *, translations: Translations | None = None
) -> str:
    """The standings image in words, for screen readers (the attachment's description): each row's place,
    player, points, tie-breaks and games, a withdrawal and a streak, its numbers written as the image
    writes them, in the language of `translations`; as many rows as fit, then how many more."""
    words = _words(translations)
    number = table_numbers([value for row in rows for value in (row.points, *row.tiebreaks)])
    heads = [words.gettext(TIEBREAK_HEADS.get(key, key)) for key in tiebreaks]
    points, played = words.gettext(N_("Points")), words.gettext(N_("Played"))
    with wording.using(translations):
        parts = []
        for row in rows:
            name = words.gettext(N_("{name} (withdrew)")).format(name=row.name) if row.withdrawn else row.name
            values = [
                wording.text("standings.alt.value", heading=head, value=number(value))
                for head, value in zip([points, *heads], (row.points, *row.tiebreaks), strict=False)
            ]
            values.append(wording.text("standings.alt.value", heading=played, value=row.games))
            joined = values[0]
            for value in values[1:]:
                joined = wording.text("alt.pair", first=joined, then=value)
            part = wording.text("standings.alt.row", place=row.place, name=name, values=joined)
            parts.append(f"{part} 🔥" if row.on_fire else part)
        if not parts:
            return wording.text("standings.alt", title=title, rows=words.gettext(N_("No players yet")))
        return _alt(title, parts, partial(_more, words))


def podium_alt(rows: Sequence[Row], title: str, *, translations: Translations | None = None) -> str:
    """The podium image in words: places 1 to 3 with each player's points, written as the image writes
    them."""
    words = _words(translations)
    places = [row for row in rows if row.place <= 3]
    number = table_numbers([row.points for row in places])
    with wording.using(translations):
        parts = [
            wording.text(
                "standings.alt.place",
                place=row.place,
                name=row.name,
                points=words.gettext(N_("Points: {points}")).format(points=number(row.points)),
            )
            for row in places
        ]
        return _alt(title, parts, partial(_more, words)) if parts else title


def _more(words: Translations, count: int) -> str:
    return words.ngettext("…and {count} more player", "…and {count} more players", count).format(count=count)
