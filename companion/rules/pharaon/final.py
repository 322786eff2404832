"""Pharaon score-only mode: the final-state document, its validation, and its scoring.

The document (a contract, issue 14; spec §6.3) describes the table after round 5::

    {"game": "pharaon",
     "board": {"areas": ["OFF", "NOB", "ART", "NIL", "TMB"],          # clockwise order
               "gods": [{"name": "Horus",                             # god g sits between
                         "a": {"threshold": 3, "points": 4},          # areas[g] (half a) and
                         "b": {"threshold": 2, "points": 6}}, ...]},  # areas[g+1] (half b)
     "players": [{"name": "Ana", "nobles": [12, 6, 15],
                  "scribes": [{"card": 3, "area": "TMB"}],
                  "artisans": [3, 3, 5], "nile": [3, 2, 1, 0, 0],
                  "tomb_steps": 4, "tomb_points": 12, "basic": 4, "silver": 1,
                  "offerings": {"resource": 1, "area": 1, "plus1": 0, "plus2": 1}}],
     "pharaoh": "Ana", "first_player": "Ana"}

Optional parts beyond the contract's names:

* ``traitor`` (solo, required with one player; spec §6.3 last row, §7.7): ``{"name":
  "Traitor", "nobles": [4, 17], "multiplier": 8 (null or 0: none), "gods": [god indices 0-4 whose
  column space is occupied], "artisans", "nile", "tomb_steps", "tomb_points", "basic",
  "silver", "offerings"}``. The holders may name him.
* ``options``: ``{"nile_top_cumulative": false}`` (Q1).
* ``edition``: the group's copy (edition.py); the Scribes' areas come from it for a Scribe
  owned without a ``scribes`` entry.

The phone form (``FORM_SCHEMA``; ``SOLO_FORM_SCHEMA`` for one player, with the Traitor) gives
``pharaoh`` and ``first_player`` as seat numbers, read as those players' names, or as
``"traitor"``, read as the Traitor's name; and the Traitor's ``gods`` as five booleans in board
order (ticked or not), read as the indices of those ticked. A blank god name is the god's number; blank tomb points with
steps taken come from the copy's tomb track where it prints that space (marked as relied on).

``nile`` lists the tracks in the order BLK, YEL, GRN, RED, BLU. The counts for the gods are
derived: offerings held (all classes), nobles owned, artisans owned, Nile tracks at level ≥ 1,
tomb steps.

Refused (422, each naming its field): a god half, a tomb value or an artisan value missing; a
noble number twice (across players and the Traitor) or outside 1-26; a Scribe entry for a card
that is not 1-5, not owned, or listed twice; Nile levels outside 0-3; negative counts; more
offerings of a class than the box holds (all players together); more than 30 artisans; areas
not a permutation of the five; a holder name that is not a player; 1-5 players; the Traitor
only in, and required for, a solo game.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any, Mapping, Sequence

from ..base import (Assumption, BoolField, ChoiceField, IntField, InvalidDocument, ListField,
                    N_, ObjectField, RuleViolation, Scoresheet, TextField, check_document,
                    resolve_edition)
from . import printed as t
from .edition import EDITION, SCORING_KEYS
from .scoring import Board, God, Half, PlayerTally, score_game

PLAYER_COUNTS = t.PLAYER_COUNTS
ARTISAN_FORM_SIZE = 10           # inputs offered by the phone form (the JSON API takes any)
NOBLE_FORM_SIZE = 8

_AREA_CHOICES = tuple((a, str(t.AREA_LABELS[a])) for a in t.AREAS)


def _half(key: str, label: str) -> ObjectField:
    return ObjectField(key, label, (
        IntField("threshold", N_("Threshold"), default=None),
        IntField("points", N_("Points"), default=None)), required=True)


GOD_SCHEMA = ObjectField("god", N_("God"), (
    TextField("name", N_("Name"), max_length=30, required=False),     # blank: its number
    _half("a", N_("Half on the area before it (clockwise)")),
    _half("b", N_("Half on the area after it")),
))

OFFERINGS_SCHEMA = ObjectField("offerings", N_("Offerings left"), (
    IntField("resource", N_("Resource offerings")),
    IntField("area", N_("Area offerings")),
    IntField("plus1", N_("+1 offerings")),
    IntField("plus2", N_("+2 offerings")),
))


def _holdings_fields() -> tuple:
    """What the players and the Traitor share."""
    return (
        ListField("nobles", N_("Noble cards (numbers 1-26)"),
                  IntField("card", N_("Card"), default=None), item_label=N_("Noble %(n)d")),
        ListField("artisans", N_("Artisans: printed points of each"),
                  IntField("points", N_("Points"), default=None),
                  item_label=N_("Artisan %(n)d")),
        ListField("nile", N_("Nile levels (black, yellow, green, red, blue)"),
                  IntField("level", N_("Level"), max=t.NILE_TOP), min_items=5, max_items=5,
                  required=True),
        IntField("tomb_steps", N_("Tomb steps reached")),
        IntField("tomb_points", N_("Points printed on that tomb space"), default=None),
        IntField("basic", N_("Basic resource tokens left")),
        IntField("silver", N_("Silver left")),
        OFFERINGS_SCHEMA,
    )


PLAYER_SCHEMA = ObjectField("player", N_("Player"), (
    TextField("name", N_("Name"), max_length=40),
    ListField("scribes", N_("Scribes owned: the area of each"),
              ObjectField("scribe", N_("Scribe"), (
                  IntField("card", N_("Card"), default=None),
                  ChoiceField("area", N_("Area"), _AREA_CHOICES))),
              item_label=N_("Scribe %(n)d")),
) + _holdings_fields())

TRAITOR_SCHEMA = ObjectField("traitor", N_("The Traitor"), (
    TextField("name", N_("Name"), max_length=40, required=False),
    IntField("multiplier", N_("Highest noble multiplier reached (blank or 0: none)"),
             default=0),
    ListField("gods", N_("Gods whose space on a column is occupied (0-4, board order)"),
              IntField("god", N_("God"), default=None), item_label=N_("God %(n)d")),
) + _holdings_fields())

FINAL_SCHEMA = ObjectField("", "", (
    TextField("game", N_("Game"), required=False),
    ObjectField("board", N_("Board"), (
        ListField("areas", N_("Areas, clockwise"), ChoiceField("area", N_("Area"), _AREA_CHOICES),
                  min_items=5, max_items=5, required=True, item_label=N_("Area %(n)d")),
        ListField("gods", N_("Gods, clockwise from the first area"), GOD_SCHEMA, min_items=5,
                  max_items=5, required=True, item_label=N_("God %(n)d")),
    ), required=True),
    ListField("players", N_("Players"), PLAYER_SCHEMA, min_items=1, required=True,
              item_label=N_("Player %(n)d")),
    TextField("pharaoh", N_("Holder of the Pharaoh token"), required=False),
    TextField("first_player", N_("Holder of the first-player token"), required=False),
    ObjectField("options", N_("Options"), (
        BoolField("nile_top_cumulative", N_("Nile level 3 scores 3 + 7"), default=False),)),
))


TRAITOR_HOLDER = "traitor"       # the phone form's choice of the Traitor as a token holder

# The Traitor on the phone form of a solo game (spec §6.3 last row, §7.7): his name starts as
# "Traitor" in the reader's language; the gods whose column space he occupied are five boxes
# to tick in board order (read back as their indices by :func:`_split`); a blank multiplier
# is none (6 per noble); everything else is entered as for a player, blanks counting 0.
TRAITOR_FORM = ObjectField("traitor", N_("The Traitor"), (
    TextField("name", N_("Name"), max_length=40, required=False, prefill=t.TRAITOR_NAME),
    IntField("multiplier", N_("Highest noble multiplier reached (blank: none, 6 per noble)"),
             default=None, optional=True),
    ListField("gods", N_("Gods whose space on his columns is occupied"),
              BoolField("god", N_("God")), min_items=5, max_items=5,
              item_label=N_("God %(n)d")),
) + _holdings_fields())


def _form_schema(solo: bool = False) -> ObjectField:
    """The phone form: FINAL_SCHEMA with the areas starting in the rulebook's order (SEED, the
    components: "Na každém segmentu je vyznačena jedna zóna: zóna obětin, … dvořanů, …
    řemeslníků, … Nilu, … hrobky"; the segments are joined at random, §3.2 step 1, so the
    table still sets its own) and the holders of the two tokens chosen among the players
    (seat numbers, read back as the players' names by :func:`_split`). ``solo``: the Traitor
    after the board (:data:`TRAITOR_FORM`), and he may hold either token (§7.7)."""
    board = FINAL_SCHEMA.fields[1]
    areas = replace(board.fields[0], default=t.AREAS)
    seats: tuple = tuple(range(max(PLAYER_COUNTS)))
    if solo:
        seats += ((TRAITOR_HOLDER, N_("the Traitor")),)
    fields = []
    for spec in FINAL_SCHEMA.fields:
        if spec.key == "board":
            spec = replace(board, fields=(areas,) + board.fields[1:])
        elif spec.key == "pharaoh":
            spec = ChoiceField("pharaoh", spec.label, (("", N_("nobody")),) + seats, default="",
                               seat_choice=True)
        elif spec.key == "first_player":
            spec = ChoiceField("first_player", spec.label, seats, default=0, seat_choice=True)
        fields.append(spec)
        if spec.key == "board" and solo:
            fields.append(TRAITOR_FORM)
    return replace(FINAL_SCHEMA, fields=tuple(fields))


def _split(document: Any) -> tuple[Any, Any, Any, bool]:
    """The document without ``traitor`` and ``edition`` (checked on their own), those two,
    and whether a Traitor was given."""
    if not isinstance(document, Mapping):
        return document, None, None, False
    rest = dict(document)
    traitor = _start_space(_ticked_gods(rest.pop("traitor", None)))
    edition = rest.pop("edition", None)
    if isinstance(rest.get("players"), list):
        rest["players"] = [_start_space(_without_form_blanks(player))
                           for player in rest["players"]]
        for key in ("pharaoh", "first_player"):
            rest[key] = _holder_name(rest.get(key), rest["players"], traitor)
    return rest, traitor, edition, traitor is not None


def _holder_name(holder: Any, players: list[Any], traitor: Any = None) -> Any:
    """A token holder the phone form gives as a seat number, as that player's name; its
    choice of the Traitor (``"traitor"``, unless a player has that name), as his name."""
    if type(holder) is int and 0 <= holder < len(players) and isinstance(
            players[holder], Mapping) and isinstance(players[holder].get("name"), str):
        return players[holder]["name"]
    if holder == TRAITOR_HOLDER and isinstance(traitor, Mapping) and not any(
            isinstance(p, Mapping) and isinstance(p.get("name"), str)
            and p["name"].casefold() == TRAITOR_HOLDER for p in players):
        name = traitor.get("name")
        return name.strip() if isinstance(name, str) and name.strip() else t.TRAITOR_NAME
    return holder


def _ticked_gods(traitor: Any) -> Any:
    """The phone form's five boxes of the Traitor's gods (true or false, in board order), as
    the indices of those ticked; any other ``gods`` is left as it is."""
    if not isinstance(traitor, Mapping):
        return traitor
    gods = traitor.get("gods")
    if isinstance(gods, list) and gods and all(type(g) is bool for g in gods):
        return {**traitor, "gods": [g for g, ticked in enumerate(gods) if ticked]}
    return traitor


def _without_form_blanks(holder: Any) -> Any:
    """The phone form's Scribe rows with no card are left out (their area select still sends
    its first area); the form reader already leaves out its empty number boxes."""
    if not isinstance(holder, Mapping):
        return holder
    holder = dict(holder)
    scribes = holder.get("scribes")
    if isinstance(scribes, list):
        holder["scribes"] = [entry for entry in scribes if not (
            isinstance(entry, Mapping) and entry.get("card") in (None, ""))]
    return holder


def _start_space(holder: Any) -> Any:
    """A holder still on the tomb's start space may leave its points blank: they are 0
    (spec §6.1, start space 0 [unverified]); with any step taken they are required."""
    if (isinstance(holder, Mapping) and holder.get("tomb_points") is None
            and holder.get("tomb_steps") in (0, None)):
        return {**holder, "tomb_points": 0}
    return holder


def _nobles(entries: Sequence[tuple[str, Sequence[int]]], found: list[RuleViolation]) -> None:
    seen: set[int] = set()
    for path, cards in entries:
        for j, card in enumerate(cards):
            here = f"{path}.{j}"
            if card not in t.NOBLES:
                found.append(RuleViolation("pharaon.noble_out_of_range",
                                           N_("Noble cards are numbered 1 to 26."), here,
                                           card=card))
            elif card in seen:
                found.append(RuleViolation("pharaon.noble_twice",
                                           N_("Noble %(card)d is listed twice; there is one "
                                              "card of each."), here, card=card))
            else:
                seen.add(card)


def _scribes(p: int, player: Mapping[str, Any], found: list[RuleViolation]) -> dict[int, str]:
    areas: dict[int, str] = {}
    for j, entry in enumerate(player.get("scribes") or ()):
        here = f"players.{p}.scribes.{j}.card"
        card = entry["card"]
        if card not in t.SCRIBES:
            found.append(RuleViolation("pharaon.not_a_scribe",
                                       N_("Only nobles 1 to 5 are Scribes."), here, card=card))
        elif card not in player["nobles"]:
            found.append(RuleViolation("pharaon.scribe_not_owned",
                                       N_("This player does not own noble %(card)d."), here,
                                       card=card))
        elif card in areas:
            found.append(RuleViolation("pharaon.scribe_twice",
                                       N_("Scribe %(card)d is listed twice."), here, card=card))
        else:
            areas[card] = entry["area"]
    return areas


def _running_over(limit: int, contributions: Sequence[tuple[str, int]]) -> str | None:
    """The first field where the running total passes ``limit``."""
    running = 0
    for path, amount in contributions:
        running += amount
        if running > limit:
            return path
    return None


def _tomb(path: str, holder: Mapping[str, Any], found: list[RuleViolation]) -> None:
    if holder["tomb_steps"] == 0 and (holder["tomb_points"] or 0) > 0:
        found.append(RuleViolation("pharaon.tomb_start_points",
                                   N_("The tomb's start space scores nothing."),
                                   f"{path}.tomb_points"))


def game_violations(doc: Mapping[str, Any], traitor: Mapping[str, Any] | None
                    ) -> tuple[list[RuleViolation], dict[str, Any]]:
    """The game's own checks on a document whose shape is sound; also parsed extras."""
    found: list[RuleViolation] = []
    players = doc["players"]
    if len(players) not in PLAYER_COUNTS:
        return [RuleViolation("pharaon.bad_player_count",
                              N_("Pharaon is played by 1 to 5 players."), "players",
                              count=len(players))], {}
    if len(players) == 1 and traitor is None:
        found.append(RuleViolation("pharaon.traitor_missing",
                                   N_("A solo game is scored against the Traitor: enter his "
                                      "holdings."), "traitor"))
    if len(players) > 1 and traitor is not None:
        found.append(RuleViolation("pharaon.traitor_not_solo",
                                   N_("The Traitor plays only in a solo game."), "traitor"))
    areas = doc["board"]["areas"]
    for i, area in enumerate(areas):
        if area in areas[:i]:
            found.append(RuleViolation("pharaon.areas_not_a_permutation",
                                       N_("Each of the five areas appears once around the "
                                          "board."), f"board.areas.{i}"))
    names: list[str] = []
    for p, player in enumerate(players):
        if player["name"].casefold() in (n.casefold() for n in names):
            found.append(RuleViolation("pharaon.duplicate_name",
                                       N_("Two players cannot have the same name."),
                                       f"players.{p}.name"))
        names.append(player["name"])
    traitor_name = None
    if traitor is not None:
        traitor_name = traitor["name"] or t.TRAITOR_NAME
        if traitor_name.casefold() in (n.casefold() for n in names):
            found.append(RuleViolation("pharaon.duplicate_name",
                                       N_("Two players cannot have the same name."),
                                       "traitor.name"))
    holders = names + ([traitor_name] if traitor_name else [])
    for key in ("pharaoh", "first_player"):
        if doc[key] and doc[key].casefold() not in (n.casefold() for n in holders):
            found.append(RuleViolation("pharaon.unknown_holder",
                                       N_("“%(name)s” is not a player of this game."), key,
                                       name=doc[key]))
    holdings = [(f"players.{p}", player) for p, player in enumerate(players)]
    if traitor is not None:
        holdings.append(("traitor", traitor))
    _nobles([(f"{path}.nobles", holder["nobles"] or []) for path, holder in holdings], found)
    scribe_areas = [_scribes(p, player, found) for p, player in enumerate(players)]
    for path, holder in holdings:
        _tomb(path, holder, found)
    for cls, limit in t.OFFERING_CLASS_BOX.items():
        over = _running_over(limit, [(f"{path}.offerings.{cls}", holder["offerings"][cls])
                                     for path, holder in holdings])
        if over:
            found.append(RuleViolation("pharaon.too_many_offerings",
                                       N_("The box holds only %(limit)d offerings of this "
                                          "class."), over, limit=limit))
    over = _running_over(t.ARTISAN_CARDS, [(f"{path}.artisans", len(holder["artisans"] or []))
                                           for path, holder in holdings])
    if over:
        found.append(RuleViolation("pharaon.too_many_artisans",
                                   N_("The box holds only %(limit)d artisans."), over,
                                   limit=t.ARTISAN_CARDS))
    if traitor is not None:
        seen: set[int] = set()
        for j, god in enumerate(traitor["gods"] or []):
            if god is not None and (god > 4 or god in seen):
                found.append(RuleViolation("pharaon.bad_god_index",
                                           N_("A god is numbered 0 to 4 in board order, "
                                              "each once."), f"traitor.gods.{j}"))
            seen.add(god)
    return found, {"scribe_areas": scribe_areas, "traitor_name": traitor_name}


