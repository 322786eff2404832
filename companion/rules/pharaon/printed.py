"""Pharaon: every printed number and component the referee and the scorer use, with its source.

Spec: shared/rules/pharaon.md (§1.1 components, §2 resources and offerings, §3.1 the
player-count table, §4.6 the 26 nobles, §4.5 the pyramid, §5 gods, §6 scoring, §7 the Traitor,
§9.1 unknown printed values, §9.2 open questions). Sources, cited by the short names below:

  SEED  shared/seeds/000_837f9656059540b2.txt, OCR of the Czech rulebook. It is the **default
        edition**: where the spec's other sources differ, the seed's edition is the default
        (2 starting silver, not 1 [SPIELBRETT]; rejected starting nobles shuffled back, not put
        under the deck; 26 nobles, not 23 [NERDANDO]). Every picture and most icons are lost in
        the OCR, so values printed only as pictures are unknown (spec §9.1).
  SPEC  shared/rules/pharaon.md, for values it derives or chooses ([derived], [unverified]).
  EXT   a public source of spec §10, named there (RINGBOTE, LUDOLEGARS, JUSTNERD, DUDEX…).

Values nobody could verify are **edition data** ("our copy", design.md §2): the values named
``*_DEFAULT`` / ``*_PLACEHOLDER`` below are the defaults of the ruleset's ``edition`` values
(see :mod:`.edition`), marked unverified (a reasoned default) or unknown (a placeholder that only
keeps the app usable until the group enters its copy), or absent when the value must be entered
(the gods' halves, U6).
"""

from __future__ import annotations

from enum import StrEnum
from types import MappingProxyType
from typing import Any, Mapping

from ..base import N_, Term

# --------------------------------------------------------------------------------------------
# Identity (spec §1)
# --------------------------------------------------------------------------------------------

ROUNDS = 5                                    # SEED "Hra se hraje na 5 kol"
PLAYER_COUNTS: tuple[int, ...] = (1, 2, 3, 4, 5)   # SEED: solo, 2 with changes, 3-5 standard
PHARAOH_TOKEN_POINTS = 7                      # SEED "připíše 7 bodů"
FIRST_PLAYER_TOKEN_POINTS = 3                 # SEED "získá ... 3 body"
STARTING_SILVER = 2                           # SEED "2 žetony stříbra" (SPIELBRETT says 1: Q15)


class Area(StrEnum):
    """The five areas (spec naming), each on one board segment."""

    OFF = "OFF"       # Offerings (SEED "zóna obětin")
    NOB = "NOB"       # Nobles (SEED "zóna dvořanů")
    ART = "ART"       # Artisans (SEED "zóna řemeslníků")
    NIL = "NIL"       # Nile (SEED "zóna Nilu")
    TMB = "TMB"       # Tomb / burial chamber (SEED "zóna hrobky")


AREAS: tuple[str, ...] = tuple(a.value for a in Area)

# --------------------------------------------------------------------------------------------
# Resources (spec §2.1). Kinds are keyed by colour: which colour carries which name is unknown
# (U1), so the names of reviews are not used.
# --------------------------------------------------------------------------------------------

BASIC: tuple[str, ...] = ("BLK", "YEL", "GRN", "RED", "BLU")   # EXT RINGBOTE; SEED confirms
SILVER = "SIL"                                                 # SEED "stříbro": wild
KINDS: tuple[str, ...] = BASIC + (SILVER,)
BANK_SIZE_DEFAULT = 20          # EXT JUSTNERD "20 of each" (120 = 6 × 20; SEED "120 žetonů"), U13

# --------------------------------------------------------------------------------------------
# Offerings (spec §2.3): 15 resource offerings (3 per basic kind), 15 area offerings (3 per
# area), 6 "+1" and 4 "+2" (SEED "po 3 každého druhu" twice, "6x", "4x"; 40 in the bag).
# Token codes: "R-<kind>" a resource offering, "A-<area>" an area offering, "P1", "P2".
# --------------------------------------------------------------------------------------------

