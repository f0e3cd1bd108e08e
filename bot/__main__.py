"""`python -m bot`: read the settings, open the database, start Tessera, stop cleanly on SIGINT/SIGTERM.

`python -m bot check-db [...]` runs the database checker (`bot.service.checkdb.main`) and exits with its code;
`backup` (`bot.service.backup`) and `migrate-db` (`bot.service.transfer`) likewise.
Every start-up failure an operator can fix prints one line (never a traceback, never the token) and exits with
one of the codes in `USAGE`; the database is opened before logging in, so a broken database is reported even
without a network.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import logging
import os
import signal
import sys
import threading
from collections.abc import Sequence

from bot.settings import Settings, SettingsError, load_database_settings, load_settings, requested_log_format

log = logging.getLogger("tessera")

EXIT_OK = 0
EXIT_CONFIG = 2
EXIT_DATABASE = 3
EXIT_NETWORK = 4
EXIT_INTERRUPTED = 130

USAGE = f"""usage: python -m bot [check-db | backup | migrate-db | web | web-demo [options]]

  (no arguments)  run the bot; settings come from the environment and .env (see .env.example)
  check-db        check the database (python -m bot check-db --help)
  backup          copy the SQLite database to a file, also while the bot runs (python -m bot backup -h)
  migrate-db      copy the whole database into another, SQLite or PostgreSQL (python -m bot migrate-db -h)
  web             serve only the web board (WEB_PORT, WEB_SECRET, DATABASE_URL; PostgreSQL for live moves)
  web-demo        a local web board demo: one match of each game, two local users, no Discord token

exit codes of the bot:
  {EXIT_OK}    stopped by SIGINT or SIGTERM
  {EXIT_CONFIG}    a setting is missing or wrong, or Discord refused the token (fix it, then start again)
  {EXIT_DATABASE}    the database cannot be used: damaged, unreadable, read-only, in use by another process
       (SQLite), unreachable (PostgreSQL), or made by a newer Tessera
  {EXIT_NETWORK}    Discord cannot be reached: no network, DNS failure, gateway refused (restart later)
  {EXIT_INTERRUPTED}  interrupted twice while shutting down
"""


def configure_logging(level: str, log_format: str = "text") -> None:
    """One record per line on stderr, discord.py's own loggers included: text, or one JSON object."""
    handler = logging.StreamHandler(sys.stderr)
    if log_format == "json":
        from bot.health import json_formatter

        handler.setFormatter(json_formatter())
    else:
        handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)-7s %(name)s: %(message)s"))
    logging.basicConfig(level=level, handlers=[handler], force=True)
    if level == "DEBUG":
        # discord.py's HTTP debug lines are very chatty; keep them at INFO even in debug runs.
        logging.getLogger("discord.http").setLevel(logging.INFO)


def one_line(error: BaseException) -> str:
    """An exception as one line: its message (or its type when it has none)."""
    text = " ".join(str(error).split())
    return text or type(error).__name__


def fail(message: str, code: int) -> int:
    """Print the one-line error an operator can act on (a JSON log line when LOG_FORMAT=json) and return
    the exit code."""
    if requested_log_format() == "json":
        from bot.health import fatal_line

        print(fatal_line(message, code), file=sys.stderr)
    else:
        print(f"tessera: {message}", file=sys.stderr)
    return code


async def _freeze_startup() -> None:
    """Once, when the bot is first ready: move everything start-up loaded (modules, catalogs, every running
    match, checked and cached at start) out of the garbage collector's sight (`gc.freeze`), so a full
    collection does not walk it and pause the loop: a live clock's flag is not late by a collection
    (bench/flag_latency.py: p99 from ~270 ms to ~12 ms with 3,000 live games)."""
    if not _FROZEN:
        _FROZEN.append(True)
        gc.collect()
        gc.freeze()


_FROZEN: list[bool] = []