def _tomb_points_from_copy(holder: Any, edition: Any) -> Any:
    """A blank tomb points box, taken from the copy's tomb track where it prints the space
    reached (as the live game does, spec §9.1 U4); the holder unchanged otherwise."""
    if edition is None or not isinstance(holder, Mapping) or holder.get("tomb_points") is not None:
        return holder
    track = edition.values["tomb_track"]
    steps = holder.get("tomb_steps")
    if type(steps) is int and 1 <= steps <= len(track) and track[steps - 1]["points"] is not None:
        return {**holder, "tomb_points": track[steps - 1]["points"]}
    return holder


def _tomb_points_needed(violation: RuleViolation, rest: Any, traitor: Any) -> RuleViolation:
    """A blank tomb points box the copy cannot fill: say which space's points are wanted."""
    field = violation.field or ""
    if violation.code != "schema.required" or not field.endswith(".tomb_points"):
        return violation
    owner = field[:-len(".tomb_points")]
    holder = traitor if owner == "traitor" else None
    if owner.startswith("players."):
        index = int(owner.split(".")[1])
        holder = rest["players"][index]
    steps = holder.get("tomb_steps") if isinstance(holder, Mapping) else None
    if type(steps) is not int:
        return violation
    return RuleViolation("pharaon.tomb_points_needed",
                         N_("Enter the points printed on the tomb space reached (%(steps)d "
                            "steps from the start)."), field, steps=steps)


