"""Imhotep: every printed number the referee and the scorer use, each with its source.

Spec: shared/rules/imhotep.md (§2 components and A-side data, §2.6 market cards, §6.2 B-side
data). Sources, cited by the short names used below:

  SEED  — shared/seeds/004_fdc14cd437b6380b.txt, OCR of the Czech KOSMOS rulebook. It is the
          **default edition**: where it and the spec (or the English text) disagree, the seed's
          edition wins. The disagreements that matter here (spec §6.6):
            * the OCR reads "20 dřevěných kostiček"; it also says 30 per colour × 4 colours, so
              the box holds 120 (OCR damage, not a different edition);
            * the statue table's numbers are lost in the OCR ("(113"): taken from TK16/RP;
            * the market pick: SEED "si jeho majitel okamžitě vezme jednu z karet" (the owner
              takes one) against TK16 "can take": mandatory by default (option
              ``market_pick_mandatory``);
            * Pyramids B: SEED "na kterou ze tří pyramid" (3 pyramids) against a review's 4: 3.
  TK16  — Thames & Kosmos English rulebook 692384-02-060716 (same rules as SEED).
  RP    — English transcription with the table values (borisyankov/rulespal, spec §9).
  IMPL  — five independent implementations (spec §9), for numbers printed only on boards,
          ship tokens and round cards. "Agreed" means all of them give the same numbers; these
          are treated as verified but worth re-checking against a physical copy.
  SPEC  — shared/rules/imhotep.md, for defaults it chose where no printed text exists.

Numbers printed only on components, on which the implementations agree (ship minimums, the
Pyramid A values, the 2- and 4-player round cards, the first five 3-player cards, the red
cards' sites), are treated as verified, as spec §6.2 says, and marked IMPL: re-check them on a
physical copy. Values that no available text prints and the sources do not settle are
**unverified** (spec §2.3, §6.2): the 3-player round cards 6-7 and the B-side data. They all
live in :data:`UNVERIFIED_DEFAULTS`, one table. Together with the printed round-card lists of
2 and 4 players (verified, but a copy may differ) they are the game's edition data
(:data:`EDITION`, "our copy", design.md §2): a group enters its copy's values once and every
table and score sheet uses them; nothing else in the package hard-codes them.
"""

from __future__ import annotations

from types import MappingProxyType
from typing import Any, Mapping, Sequence

from ..base import (Assumption, ChoiceField, EditionValue, IntField, ListField, N_,
                    RuleViolation, Term, TextField)

# --------------------------------------------------------------------------------------------
# Components (SEED "HERNÍ MATERIÁL"; spec §2.1)
# --------------------------------------------------------------------------------------------

COLOURS: tuple[str, ...] = ("black", "white", "brown", "gray")   # SEED: černá, bílá, hnědá, šedá
STONES_PER_COLOUR = 30          # SEED: "30 v každé ze 4 herních barev" (the "20" is OCR damage)
SCORE_MARKERS_PER_COLOUR = 1    # SEED: "Každý hráč umístí jeden kámen své barvy na políčko 0/40"
PLAYABLE_STONES = STONES_PER_COLOUR - SCORE_MARKERS_PER_COLOUR   # 29
SLED_CAPACITY = 5               # SEED: "Vaše destička saní má políčka pro nejvýše 5 kamenů"
STONES_PER_TAKE = 3             # SEED: "Vezměte si z kamenolomu 3 kameny své barvy"
STARTING_SLED: tuple[int, ...] = (2, 3, 4, 5)   # SEED, by seat order from the start player
ROUNDS = 6                      # SEED: "Hra se skládá ze 6 kol"
PLAYER_COUNTS: tuple[int, ...] = (2, 3, 4)      # SEED: "PRO 2-4 HRÁČE"

SITES: tuple[str, ...] = ("market", "pyramids", "temple", "burial_chamber", "obelisks")
MONUMENTS: tuple[str, ...] = ("pyramids", "temple", "burial_chamber", "obelisks")  # Wrath §6.4
SIDES: tuple[str, ...] = ("A", "B")

