"""Tessera's application core: the match store, the match service and the turn clock (no Discord here)."""
