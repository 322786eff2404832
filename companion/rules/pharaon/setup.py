"""Set-up (spec shared/rules/pharaon.md §3): a fresh game, and the starting picks.

§3.1 the player-count table, §3.2 the board, the wheel, the first player and the gods (or
later), the physical start as chance inputs (jars, offerings, nobles, artisans: see
:mod:`.draws`), step 8's starting picks in counter-clockwise order (move ``start_pick``);
§3.3 two players; §3.4 solo, the Traitor's tiles from the set-up form or drawn as the first
moves.
"""

from __future__ import annotations

from typing import Any, Mapping, Sequence

from ..base import ChoiceField, Edition, IntField, N_, RuleViolation, Term
from ..referee import Draft, MoveRule, is_int
from . import printed as t
from .gains import acquire_noble
from .rounds import run
from .state import (GAME, OPTION_DEFAULTS, DrawTo, MoveKind, Phase, Stage, Step, gain,
                    pending_head, pop_head, violation)


def _refuse_setup(code: str, message: str, field: str, **params: Any) -> RuleViolation:
    return RuleViolation(code, message, field, **params)


def _rules_from_edition(edition: Edition) -> tuple[dict[str, Any], list[str]]:
    """The printed values this table plays with, and those at an unconfirmed default."""
    values = dict(edition.values)
    rules = {key: values.get(key) for key in
             ("scribes", "entry_noble_areas", "court_icons", "bank_size", "wheel_colours",
              "four_plus_spot", "nile_actions", "tomb_track", "pyramid_rows", "jar_tiles",
              "artisan_cards", "traitor_tiles", "god_halves")}
    rules["jars_checked"] = "jar_tiles" not in edition.defaults
    rules["artisans_checked"] = "artisan_cards" not in edition.defaults
    assumed = [key for key in edition.defaults if values.get(key) is not None]
    return rules, assumed


def _gods_from(setup: Mapping[str, Any], rules: Mapping[str, Any], areas: Sequence[str]
               ) -> list[dict[str, Any]] | None:
    """The gods of this board: entered at set-up, or built from the group's god halves
    (god g: the clockwise half of areas[g] and the counter-clockwise half of areas[g+1])."""
    entered = [g for g in setup.get("gods") or () if not _blank_god(g)]
    if entered:
        return [{"name": g.get("name") or f"{n + 1}", "a": dict(g["a"]), "b": dict(g["b"])}
                for n, g in enumerate(setup["gods"])]
    halves = rules.get("god_halves")
    if not halves:
        return None
    return [{"name": f"{areas[g]}–{areas[(g + 1) % 5]}",
             "a": dict(halves[areas[g]]["cw"]), "b": dict(halves[areas[(g + 1) % 5]]["ccw"])}
            for g in range(5)]


def _blank_god(god: Mapping[str, Any]) -> bool:
    """A god of the open-table form left blank: both halves at 0 threshold and 0 points (no
    printed god is worth nothing); its name alone does not enter it."""
    return all(god.get(half, {}).get(key, 0) == 0 for half in ("a", "b")
               for key in ("threshold", "points"))


def _new_player() -> dict[str, Any]:
    return {"res": {k: 0 for k in t.KINDS}, "off": {k: 0 for k in t.OFFERING_KINDS},
            "nobles": [], "used": [], "artisans": [], "nile": [0] * 5, "tomb": 0,
            "passed": False, "row": None, "space": 0, "done": False, "start_noble": None}


