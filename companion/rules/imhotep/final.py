"""Imhotep score-only mode: the final-state document, its validation, and its scoring.

The document (a contract) describes the table after round 6, before final scoring::

    {"game": "imhotep",
     "options": {"sides": {"market": "A", "pyramids": "A", "temple": "A",
                           "burial_chamber": "A", "obelisks": "A"},
                 "wrath_of_pharaoh": false},
     "players": [{"name": "Ana", "color": "black", "track": 23, "obelisk": 4,
                  "cards": {"statue": 3, "pyramid_decoration": 1, ...},
                  "sled": 2, "delivered_to": ["pyramids", "temple"]}],
     "burial_chamber": ["black", "white", "gray", "gray"],
     "site_stones": {"pyramids": 14, "temple": 11}}

B sides and other options (spec §6.1, §6.5):

* ``options.sides.<site>``: "A" or "B" (case-insensitive; blank or missing means A).
* ``options.obelisks_b_score_at_end`` (default false): Obelisks B towers score at the end
  instead of at once (then their values are not yet on the track).
* ``options.red_card_counts_for_wrath`` (default true): when false, only stones delivered by
  ship count for the Wrath, so ``delivered_to`` must list every monument (nothing is derived).
* ``edition`` (or, as before, ``options.b_values``; a key in both is refused): the values of
  the group's copy for the edition data (printed.EDITION); Burial Chamber B uses
  ``burial_chamber_b`` and Obelisks B ``obelisks_b``. Every unverified value the sides and
  player count rely on that the document does not give is scored with its default and
  listed in the Scoresheet's ``assumed``.
* ``players.*.obelisk``: side A the height of the player's tower; side B the stones of the
  player still waiting (not in a tower), 1 point each at the end.
* ``players.*.obelisk_towers`` (side B only): the values of the tower spaces the player's
  towers stand on, e.g. [12, 9]. Towers always take the highest free space, so together they
  must be the highest values of the board.
* Burial Chamber B needs nothing new: rows derive from ``burial_chamber`` (stone n lies in row
  n mod 3). Market, Pyramids and Temple B score during play, so their points are on the track.

Colours are black, white, brown, gray (case-insensitive; "grey" is accepted).
Blank list items (null or "") in ``burial_chamber``, ``delivered_to`` and ``obelisk_towers``
are ignored, so fixed-size phone forms work: the burial chamber is the filled items in order.
``delivered_to`` names monuments; the Burial Chamber and the Obelisks also count as reached
when the player has stones there (unless ``red_card_counts_for_wrath`` is false).

Besides the shape we check what the box makes impossible (spec §2.1, §2.6), so a typing error
is caught before it becomes a result: 29 playable stones per colour, the deck's card counts,
colours at the table, consistent site totals.
"""

from __future__ import annotations

from collections import Counter
from typing import Any, Mapping, Sequence

from ..base import (COUNTED, BoolField, Counted, IntField, InvalidDocument, ListField, Listing,
                    N_, N_plural, ObjectField, RuleViolation, Scoresheet, Term, TextField,
                    check_document)
from . import printed as t
from .scoring import GameTally, PlayerTally, score_game

PLAYER_COUNTS = t.PLAYER_COUNTS
BURIAL_FORM_SIZE = 40          # inputs offered by the phone form (the JSON API takes any number)
TOWER_FORM_SIZE = 3

CARDS_SCHEMA = ObjectField("cards", N_("Cards held"), tuple(
    IntField(kind, str(t.CARD_LABELS[kind]), max=t.DECK[kind]) for kind in t.KEPT_CARDS))