async def run_bot(settings: Settings) -> int:
    """Open the database, then run until the gateway closes or a stop signal arrives; returns the exit
    code."""
    import aiohttp
    import discord

    from bot.client import TesseraBot
    from bot.health import HealthServer
    from bot.runtime import open_service
    from bot.service.store import BadDatabaseUrl, StoreFull, StoreUnavailable

    try:
        service = await open_service(settings)  # closes its store again on any failure
    except (StoreUnavailable, StoreFull) as error:
        return fail(one_line(error), EXIT_DATABASE)
    except BadDatabaseUrl as error:
        return fail(f"DATABASE_URL: {one_line(error)}", EXIT_CONFIG)
    except (OSError, TimeoutError) as error:
        return fail(f"the database cannot be reached: {one_line(error)}", EXIT_DATABASE)
    bot = TesseraBot(settings, service=service)
    health: HealthServer | None = None
    if settings.health_port is not None:
        health = HealthServer(
            gateway_connected=bot.gateway_connected,
            service=lambda: service,
            ai=lambda: bot.runtime.ai if hasattr(bot, "runtime") else None,
            host=settings.health_host,
            port=settings.health_port,
        )
        try:
            await health.start()
        except OSError as error:
            await service.close()
            where = f"{settings.health_host}:{settings.health_port}"
            return fail(f"HEALTH_PORT: cannot listen on {where}: {one_line(error)}", EXIT_CONFIG)
    from bot.web import serve

    try:
        web_board = await serve.start_with_bot(settings, service, bot)
    except OSError as error:
        if health is not None:
            await health.close()
        await service.close()
        where = f"{settings.web_host}:{settings.web_port}"
        return fail(f"WEB_PORT: cannot listen on {where}: {one_line(error)}", EXIT_CONFIG)
    loop = asyncio.get_running_loop()
    stopping = asyncio.Event()
    closing: list[asyncio.Task[None]] = []

    def request_stop(name: str) -> None:
        if not stopping.is_set():
            log.info("received %s, shutting down", name)
            stopping.set()
            STOP_DEADLINE.arm()
            closing.append(loop.create_task(bot.close()))

    for sig in (signal.SIGINT, signal.SIGTERM):
        with contextlib.suppress(NotImplementedError):  # Windows has no add_signal_handler
            loop.add_signal_handler(sig, request_stop, sig.name)
    bot.add_listener(_freeze_startup, "on_ready")
    try:
        async with bot:
            await bot.start(settings.discord_token.get_secret_value())
    except discord.LoginFailure:
        return fail("Discord refused the token; copy a fresh one into DISCORD_TOKEN", EXIT_CONFIG)
    except discord.PrivilegedIntentsRequired:
        return fail("Discord asked for a privileged intent; Tessera needs none", EXIT_CONFIG)
    except StoreUnavailable as error:
        return fail(one_line(error), EXIT_DATABASE)
    except (
        discord.GatewayNotFound,
        discord.ConnectionClosed,
        discord.DiscordServerError,
        aiohttp.ClientError,
        OSError,
        TimeoutError,
    ) as error:
        advice = "check the network, DNS and firewall, then start again"
        return fail(f"cannot reach Discord ({one_line(error)}): {advice}", EXIT_NETWORK)
    finally:
        if health is not None:
            await health.close()
        if web_board is not None:
            await web_board.close()
    return EXIT_OK


class StopDeadline:
    """A stop never takes longer than `seconds`: once SIGTERM or SIGINT asked for it, a timer thread (it
    needs no event loop, which a stuck close may hold) kills the worker processes and ends the process after
    `seconds`, with one line saying so. Every write is a committed transaction by then or never was: what
    was acknowledged is in the database either way."""

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds
        self._timer: threading.Timer | None = None

    def arm(self) -> None:
        if self._timer is None:
            self._timer = threading.Timer(self.seconds, self._expire)
            self._timer.daemon = True
            self._timer.start()

    def cancel(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None

    def _expire(self) -> None:
        import multiprocessing

        fail(f"stopping took longer than {self.seconds:g} s; stopped at once", EXIT_OK)
        for child in multiprocessing.active_children():
            child.kill()
        logging.shutdown()
        os._exit(EXIT_OK)


STOP_DEADLINE = StopDeadline(4.5)
"""Under the 5 s a stop may take (issue 40); the unit's TimeoutStopSec is a last resort beyond it."""


def main(argv: Sequence[str] | None = None) -> int:
    """The command line entry point; returns the exit code."""
    args = list(sys.argv[1:] if argv is None else argv)
    if args[:1] == ["check-db"]:
        from bot.service import checkdb

        try:
            database = load_database_settings()
        except SettingsError as error:
            return fail(str(error), EXIT_CONFIG)
        return checkdb.main(args[1:], default_url=database.database_url)
    if args[:1] in (["backup"], ["migrate-db"]):
        from bot.service import backup, transfer

        try:
            database = load_database_settings()
        except SettingsError as error:
            return fail(str(error), EXIT_CONFIG)
        command = backup.main if args[0] == "backup" else transfer.main
        return command(args[1:], default_url=database.database_url)
    if args[:1] == ["web-demo"]:
        from bot.web import demo

        return demo.main(args[1:])
    if args[:1] == ["web"]:
        from bot.web import serve

        return serve.main(args[1:])
    if args[:1] in (["-h"], ["--help"]):
        print(USAGE, end="")
        return EXIT_OK
    if args:
        print(f"tessera: unknown argument {args[0]!r}\n{USAGE}", end="", file=sys.stderr)
        return EXIT_CONFIG
    try:
        settings = load_settings()
    except SettingsError as error:
        return fail(str(error), EXIT_CONFIG)
    configure_logging(settings.log_level, settings.log_format)
    try:
        return asyncio.run(run_bot(settings))  # its end (the executor's threads) is under the deadline too
    except KeyboardInterrupt:  # a second Ctrl-C while shutting down
        return EXIT_INTERRUPTED
    finally:
        STOP_DEADLINE.cancel()


if __name__ == "__main__":
    sys.exit(main())
