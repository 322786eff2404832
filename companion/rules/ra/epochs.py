"""The end of an action and of an epoch, and the live game's score (spec ra.md §4.7, §5, E4).

After every action the turn passes on, unless nobody holds a face-up sun (epoch end case a);
a drawn Ra tile that fills the Ra track ends the epoch too (case b, :mod:`.turn`). Each epoch is
scored by the same functions score-only mode uses (:mod:`.scoring`), so the live Scoresheet
and the score-only one agree.

Pure (design.md §1).
"""

from __future__ import annotations

from typing import Any, Mapping

from ..base import Scoresheet
from ..referee import Draft
from . import printed
from .scoring import (EpochHoldings, ScoringOptions, apply_epoch, epoch_categories,
                      final_categories, score_game)
from .state import CIV_TILES, EpochEnd, Phase, Tile, next_active

# §5.3: these leave every player's holdings after each epoch's scoring; the rest are kept.
SCORED_AND_REMOVED: tuple[str, ...] = (Tile.GOD, Tile.GOLD, Tile.FLOOD) + CIV_TILES


def finish_action(d: Draft, after: int) -> None:
    """End of an action: epoch end case a if nobody holds a face-up sun (§4.7; E4), otherwise
    the next turn goes to next_active(after): after an auction ``after`` is the Ra player
    whoever won (§8 E5), after Gods the player who used them."""
    following = next_active(d.state, after)
    if following is None:
        end_epoch(d, EpochEnd.NO_FACE_UP_SUN)
        return
    d["phase"] = Phase.TURN.value
    d["current"] = following


def end_epoch(d: Draft, case: EpochEnd) -> None:
    """§4.7 clean-up, §5 scoring, then the next epoch or the end of the game."""
    s = d.state
    removed = d.own("removed")
    removed[Tile.RA] += s["ra_count"]               # both cases: the Ra tiles leave
    d["ra_count"] = 0
    for tile in s["track"]:                         # case b; in case a only defensively
        if tile is not None:
            removed[tile] += 1
    d["track"] = [None] * printed.AUCTION_TRACK_LENGTH
    d["auction"] = None
    d["pending"] = []
    epoch = s["epoch"]
    count = len(s["names"])
    snapshot = [_snapshot(holding) for holding in s["holdings"]]
    normal = epoch_categories([EpochHoldings(**held) for held in snapshot], epoch)
    if epoch == printed.EPOCHS:
        extra = final_categories([_monuments(holding) for holding in s["holdings"]],
                                 [all_suns(s, seat) for seat in range(count)], epoch)
    else:
        extra = [[] for _ in range(count)]
    options = scoring_options(s)
    d["fame"] = [apply_epoch(s["fame"][seat], normal[seat], extra[seat], epoch, options)[0]
                 for seat in range(count)]
    d["epochs"] = s["epochs"] + [snapshot]
    d["epoch_ends"] = s["epoch_ends"] + [case.value]
    holdings = []
    for holding in s["holdings"]:                   # §5.3: scored-and-removed categories
        kept = dict(holding)
        for kind in SCORED_AND_REMOVED:
            removed[kind] += kept[kind]
            kept[kind] = 0
        holdings.append(kept)
    d["holdings"] = holdings
    if epoch == printed.EPOCHS:
        d["phase"] = Phase.OVER.value
        return
    # §4.7: every sun face up, first player = holder of the highest sun.
    d["suns_up"] = [all_suns(s, seat) for seat in range(count)]
    d["suns_down"] = [[] for _ in range(count)]
    d["epoch"] = epoch + 1
    d["phase"] = Phase.TURN.value
    d["current"] = max(range(count), key=lambda seat: s["suns_up"][seat][0])


def _snapshot(holding: Mapping[str, int]) -> dict[str, Any]:
    """The holdings scored for one player at an epoch end, in EpochHoldings' field names."""
    return {"gods": holding[Tile.GOD], "pharaohs": holding[Tile.PHARAOH],
            "niles": holding[Tile.NILE], "floods": holding[Tile.FLOOD],
            "gold": holding[Tile.GOLD],
            "civilizations": {kind: holding[f"civ_{kind}"]
                              for kind in printed.CIVILIZATION_KINDS}}


def _monuments(holding: Mapping[str, int]) -> dict[str, int]:
    return {kind: holding[f"mon_{kind}"] for kind in printed.MONUMENT_KINDS}


def all_suns(s: Mapping[str, Any], seat: int) -> list[int]:
    """§5.2, §8 E10: a player's suns face up and face down (the centre belongs to nobody)."""
    return sorted(s["suns_up"][seat] + s["suns_down"][seat], reverse=True)


def scoring_options(state: Mapping[str, Any]) -> ScoringOptions:
    """The §6.2 flags that change the scoring."""
    options = state["options"]
    return ScoringOptions(fame_floor_zero=options["fame_floor_zero"],
                          epoch3_single_net=options["epoch3_single_net"])


def final_document(state: Mapping[str, Any]) -> dict[str, Any]:
    """The score-only document (ra/final.py) describing this game so far."""
    complete = len(state["epochs"]) == printed.EPOCHS
    players = []
    for seat, name in enumerate(state["names"]):
        player: dict[str, Any] = {"name": name,
                                  "epochs": [epoch[seat] for epoch in state["epochs"]]}
        if complete:
            player["monuments"] = _monuments(state["holdings"][seat])
            player["suns"] = all_suns(state, seat)
        players.append(player)
    options = state["options"]
    return {"game": "ra",
            "options": {"fame_floor_zero": options["fame_floor_zero"],
                        "epoch3_single_net": options["epoch3_single_net"]},
            "players": players}


def score(state: Mapping[str, Any]) -> Scoresheet:
    """The Scoresheet of the epochs scored so far (complete once the game is over)."""
    count = len(state["names"])
    complete = len(state["epochs"]) == printed.EPOCHS
    epochs = [[EpochHoldings(**held) for held in epoch] for epoch in state["epochs"]]
    return score_game(
        state["names"], epochs,
        monuments=[_monuments(h) for h in state["holdings"]] if complete else None,
        suns=[all_suns(state, seat) for seat in range(count)] if complete else None,
        options=scoring_options(state))