# --------------------------------------------------------------------------------------------
# Ships (spec §2.2). Token counts: SEED "Dvě lodě mají prostor pro 4 kameny, tři ... pro 3,
# dvě ... pro 2 a jedna ... pro 1". Minimums are printed only as grey stones at each bow
# (SEED: "Minimální požadovaný počet ... stanovují šedé symboly kamenů na přídi"): IMPL, agreed.
# --------------------------------------------------------------------------------------------

SHIP_TOKENS: Mapping[int, int] = MappingProxyType({4: 2, 3: 3, 2: 2, 1: 1})
SHIP_MINIMUM: Mapping[int, int] = MappingProxyType({4: 3, 3: 2, 2: 1, 1: 1})   # IMPL, agreed
SHIPS_PER_ROUND = 4

# Round cards (printed only on the cards; IMPL). Seven per player count, one set aside unseen.
# The 2- and 4-player sets agree between sources; for 3 players the first five agree and
# cards 6-7 are unverified (they come from UNVERIFIED_DEFAULTS["round_cards_3p"]).
ROUND_CARDS: Mapping[int, tuple[tuple[int, ...], ...]] = MappingProxyType({
    2: ((4, 3, 2, 2), (4, 3, 3, 1), (4, 2, 2, 1), (4, 3, 2, 1), (3, 2, 2, 1), (3, 3, 2, 2),
        (3, 3, 2, 1)),
    3: ((4, 3, 2, 1), (4, 3, 2, 2), (4, 4, 2, 1), (4, 2, 2, 1), (3, 3, 3, 2)),
    4: ((4, 4, 2, 1), (4, 3, 3, 2), (4, 3, 3, 3), (3, 3, 3, 2), (4, 4, 3, 2), (4, 4, 2, 2),
        (4, 3, 2, 2)),
})


def fits_tokens(ships: Sequence[int]) -> bool:
    """Four capacities the eight ship tokens can provide (spec §2.3, IM_BAD_ROUND_CARD)."""
    return (len(ships) == SHIPS_PER_ROUND and all(c in SHIP_TOKENS for c in ships)
            and all(list(ships).count(c) <= n for c, n in SHIP_TOKENS.items()))


# --------------------------------------------------------------------------------------------
# Player-count table (spec §2.4)
# --------------------------------------------------------------------------------------------

TEMPLE_A_WIDTH: Mapping[int, int] = MappingProxyType({2: 4, 3: 5, 4: 5})
# SEED: "Hrají-li 3 nebo 4 hráči, zakryje se všech 5 polí chrámu. Hrají-li 2 hráči, ... první 4"
OBELISK_A_RANK_POINTS: Mapping[int, tuple[int, ...]] = MappingProxyType({
    2: (10, 1),              # SEED: "nejvyšší obelisk, obdrží 10 bodů ... druhý ... 1 bod"
    3: (12, 6, 1),           # SEED: 12 / 6 / 1
    4: (15, 10, 5, 1),       # SEED: 15 / 10 / 5 / 1
})

# --------------------------------------------------------------------------------------------
# A sides (spec §2.5)
# --------------------------------------------------------------------------------------------

# Pyramid A: 14 spaces filled level by level, column by column from the top left (SEED
# "Kameny se do pyramidy pokládají po sloupcích"). The values are printed on the board: IMPL,
# agreed. Placement n (1-based) scores PYRAMID_A_VALUES[n - 1]; later stones go beside the
# board and score 1 (SEED "každý další kámen ... vynese 1 bod").
PYRAMID_A_VALUES: tuple[int, ...] = (2, 1, 3, 2, 4, 3, 2, 1, 3, 2, 3, 1, 3, 4)
PYRAMID_OVERFLOW_POINTS = 1
assert sum(PYRAMID_A_VALUES) == 34

