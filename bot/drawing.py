"""Drawing off the event loop, one kind of work never starving another.

- Boards (a few milliseconds each; /pieces images too) render in their own worker processes, one per
  CPU (`BOARD_WORKERS` at most), not on threads: the renderer is Python code that holds the GIL, so render
  threads share one core with the event loop, while processes use every core (a burst of 50 /moves drew
  twice the boards per second on 2 cores). Nothing else runs there, so a move's board never queues behind
  other work. The event loop feeds them itself (`BoardProcesses`: one pipe per process, a job only to an
  idle one, the reply read when its pipe is readable), with none of a process pool's helper threads, whose
  wake-ups and locks cost the bot's process about a quarter of a millisecond per board. If the processes
  cannot be started or break, boards are drawn on a thread instead (slower, never lost);
  `board_processes=False` uses the thread alone (tests: no process start-up in every test).
- Analysis images (a turning point) render on a thread of their own, never on the board pool.
- Replays (seconds for a long match) render in worker processes, at most one per CPU, behind a fair queue:
  one replay per user at a time, FIFO between users, and a bounded number waiting; a move never waits for a
  replay because replays never touch the board pool or the event loop's thread.
- A finished match's GIF never changes for the same names, theme and language, so replays are cached (LRU,
  bounded in bytes): asking again costs nothing.
- Every drawing is in one language (`locale`, a catalog of `bot.catalogs`); the renderer gets its
  translations.
- What the board and replay processes run is in bot/board_workers.py: a spawned process imports the module
  of the function it runs, and that one imports the renderer, the engines and the catalogs, no Discord and
  no service.

Tests may pass their own replay executor (a thread pool: no process start-up in every bot test).
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import os
import pickle
import socket
from collections import OrderedDict, deque
from collections.abc import Callable, Hashable, Mapping, Sequence
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from multiprocessing.process import BaseProcess
from typing import Any, TypeVar

import renderer
import renderer.analysis
from bot.board_workers import (
    HEADER,
    READ_SIZE,
    _board_worker,
    _frame,
    _replay,
    _warm_up,
    draw_board,
    draw_pieces,
)
from bot.catalogs import translations
from bot.replies import UserError
from bot.service.lifeline import STOP_GRACE, pool_processes, stop_processes
from games.base import Outcome
from games.texts import Text

log = logging.getLogger("tessera.drawing")

T = TypeVar("T")

BOARD_WORKERS = 4
"""The most board processes (one per CPU up to this); more would only queue for the same cores."""
BOARD_THREADS = 2
"""Threads drawing boards when there are no board processes (the fallback)."""
REPLAY_CACHE_BYTES = 32 * 2**20
MAX_WAITING_REPLAYS = 16
"""Replays queued beyond the running ones; more are refused with a 'busy, try again' answer."""


class ReplayBusy(UserError):
    """Too many replays are waiting; the message is for the player."""

    def __init__(self) -> None:
        super().__init__(Text("Many replays are being drawn right now. Try again in a minute."))


class ReplayPending(UserError):
    """This user's previous replay is still being drawn."""

    def __init__(self) -> None:
        super().__init__(Text("Your previous replay is still being drawn; it will be posted in a moment."))


def loop_watches_sockets(loop: asyncio.AbstractEventLoop) -> bool:
    """Whether `loop` can watch sockets (`add_reader`), which feeding the board processes needs; Windows'
    proactor loop cannot."""
    left, right = socket.socketpair()
    try:
        loop.add_reader(left.fileno(), lambda: None)
    except NotImplementedError:
        return False
    else:
        loop.remove_reader(left.fileno())
        return True
    finally:
        left.close()
        right.close()


class _Worker:
    """One board process: the bot's end of its socket (non-blocking), what has come in of its next message
    and is still to go out of a request, whether it is warm, and the job it is drawing."""

    def __init__(self, slot: int, process: BaseProcess, sock: socket.socket) -> None:
        self.slot = slot
        """Its place among the processes: the jobs of one match go to the same slot (`submit`)."""
        self.process = process
        self.sock = sock
        self.fd = sock.fileno()
        self.incoming = bytearray()
        self.outgoing = b""
        self.ready = False
        self.job: asyncio.Future[Any] | None = None


