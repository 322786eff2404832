"""Valley of the Kings: the card pool and scoring groups of every variant, and the solo goal.

Spec §11 (optional rules: mix of sets, half sets independent or merged by colour, longer game,
five and six players), §3 (stock and supply sizes), §12 (solo: the perfect tomb of a pool) and
§13 (copy limits per title). A pool is computed from the table's options and the group's
placements of titles whose set the catalogue does not know (printed.EDITION_DEFAULTS
``card_set``); nothing here is printed data, it is all derived from printed.py.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from types import MappingProxyType
from typing import Mapping

from ..base import N_
from . import printed as t


class PoolId(StrEnum):
    """The ``options.pool`` of the final-state document (issue 12 contract)."""

    AFTERLIFE = "afterlife"                    # §1 standard Afterlife box
    ORIGINAL = "original"                      # the original box alone
    MIX = "mix"                                # §11.1 one set of each size, either box
    HALF_SETS = "half_sets"                    # §11.2 one copy of every title, 10 groups
    HALF_SETS_MERGED = "half_sets_merged"      # §11.2 ... merged by colour, 5 groups
    FIVE_PLAYERS = "five_players"              # §11.4 (and §11.3 longer game)
    SIX_PLAYERS = "six_players"                # §11.4


class UniqueBox(StrEnum):
    """Where the unique artifacts come from (§11.1)."""

    AFTERLIFE = "afterlife"
    ORIGINAL = "original"
    MIXED = "mixed"          # "only one unique per cost value" from both boxes (§11.1)


class Solo(StrEnum):
    """``options.solo`` (§12); NONE is the contract's null."""

    NONE = "none"
    BEGINNER = "beginner"
    MASTER = "master"


POOL_LABELS: Mapping[str, str] = MappingProxyType({
    PoolId.AFTERLIFE: N_("Afterlife"),
    PoolId.ORIGINAL: N_("The original Valley of the Kings"),
    PoolId.MIX: N_("Mix of sets (one set of each size from either box)"),
    PoolId.HALF_SETS: N_("Half sets, each set scored on its own"),
    PoolId.HALF_SETS_MERGED: N_("Half sets, sets of the same colour merged"),
    PoolId.FIVE_PLAYERS: N_("Five players (or a longer game)"),
    PoolId.SIX_PLAYERS: N_("Six players (or a longer game)"),
})
UNIQUE_BOX_LABELS: Mapping[str, str] = MappingProxyType({
    UniqueBox.AFTERLIFE: N_("Afterlife"), UniqueBox.ORIGINAL: N_("The original"),
    UniqueBox.MIXED: N_("Both boxes, one per cost")})
SOLO_LABELS: Mapping[str, str] = MappingProxyType({
    Solo.NONE: N_("No (two or more players)"), Solo.BEGINNER: N_("Solo for beginners"),
    Solo.MASTER: N_("Solo for master embalmers (no free seal)")})

# Pools that open both boxes have both boxes' starters: 8 decks (§11.4, SEED l.355).
BOTH_BOXES = frozenset({PoolId.MIX, PoolId.HALF_SETS, PoolId.HALF_SETS_MERGED,
                        PoolId.FIVE_PLAYERS, PoolId.SIX_PLAYERS})
# The sizes whose set the table picks, per pool (§11.1, §11.4); the others are fixed.
CHOSEN_SIZES: Mapping[str, tuple[int, ...]] = MappingProxyType({
    PoolId.MIX: (3, 4, 5, 6, 7), PoolId.FIVE_PLAYERS: (5, 6, 7), PoolId.SIX_PLAYERS: (6, 7)})
# Pools whose uniques the table picks (§11.1; half sets: "chosen as in §11.1" [house], §11.4).
UNIQUES_CHOSEN = frozenset({PoolId.MIX, PoolId.HALF_SETS, PoolId.HALF_SETS_MERGED,
                            PoolId.FIVE_PLAYERS})


@dataclass(frozen=True)
class Group:
    """A scoring group: one set, or a superset of same-colour sets (§10, §11)."""

    id: str
    sets: tuple[str, ...]
    size: int                       # the most distinct titles it can hold

    @property
    def label(self) -> str:
        return t.CATEGORY_LABELS[self.id]


@dataclass(frozen=True)
class Pool:
    """The cards of one game (§11): sets in play with their copies, the scoring groups, the
    uniques and the starter decks available."""

    id: PoolId
    sets: tuple[str, ...]
    copies: int                         # per set title: 2, or 1 in half sets
    groups: tuple[Group, ...]
    unique_boxes: tuple[t.Box, ...]
    uniques: int                        # uniques in play: 6, or 10 for six players
    starter_decks: int                  # 4, or 8 when both boxes are open
    choices: Mapping[int, str]          # the set picked for each chosen size

    def group(self, group_id: str) -> Group | None:
        return next((g for g in self.groups if g.id == group_id), None)

    @property
    def set_cards(self) -> int:
        return sum(t.SETS[s].size for s in self.sets) * self.copies

    @property
    def stock(self) -> int:
        """Cards of the supply before the pyramid and boneyard are dealt (§3, V18)."""
        return self.set_cards + self.uniques

    @property
    def supply_after_setup(self) -> int:
        return self.stock - t.PYRAMID_CARDS - t.OPENING_BONEYARD_CARDS

    def starter_copies(self, players: int) -> dict[str, int]:
        """Starters in play: the players' decks only; the rest stays in the box (SEED l.66)."""
        return {s: n * players for s, n in t.STARTERS_PER_PLAYER.items()}