BURIAL_CHAMBER_ROWS = 3          # SEED: three rows, filled column by column, unlimited right
# Group points (SEED "1x 2x 3x 4x 5x ... Body: 1 3 6 10 15 +2"); also the statue table.
GROUP_POINTS: tuple[int, ...] = (0, 1, 3, 6, 10, 15)
GROUP_POINTS_BEYOND = 2          # per stone beyond 5

TEMPLE_POINTS_PER_VISIBLE_STONE = 1   # SEED: "Každý kámen viditelný shora přinese 1 bod"

# --------------------------------------------------------------------------------------------
# Market cards (spec §2.6). Counts: SEED "Vchod, sarkofág, dlažba (každá 2x)", "Dekorace ...
# (každá 2x)", "Socha (10x)", "Páka (2x)", "Kladivo (2x)", "Plachta (3x)", "Dláto (3x)".
# The sites of the red cards are printed only on the cards (IMPL card art).
# --------------------------------------------------------------------------------------------

RED, GREEN, PURPLE, BLUE = "red", "green", "purple", "blue"
MARKET_CARDS: Mapping[str, tuple[str, int]] = MappingProxyType({
    "entrance": (RED, 2),
    "sarcophagus": (RED, 2),
    "paved_path": (RED, 2),
    "pyramid_decoration": (GREEN, 2),
    "temple_decoration": (GREEN, 2),
    "burial_chamber_decoration": (GREEN, 2),
    "obelisk_decoration": (GREEN, 2),
    "statue": (PURPLE, 10),
    "lever": (BLUE, 2),
    "hammer": (BLUE, 2),
    "sail": (BLUE, 3),
    "chisel": (BLUE, 3),
})
DECK: Mapping[str, int] = MappingProxyType({kind: n for kind, (_, n) in MARKET_CARDS.items()})
DECK_SIZE = 34
assert sum(DECK.values()) == DECK_SIZE
CARD_KINDS: tuple[str, ...] = tuple(MARKET_CARDS)
RED_CARDS: tuple[str, ...] = tuple(k for k, (c, _) in MARKET_CARDS.items() if c == RED)
BLUE_CARDS: tuple[str, ...] = tuple(k for k, (c, _) in MARKET_CARDS.items() if c == BLUE)
DECORATION_CARDS: tuple[str, ...] = tuple(k for k, (c, _) in MARKET_CARDS.items() if c == GREEN)
KEPT_CARDS: tuple[str, ...] = ("statue",) + DECORATION_CARDS + BLUE_CARDS   # held at the end
RED_CARD_SITE: Mapping[str, str] = MappingProxyType({
    "entrance": "pyramids", "sarcophagus": "burial_chamber", "paved_path": "obelisks"})
DECORATION_SITE: Mapping[str, str] = MappingProxyType({
    "pyramid_decoration": "pyramids", "temple_decoration": "temple",
    "burial_chamber_decoration": "burial_chamber", "obelisk_decoration": "obelisks"})
MARKET_A_DISPLAY = 4             # SEED: "otočte licem nahoru 4 vrchní karty trhu"
MARKET_B_OPEN = 3                # SEED B: the bottom-right space gets 2 face-down cards
MARKET_B_PAIR = 2

STONES_PER_DECORATION_POINT = 3  # SEED: "1 bod za každé 3 kameny"
BLUE_CARD_POINTS = 1             # SEED: "Nepoužité modré karty trhu vynesou navíc po 1 bodu"
WRATH_PENALTY = 5                # SEED "FARAONŮV HNĚV": "musí odečíst 5 bodů"

# --------------------------------------------------------------------------------------------
# B sides: verified values (SEED "VARIANTA: B")
# --------------------------------------------------------------------------------------------

