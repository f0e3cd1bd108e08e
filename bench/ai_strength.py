"""Strength of the AI levels: matches with alternating seats, win rates with Wilson 95% intervals.

Pairings (the first player is the one whose score is printed):
  hard-random   hard at --seconds per move against uniformly random moves
  hard-easy     hard at --seconds against easy at the levels' time ratio (0.2 / 3 of --seconds)
  hard-hard     hard at --seconds against hard at a third of it (3 s against 1 s by default)
  hard-plain    hard against plain UCT at the same budget: uniform random playouts to the end (through the
                engine's `fast_playout` where it has one), no game knowledge; a stand-in for an
                independent MCTS opponent
  hard-grave    hard against GRAVE (games/ai/grave.py) at the same budget: generalised RAVE with uniform
                random playouts and no game knowledge, the strongest generic MCTS
  grave-plain   GRAVE against plain UCT at the same budget: a check that the yardstick is the stronger one

    python bench/ai_strength.py --games 10 --seconds 3            # the full-strength run (long)
    python bench/ai_strength.py --games 6 --seconds 0.3 --jobs 1  # a quick look
    python bench/ai_strength.py --iterations 400                  # iteration budgets: reproducible
    python bench/ai_strength.py --game paintscape --pairings hard-grave --games 40 --seconds 0.5 --jobs 2

Time odds: --opponent-seconds gives every opponent its own time per move (`--seconds 0.25
--opponent-seconds 1`); --opponent-iterations its own iterations per move with --iterations, a reproducible
stand-in for time odds when the two budgets are in the ratio of the sides' iterations per move at those
times (each running line ends with both sides' iterations per move and per second of search, from which the
ratio is read). A game id may carry its number of seats (`tilingking:4`, else --seats): the first player
takes one seat and the opponent every other seat.

    python bench/ai_strength.py --game paintscape,paint,tilingking,tilingking:4 --pairings hard-grave \
        --games 40 --seconds 0.25 --opponent-seconds 1 --jobs 16      # the time-odds run (issue 30)

Score = (wins + draws / 2) / games. Game k uses start seed k // seats (counting from --first-start) and the
first player's seat k % seats, so each start is played from every seat (in Paintscape the seats swap the
balancer's and the chooser's roles; with `--no-balance` the colours themselves swap). Games run in --jobs
worker processes. After the running lines a Markdown table sums the run up: wins-losses-draws, score and its
95% Wilson interval. With more than two seats the score is the first player's share of wins (a win shared by
w counts 1/w; a fair share is 1/seats). With --iterations, hard gets that many iterations per move, easy 1/15
of it and the weaker hard a third, and the whole run is deterministic.
"""

from __future__ import annotations

import argparse
import functools
import importlib
import math
import random
import sys
import time
from collections.abc import Iterable, Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

# This checkout's games/, also where another checkout is installed (editable) in the environment.
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import games
from games.ai import Knowledge, analyse
from games.ai.grave import BIAS, REF, grave_move
from games.base import Outcome


class PlainKnowledge(Knowledge):
    """Plain UCT: uniformly random playouts to the end, by the engine's fast path when it has one. It never
    considers resigning or passing for the rest of the game (TilingKing), which no sane player would."""

    def _sane(self, rules: Any, state: Any, moves: list[Any]) -> list[Any]:
        kept = [m for m in moves if rules.notation(state, m) not in HOPELESS]
        return kept or moves

    def order(self, rules: Any, state: Any, moves: list[Any], rng: random.Random) -> list[Any]:
        return super().order(rules, state, self._sane(rules, state, moves), rng)

    def playout(self, rules: Any, state: Any, rng: random.Random, seats: int) -> list[float]:
        fast = getattr(importlib.import_module(type(rules).__module__), "fast_playout", None)
        if fast is None or (rules.id == "paintscape" and state.phase != "play"):
            for _ in range(self.playout_cap):
                outcome = rules.outcome(state)
                if outcome is not None:
                    return self.outcome_rewards(rules, state, outcome)
                moves = self._sane(rules, state, list(rules.legal_moves(state)))
                state = rules.apply(state, moves[rng.randrange(len(moves))])
            return self.evaluate(rules, state, seats)
        winner = fast(state, rng)
        if winner is None or winner < 0:
            return [0.5] * seats
        return [1.0 if s == winner else 0.0 for s in range(seats)]


HOPELESS = frozenset({"resign", "passall"})


EASY_SHARE = 0.2 / 3.0
WEAK_HARD_SHARE = 1.0 / 3.0