def _check_setup(seats: int, setup: Mapping[str, Any], rules: Mapping[str, Any],
                 options: Mapping[str, Any]) -> None:
    areas = setup.get("areas")
    if (not isinstance(areas, list) or len(areas) != 5 or sorted(areas) != sorted(t.AREAS)):
        raise _refuse_setup("pharaon.bad_areas", N_("List the five areas clockwise, each "
                                                    "once."), "areas")
    colours = setup.get("entry_colours")
    if (not isinstance(colours, list) or len(colours) != 5
            or sorted(colours) != sorted(t.BASIC)):
        raise _refuse_setup("pharaon.bad_entry_colours",
                            N_("Give the wheel colour facing each area: the five colours, "
                               "each once."), "entry_colours")
    wheel = rules.get("wheel_colours")
    if wheel:
        # the facing colours read clockwise must be the wheel's order turned (U2)
        rotations = [wheel[i:] + wheel[:i] for i in range(5)]
        if list(colours) not in rotations:
            raise _refuse_setup("pharaon.wheel_order",
                                N_("These colours do not follow your copy's wheel order."),
                                "entry_colours")
    if setup.get("direction", "cw") not in ("cw", "ccw"):
        raise _refuse_setup("pharaon.bad_direction", N_("The wheel turns cw or ccw."),
                            "direction")
    first = setup.get("first_player", 0)
    if not is_int(first) or not 0 <= first < seats:
        raise _refuse_setup("pharaon.bad_first_player",
                            N_("The first player must be one of the %(count)d seats."),
                            "first_player", count=seats)
    if seats == 1 and not isinstance(setup.get("traitor_draw", False), bool):
        raise _refuse_setup("pharaon.bad_traitor_draw",
                            N_("Say whether the app draws the Traitor's tiles."), "traitor_draw")
    if seats == 1 and not setup.get("traitor_draw"):
        check_traitor_layout(setup.get("traitor_order"), setup.get("traitor_colours"),
                             "traitor_order", "traitor_colours")
    if seats == 1:
        sides = _traitor_sides(setup)
        if sides is not None:
            if not isinstance(sides, list) or len(sides) != 5 or any(
                    s not in t.SIDES for s in sides):
                raise _refuse_setup("pharaon.bad_traitor_sides",
                                    N_("Each Traitor tile lies light or dark side up."),
                                    "traitor_sides")
            if sides.count("dark") != options["traitor_dark_tiles"]:
                raise _refuse_setup("pharaon.traitor_difficulty",
                                    N_("The difficulty asks for %(dark)d dark tiles."),
                                    "traitor_sides", dark=options["traitor_dark_tiles"])
    gods = setup.get("gods") or []
    blank = [_blank_god(g) for g in gods]
    if any(blank) and not all(blank):
        raise _refuse_setup("pharaon.gods_incomplete",
                            N_("Enter all five gods, or none: they can be entered after "
                               "round 5."), f"gods.{blank.index(True)}")
    beginners = setup.get("beginner_scribes")
    if beginners is not None and (not isinstance(beginners, list) or len(beginners) != seats):
        raise _refuse_setup("pharaon.bad_beginners",
                            N_("Say for each seat whether it starts with a Scribe."),
                            "beginner_scribes")


def _traitor_sides(setup: Mapping[str, Any]) -> Any:
    """The sides entered at set-up, or None when none was (the form's blank choice for every
    tile): then the difficulty's dark tiles are the rightmost."""
    sides = setup.get("traitor_sides")
    if isinstance(sides, list) and all(side == "" for side in sides):
        return None
    return sides


def check_traitor_layout(order: Any, colours: Any, order_field: str | None,
                         colours_field: str | None) -> None:
    """§3.4: the five tiles in an order (1 to 5, each once) and one colour per column (the
    five basic colours, each once); ``None`` skips a part (it is drawn later)."""
    if order_field is not None:
        if (not isinstance(order, list) or len(order) != 5
                or sorted(order, key=str) != [1, 2, 3, 4, 5] or not all(map(is_int, order))):
            raise _refuse_setup("pharaon.bad_traitor_order",
                                N_("Lay the five Traitor tiles in an order: 1 to 5, each "
                                   "once."), order_field)
    if colours_field is not None:
        if (not isinstance(colours, list) or len(colours) != 5
                or sorted(colours, key=str) != sorted(t.BASIC)):
            raise _refuse_setup("pharaon.bad_traitor_colours",
                                N_("Each Traitor column takes one of the five colours."),
                                colours_field)


