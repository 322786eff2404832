"""Pharaon's edition values: the printed values of spec §9.1 nobody could read ("our copy").

Spec shared/rules/pharaon.md §9.1 U2-U4, U6, U7, U9-U13: each unknown printed value is one
:class:`EditionValue` with its default (printed.py), status and source, overridable by the
group. Values with no possible default are ``required`` (the gods' halves, U6: scoring waits
until they are entered, on the set-up form, here, or at the end of a live game).

Statuses: "unverified" for a reasoned default (Scribe pairs, the areas of nobles 7-10, the
court officials' icon, the bank, the 4+ spot, the tomb track, the pyramid rows); "unknown" for
a placeholder that only keeps the app usable (the Nile actions' confirm mode, the jar, artisan
and Traitor tile catalogues). Each check returns the clean JSON value or raises RuleViolation
naming the dotted path of the wrong entry (``edition.scribes.2.pair``).
"""

from __future__ import annotations

from typing import Any, Callable, Mapping

from ..base import (BoolField, ChoiceField, EditionValue, IntField, ListField, N_, ObjectField,
                    RuleViolation, Term, TextField)
from . import printed as t


def _plain(value: Any) -> Any:
    """Tuples and mapping proxies as lists and dicts, recursively (JSON data)."""
    if isinstance(value, Mapping):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, (tuple, list)):
        return [_plain(v) for v in value]
    return value


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _bad(path: str, expected: str) -> RuleViolation:
    return RuleViolation("pharaon.bad_edition_value",
                         N_("This value of your copy is not valid: %(expected)s."), path,
                         expected=Term(expected))


def _list(value: Any, path: str, expected: str, least: int, most: int) -> list[Any]:
    if not isinstance(value, list) or not least <= len(value) <= most:
        raise _bad(path, expected)
    return value


def _choice(value: Any, allowed: tuple, path: str, expected: str) -> Any:
    if isinstance(value, bool) or value not in allowed:
        raise _bad(path, expected)
    return value


def _int(value: Any, path: str, expected: str, low: int, high: int,
         optional: bool = False) -> int | None:
    if value is None and optional:
        return None
    if not _is_int(value) or not low <= value <= high:
        raise _bad(path, expected)
    return value


def _object(value: Any, path: str, expected: str, keys: tuple[str, ...]) -> Mapping[str, Any]:
    if not isinstance(value, Mapping) or not set(value) <= set(keys):
        raise _bad(path, expected)
    return value


# --------------------------------------------------------------------------------------------
# Checks, one per value
# --------------------------------------------------------------------------------------------

_SCRIBES = N_("5 Scribes, each a pair of two different basic colours and an area")


def check_scribes(value: Any, path: str) -> list[dict[str, Any]]:
    clean = []
    for i, entry in enumerate(_list(value, path, _SCRIBES, 5, 5)):
        entry = _object(entry, f"{path}.{i}", _SCRIBES, ("pair", "area"))
        pair = _list(entry.get("pair"), f"{path}.{i}.pair", _SCRIBES, 2, 2)
        for j, kind in enumerate(pair):
            _choice(kind, t.BASIC, f"{path}.{i}.pair.{j}", _SCRIBES)
        if pair[0] == pair[1]:
            raise _bad(f"{path}.{i}.pair", _SCRIBES)
        area = _choice(entry.get("area"), t.AREAS, f"{path}.{i}.area", _SCRIBES)
        clean.append({"pair": list(pair), "area": area})
    return clean


_ENTRY_AREAS = N_("the area of each noble 7 to 10")


def check_entry_noble_areas(value: Any, path: str) -> dict[str, str]:
    keys = tuple(str(n) for n in t.ENTRY_NOBLES)
    value = _object(value, path, _ENTRY_AREAS, keys)
    clean = dict(t.ENTRY_NOBLE_AREAS_DEFAULT)
    for key, area in value.items():
        clean[key] = _choice(area, t.AREAS, f"{path}.{key}", _ENTRY_AREAS)
    return clean