PYRAMID_B_BONUS_SPACE_POINTS = 1   # SEED: "Obdržíte 1 bod a můžete ..."
PYRAMID_B_BONUS_STONES = 3         # SEED bonus b: "vzít 3 kameny z kamenolomu"
TEMPLE_B_CHOICE_POINTS = 1         # SEED: "Buď obdržíte 1 bod, nebo ... 2 kameny"
TEMPLE_B_CHOICE_STONES = 2
TEMPLE_B_TWO_POINTS = 2            # SEED: "Obdržíte 2 body"
OBELISK_B_TOWER_STONES = 3         # SEED: "Když je dodán třetí kámen stejné barvy"
OBELISK_B_SINGLE_POINTS = 1        # SEED: "Jednotlivé kameny ... vynesou ... po 1 bodu"

PYRAMID_B_BONUSES: tuple[str, ...] = ("card", "stones", "ship")   # SEED bonuses a, b, c
TEMPLE_B_SPACES: tuple[str, ...] = ("choice", "two", "card")

# --------------------------------------------------------------------------------------------
# Unverified data (spec §2.3, §6.2): one table, overridable per table with options["b_values"]
# --------------------------------------------------------------------------------------------

UNVERIFIED_DEFAULTS: Mapping[str, Any] = MappingProxyType({
    # 3-player round cards 6 and 7 (spec §2.3): the sources disagree.
    "round_cards_3p": ((4, 3, 3, 2), (3, 3, 2, 1)),
    # Pyramids B: each pyramid's spaces in fill order. An int is a space's points; a bonus
    # name ("card", "stones", "ship") is a bonus space: 1 point plus that optional bonus.
    # Default: level 1 = 2×2 spaces of 2 points, level 2 = 1 space of 4 (the 4 is verified:
    # SEED "Každý kámen na druhé úrovni pyramidy vynese 4 body"); no bonus spaces.
    "pyramids_b": ((2, 2, 2, 2, 4), (2, 2, 2, 2, 4), (2, 2, 2, 2, 4)),
    # Temple B: the bonus of each of the 5 spaces, left to right; the rulebook example implies
    # 3 CHOICE, 1 TWO, 1 CARD.
    "temple_b": ("choice", "two", "choice", "card", "choice"),
    # Temple B width with 2 players (side A uses the first 4 spaces).
    "temple_b_width_2p": 4,
    # Burial Chamber B rank points per row: 8 / 4 / 2 verified (SEED example), the 4th not.
    "burial_chamber_b": (8, 4, 2, 1),
    # Obelisks B tower spaces (the example's best free space was worth 9).
    "obelisks_b": (12, 11, 10, 9, 8, 7, 6, 5),
})

# Which unverified entries matter for which choice (for the "unverified board data" notice).
UNVERIFIED_USED_BY: Mapping[str, str] = MappingProxyType({
    "pyramids_b": "pyramids", "temple_b": "temple", "temple_b_width_2p": "temple",
    "burial_chamber_b": "burial_chamber", "obelisks_b": "obelisks"})


# Burial Chamber B: 8/4/2 are printed (SEED example); only the 4th value is unverified, and a
# row's 4th place (or a tie reaching it) needs a 4th player (spec §6.1, §6.2).
BURIAL_B_UNVERIFIED_FROM_PLAYERS = 4


def unverified_in_use(sides: Mapping[str, str], players: int) -> list[str]:
    """The unverified entries a table with these sides and player count relies on (the
    "unverified board data" notice of spec §6.2)."""
    used = [key for key, site in UNVERIFIED_USED_BY.items() if sides.get(site) == "B"
            and (key != "temple_b_width_2p" or players == 2)
            and (key != "burial_chamber_b" or players >= BURIAL_B_UNVERIFIED_FROM_PLAYERS)]
    return (["round_cards_3p"] if players == 3 else []) + used


def score_assumptions(keys: Sequence[str], values: Mapping[str, Any]) -> tuple[Assumption, ...]:
    """The Scoresheet.assumed entries for unverified ``keys`` left at their defaults. The
    3-player round cards are left out: E21 accepts any token-legal card, so no result depends
    on which cards 6-7 are."""
    return tuple(Assumption(key, EDITION_LABELS[key], values[key]) for key in keys
                 if key != "round_cards_3p")