PLAYER_SCHEMA = ObjectField("player", N_("Player"), (
    TextField("name", N_("Name"), max_length=40),
    TextField("color", N_("Colour"), max_length=20,
              choices=tuple((c, str(t.COLOUR_LABELS[c])) for c in t.COLOURS)),
    IntField("track", N_("Points on the scoring track")),
    IntField("obelisk", N_("Obelisk stones (side B: stones not in a tower)"),
             max=t.PLAYABLE_STONES),
    CARDS_SCHEMA,
    IntField("sled", N_("Stones left on the sled"), max=t.SLED_CAPACITY),
    ListField("delivered_to", N_("Monuments this player delivered a stone to"),
              TextField("site", N_("Monument"), max_length=20, required=False,
                        choices=(("", "–"),) + tuple((m, str(t.SITE_LABELS[m]))
                                                     for m in t.MONUMENTS)),
              item_label=N_("Monument %(n)d")),
    ListField("obelisk_towers", N_("Obelisks B: values of this player's towers"),
              IntField("tower", N_("Tower value"), default=None), item_label=N_("Tower %(n)d")),
))

FINAL_SCHEMA = ObjectField("", "", (
    TextField("game", N_("Game"), required=False),
    ObjectField("options", N_("Options"), (
        ObjectField("sides", N_("Board sides"), tuple(
            TextField(site, str(t.SITE_LABELS[site]), max_length=5, required=False,
                      choices=tuple(t.SIDES))
            for site in t.SITES)),
        BoolField("wrath_of_pharaoh", N_("Wrath of the Pharaoh"), default=False),
        BoolField("obelisks_b_score_at_end", N_("Obelisks B: towers score at the end"),
                  default=False),
        BoolField("red_card_counts_for_wrath",
                  N_("Stones placed by red cards count for the Wrath"), default=True),
    )),
    ListField("players", N_("Players"), PLAYER_SCHEMA, required=True,
              item_label=N_("Player %(n)d")),
    ListField("burial_chamber", N_("Burial chamber: stone colours in placement order"),
              TextField("stone", N_("Colour"), max_length=20, required=False,
                        choices=(("", "–"),) + tuple((c, str(t.COLOUR_LABELS[c]))
                                                     for c in t.COLOURS)),
              item_label=N_("Stone %(n)d")),
    ObjectField("site_stones", N_("Stones at the site (all colours)"), (
        IntField("pyramids", N_("Pyramids")),
        IntField("temple", N_("Temple")),
    )),
))

# Lists whose items may be blank; validated here rather than by check_document so that a
# blank item is skipped while every error still names the input it came from.
_BLANK_TOLERANT = ("delivered_to", "obelisk_towers")


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _blank(value: Any) -> bool:
    return value is None or (isinstance(value, str) and not value.strip())


def _filled_items(value: Any, path: str, found: list[RuleViolation],
                  clean) -> list[tuple[int, Any]]:
    """(index, clean value) of the filled items of a blank-tolerant list; ``clean`` returns
    the clean value or a RuleViolation for the item at the given path."""
    if value is None:
        return []
    if not isinstance(value, list):
        found.append(RuleViolation("schema.not_list", N_("This must be a list."), path))
        return []
    items = []
    for i, item in enumerate(value):
        if _blank(item):
            continue
        result = clean(item, f"{path}.{i}")
        if isinstance(result, RuleViolation):
            found.append(result)
        else:
            items.append((i, result))
    return items


def _clean_text(item: Any, path: str) -> str | RuleViolation:
    if not isinstance(item, str):
        return RuleViolation("schema.not_text", N_("This must be text."), path)
    return " ".join(item.split()).casefold()


def _clean_int(item: Any, path: str) -> int | RuleViolation:
    if not _is_int(item):
        return RuleViolation("schema.not_integer", N_("This must be a whole number."), path)
    if item < 0:
        return RuleViolation("schema.negative", N_("This must not be negative."), path)
    return item


def _text_items(value: Any, path: str, found: list[RuleViolation]) -> list[tuple[int, str]]:
    """(index, casefolded text) of the filled items of a blank-tolerant list of words."""
    return _filled_items(value, path, found, _clean_text)