_ICONS = N_("the resource (a basic colour or silver) gained with nobles 21, 23 and 25")


def check_court_icons(value: Any, path: str) -> dict[str, str]:
    keys = tuple(str(n) for n in t.ICON_OFFICIALS)
    value = _object(value, path, _ICONS, keys)
    clean = dict(t.COURT_ICONS_DEFAULT)
    for key, kind in value.items():
        clean[key] = _choice(kind, t.KINDS, f"{path}.{key}", _ICONS)
    return clean


_WHEEL = N_("the 5 basic colours of the wheel's segments, clockwise, each once")


def check_wheel_colours(value: Any, path: str) -> list[str]:
    value = _list(value, path, _WHEEL, 5, 5)
    for i, kind in enumerate(value):
        _choice(kind, t.BASIC, f"{path}.{i}", _WHEEL)
    if len(set(value)) != 5:
        raise _bad(path, _WHEEL)
    return list(value)


_NILE = N_("5 Nile actions, each a cost of 1 to 4 basic colours, gains, a jar or not, and "
           "arrows (two colours of the cost, or any)")
ARROW_ANY = "any"


def arrow_choices() -> tuple[str, ...]:
    """How an arrow is written: "any", or the two track colours it may move ("RED/BLU")."""
    pairs = [f"{a}/{b}" for i, a in enumerate(t.BASIC) for b in t.BASIC[i + 1:]]
    return (ARROW_ANY,) + tuple(t.BASIC) + tuple(pairs)


def _arrow(value: Any, path: str) -> str:
    """An arrow in its written form, the two colours in the order of printed.BASIC."""
    if isinstance(value, str) and "/" in value:
        parts = value.split("/")
        if len(parts) == 2 and parts[0] != parts[1] and all(p in t.BASIC for p in parts):
            return "/".join(sorted(parts, key=t.BASIC.index))
    return _choice(value, arrow_choices(), path, _NILE)


def arrow_tracks(arrow: str) -> tuple[str, ...]:
    """The tracks an arrow may move (spec §4.3 NIL)."""
    return t.BASIC if arrow == ARROW_ANY else tuple(arrow.split("/"))


def check_nile_actions(value: Any, path: str) -> list[dict[str, Any]]:
    clean = []
    for i, action in enumerate(_list(value, path, _NILE, t.NILE_ACTIONS, t.NILE_ACTIONS)):
        here = f"{path}.{i}"
        action = _object(action, here, _NILE, ("cost", "gains", "jar", "arrows"))
        cost = _list(action.get("cost"), f"{here}.cost", _NILE, 1, 4)
        for j, kind in enumerate(cost):
            _choice(kind, t.BASIC, f"{here}.cost.{j}", _NILE)
        gains = _object(action.get("gains", {}), f"{here}.gains", _NILE, t.KINDS)
        clean_gains = {}
        for kind, n in gains.items():
            n = _int(n, f"{here}.gains.{kind}", _NILE, 0, 4)
            if n:
                clean_gains[kind] = n
        jar = action.get("jar", False)
        if not isinstance(jar, bool):
            raise _bad(f"{here}.jar", _NILE)
        arrows = _list(action.get("arrows", []), f"{here}.arrows", _NILE, 0, 4)
        clean_arrows = []
        for j, arrow in enumerate(arrows):
            clean_arrows.append(_arrow(arrow, f"{here}.arrows.{j}"))
        clean.append({"cost": list(cost), "gains": clean_gains, "jar": jar,
                      "arrows": clean_arrows})
    return clean


_TOMB = N_("1 to 30 tomb spaces, each a cost of 2 to 4 basic colours (or blank) and its "
           "points (or blank)")