def build_pool(pool_id: str, choices: Mapping[int, str] | None = None,
               unique_box: str = UniqueBox.AFTERLIFE) -> Pool:
    """The pool of a variant (§11). ``choices`` maps a chosen size to its set id (missing:
    Afterlife's); ``unique_box`` applies where the table picks the uniques."""
    pool = PoolId(pool_id)
    chosen = {size: (choices or {}).get(size) or t.SIZE_PAIRS[size][0]
              for size in CHOSEN_SIZES.get(pool, ())}
    if pool in UNIQUES_CHOSEN:
        boxes = {UniqueBox.AFTERLIFE: (t.Box.AFTERLIFE,), UniqueBox.ORIGINAL: (t.Box.ORIGINAL,),
                 UniqueBox.MIXED: (t.Box.AFTERLIFE, t.Box.ORIGINAL)}[UniqueBox(unique_box)]
    elif pool is PoolId.ORIGINAL:
        boxes = (t.Box.ORIGINAL,)
    elif pool is PoolId.SIX_PLAYERS:
        boxes = (t.Box.AFTERLIFE, t.Box.ORIGINAL)      # "any 4 more uniques" (SEED l.358)
    else:
        boxes = (t.Box.AFTERLIFE,)
    uniques = t.UNIQUES_SIX_PLAYERS if pool is PoolId.SIX_PLAYERS else t.UNIQUES_PER_BOX
    decks = t.STARTER_DECKS_PER_BOX * (2 if pool in BOTH_BOXES else 1)

    def single(set_id: str) -> Group:
        return Group(set_id, (set_id,), t.SETS[set_id].size)

    def merged(size: int) -> Group:
        pair = t.SIZE_PAIRS[size]
        return Group(t.COLOUR_OF_SIZE[size].value, pair, sum(t.SETS[s].size for s in pair))

    copies = t.SET_COPIES
    if pool is PoolId.AFTERLIFE:
        groups = [single(t.SIZE_PAIRS[size][0]) for size in t.SIZE_PAIRS]
    elif pool is PoolId.ORIGINAL:
        groups = [single(t.SIZE_PAIRS[size][1]) for size in t.SIZE_PAIRS]
    elif pool is PoolId.MIX:
        groups = [single(chosen[size]) for size in t.SIZE_PAIRS]
    elif pool is PoolId.HALF_SETS:
        copies = t.HALF_SET_COPIES
        groups = [single(s) for size in t.SIZE_PAIRS for s in t.SIZE_PAIRS[size]]
    elif pool is PoolId.HALF_SETS_MERGED:
        copies = t.HALF_SET_COPIES
        groups = [merged(size) for size in t.SIZE_PAIRS]
    elif pool is PoolId.FIVE_PLAYERS:
        groups = [merged(3), merged(4)] + [single(chosen[size]) for size in (5, 6, 7)]
    else:
        groups = [merged(3), merged(4), merged(5)] + [single(chosen[size]) for size in (6, 7)]
    sets = tuple(s for g in groups for s in g.sets)
    return Pool(pool, sets, copies, tuple(groups), boxes, uniques, decks,
                MappingProxyType(chosen))


def all_group_ids() -> tuple[str, ...]:
    """Every scoring group id any pool uses: the ten sets, then the five colours."""
    return tuple(t.SETS) + tuple(c.value for c in t.Colour)


def group_titles(group: Group, placements: Mapping[str, str]) -> list[str]:
    """The catalogue titles that belong to a group: its sets' titles (named and stand-ins)
    plus titles the placements put there, minus titles the placements moved elsewhere."""
    titles = []
    for set_id in group.sets:
        for title_id in t.set_titles(set_id):
            if placements.get(title_id, set_id) == set_id:
                titles.append(title_id)
        titles += [title_id for title_id, placed in placements.items()
                   if placed == set_id and title_id not in titles]
    return titles


def title_set(title_id: str, placements: Mapping[str, str]) -> str | None:
    """The set id of a title, ``printed.UNIQUE`` for a unique, None while unknown; the group's
    placements override the catalogue's unverified ones."""
    placed = placements.get(title_id)
    if placed:
        return placed
    title = t.TITLES.get(title_id)
    if title is None:
        return None
    if title.kind is t.Kind.SET:
        return title.set_id
    if title.kind is t.Kind.UNIQUE:
        return t.UNIQUE
    return None


def placement_choices(title_id: str) -> tuple[str, ...]:
    """What a placeable title may be: a set of its box (spec §2.5 open slots) or unique."""
    box = t.TITLES[title_id].box
    return tuple(s.id for s in t.SETS.values() if s.box is box) + (t.UNIQUE,)


def perfect_tomb(pool: Pool) -> dict[str, object]:
    """The contents of a perfect solo tomb (§12.2): every title of every group once, every
    unique in play, all ten starters."""
    return {"groups": {g.id: g.size for g in pool.groups}, "uniques": pool.uniques,
            "starters": dict(t.STARTERS_PER_PLAYER),
            "cards": sum(g.size for g in pool.groups) + pool.uniques
            + t.STARTER_CARDS_PER_PLAYER}


def group_by_id(group_id: str) -> Group:
    """The scoring group with this id in any pool: a set alone, or a colour's superset."""
    if group_id in t.SETS:
        return Group(group_id, (group_id,), t.SETS[group_id].size)
    size = next(n for n, colour in t.COLOUR_OF_SIZE.items() if colour.value == group_id)
    pair = t.SIZE_PAIRS[size]
    return Group(group_id, pair, sum(t.SETS[s].size for s in pair))
