"""Valley of the Kings (Afterlife and the original): the card catalogue, each value with its source.

Spec: shared/rules/valley-of-the-kings.md, §2 (components, card anatomy, the known titles, unknown
data), §3 (setup numbers), §10 (the squares table), §11 (the pools of the optional rules) and
§12 (solo). Sources, cited by the short names used below:

  SEED  — shared/seeds/003_a5a1750f916b3499.txt, the Czech rulebook of *Ve stínu pyramid:
          Zásvětí* (BoardBros). It is the **default edition**: where the spec's other sources
          disagree, the seed wins (spec §16 #22-#24). "SEED l.N" is a line of that file.
  SPEC  — shared/rules/valley-of-the-kings.md, for derived numbers and house defaults.
  DIARY — the designer diary, https://www.alderac.com/valleyofthekings/afterlife_design_diary/
          (names Brain Hook, linen bandages, ring, bracelet, burial chamber, serdab, offering
          chapel, spear, bow).
  GEEK  — https://geekdad.com/2015/09/valley-of-the-kings-afterlife/ (identical starters, set
          names, 5-6 players).
  REVIEW — https://www.strangeassembly.com/2014/review-valley-of-the-kings and
          https://dice-settlers.com/?q=valley-of-the-kings-afterlife (starter VP 1, colours).
  SUPPL — the original's card supplement, https://docslib.org/doc/9706045/ (Book titles, Boat).

What nobody could verify is marked ``unverified`` on the title (spec §2.5: "[unverified]"):
such a value is a default the group may correct for its copy (design.md §2, "our copy"). The
printed numbers no source gives — most costs and capitals, every unique's VP, the VP of Urn,
Box of Food and Offering Table, and the set of six Afterlife titles whose colour no source
states — are the group's **edition data**: ``None`` here, entered once and reused
(:data:`EDITION_DEFAULTS`, declared as ``EditionValue``s by the ruleset).

Titles are identified by stable ids. A set whose titles are not all named has **placeholder**
titles ("Tomb Art #5 (unknown title)", spec §2.5): a table that does not know a card's name
ticks the placeholder of its colour instead. Six Afterlife names have no known set (Nut,
Judgement, Victory, Hounds and Jackals, Senet, Mirror Case); they are ``Kind.UNKNOWN`` until the
group's edition (``card_set``) or a move at the table says which set (or "unique") they are.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from types import MappingProxyType
from typing import Mapping

from ..base import N_


class Box(StrEnum):
    """Which box a card comes from (spec §2.2 ``box``)."""

    AFTERLIFE = "afterlife"        # Valley of the Kings: Afterlife / Ve stínu pyramid: Zásvětí
    ORIGINAL = "original"          # Valley of the Kings / Ve stínu pyramid
    BOTH = "both"                  # the starters: identical in both boxes (GEEK, DIARY)


class Kind(StrEnum):
    """A card's type line (spec §2.2 ``kind``)."""

    STARTER = "starter"
    SET = "set"
    UNIQUE = "unique"
    UNKNOWN = "unknown"            # a named card whose set (or uniqueness) no source states


class Action(StrEnum):
    """The clarified card effects of spec §8 (Afterlife); every other card's action is
    ``None`` ("unknown", spec §2.2) and is logged as a generic action (effects.py)."""

    NUT = "nut"
    BROOCH = "brooch"
    DAGGER = "dagger"
    BRAIN_HOOK = "brain_hook"
    KHOPESH = "khopesh"
    BOW = "bow"
    NECKLACE = "necklace"
    OFFERING_CHAPEL = "offering_chapel"
    JUDGEMENT = "judgement"
    MIRROR_CASE = "mirror_case"
    RING = "ring"
    ANTECHAMBER = "antechamber"
    HOUNDS_AND_JACKALS = "hounds_and_jackals"
    AXE = "axe"                    # a reaction to a forced discard (Senet, another Axe)
    SENET = "senet"
    SERDAB = "serdab"
    VICTORY = "victory"


