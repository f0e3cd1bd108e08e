"""The engine contract every game implements, and the pieces shared by all of them.

A game is a pure, deterministic state machine behind the `Rules` protocol: state in, new state out. Engines
know seats (0..n-1), never Discord users; resignation by a player in a two-player game, timeouts and aborts
are the match service's business, and it reports them with the same `Outcome` type.

One move is one notation string: `parse(state, notation(state, m)) == m` for every legal move `m`. The same
string is the `/move` argument, the autocomplete choice, the button payload and the row in the moves table.

Forced moves (Paintscape's and TilingKing's automatic passes) are real moves in the log: `forced_move`
names them, and `advance` plays them, so a replay of the log reproduces the game exactly.

Game policy that a host needs is asked of the rules, never guessed from notation strings: who the first seat
is (`first_seat`), the one-word moves that get buttons (`word_moves`), passing (`pass_move`), what happens
when a player's time runs out (`timeout_move`) and what a resignation does (`resign`). `replay` walks a move
log, resignations included, and is the one way to rebuild a game from its log.

A game that has none of these writes nothing for them: its rules subclass `Rules` and inherit the defaults
(no forced moves, no word moves, no passing, a timeout or a resignation is a loss, one seat order), the move
count from the state's `ply`, and seat labels from `seat_names`.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, Generic, Protocol, TypeAlias, TypeVar

from games.texts import N_, Text

Seat: TypeAlias = int
"""A player's place at the table, 0..n-1. Seat 0 is the first seat, not necessarily the first to move."""

S = TypeVar("S")
M = TypeVar("M")


# --------------------------------------------------------------------------------------------- errors


class MoveError(ValueError):
    """A move (or a request to move) that cannot be played. The message is written for a player."""


class InvalidMove(MoveError):
    """The text is not a move of this game at all ("zz9 is not a square")."""


class IllegalMove(MoveError):
    """A well-formed move that the rules do not allow here ("d4 is not next to any of your stones")."""


class GameOver(MoveError):
    """The game has already ended."""


class InvalidOptions(ValueError):
    """Match options that do not fit the game; the message says which option and what is allowed."""


MAX_MOVE_TEXT = 200
"""The longest text `parse` reads; far longer than any move of any game (a TilingKing cell list is ~40)."""


def move_text(text: object) -> str:
    """The text a player gave as a move, checked before `parse` reads it: InvalidMove for anything that is
    not text (None, a number) or that is too long to be a move."""
    if not isinstance(text, str):
        raise InvalidMove(Text("a move is text, like d4, not {kind}", kind=type(text).__name__))
    if len(text) > MAX_MOVE_TEXT:
        raise InvalidMove(Text("that is too long to be a move ({length} characters)", length=len(text)))
    return text


class ReplayError(ValueError):
    """A move log that does not replay: a move that is illegal there, or a move stored for the wrong seat."""

    def __init__(self, ply: int, message: str) -> None:
        super().__init__(f"ply {ply}: {message}")
        self.ply = ply


# --------------------------------------------------------------------------------------------- outcome


_TERMINATION_DEFINERS: list[Callable[[], object]] = []


def on_unknown_termination(define_more: Callable[[], object]) -> None:
    """Register a call that defines more terminations (the registry: it imports every game, and each game
    defines its own on import), made when a code not defined yet is asked for, e.g. a stored outcome read
    before its game was imported. `games.base` never imports the registry itself."""
    _TERMINATION_DEFINERS.append(define_more)


class _ByCode(type):
    """`Termination.LEAD` is `Termination("lead")`: any termination by its code in capitals, wherever it is
    defined (the generic ones below, a game's own in its module)."""

    def __getattr__(cls, name: str) -> Termination:
        if name.isupper() and not name.startswith("_"):
            try:
                return Termination(name.lower())
            except ValueError as error:
                raise AttributeError(str(error)) from None
        raise AttributeError(name)

    def __iter__(cls) -> Iterator[Termination]:
        """Every termination defined so far: the generic ones and those of the games imported so far
        (`games.terminations()` loads every registered game first)."""
        return iter(list(Termination._known.values()))


