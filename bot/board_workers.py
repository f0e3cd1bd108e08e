"""What the board processes and the replay workers run (bot/drawing.py starts them and feeds them).

A worker process is spawned: it imports the module of the function it runs, so these import the renderer,
the engines and the catalogs (bot.catalogs) and nothing of Discord, the service or the rest of the bot.
"""

from __future__ import annotations

import contextlib
import os
import pickle
import signal
import socket
import struct
from collections.abc import Sequence
from typing import Any

import renderer
from bot.catalogs import translations
from games.base import Outcome
from games.lifeline import die_with_parent
from renderer.incremental import Boards
from renderer.replay import replay_gif


def _warm_board_worker() -> None:
    """Import the renderer and the engines in a fresh board process, and draw one board (fonts, caches), so
    the first real board does not pay for them."""
    import games

    game = games.GAME_IDS[0]  # any registered game: the first by display name
    rules = games.get(game)
    seats = min(rules.seats)
    draw_board(game, rules.new(seats, {}, 1), None, [chr(65 + s) for s in range(seats)], None, "default")


def draw_pieces(game: str, state: Any, seat: int, players: list[str], theme: str, locale: str) -> bytes:
    """One seat's remaining pieces (/pieces) in the language `locale` (run in a board worker)."""
    return renderer.render_pieces(
        game, state, seat, players=players, theme=theme, translations=translations(locale)
    )


HEADER = struct.Struct(">Q")
"""Each message between the bot and a board process: its length (8 bytes), then the pickle itself."""


READ_SIZE = 65536
"""The most one read takes from a board process's socket (a board is about 35 KB; a larger reply is read
over a few turns of the loop). A larger buffer costs a large allocation on every read."""


def _frame(data: bytes) -> bytes:
    return HEADER.pack(len(data)) + data


def _read_exactly(sock: socket.socket, size: int) -> bytes | None:
    """`size` bytes from a blocking socket, or None if it closed first."""
    data = bytearray()
    while len(data) < size:
        chunk = sock.recv(size - len(data))
        if not chunk:
            return None
        data += chunk
    return bytes(data)


def _board_worker(sock: socket.socket) -> None:
    """A board process: warm up and say so (an empty message), then draw what comes through the socket until
    it closes. A request is a pickled (function, args); the reply is (True, result) or (False, the exception
    it raised), each written whole in one call, so the bot never reads half of one."""
    global LAST_BOARDS
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C stops the bot, which closes this socket
    die_with_parent()  # a bot killed mid-board: its socket may stay open in a long drawing
    LAST_BOARDS = Boards()
    _warm_board_worker()
    try:
        sock.sendall(_frame(b""))
        while True:
            header = _read_exactly(sock, HEADER.size)
            request = _read_exactly(sock, HEADER.unpack(header)[0]) if header is not None else None
            if request is None:
                return
            function, args = pickle.loads(request)
            try:
                reply: tuple[bool, Any] = (True, function(*args))
            except Exception as error:
                reply = (False, error)
            try:
                data = pickle.dumps(reply, protocol=pickle.HIGHEST_PROTOCOL)
            except Exception as error:  # an exception that does not pickle still reaches the bot, as text
                data = pickle.dumps((False, RuntimeError(f"{reply[1]!r} (not picklable: {error!r})")))
            sock.sendall(_frame(data))
    except OSError:
        return


LAST_BOARDS: Boards | None = None
"""In a board process: each match's last board, which its next is drawn from (`renderer.incremental`).
None elsewhere: the fallback threads draw every board in full (one scratch image cannot serve two threads)."""


def draw_board(
    game: str,
    state: Any,
    last_move: str | None,
    players: Sequence[str],
    outcome: Outcome | None,
    theme: str,
    locale: str = "en",
    match: int | None = None,
    clocks: Sequence[float] | None = None,
) -> tuple[bytes, str]:
    """A board PNG and its alt text in the language `locale` (run in a board process or thread); in a
    board process, drawn from `match`'s last board there; `clocks` the seats' live clocks, if any."""
    words = translations(locale)
    if LAST_BOARDS is not None and match is not None:
        png = LAST_BOARDS.render(
            match,
            game,
            state,
            last_move=last_move,
            players=players,
            outcome=outcome,
            theme=theme,
            size=renderer.DEFAULT_SIZE,
            translations=words,
            clocks=clocks,
        )
    else:
        png = renderer.render(
            game,
            state,
            last_move=last_move,
            players=players,
            outcome=outcome,
            theme=theme,
            translations=words,
            clocks=clocks,
        )
    alt = renderer.alt_text(
        game, state, players=players, last_move=last_move, outcome=outcome, translations=words
    )
    return png, alt


REPLAY_NICENESS = 10
"""How much lower than the bot's the replay workers' CPU priority is: a replay is batch work, and on a
small machine it must not take the cores that moves and their boards need."""


def _warm_up() -> None:
    """Lower a fresh replay worker's priority and import the renderer and the engines once; it ends with its
    parent."""
    die_with_parent()
    with contextlib.suppress(OSError, AttributeError):  # os.nice is POSIX only
        os.nice(REPLAY_NICENESS)
    import games  # noqa: F401
    import renderer.replay  # noqa: F401


def _replay(
    game: str,
    options: dict[str, Any],
    seed: int,
    seats: int,
    log: list[tuple[int, str]],
    players: list[str],
    outcome: Outcome | None,
    theme: str,
    locale: str = "en",
) -> bytes:
    """The replay itself, in a worker process."""
    return replay_gif(
        game,
        options,
        seed,
        seats,
        log,
        players,
        outcome=outcome,
        theme=theme,
        translations=translations(locale),
    )
