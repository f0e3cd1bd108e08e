"""Tournaments: pairing, standings and the life cycle of an event, pure (no Discord, no store, no clock).

- `model`: the records (settings, players, games, results), frozen dataclasses a store keeps as they are.
- `swiss`: Dutch-system pairing through networkx's maximum weight matching; `roundrobin`: Berger tables;
  `arena`: lichess-style pairing and streak scoring; `tables`: tables of 3-4 seated by score.
- `standings`: points and FIDE tie-breaks (byes, forfeits and withdrawals as FIDE counts them).
- `lifecycle`: `step(tournament, event) -> Step(tournament, actions)`: the host persists the new value and
  carries out the actions (open matches, ping players, post pairings and standings, adjudicate, resign,
  abort, post the podium), then reports back with `MatchOpened` / `MatchEnded` / `Tick`.
- `texts`: standings, pairings and the podium in words (`Text`, translated by the Discord layer);
  `renderer.standings` draws the table and the podium.
- `host`: the wiring (not pure): loads, steps, persists (snapshot with a version, actions in an outbox) and
  carries out the actions through the match service; the turn clock's timer; `recover` at start-up.
  `codec`: the value and its actions as JSON for the store.
"""
