"""The Ruleset seam: what every game package provides, and the types they share.

design.md §2. This module is pure: no Flask, no database, no clock, no randomness. Every game
lives in ``companion/rules/<game>/`` and registers one object satisfying :class:`Ruleset`.
Messages (:mod:`.messages`) and field declarations (:mod:`.fields`) live in rooms of their own
and are re-exported here, so a game imports everything it shares from this one module.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, Callable, Mapping, Protocol, Sequence, runtime_checkable

from .fields import (BoolField, ChoiceField, Field, IntField, ListField, ObjectField,  # noqa: F401
                     TextField, _Checker, _join, _placeholder, _plain, check_document,
                     field_label, join_path, plain)
from .messages import (COUNTED, N_, SEAT_LABEL, Counted, FieldLabel,  # noqa: F401
                       InvalidDocument, Joined, Listing, N_plural, RuleViolation, Term, render_param)
from .story import Moment  # noqa: F401

# --------------------------------------------------------------------------------------------
# Scoresheet
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Category:
    """One scoring line: ``points`` for ``key`` in ``stage`` (epoch or round; None = game).

    ``reason`` names comparative awards and special rules (``most``, ``fewest``,
    ``all_equal``, ``floor_at_zero``…); ``detail`` holds the counts that produced the points.
    """

    key: str
    points: int
    stage: int | None = None
    reason: str | None = None
    detail: Mapping[str, Any] = field(default_factory=dict)

    def as_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"category": self.key, "points": self.points}
        if self.stage is not None:
            out["stage"] = self.stage
        if self.reason:
            out["reason"] = self.reason
        if self.detail:
            out["detail"] = dict(self.detail)
        return out


@dataclass(frozen=True)
class TieBreak:
    """The tie-break that separated this player from others on the same total."""

    rule: str          # stable id, e.g. "ra.highest_sun"
    value: Any         # this player's value for it (e.g. 12)

    def as_dict(self) -> dict[str, Any]:
        return {"rule": self.rule, "value": self.value}


@dataclass(frozen=True)
class Goal:
    """What a player had to reach when the game is played against its own goal rather than
    against rivals (a solo mode): the result is won or lost, not a rank among players.

    ``key`` is a stable id, ``label`` a msgid naming the goal, ``target`` the points it stands
    for when the goal is (also) a score, else None."""

    key: str
    label: str
    reached: bool
    target: int | None = None

    def as_dict(self) -> dict[str, Any]:
        return {"key": self.key, "label": self.label, "reached": self.reached,
                "target": self.target}


@dataclass(frozen=True)
class PlayerScore:
    """One line of a Scoresheet. Lines come in seat order; an opponent the app plays (a
    solo game's automated rival, not a seat) comes after the seats with ``automated`` set,
    and never enters a ladder. A player scored against the game's ``goal`` (solo) has rank 1
    when it was reached, else a lower one; pages show won or lost instead of the rank."""

    name: str
    categories: tuple[Category, ...]
    total: int
    rank: int
    tiebreak: TieBreak | None = None
    stage_totals: tuple[int, ...] = ()   # running total after each stage, for charts
    automated: bool = False
    goal: Goal | None = None

    def as_dict(self) -> dict[str, Any]:
        breakdown: dict[str, Any] = {
            "categories": [c.as_dict() for c in self.categories],
            "stage_totals": list(self.stage_totals),
        }
        if self.tiebreak:
            breakdown["tiebreak"] = self.tiebreak.as_dict()
        if self.goal:
            breakdown["goal"] = self.goal.as_dict()
        out = {"name": self.name, "total": self.total, "rank": self.rank, "breakdown": breakdown}
        if self.automated:
            out["automated"] = True
        return out


@dataclass(frozen=True)
class Assumption:
    """A printed value this result relied on that nobody confirmed for this copy: the
    edition value's key, its label (msgid) and the default that was used."""

    key: str
    label: str
    value: Any

    def as_dict(self) -> dict[str, Any]:
        return {"key": self.key, "label": self.label, "value": self.value}


@dataclass(frozen=True)
class Scoresheet:
    """The exact result of a game: per player categories, totals, ranks; players in seat order.

    ``assumed`` lists the edition values (design.md §2, "our copy") the result relied on
    with an unconfirmed default; every score sheet shows them."""

    game: str
    players: tuple[PlayerScore, ...]
    complete: bool = True     # False for a game scored part-way (e.g. Ra after epoch 1)
    assumed: tuple[Assumption, ...] = ()

    @property
    def winners(self) -> list[str]:
        """Names at rank 1 (for an unfinished game: the leaders so far)."""
        return [p.name for p in self.players if p.rank == 1]

    def as_dict(self) -> dict[str, Any]:
        out = {"game": self.game, "complete": self.complete,
               "players": [p.as_dict() for p in self.players], "winners": self.winners}
        if self.assumed:
            out["assumed"] = [a.as_dict() for a in self.assumed]
        return out


def competition_ranks(keys: Sequence[tuple[Any, ...]]) -> list[int]:
    """Standard competition ranks ("1224") for sort keys where higher is better."""
    return [1 + sum(1 for other in keys if other > key) for key in keys]


# --------------------------------------------------------------------------------------------
# The seam (design.md §2): what every game declares, and the registry that finds the games
# --------------------------------------------------------------------------------------------


class Capability(StrEnum):
    """What a game offers; shared code asks the capability, never the game's name."""

    SCORE = "score"        # score-only mode: final-state document, score_final, the form
    LIVE = "live"          # a live table refereed move by move
    PRINT = "print"        # printouts (the game's pdfgen module registers them)


@dataclass(frozen=True)
class Catalogue:
    """Identity and catalogue data: what menus, imports and exports need to know."""

    names: Mapping[str, str]                    # language code (en, cs, hu) -> the game's name
    player_counts: tuple[int, ...]              # score-only mode (and print)
    live_player_counts: tuple[int, ...] = ()    # live tables (empty without LIVE)
    capabilities: frozenset[Capability] = frozenset({Capability.SCORE})
    bgg_id: int | None = None                   # BoardGameGeek id (None: not verified)
    bgg_source: str = ""                        # where the id was checked, or why not
    aliases: tuple[str, ...] = ()               # other names, matched case-insensitively on import
    default_players: int = 4
    order: int = 100                            # place in menus and lists (lower first)

    def name(self, lang: str = "en") -> str:
        return self.names.get(lang) or self.names["en"]


@dataclass(frozen=True)
class Labels:
    """Translatable words (msgids) for what a Scoresheet holds, and for stages."""

    categories: Mapping[str, str] = field(default_factory=dict)   # category key -> label
    reasons: Mapping[str, str] = field(default_factory=dict)      # reason key -> label
    tiebreaks: Mapping[str, str] = field(default_factory=dict)    # tie-break rule -> label
    stage: str = N_("Round %(stage)d")                            # a stage's heading


@dataclass(frozen=True)
class ScoreForm:
    """How the score-only form lays out the final-state document (design.md §2).

    With ``stage_key`` set, each player's list under that key is one stage (epoch, round),
    shown stage by stage with buttons to add or remove one; without it the form is one page."""

    stage_key: str | None = None
    stages: int = 1                               # stages of a full game
    add_stage_label: str = N_("Add a round")
    remove_stage_label: str = N_("Remove the last round")
    stage_hint: str = N_("Empty boxes count as 0.")
    final_label: str = N_("At the end of the game")
    final_hint: str = ""
    # Other final-state documents the game scores (a sibling game): (value, label msgid)
    # pairs, the first being the game itself. The form offers them as a choice, renders
    # ``Ruleset.form_schema(value)`` for the one chosen and puts ``"variant": value`` into the
    # document it sends (the saved game keeps it). Empty: one document, no choice.
    variants: tuple[tuple[str, str], ...] = ()
    variant_label: str = N_("Which game")          # what the choice of variant asks
    # The variant a form starts with for a player count, where it is not the first one (a
    # variant left at its default follows the count when players are added or removed).
    variant_for_players: Mapping[int, str] = field(default_factory=dict)


@dataclass(frozen=True)
class EditionValue:
    """A printed value of the game that is the group's data ("our copy", design.md §2):
    no public source gives it, or the one we have is unverified. ``default`` None with
    ``required`` True means the players must enter it before it is used."""

    key: str                      # key in the edition document
    label: str                    # msgid
    field: Field                  # how it is entered and validated (its key is ``key``)
    default: Any = None
    status: str = "unverified"    # "unverified": a default nobody confirmed; "unknown": a
                                  # placeholder; "verified": printed and confirmed, but a copy
                                  # may differ (never reported as an assumption)
    source: str = ""              # where the default comes from (spec section, URL)
    required: bool = False        # True: no default can stand in; the players enter it
    hint: str | None = None       # msgid shown under the input
    check: Callable[[Any, str], Any] | None = None
    # ``check(value, path)``: the game's own validation, used instead of the field's when
    # given (the field then only lays out the form); returns the clean value or raises
    # RuleViolation naming ``path`` (for what a schema cannot say, e.g. "2" or "card").

    @property
    def assumed(self) -> bool:
        """Whether relying on the default must be shown on the score sheet."""
        return self.status != "verified"


@dataclass(frozen=True)
class Edition:
    """The edition values in force for one table or document: the group's entries over the
    defaults; ``defaults`` names the values still at an unconfirmed default, ``missing`` the
    required ones nobody entered."""

    values: Mapping[str, Any]
    defaults: tuple[str, ...] = ()
    missing: tuple[str, ...] = ()


def edition_schema(values: Sequence[EditionValue]) -> ObjectField:
    """The object schema that validates an edition document (every entry optional)."""
    return ObjectField("edition", N_("Our copy"), tuple(v.field for v in values))


def resolve_edition(values: Sequence[EditionValue], given: Mapping[str, Any] | None,
                    field_prefix: str = "edition") -> Edition:
    """Check ``given`` (a group's or a document's edition entries) and fill in the defaults.

    Raises InvalidDocument naming ``<field_prefix>.<key>`` for a wrong entry, or
    ``<field_prefix>`` when the entries are not an object."""
    if given is not None and not isinstance(given, Mapping):
        raise InvalidDocument([RuleViolation(
            "schema.not_object", N_("This must be an object with named entries."),
            field_prefix)])
    given = dict(given or {})
    known = {v.key: v for v in values}
    violations: list[RuleViolation] = []
    for key in given:
        if key not in known:
            violations.append(RuleViolation("schema.unknown_key", N_("Unknown entry “%(key)s”."),
                                            _join(field_prefix, key), key=str(key)))
    resolved: dict[str, Any] = {}
    defaults: list[str] = []
    missing: list[str] = []
    for key, spec in known.items():
        path = _join(field_prefix, key)
        if given.get(key) is not None and spec.check is not None:
            try:
                resolved[key] = spec.check(_plain(given[key]), path)
            except RuleViolation as violation:
                violations.append(violation)
        elif given.get(key) is not None:
            checker = _Checker()
            resolved[key] = checker.check(spec.field, _plain(given[key]), path)
            violations.extend(checker.violations)
        elif spec.required and spec.default is None:
            missing.append(key)
        else:
            resolved[key] = _plain(spec.default)
            if spec.assumed:
                defaults.append(key)
    if violations:
        raise InvalidDocument(violations)
    return Edition(resolved, tuple(defaults), tuple(missing))


@dataclass(frozen=True)
class Awaiting:
    """Whose input the game waits for (design.md §2).

    ``seats`` may hold several seats. ``step`` names a simultaneous step: while two states
    share the same non-None ``step``, the moves of the awaited seats commute (each one's
    legality depends only on that seat's part), so a move made on an older version of the step
    may be re-checked on the fresh state instead of being refused as stale. Sequential games
    leave it None."""

    seats: frozenset[int] = frozenset()
    step: str | None = None

    @classmethod
    def one(cls, seat: int | None) -> "Awaiting":
        return cls(frozenset() if seat is None else frozenset({seat}))


@dataclass(frozen=True)
class Chance:
    """A physical outcome the game waits for (a tile from the bag, cards from the deck).

    The move that enters it is ``move`` plus ``{key: outcome}`` — or, with ``draws`` > 1,
    ``{key: [outcome, ...]}`` of ``draws`` outcomes drawn without replacement. ``outcomes``
    pairs every outcome still possible (plain JSON values) with how many copies are left
    (all counts > 0). ``seats`` may enter it; the app may also draw it for a table that plays
    without the physical draw."""

    move: Mapping[str, Any]
    key: str
    outcomes: tuple[tuple[Any, int], ...]
    seats: frozenset[int]
    draws: int = 1

    def as_move(self, outcome: Any) -> dict[str, Any]:
        return {**self.move, self.key: outcome}

    def draw(self, rng: Any) -> dict[str, Any]:
        """A move entering outcomes drawn with ``rng`` (a ``random.Random``), as the physical
        draw would: weighted by copies left, without replacement."""
        pool = [outcome for outcome, count in self.outcomes for _ in range(count)]
        if self.draws == 1:
            return self.as_move(rng.choice(pool))
        picks = rng.sample(range(len(pool)), min(self.draws, len(pool)))
        return self.as_move([pool[i] for i in picks])


State = dict[str, Any]


@runtime_checkable
class Ruleset(Protocol):
    """What every game registers (design.md §2); the reference for adding a game.

    Shared code (services, views, templates, pdfgen) uses these members and nothing else;
    a game's own templates and pdfgen module may use more of its package. Games subclass
    :class:`GameRules`, which provides the defaults marked "default" below.

    States are plain JSON data; ``apply`` never mutates its input. Physical randomness is input
    (design.md §2). Every refusal is a RuleViolation with a stable code.
    """

    # ---- identity and catalogue ------------------------------------------------------------
    id: str                                   # stable game id; also the package name
    catalogue: Catalogue
    labels: Labels

    # ---- options: variants and table flags, declared once (defaults filled by base) ----------
    options: tuple[Field, ...]

    # ---- "our copy": printed values that are the group's data (default: none) ---------------
    edition: tuple[EditionValue, ...]

    # ---- score-only mode -------------------------------------------------------------------
    final_schema: ObjectField
    score_form: ScoreForm

    def form_sizes(self, players: int, stages: int) -> Mapping[str, int]:
        """How many entries each list of the final-state form shows (``players.*.epochs``)."""
        ...

    def score_final(self, document: Mapping[str, Any]) -> Scoresheet:
        """Validate an end-of-game tally and score it; raise InvalidDocument when wrong. A
        document may carry ``edition`` entries when the game has edition values."""
        ...

    def form_schema(self, variant: str | None, players: int | None = None) -> ObjectField:
        """The schema the phone form is built from and read back with for ``variant`` (one of
        ``score_form.variants``, or None) and ``players`` (None: any count; a solo game may ask
        about its rival): may hold optional inputs the document schema checks by hand
        (default: ``final_schema``)."""
        ...

    def form_document(self, document: Mapping[str, Any]) -> Mapping[str, Any]:
        """A saved final-state document as the form lays it out, to correct it: with its
        ``variant`` (one of ``score_form.variants``) and in the shape of
        ``form_schema(variant)``, so every value entered comes back (default: as it is)."""
        ...

    # ---- live tables -----------------------------------------------------------------------
    def setup_schema(self, players: int) -> ObjectField:
        """The physical start the table enters when opening (dealt suns, colours, start
        seat, dealt cards…), rendered as the open-table form."""
        ...

    def default_setup(self, players: int) -> dict[str, Any]:
        """A set-up document that satisfies ``setup_schema`` (the form's starting values)."""
        ...

    def setup(self, options: Mapping[str, Any], names: Sequence[str],
              setup: Mapping[str, Any], edition: Edition) -> State:
        """A fresh game; raises RuleViolation (with ``field`` set) for an impossible set-up.
        ``options`` are already normalised (:func:`normalise_options`)."""
        ...

    def move_rules(self) -> Sequence[Any]:
        """Every kind of move, declared once (:class:`.referee.MoveRule`: ``kind``,
        ``label``, ``args``, ``schema``, ``hint``), for the API's documents (default: the
        referee's)."""
        ...

    def apply(self, state: State, seat: int, move: Any) -> State:
        """Referee ``move`` by ``seat`` and return the new state, or raise RuleViolation
        (default: the referee's)."""
        ...

    def validate(self, state: State, seat: int, move: Any) -> None:
        """Raise RuleViolation if ``seat`` may not make ``move`` now (default: the
        referee's)."""
        ...

    def awaiting(self, state: State) -> Awaiting:
        """The seats whose input is due (empty once the game is over; default: the
        referee's ``awaited``)."""
        ...

    def prompts(self, state: State, seat: int) -> dict[str, Any]:
        """What this phone may do now: ``{"moves": [kinds], ...choices}`` for its template
        (default: the referee's ``prompts`` for an awaited seat, else no moves)."""
        ...

    def legal_moves(self, state: State, seat: int) -> list[dict[str, Any]]:
        """Concrete legal moves for ``seat`` (a representative subset where the full list is
        huge); never empty while ``seat`` is awaited, empty when it is not. Random play-outs
        use it (default: the referee's)."""
        ...

    def chance(self, state: State) -> Chance | None:
        """The physical outcome awaited now with what is still possible (default: None)."""
        ...

    def view(self, state: State, seat: int | None, options: Mapping[str, Any]) -> dict[str, Any]:
        """What one phone may see (hidden information removed; default: everything)."""
        ...

    def seat_colours(self, setup: Mapping[str, Any]) -> list[str | None]:
        """Each seat's colour name from the set-up, for pads and cards (default: none)."""
        ...

    def undo_floor(self, state: State) -> int:
        """How many of the moves in effect can no longer be taken back: a correction window
        the rules close (e.g. once the next player has played a card). The table keeps the
        highest floor it has seen, so undoing never reopens a closed window (default: 0)."""
        ...

    def scores_visible(self, state: State, options: Mapping[str, Any]) -> bool:
        """Whether the running Scoresheet may be shown during play (default: True)."""
        ...

    def is_over(self, state: State) -> bool:
        """Whether the game has ended (default: the referee's ``over``)."""
        ...

    def edition_in_use(self, options: Mapping[str, Any], players: int) -> set[str]:
        """The edition values (keys of ``edition``) a table with these normalised options and
        this player count relies on; only those are listed as "still at their defaults"
        (default: every key)."""
        ...

    def score(self, state: State) -> Scoresheet:
        """The Scoresheet of the game so far (``complete`` once it is over)."""
        ...

    def final_document(self, state: State) -> dict[str, Any]:
        """The score-only document describing this game (what score_final would score)."""
        ...

    def chapter(self, state: State) -> int | None:
        """The round, epoch or turn ``state`` belongs to, counted as the game counts (named
        with ``labels.stage``), for the story's score chart (default: None, one point per
        move; :mod:`.story`)."""
        ...

    def moments(self, before: State, after: State, seat: int,
                move: Mapping[str, Any]) -> Sequence[Moment]:
        """What ``move`` by ``seat`` did that players will remember (:class:`.story.Moment`
        lines), from the states before and after it (default: nothing)."""
        ...

    out_of_turn_codes: frozenset[str]         # refusals answered 403 (default: not_your_turn)
    ui: Any                                   # what only the game's own templates read (its
                                              # ``ui`` module); shared code never looks in it


class GameRules:
    """Defaults for the optional members of :class:`Ruleset`; games subclass it.

    A live game declares its :class:`.referee.Referee` as ``referee`` and gets ``apply``,
    ``validate``, ``awaiting``, ``is_over``, ``prompts``, ``legal_moves`` and ``move_rules``
    from it, forwarding nothing by hand. A game without LIVE (score-only) has no referee and
    keeps the live members below, which refuse politely."""

    id: str = ""
    catalogue: Catalogue
    labels: Labels = Labels()
    options: tuple[Field, ...] = ()
    edition: tuple[EditionValue, ...] = ()
    final_schema: ObjectField
    score_form: ScoreForm = ScoreForm()
    referee: Any = None                  # the game's Referee (rules/referee.py), if it is live
    ui: Any = None                       # the game's ui module: template-only words and helpers
    story: Any = None                    # the game's story module: chapter() and moments()

    @property
    def out_of_turn_codes(self) -> frozenset[str]:
        return frozenset({f"{self.id}.not_your_turn"})

    def form_sizes(self, players: int, stages: int) -> Mapping[str, int]:
        return {"players": players}

    def form_schema(self, variant: str | None, players: int | None = None) -> ObjectField:
        return self.final_schema

    def form_document(self, document: Mapping[str, Any]) -> Mapping[str, Any]:
        return document

    def edition_in_use(self, options: Mapping[str, Any], players: int) -> set[str]:
        return {value.key for value in self.edition}

    def score_final(self, document: Mapping[str, Any]) -> Scoresheet:
        raise _not_offered(self, Capability.SCORE)

    def setup_schema(self, players: int) -> ObjectField:
        return ObjectField("setup", N_("Set-up"), ())

    def default_setup(self, players: int) -> dict[str, Any]:
        return {}

    def setup(self, options, names, setup, edition) -> State:
        raise _not_offered(self, Capability.LIVE)

    def move_rules(self) -> Sequence[Any]:
        return tuple(self.referee.rules.values()) if self.referee is not None else ()

    def chapter(self, state: State) -> int | None:
        return self.story.chapter(state) if self.story is not None else None

    def moments(self, before: State, after: State, seat: int,
                move: Mapping[str, Any]) -> Sequence[Moment]:
        return self.story.moments(before, after, seat, move) if self.story is not None else ()

    def apply(self, state: State, seat: int, move: Any) -> State:
        if self.referee is None:
            raise _not_offered(self, Capability.LIVE)
        return self.referee.apply(state, seat, move)

    def validate(self, state: State, seat: int, move: Any) -> None:
        if self.referee is None:
            raise _not_offered(self, Capability.LIVE)
        self.referee.validate(state, seat, move)

    def awaiting(self, state: State) -> Awaiting:
        return self.referee.awaited(state) if self.referee is not None else Awaiting()

    def prompts(self, state: State, seat: int) -> dict[str, Any]:
        if self.referee is None:
            return {"moves": []}
        return self.referee.prompts_for(state, seat)

    def legal_moves(self, state: State, seat: int) -> list[dict[str, Any]]:
        return self.referee.legal_moves_for(state, seat) if self.referee is not None else []

    def chance(self, state: State) -> Chance | None:
        return None

    def view(self, state: State, seat: int | None, options: Mapping[str, Any]) -> dict[str, Any]:
        return dict(state)

    def scores_visible(self, state: State, options: Mapping[str, Any]) -> bool:
        return True

    def seat_colours(self, setup: Mapping[str, Any]) -> list[str | None]:
        return []

    def undo_floor(self, state: State) -> int:
        return 0

    def is_over(self, state: State) -> bool:
        return self.referee.over(state) if self.referee is not None else False

    def score(self, state: State) -> Scoresheet:
        raise _not_offered(self, Capability.LIVE)

    def final_document(self, state: State) -> dict[str, Any]:
        raise _not_offered(self, Capability.LIVE)


def _not_offered(ruleset: Any, capability: Capability) -> RuleViolation:
    return RuleViolation("game.not_offered", N_("This game does not offer %(what)s."),
                         what=Term(CAPABILITY_LABELS[capability]))


CAPABILITY_LABELS: Mapping[Capability, str] = {
    Capability.SCORE: N_("scoring from an end-of-game tally"),
    Capability.LIVE: N_("live tables"),
    Capability.PRINT: N_("printouts"),
}


def normalise_options(ruleset: Ruleset, options: Any,
                      field_prefix: str = "options") -> dict[str, Any]:
    """The table's options: every declared option with its default, each given one checked
    against its declaration; unknown entries are refused. Raises InvalidDocument."""
    if options is None:
        options = {}
    schema = ObjectField(field_prefix, N_("Options"), tuple(ruleset.options))
    checker = _Checker()
    clean = checker.check_object(schema, options, field_prefix)
    if checker.violations:
        raise InvalidDocument(checker.violations)
    return clean


# --------------------------------------------------------------------------------------------
# The registry: games are discovered (every package under companion/rules registers itself)
# --------------------------------------------------------------------------------------------

_REGISTRY: dict[str, Ruleset] = {}


def register(ruleset: Ruleset) -> Ruleset:
    """Add a game to the registry (one object per game id); it must satisfy the protocol."""
    if not isinstance(ruleset, Ruleset):
        missing = [name for name in _PROTOCOL_MEMBERS if not hasattr(ruleset, name)]
        raise TypeError(f"{ruleset!r} does not satisfy Ruleset (missing: {missing})")
    if ruleset.id in _REGISTRY and _REGISTRY[ruleset.id] is not ruleset:
        raise ValueError(f"game {ruleset.id!r} registered twice")
    _REGISTRY[ruleset.id] = ruleset
    return ruleset


def unregister(game_id: str) -> None:
    """Remove a game (tests register toy games and take them away again)."""
    _REGISTRY.pop(game_id, None)


def get_ruleset(game_id: str) -> Ruleset:
    """The registered ruleset for ``game_id``; KeyError when unknown."""
    return _REGISTRY[game_id]


def all_rulesets(capability: Capability | None = None) -> list[Ruleset]:
    """Every registered game (with ``capability`` if given), in the catalogue's order."""
    return sorted((r for r in _REGISTRY.values()
                   if capability is None or capability in r.catalogue.capabilities),
                  key=lambda r: (r.catalogue.order, r.id))


def offers(ruleset: Ruleset, capability: Capability) -> bool:
    return capability in ruleset.catalogue.capabilities


_PROTOCOL_MEMBERS = tuple(sorted(
    name for name in (set(Ruleset.__annotations__) | {
        n for n, v in vars(Ruleset).items() if callable(v) and not n.startswith("_")})
    if not name.startswith("_")))