# --------------------------------------------------------------------------------------------
# Starters (spec §2.4): level I, 10 per player, identical in both boxes
# --------------------------------------------------------------------------------------------

STARTERS: tuple[str, ...] = ("shabti", "urn", "box_of_food", "offering_table")
STARTERS_PER_PLAYER: Mapping[str, int] = MappingProxyType({
    "shabti": 4, "urn": 3, "box_of_food": 2, "offering_table": 1})   # SEED l.66
STARTER_CARDS_PER_PLAYER = sum(STARTERS_PER_PLAYER.values())        # 10, SEED l.67
HAND_SIZE = 5                                                         # SEED l.67, turn step 4
STARTER_DECKS_PER_BOX = 4                                            # SEED l.19, l.355: "až pro 4"
STARTER_VP_DEFAULT: Mapping[str, int] = MappingProxyType({
    "shabti": 1,          # SEED l.227: "3 Vešebty (po 1 VB za každý)"
    "urn": 1,             # REVIEW, unverified (spec §2.4, §16 #12)
    "box_of_food": 1,     # REVIEW, unverified
    "offering_table": 1,  # REVIEW, unverified
})
STARTER_VP_VERIFIED: frozenset[str] = frozenset({"shabti"})


# --------------------------------------------------------------------------------------------
# Sets (spec §2.3, §2.6): id, box, printed number of titles, colour
# --------------------------------------------------------------------------------------------


class Colour(StrEnum):
    """Frame colours; sets of the same colour merge into supersets (spec §11)."""

    RED = "red"
    BROWN = "brown"
    YELLOW = "yellow"
    GREEN = "green"
    LIGHT_BLUE = "light_blue"


@dataclass(frozen=True)
class CardSet:
    id: str
    box: Box
    size: int                  # distinct titles, printed in brackets on the type line
    colour: Colour
    name_cs: str
    name_en: str
    source: str


SETS: Mapping[str, CardSet] = MappingProxyType({s.id: s for s in (
    # Afterlife: sizes SEED l.330-334 and l.373; colours red/brown/yellow from the superset
    # pairs (SEED l.345, l.357-358), green SEED l.57 ("všechny zbraně jsou zelené"), light blue
    # REVIEW/GEEK ("All tomb art ... light blue frame").
    CardSet("mummification", Box.AFTERLIFE, 3, Colour.RED, "Mumifikace", "Mummification",
            "SEED l.330, l.373"),
    CardSet("jewelry", Box.AFTERLIFE, 4, Colour.BROWN, "Šperky", "Jewelry", "SEED l.331, l.373"),
    CardSet("chambers", Box.AFTERLIFE, 5, Colour.YELLOW, "Komnaty", "Chambers",
            "SEED l.332, l.358, l.373 (l.340 says 4 titles: a slip, spec §16 #1)"),
    CardSet("weapons", Box.AFTERLIFE, 6, Colour.GREEN, "Zbraně", "Weapons", "SEED l.333, l.57"),
    CardSet("tomb_art", Box.AFTERLIFE, 7, Colour.LIGHT_BLUE, "Umění", "Tomb Art",
            "SEED l.334, l.373; colour: Afterlife rulebook (manualzz, spec §17)"),
    # The original box: sizes and the pairing SEED l.330-334; colours follow from the
    # same-colour supersets (SEED l.345, l.357-358); statuettes light blue [derived].
    CardSet("sarcophagi", Box.ORIGINAL, 3, Colour.RED, "Sarkofágy", "Sarcophagi", "SEED l.330"),
    CardSet("canopic_jars", Box.ORIGINAL, 4, Colour.BROWN, "Kanopy", "Canopic Jars",
            "SEED l.331"),
    CardSet("amulets", Box.ORIGINAL, 5, Colour.YELLOW, "Amulety", "Amulets", "SEED l.332"),
    CardSet("books", Box.ORIGINAL, 6, Colour.GREEN, "Knihy", "Books", "SEED l.333"),
    CardSet("statuettes", Box.ORIGINAL, 7, Colour.LIGHT_BLUE, "Sošky", "Statuettes",
            "SEED l.334"),
)})

