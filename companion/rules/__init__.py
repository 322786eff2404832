"""The rules engines: pure game logic behind one seam (design.md §1–2).

Importing this package registers every game. Nothing here may import Flask, SQLModel or do I/O.
"""

from . import imhotep, ra  # noqa: F401  (registers the games)
from .base import (InvalidDocument, RuleViolation, Scoresheet, all_rulesets,  # noqa: F401
                   get_ruleset)