class Termination(str, metaclass=_ByCode):
    """Why a game ended: a code stored in the database ("lead"; never rename one) and the words a host needs.

    The set is open: the generic ones (resignation, timeout, abort) are defined here, and each game defines
    its own in its module, as `Termination("lead", N_("holding the lead"), win=N_("{winner} wins by holding
    the lead"))`. `phrase` completes "won by {phrase}"; `win`, `shared` and `draw` are the result lines
    ("{winner} ...", "{winners} ...", a draw), each falling back to the plain "{winner} wins", "{winners}
    share first place", "Draw". `Termination("lead")` with the code alone is the termination defined with it
    (every registered game is loaded first, so a stored outcome finds its game's terminations); an unknown
    code raises ValueError. Two definitions of one code must agree."""

    _known: ClassVar[dict[str, Termination]] = {}

    phrase: str
    win: str | None
    shared: str | None
    draw: str | None

    def __new__(
        cls,
        code: str,
        phrase: str | None = None,
        *,
        win: str | None = None,
        shared: str | None = None,
        draw: str | None = None,
    ) -> Termination:
        known = cls._known.get(code)
        if phrase is None:
            if known is None:
                for define_more in _TERMINATION_DEFINERS:
                    define_more()
                known = cls._known.get(code)
            if known is None:
                raise ValueError(f"{code!r} is not a known termination")
            return known
        if known is not None:
            if (known.phrase, known.win, known.shared, known.draw) != (phrase, win, shared, draw):
                raise ValueError(f"two terminations share the code {code!r} with different words")
            return known
        if not code or not code.replace("_", "").isalnum() or code != code.lower():
            raise ValueError(f"a termination code is lower-case letters, digits and _, not {code!r}")
        made = super().__new__(cls, code)
        made.phrase, made.win, made.shared, made.draw = phrase, win, shared, draw
        cls._known[code] = made
        return made

    @property
    def value(self) -> str:
        """The stored code ("lead"), as the enum this replaces had it."""
        return str.__str__(self)

    def __repr__(self) -> str:
        return f"Termination({self.value!r})"

    def __reduce__(self) -> tuple[object, ...]:
        """Pickled by its code (the AI's worker processes and the board workers receive outcomes)."""
        return Termination, (self.value,)

    def __copy__(self) -> Termination:
        return self

    def __deepcopy__(self, memo: object) -> Termination:
        return self


RESIGNATION = Termination(
    "resignation",
    N_("resignation"),
    win=N_("{winner} wins by resignation"),
    shared=N_("{winners} share first place after a resignation"),
)
TIMEOUT = Termination(
    "timeout",
    N_("timeout"),
    win=N_("{winner} wins on time"),
    shared=N_("{winners} share first place after a timeout"),
)
ABORTED = Termination("aborted", N_("abort"))
"""Ended by agreement or by an admin: no result."""
AGREED_DRAW = Termination("agreed_draw", N_("agreement"), draw=N_("Draw by agreement"))
"""Every player still playing agreed a draw (the host's draw offers): rated as a draw."""