SET_COPIES = 2                   # SEED l.340: "každá karta zastoupena celkem dvakrát"
HALF_SET_COPIES = 1              # SEED l.340: half sets keep one copy of each title
UNIQUES_PER_BOX = 6              # SPEC §2.3 (purple, 1 copy each); SEED l.373 "6 unikátních"
UNIQUES_SIX_PLAYERS = 10         # SEED l.358: "celkem 10 unikátních karet"
UNIQUE_COPIES = 1
UNIQUE = "unique"                # the ``card_set`` value of a unique card
PERFECT_SOLO_AFTERLIFE = 164     # SEED l.373
# SPEC §12.3: the perfect tomb less its sets (135) and starters (10); a cross-check only
AFTERLIFE_UNIQUE_VP_TOTAL = PERFECT_SOLO_AFTERLIFE - 135 - 10

SIZE_PAIRS: Mapping[int, tuple[str, str]] = MappingProxyType({   # SEED l.327-334
    3: ("mummification", "sarcophagi"),
    4: ("jewelry", "canopic_jars"),
    5: ("chambers", "amulets"),
    6: ("weapons", "books"),
    7: ("tomb_art", "statuettes"),
})
COLOUR_OF_SIZE: Mapping[int, Colour] = MappingProxyType({
    3: Colour.RED, 4: Colour.BROWN, 5: Colour.YELLOW, 6: Colour.GREEN, 7: Colour.LIGHT_BLUE})

COLOUR_LABELS: Mapping[str, str] = MappingProxyType({
    Colour.RED: N_("Red: Sarcophagi and Mummification"),
    Colour.BROWN: N_("Brown: Canopic Jars and Jewelry"),
    Colour.YELLOW: N_("Yellow: Amulets and Chambers"),
    Colour.GREEN: N_("Green: Books and Weapons"),
    Colour.LIGHT_BLUE: N_("Light blue: Statuettes and Tomb Art"),
})
SET_LABELS: Mapping[str, str] = MappingProxyType({
    "mummification": N_("Mummification"), "jewelry": N_("Jewelry"), "chambers": N_("Chambers"),
    "weapons": N_("Weapons"), "tomb_art": N_("Tomb Art"), "sarcophagi": N_("Sarcophagi"),
    "canopic_jars": N_("Canopic Jars"), "amulets": N_("Amulets"), "books": N_("Books"),
    "statuettes": N_("Statuettes"),
})


# --------------------------------------------------------------------------------------------
# Titles (spec §2.4-§2.6)
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Title:
    """One card title: the catalogue record of spec §2.2 (numbers None when unknown).

    ``sources`` names where each known field comes from; ``unverified`` the fields whose value
    is a default nobody confirmed on a physical card. ``placeholder`` is (set id, number) for a
    stand-in of an unnamed title."""

    id: str
    box: Box
    kind: Kind
    set_id: str | None              # the set for Kind.SET, None otherwise
    name_cs: str | None
    name_en: str | None
    copies_in_box: int | None       # None: 1 or 2, depending on the set no source states
    cost: int | None = None
    capital: int | None = None
    vp: int | None = None           # starters and uniques only; sets score by set (§10)
    action: Action | None = None
    level: int | None = None        # only starters are known (level I); spec §2.3
    sources: Mapping[str, str] = field(default_factory=dict)
    unverified: frozenset[str] = frozenset()
    placeholder: tuple[str, int] | None = None

    @property
    def verified(self) -> dict[str, bool]:
        """Per catalogue field: known and confirmed (spec §2.2 ``verified``)."""
        return {name: getattr(self, name) is not None and name not in self.unverified
                for name in ("name_cs", "name_en", "set_id", "cost", "capital", "vp")}


