"""Silver & Gold – Pyramids score-only mode: the final-state document, its checks, its score.

The document is a contract (issue 13)::

    {"game": "pyramids",
     "edition": {"skull_penalties": [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]},   # optional; omitted: ours
     "players": [
       {"name": "Ana",
        "completed": [{"number": 5, "colour": "orange"}, {"number": 17, "colour": "green"}],
        "torches": [true, false, false, true],
        "race": {"purple": [], "orange": [10], "green": [6, 3]},
        "red_gems": 6, "green_gems": 3,
        "worst_skull_penalty": 6}
     ]}

Optional extras from the scoring form of spec §11:

* ``players.*.skulls`` (field 5b): how many skull boxes are ticked, 0-10; checked against the
  penalty table (the worst ticked box is the last one, spec §6).
* ``players.*.completed_count`` and ``players.*.lowest_completed`` (the minimal variant of field
  1), instead of ``completed``: the number of completed cards and the lowest number among them.
  Without colours the race is checked on the whole (boxes ≤ ⌊cards / 2⌋).
* ``edition`` may carry any edition value of the game (edition.py); ``card_layouts`` colours
  are then checked against the completed cards' colours.
* Empty rows at the end of ``completed`` (``null`` or all entries blank) are ignored, so a
  fixed-size form works.
* ``"variant": "silver_gold"`` makes the document the sibling original *Silver & Gold*
  (spec §13), validated and scored by :mod:`.sibling`.

Refused with 422 naming the field (spec §11 cross-checks): a race box claimed by two players or
twice by one (``SGP_RACE``), race boxes not forming 10 → 6 → 3 in a colour (``SGP_RACE``), more
boxes in a colour than ⌊completed cards of that colour / 2⌋ (``SGP_RACE``), a card number twice
(``pyramids.duplicate_card``), a number outside 1-48 (``pyramids.bad_card_number`` or
``schema.too_large``), more than 16 cards of a colour (``pyramids.too_many_of_colour``), gems
outside 0-10 (``schema.negative`` / ``schema.too_large``), a worst skull penalty that is not
one of the edition's (``pyramids.bad_skull_penalty``), a skull count that does not match it
(``pyramids.skull_mismatch``), a wrong player count or a name twice.

Omitting ``edition.skull_penalties`` means our print-and-play scoring card; the score sheet then
lists it as assumed when a penalty relied on it (a player with a skull ticked).
"""

from __future__ import annotations

from typing import Any, Mapping, Sequence

from ..base import (Assumption, BoolField, ChoiceField, Counted, IntField, InvalidDocument,
                    ListField, Listing, N_, N_plural, ObjectField, RuleViolation, Scoresheet,
                    TextField, check_document, resolve_edition)
from . import printed as t
from .edition import EDITION_VALUES, LABELS, known_cards
from .scoring import PlayerTally, score_game

PLAYER_COUNTS = t.PLAYER_COUNTS
COMPLETED_FORM_SIZE = 12          # inputs the phone form offers (the JSON API takes any number)

CARD_SCHEMA = ObjectField("card", N_("Completed card"), (
    IntField("number", N_("Number"), max=t.CARD_COUNT, default=None),
    ChoiceField("colour", N_("Colour"), tuple((c, str(t.COLOUR_LABELS[c])) for c in t.COLOURS)),
))

PLAYER_SCHEMA = ObjectField("player", N_("Player"), (
    TextField("name", N_("Name"), max_length=40),
    ListField("completed", N_("Completed pyramid cards"), CARD_SCHEMA, max_items=t.CARD_COUNT,
              item_label=N_("Card %(n)d")),
    ListField("torches", N_("Torch boxes ticked, rounds 1 to 4"),
              BoolField("torch", N_("Torch")), min_items=t.TORCH_BOXES,
              max_items=t.TORCH_BOXES, item_label=N_("Round %(n)d")),
    ObjectField("race", N_("Pyramid points boxes ticked"), tuple(
        ListField(colour, str(t.COLOUR_LABELS[colour]),
                  ChoiceField("box", N_("Box"), t.RACE_BOXES),
                  max_items=len(t.RACE_BOXES), item_label=N_("Box %(n)d"))
        for colour in t.COLOURS)),
    IntField("red_gems", N_("Red gems ticked"), max=t.GEM_BOXES),
    IntField("green_gems", N_("Green gems ticked"), max=t.GEM_BOXES),
    IntField("worst_skull_penalty", N_("Penalty printed in the worst ticked skull box"),
             max=99, help=N_("0 if no skull box is ticked.")),
))

