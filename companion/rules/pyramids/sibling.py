"""The sibling original *Silver & Gold* (NSV 2019), score-only (spec §13).

Chosen shape: a second final-state document of this game, told apart by ``"variant":
"silver_gold"`` (one registered game, one Scoresheet type, the same score-only entry point);
its form schema is :data:`SIBLING_SCHEMA`::

    {"game": "pyramids", "variant": "silver_gold",
     "players": [
       {"name": "Sarah",
        "completed": [{"colour": "grey", "points": 10, "seal": {"colour": "grey", "points": 1}},
                      {"colour": "orange", "points": 12}],
        "coins": 9, "trophies": [6, 2], "palms": [3, 3, 2]}]}

Score = printed values of the completed cards + trophies + coins (1 each) + palm-tree entries +
seal bonuses (each seal on a completed card scores its 1 or 2 points per completed card of the
seal's colour; every seal owned scores). Tie: more grey completed cards, then green, orange,
purple (SG "End of the Game"). The spec's rules example (Sarah, 95 with the 8 trophy points the
text omits) is a test vector.

Checks (422 naming the field): 2-4 players, names once; card colours within the box (12 purple,
orange and green, 11 grey); a seal has both a colour and 1 or 2 points, or neither; at most 12
coins; trophies worth 6, 5, 4, 3, 2, 1, each claimed once, claimed highest first across the
table, at most one per full coin row (⌊coins / 4⌋); at most 4 palm entries, each at least 1.
"""

from __future__ import annotations

from typing import Any, Mapping, Sequence

from ..base import (Category, ChoiceField, Counted, IntField, InvalidDocument, ListField, N_,
                    N_plural, ObjectField,
                    PlayerScore, RuleViolation, Scoresheet, TextField, TieBreak, check_document,
                    competition_ranks)
from . import printed as t

TIEBREAK_COLOUR_COUNTS = "silver_gold.colour_counts"

SEAL_SCHEMA = ObjectField("seal", N_("Seal"), (
    ChoiceField("colour", N_("Seal colour"), (("", N_("no seal")),) + tuple(
        (c, str(t.COLOUR_LABELS[c])) for c in t.SG_COLOURS), default=""),
    ChoiceField("points", N_("Points per card"), (0,) + t.SG_SEAL_POINTS, default=0),
))

CARD_SCHEMA = ObjectField("card", N_("Completed treasure card"), (
    ChoiceField("colour", N_("Colour"), tuple((c, str(t.COLOUR_LABELS[c]))
                                              for c in t.SG_COLOURS)),
    IntField("points", N_("Value printed top left"), max=t.SG_MAX_CARD_POINTS, default=None),
    SEAL_SCHEMA,
))

