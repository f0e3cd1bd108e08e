"""Tessera's application: `bot.service` is the match service (no Discord import; a test keeps it so), and the
rest of this package is the Discord application around it: the client (client.py), the runtime that opens,
starts and closes the service, the AI and the drawing pools (runtime.py), the parts of one job each that the
client wires around it (parts.py lists them: names, looks, board making and order, channels, board posts,
announcements, reminders), board messages (boards.py), persistent buttons (views.py), error replies
(replies.py), settings (settings.py) and the entry point (__main__.py)."""