class BoardProcesses:
    """Board processes fed by the event loop: jobs wait here in order and go, one at a time, to a process
    that is warm and idle, so a board never queues behind a busy or starting process while another is free
    (a job that finds none idle starts another, up to `workers`, and goes to whichever is free first). The
    loop reads a process's socket when it is readable and never waits on one. Made inside the running loop.
    If a process dies, every job it and the others hold or wait for fails with BrokenProcessPool and the
    whole set is stopped (`Drawing` draws those boards on a thread and starts a fresh set for the next)."""

    def __init__(self, workers: int) -> None:
        self._loop = asyncio.get_running_loop()
        self._context = multiprocessing.get_context("spawn")  # the bot has threads fork would copy badly
        self.most = workers
        self._workers: list[_Worker] = []
        self._idle: list[_Worker] = []
        self._waiting: deque[tuple[asyncio.Future[Any], bytes, int | None]] = deque()
        """Jobs not sent yet: the future, the request and the slot of the process it would rather go to."""
        self.broken = False

    def start_all(self) -> None:
        """Start every process now (each warms up in the background) rather than when jobs first need it."""
        while len(self._workers) < self.most:
            self._spawn()

    def _spawn(self) -> None:
        ours, theirs = socket.socketpair()
        try:
            process = self._context.Process(target=_board_worker, args=(theirs,), name="tessera-board")
            process.daemon = True
            process.start()
        except BaseException:
            ours.close()
            raise
        finally:
            theirs.close()
        ours.setblocking(False)
        worker = _Worker(len(self._workers), process, ours)
        self._workers.append(worker)  # before add_reader, which may refuse: `terminate` still stops it
        self._loop.add_reader(worker.fd, self._readable, worker)

    @property
    def pids(self) -> list[int]:
        """The board processes' ids (benches read their CPU time)."""
        return [w.process.pid for w in self._workers if w.process.pid is not None]

    def submit(
        self, function: Callable[..., T], *args: Any, affinity: Hashable | None = None
    ) -> asyncio.Future[T]:
        """Run `function(*args)` (a module-level function: it crosses by name) in the next idle process;
        jobs of the same `affinity` (a match) go to the same process when it is idle (it keeps the match's
        last board and draws only what changed), to another idle one rather than wait."""
        if self.broken:
            raise BrokenProcessPool("the board processes are stopped")
        future: asyncio.Future[T] = self._loop.create_future()
        request = _frame(pickle.dumps((function, args), protocol=pickle.HIGHEST_PROTOCOL))
        slot = None if affinity is None else hash(affinity) % self.most
        self._waiting.append((future, request, slot))
        self._dispatch()
        return future

    def _dispatch(self) -> None:
        """Send waiting jobs to idle processes, each to the process of its slot if that one is idle, then
        the first waiting to any idle one (a busy process's job goes elsewhere rather than keep a core
        idle); start another process (up to `most`) when jobs wait and none is idle or starting for them."""
        starting = sum(not w.ready for w in self._workers)
        if len(self._waiting) > len(self._idle) + starting and len(self._workers) < self.most:
            try:
                self._spawn()
            except (OSError, RuntimeError) as error:
                self._break(error)
                return
        if not self._idle:
            return
        idle_slots = {w.slot for w in self._idle}
        for index, (future, request, slot) in enumerate(self._waiting):
            if slot in idle_slots and not future.done():
                del self._waiting[index]
                worker = next(w for w in self._idle if w.slot == slot)
                self._idle.remove(worker)
                self._start(worker, future, request)
                break  # the deque changed: look again from the start
        else:
            while self._idle and self._waiting:
                future, request, _ = self._waiting.popleft()
                if not future.done():  # else its caller gave up waiting
                    self._start(self._idle.pop(), future, request)
            return
        self._dispatch()

    def _start(self, worker: _Worker, future: asyncio.Future[Any], request: bytes) -> None:
        worker.job = future
        self._send(worker, request)

    def _send(self, worker: _Worker, data: bytes) -> None:
        """Write what the socket takes now; the rest when it is writable again (a large state)."""
        try:
            sent = worker.sock.send(data)
        except (BlockingIOError, InterruptedError):
            sent = 0
        except OSError as error:
            self._break(error)
            return
        worker.outgoing = data[sent:]
        if worker.outgoing:
            self._loop.add_writer(worker.fd, self._send_rest, worker)

    def _send_rest(self, worker: _Worker) -> None:
        self._loop.remove_writer(worker.fd)
        self._send(worker, worker.outgoing)

    def _readable(self, worker: _Worker) -> None:
        """Read what a process sent: its message that it is warm, or replies (or it died: the socket reads
        as closed)."""
        try:
            chunk = worker.sock.recv(READ_SIZE)
        except (BlockingIOError, InterruptedError):
            return
        except OSError as error:
            self._break(error)
            return
        if not chunk:
            self._break(EOFError(f"board process {worker.process.pid} closed its socket"))
            return
        worker.incoming += chunk
        while not self.broken and len(worker.incoming) >= HEADER.size:
            (size,) = HEADER.unpack_from(worker.incoming)
            if len(worker.incoming) < HEADER.size + size:
                return
            message = bytes(worker.incoming[HEADER.size : HEADER.size + size])
            del worker.incoming[: HEADER.size + size]
            self._received(worker, message)

    def _received(self, worker: _Worker, message: bytes) -> None:
        if not worker.ready:
            worker.ready = True  # the empty message: warm
            self._idle.append(worker)
            self._dispatch()
            return
        try:
            ok, value = pickle.loads(message)
        except Exception as error:
            self._break(error)
            return
        future, worker.job = worker.job, None
        self._idle.append(worker)
        if future is not None and not future.done():
            if ok:
                future.set_result(value)
            else:
                future.set_exception(value)
        self._dispatch()

    def _break(self, error: BaseException) -> None:
        log.warning("a board process failed (%r); stopping the board processes", error)
        broken = BrokenProcessPool(f"a board process failed: {error!r}")
        broken.__cause__ = error
        self.terminate(broken)

    def terminate(self, error: BaseException) -> None:
        """Stop at once: every job held or waiting fails with `error`, the processes are killed
        (multiprocessing reaps them later)."""
        self.broken = True
        held = [w.job for w in self._workers] + [future for future, _, _ in self._waiting]
        self._waiting.clear()
        for future in held:
            if future is not None and not future.done():
                future.set_exception(error)
        self._stop()
        for worker in self._workers:
            if worker.process.is_alive():
                worker.process.kill()

    def _stop(self) -> None:
        """Close every socket (an idle process exits at once, a busy one after its board)."""
        for worker in self._workers:
            if worker.sock.fileno() >= 0:
                self._loop.remove_reader(worker.fd)
                self._loop.remove_writer(worker.fd)
                worker.sock.close()
        self._idle.clear()

    async def close(self) -> None:
        """Stop the processes: waiting jobs are cancelled, each process ends after the board it draws."""
        self.broken = True
        for future in [w.job for w in self._workers] + [future for future, _, _ in self._waiting]:
            if future is not None:
                future.cancel()
        self._waiting.clear()
        self._stop()
        await asyncio.to_thread(self._join)

    def _join(self, grace: float = STOP_GRACE) -> None:
        """Each process ends after the board it draws, or is killed after `grace` seconds."""
        stop_processes([w.process for w in self._workers], grace)