def _starter(id_: str, cs: str, en: str, vp_source: str) -> Title:
    unverified = frozenset() if id_ in STARTER_VP_VERIFIED else frozenset({"vp"})
    return Title(id_, Box.BOTH, Kind.STARTER, None, cs, en,
                 STARTERS_PER_PLAYER[id_] * STARTER_DECKS_PER_BOX,
                 vp=STARTER_VP_DEFAULT[id_], level=1,
                 sources={"name_cs": "SEED l.66", "name_en": "SPEC §2.4 (SUPPL terminology)",
                          "vp": vp_source, "copies_in_box": "SEED l.66 × 4 decks (SPEC §2.3)"},
                 unverified=unverified)


def _set_title(id_: str, set_id: str, cs: str | None, en: str | None, sources: dict[str, str],
               unverified: frozenset[str] = frozenset(), **numbers) -> Title:
    return Title(id_, SETS[set_id].box, Kind.SET, set_id, cs, en, SET_COPIES,
                 sources={"set_id": SETS[set_id].source, **sources}, unverified=unverified,
                 **numbers)


def _unique(id_: str, box: Box, cs: str | None, en: str | None, sources: dict[str, str],
            unverified: frozenset[str] = frozenset()) -> Title:
    return Title(id_, box, Kind.UNIQUE, None, cs, en, UNIQUE_COPIES, sources=sources,
                 unverified=unverified)


def _unplaced(id_: str, cs: str, en: str | None, sources: dict[str, str],
              action: Action | None, unverified: frozenset[str] = frozenset(),
              **numbers) -> Title:
    return Title(id_, Box.AFTERLIFE, Kind.UNKNOWN, None, cs, en, None, action=action,
                 sources=sources, unverified=unverified, **numbers)


