"""What only Pharaon's own templates read (templates/games/pharaon/*.html): the printed numbers
with their labels, the phase awaited and its words, and the payment the phone proposes for a
cost the player declares.

The templates reach it as ``ruleset.ui``; shared code (services, API) never does.
"""

from __future__ import annotations

from . import printed
from .prompts import propose
from .state import WAITING_LABELS, god_name, phase_of

__all__ = ["WAITING_LABELS", "god_name", "phase_of", "printed", "propose"]