def _as_plain(value: Any) -> Any:
    """Tuples to lists, recursively (the state and documents are plain JSON)."""
    if isinstance(value, (tuple, list)):
        return [_as_plain(v) for v in value]
    return value


# The printed round-card lists (spec §2.3, IMPL, agreed): verified, but a copy may differ.
VERIFIED_EDITION_DEFAULTS: Mapping[str, Any] = MappingProxyType({
    "round_cards_2p": ROUND_CARDS[2], "round_cards_4p": ROUND_CARDS[4]})
EDITION_DEFAULTS: Mapping[str, Any] = MappingProxyType({
    "round_cards_2p": ROUND_CARDS[2], "round_cards_3p": UNVERIFIED_DEFAULTS["round_cards_3p"],
    "round_cards_4p": ROUND_CARDS[4],
    **{key: value for key, value in UNVERIFIED_DEFAULTS.items() if key != "round_cards_3p"}})


def default_b_values() -> dict[str, Any]:
    """A fresh JSON copy of every edition default (the board data in force without entries)."""
    return {key: _as_plain(value) for key, value in EDITION_DEFAULTS.items()}


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _bad(path: str, expected: str) -> RuleViolation:
    return RuleViolation("imhotep.bad_b_values",
                         N_("This board value is not valid: %(expected)s."), path,
                         expected=Term(expected))


# What each entry must look like (shown in the message; translated as a Term).
_EXPECTED: Mapping[str, str] = MappingProxyType({
    "round_cards_2p": N_("seven round cards of four ship sizes (1 to 4) that the ship tokens "
                         "allow"),
    "round_cards_4p": N_("seven round cards of four ship sizes (1 to 4) that the ship tokens "
                         "allow"),
    "round_cards_3p": N_("two round cards of four ship sizes (1 to 4) that the ship tokens "
                         "allow"),
    "pyramids_b": N_("1 to 4 pyramids, each 1 to 9 spaces; a space is its points (0 to 20) "
                     "or a bonus: card, stones or ship"),
    "temple_b": N_("the 5 temple spaces, each choice, two or card"),
    "temple_b_width_2p": N_("a width from 1 to 5"),
    "burial_chamber_b": N_("4 rank points from 0 to 50"),
    "obelisks_b": N_("1 to 12 tower values from 0 to 50"),
    "": N_("an object with the entries round_cards_2p, round_cards_3p, round_cards_4p, "
           "pyramids_b, temple_b, temple_b_width_2p, burial_chamber_b, obelisks_b"),
})


def _check_entry(key: str, value: Any, path: str) -> tuple[Any, RuleViolation | None]:
    """One override entry: its clean JSON value, or the first problem found in it."""
    wrong = _bad(path, _EXPECTED[key])

    def ints(items: Any, low: int, high: int, most: int, least: int = 1) -> list[int] | None:
        if not isinstance(items, list) or not least <= len(items) <= most:
            return None
        if not all(_is_int(v) and low <= v <= high for v in items):
            return None
        return list(items)

    if key.startswith("round_cards_"):
        if not isinstance(value, list) or len(value) != len(EDITION_DEFAULTS[key]):
            return None, wrong
        cards = []
        for i, card in enumerate(value):
            ships = ints(card, 1, 4, 4, 4)
            if ships is None or not fits_tokens(ships):
                return None, _bad(f"{path}.{i}", _EXPECTED[key])
            cards.append(sorted(ships, reverse=True))
        return cards, None
    if key == "pyramids_b":
        if not isinstance(value, list) or not 1 <= len(value) <= 4:
            return None, wrong
        pyramids = []
        for p, spaces in enumerate(value):
            if not isinstance(spaces, list) or not 1 <= len(spaces) <= 9:
                return None, _bad(f"{path}.{p}", _EXPECTED[key])
            for i, space in enumerate(spaces):
                if not ((_is_int(space) and 0 <= space <= 20) or space in PYRAMID_B_BONUSES):
                    return None, _bad(f"{path}.{p}.{i}", _EXPECTED[key])
            pyramids.append(list(spaces))
        return pyramids, None
    if key == "temple_b":
        if (not isinstance(value, list) or len(value) != 5
                or not all(isinstance(v, str) and v in TEMPLE_B_SPACES for v in value)):
            return None, wrong
        return list(value), None
    if key == "temple_b_width_2p":
        return (value, None) if _is_int(value) and 1 <= value <= 5 else (None, wrong)
    if key == "burial_chamber_b":
        points = ints(value, 0, 50, 4, 4)
        return (points, None) if points is not None else (None, wrong)
    points = ints(value, 0, 50, 12)          # obelisks_b
    return (points, None) if points is not None else (None, wrong)