_U = frozenset
_NAMED: tuple[Title, ...] = (
    # ---- starters (spec §2.4) ----
    _starter("shabti", "Vešebt", N_("Shabti"), "SEED l.227"),
    _starter("urn", "Nádoba", N_("Urn"), "REVIEW (spec §2.4), unverified"),
    _starter("box_of_food", "Truhla s jídlem", N_("Box of Food"),
             "REVIEW (spec §2.4), unverified"),
    _starter("offering_table", "Obětní stůl", N_("Offering Table"),
             "REVIEW (spec §2.4), unverified"),
    # ---- Afterlife: Mummification (3) ----
    _set_title("brain_hook", "mummification", "Hák na mozek", N_("Brain Hook"),
               {"name_cs": "SEED l.259", "name_en": "DIARY"}, action=Action.BRAIN_HOOK),
    _set_title("linen_bandages", "mummification", None, N_("Linen Bandages"),
               {"name_en": "DIARY ('linen bandages')"}),
    # ---- Afterlife: Jewelry (4) ----
    _set_title("ring", "jewelry", "Prsten", N_("Ring"),
               {"name_cs": "SEED l.289", "name_en": "DIARY"},
               action=Action.RING),
    _set_title("brooch", "jewelry", "Brož", N_("Brooch"),
               {"name_cs": "SEED l.253", "name_en": "translation (spec §2.5)"},
               unverified=_U({"set_id", "name_en"}), action=Action.BROOCH),
    _set_title("necklace", "jewelry", "Náhrdelník", N_("Necklace"),
               {"name_cs": "SEED l.273", "name_en": "translation (spec §2.5)"},
               unverified=_U({"set_id", "name_en"}), action=Action.NECKLACE),
    _set_title("bracelet", "jewelry", None, N_("Bracelet"), {"name_en": "DIARY"}),
    # ---- Afterlife: Chambers (5) ----
    _set_title("burial_chamber", "chambers", "Pohřební komora", N_("Burial Chamber"),
               {"name_cs": "SEED l.227 (a set card)", "name_en": "DIARY"}),
    _set_title("offering_chapel", "chambers", "Obětní kaple", N_("Offering Chapel"),
               {"name_cs": "SEED l.277", "name_en": "DIARY", "capital": "SEED l.176"},
               capital=2, action=Action.OFFERING_CHAPEL),
    _set_title("serdab", "chambers", "Serdab", N_("Serdab"),
               {"name_cs": "SEED l.307", "name_en": "DIARY"}, action=Action.SERDAB),
    _set_title("antechamber", "chambers", "Předsíň", N_("Antechamber"),
               {"name_cs": "SEED l.293 ('Předsín', spec §16 #24)",
                "name_en": "translation (spec §2.5)"},
               unverified=_U({"set_id", "name_en"}), action=Action.ANTECHAMBER),
    # ---- Afterlife: Weapons (6) ----
    _set_title("axe", "weapons", "Sekera", N_("Axe"),
               {"name_cs": "SEED l.227, l.301", "name_en": "translation (spec §2.5)"},
               action=Action.AXE),
    _set_title("dagger", "weapons", "Dýka", N_("Dagger"),
               {"name_cs": "SEED l.227, l.255", "name_en": "translation (spec §2.5)"},
               action=Action.DAGGER),
    _set_title("sling", "weapons", "Prak", N_("Sling"),
               {"name_cs": "SEED l.271", "name_en": "translation (spec §2.5)"}),
    _set_title("bow", "weapons", "Luk", N_("Bow"), {"name_cs": "SEED l.267", "name_en": "DIARY"},
               action=Action.BOW),
    _set_title("spear", "weapons", "Kopí", N_("Spear"),
               {"name_cs": "SEED l.176", "name_en": "DIARY", "capital": "SEED l.176"},
               capital=3),
    _set_title("khopesh", "weapons", "Kef-peseš", N_("Khopesh"),
               {"name_cs": "SEED l.263", "name_en": "translation (spec §2.5)"},
               unverified=_U({"set_id", "name_en"}), action=Action.KHOPESH),
    # ---- Afterlife: uniques (6) ----
    _unique("sphinx", Box.AFTERLIFE, "Sfinga", N_("Sphinx"),
            {"name_cs": "SEED l.223", "name_en": "translation (spec §2.5)"}),
    _unique("ibex_statuette", Box.AFTERLIFE, "Soška kozorožce", N_("Ibex Statuette"),
            {"name_cs": "SEED l.223", "name_en": "translation (spec §2.5)"}),
    # ---- Afterlife: named, set unknown (spec §2.5) ----
    _unplaced("nut", "Bohyně Nút", N_("Nut"), {"name_cs": "SEED l.249", "cost": "SEED l.172",
                                           "name_en": "translation (spec §2.5)"},
              Action.NUT, unverified=_U({"name_en"}), cost=4),
    _unplaced("judgement", "Posmrtný soud", N_("Judgement of the Dead"),
              {"name_cs": "SEED l.281", "name_en": "translation (spec §2.5: English title "
                                                    "unknown)"},
              Action.JUDGEMENT, unverified=_U({"name_en"})),
    _unplaced("victory", "Vítězství", N_("Victory"),
              {"name_cs": "SEED l.311", "name_en": "translation (spec §2.5)"}, Action.VICTORY,
              unverified=_U({"name_en"})),
    _unplaced("hounds_and_jackals", "Psi a šakali", N_("Hounds and Jackals"),
              {"name_cs": "SEED l.297",
               "name_en": "the ancient game's usual English name (spec §2.5)"},
              Action.HOUNDS_AND_JACKALS, unverified=_U({"name_en"})),
    _unplaced("senet", "Senet", N_("Senet"), {"name_cs": "SEED l.303", "name_en": "SEED l.303"},
              Action.SENET),
    _unplaced("mirror_case", "Pouzdro na zrcadlo", N_("Mirror Case"),
              {"name_cs": "SEED l.285", "name_en": "translation (spec §2.5)"},
              Action.MIRROR_CASE, unverified=_U({"name_en"})),
    # ---- original: Canopic Jars (4): the Sons of Horus (spec §2.6) ----
    _set_title("qebehsenuef", "canopic_jars", None, N_("Qebehsenuef"),
               {"name_en": "spec §2.6 [ext]"}),
    _set_title("imsety", "canopic_jars", None, N_("Imsety"), {"name_en": "spec §2.6 [unverified]"},
               unverified=_U({"name_en"})),
    _set_title("hapy", "canopic_jars", None, N_("Hapy"), {"name_en": "spec §2.6 [unverified]"},
               unverified=_U({"name_en"})),
    _set_title("duamutef", "canopic_jars", None, N_("Duamutef"),
               {"name_en": "spec §2.6 [unverified]"}, unverified=_U({"name_en"})),
    # ---- original: Amulets (5), Books (6), Statuettes (7) ----
    _set_title("tyet_amulet", "amulets", None, N_("Tyet Amulet"), {"name_en": "spec §2.6 [ext]"}),
    _set_title("book_of_gates", "books", None, N_("Book of Gates"), {"name_en": "SUPPL"}),
    _set_title("book_of_the_dead", "books", None, N_("Book of the Dead"), {"name_en": "SUPPL"}),
    _set_title("book_of_the_earth", "books", None, N_("Book of the Earth"), {"name_en": "SUPPL"}),
    _set_title("book_of_the_heavens", "books", None, N_("Book of the Heavens"),
               {"name_en": "SUPPL"}),
    _set_title("book_of_the_netherworld", "books", None, N_("Book of the Netherworld"),
               {"name_en": "SUPPL"}),
    _set_title("book_of_traversing_eternity", "books", None, N_("Book of Traversing Eternity"),
               {"name_en": "SUPPL"}),
    _set_title("statue_of_thoth", "statuettes", None, N_("Statue of Thoth"),
               {"name_en": "spec §2.6 [ext]"}),
    # ---- original: uniques (6); Boat and Censer "probably unique" (spec §2.6) ----
    _unique("boat", Box.ORIGINAL, None, N_("Boat"), {"name_en": "SUPPL", "kind": "spec §2.6"},
            unverified=_U({"kind"})),
    _unique("censer", Box.ORIGINAL, None, N_("Censer"),
            {"name_en": "spec §2.6", "kind": "spec §2.6"},
            unverified=_U({"kind"})),
)