FINAL_SCHEMA = ObjectField("", "", (
    TextField("game", N_("Game"), required=False),
    ListField("players", N_("Players"), PLAYER_SCHEMA, required=True,
              item_label=N_("Player %(n)d")),
))

BLANK_CHOICE = ("", "–")          # a form's "nothing chosen" (left out of the document)

# The phone form (spec §11): the document's inputs, every choice with a blank first so that an
# empty row is left out, plus the optional numbers (field 5b, the minimal variant of field 1).
FORM_CARD_SCHEMA = ObjectField("card", N_("Completed card"), (
    IntField("number", N_("Number"), max=t.CARD_COUNT, default=None),
    ChoiceField("colour", N_("Colour"), (BLANK_CHOICE,) + tuple(
        (c, str(t.COLOUR_LABELS[c])) for c in t.COLOURS), default=""),
))

FORM_PLAYER_SCHEMA = ObjectField("player", N_("Player"), (
    PLAYER_SCHEMA.fields[0],
    ListField("completed", N_("Completed pyramid cards"), FORM_CARD_SCHEMA,
              max_items=t.CARD_COUNT, item_label=N_("Card %(n)d")),
    IntField("completed_count", N_("Or only the number of completed cards"), max=t.CARD_COUNT,
             default=None, help=N_("When the colours were not noted; leave the cards empty.")),
    IntField("lowest_completed", N_("Lowest completed card number"), max=t.CARD_COUNT,
             default=None),
    PLAYER_SCHEMA.fields[2],
    ObjectField("race", N_("Pyramid points boxes ticked"), tuple(
        ListField(colour, str(t.COLOUR_LABELS[colour]),
                  ChoiceField("box", N_("Box"), (BLANK_CHOICE,) + t.RACE_BOXES, default=""),
                  max_items=len(t.RACE_BOXES), item_label=N_("Box %(n)d"))
        for colour in t.COLOURS)),
    *PLAYER_SCHEMA.fields[4:],
    IntField("skulls", N_("Skull boxes ticked (optional)"), max=t.SKULL_BOXES, default=None),
))

FORM_SCHEMA = ObjectField("", "", (
    TextField("game", N_("Game"), required=False),
    ListField("players", N_("Players"), FORM_PLAYER_SCHEMA, required=True,
              item_label=N_("Player %(n)d")),
))

# Optional whole numbers of the form, checked by hand (a schema IntField cannot be absent).
OPTIONAL_INTS: Mapping[str, tuple[int, str]] = {
    "skulls": (t.SKULL_BOXES, N_("Skull boxes ticked")),
    "completed_count": (t.CARD_COUNT, N_("Number of completed cards")),
    "lowest_completed": (t.CARD_COUNT, N_("Lowest completed card number")),
}


def _race(reason: str, message: str, path: str, **params: Any) -> RuleViolation:
    """An ``SGP_RACE`` refusal (spec §5.5); ``reason`` says which: "taken", "order" or
    "threshold"."""
    return RuleViolation("SGP_RACE", message, path, reason=reason, **params)


def _optional_int(value: Any, path: str, high: int, found: list[RuleViolation]) -> int | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int):
        found.append(RuleViolation("schema.not_integer", N_("This must be a whole number."),
                                   path))
    elif value < 0:
        found.append(RuleViolation("schema.negative", N_("This must not be negative."), path))
    elif value > high:
        found.append(RuleViolation("schema.too_large", N_("At most %(max)d."), path, max=high))
    else:
        return value
    return None


def _completed(player: Mapping[str, Any], extras: Mapping[str, int | None]
               ) -> list[dict[str, Any]] | None:
    """The completed cards, or None for the minimal variant (a count instead of the list)."""
    cards = player.get("completed")
    if cards is None and extras["completed_count"] is not None:
        return None
    return cards or []


def _blank(item: Any) -> bool:
    return item in (None, "") or (isinstance(item, Mapping) and all(
        value in (None, "") for value in item.values()))


