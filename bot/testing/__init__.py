"""The kit for game authors, installed with Tessera (`pip install "tessera[testing]"`): what the project's
own tests use to test every game, for a game package outside the project to test itself the same way.

- `bot.testing.plugin`: the pytest plugin (entry point `pytest11`, loaded by itself): the real bot in
  SimCord (`world`, `make_bot`, `settings`, `ai_runner`), and `game_id` run once per chosen game.
- `bot.testing.simcord`: helpers for SimCord flows (challenge and accept, the newest board, autocomplete).
- `bot.testing.fixtures`: what the checks read from a game's `fixtures` module (`GamePlugin.fixtures`).
- `bot.testing.checks`: the shared game checks (the contract, hostile input, snapshots, click moves,
  images, the eight levels, a tournament, the web board's click play, the SimCord flows). A game package's
  tests run them with one file:

      from bot.testing.checks import *  # noqa: F403
      TESSERA_GAMES = ("my_game",)  # the id of the game this package registers

Not imported by the bot: only tests use it.
"""