def _placeholders() -> tuple[Title, ...]:
    """Stand-ins for the titles no source names (spec §2.5: "Tomb Art #5 (unknown title)"),
    numbered after the named titles of their set; uniques likewise per box."""
    named_per_set: dict[str, int] = {}
    uniques_per_box: dict[Box, int] = {}
    for title in _NAMED:
        if title.kind is Kind.SET:
            named_per_set[title.set_id] = named_per_set.get(title.set_id, 0) + 1
        elif title.kind is Kind.UNIQUE:
            uniques_per_box[title.box] = uniques_per_box.get(title.box, 0) + 1
    stand_ins: list[Title] = []
    for card_set in SETS.values():
        for number in range(named_per_set.get(card_set.id, 0) + 1, card_set.size + 1):
            stand_ins.append(Title(f"{card_set.id}_{number}", card_set.box, Kind.SET,
                                   card_set.id, None, None, SET_COPIES,
                                   sources={"set_id": card_set.source},
                                   placeholder=(card_set.id, number)))
    for box in (Box.AFTERLIFE, Box.ORIGINAL):
        for number in range(uniques_per_box.get(box, 0) + 1, UNIQUES_PER_BOX + 1):
            stand_ins.append(Title(f"{box.value}_unique_{number}", box, Kind.UNIQUE, None, None,
                                   None, UNIQUE_COPIES, sources={"kind": "SPEC §2.3"},
                                   placeholder=(f"{box.value}_unique", number)))
    return tuple(stand_ins)


TITLES: Mapping[str, Title] = MappingProxyType({t.id: t for t in _NAMED + _placeholders()})
UNPLACED: tuple[str, ...] = tuple(t.id for t in TITLES.values() if t.kind is Kind.UNKNOWN)
# Titles whose set (or uniqueness) the group may state or correct for its copy: the six with
# none, and the placements the spec marks unverified.
PLACEABLE: tuple[str, ...] = UNPLACED + tuple(
    t.id for t in TITLES.values() if t.placeholder is None and (
        "set_id" in t.unverified or "kind" in t.unverified))