def _without_trailing_blanks(items: list[Any]) -> list[Any]:
    """A fixed-size phone form sends empty rows after the cards entered: they are dropped
    (an empty row between cards is still reported, naming its place)."""
    end = len(items)
    while end and _blank(items[end - 1]):
        end -= 1
    return items[:end]


def split_document(document: Any) -> tuple[Any, dict[str, Any]]:
    """A shallow copy without the parts checked by hand (edition, variant, optional numbers),
    and those parts keyed by their path."""
    if not isinstance(document, Mapping):
        return document, {}
    rest = dict(document)
    extra: dict[str, Any] = {"edition": rest.pop("edition", None),
                             "variant": rest.pop("variant", None)}
    players = rest.get("players")
    if isinstance(players, list):
        copies = []
        for p, player in enumerate(players):
            if isinstance(player, Mapping):
                player = dict(player)
                for key in OPTIONAL_INTS:
                    extra[f"players.{p}.{key}"] = player.pop(key, None)
                if isinstance(player.get("completed"), list):
                    player["completed"] = _without_trailing_blanks(player["completed"])
                    if not player["completed"] and extra[f"players.{p}.completed_count"] \
                            is not None:
                        del player["completed"]        # the form's empty rows, and a count
                race = player.get("race")
                if isinstance(race, Mapping):      # a form's empty boxes are left out
                    player["race"] = {colour: [box for box in boxes if box not in (None, "")]
                                      if isinstance(boxes, list) else boxes
                                      for colour, boxes in race.items()}
            copies.append(player)
        rest["players"] = copies
    return rest, extra


def _card_violations(players: Sequence[Mapping[str, Any]], colours: Sequence[str | None],
                     extras: Sequence[Mapping[str, int | None]]) -> list[RuleViolation]:
    """Card numbers once each and 1-48, ≤ 16 per colour, colours as the edition knows them;
    the minimal variant's counts."""
    found: list[RuleViolation] = []
    seen: set[int] = set()
    per_colour = {colour: 0 for colour in t.COLOURS}
    total = 0
    entries: list[tuple[str, int]] = []
    for p, player in enumerate(players):
        cards = _completed(player, extras[p])
        count, lowest = extras[p]["completed_count"], extras[p]["lowest_completed"]
        if player.get("completed") is not None and count is not None:
            found.append(RuleViolation(
                "pyramids.completed_twice",
                N_("Give either the completed cards or their number, not both."),
                f"players.{p}.completed_count"))
        if lowest is not None and not count:
            found.append(RuleViolation(
                "pyramids.lowest_without_cards",
                N_("A lowest card number needs a number of completed cards."),
                f"players.{p}.lowest_completed"))
        elif lowest == 0:
            found.append(RuleViolation("pyramids.bad_card_number",
                                       N_("Pyramid cards are numbered 1 to 48."),
                                       f"players.{p}.lowest_completed"))
        held = (count or 0) if cards is None else len(cards)
        total += held
        entries.append((player.get("name") or f"#{p + 1}", held))
        if cards is None:
            continue
        for i, card in enumerate(cards):
            here = f"players.{p}.completed.{i}"
            number, colour = card["number"], card["colour"]
            if number < 1:
                found.append(RuleViolation("pyramids.bad_card_number",
                                           N_("Pyramid cards are numbered 1 to 48."),
                                           f"{here}.number"))
            elif number in seen:
                found.append(RuleViolation("pyramids.duplicate_card",
                                           N_("Card %(number)d is completed twice."),
                                           f"{here}.number", number=number))
            else:
                seen.add(number)
                if colours[number] is not None and colours[number] != colour:
                    found.append(RuleViolation(
                        "pyramids.wrong_colour", N_("Card %(number)d is %(colour)s."),
                        f"{here}.colour", number=number,
                        colour=t.COLOUR_LABELS[colours[number]]))
            per_colour[colour] += 1
            if per_colour[colour] == t.CARDS_PER_COLOUR + 1:
                found.append(RuleViolation("pyramids.too_many_of_colour",
                                           N_("There are only 16 %(colour)s pyramid cards."),
                                           f"{here}.colour", colour=t.COLOUR_LABELS[colour]))
    if total > t.CARD_COUNT:      # said in what was typed (issue 10), player by player
        found.append(RuleViolation("pyramids.too_many_cards",
                                   N_("There are only 48 pyramid cards, but %(count)d are "
                                      "entered as completed: %(entries)s."), "players",
                                   count=total, entries=Listing(entries)))
    return found