def setup(options: Mapping[str, Any], names: Sequence[str], setup_doc: Mapping[str, Any],
          edition: Edition) -> dict[str, Any]:
    """A fresh game (spec §3): the physical start follows as chance inputs and picks."""
    opts = {**OPTION_DEFAULTS, **{k: v for k, v in (options or {}).items()
                                  if k in OPTION_DEFAULTS}}
    seats = len(names)
    if seats not in t.PLAYER_COUNTS:
        raise RuleViolation("pharaon.bad_player_count",
                            N_("Pharaon is played by 1 to 5 players, not %(count)d."),
                            "players", count=seats)
    setup_doc = dict(setup_doc or {})
    rules, assumed = _rules_from_edition(edition)
    _check_setup(seats, setup_doc, rules, opts)
    areas = list(setup_doc["areas"])
    solo = seats == 1
    traitor_index = 1 if solo else None
    actor_names = [str(n) for n in names]
    if solo:
        actor_names.append(str(setup_doc.get("traitor_name") or t.TRAITOR_NAME))
    bank = {k: rules["bank_size"] for k in t.KINDS}
    first = setup_doc.get("first_player", 0)
    if solo and setup_doc.get("traitor_starts"):
        first = traitor_index           # the app gives the token to the starter [unverified]
    pairs = t.OFFERING_PAIRS[seats]
    state: dict[str, Any] = {
        "game": GAME,
        "names": [str(n) for n in names],
        "actors": actor_names,
        "seats": seats,
        "traitor": traitor_index,
        "options": opts,
        "rules": rules,
        # the defaults this table's refereeing relies on: not the jar and artisan
        # placeholders (what the table enters is not checked against them), not the Traitor's
        # tiles without a Traitor
        "assumed": sorted(k for k in assumed if k not in ("god_halves", "jar_tiles",
                                                          "artisan_cards")
                          and (solo or k != "traitor_tiles")),
        "board": {"areas": areas, "gods": _gods_from(setup_doc, rules, areas),
                  "direction": setup_doc.get("direction", "cw"),
                  "entry_colours": list(setup_doc["entry_colours"])},
        "beginners": list(setup_doc.get("beginner_scribes") or [False] * seats),
        "round": 1,
        "phase": Stage.START,
        "turn": first,
        "first_player": first,
        "pharaoh": None,
        "bank": bank,
        "stand_ins": {k: 0 for k in t.KINDS},
        "wheel": {c: [None] * t.SPOTS_PER_SEGMENT for c in t.BASIC},
        "bag": dict(t.OFFERING_BOX),
        "offer_discard": {k: 0 for k in t.OFFERING_KINDS},
        "pairs": [[] for _ in range(pairs)],
        "bonus": [None] * pairs,
        "noble_deck": list(t.NOBLE_NUMBERS),
        "noble_bottom": [],
        "noble_display": [None] * t.NOBLE_DISPLAY,
        "noble_discard": [],
        "start_rejected": [],
        "artisan_deck": t.ARTISAN_CARDS,
        "artisan_display": [None] * t.ARTISAN_DISPLAY,
        "artisan_discard": [],
        "artisans_seen": [],
        "jar_supply": t.JAR_TILES,
        "jar_display": [],
        "jar_discard": [],
        "players": [_new_player() for _ in actor_names],
        "traitor_board": None,
        "tomb_points": {},
        "pass_count": 0,
        "pending": [],
        "warnings": [],
        "traitor_log": [],
    }
    drawn: list[dict[str, Any]] = []
    if solo:
        sides = _traitor_sides(setup_doc)
        if sides is None:      # the difficulty's dark tiles are the rightmost (later rounds)
            dark = opts["traitor_dark_tiles"]
            sides = ["light"] * (5 - dark) + ["dark"] * dark
        state["traitor_board"] = {"tiles": None, "sides": list(sides), "colours": None,
                                  "stack": 0, "columns": [], "turns": 0}
        if setup_doc.get("traitor_draw"):
            # the tiles' order and the columns' colours are physical draws (§3.4 "in random
            # order"): chance inputs, entered or drawn by the app, before anything else
            drawn = [{"kind": Phase.DRAW_TRAITOR_TILES, "seat": 0, "count": t.TRAITOR_TILES},
                     {"kind": Phase.DRAW_TRAITOR_COLOURS, "seat": 0, "count": t.TRAITOR_TILES}]
        else:
            lay_traitor_tiles(state["traitor_board"], setup_doc["traitor_order"])
            colour_traitor_columns(state["traitor_board"], state["bank"],
                                   setup_doc["traitor_colours"])
    table = first if not solo or first == 0 else 0
    shown = t.JARS_SHOWN[seats]
    state["pending"] = drawn + [
        {"kind": Step.NEED_JARS, "seat": table, "count": shown, "to": DrawTo.DISPLAY},
        {"kind": Step.REFILL_OFFERINGS, "seat": table},
        {"kind": Phase.DRAW_NOBLES, "seat": table, "count": t.NOBLE_DISPLAY, "to": DrawTo.DISPLAY,
         "slots": list(range(t.NOBLE_DISPLAY))},
        {"kind": Phase.DRAW_ARTISANS, "seat": table, "count": t.ARTISAN_DISPLAY,
         "to": DrawTo.DISPLAY, "slots": list(range(t.ARTISAN_DISPLAY))},
        {"kind": Step.START_PICKS},
    ]
    d = Draft(state)
    run(d)
    return d.state