def set_titles(set_id: str) -> list[str]:
    """The titles printed for ``set_id`` in the catalogue, named first, then stand-ins."""
    return [t.id for t in TITLES.values() if t.kind is Kind.SET and t.set_id == set_id]


def unique_titles(box: Box) -> list[str]:
    """The unique titles of ``box`` in the catalogue, named first, then stand-ins."""
    return [t.id for t in TITLES.values() if t.kind is Kind.UNIQUE and t.box is box]


# Every set has exactly its printed number of titles (named + stand-ins), every box 6 uniques,
# and spec §2.5's count: 24 named non-starter Afterlife titles, 13 open slots.
assert all(len(set_titles(s.id)) == s.size for s in SETS.values())
assert all(len(unique_titles(box)) == UNIQUES_PER_BOX for box in (Box.AFTERLIFE, Box.ORIGINAL))
assert sum(1 for t in TITLES.values() if t.box is Box.AFTERLIFE and t.placeholder is None) == 24
assert sum(1 for t in TITLES.values() if t.box is Box.AFTERLIFE and t.placeholder) == 13


PLACEHOLDER_LABEL = N_("%(set)s #%(number)d (unknown title)")
UNIQUE_PLACEHOLDER_LABEL = N_("Unique artifact #%(number)d (unknown title)")
UNKNOWN_CARD = "?"          # a card the table entered as just "a card" (spec §13, issue 12)
UNKNOWN_CARD_LABEL = N_("a card")


def title_label(title_id: str, lang: str = "en") -> str:
    """A title's catalogue name in ``lang`` (cs or en), else the other language, else the
    placeholder's English wording. Pages, refusals and printouts name a card with
    :func:`.names.name` (the reader's language, then the printed name) instead."""
    if title_id == UNKNOWN_CARD:
        return UNKNOWN_CARD_LABEL
    title = TITLES.get(title_id)
    if title is None:
        return title_id
    first, second = (title.name_cs, title.name_en) if lang == "cs" else (title.name_en,
                                                                          title.name_cs)
    if first or second:
        return first or second or title_id
    owner, number = title.placeholder or ("", 0)
    if owner in SETS:
        return PLACEHOLDER_LABEL % {"set": SETS[owner].name_en, "number": number}
    return UNIQUE_PLACEHOLDER_LABEL % {"number": number}


def _fold(text: str) -> str:
    return " ".join(text.replace("_", " ").replace("-", " ").split()).casefold()


_BY_NAME: Mapping[str, str] = MappingProxyType({
    key: t.id for t in TITLES.values()
    for key in (_fold(t.id), _fold(t.name_en or ""), _fold(t.name_cs or "")) if key})


def find_title(text: str) -> str | None:
    """The title id written as ``text`` (its id, English or Czech name; any case)."""
    return _BY_NAME.get(_fold(text))


# --------------------------------------------------------------------------------------------
# Scoring (spec §10): a group scores the square of its distinct titles
# --------------------------------------------------------------------------------------------

# The printed table (SEED l.229-236), also the squares the score pad prints (spec §14).
SET_SCORE_TABLE: Mapping[int, int] = MappingProxyType({1: 1, 2: 4, 3: 9, 4: 16, 5: 25, 6: 36,
                                                       7: 49})


def group_points(distinct: int) -> int:
    """SEED l.223: "umocnit toto číslo na druhou"; the printed table stops at 7, larger
    supersets follow the same rule (SPEC §10)."""
    return distinct * distinct


assert all(group_points(n) == points for n, points in SET_SCORE_TABLE.items())


# --------------------------------------------------------------------------------------------
# Setup numbers (spec §3)
# --------------------------------------------------------------------------------------------