def _int_items(value: Any, path: str, found: list[RuleViolation]) -> list[tuple[int, int]]:
    """(index, value) of the filled items of a blank-tolerant list of whole numbers."""
    return _filled_items(value, path, found, _clean_int)


def _split(document: Any) -> tuple[Any, dict[str, Any]]:
    """A shallow copy of the document without the parts validated by hand, and those parts."""
    if not isinstance(document, Mapping):
        return document, {}
    rest = dict(document)
    extra: dict[str, Any] = {"burial_chamber": rest.pop("burial_chamber", None),
                             "edition": rest.pop("edition", None)}
    options = rest.get("options")
    if isinstance(options, Mapping) and "b_values" in options:
        options = dict(options)
        extra["b_values"] = options.pop("b_values")
        rest["options"] = options
    players = rest.get("players")
    if isinstance(players, list):
        copies = []
        for p, player in enumerate(players):
            if isinstance(player, Mapping):
                player = dict(player)
                for key in _BLANK_TOLERANT:
                    extra[f"players.{p}.{key}"] = player.pop(key, None)
            copies.append(player)
        rest["players"] = copies
    return rest, extra


COLOUR_ALIASES = {"grey": "gray"}      # British spelling accepted


def _colour(text: str) -> str:
    colour = text.casefold()
    return COLOUR_ALIASES.get(colour, colour)


def _side(value: str) -> str | None:
    side = value.strip().upper()
    return "A" if side == "" else side if side in t.SIDES else None


def _colour_problems(players: Sequence[Mapping[str, Any]]) -> tuple[list[str | None],
                                                                    list[RuleViolation]]:
    found = []
    colours: list[str | None] = []
    seen: set[str] = set()
    for p, player in enumerate(players):
        colour = _colour(player["color"])
        path = f"players.{p}.color"
        if not colour:
            colours.append(None)            # already reported by the schema
        elif colour not in t.COLOURS:
            found.append(RuleViolation("imhotep.unknown_colour",
                                       N_("“%(colour)s” is not a colour of Imhotep: black, "
                                          "white, brown or gray."), path, colour=colour[:20]))
            colours.append(None)
        elif colour in seen:
            found.append(RuleViolation("imhotep.duplicate_colour",
                                       N_("Two players cannot play the same colour."), path))
            colours.append(None)
        else:
            seen.add(colour)
            colours.append(colour)
    return colours, found


def _burial_chamber(value: Any, colours: Sequence[str | None], found: list[RuleViolation]
                    ) -> list[tuple[int, str]]:
    # with a player's colour unknown or repeated, "not at the table" would only echo that
    at_table = set(colours) if None not in colours else set(t.COLOURS)
    stones = []
    for i, text in _text_items(value, "burial_chamber", found):
        colour = _colour(text)
        path = f"burial_chamber.{i}"
        if colour not in t.COLOURS:
            found.append(RuleViolation("imhotep.unknown_colour",
                                       N_("“%(colour)s” is not a colour of Imhotep: black, "
                                          "white, brown or gray."), path, colour=colour[:20]))
        elif colour not in at_table:
            found.append(RuleViolation("imhotep.colour_not_at_table",
                                       N_("No player plays %(colour)s."), path,
                                       colour=t.COLOUR_LABELS[colour]))
        else:
            stones.append((i, colour))
    return stones


def _delivered(p: int, value: Any, found: list[RuleViolation]) -> list[tuple[int, str]]:
    path = f"players.{p}.delivered_to"
    sites = []
    seen: set[str] = set()
    for i, site in _text_items(value, path, found):
        site = site.replace(" ", "_")
        if site not in t.MONUMENTS:
            found.append(RuleViolation("imhotep.unknown_site",
                                       N_("“%(site)s” is not a monument: pyramids, temple, "
                                          "burial_chamber or obelisks."), f"{path}.{i}",
                                       site=site[:20]))
        elif site in seen:
            found.append(RuleViolation("imhotep.duplicate_site",
                                       N_("This monument is listed twice."), f"{path}.{i}"))
        else:
            seen.add(site)
            sites.append((i, site))
    return sites