RESOURCE_OFFERINGS: tuple[str, ...] = tuple(f"R-{k}" for k in BASIC)
AREA_OFFERINGS: tuple[str, ...] = tuple(f"A-{a}" for a in AREAS)
POINT_OFFERINGS: tuple[str, ...] = ("P1", "P2")
OFFERING_KINDS: tuple[str, ...] = RESOURCE_OFFERINGS + AREA_OFFERINGS + POINT_OFFERINGS
OFFERING_BOX: Mapping[str, int] = MappingProxyType(
    {**{k: 3 for k in RESOURCE_OFFERINGS}, **{k: 3 for k in AREA_OFFERINGS}, "P1": 6, "P2": 4})
assert sum(OFFERING_BOX.values()) == 40            # SEED "40 žetonů obětin"
OFFERING_EXTRA_POINTS: Mapping[str, int] = MappingProxyType({"P1": 1, "P2": 2})   # SEED
# The four classes of the final-state document and how many of each the box holds.
OFFERING_CLASSES: Mapping[str, tuple[str, ...]] = MappingProxyType({
    "resource": RESOURCE_OFFERINGS, "area": AREA_OFFERINGS, "plus1": ("P1",), "plus2": ("P2",)})
OFFERING_CLASS_BOX: Mapping[str, int] = MappingProxyType(
    {cls: sum(OFFERING_BOX[k] for k in kinds) for cls, kinds in OFFERING_CLASSES.items()})


def offering_class(token: str) -> str:
    """The document class of an offering token code."""
    if token in RESOURCE_OFFERINGS:
        return "resource"
    if token in AREA_OFFERINGS:
        return "area"
    return "plus1" if token == "P1" else "plus2"


# Every token a player may hold: the six resource kinds and the offering codes.
TOKENS: tuple[str, ...] = KINDS + OFFERING_KINDS

# --------------------------------------------------------------------------------------------
# Player-count table (spec §3.1)
# --------------------------------------------------------------------------------------------

# Face-up jars at the pyramid at setup and in rounds 1-4. SEED: "tolik, kolik hráčů"; 2p "tři
# kanopy"; solo "jen 2 kanopy".
JARS_SHOWN: Mapping[int, int] = MappingProxyType({1: 2, 2: 3, 3: 3, 4: 4, 5: 5})
# Offering pairs = players + 1, and as many bonus tokens (SEED); solo 3 and 3 (SEED, p. 8).
OFFERING_PAIRS: Mapping[int, int] = MappingProxyType({1: 3, 2: 3, 3: 4, 4: 5, 5: 6})
SPOTS_PER_SEGMENT = 4            # EXT RINGBOTE, LUDOLEGARS: 4 entry spots per wheel segment
# SEED "Políčko s označením 4+ je k dispozici pouze při hře 4 nebo 5 hráčů".
USABLE_SPOTS: Mapping[int, int] = MappingProxyType({1: 3, 2: 3, 3: 3, 4: 4, 5: 4})
LEFTOVER_JAR_BLOCKS: Mapping[int, bool] = MappingProxyType(
    {1: True, 2: True, 3: False, 4: False, 5: False})      # SEED pp. 8 (2 players, solo)
NOBLE_DISPLAY = 3                # SEED "3 pole pro vyložení karet dvořanů"
ARTISAN_DISPLAY = 4              # SEED "4 pole pro vyložení karet řemeslníků"
JAR_TILES = 30                   # SEED "30 destiček kanop"
ARTISAN_CARDS = 30               # SEED "30 karet řemeslníků"
NOBLE_CARDS = 26                 # SEED "26 karet dvořanů"
PYRAMID_ROWS = 4                 # SEED "4 řady polí"
NILE_TOP = 3                     # SEED, spec U14: level 3 is the top of a track
TRAITOR_TILES = 5                # SEED "5 desek Zrádce"

# --------------------------------------------------------------------------------------------
# Scoring (spec §6.1)
# --------------------------------------------------------------------------------------------

