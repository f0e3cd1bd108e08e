"""The acceptance of the plugin design: a game written outside the repository, with only its own files,
installs (its distribution's metadata on the path, as pip leaves it), passes the kit's shared checks from
a folder of its own, and its catalog update writes its own files and changes no file of the project.

The game, "Tiny Line": two players claim the cells of a line of seven in turn; when the line is full, the
player with more pairs of neighbouring cells wins. It writes nothing the `Rules` defaults give (no passes,
word moves, forced moves, timeout moves; the move count from `ply`, the seat labels from `seat_names`)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

RULES = '''
"""Tiny Line: claim the cells of a line of seven; the most neighbouring pairs win."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from games.base import ClickMove, GameOver, IllegalMove, InvalidMove, InvalidOptions, Option, Outcome, Rules
from games.base import Termination, move_text, resolve_options
from games.snapshots import InvalidSnapshot
from games.texts import N_, Text

CELLS = "abcdefg"
FULL = Termination("tiny_line_full", N_("a full line"), win=N_("{winner} wins the line"))


@dataclass(frozen=True, slots=True)
class Line:
    cells: tuple[int | None, ...]

    @property
    def ply(self) -> int:
        return sum(cell is not None for cell in self.cells)


def pairs(line: Line, seat: int) -> int:
    return sum(a == b == seat for a, b in zip(line.cells, line.cells[1:]))


class TinyLine(Rules[Line, int]):
    id: ClassVar[str] = "tinyline"
    name: ClassVar[str] = "Tiny Line"
    seats: ClassVar[range] = range(2, 3)
    options: ClassVar[tuple[Option, ...]] = ()
    summary: ClassVar[str] = N_("**Tiny Line**: claim a cell of the line in turn; the most pairs win.")
    seat_names: ClassVar[tuple[str, ...]] = (N_("Left"), N_("Right"))

    def new(self, seats: int, options: Mapping[str, Any], seed: int) -> Line:
        if type(seats) is not int or seats not in self.seats:
            raise InvalidOptions(Text("Tiny Line is a game for two"))
        resolve_options(self.options, options)
        return Line((None,) * len(CELLS))

    def to_move(self, state: Line) -> int | None:
        return None if state.ply == len(CELLS) else state.ply % 2

    def legal_moves(self, state: Line) -> Iterable[int]:
        return [] if self.to_move(state) is None else [i for i, c in enumerate(state.cells) if c is None]

    def apply(self, state: Line, move: int) -> Line:
        seat = self.to_move(state)
        if seat is None:
            raise GameOver(Text("the game is over"))
        if state.cells[move] is not None:
            raise IllegalMove(Text("{cell} is taken", cell=CELLS[move]))
        return Line(state.cells[:move] + (seat,) + state.cells[move + 1 :])

    def outcome(self, state: Line) -> Outcome | None:
        if self.to_move(state) is not None:
            return None
        return Outcome.by_score([pairs(state, 0), pairs(state, 1)], FULL)

    def parse(self, state: Line, text: str) -> int:
        word = move_text(text).strip().lower()
        if self.to_move(state) is None:
            raise GameOver(Text("the game is over"))
        if len(word) != 1 or word not in CELLS:
            raise InvalidMove(Text("{text} is not a cell: a to g", text=text.strip()))
        if state.cells[CELLS.index(word)] is not None:
            raise IllegalMove(Text("{cell} is taken", cell=word))
        return CELLS.index(word)

    def notation(self, state: Line, move: int) -> str:
        return CELLS[move]

    def describe(self, state: Line, move: int) -> str:
        return Text("claims {cell}", cell=CELLS[move])

    def click_move(self, state: Line, move: int) -> ClickMove:
        return ClickMove(CELLS[move], (move,))

    def position_text(self, state: Line) -> str:
        return "".join("." if c is None else "LR"[c] for c in state.cells)

    def dump(self, state: Line) -> dict[str, Any]:
        return {"cells": [-1 if c is None else c for c in state.cells]}

    def load(self, data: Mapping[str, Any]) -> Line:
        if not isinstance(data, Mapping) or set(data) != {"cells"}:
            raise InvalidSnapshot("a Tiny Line snapshot is a mapping with exactly the key 'cells'")
        cells = data["cells"]
        if not isinstance(cells, list) or len(cells) != len(CELLS):
            raise InvalidSnapshot("cells: seven of them")
        if not all(type(c) is int and c in (-1, 0, 1) for c in cells):
            raise InvalidSnapshot("cells: each -1, 0 or 1")
        if cells.count(0) - cells.count(1) not in (0, 1):
            raise InvalidSnapshot("cells: Left claims first")
        return Line(tuple(None if c == -1 else c for c in cells))


