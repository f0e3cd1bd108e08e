"""Tessera's application: `bot.service` is the match service (no Discord import; a test keeps it so), and the
rest of this package is the Discord application around it: the client (client.py), the runtime that runs
the service and posts what happens on its own (runtime.py), board messages (boards.py), persistent buttons
(views.py), error replies (replies.py), settings (settings.py) and the entry point (__main__.py)."""