NILE_POINTS: tuple[int, ...] = (0, 0, 3, 7)    # SEED "po 3 bodech ... po 7 bodech" per level
NILE_TOP_CUMULATIVE = 10                       # Q1's other reading: 3 + 7 at level 3
TRAITOR_DEFAULT_MULTIPLIER = 6                 # SEED "vynásobte ... číslem 6"

# --------------------------------------------------------------------------------------------
# The 26 nobles (spec §4.6; SEED pp. 10-11). Kinds of ability: P permanent, R once per round,
# A once when acquired. ``formula`` names how the card scores (scoring.noble_points).
# --------------------------------------------------------------------------------------------


class NobleType(StrEnum):
    PERMANENT = "P"
    ROUND = "R"
    ACQUIRED = "A"


class Formula(StrEnum):
    """How a noble scores at the end (spec §4.6 "End points")."""

    SCRIBE = "scribe"              # 4 + 4 × satisfied gods adjacent to its area
    GENERAL = "general"            # 7 + 4 Pharaoh token + 4 first-player token
    FIXED = "fixed"                # the printed number
    VIZIER = "vizier"              # 3 + 3 × nobles owned (itself included)
    PHYSICIAN = "physician"        # 6 + 2 × distinct artisan point values
    SUPPLIER = "supplier"          # 6 + 2 × tomb steps
    HIGH_PRIEST = "high_priest"    # 6 + 2 × offering tokens left
    STEWARD = "steward"            # 5 + 3 × Nile tracks at level 3
    SEER = "seer"                  # 3 + 3 × satisfied gods
    TREASURER = "treasurer"        # 8 + 2 × silver left
    TEACHER = "teacher"            # 7 + 1 × basic tokens and resource offerings left
    DIPLOMAT = "diplomat"          # the points of one other noble owned (the best)


# What each formula adds per element counted, on top of the card's base points (SEED pp.
# 10-11, spec §4.6 "End points"): Scribe +4 per satisfied god beside its area, General +4 for
# each token, Grand Vizier +3 per noble, Physician +2 per artisan value, Master Supplier +2
# per tomb step, High Priest +2 per offering, Steward +3 per Nile track at level 3, Seer +3
# per satisfied god, Treasurer +2 per silver, Teacher +1 per basic token or resource offering.
FORMULA_STEP: Mapping[str, int] = MappingProxyType({
    "scribe": 4, "general": 4, "vizier": 3, "physician": 2, "supplier": 2,
    "high_priest": 2, "steward": 3, "seer": 3, "treasurer": 2, "teacher": 1})
SCRIBE_MAX_POINTS = 12          # SEED: a Scribe scores at most 12 (both gods beside its area)


class Ability(StrEnum):
    """What a noble lets its owner do (spec §4.6 "Effect")."""

    SCRIBE_PAIR = "scribe_pair"          # 1-5: two basic kinds interchangeable
    GENERAL_STEP = "general_step"        # 6: first pyramid step at once on passing
    ENTRY_OWN_COLOUR = "entry_own"       # 7-10: entry of its area by any basic token
    JUDGE = "judge"                      # 11: noble action cost of any 5 units (Q2)
    NONE = "none"                        # 12
    FULL_AREA = "full_area"              # 13-16: use its area although it is full
    EXCHANGE_BASIC = "exchange_basic"    # 17: 1 basic token for another basic kind
    EXCHANGE_SILVER = "exchange_silver"  # 18: 1 basic token for 1 silver
    JAR_BONUS = "jar_bonus"              # 19: +1 basic token of choice when gaining a jar
    JAR_SWAP = "jar_swap"                # 20: a jar gained may become 3 basic tokens
    NILE_3_ICON_2 = "nile3_icon2"        # 21: +3 Nile levels, 2 × [icon] (U11)
    NILE_2_OFFER_2 = "nile2_offer2"      # 22: +2 Nile levels, 2 offerings
    ARTISAN_ICON = "artisan_icon"        # 23: a free artisan, 1 × [icon]
    ARTISAN_OFFER = "artisan_offer"      # 24: a free artisan, 1 offering
    TOMB_ICON = "tomb_icon"              # 25: 1 free tomb step, 1 × [icon]
    TOMB_OFFER = "tomb_offer"            # 26: 1 free tomb step, 1 offering


