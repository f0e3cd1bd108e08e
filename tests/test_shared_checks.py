"""The shared game checks of the kit for game authors (bot/testing/checks), run here on every registered
game: the built-in ones and every installed game package alike (`game_id` comes from the registry)."""

from bot.testing.checks import *  # noqa: F403