def check_tomb_track(value: Any, path: str) -> list[dict[str, Any]]:
    clean = []
    low, high = t.TOMB_COST_UNITS
    for i, space in enumerate(_list(value, path, _TOMB, 1, 30)):
        here = f"{path}.{i}"
        space = _object(space, here, _TOMB, ("cost", "points"))
        cost = space.get("cost")
        if cost is not None:
            cost = _list(cost, f"{here}.cost", _TOMB, low, high)
            for j, kind in enumerate(cost):
                _choice(kind, t.BASIC, f"{here}.cost.{j}", _TOMB)
            cost = list(cost)
        points = _int(space.get("points"), f"{here}.points", _TOMB, 0, 200, optional=True)
        clean.append({"cost": cost, "points": points})
    return clean


_PYRAMID = N_("4 rows of 1 to 9 spaces, each a reward (first-player token, basic, silver, "
              "offering) or blank")


def check_pyramid_rows(value: Any, path: str) -> list[list[str | None]]:
    clean = []
    for r, row in enumerate(_list(value, path, _PYRAMID, t.PYRAMID_ROWS, t.PYRAMID_ROWS)):
        spaces = []
        for s, reward in enumerate(_list(row, f"{path}.{r}", _PYRAMID, 1, 9)):
            if reward in (None, ""):
                spaces.append(None)
            else:
                spaces.append(_choice(reward, t.REWARDS, f"{path}.{r}.{s}", _PYRAMID))
        clean.append(spaces)
    return clean


_GODS = N_("for each area, the god halves on its clockwise (cw) and counter-clockwise (ccw) "
           "edge: a threshold and points")


def check_god_halves(value: Any, path: str) -> dict[str, dict[str, dict[str, int]]]:
    value = _object(value, path, _GODS, t.AREAS)
    if set(value) != set(t.AREAS):
        raise _bad(path, _GODS)
    clean: dict[str, dict[str, dict[str, int]]] = {}
    for area in t.AREAS:
        edges = _object(value[area], f"{path}.{area}", _GODS, t.GOD_SIDES)
        clean[area] = {}
        for side in t.GOD_SIDES:
            half = _object(edges.get(side), f"{path}.{area}.{side}", _GODS,
                           ("threshold", "points"))
            clean[area][side] = {
                "threshold": _int(half.get("threshold"), f"{path}.{area}.{side}.threshold",
                                  _GODS, 0, 30),
                "points": _int(half.get("points"), f"{path}.{area}.{side}.points", _GODS,
                               0, 50)}
    return clean


_JARS = N_("30 jars, each 3 resources: top left, top right, bottom")


def check_jar(value: Any, path: str) -> list[str]:
    jar = _list(value, path, _JARS, 3, 3)
    for j, kind in enumerate(jar):
        _choice(kind, t.KINDS, f"{path}.{j}", _JARS)
    return list(jar)


def check_jar_tiles(value: Any, path: str) -> list[list[str]]:
    return [check_jar(jar, f"{path}.{i}")
            for i, jar in enumerate(_list(value, path, _JARS, t.JAR_TILES, t.JAR_TILES))]


_ARTISANS = N_("30 artisans, each its points, the resources it gives and whether it shows a "
               "jar")


def check_artisan(value: Any, path: str) -> dict[str, Any]:
    card = _object(value, path, _ARTISANS, ("points", "gains", "jar"))
    points = _int(card.get("points"), f"{path}.points", _ARTISANS, 0, 20)
    gains = _object(card.get("gains", {}), f"{path}.gains", _ARTISANS, t.KINDS)
    clean_gains = {}
    for kind in t.KINDS:
        if kind in gains:
            n = _int(gains[kind], f"{path}.gains.{kind}", _ARTISANS, 0, 5)
            if n:
                clean_gains[kind] = n
    jar = card.get("jar", False)
    if not isinstance(jar, bool):
        raise _bad(f"{path}.jar", _ARTISANS)
    return {"points": points, "gains": clean_gains, "jar": jar}


def check_artisan_cards(value: Any, path: str) -> list[dict[str, Any]]:
    return [check_artisan(card, f"{path}.{i}") for i, card in
            enumerate(_list(value, path, _ARTISANS, t.ARTISAN_CARDS, t.ARTISAN_CARDS))]