_NOBLE_ROWS: tuple[tuple[int, str, str, str, str, int, str], ...] = (
    # number, SEED name (cs), working English name, type, formula, base points, ability
    (1, "Písař", N_("Scribe"), "P", "scribe", 4, "scribe_pair"),
    (2, "Písař", N_("Scribe"), "P", "scribe", 4, "scribe_pair"),
    (3, "Písař", N_("Scribe"), "P", "scribe", 4, "scribe_pair"),
    (4, "Písař", N_("Scribe"), "P", "scribe", 4, "scribe_pair"),
    (5, "Písař", N_("Scribe"), "P", "scribe", 4, "scribe_pair"),
    (6, "Generál", N_("General"), "P", "general", 7, "general_step"),
    (7, "Architekt", N_("Architect"), "P", "fixed", 10, "entry_own"),
    (8, "Kněžka", N_("Priestess"), "P", "fixed", 12, "entry_own"),      # SEED "12 v případě Kněžky"
    (9, "Předák", N_("Foreman"), "P", "fixed", 10, "entry_own"),
    (10, "Hlavní dekoratér", N_("Chief Decorator"), "P", "fixed", 10, "entry_own"),
    (11, "Soudce", N_("Judge"), "P", "fixed", 12, "judge"),
    (12, "Velkovezír", N_("Grand Vizier"), "P", "vizier", 3, "none"),
    (13, "Lékař", N_("Physician"), "R", "physician", 6, "full_area"),
    (14, "Hlavní dodavatel", N_("Master Supplier"), "R", "supplier", 6, "full_area"),
    (15, "Velekněz", N_("High Priest"), "R", "high_priest", 6, "full_area"),
    (16, "Správkyně", N_("Steward"), "R", "steward", 5, "full_area"),
    (17, "Vědma", N_("Seer"), "R", "seer", 3, "exchange_basic"),
    (18, "Pokladník", N_("Treasurer"), "R", "treasurer", 8, "exchange_silver"),
    (19, "Učitel", N_("Teacher"), "R", "teacher", 7, "jar_bonus"),
    (20, "Diplomat", N_("Diplomat"), "R", "diplomat", 0, "jar_swap"),
    (21, "Dvorní úředník", N_("Court Official"), "A", "fixed", 2, "nile3_icon2"),
    (22, "Dvorní úředník", N_("Court Official"), "A", "fixed", 4, "nile2_offer2"),
    (23, "Dvorní úředník", N_("Court Official"), "A", "fixed", 0, "artisan_icon"),
    (24, "Dvorní úředník", N_("Court Official"), "A", "fixed", 0, "artisan_offer"),
    (25, "Dvorní úředník", N_("Court Official"), "A", "fixed", 2, "tomb_icon"),
    (26, "Dvorní úředník", N_("Court Official"), "A", "fixed", 2, "tomb_offer"),
)


class Noble:
    """One noble card as printed (spec §4.6)."""

    __slots__ = ("number", "name_cs", "name", "type", "formula", "base", "ability")

    def __init__(self, number: int, name_cs: str, name: str, kind: str, formula: str,
                 base: int, ability: str):
        self.number = number
        self.name_cs = name_cs
        self.name = name
        self.type = NobleType(kind)
        self.formula = Formula(formula)
        self.base = base
        self.ability = Ability(ability)


NOBLES: Mapping[int, Noble] = MappingProxyType({row[0]: Noble(*row) for row in _NOBLE_ROWS})
assert len(NOBLES) == NOBLE_CARDS
NOBLE_NUMBERS: tuple[int, ...] = tuple(sorted(NOBLES))
SCRIBES: tuple[int, ...] = (1, 2, 3, 4, 5)
GENERAL, JUDGE, VIZIER = 6, 11, 12
ENTRY_NOBLES: tuple[int, ...] = (7, 8, 9, 10)
# Nobles 13-16 and the area each may use when full (SEED: Lékař "zóně řemeslníků", Hlavní
# dodavatel "zóně hrobky", Velekněz "zóně obětin", Správkyně "zóně Nilu").
FULL_AREA_NOBLES: Mapping[int, str] = MappingProxyType({13: "ART", 14: "TMB", 15: "OFF",
                                                        16: "NIL"})
