"""Tournaments: pairing, standings and the life cycle of an event, pure (no Discord, no store)."""