def resolve_b_values(override: Any, path: str = "options.b_values"
                     ) -> tuple[dict[str, Any], list[RuleViolation]]:
    """The unverified table with a host's overrides applied: (values, problems).

    ``override`` is None or an object with any of the keys of EDITION_DEFAULTS; a key left
    out keeps its default. Problems name the dotted path of the offending value.
    """
    values = default_b_values()
    if override is None:
        return values, []
    if not isinstance(override, Mapping):
        return values, [_bad(path, _EXPECTED[""])]
    problems = []
    for key, value in override.items():
        if key not in EDITION_DEFAULTS:
            problems.append(RuleViolation("schema.unknown_key", N_("Unknown entry “%(key)s”."),
                                          f"{path}.{key}", key=str(key)))
            continue
        clean, problem = _check_entry(key, value, f"{path}.{key}")
        if problem is not None:
            problems.append(problem)
        else:
            values[key] = clean
    return values, problems


def round_cards(players: int, b_values: Mapping[str, Any]) -> list[list[int]]:
    """The seven round cards of our copy for this player count (3 players: the printed first
    five, then cards 6-7 of the edition data)."""
    if players == 3:
        return ([list(card) for card in ROUND_CARDS[3]]
                + [list(card) for card in b_values["round_cards_3p"]])
    return [list(card) for card in b_values[f"round_cards_{players}p"]]


# --------------------------------------------------------------------------------------------
# Names shown to people (translated by the web layer)
# --------------------------------------------------------------------------------------------

CATEGORY_LABELS: Mapping[str, str] = MappingProxyType({
    "track": N_("Scoring track"),
    "burial_chamber": N_("Burial chamber"),
    "obelisks": N_("Obelisks"),
    "pyramid_decoration": N_("Pyramid decoration"),
    "temple_decoration": N_("Temple decoration"),
    "burial_chamber_decoration": N_("Burial chamber decoration"),
    "obelisk_decoration": N_("Obelisk decoration"),
    "statues": N_("Statues"),
    "blue_cards": N_("Unused blue cards"),
    "wrath": N_("Wrath of the Pharaoh"),
})

REASON_LABELS: Mapping[str, str] = MappingProxyType({
    "shared": N_("tie, shared and rounded down"),
    "no_stones": N_("no stones there"),
    "missing_monument": N_("missing a monument"),
})

CARD_LABELS: Mapping[str, Term] = MappingProxyType({
    "entrance": Term(N_("Entrance")),
    "sarcophagus": Term(N_("Sarcophagus")),
    "paved_path": Term(N_("Paved path")),
    "pyramid_decoration": Term(N_("Pyramid decoration")),
    "temple_decoration": Term(N_("Temple decoration")),
    "burial_chamber_decoration": Term(N_("Burial chamber decoration")),
    "obelisk_decoration": Term(N_("Obelisk decoration")),
    "statue": Term(N_("Statue")),
    "lever": Term(N_("Lever")),
    "hammer": Term(N_("Hammer")),
    "sail": Term(N_("Sail")),
    "chisel": Term(N_("Chisel")),
})

COLOUR_LABELS: Mapping[str, Term] = MappingProxyType({
    "black": Term(N_("black")), "white": Term(N_("white")), "brown": Term(N_("brown")),
    "gray": Term(N_("gray")),
})