def _running_over(limit: int, contributions: Sequence[tuple[str, int]]) -> str | None:
    """The first field where the running total passes ``limit``."""
    running = 0
    for path, amount in contributions:
        running += amount
        if running > limit:
            return path
    return None


def _edition(b_values: Any, edition: Any) -> tuple[dict[str, Any], set[str], list[RuleViolation]]:
    """The edition values in force: the defaults, with the document's entries (``edition``,
    or ``options.b_values``) over them; also which keys it gave, and the problems found."""
    values, problems = t.resolve_b_values(b_values)
    entered, more = t.resolve_b_values(edition, "edition")
    problems += more
    older = set(b_values) & set(t.EDITION_DEFAULTS) if isinstance(b_values, Mapping) else set()
    newer = set(edition) & set(t.EDITION_DEFAULTS) if isinstance(edition, Mapping) else set()
    for key in sorted(older & newer):
        problems.append(RuleViolation("imhotep.edition_given_twice",
                                      N_("This value is also given in options.b_values."),
                                      f"edition.{key}"))
    values.update({key: entered[key] for key in newer})
    return values, older | newer, problems


def game_violations(doc: Mapping[str, Any], extra: Mapping[str, Any]
                    ) -> tuple[list[RuleViolation], dict[str, Any]]:
    """The game's own checks on a document whose shape is sound; also the parsed extras."""
    players = doc["players"]
    if len(players) not in PLAYER_COUNTS:
        return [RuleViolation("imhotep.bad_player_count",
                              N_("Imhotep is played by 2 to 4 players."), "players",
                              count=len(players))], {}
    found: list[RuleViolation] = []
    names: set[str] = set()
    for p, player in enumerate(players):
        key = player["name"].casefold()
        if key and key in names:
            found.append(RuleViolation("imhotep.duplicate_name",
                                       N_("Two players cannot have the same name."),
                                       f"players.{p}.name"))
        names.add(key)
    colours, problems = _colour_problems(players)
    found += problems
    sides = {}
    for site in t.SITES:
        side = _side(doc["options"]["sides"][site])
        if side is None:
            found.append(RuleViolation("imhotep.unknown_side",
                                       N_("A board side is A or B."),
                                       f"options.sides.{site}"))
            side = "A"
        sides[site] = side
    b_values, given, problems = _edition(extra.get("b_values"), extra.get("edition"))
    found += problems
    burial = _burial_chamber(extra.get("burial_chamber"), colours, found)
    delivered = [_delivered(p, extra.get(f"players.{p}.delivered_to"), found)
                 for p in range(len(players))]
    before = len(found)
    towers = [_int_items(extra.get(f"players.{p}.obelisk_towers"),
                         f"players.{p}.obelisk_towers", found) for p in range(len(players))]
    towers_sound = len(found) == before

    # Obelisks B towers: only on side B, only the board's spaces, the highest ones first.
    if sides["obelisks"] == "A":
        for p, built in enumerate(towers):
            if built:
                found.append(RuleViolation(
                    "imhotep.towers_need_side_b",
                    N_("Towers of three stones exist only on side B of the Obelisks."),
                    f"players.{p}.obelisk_towers.{built[0][0]}"))
    else:
        board = Counter(b_values["obelisks_b"])
        used: Counter[int] = Counter()
        for p, built in enumerate(towers):
            for i, value in built:
                used[value] += 1
                if used[value] > board[value]:
                    found.append(RuleViolation(
                        "imhotep.bad_tower",
                        N_("The Obelisks board has no free tower space worth %(value)d."),
                        f"players.{p}.obelisk_towers.{i}", value=value))
        built_count = sum(len(b) for b in towers)
        if towers_sound and used and all(used[v] <= board[v] for v in used):
            highest = Counter(sorted(b_values["obelisks_b"], reverse=True)[:built_count])
            if used != highest:
                p = next(p for p, b in enumerate(towers) if b)
                found.append(RuleViolation(
                    "imhotep.tower_order", COUNTED, f"players.{p}.obelisk_towers",
                    count=built_count, counted=Counted(N_plural(
                        "Each tower takes the highest free space, so %(num)d tower stands on "
                        "the highest value.",
                        "Each tower takes the highest free space, so %(num)d towers stand on "
                        "the %(num)d highest values."), built_count)))

    # Monuments listed as reached must have stones where the document can tell.
    burial_count = Counter(colour for _, colour in burial)
    for p, sites in enumerate(delivered):
        colour = colours[p]
        if colour is None:
            continue
        for i, site in sites:
            has = (burial_count[colour] if site == "burial_chamber" else
                   players[p]["obelisk"] + len(towers[p]) if site == "obelisks" else 1)
            if not has:
                found.append(RuleViolation(
                    "imhotep.delivered_without_stones",
                    N_("This player has no stone at the %(site)s."),
                    f"players.{p}.delivered_to.{i}", site=t.SITE_LABELS[site]))

    # Cards: no more of a kind than the deck holds (§2.6).
    for kind in t.KEPT_CARDS:
        path = _running_over(t.DECK[kind], [(f"players.{p}.cards.{kind}",
                                             player["cards"][kind])
                                            for p, player in enumerate(players)])
        if path:
            found.append(RuleViolation(
                "imhotep.too_many_cards",
                N_("The deck holds only %(limit)d %(card)s cards."), path,
                card=t.CARD_LABELS[kind], limit=t.DECK[kind]))

    # Stones: 29 playable per colour, counted everywhere the document can place them.
    for p, player in enumerate(players):
        colour = colours[p]
        if colour is None:
            continue
        places = [(f"players.{p}.sled", player["sled"]),
                  (f"players.{p}.obelisk", player["obelisk"])]
        places += [(f"players.{p}.obelisk_towers.{i}", t.OBELISK_B_TOWER_STONES)
                   for i, _ in towers[p]]
        places += [(f"players.{p}.delivered_to.{i}", 1) for i, site in delivered[p]
                   if site in ("pyramids", "temple")]
        places += [(f"burial_chamber.{i}", 1) for i, c in burial if c == colour]
        path = _running_over(t.PLAYABLE_STONES, places)
        if path:
            found.append(RuleViolation(
                "imhotep.too_many_stones",
                N_("A colour has only %(limit)d stones to play with; %(colour)s has more here."),
                path, colour=t.COLOUR_LABELS[colour], limit=t.PLAYABLE_STONES))
    site_stones = doc["site_stones"]
    for site in ("pyramids", "temple"):
        listed = sum(1 for sites in delivered for _, s in sites if s == site)
        if site_stones[site] < listed:
            found.append(RuleViolation(
                "imhotep.site_stones_too_few",
                N_("%(delivered)s, but %(there)s."), f"site_stones.{site}", count=listed,
                site=t.SITE_LABELS[site], stones=site_stones[site], delivered=Counted(N_plural(
                    "%(num)d player delivered to the %(site)s",
                    "%(num)d players delivered to the %(site)s"), listed,
                    site=t.SITE_LABELS[site]),
                there=Counted(N_plural("only %(num)d stone is there",
                                       "only %(num)d stones are there"), site_stones[site])))
    # Said in what the person typed (issue 10): each place the stones were entered, not a
    # running count nobody typed.
    places = [(t.SITE_LABELS["pyramids"], site_stones["pyramids"]),
              (t.SITE_LABELS["temple"], site_stones["temple"]),
              (t.SITE_LABELS["burial_chamber"], len(burial)),
              (Term(N_("Obelisk stones")), sum(player["obelisk"] for player in players)),
              (Term(N_("Sleds")), sum(player["sled"] for player in players)),
              (Term(N_("Stones in towers")),
               t.OBELISK_B_TOWER_STONES * sum(len(b) for b in towers))]
    in_play = sum(amount for _label, amount in places)
    if in_play > t.PLAYABLE_STONES * len(players):
        found.append(RuleViolation(
            "imhotep.too_many_stones_in_play",
            N_("%(players)d players have only %(limit)d stones to play with, but the stones "
               "entered come to %(count)d: %(entries)s."),
            "site_stones", players=len(players), limit=t.PLAYABLE_STONES * len(players),
            count=in_play, entries=Listing(places)))
    parsed = {"colours": colours, "sides": sides, "b_values": b_values, "given": given,
              "burial": [c for _, c in burial],
              "delivered": [[s for _, s in sites] for sites in delivered],
              "towers": [[v for _, v in built] for built in towers]}
    return found, parsed


