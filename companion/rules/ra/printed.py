"""Ra: every printed number the engine uses, each with its source (spec ra.md §2, §5, §6.1).

Sources, cited by the short names used below:
  SEED   — shared/seeds/002_11802cec63720dcd.txt, the Hungarian translation of the alea /
           Ravensburger rules (3–5 players). It is the default edition (spec ra.md §1).
  RGG08  — Rio Grande Games rulebook SPR_RG_RA_ENG (© 2008), 2–5 players; text at
           https://github.com/jonnyallred/boardgame-rules/blob/095eac6781b6bfb7bab64bffa3fc651e2073762a/extracted/ra-rules.txt
The spec and the seed agree on every value here; the seed has no 2-player data, so the two-player
rows come from RGG08 only (spec ra.md §6.1). No value in this module is unverified.
"""

from __future__ import annotations

from types import MappingProxyType
from typing import Mapping

from ..base import N_, Term

# Tile kinds held by players, with the box counts (SEED: "180 lapka: 30 Rá, 8 isten, 25 fáraó és
# 2 temetés, 25 Nílus, 12 áradás és 2 aszály, 5 x 5 civilizációs vívmány és 4 lázadás, 5 arany,
# 5 x 8 monumentum és 2 földrengés"; spec §2.2).
CIVILIZATION_KINDS: tuple[str, ...] = ("art", "agriculture", "religion", "astronomy", "writing")
MONUMENT_KINDS: tuple[str, ...] = ("fortress", "obelisk", "palace", "pyramid", "sphinx",
                                   "statue", "step_pyramid", "temple")

BOX: Mapping[str, int] = MappingProxyType({
    "ra": 30, "god": 8, "gold": 5, "pharaoh": 25, "nile": 25, "flood": 12,
    **{f"civ_{kind}": 5 for kind in CIVILIZATION_KINDS},
    **{f"mon_{kind}": 5 for kind in MONUMENT_KINDS},
    "funeral": 2, "drought": 2, "unrest": 4, "earthquake": 2,
})
assert sum(BOX.values()) == 180

STARTING_FAME = 10        # SEED: each player starts with two 5-point tablets
EPOCHS = 3                # SEED: three epochs, each followed by scoring

# Scoring after every epoch (SEED, "Istenek", "Fáraók", "Nílusok", "Civilizációs vívmányok",
# "Aranyak"; spec §5.1).
POINTS_PER_GOD = 2
POINTS_PER_GOLD = 3
PHARAOHS_MOST = 5
PHARAOHS_FEWEST = -2
POINTS_PER_RIVER_TILE = 1          # each Nile and each Flood, only with at least one Flood
CIVILIZATION_POINTS: Mapping[int, int] = MappingProxyType(
    {0: -5, 1: 0, 2: 0, 3: 5, 4: 10, 5: 15})           # by number of different kinds

# Scoring after epoch 3 only (SEED, "Monumentumok", "Napkövek"; spec §5.2).
MONUMENT_KIND_POINTS: Mapping[int, int] = MappingProxyType(
    {0: 0, 1: 1, 2: 2, 3: 3, 4: 4, 5: 5, 6: 6, 7: 10, 8: 15})   # by different kinds held
MONUMENT_SET_POINTS: Mapping[int, int] = MappingProxyType(
    {0: 0, 1: 0, 2: 0, 3: 5, 4: 10, 5: 15})                     # per kind, by tiles of it
SUNS_MOST = 5
SUNS_FEWEST = -5

# Suns by player count (SEED for 3–5 players; RGG08 for 2; spec §2.3). The centre starts with
# sun 1; the groups are dealt at random, one per player.
SUN_GROUPS: Mapping[int, tuple[tuple[int, ...], ...]] = MappingProxyType({
    2: ((9, 6, 5, 2), (8, 7, 4, 3)),
    3: ((13, 8, 5, 2), (12, 9, 6, 3), (11, 10, 7, 4)),
    4: ((13, 6, 2), (12, 7, 3), (11, 8, 4), (10, 9, 5)),
    5: ((16, 7, 2), (15, 8, 3), (14, 9, 4), (13, 10, 5), (12, 11, 6)),
})
STARTING_CENTRE_SUN = 1
# Ra spaces used: the epoch ends when this many Ra tiles lie on the track (SEED: "3 játékos
# esetén a 8., 4 játékos esetén a 9., 5 játékos esetén pedig a 10."; RGG08: 6th for 2 players).
RA_TRACK_LENGTH: Mapping[int, int] = MappingProxyType({2: 6, 3: 8, 4: 9, 5: 10})
AUCTION_TRACK_LENGTH = 8


def suns_in_play(player_count: int) -> frozenset[int]:
    """All sun numbers used with this many players (spec §2.3)."""
    return frozenset(range(1, max(SUN_GROUPS[player_count][0]) + 1))


def suns_per_player(player_count: int) -> int:
    return len(SUN_GROUPS[player_count][0])


# Names shown to people (translated by the web layer).
CATEGORY_LABELS: Mapping[str, str] = MappingProxyType({
    "starting_fame": N_("Starting fame"),
    "gods": N_("Gods"),
    "gold": N_("Gold"),
    "pharaohs": N_("Pharaohs"),
    "river": N_("Nile and floods"),
    "civilizations": N_("Civilizations"),
    "monument_kinds": N_("Monuments: different kinds"),
    "monument_sets": N_("Monuments: three or more of a kind"),
    "suns": N_("Sun total"),
    "floor": N_("Fame cannot go below 0"),
})

REASON_LABELS: Mapping[str, str] = MappingProxyType({
    "most": N_("most"),
    "fewest": N_("fewest"),
    "all_equal": N_("all equal"),
    "no_flood": N_("no flood"),
    "no_civilization": N_("none"),
    "floor_at_zero": N_("floor"),
})

TILE_LABELS: Mapping[str, Term] = MappingProxyType({
    "god": Term(N_("God")), "gold": Term(N_("Gold")), "pharaoh": Term(N_("Pharaoh")),
    "nile": Term(N_("Nile")), "flood": Term(N_("Flood")),
    "civ_art": Term(N_("Art")), "civ_agriculture": Term(N_("Agriculture")),
    "civ_religion": Term(N_("Religion")), "civ_astronomy": Term(N_("Astronomy")),
    "civ_writing": Term(N_("Writing")),
    "mon_fortress": Term(N_("Fortress")), "mon_obelisk": Term(N_("Obelisk")),
    "mon_palace": Term(N_("Palace")), "mon_pyramid": Term(N_("Pyramid")),
    "mon_sphinx": Term(N_("Sphinx")), "mon_statue": Term(N_("Statue")),
    "mon_step_pyramid": Term(N_("Step pyramid")), "mon_temple": Term(N_("Temple")),
})

# Disasters (SEED: "2 temetés", "2 aszály", "4 lázadás", "2 földrengés"; spec §2.2, §4.6). Each
# disaster received costs two tiles of the category it hits, or all of them if fewer are held
# (SEED, "Katasztrófák": "minden katasztrófával együtt a dobozba kerül két, az adott fajtához
# tartozó lapka").
DISASTER_KINDS: tuple[str, ...] = ("funeral", "drought", "unrest", "earthquake")
TILES_LOST_PER_DISASTER = 2

# Names of the tiles players never keep (Ra and the disasters), for the live referee's messages.
OTHER_TILE_LABELS: Mapping[str, Term] = MappingProxyType({
    "ra": Term(N_("Ra")), "funeral": Term(N_("Funeral")), "drought": Term(N_("Drought")),
    "unrest": Term(N_("Unrest")), "earthquake": Term(N_("Earthquake")),
})