def _race_violations(players: Sequence[Mapping[str, Any]],
                     extras: Sequence[Mapping[str, int | None]]) -> list[RuleViolation]:
    """§11: each box claimed once, 10 → 6 → 3 in each colour, boxes ≤ ⌊completed / 2⌋."""
    found: list[RuleViolation] = []
    for colour in t.COLOURS:
        claimed: dict[int, str] = {}
        for p, player in enumerate(players):
            for i, value in enumerate(player["race"].get(colour) or ()):
                here = f"players.{p}.race.{colour}.{i}"
                if value in claimed:
                    found.append(_race("taken", N_("The %(colour)s %(value)d box is already "
                                                   "claimed."), here,
                                       colour=t.COLOUR_LABELS[colour], value=value))
                else:
                    claimed[value] = here
        for value, here in claimed.items():
            rank = t.RACE_BOXES.index(value)
            if any(higher not in claimed for higher in t.RACE_BOXES[:rank]):
                found.append(_race("order", N_("The %(colour)s boxes are claimed in the order "
                                               "10, 6, 3: %(value)d cannot be taken before "
                                               "the higher ones."), here,
                                   colour=t.COLOUR_LABELS[colour], value=value))
    for p, player in enumerate(players):
        cards = _completed(player, extras[p])
        if cards is None:
            boxes = sum(len(player["race"].get(colour) or ()) for colour in t.COLOURS)
            count = extras[p]["completed_count"] or 0
            if boxes > count // 2:
                found.append(_race("threshold", N_("Each pyramid points box needs two more "
                                                   "completed cards of its colour."),
                                    f"players.{p}.race"))
            continue
        for colour in t.COLOURS:
            boxes = len(player["race"].get(colour) or ())
            done = sum(1 for card in cards if card["colour"] == colour)
            if boxes > done // 2:
                name = t.COLOUR_LABELS[colour]
                found.append(_race(
                    "threshold", N_("%(boxes)s %(cards)s; %(listed)s."),
                    f"players.{p}.race.{colour}",
                    boxes=Counted(N_plural("%(num)d %(colour)s pyramid points box needs",
                                           "%(num)d %(colour)s pyramid points boxes need"),
                                  boxes, colour=name),
                    cards=Counted(N_plural("%(num)d completed card of that colour",
                                           "%(num)d completed cards of that colour"),
                                  2 * boxes),
                    listed=Counted(N_plural("%(num)d is listed", "%(num)d are listed"), done)))
    return found


def _skull_violations(players: Sequence[Mapping[str, Any]], penalties: Sequence[int],
                      extras: Sequence[Mapping[str, int | None]]) -> list[RuleViolation]:
    found = []
    allowed = {0, *penalties}
    for p, player in enumerate(players):
        penalty = player["worst_skull_penalty"]
        if penalty not in allowed:
            found.append(RuleViolation(
                "pyramids.bad_skull_penalty",
                N_("No skull box costs %(penalty)d; the boxes cost %(penalties)s."),
                f"players.{p}.worst_skull_penalty", penalty=penalty,
                penalties=", ".join(map(str, penalties))))
            continue
        skulls = extras[p]["skulls"]
        if skulls is not None and (penalties[skulls - 1] if skulls else 0) != penalty:
            found.append(RuleViolation(
                "pyramids.skull_mismatch",
                N_("With %(skulls)d skull boxes ticked the worst costs %(expected)d."),
                f"players.{p}.skulls", skulls=skulls,
                expected=penalties[skulls - 1] if skulls else 0))
    return found