def validate_final(document: Any) -> tuple[dict[str, Any], dict[str, Any]]:
    """A clean copy of the document and its parsed lists, or InvalidDocument listing every
    violation found."""
    rest, extra = _split(document)
    clean, violations = check_document(FINAL_SCHEMA, rest)
    if clean.get("game", "imhotep") not in ("", "imhotep"):
        violations.insert(0, RuleViolation("score.wrong_game",
                                           N_("This document is not for this game."), "game"))
    parsed: dict[str, Any] = {}
    flagged = [v.field for v in violations if v.field]
    if not any(v.field is None for v in violations):
        found, parsed = game_violations(clean, extra)
        # a field that already has a shape error, or lies inside one, gets no second message
        violations += [v for v in found if not v.field or not any(
            v.field == f or v.field.startswith(f + ".") for f in flagged)]
    if violations:
        raise InvalidDocument(violations)
    return clean, parsed


def tally_from_document(clean: Mapping[str, Any], parsed: Mapping[str, Any]) -> GameTally:
    """The GameTally a valid document describes (derived monuments added, §6.4)."""
    options = clean["options"]
    derive = options["red_card_counts_for_wrath"]
    burial = tuple(parsed["burial"])
    players = []
    for p, player in enumerate(clean["players"]):
        colour = parsed["colours"][p]
        towers = tuple(parsed["towers"][p])
        delivered = set(parsed["delivered"][p])
        if derive:
            if colour in burial:
                delivered.add("burial_chamber")
            if player["obelisk"] or towers:
                delivered.add("obelisks")
        players.append(PlayerTally(
            name=player["name"], colour=colour, track=player["track"],
            obelisk=player["obelisk"], cards=dict(player["cards"]), sled=player["sled"],
            delivered_to=frozenset(delivered), obelisk_towers=towers))
    site_stones = {
        "pyramids": clean["site_stones"]["pyramids"],
        "temple": clean["site_stones"]["temple"],
        "burial_chamber": len(burial),
        "obelisks": sum(p.obelisk + t.OBELISK_B_TOWER_STONES * len(p.obelisk_towers)
                        for p in players),
    }
    return GameTally(players=tuple(players), burial_chamber=burial, site_stones=site_stones,
                     sides=dict(parsed["sides"]),
                     wrath_of_pharaoh=options["wrath_of_pharaoh"],
                     obelisks_b_score_at_end=options["obelisks_b_score_at_end"],
                     b_values=parsed["b_values"])


def score_final(document: Any) -> Scoresheet:
    """Score a finished game of Imhotep from its final-state document; the sheet names the
    unverified defaults it relied on (those in use that the document does not give)."""
    clean, parsed = validate_final(document)
    keys = [key for key in t.unverified_in_use(parsed["sides"], len(clean["players"]))
            if key not in parsed["given"]]
    return score_game(tally_from_document(clean, parsed),
                      t.score_assumptions(keys, parsed["b_values"]))