SITE_LABELS: Mapping[str, Term] = MappingProxyType({
    "market": Term(N_("Market")), "pyramids": Term(N_("Pyramids")),
    "temple": Term(N_("Temple")), "burial_chamber": Term(N_("Burial chamber")),
    "obelisks": Term(N_("Obelisks")),
})

BONUS_LABELS: Mapping[str, Term] = MappingProxyType({
    "card": Term(N_("take the top market card")), "stones": Term(N_("take 3 stones")),
    "ship": Term(N_("place a stone on a ship")),
    "choice": Term(N_("1 point or 2 stones")), "two": Term(N_("2 points")),
})


# --------------------------------------------------------------------------------------------
# "Our copy": the edition values a group may enter (design.md §2, spec §2.3, §6.2)
# --------------------------------------------------------------------------------------------

EDITION_LABELS: Mapping[str, str] = MappingProxyType({
    "round_cards_2p": N_("Round cards for 2 players"),
    "round_cards_3p": N_("Round cards 6 and 7 for 3 players"),
    "round_cards_4p": N_("Round cards for 4 players"),
    "pyramids_b": N_("Pyramids, side B: the spaces of each pyramid"),
    "temple_b": N_("Temple, side B: the bonus of each space"),
    "temple_b_width_2p": N_("Temple, side B: spaces used by 2 players"),
    "burial_chamber_b": N_("Burial chamber, side B: points per row"),
    "obelisks_b": N_("Obelisks, side B: tower values"),
})
_EDITION_SOURCES: Mapping[str, str] = MappingProxyType({
    "round_cards_2p": "spec imhotep.md §2.3 (IMPL, the sources agree)",
    "round_cards_3p": "spec imhotep.md §2.3 (cards 6-7: the sources disagree)",
    "round_cards_4p": "spec imhotep.md §2.3 (IMPL, the sources agree)",
})


def _numbers(value: Any) -> Any:
    """Whole numbers typed on a form as text ("2") as numbers; the rest unchanged."""
    if isinstance(value, list):
        return [_numbers(v) for v in value]
    if isinstance(value, str) and value.strip().isdigit():
        return int(value.strip())
    return value


def _edition_check(key: str):
    """The board-value check of :func:`_check_entry` for one edition entry."""
    def check(value: Any, path: str) -> Any:
        clean, problem = _check_entry(key, _numbers(value), path)
        if problem is not None:
            raise problem
        return clean
    return check


def _edition_field(key: str) -> Any:
    """How an entry is laid out on the "our copy" form (checked by _edition_check)."""
    label = EDITION_LABELS[key]
    if key == "temple_b":
        return ListField(key, label, ChoiceField("space", N_("Space"), tuple(
            (v, str(BONUS_LABELS[v])) for v in TEMPLE_B_SPACES)), item_label=N_("Space %(n)d"))
    if key == "temple_b_width_2p":
        return IntField(key, label, max=5, default=None)
    if key == "pyramids_b":
        return ListField(key, label, ListField(
            "spaces", N_("Pyramid"), TextField("space", N_("Space"), max_length=6),
            item_label=N_("Space %(n)d")), item_label=N_("Pyramid %(n)d"))
    if key.startswith("round_cards_"):
        return ListField(key, label, ListField(
            "ships", N_("Round card"), IntField("ship", N_("Ship"), max=4, default=None),
            item_label=N_("Ship %(n)d")), item_label=N_("Card %(n)d"))
    return ListField(key, label, IntField("points", N_("Points"), max=50, default=None),
                     item_label=N_("Value %(n)d"))


EDITION: tuple[EditionValue, ...] = tuple(
    EditionValue(key, EDITION_LABELS[key], _edition_field(key), default=_as_plain(default),
                 status="verified" if key in VERIFIED_EDITION_DEFAULTS else "unverified",
                 source=_EDITION_SOURCES.get(key, "spec imhotep.md §6.2"),
                 check=_edition_check(key))
    for key, default in EDITION_DEFAULTS.items())
