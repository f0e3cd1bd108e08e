"""`python -m bot`: read the settings, start Tessera, stop cleanly on SIGINT/SIGTERM.

`python -m bot check-db [...]` runs the database checker (`bot.checkdb.main`) and exits with its code.
A missing or malformed setting prints one line and exits with code 2; the token never reaches the logs.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import signal
import sys
from collections.abc import Sequence

from bot.settings import Settings, SettingsError, load_database_settings, load_settings

log = logging.getLogger("tessera")

USAGE = """usage: python -m bot [check-db [options]]

  (no arguments)  run the bot; settings come from the environment and .env (see .env.example)
  check-db        check the database file (python -m bot check-db --help)
"""

EXIT_CONFIG = 2


def configure_logging(level: str) -> None:
    """One line per record on stderr, discord.py's own loggers included."""
    logging.basicConfig(
        level=level,
        format="%(asctime)s %(levelname)-7s %(name)s: %(message)s",
        stream=sys.stderr,
        force=True,
    )
    if level == "DEBUG":
        # discord.py's HTTP debug lines are very chatty; keep them at INFO even in debug runs.
        logging.getLogger("discord.http").setLevel(logging.INFO)


async def run_bot(settings: Settings) -> int:
    """Run until the gateway closes or a stop signal arrives; returns the process exit code."""
    import discord

    from bot.client import TesseraBot

    bot = TesseraBot(settings)
    loop = asyncio.get_running_loop()
    stopping = asyncio.Event()
    closing: list[asyncio.Task[None]] = []

    def request_stop(name: str) -> None:
        if not stopping.is_set():
            log.info("received %s, shutting down", name)
            stopping.set()
            closing.append(loop.create_task(bot.close()))

    for sig in (signal.SIGINT, signal.SIGTERM):
        with contextlib.suppress(NotImplementedError):  # Windows has no add_signal_handler
            loop.add_signal_handler(sig, request_stop, sig.name)
    try:
        async with bot:
            await bot.start(settings.discord_token.get_secret_value())
    except discord.LoginFailure:
        print("tessera: Discord refused the token; copy a fresh one into DISCORD_TOKEN", file=sys.stderr)
        return EXIT_CONFIG
    except discord.PrivilegedIntentsRequired:
        print("tessera: Discord asked for a privileged intent; Tessera needs none", file=sys.stderr)
        return EXIT_CONFIG
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    """The command line entry point; returns the exit code."""
    args = list(sys.argv[1:] if argv is None else argv)
    if args[:1] == ["check-db"]:
        from bot.service import checkdb

        try:
            database = load_database_settings()
        except SettingsError as error:
            print(f"tessera: {error}", file=sys.stderr)
            return EXIT_CONFIG
        return checkdb.main(args[1:], default_url=database.database_url)
    if args[:1] in (["-h"], ["--help"]):
        print(USAGE, end="")
        return 0
    if args:
        print(f"tessera: unknown argument {args[0]!r}\n{USAGE}", end="", file=sys.stderr)
        return EXIT_CONFIG
    try:
        settings = load_settings()
    except SettingsError as error:
        print(f"tessera: {error}", file=sys.stderr)
        return EXIT_CONFIG
    configure_logging(settings.log_level)
    settings.data_dir.mkdir(parents=True, exist_ok=True)
    try:
        return asyncio.run(run_bot(settings))
    except KeyboardInterrupt:  # a second Ctrl-C while shutting down
        return 130


if __name__ == "__main__":
    sys.exit(main())