def validate_final(document: Any) -> tuple[dict[str, Any], dict[str, Any] | None, dict[str, Any]]:
    """A clean copy of the document, its clean Traitor part, and parsed extras (the edition,
    Scribe areas); or InvalidDocument listing every violation found."""
    rest, traitor_doc, edition_doc, has_traitor = _split(document)
    edition, edition_violations = None, []
    try:
        edition = resolve_edition(EDITION, edition_doc)
    except InvalidDocument as invalid:
        edition_violations = invalid.violations
    from_copy = False
    if isinstance(rest, dict) and isinstance(rest.get("players"), list):
        players = [_tomb_points_from_copy(player, edition) for player in rest["players"]]
        from_copy = any(a is not b for a, b in zip(players, rest["players"]))
        rest["players"] = players
    filled = _tomb_points_from_copy(traitor_doc, edition)
    from_copy, traitor_doc = from_copy or filled is not traitor_doc, filled
    clean, violations = check_document(FINAL_SCHEMA, rest)
    traitor = None
    if has_traitor:
        traitor, traitor_violations = check_document(TRAITOR_SCHEMA, traitor_doc)
        violations += [RuleViolation(v.code, v.message, f"traitor.{v.field}" if v.field
                                     else "traitor", **v.params) for v in traitor_violations]
    violations = [_tomb_points_needed(v, rest, traitor_doc) for v in violations]
    if clean.get("game", "pharaon") not in ("", "pharaon"):
        violations.insert(0, RuleViolation("score.wrong_game",
                                           N_("This document is not for this game."), "game"))
    for holder in list(clean.get("players") or []) + ([traitor] if traitor else []):
        if isinstance(holder, dict):
            for key in ("nobles", "artisans", "scribes", "gods"):
                holder.setdefault(key, [])
    violations += edition_violations
    parsed: dict[str, Any] = {"edition": edition, "tomb_from_copy": from_copy}
    flagged = [v.field for v in violations if v.field]
    if not any(v.field is None for v in violations):
        found, extra = game_violations(clean, traitor)
        parsed.update(extra)
        # a field that already has a shape error, or lies inside one, gets no second message
        violations += [v for v in found if not v.field or not any(
            v.field == f or v.field.startswith(f + ".") for f in flagged)]
    if violations:
        raise InvalidDocument(violations)
    return clean, traitor, parsed


