"""Ra (Reiner Knizia; alea/Ravensburger 1999): the game package registered with the seam.

Spec: shared/rules/ra.md. Score-only mode lives in :mod:`.final`, the scoring rules in
:mod:`.scoring`, the printed numbers in :mod:`.tables`.
"""

from __future__ import annotations

from types import MappingProxyType

from ..base import N_, register
from . import final, tables


class RaRuleset:
    """Ra as the seam sees it (design.md §2)."""

    id = "ra"
    names = MappingProxyType({"en": "Ra", "cs": "Ra", "hu": "Ra"})
    player_counts = final.PLAYER_COUNTS
    final_schema = final.FINAL_SCHEMA
    category_labels = tables.CATEGORY_LABELS
    reason_labels = tables.REASON_LABELS
    tiebreak_labels = {"ra.highest_sun": N_("highest sun")}
    stage_label = N_("Epoch %(stage)d")
    stages = tables.EPOCHS
    add_stage_label = N_("Add the next epoch")
    remove_stage_label = N_("Remove the last epoch")
    stage_key = "epochs"
    stage_hint = N_("What each player holds when the epoch is scored, after disasters. "
                    "Empty boxes count as 0.")
    final_label = N_("After the third epoch")
    final_hint = N_("Monuments collected over the whole game, and every sun each player "
                    "holds, face up or face down.")
    default_players = 4

    def form_sizes(self, players: int, stages: int) -> dict[str, int]:
        """How many entries each list of the final-state form has (suns depend on players)."""
        suns = tables.suns_per_player(players) if players in tables.SUN_GROUPS else 3
        return {"players": players, "players.*.epochs": stages, "players.*.suns": suns}

    def score_final(self, document):
        """Validate a Ra final-state document and score it (raises InvalidDocument)."""
        return final.score_final(document)


RA = register(RaRuleset())
