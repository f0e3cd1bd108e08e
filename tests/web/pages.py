"""Helpers for the browser tests: matches started through the service, players logged in through (fake)
Discord, and moves played on the page as a person plays them: with the mouse (clicks, a drag, the ghost
piece under the pointer), by touch (a tap previews, a second tap or the Place button confirms) and with the
keyboard alone (arrow keys to the cell, Enter)."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import games
from bot.web.security import match_token
from games.base import ClickMove, resolve_options
from tests.web.conftest import SCREENSHOTS, Site

ALICE, BOB, CAROL = 101, 202, 303
LIVE_MS = 3000
"""A page must show a change within this many milliseconds (generous: the machine may be busy)."""
DRAWN = "#board.drawn .hits polygon.cell"


async def start(
    site: Site,
    game: str,
    options: dict[str, Any] | None = None,
    *,
    channel: int = 1,
    seats: tuple[int, ...] = (ALICE, BOB),
    guild: int | None = None,
) -> tuple[int, str]:
    """A match of `game` between `seats`, and its page's path."""
    rules = games.get(game)
    match = await site.service.matches.start(
        game,
        resolve_options(rules.options, options or {}),
        [(seat, None) for seat in seats],
        seed=7,
        rated=False,
        turn_timeout=86400,
        guild_id=guild,
        channel_id=channel,
    )
    return match.id, f"/m/{match_token(site.board.secret, match.id)}"


def watch_errors(page: Any) -> Any:
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.errors = errors
    return page


async def login(site: Site, browser: Any, user: int, path: str, **context: Any) -> Any:
    """A browser context logged in as `user` through the OAuth2 flow, on the match page, drawn."""
    ctx = await browser.new_context(bypass_csp=True, **context)  # lets the test evaluate its checks
    page = watch_errors(await ctx.new_page())
    site.discord.next_user = user
    await page.goto(f"{site.base}/login?next={path}")
    await page.wait_for_url(f"{site.base}{path}")
    await page.wait_for_selector(DRAWN)
    return page


async def spectator(site: Site, browser: Any, path: str, **context: Any) -> Any:
    ctx = await browser.new_context(bypass_csp=True, **context)
    page = watch_errors(await ctx.new_page())
    await page.goto(site.base + path)
    await page.wait_for_selector(DRAWN)
    return page


async def wait_ply(page: Any, ply: int, timeout: int = LIVE_MS) -> None:
    await page.wait_for_function(
        f"window.tessera.state() && window.tessera.state().ply === {ply}"
        f" && window.tessera.scene() && window.tessera.scene().ply === {ply}",
        timeout=timeout,
    )


async def photo(page: Any, name: str) -> None:
    """A screenshot of the page, or of the page holding it when `page` is a frame (the Activity's tests)."""
    holder = page if hasattr(page, "screenshot") else page.page
    await holder.screenshot(path=str(SCREENSHOTS / name))


def cell(i: int) -> str:
    return f".hits polygon.cell[data-i='{i}']"


async def marked(page: Any, kind: str) -> list[int]:
    """The cells the page marks as `kind` ("target", "ghost", "sel")."""
    found: list[int] = await page.eval_on_selector_all(
        f".marks .{kind}[data-i]", "ps => ps.map(p => Number(p.dataset.i))"
    )
    return sorted(found)


async def _pose(page: Any, click: ClickMove, press: Callable[[str], Any]) -> None:
    """Turn and mirror the chosen piece to the move's pose (`press`: "rotate" or "reflect")."""
    turn, mirrored = click.pose
    if (await page.evaluate("window.tessera.pose()"))[1] != mirrored:
        await press("reflect")
    for _ in range(12):
        if await page.evaluate("window.tessera.pose()") == [turn, mirrored]:
            return
        await press("rotate")
    raise AssertionError(f"the page never showed the pose {click.pose}")


async def click_play(page: Any, click: ClickMove) -> None:
    """Play `click` with the mouse: cell after cell, or pick the piece, turn it, point and click."""
    await page.wait_for_function("window.tessera.state().clicks.length > 0")
    if not click.group:
        for k, c in enumerate(click.cells):
            await page.click(cell(c))
            if k == 0 and len(click.cells) > 1:  # the first cell chosen: the next cells are marked
                assert await page.evaluate("window.tessera.selected()") == [c]
                assert click.cells[1] in await marked(page, "target")
        return
    await page.click(f"button[data-piece='{click.group}']")

    async def press(what: str) -> None:
        await page.click(f"#tools button[data-tool='{what}']")

    await _pose(page, click, press)
    anchor = min(click.cells)
    await page.hover(cell(anchor))
    assert await marked(page, "ghost") == sorted(click.cells), "the ghost piece shows where it would go"
    await page.click(cell(anchor))