def _offerings(entry: Mapping[str, int]) -> dict[str, int]:
    return {cls: entry[cls] for cls in t.OFFERING_CLASSES}


def tallies(clean: Mapping[str, Any], traitor: Mapping[str, Any] | None,
            parsed: Mapping[str, Any]) -> tuple[list[PlayerTally], Board, list[Assumption]]:
    """The tallies and board a valid document describes, and the edition defaults relied on."""
    board_doc = clean["board"]
    board = Board(tuple(board_doc["areas"]), tuple(
        God(g["name"] or f"{n + 1}", Half(g["a"]["threshold"], g["a"]["points"]),
            Half(g["b"]["threshold"], g["b"]["points"])) for n, g in enumerate(board_doc["gods"])))
    edition = parsed["edition"]
    default_scribes = {n + 1: s["area"] for n, s in enumerate(edition.values["scribes"])}
    relied: set[str] = {"tomb_track"} if parsed.get("tomb_from_copy") else set()

    def holder_name(key: str) -> str:
        return (clean[key] or "").casefold()

    players = []
    for p, player in enumerate(clean["players"]):
        areas = dict(parsed["scribe_areas"][p])
        for card in player["nobles"] or ():
            if card in t.SCRIBES and card not in areas:
                areas[card] = default_scribes[card]
                relied.add("scribes")
        name = player["name"]
        players.append(PlayerTally(
            name=name, nobles=tuple(player["nobles"] or ()), scribe_areas=areas,
            artisans=tuple(player["artisans"] or ()), nile=tuple(player["nile"]),
            tomb_steps=player["tomb_steps"], tomb_points=player["tomb_points"] or 0,
            basic=player["basic"], silver=player["silver"],
            offerings=_offerings(player["offerings"]),
            pharaoh=holder_name("pharaoh") == name.casefold(),
            first_player=holder_name("first_player") == name.casefold()))
    if traitor is not None:
        name = parsed["traitor_name"]
        players.append(PlayerTally(
            name=name, nobles=tuple(traitor["nobles"] or ()),
            artisans=tuple(traitor["artisans"] or ()), nile=tuple(traitor["nile"]),
            tomb_steps=traitor["tomb_steps"], tomb_points=traitor["tomb_points"] or 0,
            basic=traitor["basic"], silver=traitor["silver"],
            offerings=_offerings(traitor["offerings"]),
            pharaoh=holder_name("pharaoh") == name.casefold(),
            first_player=holder_name("first_player") == name.casefold(),
            traitor=True, traitor_gods=tuple(g for g in traitor["gods"] or () if g is not None),
            traitor_multiplier=traitor["multiplier"] or None))
    assumed = [Assumption(value.key, value.label, edition.values[value.key])
               for value in EDITION if value.key in SCORING_KEYS + ("tomb_track",)
               and value.key in relied
               and value.key in edition.defaults]
    return players, board, assumed


def score_final(document: Any) -> Scoresheet:
    """Score a finished game of Pharaon from its final-state document (spec §6)."""
    clean, traitor, parsed = validate_final(document)
    players, board, assumed = tallies(clean, traitor, parsed)
    return score_game(players, board, top_cumulative=clean["options"]["nile_top_cumulative"],
                      assumed=assumed)


FORM_SCHEMA = _form_schema()
SOLO_FORM_SCHEMA = _form_schema(solo=True)