SEER, TREASURER, TEACHER, DIPLOMAT = 17, 18, 19, 20
ICON_OFFICIALS: tuple[int, ...] = (21, 23, 25)       # the gained icon is lost in the OCR (U11)
COURT_ICON_COUNT: Mapping[int, int] = MappingProxyType({21: 2, 23: 1, 25: 1})   # SEED "2 ×"
COURT_NILE_LEVELS: Mapping[int, int] = MappingProxyType({21: 3, 22: 2})   # SEED "celkem o 3/2"
COURT_OFFERINGS: Mapping[int, int] = MappingProxyType({22: 2, 24: 1, 26: 1})

# --------------------------------------------------------------------------------------------
# Pyramid of Time (spec §4.5, U7): the four reward symbols.
# --------------------------------------------------------------------------------------------


class Reward(StrEnum):
    FIRST_PLAYER = "first_player"    # SEED: take the first-player token
    BASIC = "basic"                  # SEED: 1 basic token of your choice (not silver)
    SILVER = "silver"                # SEED: 1 silver
    OFFERING = "offering"            # SEED: 1 offering from a bonus space or the bag


REWARDS: tuple[str, ...] = tuple(r.value for r in Reward)

# --------------------------------------------------------------------------------------------
# Traitor tiles (spec §7.1, §7.3): column symbols, as strings in the edition data.
# --------------------------------------------------------------------------------------------


class Symbol(StrEnum):
    """A Traitor column symbol; some carry a number (``take_noble:2``) or a god reference
    (``god:OFF:cw``: the god on the clockwise side of the Offerings area)."""

    TOMB = "tomb"
    GOD = "god"
    TAKE_NOBLE = "take_noble"          # :n, the n-th displayed noble
    NOBLE_MULTIPLIER = "noble_mult"    # :k
    DISCARD_NOBLE = "discard_noble"    # :n
    TAKE_ARTISAN = "take_artisan"      # the highest
    TAKE_ARTISAN_2 = "take_artisan_2"  # the second take symbol (Q3: word lost in the OCR)
    DISCARD_ARTISAN = "discard_artisan"
    OFFERING_PAIR = "pair"             # :n, counted top to bottom
    BONUS_OFFERING = "bonus"           # :n
    NILE_FULLEST = "nile_most"
    NILE_EMPTIEST = "nile_least"


SIDES: tuple[str, ...] = ("light", "dark")      # SEED: "světlejší stranou" / "tmavou stranou"
GOD_SIDES: tuple[str, ...] = ("cw", "ccw")

# --------------------------------------------------------------------------------------------
# Defaults of the edition values (design.md §2 "our copy"; see edition.py for the fields)
# --------------------------------------------------------------------------------------------

# U11 Scribe pairs and areas: the OCR lost every icon; the spec's only fragment is a
# green↔black Scribe. Default: a cycle of the five colours, one Scribe per area [unverified].
SCRIBES_DEFAULT: tuple[Mapping[str, Any], ...] = (
    MappingProxyType({"pair": ("GRN", "BLK"), "area": "OFF"}),
    MappingProxyType({"pair": ("BLK", "YEL"), "area": "NOB"}),
    MappingProxyType({"pair": ("YEL", "RED"), "area": "ART"}),
    MappingProxyType({"pair": ("RED", "BLU"), "area": "NIL"}),
    MappingProxyType({"pair": ("BLU", "GRN"), "area": "TMB"}),
)
# U11 the areas of nobles 7-10 (SEED: "V uvedené zóně"; the zone is a lost icon). Default by
# the names, covering the four areas nobles 13-16 cover [unverified].
ENTRY_NOBLE_AREAS_DEFAULT: Mapping[str, str] = MappingProxyType(
    {"7": "TMB", "8": "OFF", "9": "NIL", "10": "ART"})
