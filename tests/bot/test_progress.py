"""A progress message shows the first text at once, then the latest at most once per interval, and never
overwrites what comes after `close`."""

from __future__ import annotations

import asyncio
import itertools

from bot.progress import ProgressMessage


async def test_the_first_text_at_once_then_the_latest_per_interval() -> None:
    edits: list[tuple[float, str]] = []
    updates_at_edit: list[int] = []
    loop = asyncio.get_running_loop()

    async def edit(text: str) -> None:
        edits.append((loop.time(), text))
        updates_at_edit.append(n)

    progress = ProgressMessage(edit, interval=0.2)
    began = loop.time()
    for n in range(1, 101):
        progress.update(f"move {n} of 100")
        await asyncio.sleep(0.005)
    await asyncio.sleep(0.25)
    await progress.close()
    texts = [text for _, text in edits]
    # "At once" counted in updates, not seconds (a busy machine may take longer than any fixed time): the
    # first text goes out within the next turns of the event loop, before the third update.
    assert texts[0] == "move 1 of 100" and updates_at_edit[0] <= 2, "the first text at once"
    assert texts[-1] == "move 100 of 100", "the latest text is shown in the end"
    assert len(texts) <= 1 + (edits[-1][0] - began) / 0.2 + 1, f"{len(texts)} edits: throttled"
    gaps = [b - a for (a, _), (b, _) in itertools.pairwise(edits)]
    assert all(gap >= 0.19 for gap in gaps), gaps
    assert progress.shown == texts


async def test_close_lets_an_edit_being_sent_finish_and_stops_the_rest() -> None:
    done: list[str] = []
    release = asyncio.Event()

    async def slow_edit(text: str) -> None:
        await release.wait()
        done.append(text)

    progress = ProgressMessage(slow_edit, interval=0.01)
    progress.update("move 1 of 2")
    await asyncio.sleep(0.01)
    assert progress.started
    closing = asyncio.create_task(progress.close())
    await asyncio.sleep(0.01)
    assert not closing.done(), "close waits for the edit in flight"
    release.set()
    await closing
    progress.update("move 2 of 2")
    await asyncio.sleep(0.05)
    assert done == ["move 1 of 2"], "nothing is edited after close"