@dataclass(frozen=True)
class Player:
    """A contestant: a level with a budget (and, for tuning, its own knowledge), "plain" (UCT without game
    knowledge, hard's settings), "grave" (GRAVE), or `level=None` for uniformly random legal moves."""

    label: str
    level: str | None
    seconds: float | None = None
    iterations: int | None = None
    knowledge: Knowledge | None = None
    grave: tuple[int, float] = (REF, BIAS)
    """GRAVE's (ref, bias)."""

    def move(self, rules: Any, state: Any, rng: random.Random) -> Any:
        return self.think(rules, state, rng)[0]

    def think(self, rules: Any, state: Any, rng: random.Random) -> tuple[Any, int, float, bool]:
        """The move, with the search's iterations and seconds (0 for a move found without searching), and
        whether it came from the game's opening book."""
        if self.level is None:
            forced = rules.forced_move(state)
            if forced is not None:
                return forced, 0, 0.0, False
            moves = list(rules.legal_moves(state))
            return moves[rng.randrange(len(moves))], 0, 0.0, False
        seed = rng.randrange(1 << 30)
        if self.level == "grave":
            ref, bias = self.grave
            report = grave_move(
                rules, state, seconds=self.seconds, iterations=self.iterations, seed=seed, ref=ref, bias=bias
            )
        else:
            level = "hard" if self.level == "plain" else self.level
            knowledge = PlainKnowledge() if self.level == "plain" else self.knowledge
            report = analyse(
                rules, state, level=level, seconds=self.seconds, iterations=self.iterations, seed=seed,
                knowledge=knowledge,
            )  # fmt: skip
        return report.move, report.iterations, report.seconds, report.reason == "book"


@dataclass
class Thinking:
    """What one seat's searches added up to over a game: searched moves, iterations and seconds, and the
    moves it played from the opening book."""

    moves: int = 0
    iterations: int = 0
    seconds: float = 0.0
    book: int = 0

    def add(self, iterations: int, seconds: float, booked: bool = False) -> None:
        self.book += booked
        if iterations:
            self.moves += 1
            self.iterations += iterations
            self.seconds += seconds


def play_game(
    game_id: str,
    seating: Sequence[Player],
    seats: int,
    seed: int,
    max_plies: int,
    options: dict[str, Any],
    thinking: list[Thinking] | None = None,
) -> Outcome | None:
    """One game with `seating[s]` at seat s; None if it hit the ply cap (counted as a draw). Each seat's
    searches are summed up in `thinking[s]` when given."""
    rules = games.get(game_id)
    state = rules.new(seats, options, seed)
    rng = random.Random(seed * 7919 + 1)
    for _ in range(max_plies):
        seat = rules.to_move(state)
        if seat is None:
            return rules.outcome(state)
        move, iterations, seconds, booked = seating[seat].think(rules, state, rng)
        if thinking is not None:
            thinking[seat].add(iterations, seconds, booked)
        state = rules.apply(state, move)
    return rules.outcome(state)


@dataclass(frozen=True)
class Match:
    """Game k of a match between `first` and `second` (what a worker process needs to play it)."""

    game_id: str
    first: Player
    second: Player
    k: int
    seats: int = 2
    max_plies: int = 2000
    options: tuple[tuple[str, Any], ...] = ()


@dataclass(frozen=True)
class GameResult:
    """One game from the first player's side: its score, the game's seconds, and the first player's and the
    other seats' (summed) thinking."""

    score: float
    seconds: float
    first: Thinking
    second: Thinking


def game_result(match: Match) -> GameResult:
    """The result of game k of a match: start k // seats, and the first player in seat k % seats (the second
    player in every other seat), so every start is played from every seat. In a game of more than two the
    first player scores 1 for a win alone, 1/w for a win shared by w, else 0 (a fair share is 1/seats);
    a game cut off at the ply cap counts as a draw (0.5) in a two-player game and a share in a bigger one."""
    k, seats = match.k, match.seats
    start = time.perf_counter()
    seat_of_first = k % seats
    seating = [match.second] * seats
    seating[seat_of_first] = match.first
    thinking = [Thinking() for _ in range(seats)]
    outcome = play_game(
        match.game_id, seating, seats, k // seats, match.max_plies, dict(match.options), thinking
    )
    elapsed = time.perf_counter() - start
    others = Thinking()
    for seat, t in enumerate(thinking):
        if seat != seat_of_first:
            others.moves += t.moves
            others.iterations += t.iterations
            others.seconds += t.seconds
            others.book += t.book
    if outcome is None or outcome.is_draw:
        score = 1.0 / seats if seats > 2 else 0.5
    elif seat_of_first in outcome.winners:
        score = 1.0 / len(outcome.winners)
    else:
        score = 0.0
    return GameResult(score, elapsed, thinking[seat_of_first], others)


