"""What only Imhotep's own templates read (design.md §2: ``Ruleset.ui``): the words for its
cards, colours and sites, the card kinds a reveal offers, and the notice about unverified
board data.

Shared code never looks in here.
"""

from __future__ import annotations

from ..base import N_
from . import printed
from .state import tile_label

__all__ = ["card_kinds", "edition_labels", "tile_label", "unverified_notice"]

card_kinds: tuple[str, ...] = printed.CARD_KINDS
edition_labels = printed.EDITION_LABELS          # each unverified entry's name, in words
unverified_notice = N_("This table uses board data that no available rulebook prints "
                       "(%(items)s). Check it against your copy.")