def game_violations(doc: Mapping[str, Any], extras: Sequence[Mapping[str, int | None]],
                    penalties: Sequence[int], colours: Sequence[str | None]
                    ) -> list[RuleViolation]:
    """The game's own checks on a document whose shape is sound."""
    players = doc["players"]
    if len(players) not in PLAYER_COUNTS:
        return [RuleViolation("pyramids.bad_player_count",
                              N_("Silver & Gold – Pyramids is played by 2 to 4 players."),
                              "players", count=len(players))]
    found: list[RuleViolation] = []
    names: set[str] = set()
    for p, player in enumerate(players):
        key = player["name"].casefold()
        if key and key in names:
            found.append(RuleViolation("pyramids.duplicate_name",
                                       N_("Two players cannot have the same name."),
                                       f"players.{p}.name"))
        names.add(key)
    found += _card_violations(players, colours, extras)
    found += _race_violations(players, extras)
    found += _skull_violations(players, penalties, extras)
    return found


def _drop_flagged(found: Sequence[RuleViolation], flagged: Sequence[str]) -> list[RuleViolation]:
    """Violations not on (or inside) a field that already has a shape error."""
    return [v for v in found if not v.field or not any(
        v.field == f or v.field.startswith(f + ".") for f in flagged)]


def validate_final(document: Any) -> tuple[dict[str, Any], list[dict[str, int | None]],
                                           Any]:
    """A clean copy of the document, each player's optional numbers and the resolved edition,
    or InvalidDocument listing every violation found."""
    rest, extra = split_document(document)
    clean, violations = check_document(FINAL_SCHEMA, rest)
    if clean.get("game", "pyramids") not in ("", "pyramids"):
        violations.insert(0, RuleViolation("score.wrong_game",
                                           N_("This document is not for this game."), "game"))
    edition = None
    try:
        edition = resolve_edition(EDITION_VALUES, _edition_entries(extra.get("edition"),
                                                                    violations))
    except InvalidDocument as problem:
        violations += problem.violations
    extras = []
    for p in range(len(clean.get("players", []))):
        extras.append({key: _optional_int(extra.get(f"players.{p}.{key}"),
                                          f"players.{p}.{key}", high, violations)
                       for key, (high, _) in OPTIONAL_INTS.items()})
    flagged = [v.field for v in violations if v.field]
    if edition is not None and not any(v.field is None for v in violations):
        colours, _ = known_cards(edition.values["card_layouts"])
        violations += _drop_flagged(game_violations(
            clean, extras, edition.values["skull_penalties"], colours), flagged)
    if violations:
        raise InvalidDocument(violations)
    return clean, extras, edition


def _edition_entries(value: Any, violations: list[RuleViolation]) -> Mapping[str, Any]:
    if value is None:
        return {}
    if not isinstance(value, Mapping):
        violations.append(RuleViolation("schema.not_object",
                                        N_("This must be an object with named entries."),
                                        "edition"))
        return {}
    return value


def tallies(clean: Mapping[str, Any], extras: Sequence[Mapping[str, int | None]]
            ) -> list[PlayerTally]:
    """The PlayerTally of each player of a valid document."""
    out = []
    for p, player in enumerate(clean["players"]):
        cards = _completed(player, extras[p])
        race = player["race"]
        out.append(PlayerTally(
            name=player["name"],
            completed=tuple((card["number"], card["colour"]) for card in cards or ()),
            torches=tuple(player.get("torches") or (False,) * t.TORCH_BOXES),
            race={colour: tuple(race.get(colour) or ()) for colour in t.COLOURS},
            red_gems=player["red_gems"], green_gems=player["green_gems"],
            worst_skull_penalty=player["worst_skull_penalty"],
            completed_count=(extras[p]["completed_count"] or 0) if cards is None else None,
            lowest_completed=extras[p]["lowest_completed"] if cards is None else None))
    return out


def penalty_assumption(penalties: Sequence[int]) -> Assumption:
    return Assumption("skull_penalties", LABELS["skull_penalties"], list(penalties))


def score_final(document: Any) -> Scoresheet:
    """Score a finished game from its final-state document (or its Silver & Gold sibling)."""
    if isinstance(document, Mapping) and document.get("variant") not in (None, "pyramids"):
        from .sibling import score_sibling
        return score_sibling(document)
    clean, extras, edition = validate_final(document)
    players = tallies(clean, extras)
    relied = any(p.worst_skull_penalty or extras[i]["skulls"] for i, p in enumerate(players))
    assumed = ([penalty_assumption(edition.values["skull_penalties"])]
               if relied and "skull_penalties" in edition.defaults else [])
    return score_game(players, assumed=assumed)