@dataclass(frozen=True, slots=True)
class Outcome:
    """How a game ended.

    `ranks[s]` is seat s's finishing place (0 = first; equal ranks are ties). `winners` are the seats ranked
    first, and is empty for a draw (every seat shares first place) or an aborted game. `scores` are the
    game's own points (colours, tiles, cells), one per seat.
    """

    termination: Termination
    ranks: tuple[int, ...]
    scores: tuple[float, ...] = ()
    winners: tuple[Seat, ...] = field(init=False)

    def __post_init__(self) -> None:
        firsts = tuple(s for s, r in enumerate(self.ranks) if r == 0)
        everyone = len(firsts) == len(self.ranks)
        winners = () if everyone or self.termination is Termination.ABORTED else firsts
        object.__setattr__(self, "winners", winners)

    @property
    def is_draw(self) -> bool:
        return not self.winners and self.termination is not Termination.ABORTED

    @classmethod
    def win(cls, winner: Seat, seats: int, termination: Termination, scores: Sequence[float] = ()) -> Outcome:
        """One seat wins, every other seat shares last place."""
        return cls(termination, tuple(0 if s == winner else 1 for s in range(seats)), tuple(scores))

    @classmethod
    def loss(cls, loser: Seat, seats: int, termination: Termination, scores: Sequence[float] = ()) -> Outcome:
        """One seat loses (resigned, timed out, had no move); the others share first place."""
        return cls(termination, tuple(1 if s == loser else 0 for s in range(seats)), tuple(scores))

    @classmethod
    def draw(cls, seats: int, termination: Termination, scores: Sequence[float] = ()) -> Outcome:
        return cls(termination, (0,) * seats, tuple(scores))

    @classmethod
    def by_score(
        cls,
        scores: Sequence[float],
        termination: Termination,
        last: Iterable[Seat] = (),
    ) -> Outcome:
        """Rank by score, highest first, equal scores tied; seats in `last` (resigned) rank below everyone."""
        demoted = set(last)
        keys = [(s in demoted, -scores[s]) for s in range(len(scores))]
        ranks = tuple(sorted(set(keys)).index(k) for k in keys)
        return cls(termination, ranks, tuple(scores))

    def to_json(self) -> dict[str, Any]:
        return {"termination": self.termination.value, "ranks": list(self.ranks), "scores": list(self.scores)}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Outcome:
        return cls(Termination(data["termination"]), tuple(data["ranks"]), tuple(data.get("scores", ())))


# --------------------------------------------------------------------------------------------- options


_WHOLE_NUMBER = re.compile(r"([+-]?)([0-9]+)")
_MAX_DIGITS = 30
_TRUE = frozenset({"true", "yes", "on", "1"})
_FALSE = frozenset({"false", "no", "off", "0"})


@dataclass(frozen=True, slots=True)
class Option:
    """One match option of a game: its name, type, default and allowed values, and a line of help.

    `proposal=True` marks a rule that is our decision where the sources are silent (RULES.md PROPOSAL).
    """

    name: str
    default: bool | int | str
    help: str
    choices: tuple[Any, ...] = ()
    minimum: int | None = None
    maximum: int | None = None
    proposal: bool = False

    def coerce(self, value: Any) -> bool | int | str:
        """Check and convert one value; raises InvalidOptions with a message for a player."""
        kind = type(self.default)
        if kind is bool:
            if isinstance(value, bool):
                result: bool | int | str = value
            elif isinstance(value, str) and value.lower() in _TRUE | _FALSE:
                result = value.lower() in _TRUE
            else:
                raise InvalidOptions(Text("`{name}` must be on or off", name=self.name))
        elif kind is int:
            result = self._whole_number(value)
            if self.minimum is not None and result < self.minimum:
                raise InvalidOptions(
                    Text("`{name}` must be at least {minimum}", name=self.name, minimum=self.minimum)
                )
            if self.maximum is not None and result > self.maximum:
                raise InvalidOptions(
                    Text("`{name}` must be at most {maximum}", name=self.name, maximum=self.maximum)
                )
        else:
            if not isinstance(value, str):
                raise InvalidOptions(Text("`{name}` must be text", name=self.name))
            result = value
        if self.choices and result not in self.choices:
            allowed = ", ".join(str(c) for c in self.choices)
            raise InvalidOptions(Text("`{name}` must be one of: {allowed}", name=self.name, allowed=allowed))
        return result

    def _whole_number(self, value: Any) -> int:
        """An int, a float without a fraction, or text of ASCII digits with an optional sign; anything else
        (a bool, inf, nan, 2.5, "1e3", "١٢", None) raises InvalidOptions."""
        if isinstance(value, int) and not isinstance(value, bool):
            return value
        if isinstance(value, float) and value.is_integer():  # inf and nan are not integers
            return int(value)
        if isinstance(value, str):
            match = _WHOLE_NUMBER.fullmatch(value.strip())
            if match is not None:
                sign, digits = match.groups()
                if len(digits) > _MAX_DIGITS:  # far beyond any option's range; int() of it would be slow
                    raise InvalidOptions(Text("`{name}` has too many digits", name=self.name))
                return int(sign + digits)
        raise InvalidOptions(Text("`{name}` must be a whole number", name=self.name))