PYRAMID_CARDS = 6                # SEED l.69
OPENING_BONEYARD_CARDS = 1       # SEED l.70
REBUILD_SACRIFICES = 1           # SEED turn step 3
BRAIN_HOOK_DISCOUNT = 2          # SEED l.259
PLAYER_COUNTS: tuple[int, ...] = (1, 2, 3, 4, 5, 6)   # SEED: 1-4; 5-6 with the original (§11.4)


# --------------------------------------------------------------------------------------------
# Edition data ("our copy", design.md §2): one table, every unknown printed value
# --------------------------------------------------------------------------------------------

def _known(attribute: str) -> dict[str, int]:
    return {t.id: getattr(t, attribute) for t in TITLES.values()
            if getattr(t, attribute) is not None and t.kind is not Kind.STARTER}


EDITION_DEFAULTS: Mapping[str, Mapping[str, object]] = MappingProxyType({
    # spec §2.4, §16 #12: Shabti 1 (SEED), the others 1 (REVIEW, unverified)
    "starter_vp": MappingProxyType(dict(STARTER_VP_DEFAULT)),
    # spec §2.7, §16 #13: printed on each unique; no source gives one
    "unique_vp": MappingProxyType({}),
    # spec §2.7: the printed cost and capital; only these three are known (SEED l.172, l.176)
    "cost": MappingProxyType(_known("cost")),
    "capital": MappingProxyType(_known("capital")),
    # spec §2.5: which set (or "unique") each unplaced or unverified title belongs to
    "card_set": MappingProxyType({
        t.id: (t.set_id if t.kind is Kind.SET else UNIQUE) for t in TITLES.values()
        if t.id in PLACEABLE and t.kind is not Kind.UNKNOWN}),
})

EDITION_LABELS: Mapping[str, str] = MappingProxyType({
    "starter_vp": N_("Victory points printed on the starter cards"),
    "unique_vp": N_("Victory points printed on the unique artifacts"),
    "cost": N_("Cost printed on each card"),
    "capital": N_("Capital printed on each card"),
    "card_set": N_("Set of each card whose colour we had to look up"),
})
EDITION_SOURCES: Mapping[str, str] = MappingProxyType({
    "starter_vp": "spec §2.4, §16 #12 (Shabti SEED l.227; the others REVIEW, unverified)",
    "unique_vp": "spec §2.7, §16 #13 (printed on each card; no source)",
    "cost": "spec §2.7 (Nut 4: SEED l.172)",
    "capital": "spec §2.7 (Offering Chapel 2, Spear 3: SEED l.176)",
    "card_set": "spec §2.5, §2.6 (unverified placements; six names without a set)",
})


# --------------------------------------------------------------------------------------------
# Labels (msgids) for what a Scoresheet holds
# --------------------------------------------------------------------------------------------

STARTER_LABELS: Mapping[str, str] = MappingProxyType({
    "shabti": N_("Shabti"), "urn": N_("Urn"), "box_of_food": N_("Box of Food"),
    "offering_table": N_("Offering Table")})

CATEGORY_LABELS: Mapping[str, str] = MappingProxyType({
    **STARTER_LABELS,
    "uniques": N_("Unique artifacts"),
    **SET_LABELS,
    **COLOUR_LABELS,
    "solo_goal": N_("Solo: the perfect tomb"),
})
REASON_LABELS: Mapping[str, str] = MappingProxyType({
    "solo_pairs_excluded": N_("solo: a title held twice counts for neither"),
    "perfect": N_("perfect tomb: every title once, every unique and every starter"),
    "not_perfect": N_("not the perfect tomb"),
    "vp_check_failed": N_("perfect tomb, but the entered VPs do not add up to the expected "
                          "total: check them"),
})
TIEBREAK_FEWER_TOMB_CARDS = "valley.fewer_tomb_cards"     # SEED l.223, spec §10
TIEBREAK_LABELS: Mapping[str, str] = MappingProxyType({
    TIEBREAK_FEWER_TOMB_CARDS: N_("fewer cards in the tomb")})