# U11 the icon gained with nobles 21, 23, 25: silver [unverified, spec §4.6].
COURT_ICONS_DEFAULT: Mapping[str, str] = MappingProxyType({"21": "SIL", "23": "SIL", "25": "SIL"})
# U2 where the "4+" spot sits on a segment: the 4th from the left [unverified, spec §9.1].
FOUR_PLUS_SPOT_DEFAULT = 4
# U4 the tomb track: the number of spaces is unknown; reviews give 5 for the first scoring
# space and 60 for the last [EXT DUDEX, CAMPUSTECH, unverified]. Our placeholder: 10 spaces,
# costs unknown (declared when paid, 2-4 units: SEED "2 až 4 zdroje"), points of spaces 2-9
# unknown (entered when reached or at the end).
TOMB_TRACK_DEFAULT: tuple[Mapping[str, Any], ...] = tuple(
    MappingProxyType({"cost": None, "points": 5 if i == 0 else 60 if i == 9 else None})
    for i in range(10))
TOMB_COST_UNITS = (2, 4)        # SEED "Náklady akce: 2 až 4 zdroje"
# U7 the pyramid rows, bottom (row 1) to top. Row 1 as derived from the General's text and
# Martin's example (space 1 any basic, 2 first-player token, 3 silver); lengths and every other
# space unknown (None: the player picks the reward kind) [unverified].
PYRAMID_DEFAULT: tuple[tuple[str | None, ...], ...] = (
    ("basic", "first_player", "silver", None, None),
    (None, None, None, None),
    (None, None, None),
    (None, None),
)
# U3 the five Nile actions: unknown but for action 4 (RED + BLU, two red/blue arrows, 2
# resources of lost colours). No default: the Nile runs in "confirm" mode (the player declares
# the printed cost, gains and moves) until the group enters its copy.
NILE_ACTIONS = 5
NILE_CONFIRM_LIMITS = {"cost": (1, 4), "gains": 4, "tracks": 4}   # our bounds in confirm mode

# U9 / U10 the 30 jars and 30 artisans are not printed in any source. The placeholders below
# only let the app draw for a table that plays without the physical pieces; what the table
# enters is checked against them only when the group entered its own catalogue.


