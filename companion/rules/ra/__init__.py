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
    stage_label = N_("Epoch %(stage)d")
    stages = tables.EPOCHS

    def score_final(self, document):
        """Validate a Ra final-state document and score it (raises InvalidDocument)."""
        return final.score_final(document)


RA = register(RaRuleset())