_TILES = N_("5 Traitor tiles, each side its jars (1 to 9) and its column from the setup "
            "space up: blank or a symbol (tomb, god:AREA:cw, take_noble:n, noble_mult:k, "
            "discard_noble:n, take_artisan, take_artisan_2, discard_artisan, pair:n, bonus:n, "
            "nile_most, nile_least)")


def parse_symbol(symbol: str) -> tuple[str, Any] | None:
    """(symbol, argument) of a column symbol string, or None when it is not one."""
    parts = symbol.split(":")
    try:
        kind = t.Symbol(parts[0])
    except ValueError:
        return None
    if kind == t.Symbol.GOD:
        if len(parts) == 3 and parts[1] in t.AREAS and parts[2] in t.GOD_SIDES:
            return kind.value, (parts[1], parts[2])
        return None
    numbered = {t.Symbol.TAKE_NOBLE: (1, t.NOBLE_DISPLAY),
                t.Symbol.DISCARD_NOBLE: (1, t.NOBLE_DISPLAY),
                t.Symbol.NOBLE_MULTIPLIER: (1, 30),
                t.Symbol.OFFERING_PAIR: (1, max(t.OFFERING_PAIRS.values())),
                t.Symbol.BONUS_OFFERING: (1, max(t.OFFERING_PAIRS.values()))}
    if kind in numbered:
        low, high = numbered[kind]
        if len(parts) == 2 and parts[1].isdigit() and low <= int(parts[1]) <= high:
            return kind.value, int(parts[1])
        return None
    return (kind.value, None) if len(parts) == 1 else None


def check_traitor_tiles(value: Any, path: str) -> list[dict[str, Any]]:
    clean = []
    for i, tile in enumerate(_list(value, path, _TILES, t.TRAITOR_TILES, t.TRAITOR_TILES)):
        tile = _object(tile, f"{path}.{i}", _TILES, t.SIDES)
        sides = {}
        for side in t.SIDES:
            here = f"{path}.{i}.{side}"
            face = _object(tile.get(side), here, _TILES, ("jars", "column"))
            jars = _int(face.get("jars"), f"{here}.jars", _TILES, 1, 9)
            column = []
            for s, symbol in enumerate(_list(face.get("column"), f"{here}.column", _TILES,
                                             2, 20)):
                if symbol in (None, ""):
                    column.append(None)
                elif not isinstance(symbol, str) or parse_symbol(symbol) is None:
                    raise _bad(f"{here}.column.{s}", _TILES)
                else:
                    column.append(symbol)
            sides[side] = {"jars": jars, "column": column}
        clean.append(sides)
    return clean


# --------------------------------------------------------------------------------------------
# The declarations (fields lay out the "our copy" form; the checks above validate)
# --------------------------------------------------------------------------------------------

_KIND_CHOICES = tuple((k, str(t.KIND_LABELS[k])) for k in t.KINDS)
_BASIC_CHOICES = _KIND_CHOICES[:5]
_AREA_CHOICES = tuple((a, str(t.AREA_LABELS[a])) for a in t.AREAS)
_HALF = (IntField("threshold", N_("Threshold"), max=30, default=None),
         IntField("points", N_("Points"), max=50, default=None))
# A jar and an artisan card as printed (the edition's catalogues; what a draw enters).
JAR = ListField("jar", N_("Jar"), ChoiceField("kind", N_("Resource"), _KIND_CHOICES), 3, 3,
                item_label=N_("Resource %(n)d"))
ARTISAN = ObjectField("card", N_("Artisan"), (
    IntField("points", N_("Points"), max=20, default=None),
    ObjectField("gains", N_("Gains"), tuple(IntField(k, label, max=5)
                                            for k, label in _KIND_CHOICES)),
    BoolField("jar", N_("A jar"))))