def _jar_placeholder() -> tuple[tuple[str, str, str], ...]:
    jars = []
    for i in range(JAR_TILES):
        top_left = BASIC[i % 5]
        top_right = BASIC[(i + 1 + i // 5) % 5]
        bottom = SILVER if i % 10 == 9 else BASIC[(i + 3) % 5]
        jars.append((top_left, top_right, bottom))
    return tuple(jars)


JARS_PLACEHOLDER: tuple[tuple[str, str, str], ...] = _jar_placeholder()


def _artisan_placeholder() -> tuple[Mapping[str, Any], ...]:
    cards = []
    for i in range(ARTISAN_CARDS):
        points = 1 + i % 5
        gains = {BASIC[i % 5]: 1} if points <= 3 else {}
        if i % 7 == 0:
            gains[SILVER] = 1
        cards.append(MappingProxyType({"points": points, "gains": MappingProxyType(gains),
                                       "jar": points >= 4}))
    return tuple(cards)


ARTISANS_PLACEHOLDER: tuple[Mapping[str, Any], ...] = _artisan_placeholder()

# U12 the Traitor tiles, both sides: jars for the round, and the column from the setup space
# up (the setup space first; None: an empty space). A placeholder with every symbol of §7.3,
# light sides gentler than dark ones (SEED: dark = harder); the group enters its copy.
_LIGHT_COLUMNS: tuple[tuple[str | None, ...], ...] = (
    (None, None, "take_noble:1", None, "god:OFF:cw", "pair:1", "noble_mult:7", "tomb", None),
    (None, "tomb", None, "discard_noble:3", "god:NOB:cw", "nile_most", None, "take_artisan",
     None),
    (None, None, "bonus:1", "god:ART:cw", None, "take_artisan_2", "noble_mult:8", None, "tomb"),
    (None, "nile_least", None, "god:NIL:cw", "discard_artisan", None, "take_noble:2", None,
     "pair:2"),
    (None, None, "tomb", None, "god:TMB:cw", "bonus:2", None, "noble_mult:9", None),
)
_DARK_COLUMNS: tuple[tuple[str | None, ...], ...] = (
    (None, "take_noble:1", "god:OFF:cw", "pair:1", "noble_mult:8", "tomb", "take_artisan", None),
    (None, "tomb", "discard_noble:3", "god:NOB:cw", "nile_most", "take_artisan", "tomb", None),
    (None, "bonus:1", "god:ART:cw", "take_artisan_2", "noble_mult:9", "tomb", None),
    (None, "nile_least", "god:NIL:cw", "discard_artisan", "take_noble:2", "pair:2", "tomb",
     None),
    (None, "tomb", "god:TMB:cw", "bonus:2", "noble_mult:10", "nile_most", None),
)
TRAITOR_TILES_PLACEHOLDER: tuple[Mapping[str, Any], ...] = tuple(
    MappingProxyType({
        "light": MappingProxyType({"jars": (3, 3, 4, 4, 5)[i], "column": _LIGHT_COLUMNS[i]}),
        "dark": MappingProxyType({"jars": (4, 4, 5, 5, 6)[i], "column": _DARK_COLUMNS[i]}),
    }) for i in range(TRAITOR_TILES))

# --------------------------------------------------------------------------------------------
# Names shown to people (msgids; the web layer translates)
# --------------------------------------------------------------------------------------------

AREA_LABELS: Mapping[str, Term] = MappingProxyType({
    "OFF": Term(N_("Offerings")), "NOB": Term(N_("Nobles")), "ART": Term(N_("Artisans")),
    "NIL": Term(N_("Nile")), "TMB": Term(N_("Tomb")),
})
KIND_LABELS: Mapping[str, Term] = MappingProxyType({
    "BLK": Term(N_("black")), "YEL": Term(N_("yellow")), "GRN": Term(N_("green")),
    "RED": Term(N_("red")), "BLU": Term(N_("blue")), "SIL": Term(N_("silver")),
})
OFFERING_LABELS: Mapping[str, Term] = MappingProxyType({
    **{f"R-{k}": Term(N_("resource offering")) for k in BASIC},
    **{f"A-{a}": Term(N_("area offering")) for a in AREAS},
    "P1": Term(N_("+1 offering")), "P2": Term(N_("+2 offering")),
})
REWARD_LABELS: Mapping[str, Term] = MappingProxyType({
    "first_player": Term(N_("the first-player token")),
    "basic": Term(N_("a basic resource of your choice")),
    "silver": Term(N_("a silver")), "offering": Term(N_("an offering")),
})
CATEGORY_LABELS: Mapping[str, str] = MappingProxyType({
    "gods": N_("Gods"),
    "nobles": N_("Nobles"),
    "nile": N_("Nile"),
    "leftovers": N_("Resources and offerings"),
    "artisans": N_("Artisans"),
    "tomb": N_("Tomb"),
    "tokens": N_("Pharaoh and first-player tokens"),
})
REASON_LABELS: Mapping[str, str] = MappingProxyType({
    "traitor_rule": N_("the Traitor's rule (no conditions, count × multiplier)"),
    "gods_unknown": N_("the gods' values are not entered yet"),
    "tomb_unknown": N_("the tomb space's points are not entered yet"),
})
TIEBREAK_PHARAOH = "pharaon.pharaoh_token"
TIEBREAK_LEFTOVERS = "pharaon.most_leftovers"
TIEBREAK_TRAITOR = "pharaon.traitor_wins_ties"
TIEBREAK_LABELS: Mapping[str, str] = MappingProxyType({
    TIEBREAK_PHARAOH: N_("holds the Pharaoh token"),
    TIEBREAK_LEFTOVERS: N_("most resources and offerings left"),
    TIEBREAK_TRAITOR: N_("ties go to the Traitor"),
})
TRAITOR_NAME = N_("Traitor")
SOLO_GOAL_LABEL = N_("more points than the Traitor (a tie is his)")   # §6.2, §7.7
