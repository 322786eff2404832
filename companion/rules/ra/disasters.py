"""Receiving tiles and the disasters among them (spec ra.md §4.6, E7): the ``discard`` move.

Tiles won in an auction or taken with Gods join the player's holdings, then each disaster costs
up to two tiles of the category it hits. Funeral and Drought resolve by themselves; Unrest and
Earthquake ask the player (move ``discard``) only when a real choice exists, each choice waiting
in the :data:`~.state.DISCARDS` queue.

Pure (design.md §1).
"""

from __future__ import annotations

from typing import Any, Mapping

from ..base import ChoiceField, Counted, ListField, N_, N_plural, RuleViolation, Term
from ..referee import Args, Draft, MoveRule
from . import printed
from .epochs import finish_action
from .state import (CATEGORY_LABELS, CATEGORY_TILES, DISASTERS, DISCARDS, DiscardCategory,
                    MoveKind, Phase, TILE_CHOICES, Tile, tile_label)

def receive(d: Draft, seat: int, lot: list[str], resume: int) -> None:
    """§4.6: first every non-disaster tile joins the holdings, then each disaster costs
    min(2 × d, held) tiles of its category. Funeral and Drought resolve here; Unrest and
    Earthquake ask the player only when a real choice exists."""
    holding = d.own("holdings", seat)
    hits: dict[str, int] = {}
    for tile in lot:
        if tile in DISASTERS:
            hits[tile] = hits.get(tile, 0) + 1
        else:
            holding[tile] += 1
    if not hits:
        finish_action(d, resume)
        return
    removed = d.own("removed")
    for tile, number in hits.items():
        removed[tile] += number                     # disaster tiles leave the game

    def lose(kind: str, most: int) -> int:
        gone = min(most, holding[kind])
        holding[kind] -= gone
        removed[kind] += gone
        return gone

    loss = printed.TILES_LOST_PER_DISASTER
    if Tile.FUNERAL in hits:                        # Funeral: Pharaohs, nobody chooses
        lose(Tile.PHARAOH, loss * hits[Tile.FUNERAL])
    if Tile.DROUGHT in hits:                        # Drought: Floods first, then Niles
        need = loss * hits[Tile.DROUGHT]
        need -= lose(Tile.FLOOD, need)
        lose(Tile.NILE, need)
    for category, disaster in ((DiscardCategory.CIVILIZATIONS, Tile.UNREST),
                               (DiscardCategory.MONUMENTS, Tile.EARTHQUAKE)):
        if disaster not in hits:
            continue
        kinds = [kind for kind in CATEGORY_TILES[category] if holding[kind]]
        held = sum(holding[kind] for kind in kinds)
        need = min(loss * hits[disaster], held)
        if need == 0:
            continue                                # §8 E7: nothing held, nothing lost
        if need == held:
            for kind in kinds:                      # no choice: everything goes
                lose(kind, held)
        elif len(kinds) == 1:
            lose(kinds[0], need)                    # no choice: a single kind
        else:                                       # a real choice: ask the player
            DISCARDS.push(d, seat, MoveKind.DISCARD.value, category=category.value,
                          count=need, resume=resume)
    if DISCARDS.head(d.state):
        d["phase"] = Phase.DISCARD.value
    else:
        finish_action(d, resume)


# ---- discard: which Civilizations or Monuments go ---------------------------------------------


def _check_discard(state: Mapping[str, Any], seat: int, args: Args) -> None:
    """§4.6 discard preconditions: right category, exact count, tiles actually held."""
    tiles = args["tiles"]
    demand = DISCARDS.head(state)
    category, count = demand["category"], demand["count"]
    for index, tile in enumerate(tiles):
        if tile not in CATEGORY_TILES[category]:
            raise RuleViolation("ra.discard_wrong_category",
                                N_("%(tile)s is not one of your %(category)s: this disaster "
                                   "hits %(category)s."), f"move.tiles.{index}",
                                tile=tile_label(tile), category=CATEGORY_LABELS[category])
    if len(tiles) != count:
        raise RuleViolation("ra.discard_count",
                            N_("%(discard)s, not %(given)d."), "move.tiles", count=count,
                            given=len(tiles), category=CATEGORY_LABELS[category],
                            discard=Counted(N_plural("Discard exactly %(num)d %(category)s tile",
                                                     "Discard exactly %(num)d %(category)s "
                                                     "tiles"), count,
                                            category=CATEGORY_LABELS[category]))
    holding = state["holdings"][seat]
    for tile in dict.fromkeys(tiles):       # first offending kind in the player's order
        wanted = tiles.count(tile)
        if wanted > holding[tile]:
            raise RuleViolation("ra.discard_not_held",
                                N_("%(hold)s, not %(wanted)d."), "move.tiles",
                                tile=tile_label(tile), held=holding[tile], wanted=wanted,
                                hold=Counted(N_plural("You hold %(num)d %(tile)s tile",
                                                      "You hold %(num)d %(tile)s tiles"),
                                             holding[tile], tile=tile_label(tile)))


def _discard(d: Draft, seat: int, args: Args) -> None:
    """§4.6: the chosen Civilizations or Monuments leave the game."""
    holding = d.own("holdings", seat)
    removed = d.own("removed")
    for tile in args["tiles"]:
        holding[tile] -= 1
        removed[tile] += 1
    done = DISCARDS.pop(d)
    if not DISCARDS.head(d.state):
        finish_action(d, done["resume"])


DISCARD = MoveRule(
    MoveKind.DISCARD, Term(N_("discard tiles")), frozenset({Phase.DISCARD.value}),
    args=(ListField("tiles", N_("Tiles to discard"),
                    ChoiceField("tile", N_("Tile"), TILE_CHOICES), required=True,
                    item_label=N_("Tile %(n)d")),),
    check=_check_discard, change=_discard,
    hint=N_("After Unrest or Earthquake, when you hold more tiles than must go: which ones."))
