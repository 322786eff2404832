"""What only Ra's own templates read (design.md §2: ``Ruleset.ui``): the words for its tiles.

Shared code never looks in here.
"""

from __future__ import annotations

from .state import tile_label

__all__ = ["tile_label"]