def lay_traitor_tiles(board: dict[str, Any], order: Sequence[int]) -> None:
    """§3.4: the five tiles side by side, ``order`` naming the tile (1-5) at each position."""
    board["tiles"] = [n - 1 for n in order]


def colour_traitor_columns(board: dict[str, Any], bank: dict[str, int],
                           colours: Sequence[str]) -> None:
    """§3.4: one token of each basic kind from the bank on the lowest marked space of each
    column (left to right), fixing the columns' colours for the game."""
    board["colours"] = list(colours)
    board["columns"] = [[{"token": c, "stand_in": False}] for c in colours]
    for colour in colours:
        bank[colour] -= 1


def _check_start_pick(state: Mapping[str, Any], seat: int, args: Mapping[str, Any]) -> None:
    head = pending_head(state)
    if args["jar"] >= len(state["jar_display"]):
        raise violation("PH_E_JAR_SOURCE", N_("Take one of the face-up jars at the pyramid."),
                        "jar")
    if args["noble"] not in head["nobles"]:
        raise violation("pharaon.not_drawn", N_("Keep one of the nobles you drew."), "noble")


def _change_start_pick(d: Draft, seat: int, args: Mapping[str, Any]) -> None:
    head = pop_head(d)
    jar = d["jar_display"][args["jar"]]
    display = list(d["jar_display"])
    display.pop(args["jar"])
    d["jar_display"] = display
    d["jar_discard"] = list(d["jar_discard"]) + [jar]
    for kind in jar:                          # §3.2 step 8 a: gain, then discard
        gain(d, seat, kind)
    gain(d, seat, t.SILVER, d["options"]["starting_silver"])     # step 8 b (Q15)
    d.own("players", seat)["start_noble"] = args["noble"]       # step 8 c
    rejected = [n for n in head["nobles"] if n != args["noble"]]
    traitor = d["traitor"]
    if traitor is not None and rejected:
        # §3.4: the noble you rejected becomes the Traitor's starting noble
        d.own("players", traitor, "nobles").append(rejected[0])
        d.own("players", traitor)["start_noble"] = rejected[0]
        rejected = rejected[1:]
    d["start_rejected"] = list(d["start_rejected"]) + rejected
    # a starting Court Official's effect resolves like any acquisition [unverified]
    acquire_noble(d, seat, args["noble"])


# The move ``start_pick``, declared once: its arguments, its check and its change.
RULES = (
    MoveRule(MoveKind.START_PICK, Term(N_("take a starting jar and noble")),
             frozenset({Phase.START_PICK}),
             args=(IntField("jar", N_("Jar"), max=9, default=None),     # face-up, from 0
                   ChoiceField("noble", N_("Noble"), t.NOBLE_NUMBERS)),
             check=_check_start_pick, change=_change_start_pick),
)
