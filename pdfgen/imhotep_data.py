"""Imhotep numbers and card texts for the printed pad and play aids, from the spec.

Numbers come from ``companion.rules.imhotep.printed`` (each with its source there); this module
adds only what the paper needs besides: the card texts and the sheet's colours.
"""

from __future__ import annotations

from dataclasses import dataclass

from companion.rules.imhotep import printed as t

from .i18n import N_

# The printed numbers come from the rules package (one place per game, design.md §2).
ROUNDS = t.ROUNDS
TRACK_LAP = 40                                  # §2.1 scoring track 0–40, wrapping (§8 E18)
OBELISK_RANK_POINTS = dict(t.OBELISK_A_RANK_POINTS)
PYRAMID_BEYOND = t.PYRAMID_OVERFLOW_POINTS
GROUP_POINTS = t.GROUP_POINTS[1:]               # points for groups of 1..5 stones
GROUP_BEYOND = t.GROUP_POINTS_BEYOND
STATUE_POINTS = t.GROUP_POINTS[1:]              # §2.6: the statue table is the same series
STATUE_BEYOND = t.GROUP_POINTS_BEYOND
DECORATION_STONES = t.STONES_PER_DECORATION_POINT
BLUE_CARD_POINTS = t.BLUE_CARD_POINTS
WRATH_POINTS = -t.WRATH_PENALTY
BURIAL_B_RANK_POINTS = tuple(t.UNVERIFIED_DEFAULTS["burial_chamber_b"][:3])   # 4th unverified


@dataclass(frozen=True)
class MarketCard:
    """One kind of market card (§2.6): colour, how many are in the deck, when, what."""

    key: str
    name: str
    colour: str                                 # red, green, purple, blue
    count: int
    when: str
    effect: str


COLOUR_NAMES = {"red": N_("Red cards"), "green": N_("Green cards"),
                "purple": N_("Purple cards"), "blue": N_("Blue cards")}
COLOUR_RGB = {"red": (0.78, 0.16, 0.14), "green": (0.16, 0.52, 0.24),
              "purple": (0.45, 0.24, 0.60), "blue": (0.13, 0.36, 0.70)}

MARKET_CARDS: tuple[MarketCard, ...] = (
    MarketCard("entrance", N_("Entrance"), "red", 2, N_("at once"),
               N_("Place 1 stone from your quarry at the Pyramid.")),
    MarketCard("sarcophagus", N_("Sarcophagus"), "red", 2, N_("at once"),
               N_("Place 1 stone from your quarry in the Burial chamber.")),
    MarketCard("paved_path", N_("Paved path"), "red", 2, N_("at once"),
               N_("Place 1 stone from your quarry on your Obelisk.")),
    MarketCard("pyramid_decoration", N_("Pyramid decoration"), "green", 2, N_("game end"),
               N_("1 point per 3 stones at the Pyramid (all colours).")),
    MarketCard("temple_decoration", N_("Temple decoration"), "green", 2, N_("game end"),
               N_("1 point per 3 stones in the Temple (all colours).")),
    MarketCard("burial_decoration", N_("Burial chamber decoration"), "green", 2,
               N_("game end"), N_("1 point per 3 stones in the Burial chamber (all colours).")),
    MarketCard("obelisk_decoration", N_("Obelisk decoration"), "green", 2, N_("game end"),
               N_("1 point per 3 stones at the Obelisks (all colours).")),
    MarketCard("statue", N_("Statue"), "purple", 10, N_("game end"),
               N_("Scored together: 1/3/6/10/15 for 1–5 statues, +2 for each beyond 5.")),
    MarketCard("lever", N_("Lever"), "blue", 2, N_("a later turn"),
               N_("Sail 1 ship; you choose the order in which its stones are unloaded.")),
    MarketCard("hammer", N_("Hammer"), "blue", 2, N_("a later turn"),
               N_("Take up to 3 stones from the quarry, then place 1 stone on a ship.")),
    MarketCard("sail", N_("Sail"), "blue", 3, N_("a later turn"),
               N_("Place 1 stone on a ship, then sail that ship.")),
    MarketCard("chisel", N_("Chisel"), "blue", 3, N_("a later turn"),
               N_("Place 2 stones: both on one ship or one on each of two ships.")),
)
assert sum(card.count for card in MARKET_CARDS) == 34          # §2.6 total

# The pad's final-scoring categories (§5.3) in scoring order, with the reminder printed
# beside each. Keys follow the spec's wording; the rules package may name them differently.
CATEGORY_LABELS = {
    "track": N_("Score track after round 6"),
    "burial_chamber": N_("Burial chamber"),
    "obelisks": N_("Obelisks"),
    "pyramid_decoration": N_("Pyramid decoration"),
    "temple_decoration": N_("Temple decoration"),
    "burial_decoration": N_("Burial chamber decoration"),
    "obelisk_decoration": N_("Obelisk decoration"),
    "statues": N_("Statues"),
    "blue_cards": N_("Unused blue cards"),
    "wrath": N_("Wrath of the Pharaoh"),
}


def series(points: tuple[int, ...], beyond: int) -> str:
    """``1/3/6/10/15 +2`` as printed on the pad (a table of points, then the step)."""
    return "/".join(str(p) for p in points) + f" +{beyond}"