PLAYER_SCHEMA = ObjectField("player", N_("Player"), (
    TextField("name", N_("Name"), max_length=40),
    ListField("completed", N_("Completed treasure cards"), CARD_SCHEMA,
              max_items=sum(t.SG_CARDS_PER_COLOUR.values()), item_label=N_("Card %(n)d")),
    IntField("coins", N_("Coin boxes ticked"), max=t.SG_COIN_BOXES),
    ListField("trophies", N_("Trophies"), ChoiceField("trophy", N_("Trophy"), t.SG_TROPHIES),
              max_items=t.SG_COIN_BOXES // t.SG_COINS_PER_ROW, item_label=N_("Trophy %(n)d")),
    ListField("palms", N_("Palm tree entries"),
              IntField("entry", N_("Points"), max=t.SG_MAX_PALM_ENTRY, default=None),
              max_items=t.SG_PALM_BOXES, item_label=N_("Entry %(n)d")),
))

# The phone form: the same inputs, every choice with a blank first (an empty row is left out).
_BLANK = ("", "–")
FORM_CARD_SCHEMA = ObjectField("card", N_("Completed treasure card"), (
    ChoiceField("colour", N_("Colour"), (_BLANK,) + tuple((c, str(t.COLOUR_LABELS[c]))
                                                          for c in t.SG_COLOURS), default=""),
    CARD_SCHEMA.fields[1], SEAL_SCHEMA,
))
FORM_PLAYER_SCHEMA = ObjectField("player", N_("Player"), (
    PLAYER_SCHEMA.fields[0],
    ListField("completed", N_("Completed treasure cards"), FORM_CARD_SCHEMA,
              max_items=sum(t.SG_CARDS_PER_COLOUR.values()), item_label=N_("Card %(n)d")),
    PLAYER_SCHEMA.fields[2],
    ListField("trophies", N_("Trophies"),
              ChoiceField("trophy", N_("Trophy"), (_BLANK,) + t.SG_TROPHIES, default=""),
              max_items=t.SG_COIN_BOXES // t.SG_COINS_PER_ROW, item_label=N_("Trophy %(n)d")),
    PLAYER_SCHEMA.fields[4],
))


def _blank(value: Any) -> bool:
    """An input left empty on the form (a seal left at "no seal" counts as empty)."""
    if isinstance(value, Mapping):
        return all(_blank(v) or (key == "points" and v == 0) for key, v in value.items())
    return value in (None, "")


def without_form_blanks(document: Any) -> Any:
    """The document with the form's empty rows and boxes left out (cards, trophies, palms)."""
    if not isinstance(document, Mapping) or not isinstance(document.get("players"), list):
        return document
    players = []
    for player in document["players"]:
        if isinstance(player, Mapping):
            player = dict(player)
            for key in ("completed", "trophies", "palms"):
                if isinstance(player.get(key), list):
                    player[key] = [item for item in player[key] if not _blank(item)]
        players.append(player)
    return {**document, "players": players}


FORM_SCHEMA = ObjectField("", "", (
    TextField("game", N_("Game"), required=False),
    ListField("players", N_("Players"), FORM_PLAYER_SCHEMA, required=True,
              item_label=N_("Player %(n)d")),
))

SIBLING_SCHEMA = ObjectField("", "", (
    TextField("game", N_("Game"), required=False),
    ChoiceField("variant", N_("Variant"), (("silver_gold", N_("Silver & Gold (2019)")),)),
    ListField("players", N_("Players"), PLAYER_SCHEMA, required=True,
              item_label=N_("Player %(n)d")),
))


def sibling_violations(doc: Mapping[str, Any]) -> list[RuleViolation]:
    """The game's own checks on a Silver & Gold document whose shape is sound."""
    players = doc["players"]
    if len(players) not in t.PLAYER_COUNTS:
        return [RuleViolation("silver_gold.bad_player_count",
                              N_("Silver & Gold is played by 2 to 4 players."), "players",
                              count=len(players))]
    found: list[RuleViolation] = []
    names: set[str] = set()
    per_colour = {colour: 0 for colour in t.SG_COLOURS}
    claimed: dict[int, str] = {}
    for p, player in enumerate(players):
        key = player["name"].casefold()
        if key and key in names:
            found.append(RuleViolation("silver_gold.duplicate_name",
                                       N_("Two players cannot have the same name."),
                                       f"players.{p}.name"))
        names.add(key)
        for i, card in enumerate(player.get("completed") or ()):
            here = f"players.{p}.completed.{i}"
            colour = card["colour"]
            per_colour[colour] += 1
            if per_colour[colour] == t.SG_CARDS_PER_COLOUR[colour] + 1:
                found.append(RuleViolation(
                    "silver_gold.too_many_of_colour",
                    N_("There are only %(limit)d %(colour)s treasure cards."),
                    f"{here}.colour", limit=t.SG_CARDS_PER_COLOUR[colour],
                    colour=t.COLOUR_LABELS[colour]))
            if card["points"] < 1:
                found.append(RuleViolation("silver_gold.bad_card_points",
                                           N_("A treasure card is worth at least 1 point."),
                                           f"{here}.points"))
            seal = card["seal"]
            if (seal["colour"] == "") != (seal["points"] == 0):
                found.append(RuleViolation(
                    "silver_gold.bad_seal",
                    N_("A seal has a colour and is worth 1 or 2 points per card."),
                    f"{here}.seal"))
        for i, value in enumerate(player.get("palms") or ()):
            if value < 1:
                found.append(RuleViolation(
                    "silver_gold.bad_palm",
                    N_("A palm tree entry is at least 1 (the palm tree itself)."),
                    f"players.{p}.palms.{i}"))
        trophies = player.get("trophies") or ()
        for i, value in enumerate(trophies):
            here = f"players.{p}.trophies.{i}"
            if value in claimed:
                found.append(RuleViolation("silver_gold.trophy_taken",
                                           N_("The %(value)d trophy is already claimed."),
                                           here, value=value))
            else:
                claimed[value] = here
        rows = player["coins"] // t.SG_COINS_PER_ROW
        if len(trophies) > rows:
            found.append(RuleViolation(
                "silver_gold.trophy_without_row",
                N_("Each trophy needs a full row of 4 coins; %(fill)s."),
                f"players.{p}.trophies", coins=player["coins"], rows=rows, fill=Counted(
                    N_plural("%(num)d coin fills %(rows)d", "%(num)d coins fill %(rows)d"),
                    player["coins"], rows=rows)))
    for value, here in claimed.items():
        if any(higher not in claimed for higher in t.SG_TROPHIES[:t.SG_TROPHIES.index(value)]):
            found.append(RuleViolation(
                "silver_gold.trophy_order",
                N_("Trophies are claimed highest first: %(value)d cannot be taken before the "
                   "higher ones."), here, value=value))
    return found


def validate_sibling(document: Any) -> dict[str, Any]:
    """A clean copy of a Silver & Gold document, or InvalidDocument with every violation."""
    clean, violations = check_document(SIBLING_SCHEMA, without_form_blanks(document))
    if clean.get("game", "pyramids") not in ("", "pyramids"):
        violations.insert(0, RuleViolation("score.wrong_game",
                                           N_("This document is not for this game."), "game"))
    flagged = [v.field for v in violations if v.field]
    if not any(v.field is None for v in violations):
        violations += [v for v in sibling_violations(clean) if not v.field or not any(
            v.field == f or v.field.startswith(f + ".") for f in flagged)]
    if violations:
        raise InvalidDocument(violations)
    return clean


def sibling_categories(player: Mapping[str, Any]) -> list[Category]:
    """Spec §13: card values, seals, coins, trophies, palm entries."""
    cards = player.get("completed") or ()
    counts = {colour: sum(1 for card in cards if card["colour"] == colour)
              for colour in t.SG_COLOURS}
    seals = [(card["seal"]["colour"], card["seal"]["points"]) for card in cards
             if card["seal"]["colour"]]
    trophies = list(player.get("trophies") or ())
    palms = list(player.get("palms") or ())
    return [
        Category("card_values", sum(card["points"] for card in cards),
                 detail={"count": len(cards)}),
        Category("seals", sum(points * counts[colour] for colour, points in seals),
                 detail={"seals": [[colour, points] for colour, points in seals]}),
        Category("coins", player["coins"], detail={"count": player["coins"]}),
        Category("trophies", sum(trophies), detail={"trophies": trophies}),
        Category("palms", sum(palms), detail={"entries": palms}),
    ]


def score_sibling(document: Any) -> Scoresheet:
    """Score a finished game of Silver & Gold (raises InvalidDocument)."""
    clean = validate_sibling(document)
    players: Sequence[Mapping[str, Any]] = clean["players"]
    categories = [sibling_categories(player) for player in players]
    totals = [sum(c.points for c in cats) for cats in categories]
    colours = [[sum(1 for card in player.get("completed") or () if card["colour"] == colour)
                for colour in t.SG_TIE_ORDER] for player in players]
    ranks = competition_ranks([(total, *counts) for total, counts in zip(totals, colours)])
    scores = []
    for p, player in enumerate(players):
        tied = any(totals[q] == totals[p] for q in range(len(players)) if q != p)
        scores.append(PlayerScore(
            name=player["name"], categories=tuple(categories[p]), total=totals[p],
            rank=ranks[p], tiebreak=TieBreak(TIEBREAK_COLOUR_COUNTS, colours[p]) if tied
            else None))
    return Scoresheet("pyramids", tuple(scores), True)
