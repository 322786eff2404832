"""The shared referee skeleton every engine is written on (design.md §2, issue 11).

A game describes its moves as a table — kind → the phases it fits, its arguments (declared
with the fields of :mod:`.fields`, labels included), what it checks, how it changes the
state — and :class:`Referee` runs the checks every game shares, in one order and with one set
of codes:

0. ``<game>.bad_seat``     the seat is not a whole number (a caller's mistake; field ``seat``);
1. ``<game>.game_over``    the game is over (every move gets this answer first);
2. ``<game>.bad_move``     the move is not an object with a known ``type`` and arguments that
                           fit their declaration (``<game>.unknown_move`` for a type the game
                           lacks); the refusal names the argument in the player's words;
3. ``<game>.not_your_turn`` the seat is not awaited (a game may word it its own way, e.g.
                           ``ra.not_bidders_turn``, through ``Referee.not_awaited``);
4. ``<game>.wrong_phase``  the move does not fit the phase the game is in;
5. the move's own ``check``.

The state is plain JSON data and is never mutated: :class:`Draft` copies the containers a
move changes, on first write. Choices that belong to other seats (a market pick, a crumble
choice) wait in a :class:`PendingQueue` kept in the state.

Pure: no I/O, no clock, no randomness.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Iterable, Mapping, Sequence

from .base import (Awaiting, Field, FieldLabel, N_, ObjectField, RuleViolation, State, Term,
                   check_document, field_label)

Args = Mapping[str, Any]
Check = Callable[[State, int, Args], None]
Change = Callable[["Draft", int, Args], None]


class Draft:
    """A new state under construction: a shallow copy of the old one whose nested
    containers are copied the first time a move writes to them (copy-on-write), so
    everything still shared with the old state stays untouched.

    ``d["phase"] = "turn"`` replaces a top-level value; ``d.own("holdings", seat)["gold"] += 1``
    changes a nested one; ``d.state`` is the result.
    """

    __slots__ = ("state", "_owned")

    def __init__(self, state: Mapping[str, Any]):
        self.state: State = dict(state)
        self._owned: set[tuple[Any, ...]] = set()

    def __getitem__(self, key: str) -> Any:
        return self.state[key]

    def __setitem__(self, key: str, value: Any) -> None:
        self.state[key] = value
        if (key,) in self._owned:       # a new value: nothing under it is a copy of ours now
            self._owned = {path for path in self._owned if path[0] != key}

    def __contains__(self, key: str) -> bool:
        return key in self.state

    def get(self, key: str, default: Any = None) -> Any:
        return self.state.get(key, default)

    def own(self, *path: Any) -> Any:
        """The container at ``path``, copied once along the way, ready to be changed."""
        node: Any = self.state
        walked: tuple[Any, ...] = ()
        for key in path:
            walked += (key,)
            child = node[key]
            if walked not in self._owned:
                child = child.copy()
                node[key] = child
                self._owned.add(walked)
            node = child
        return node

    def add(self, path: Sequence[Any], amount: int) -> None:
        """Add ``amount`` to the number at ``path`` (``("score", 2)``)."""
        *parents, last = path
        self.own(*parents)[last] += amount


class PendingQueue:
    """Steps waiting for a seat's choice, first in first out, kept in ``state[key]`` as a
    list of ``{"seat": n, "kind": ..., ...}``. The head is what the game awaits."""

    def __init__(self, key: str = "pending"):
        self.key = key

    def head(self, state: Mapping[str, Any]) -> Mapping[str, Any] | None:
        queue = state.get(self.key) or ()
        return queue[0] if queue else None

    def push(self, draft: Draft, seat: int, kind: str, **data: Any) -> None:
        draft[self.key] = list(draft.get(self.key) or ()) + [{"seat": seat, "kind": kind,
                                                               **data}]

    def push_front(self, draft: Draft, seat: int, kind: str, **data: Any) -> None:
        draft[self.key] = [{"seat": seat, "kind": kind, **data}] + list(draft.get(self.key)
                                                                        or ())

    def pop(self, draft: Draft) -> Mapping[str, Any]:
        queue = list(draft.get(self.key) or ())
        first = queue.pop(0)
        draft[self.key] = queue
        return first

    def awaiting(self, state: Mapping[str, Any]) -> Awaiting | None:
        head = self.head(state)
        return None if head is None else Awaiting.one(head["seat"])


class BadArgument(Exception):
    """Raised by a move's check (or change) when argument ``path`` (dotted, as in
    ``gods.0.a``) is missing or wrong in a way its declaration cannot say; the referee refuses
    the move as ``<game>.bad_move`` naming the argument in the player's words
    (:meth:`Referee.bad_argument`), so a move family needs no reference to the finished
    referee table."""

    def __init__(self, path: str, problem: str = N_("This is required.")):
        super().__init__(path)
        self.path = path
        self.problem = problem


@dataclass(frozen=True)
class MoveRule:
    """One kind of move, declared once: the phases it fits, its arguments, check and change.

    ``args`` declares the move's arguments with the fields of :mod:`.fields` (labels
    included): the referee parses a move against them (a clean copy with defaults filled in,
    or ``<game>.bad_move`` naming the argument in the player's words), and the OpenAPI
    document and the ``/api`` pages describe the move from them. ``check`` raises
    RuleViolation when the move breaks a rule in this state; ``change`` writes the move into
    a Draft. ``phases`` None means every phase. ``label`` words the move in messages (a
    Term). ``hint`` is a msgid describing the move in the ``/api`` pages."""

    kind: str
    label: Term
    phases: frozenset[str] | None = None
    check: Check | None = None
    change: Change | None = None
    args: tuple[Field, ...] = ()
    hint: str | None = None

    @property
    def schema(self) -> ObjectField:
        """The declaration of the move's arguments as one object (its ``type`` aside)."""
        return _schema(self)


_SCHEMAS: dict[int, tuple[MoveRule, ObjectField]] = {}


def _schema(rule: MoveRule) -> ObjectField:
    entry = _SCHEMAS.get(id(rule))
    if entry is None or entry[0] is not rule:
        entry = _SCHEMAS[id(rule)] = (rule, ObjectField("move", rule.label, tuple(rule.args)))
    return entry[1]


class Referee:
    """Runs a game's move table: the shared opening checks, then the move's own.

    ``phase_of(state)`` names the phase, ``awaited(state)`` says whose input is due (an
    :class:`Awaiting`; empty once the game is over), ``over(state)`` ends the game;
    ``after(draft)`` runs after every change (automatic steps such as an epoch's scoring);
    ``phase_labels`` word each phase in the wrong-phase message.

    ``prompts(state, seat)`` and ``legal_moves(state, seat)`` are asked only for an awaited
    seat (:meth:`prompts_for`, :meth:`legal_moves_for` answer the others: no moves, plus
    what ``watching(state, seat)`` shows a phone that waits); :class:`.base.GameRules`
    derives the seam's live members from this one object.
    """

    def __init__(self, game: str, rules: Iterable[MoveRule], *,
                 phase_of: Callable[[Mapping[str, Any]], str],
                 awaited: Callable[[Mapping[str, Any]], Awaiting],
                 over: Callable[[Mapping[str, Any]], bool],
                 phase_labels: Mapping[str, Term],
                 after: Callable[[Draft], None] | None = None,
                 not_awaited: Callable[[Mapping[str, Any], int, MoveRule], RuleViolation | None]
                 | None = None,
                 prompts: Callable[[Mapping[str, Any], int], dict[str, Any]] | None = None,
                 legal_moves: Callable[[Mapping[str, Any], int], list[dict[str, Any]]]
                 | None = None,
                 watching: Callable[[Mapping[str, Any], int], dict[str, Any]] | None = None):
        self.game = game
        self.rules: dict[str, MoveRule] = {rule.kind: rule for rule in rules}
        self.phase_of = phase_of
        self.awaited = awaited
        self.over = over
        self.phase_labels = phase_labels
        self.after = after
        self.not_awaited = not_awaited
        self.prompts = prompts
        self.legal_moves = legal_moves
        self.watching = watching

    # ---- the shared codes ------------------------------------------------------------------

    def bad_argument(self, kind: str, path: str,
                     problem: str = N_("This is required.")) -> RuleViolation:
        """Argument ``path`` (dotted, as in ``gods.0.a``) of a ``kind`` move is missing or
        wrong in a way its declaration cannot say (e.g. needed only in one area): refused
        with the argument's labels, as :meth:`parse` refuses (a move family raises
        :class:`BadArgument` instead)."""
        return self._malformed(kind, RuleViolation("schema.invalid", problem, f"move.{path}"))

    def _without_type(self, problem: str) -> RuleViolation:
        """A move that is not an object, or names no kind of move."""
        where = FieldLabel([(N_("Kind of move"), None)])
        violation = RuleViolation(f"{self.game}.bad_move", N_("%(where)s: %(problem)s"),
                                  "move.type", where=where,
                                  problem=RuleViolation("schema.invalid", problem, "move.type"))
        violation.label = where
        return violation

    def _malformed(self, kind: str, problem: RuleViolation) -> RuleViolation:
        where = problem.label
        if where is None:
            where = field_label(self.rules[kind].schema, problem.field, "move")
        violation = RuleViolation(f"{self.game}.bad_move", N_("%(where)s: %(problem)s"),
                                  problem.field, where=where, problem=problem)
        violation.label = where
        return violation

    def game_over(self) -> RuleViolation:
        return RuleViolation(f"{self.game}.game_over",
                             N_("The game is over; no more moves can be made."))

    def not_your_turn(self, state: Mapping[str, Any], seat: int) -> RuleViolation:
        waiting = sorted(self.awaited(state).seats)
        names = state.get("names") or []
        who = ", ".join(str(names[s]) if s < len(names) else str(s + 1) for s in waiting)
        return RuleViolation(f"{self.game}.not_your_turn",
                             N_("It is not your turn: %(player)s is to act."), player=who)

    # ---- refereeing ------------------------------------------------------------------------

    def parse(self, move: Any) -> tuple[MoveRule, Args]:
        """The move's rule and arguments, checked for shape only."""
        if type(move) is not dict and not isinstance(move, Mapping):   # dict: the usual case
            raise self._without_type(N_("A move is an object with named entries."))
        kind = move.get("type")
        if not isinstance(kind, str):
            raise self._without_type(N_("This is required."))
        rule = self.rules.get(kind)
        if rule is None:
            raise RuleViolation(f"{self.game}.unknown_move",
                                N_("“%(type)s” is not a move in this game."), "move.type",
                                type=kind[:40])
        if not rule.args:
            return rule, {}
        args, problems = check_document(rule.schema, move, open_root=True, prefix="move")
        if problems:
            raise self._malformed(kind, problems[0])
        return rule, args

    def check(self, state: Mapping[str, Any], seat: int, move: Any) -> tuple[MoveRule, Args]:
        """Every check, in the shared order; returns the rule and arguments."""
        if isinstance(seat, bool) or not isinstance(seat, int):
            raise RuleViolation(f"{self.game}.bad_seat", N_("A seat is a whole number."),
                                "seat")
        if self.over(state):
            raise self.game_over()
        rule, args = self.parse(move)
        if seat not in self.awaited(state).seats:
            special = self.not_awaited(state, seat, rule) if self.not_awaited else None
            raise special or self.not_your_turn(state, seat)
        phase = self.phase_of(state)
        if rule.phases is not None and phase not in rule.phases:
            raise RuleViolation(f"{self.game}.wrong_phase",
                                N_("You cannot %(move)s now: the game is waiting for "
                                   "%(waiting)s."),
                                move=rule.label, waiting=self.phase_labels.get(phase, Term(phase)))
        if rule.check:
            try:
                rule.check(state, seat, args)
            except BadArgument as bad:
                raise self.bad_argument(rule.kind, bad.path, bad.problem) from None
        return rule, args

    def prompts_for(self, state: Mapping[str, Any], seat: int) -> dict[str, Any]:
        """What ``seat``'s phone may do now: the game's prompts when it is awaited, else no
        moves and what the game shows a waiting phone."""
        if seat not in self.awaited(state).seats or self.prompts is None:
            shown = self.watching(state, seat) if self.watching else {}
            return {**shown, "moves": []}
        return self.prompts(state, seat)

    def legal_moves_for(self, state: Mapping[str, Any], seat: int) -> list[dict[str, Any]]:
        """Concrete legal moves for ``seat``: none unless it is awaited."""
        if seat not in self.awaited(state).seats or self.legal_moves is None:
            return []
        return self.legal_moves(state, seat)

    def validate(self, state: Mapping[str, Any], seat: int, move: Any) -> None:
        """Raise RuleViolation if ``seat`` may not make ``move``; change nothing. The move is
        written on a copy-on-write draft that is dropped, so ``validate`` refuses exactly what
        :meth:`apply` refuses, a rule a move's change checks included."""
        self.apply(state, seat, move)

    def apply(self, state: Mapping[str, Any], seat: int, move: Any) -> State:
        """Check ``move`` and return the new state; ``state`` itself is never changed."""
        rule, args = self.check(state, seat, move)
        draft = Draft(state)
        if rule.change:
            try:
                rule.change(draft, seat, args)
            except BadArgument as bad:
                raise self.bad_argument(rule.kind, bad.path, bad.problem) from None
        if self.after:
            self.after(draft)
        return draft.state


# --------------------------------------------------------------------------------------------
# Small helpers shared by the move tables
# --------------------------------------------------------------------------------------------


def is_int(value: Any) -> bool:
    """A whole number that is not a boolean."""
    return isinstance(value, int) and not isinstance(value, bool)