def _value(key: str, label: str, field: Any, default: Any, status: str, source: str,
           check: Callable[[Any, str], Any], required: bool = False,
           hint: str | None = None) -> EditionValue:
    return EditionValue(key, label, field, default=_plain(default), status=status,
                        source=source, required=required, hint=hint, check=check)


EDITION: tuple[EditionValue, ...] = (
    _value("god_halves", N_("Gods: the two halves on each area's edges"),
           ObjectField("god_halves", N_("Gods"), tuple(
               ObjectField(area, label, (ObjectField("cw", N_("Clockwise edge"), _HALF),
                                         ObjectField("ccw", N_("Counter-clockwise edge"),
                                                     _HALF)))
               for area, label in _AREA_CHOICES)),
           None, "unknown", "spec pharaon.md §9.1 U6: printed only on the board segments",
           check_god_halves, required=True,
           hint=N_("Without them the gods are entered on the set-up form or after round 5.")),
    _value("scribes", N_("Scribes 1-5: the two colours and the area of each"),
           ListField("scribes", N_("Scribes"), ObjectField("scribe", N_("Scribe"), (
               ListField("pair", N_("Colours"), ChoiceField("kind", N_("Colour"),
                                                            _BASIC_CHOICES), 2, 2),
               ChoiceField("area", N_("Area"), _AREA_CHOICES))), 5, 5,
               item_label=N_("Scribe %(n)d")),
           t.SCRIBES_DEFAULT, "unverified",
           "spec §4.6, §9.1 U11 (icons lost; the only fragment is green↔black)",
           check_scribes),
    _value("entry_noble_areas", N_("Nobles 7-10: the area of each"),
           ObjectField("entry_noble_areas", N_("Areas"), tuple(
               ChoiceField(str(n), str(t.NOBLES[n].name), _AREA_CHOICES)
               for n in t.ENTRY_NOBLES)),
           t.ENTRY_NOBLE_AREAS_DEFAULT, "unverified", "spec §4.6, §9.1 U11 (icons lost)",
           check_entry_noble_areas),
    _value("court_icons", N_("Nobles 21, 23, 25: the resource gained"),
           ObjectField("court_icons", N_("Resource"), tuple(
               ChoiceField(str(n), label, _KIND_CHOICES)
               for n, label in ((21, N_("Noble 21")), (23, N_("Noble 23")),
                                (25, N_("Noble 25"))))),
           t.COURT_ICONS_DEFAULT, "unverified", "spec §4.6, §9.1 U11: default silver",
           check_court_icons),
    _value("bank_size", N_("Resource tokens of each kind in the box"),
           IntField("bank_size", N_("Tokens per kind"), max=40, default=t.BANK_SIZE_DEFAULT),
           t.BANK_SIZE_DEFAULT, "unverified", "spec §9.1 U13; JUSTNERD: 20 of each",
           lambda value, path: _int(value, path, N_("a number from 1 to 40"), 1, 40)),
    _value("wheel_colours", N_("Wheel: the segments' colours, clockwise"),
           ListField("wheel_colours", N_("Colours"), ChoiceField("kind", N_("Colour"),
                                                                 _BASIC_CHOICES), 5, 5),
           None, "unknown", "spec §9.1 U2: when entered, each set-up is checked against it",
           check_wheel_colours),
    _value("four_plus_spot", N_("Wheel: the position of the 4+ spot on a segment"),
           IntField("four_plus_spot", N_("Position from the left"), max=4,
                    default=t.FOUR_PLUS_SPOT_DEFAULT),
           t.FOUR_PLUS_SPOT_DEFAULT, "unverified", "spec §9.1 U2: the 4th (only counts matter)",
           lambda value, path: _int(value, path, N_("a position from 1 to 4"), 1, 4)),
    _value("nile_actions", N_("Nile: the five actions"),
           ListField("nile_actions", N_("Actions"), ObjectField("action", N_("Action"), (
               ListField("cost", N_("Cost"), ChoiceField("kind", N_("Colour"),
                                                         _BASIC_CHOICES), 1, 4),
               ObjectField("gains", N_("Gains"), tuple(
                   IntField(k, label, max=4) for k, label in _KIND_CHOICES)),
               BoolField("jar", N_("A jar")),
               ListField("arrows", N_("Arrows"), ChoiceField("arrow", N_("Arrow"),
                                                             arrow_choices()), 0, 4))),
               5, 5, item_label=N_("Action %(n)d")),
           None, "unknown",
           "spec §9.1 U3: only action 4 is partly known; until entered the Nile runs in "
           "confirm mode (the player declares cost, gains and moves)", check_nile_actions),
    _value("tomb_track", N_("Tomb track: cost and points of each space"),
           ListField("tomb_track", N_("Spaces"), ObjectField("space", N_("Space"), (
               ListField("cost", N_("Cost"), ChoiceField("kind", N_("Colour"),
                                                         _BASIC_CHOICES), 2, 4),
               IntField("points", N_("Points"), max=200, default=None))),
               1, 30, item_label=N_("Space %(n)d")),
           t.TOMB_TRACK_DEFAULT, "unverified",
           "spec §9.1 U4: first space 5 and last 60 per DUDEX/CAMPUSTECH; 10 spaces and blank "
           "costs are our placeholder (costs declared when paid, points entered when missing)",
           check_tomb_track),
    _value("pyramid_rows", N_("Pyramid of Time: the reward of each space"),
           ListField("pyramid_rows", N_("Rows"), ListField("row", N_("Row"), ChoiceField(
               "reward", N_("Reward"), (("", "–"),) + tuple(
                   (r, str(t.REWARD_LABELS[r])) for r in t.REWARDS)), 1, 9,
               item_label=N_("Space %(n)d")), 4, 4, item_label=N_("Row %(n)d")),
           t.PYRAMID_DEFAULT, "unverified",
           "spec §4.5, §9.1 U7: row 1 derived (basic, first-player token, silver); lengths "
           "and the other spaces blank (the player picks the reward)", check_pyramid_rows),
    _value("jar_tiles", N_("The 30 jars"),
           ListField("jar_tiles", N_("Jars"), JAR, 30, 30, item_label=N_("Jar %(n)d")),
           t.JARS_PLACEHOLDER, "unknown",
           "spec §9.1 U9: not printed in any source; a placeholder for draws by the app. "
           "Jars entered at the table are checked against it only once your copy is entered",
           check_jar_tiles),
    _value("artisan_cards", N_("The 30 artisans"),
           ListField("artisan_cards", N_("Artisans"), ARTISAN, 30, 30,
                     item_label=N_("Artisan %(n)d")),
           t.ARTISANS_PLACEHOLDER, "unknown",
           "spec §9.1 U10: not printed in any source; a placeholder for draws by the app. "
           "Artisans entered at the table are checked against it only once your copy is "
           "entered", check_artisan_cards),
    _value("traitor_tiles", N_("The 5 Traitor tiles, both sides"),
           ListField("traitor_tiles", N_("Tiles"), ObjectField("tile", N_("Tile"), tuple(
               ObjectField(side, label, (
                   IntField("jars", N_("Jars"), max=9, default=None),
                   ListField("column", N_("Column, from the setup space up"),
                             TextField("space", N_("Symbol"), max_length=20, required=False),
                             2, 20, item_label=N_("Space %(n)d"))))
               for side, label in (("light", N_("Light side")), ("dark", N_("Dark side"))))),
               5, 5, item_label=N_("Tile %(n)d")),
           t.TRAITOR_TILES_PLACEHOLDER, "unknown",
           "spec §7.1, §9.1 U12: not printed in any source; a placeholder with every symbol "
           "of §7.3 so a solo game can be played until your copy is entered",
           check_traitor_tiles),
)

# What only the scoring relies on (reported as the Scoresheet's ``assumed``).
SCORING_KEYS: tuple[str, ...] = ("scribes",)
