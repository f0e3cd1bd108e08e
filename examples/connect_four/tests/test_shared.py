"""Tessera's shared game checks (the kit installed with Tessera, bot/testing) on this game alone: the
contract, hostile input, snapshots, click moves, images, the eight levels, a tournament, the web board's
click play and the SimCord flows, as the project runs them on its own games."""

from bot.testing.checks import *  # noqa: F403

TESSERA_GAMES = ("connect_four",)