def resolve_options(specs: Sequence[Option], given: Mapping[str, Any]) -> dict[str, Any]:
    """Fill in defaults and check every given option against the game's specs; InvalidOptions for anything
    else (an unknown name, a value of the wrong kind, options that are not a mapping of names)."""
    if not isinstance(given, Mapping):
        raise InvalidOptions(Text("options must map option names to values"))
    known = {o.name: o for o in specs}
    unknown = sorted((name for name in given if name not in known), key=repr)
    if unknown:
        names = ", ".join(known) or "none"
        raise InvalidOptions(
            Text(
                "unknown option {unknown!r}; this game's options are: {names}",
                unknown=unknown[0],
                names=names,
            )
        )
    return {name: spec.coerce(given[name]) if name in given else spec.default for name, spec in known.items()}


# --------------------------------------------------------------------------------------------- policies


RESIGN = "resign"
"""The move log's word for a resignation. Unlike every other move it may come from any seat at any time, so
`replay` gives it to `Rules.resign` for the seat stored with it instead of parsing it."""


@dataclass(frozen=True, slots=True)
class SeatChoice:
    """The two-player match option that decides who takes seat 0, and what seat 0 means in this game:
    `SeatChoice("white", "Who plays White and moves first")`. Its values are chosen by the host."""

    option: str
    help: str
    proposal: bool = False
    """True where the rule behind it is our decision (RULES.md PROPOSAL)."""


FIRST_SEAT = SeatChoice("first", N_("Who takes the first seat"))
"""The choice for games whose seat 0 has no special role."""


@dataclass(frozen=True, slots=True)
class WordMove:
    """A legal move that is a single word, offered as a button: its notation, a label that says what it does,
    and whether it cannot be undone (the host asks the player to confirm it, as for resigning)."""

    notation: str
    label: str
    irreversible: bool = False
    main: bool = False
    """The move most players want here (the host may show it more prominently)."""


# --------------------------------------------------------------------------------------------- contract