RULES = TinyLine()
'''

DRAWER = '''
"""Tiny Line's board: seven cells in a row, each in its owner's colour, declared for the host to draw."""

from __future__ import annotations

from collections.abc import Sequence

from games.base import Outcome
from games.texts import N_
from renderer import text as wording
from renderer.canvas import seat_names, status_text
from renderer.cellboard import Cell, CellBoard, Position, SeatLook
from tinyline.rules import CELLS, RULES, Line

BOARD = CellBoard(
    columns=len(CELLS),
    rows=1,
    labels=tuple(CELLS),
    seats=(SeatLook("left", "square"), SeatLook("right", "diamond")),
    title=N_("Tiny Line"),
    rule=N_("Claim a cell a turn; the most neighbouring pairs win."),
    count=N_("{role}: {count} cells"),
)


def position(state: Line, last_move: str | None) -> Position:
    cells = {i: Cell(seat=seat) for i, seat in enumerate(state.cells) if seat is not None}
    last = (CELLS.index(last_move),) if last_move and last_move in CELLS else ()
    return Position(cells, last=last)


def describe(
    state: Line, *, last_move: str | None, players: Sequence[str] | None, outcome: Outcome | None = None
) -> str:
    names = seat_names(RULES, state, players, 2)
    status = status_text(RULES, state, names, outcome=outcome)
    board = wording.text("alt.board", game=wording.say(N_("Tiny Line")), status=status)
    return wording.sentences([board, RULES.position_text(state)])
'''

INIT = '''
"""Tiny Line as a Tessera game plugin, outside the project."""

from pathlib import Path

from games.plugins import Catalog, GamePlugin
from tinyline.rules import RULES

HERE = Path(__file__).resolve().parent

PLUGIN = GamePlugin(
    RULES,
    drawer="tinyline.drawer",
    catalog=Catalog("tinyline", HERE / "locales", HERE),
    colours={"default": {"left": (222, 90, 40), "right": (40, 120, 222)}},
)
'''

SHARED = """from bot.testing.checks import *  # noqa: F403

TESSERA_GAMES = ("tinyline",)
"""


def write_plugin(site: Path) -> None:
    """The game's package and the metadata pip would leave beside it (its entry point)."""
    package = site / "tinyline"
    package.mkdir(parents=True)
    (package / "__init__.py").write_text(INIT)
    (package / "rules.py").write_text(RULES)
    (package / "drawer.py").write_text(DRAWER)
    info = site / "tinyline-0.1.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: tinyline\nVersion: 0.1\n")
    (info / "entry_points.txt").write_text("[tessera.games]\ntinyline = tinyline:PLUGIN\n")


def project_state() -> tuple[str, dict[str, int]]:
    """What a change to the project's files would show: git's status, and the catalogs' times."""
    status = subprocess.run(
        ["git", "status", "--porcelain"], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout
    catalogs = {str(p): p.stat().st_mtime_ns for p in (ROOT / "bot" / "i18n").rglob("*.po*")}
    return status, catalogs


@pytest.mark.slow
def test_a_game_written_outside_installs_passes_the_shared_checks_and_keeps_its_own_catalog(
    tmp_path: Path,
) -> None:
    site, project = tmp_path / "site", tmp_path / "project"
    write_plugin(site)
    project.mkdir()
    (project / "test_shared.py").write_text(SHARED)
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(site), os.environ.get("PYTHONPATH", "")]))

    def run(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, *args], cwd=project, env=env, capture_output=True, text=True, timeout=900
        )

    before = project_state()
    updated = run("-m", "bot.i18n", "update", "tinyline")
    assert updated.returncode == 0, updated.stderr[-2000:]
    assert project_state() == before, "the game's catalog update changed a file of the project"
    made = sorted(p.relative_to(site).as_posix() for p in (site / "tinyline" / "locales").rglob("*.po*"))
    assert "tinyline/locales/tinyline.pot" in made and "tinyline/locales/de/LC_MESSAGES/tinyline.po" in made
    assert "Left" in (site / "tinyline" / "locales" / "tinyline.pot").read_text()

    checked = run("-m", "pytest", "-p", "no:cacheprovider", "-q", "-p", "no:randomly", "-W", "default")
    report = checked.stdout[-4000:] + checked.stderr[-2000:]
    assert checked.returncode == 0, report
    assert " failed" not in checked.stdout and "passed" in checked.stdout, report
    assert "UntranslatedWarning" in checked.stdout, "its untranslated words are warned about, not failed"
    assert project_state() == before