async def drag_play(page: Any, click: ClickMove) -> None:
    """Play a move of two cells by dragging from the first to the second with the mouse."""
    await page.wait_for_function("window.tessera.state().clicks.length > 0")
    first, second = click.cells
    box = await (await page.query_selector(cell(first))).bounding_box()
    target = await (await page.query_selector(cell(second))).bounding_box()
    await page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    await page.mouse.down()
    await page.mouse.move(target["x"] + target["width"] / 2, target["y"] + target["height"] / 2, steps=5)
    await page.mouse.up()


async def tap_play(page: Any, click: ClickMove, *, confirm: str = "tap") -> None:
    """Play `click` by touch: tap cell after cell (or pick the piece, turn it, tap where it goes); the last
    tap previews the move (the ghost where it goes), then a second tap on it (`confirm="tap"`) or the Place
    button (`confirm="button"`) plays it."""
    await page.wait_for_function("window.tessera.state().clicks.length > 0")
    if click.group:
        await page.tap(f"button[data-piece='{click.group}']")

        async def press(what: str) -> None:
            await page.tap(f"#tools button[data-tool='{what}']")

        await _pose(page, click, press)
        last = min(click.cells)
    else:
        for c in click.cells[:-1]:
            await page.tap(cell(c))
        last = click.cells[-1]
    await page.tap(cell(last))
    preview = await page.evaluate("window.tessera.preview()")
    assert preview is not None and preview["move"] == click.notation, "a tap previews, it does not play"
    assert await marked(page, "ghost") == sorted(click.cells)
    assert await page.is_visible("#place")
    if click.group:
        assert await page.is_visible("#p-rotate") and await page.is_visible("#p-reflect")
    if confirm == "tap":
        await page.tap(cell(last))
    else:
        await page.tap("#place")


async def key_play(page: Any, click: ClickMove) -> None:
    """Play `click` with the keyboard alone: a piece picked with Enter on its button and turned with R and
    F, the arrow keys to each cell, Enter."""
    await page.wait_for_function("window.tessera.state().clicks.length > 0")
    if click.group:
        await page.focus(f"button[data-piece='{click.group}']")
        await page.keyboard.press("Enter")
        await page.focus("#board-svg")

        async def press(what: str) -> None:
            await page.keyboard.press("r" if what == "rotate" else "f")

        await _pose(page, click, press)
        await _walk(page, min(click.cells))
        assert await marked(page, "ghost") == sorted(click.cells)
        await page.keyboard.press("Enter")
        return
    await page.focus("#board-svg")
    for c in click.cells:
        await _walk(page, c)
        assert await page.inner_text("#focusname") != ""
        await page.keyboard.press("Enter")


async def _walk(page: Any, target: int) -> None:
    """Move the keyboard's focus to cell `target` with the arrow keys."""
    for _ in range(80):
        at = await page.evaluate("window.tessera.focus()")
        if at == target:
            return
        (fx, fy), (tx, ty) = await page.evaluate(
            "([a, b]) => [window.tessera.centre(a), window.tessera.centre(b)]", [at, target]
        )
        dx, dy = tx - fx, ty - fy
        if abs(dx) >= abs(dy):
            key = "ArrowRight" if dx > 0 else "ArrowLeft"
        else:
            key = "ArrowDown" if dy > 0 else "ArrowUp"
        await page.keyboard.press(key)
        if await page.evaluate("window.tessera.focus()") == at:  # nothing that way: the other axis
            alt = (
                ("ArrowDown" if dy > 0 else "ArrowUp")
                if key in ("ArrowLeft", "ArrowRight")
                else ("ArrowRight" if dx > 0 else "ArrowLeft")
            )
            await page.keyboard.press(alt)
    raise AssertionError(f"the arrow keys never reached cell {target}")


Choose = Callable[[Any, Any, list[ClickMove], random.Random], ClickMove]


def any_click(rules: Any, state: Any, clicks: list[ClickMove], rng: random.Random) -> ClickMove:
    return rng.choice(clicks)


def paintscape_collector(rules: Any, state: Any, clicks: list[ClickMove], rng: random.Random) -> ClickMove:
    """A player who heads for the end (RULES.md 1.5, 1.7): collect a colour when a placement can, else put
    the stone where the mover has most stones on one colour already (the 6th collects it); swaps at random.
    Chosen among the moves the page offers (the state's click moves)."""
    if state.phase != "play":
        return rng.choice(clicks)
    black = state.black_seat == rules.to_move(state)

    def value(click: ClickMove) -> tuple[int, int, float]:
        after = rules.apply(state, rules.parse(state, click.notation))
        mine = after.black if black else after.white
        collected = after.collected.count(0 if black else 1)
        most = max(bin(mine & tiles).count("1") for tiles in after.tiles) if any(after.tiles) else 0
        return collected, most, rng.random()

    return max(clicks, key=value)
