"""Two tiny test-only games behind the `Rules` contract, to test the service without the real engines.

`race` (2 players): players add 1 or 2 to a shared total; whoever reaches `target` wins. When a move leaves
the total 4 more than a multiple of 5, the next player must "skip" (a forced move). No voluntary pass.
`hoard` (2-4 players): add 1 or 2 to your own score, or "pass", "passall" (pass now and on every later turn,
as a forced move) or "resign". A full round of passes by the players still in ends the game by score.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from typing import Any, ClassVar

from games.base import (
    FIRST_SEAT,
    GameOver,
    IllegalMove,
    InvalidMove,
    Option,
    Outcome,
    Seat,
    SeatChoice,
    Termination,
    WordMove,
)


@dataclass(frozen=True, slots=True)
class TinyState:
    seats: int
    target: int
    to_move: int | None
    scores: tuple[int, ...]
    total: int = 0
    passes: int = 0
    passall: frozenset[int] = frozenset()
    resigned: frozenset[int] = frozenset()
    outcome: Outcome | None = None
    moves: int = 0


class _Tiny:
    id: ClassVar[str]
    name: ClassVar[str]
    seats: ClassVar[range]
    options: ClassVar[tuple[Option, ...]] = (Option("target", 10, "Total to reach", minimum=3, maximum=1000),)
    summary: ClassVar[str] = "A tiny test game."
    first_seat: ClassVar[SeatChoice] = FIRST_SEAT
    voluntary: ClassVar[tuple[str, ...]] = ()

    def word_moves(self, state: TinyState) -> tuple[WordMove, ...]:
        return ()

    def pass_move(self, state: TinyState) -> str | None:
        return None

    def timeout_move(self, state: TinyState) -> str | None:
        """A player out of time loses."""
        return None

    def resign(self, state: TinyState, seat: Seat) -> TinyState | None:
        """Resigning ends the game."""
        return None

    def new(self, seats: int, options: Mapping[str, Any], seed: int) -> TinyState:
        target = int(options.get("target", 10))
        return TinyState(seats=seats, target=target, to_move=0, scores=(0,) * seats)

    def to_move(self, state: TinyState) -> Seat | None:
        return state.to_move

    def outcome(self, state: TinyState) -> Outcome | None:
        return state.outcome

    def forced_move(self, state: TinyState) -> str | None:
        return None

    def legal_moves(self, state: TinyState) -> Iterable[str]:
        if state.outcome is not None:
            return []
        if self.forced_move(state) is not None:
            return [self.forced_move(state) or ""]
        return ["1", "2", *self.voluntary]

    def parse(self, state: TinyState, text: str) -> str:
        if state.outcome is not None:
            raise GameOver("The game is over.")
        word = text.strip().lower()
        if word not in {"1", "2", "skip", *self.voluntary}:
            raise InvalidMove(f"{text!r} is not a move: play 1 or 2.")
        legal = list(self.legal_moves(state))
        if word not in legal:
            raise IllegalMove(f"You cannot play {word} now: play {' or '.join(legal)}.")
        return word

    def notation(self, state: TinyState, move: str) -> str:
        return move

    def describe(self, state: TinyState, move: str) -> str:
        return f"Seat {state.to_move} plays {move}"

    def seat_label(self, state: TinyState, seat: Seat) -> str:
        return f"Seat {seat}"

    def apply(self, state: TinyState, move: str) -> TinyState:
        """`_apply`, counting every move but a resignation."""
        after = self._apply(state, move)
        return after if move == "resign" else replace(after, moves=state.moves + 1)

    def _apply(self, state: TinyState, move: str) -> TinyState:
        raise NotImplementedError

    def moves_played(self, state: TinyState) -> int:
        return state.moves

    def position_text(self, state: TinyState) -> str:
        return f"total={state.total} scores={state.scores}"

    def dump(self, state: TinyState) -> dict[str, Any]:
        return {
            "seats": state.seats,
            "target": state.target,
            "to_move": state.to_move,
            "scores": list(state.scores),
            "total": state.total,
            "passes": state.passes,
            "passall": sorted(state.passall),
            "resigned": sorted(state.resigned),
            "outcome": None if state.outcome is None else state.outcome.to_json(),
            "moves": state.moves,
        }

    def load(self, data: Mapping[str, Any]) -> TinyState:
        return TinyState(
            seats=data["seats"],
            target=data["target"],
            to_move=data["to_move"],
            scores=tuple(data["scores"]),
            total=data["total"],
            passes=data["passes"],
            passall=frozenset(data["passall"]),
            resigned=frozenset(data["resigned"]),
            outcome=None if data["outcome"] is None else Outcome.from_json(data["outcome"]),
            moves=data.get("moves", 0),
        )


class Race(_Tiny):
    id = "race"
    name = "Race"
    seats = range(2, 3)

    def forced_move(self, state: TinyState) -> str | None:
        if state.outcome is None and state.total % 5 == 4 and state.passes == 0:
            return "skip"
        return None

    def _apply(self, state: TinyState, move: str) -> TinyState:
        if state.outcome is not None or state.to_move is None:
            raise GameOver("The game is over.")
        mover = state.to_move
        if move == "skip":
            return replace(state, to_move=1 - mover, passes=1)
        total = state.total + int(move)
        if total >= state.target:
            outcome = Outcome.win(mover, 2, Termination.COLOURS)
            return replace(state, total=total, to_move=None, outcome=outcome)
        return replace(state, total=total, to_move=1 - mover, passes=0)


class Hoard(_Tiny):
    id = "hoard"
    name = "Hoard"
    seats = range(2, 5)
    voluntary = ("pass", "passall", "resign")

    def forced_move(self, state: TinyState) -> str | None:
        if state.outcome is None and state.to_move in state.passall:
            return "pass"
        return None

    def word_moves(self, state: TinyState) -> tuple[WordMove, ...]:
        if state.outcome is not None or self.forced_move(state) is not None:
            return ()
        return (WordMove("pass", "Pass"), WordMove("passall", "Pass all", irreversible=True))

    def pass_move(self, state: TinyState) -> str | None:
        return None if state.outcome is not None else "pass"

    def timeout_move(self, state: TinyState) -> str | None:
        """A player out of time passes for the rest of the game."""
        return "passall"

    def resign(self, state: TinyState, seat: Seat) -> TinyState | None:
        """The seat leaves the game, on any turn; the last one left wins."""
        if state.outcome is not None:
            raise GameOver("The game is over.")
        if seat in state.resigned:
            return state
        if seat == state.to_move:
            return self.apply(state, "resign")
        resigned = state.resigned | {seat}
        left = [s for s in range(state.seats) if s not in resigned]
        if len(left) == 1:
            outcome = Outcome.win(left[0], state.seats, Termination.RESIGNATION, state.scores)
            return replace(state, resigned=resigned, to_move=None, outcome=outcome)
        return replace(state, resigned=resigned)

    def legal_moves(self, state: TinyState) -> Iterable[str]:
        if state.outcome is None and state.to_move in state.passall:
            return ["pass"]
        return super().legal_moves(state)

    def _next(self, state: TinyState, mover: int) -> int:
        seat = (mover + 1) % state.seats
        while seat in state.resigned:
            seat = (seat + 1) % state.seats
        return seat

    def _apply(self, state: TinyState, move: str) -> TinyState:
        if state.outcome is not None or state.to_move is None:
            raise GameOver("The game is over.")
        mover = state.to_move
        if move == "resign":
            resigned = state.resigned | {mover}
            left = [s for s in range(state.seats) if s not in resigned]
            if len(left) == 1:
                outcome = Outcome.win(left[0], state.seats, Termination.RESIGNATION, state.scores)
                return replace(state, resigned=resigned, to_move=None, outcome=outcome)
            return replace(
                state, resigned=resigned, to_move=self._next(replace(state, resigned=resigned), mover)
            )
        if move in ("pass", "passall"):
            passall = state.passall | ({mover} if move == "passall" else set())
            passes = state.passes + 1
            if passes >= state.seats - len(state.resigned):
                outcome = Outcome.by_score(state.scores, Termination.PASSES, last=state.resigned)
                return replace(state, passall=passall, passes=passes, to_move=None, outcome=outcome)
            return replace(state, passall=passall, passes=passes, to_move=self._next(state, mover))
        scores = list(state.scores)
        scores[mover] += int(move)
        return replace(state, scores=tuple(scores), passes=0, to_move=self._next(state, mover))


RACE = Race()
HOARD = Hoard()
TINY_GAMES: dict[str, Any] = {"race": RACE, "hoard": HOARD}


def registry(game_id: str) -> Any:
    """The tiny games first, then the real registry (for the real engines as they land)."""
    if game_id in TINY_GAMES:
        return TINY_GAMES[game_id]
    import games

    return games.get(game_id)