class Rules(Protocol[S, M]):
    """The rules of one game as a pure state machine. Implementations are stateless singletons.

    A game's rules class subclasses it (`class MyRules(Rules[MyState, MyMove])`) and writes the methods
    without a default; the policy methods, `moves_played`, `seat_label` and `first_seat` have defaults here
    for a game without passes, word moves, forced moves, timeout moves or seat roles."""

    id: ClassVar[str]
    """Registry key, database value and command choice: "paintscape"."""
    name: ClassVar[str]
    """Display name: "Paintscape"."""
    seats: ClassVar[range]
    """Allowed numbers of players: range(2, 3) or range(2, 5)."""
    options: ClassVar[tuple[Option, ...]]
    """The match options this game accepts (see `resolve_options`)."""
    summary: ClassVar[str]
    """The /rules text: a summary a player reads in a minute, saying which rules are proposals."""
    first_seat: ClassVar[SeatChoice] = FIRST_SEAT
    """What seat 0 is in a two-player match, and the name of the option that decides who takes it; by
    default the option `first`, seat 0 having no special role."""
    clock_presets: ClassVar[tuple[tuple[int, int], ...]] = ()
    """Live time controls offered for this game, as (base seconds, increment seconds), chosen for its
    length; empty: the host's defaults (3+2, 5+3, 10+5)."""
    seat_names: ClassVar[tuple[str, ...]] = ()
    """The seats' roles by seat ("Red", "Yellow"; marked with `N_`), which the default `seat_label` gives;
    empty: "Player 1", "Player 2"..."""
    can_draw: ClassVar[bool] = True
    """Whether a game of these rules can end drawn (or first place shared by everyone), so the players may
    also agree a draw (the host's draw offers). Default: yes; a game that always has a winner says False
    (Paintscape)."""

    def new(self, seats: int, options: Mapping[str, Any], seed: int) -> S:
        """The starting position. Randomness (a shuffled start) comes only from `seed`."""
        ...

    def to_move(self, state: S) -> Seat | None:
        """The seat to move, or None once the game is over."""
        ...

    def legal_moves(self, state: S) -> Iterable[M]:
        """Every legal move; empty exactly when `outcome(state)` is set."""
        ...

    def apply(self, state: S, move: M) -> S:
        """The position after `move`; never mutates `state`. Raises IllegalMove or GameOver."""
        ...

    def outcome(self, state: S) -> Outcome | None:
        """How the game ended, or None while it goes on."""
        ...

    def parse(self, state: S, text: str) -> M:
        """A player's text to a legal move. Raises InvalidMove, IllegalMove or GameOver."""
        ...

    def notation(self, state: S, move: M) -> str:
        """The canonical text of a move in this position; `parse(state, notation(state, m)) == m`."""
        ...

    def describe(self, state: S, move: M) -> str:
        """The move in words, from the position before it: "White c1-c3, pushing the sphere to c4"."""
        ...

    def forced_move(self, state: S) -> M | None:
        """The move the rules make for the player (an automatic pass), or None if the player must choose.
        Default: None, the player always chooses."""
        return None

    def word_moves(self, state: S) -> tuple[WordMove, ...]:
        """The legal moves that are one word and deserve a button here, with their labels (none once over).
        Default: none."""
        return ()

    def pass_move(self, state: S) -> M | None:
        """The move that passes this turn when the player may choose to pass, or None (no passing here).
        Default: None."""
        return None

    def timeout_move(self, state: S) -> M | None:
        """The move the rules make for the seat to move when its time runs out, or None: that seat loses.
        Default: None."""
        return None

    def resign(self, state: S, seat: Seat) -> S | None:
        """The position after `seat` resigns, on any turn. None where a resignation ends the game with a loss
        for `seat` (two-player games): the host records that outcome and no move is logged. Default: None
        (a game with more seats that goes on without the one who left writes its own)."""
        return None

    def moves_played(self, state: S) -> int:
        """How many moves led to `state`: every turn played, forced passes included; a resignation is not a
        move (`move_numbers` counts a log the same way). Every move number players read comes from it.
        Default: the state's `ply`, for a game whose every move is one ply and whose resignation is no
        move."""
        ply = getattr(state, "ply", None)
        if type(ply) is not int:
            raise NotImplementedError(
                f"{type(self).__name__}.moves_played: the default reads the state's whole-number `ply`; "
                f"{type(state).__name__} has none, so write moves_played"
            )
        return ply

    def seat_label(self, state: S, seat: Seat) -> str:
        """The seat's role here: "Black", "White", "Red"; "Balancer" before colours are chosen. Default: the
        seat's entry of `seat_names`, else "Player 1", "Player 2"..."""
        if seat < len(self.seat_names):
            return Text(self.seat_names[seat])
        return Text("Player {number}", number=seat + 1)

    def position_text(self, state: S) -> str:
        """A compact text of the position, for `/board` exports and tests."""
        ...

    def dump(self, state: S) -> dict[str, Any]:
        """A JSON-safe snapshot; `load(dump(s)) == s`."""
        ...

    def load(self, data: Mapping[str, Any]) -> S:
        """The state a `dump` describes. A snapshot that is not a position the engine can reach (a wrong
        type, a missing or unknown key, a number out of range, a broken invariant) raises a one-line
        ValueError (`games.snapshots.InvalidSnapshot`) that names the field or the invariant."""
        ...


# --------------------------------------------------------------------------------------------- click play


@dataclass(frozen=True, slots=True)
class ClickMove:
    """A legal move as a host plays it by clicking the board: its notation and the cells it touches, in the
    order a player clicks them (Paint: the disc, then its destination; a Paintscape swap: the stone, then the
    tile). Cells are the indices the game's drawer gives polygons for (`renderer.scene`).

    `ordered` says whether clicks must follow that order (a disc before its destination) or may come in any
    order (the cells of a TilingKing piece). `group` and `pose` let a host offer "pick, turn, place": moves
    of one group (a piece id) differ only in where they lie and how they are turned; `pose` is (rotation
    number, mirrored). A host narrows the legal moves by the clicked cells; the contract guarantees that no
    two click moves of a position have the same cells (`clickable_moves` checks it)."""

    notation: str
    cells: tuple[int, ...]
    ordered: bool = True
    group: str = ""
    pose: tuple[int, bool] = (0, False)