class ByteLRU:
    """A least-recently-used cache of byte strings, bounded by their total size."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.size = 0
        self._items: OrderedDict[Hashable, bytes] = OrderedDict()

    def get(self, key: Hashable) -> bytes | None:
        data = self._items.get(key)
        if data is not None:
            self._items.move_to_end(key)
        return data

    def put(self, key: Hashable, data: bytes) -> None:
        if len(data) > self.limit:
            return
        old = self._items.pop(key, None)
        self.size -= len(old) if old is not None else 0
        self._items[key] = data
        self.size += len(data)
        while self.size > self.limit:
            _, dropped = self._items.popitem(last=False)
            self.size -= len(dropped)

    def __len__(self) -> int:
        return len(self._items)


class Drawing:
    """The bot's board pool and replay processes (see the module doc)."""

    def __init__(
        self,
        *,
        board_processes: bool = True,
        board_workers: int | None = None,
        board_threads: int = BOARD_THREADS,
        replay_workers: int | None = None,
        replay_executor: Executor | None = None,
        cache_bytes: int = REPLAY_CACHE_BYTES,
        max_waiting: int = MAX_WAITING_REPLAYS,
    ) -> None:
        self.board_processes = board_processes
        self._loop_asked = False
        """Whether the event loop was asked once if it can feed board processes (`loop_watches_sockets`)."""
        self.board_workers = max(1, board_workers or min(os.cpu_count() or 1, BOARD_WORKERS))
        self._board_pool: BoardProcesses | None = None
        self._board_threads = ThreadPoolExecutor(board_threads, thread_name_prefix="tessera-board")
        self._images = ThreadPoolExecutor(1, thread_name_prefix="tessera-image")
        self.boards_on_threads = 0
        """Boards drawn on the fallback thread because the board processes could not draw them."""
        self.replay_workers = max(1, replay_workers or os.cpu_count() or 1)
        self._replays = replay_executor
        self._owns_replays = replay_executor is None
        self._replay_slots = asyncio.Semaphore(self.replay_workers)
        self.max_waiting = max_waiting
        self.cache = ByteLRU(cache_bytes)
        self._in_flight: dict[Hashable, asyncio.Future[bytes]] = {}
        self._users: set[int] = set()
        self.waiting = 0
        self.running = 0
        """Replays drawing now (at most `replay_workers`)."""
        self._closed = False

    def start(self) -> None:
        """Start the board processes now (they warm up in the background), so the first move does not wait
        for them. Called inside the running event loop, which feeds them."""
        if not self._processes_usable():
            return
        try:
            self._board_executor().start_all()
        except (OSError, RuntimeError):
            log.warning("could not start the board processes; boards are drawn on threads", exc_info=True)
            self.board_processes = False
            pool, self._board_pool = self._board_pool, None
            if pool is not None:
                pool.terminate(BrokenProcessPool("the board processes could not start"))

    def _processes_usable(self) -> bool:
        """Whether boards go to the board processes: they are wanted, and the running loop can feed them
        (asked once; a loop that cannot, Windows' proactor, draws every board on the threads)."""
        if self.board_processes and not self._loop_asked:
            self._loop_asked = True
            if not loop_watches_sockets(asyncio.get_running_loop()):
                log.warning("this event loop cannot watch sockets; boards are drawn on threads")
                self.board_processes = False
        return self.board_processes

    def _board_executor(self) -> BoardProcesses:
        if self._board_pool is None:
            self._board_pool = BoardProcesses(self.board_workers)
        return self._board_pool

    async def _draw(self, function: Callable[..., T], *args: Any, affinity: Hashable | None = None) -> T:
        """Run a board job in a board process (the process of `affinity`, a match, when it is idle); on the
        fallback thread if the processes cannot (they could not start, or one died: the pool is started
        afresh for the next job)."""
        if self._closed:
            raise RuntimeError("the drawing pools are closed")
        loop = asyncio.get_running_loop()
        if self._processes_usable():
            try:
                return await self._board_executor().submit(function, *args, affinity=affinity)
            except (BrokenProcessPool, OSError) as error:
                log.warning("a board process failed (%r); drawing this board on a thread", error)
                pool, self._board_pool = self._board_pool, None
                if pool is not None:
                    pool.terminate(BrokenProcessPool("the board processes were stopped after a failure"))
            self.boards_on_threads += 1
        return await loop.run_in_executor(self._board_threads, function, *args)

    def _replay_executor(self) -> Executor:
        if self._replays is None:
            context = multiprocessing.get_context("spawn")  # the bot runs threads that fork would copy badly
            self._replays = ProcessPoolExecutor(self.replay_workers, mp_context=context, initializer=_warm_up)
        return self._replays

    async def board(
        self,
        game: str,
        state: Any,
        *,
        last_move: str | None,
        players: Sequence[str],
        outcome: Outcome | None,
        theme: str,
        locale: str = "en",
        match: int | None = None,
        clocks: Sequence[float] | None = None,
    ) -> tuple[bytes, str]:
        """A board PNG and its alt text in the language `locale`, drawn on the board pool; the boards of
        one `match` go to the same board process, which draws only what changed since its last board;
        `clocks` the seats' live clocks (in the header), if any."""
        return await self._draw(
            draw_board,
            game,
            state,
            last_move,
            list(players),
            outcome,
            theme,
            locale,
            match,
            None if clocks is None else tuple(clocks),
            affinity=match,
        )

    async def picture(self, function: Callable[..., bytes], *args: Any) -> bytes:
        """Any other image (a tournament's standings or podium: bot/tournament_posts.py) drawn on the board
        pool, off the event loop; `function` is a module-level function of picklable arguments."""
        return await self._draw(function, *args)

    async def pieces(
        self, game: str, state: Any, seat: int, *, players: Sequence[str], theme: str, locale: str = "en"
    ) -> bytes:
        """One seat's remaining pieces (/pieces) in the language `locale`, on the board pool."""
        return await self._draw(draw_pieces, game, state, seat, list(players), theme, locale)

    async def turning_point(
        self,
        game: str,
        before: Any,
        played: str,
        preferred: str,
        *,
        chances: tuple[float, float],
        players: Sequence[str],
        theme: str,
        locale: str = "en",
    ) -> bytes:
        """An analysis's turning point, the move played beside the preferred one, in the language `locale`,
        drawn on the analysis images' thread (never on the board pool: boards do not wait for it)."""
        names = list(players)
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(
            self._images,
            lambda: renderer.analysis.turning_point(
                game,
                before,
                played,
                preferred,
                chances=chances,
                players=names,
                theme=theme,
                translations=translations(locale),
            ),
        )

    def admit(self, user_id: int) -> None:
        """Raise ReplayPending or ReplayBusy now if a replay for `user_id` would be refused (before the bot
        answers 'thinking', so the refusal can be a private reply)."""
        if user_id in self._users:
            raise ReplayPending()
        if self.waiting >= self.max_waiting:
            raise ReplayBusy()

    async def replay(
        self,
        *,
        user_id: int,
        match_id: int,
        game: str,
        options: Mapping[str, Any],
        seed: int,
        seats: int,
        log: Sequence[tuple[int, str]],
        players: Sequence[str],
        outcome: Outcome | None,
        theme: str,
        locale: str = "en",
    ) -> bytes:
        """The GIF of a finished match in the language `locale`: from the cache, joined to the same replay
        being drawn, or drawn in a replay process if this user has none in flight and the queue has room
        (ReplayPending, ReplayBusy)."""
        key = (match_id, theme, tuple(players), len(log), locale)
        cached = self.cache.get(key)
        if cached is not None:
            return cached
        same = self._in_flight.get(key)
        if same is not None:
            return await asyncio.shield(same)
        self.admit(user_id)
        future: asyncio.Future[bytes] = asyncio.get_running_loop().create_future()
        self._in_flight[key] = future
        self._users.add(user_id)
        self.waiting += 1
        started = False
        try:
            async with self._replay_slots:
                self.waiting -= 1
                started = True
                self.running += 1
                try:
                    gif = await asyncio.get_running_loop().run_in_executor(
                        self._replay_executor(),
                        _replay,
                        game,
                        dict(options),
                        seed,
                        seats,
                        list(log),
                        list(players),
                        outcome,
                        theme,
                        locale,
                    )
                finally:
                    self.running -= 1
            self.cache.put(key, gif)
            future.set_result(gif)
            return gif
        except BaseException as error:
            future.set_exception(error)
            future.exception()  # retrieved: a waiter that left early must not log it as unhandled
            raise
        finally:
            if not started:
                self.waiting -= 1
            self._in_flight.pop(key, None)
            self._users.discard(user_id)

    async def close(self) -> None:
        """Stop the pools (a replay being drawn is abandoned; nothing is written)."""
        self._closed = True
        self._board_threads.shutdown(wait=False, cancel_futures=True)
        self._images.shutdown(wait=False, cancel_futures=True)
        if self._board_pool is not None:
            pool, self._board_pool = self._board_pool, None
            await pool.close()
        if self._owns_replays and self._replays is not None:
            replays, self._replays = self._replays, None
            processes = pool_processes(replays) if isinstance(replays, ProcessPoolExecutor) else []
            replays.shutdown(wait=False, cancel_futures=True)
            await asyncio.to_thread(stop_processes, processes)  # a long replay is killed after a grace