def wilson(score: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval of a proportion (95% by default)."""
    if n == 0:
        return 0.0, 1.0
    p = score / n
    denominator = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denominator
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denominator
    return max(0.0, centre - half), min(1.0, centre + half)


def budgeted(level: str, *, seconds: float | None = None, iterations: int | None = None) -> Player:
    """A player of `level` ("plain" and "grave" too) at an iteration budget if given, else at `seconds`,
    named after both ("hard@400it", "grave@1s")."""
    if iterations is not None:
        return Player(f"{level}@{iterations}it", level, iterations=iterations)
    assert seconds is not None
    return Player(f"{level}@{seconds:.3g}s", level, seconds=seconds)


def pairings(
    seconds: float,
    iterations: int | None,
    *,
    opponent_seconds: float | None = None,
    opponent_iterations: int | None = None,
    level: str = "hard",
) -> dict[str, tuple[Player, Player]]:
    """The pairings by name. The opponents' budgets follow the player's (easy at 0.2 / 3 of it, the weaker
    hard at a third, plain and GRAVE at the same) unless `opponent_seconds` or `opponent_iterations` sets
    one budget for every opponent (time odds). `level` is the level that plays as "hard"."""
    hard = budgeted(level, seconds=seconds, iterations=iterations)

    def opponent(name: str, share: float) -> Player:
        """An opponent at its share of the player's budget, or at the one opponents' budget."""
        if opponent_iterations is not None:
            return budgeted(name, iterations=opponent_iterations)
        if opponent_seconds is not None:
            return budgeted(name, seconds=opponent_seconds)
        if iterations is not None:
            return budgeted(name, iterations=max(1, round(iterations * share)))
        return budgeted(name, seconds=seconds * share)

    easy, weak = opponent("easy", EASY_SHARE), opponent(level, WEAK_HARD_SHARE)
    plain, grave = opponent("plain", 1.0), opponent("grave", 1.0)
    return {
        "hard-random": (hard, Player("random", None)),
        "hard-easy": (hard, easy),
        "hard-hard": (hard, weak),
        "hard-plain": (hard, plain),
        "hard-grave": (hard, grave),
        "grave-plain": (grave, plain),
    }


@dataclass(frozen=True)
class Tally:
    """A match's results from the first player's side."""

    game_id: str
    first: Player
    second: Player
    scores: tuple[float, ...]
    seconds_per_game: float
    first_thinking: Thinking = field(default_factory=Thinking)
    second_thinking: Thinking = field(default_factory=Thinking)

    @property
    def wins(self) -> int:
        return sum(1 for s in self.scores if s == 1.0)

    @property
    def losses(self) -> int:
        return sum(1 for s in self.scores if s == 0.0)

    @property
    def draws(self) -> int:
        return len(self.scores) - self.wins - self.losses

    @property
    def score(self) -> float:
        return sum(self.scores) / max(1, len(self.scores))

    @property
    def interval(self) -> tuple[float, float]:
        return wilson(sum(self.scores), len(self.scores))

    def line(self) -> str:
        low, high = self.interval
        return (
            f"{self.game_id:<11} {self.first.label:<14} {self.second.label:<14} {len(self.scores):>5} "
            f"{self.score:>6.1%} [{low:>5.1%}, {high:>5.1%}] {self.seconds_per_game:>7.1f} "
            f"{rate(self.first_thinking)} {rate(self.second_thinking)}"
        )


def rate(thinking: Thinking) -> str:
    """Iterations per searched move and per second of search: "1234 it/move 4936 it/s"."""
    per_move = thinking.iterations / max(1, thinking.moves)
    per_second = thinking.iterations / thinking.seconds if thinking.seconds else 0.0
    return f"{per_move:>7.0f} it/move {per_second:>7.0f} it/s"


def budget(player: Player) -> str:
    """A player's thinking budget per move: "0.5 s", "400 iterations", or "-" (random moves think not)."""
    if player.seconds is not None:
        return f"{player.seconds:g} s"
    return f"{player.iterations} iterations" if player.iterations is not None else "-"


def markdown(tallies: Sequence[Tally]) -> str:
    """The results as a Markdown table, one row per match."""
    rows = [
        "| game | player | opponent | budget/move | games | W-L-D | score | 95% Wilson |",
        "|---|---|---|---|---:|---|---:|---|",
    ]
    for t in tallies:
        low, high = t.interval
        rows.append(
            f"| {t.game_id} | {t.first.label} | {t.second.label} | {budget(t.first)} / {budget(t.second)} "
            f"| {len(t.scores)} | {t.wins}-{t.losses}-{t.draws} | {t.score:.1%} | [{low:.1%}, {high:.1%}] |"
        )
    return "\n".join(rows)


def play_match(pool: ProcessPoolExecutor, matches: Sequence[Match]) -> Tally:
    """Play the games of one match on the pool's worker processes (all at once, as workers free up)."""
    return tally(matches, [pool.submit(game_result, m) for m in matches])


def tally(matches: Sequence[Match], futures: Sequence[Future[GameResult]]) -> Tally:
    """The tally of one match's games, once they have all been played."""
    results = [f.result() for f in futures]
    first = matches[0]
    per_game = sum(r.seconds for r in results) / max(1, len(results))
    label = first.game_id if first.seats == 2 else f"{first.game_id}:{first.seats}"
    return Tally(
        label, first.first, first.second, tuple(r.score for r in results), per_game,
        total(r.first for r in results), total(r.second for r in results),
    )  # fmt: skip


def total(parts: Iterable[Thinking]) -> Thinking:
    """The sum of several games' thinking."""
    out = Thinking()
    for t in parts:
        out.moves += t.moves
        out.iterations += t.iterations
        out.seconds += t.seconds
        out.book += t.book
    return out


def progress(match: Match, future: Future[GameResult]) -> None:
    """One line on stderr as each game ends (a match's line waits for all its games)."""
    if future.cancelled() or future.exception() is not None:
        return
    result = future.result()
    label = match.game_id if match.seats == 2 else f"{match.game_id}:{match.seats}"
    book = (
        f", book moves {result.first.book} / {result.second.book}"
        if result.first.book + result.second.book
        else ""
    )
    first = f"{match.first.label} (seat {match.k % match.seats})"
    print(f"  {label} {first} vs {match.second.label} game {match.k}: {result.score:g} "
          f"({result.seconds:.0f} s{book})", file=sys.stderr, flush=True)  # fmt: skip


def run(jobs: int, schedule: Iterable[Sequence[Match]]) -> list[Tally]:
    """Play each match of `schedule` on `jobs` worker processes, print a line per match as it ends and then
    the Markdown table of them all."""
    tallies = []
    with ProcessPoolExecutor(max(1, jobs)) as pool:
        # every game is queued at once, so no worker waits for the last games of a match to end
        queued = [(matches, [pool.submit(game_result, m) for m in matches]) for matches in schedule]
        for matches, futures in queued:
            for match, future in zip(matches, futures, strict=True):
                future.add_done_callback(functools.partial(progress, match))
        for matches, futures in queued:
            done = tally(matches, futures)
            tallies.append(done)
            print(done.line(), flush=True)
    print()
    print(markdown(tallies))
    return tallies


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--games", type=int, default=10, help="games per pairing and game (default 10)")
    parser.add_argument("--seconds", type=float, default=3.0, help="hard's time per move (default 3)")
    parser.add_argument("--iterations", type=int, default=None, help="use iteration budgets instead of time")
    parser.add_argument("--game", default=",".join(games.GAME_IDS), help="comma-separated game ids")
    parser.add_argument("--pairings", default="hard-random,hard-easy,hard-hard,hard-plain", help="list")
    parser.add_argument("--seats", type=int, default=2, help="players per game (default 2)")
    parser.add_argument("--jobs", type=int, default=1, help="games played in parallel processes (default 1)")
    parser.add_argument("--max-plies", type=int, default=2000, help="a game this long counts as a draw")
    parser.add_argument(
        "--first-start",
        type=int,
        default=0,
        help="start seed of the first game (default 0): a second batch on new starts, to pool with a first",
    )
    parser.add_argument("--no-balance", action="store_true", help="Paintscape without the balancing phase")
    parser.add_argument(
        "--opponent-seconds", type=float, default=None, help="every opponent's time per move (time odds)"
    )
    parser.add_argument(
        "--opponent-iterations",
        type=int,
        default=None,
        help="every opponent's iterations per move (with --iterations: a reproducible stand-in for odds)",
    )
    parser.add_argument("--level", default="hard", help="the level that plays as hard (default hard)")
    args = parser.parse_args()
    table = pairings(
        args.seconds, args.iterations, opponent_seconds=args.opponent_seconds,
        opponent_iterations=args.opponent_iterations, level=args.level,
    )  # fmt: skip
    options: tuple[tuple[str, Any], ...] = (("balance", False),) if args.no_balance else ()
    print(
        f"{'game':<11} {'first':<14} {'second':<14} {'games':>5} {'score':>6} {'95% CI':>15} {'s/game':>7} "
        "first's and others' iterations"
    )
    schedule = []
    for spec in args.game.split(","):
        game_id, _, seat_text = spec.partition(":")
        seats = int(seat_text) if seat_text else args.seats
        try:
            games.get(game_id)
        except ImportError as error:
            print(f"{game_id:<11} not available: {error}")
            continue
        game_options = options if game_id == "paintscape" else ()
        for name in args.pairings.split(","):
            first, second = table[name]
            schedule.append(
                [
                    Match(game_id, first, second, k, seats, args.max_plies, game_options)
                    for k in range(seats * args.first_start, seats * args.first_start + args.games)
                ]
            )
    run(args.jobs, schedule)


if __name__ == "__main__":
    main()