class Clickable(Protocol):
    """The optional part of the contract for click play: a game whose rules also have `click_move` gets a
    clickable board in the web client with no client code of its own; one without is played by its word
    moves and typed notation there."""

    def click_move(self, state: Any, move: Any) -> ClickMove | None:
        """The move as cells to click, or None for a move that is not played on the board (a pass, a word
        move, a resignation)."""
        ...


def clickable_moves(rules: Rules[S, M], state: S) -> tuple[ClickMove, ...]:
    """Every legal move of `state` that is played by clicking cells (empty for a game without
    `click_move`). Raises ValueError if two moves have the same cells, which would leave a click ambiguous."""
    click_move = getattr(rules, "click_move", None)
    if click_move is None:
        return ()
    out: list[ClickMove] = []
    seen: dict[tuple[int, ...], str] = {}
    for move in rules.legal_moves(state):
        click = click_move(state, move)
        if click is None:
            continue
        key = click.cells if click.ordered else tuple(sorted(click.cells))
        if key in seen:
            raise ValueError(f"{click.notation} and {seen[key]} touch the same cells")
        seen[key] = click.notation
        out.append(click)
    return tuple(out)


def advance(rules: Rules[S, M], state: S) -> tuple[S, list[M]]:
    """Play every forced move (automatic passes) from `state`; returns the new state and the moves played."""
    played: list[M] = []
    while rules.to_move(state) is not None:
        move = rules.forced_move(state)
        if move is None:
            break
        played.append(move)
        state = rules.apply(state, move)
    return state, played


@dataclass(frozen=True, slots=True)
class Step(Generic[S, M]):
    """One entry of a replayed move log: who played what (`move` is None for a resignation), and the
    positions before and after it."""

    ply: int
    seat: Seat
    notation: str
    move: M | None
    before: S
    after: S


def replay(rules: Rules[S, M], start: S, log: Iterable[tuple[Seat, str]]) -> Iterator[Step[S, M]]:
    """Walk a move log of (seat, notation) entries from `start`, forced moves and resignations included.

    Every entry but a resignation must be a legal move of the seat to move; anything else raises ReplayError
    with the ply, so a broken log is reported rather than replayed wrongly."""
    state = start
    for ply, (seat, text) in enumerate(log):
        if text == RESIGN:
            try:
                after = rules.resign(state, seat)
            except MoveError as error:
                raise ReplayError(ply, f"seat {seat} cannot resign here: {error}") from error
            if after is None:
                raise ReplayError(ply, f"a resignation ends {rules.name} and is never a logged move")
            yield Step(ply, seat, text, None, state, after)
            state = after
            continue
        to_move = rules.to_move(state)
        if to_move != seat:
            raise ReplayError(ply, f"{text!r} is stored for seat {seat}, but seat {to_move} was to move")
        try:
            move = rules.parse(state, text)
            after = rules.apply(state, move)
        except MoveError as error:
            raise ReplayError(ply, f"{text!r} does not replay: {error}") from error
        yield Step(ply, seat, text, move, state, after)
        state = after


def move_numbers(notations: Iterable[str]) -> list[int | None]:
    """The number players read for each entry of a move log, from 1: forced passes are moves, a resignation
    is not (None), as `Rules.moves_played` counts them. "Move 3" is the third move played."""
    numbers: list[int | None] = []
    count = 0
    for notation in notations:
        if notation == RESIGN:
            numbers.append(None)
        else:
            count += 1
            numbers.append(count)
    return numbers


def replay_state(rules: Rules[S, M], start: S, log: Iterable[tuple[Seat, str]]) -> S:
    """The position at the end of a move log (see `replay`)."""
    state = start
    for step in replay(rules, start, log):
        state = step.after
    return state
