"""The rules engines: pure game logic behind one seam (design.md §1–2).

Every package under ``companion/rules/`` is a game and registers itself when imported;
importing this package imports them all (discovered, not listed). Nothing here may import
Flask, SQLModel or do I/O.
"""

import importlib
import pkgutil

from .base import (Capability, InvalidDocument, RuleViolation, Scoresheet,  # noqa: F401
                   all_rulesets, get_ruleset, offers)


def _discover() -> None:
    for module in sorted(pkgutil.iter_modules(__path__), key=lambda m: m.name):
        if module.ispkg:
            importlib.import_module(f"{__name__}.{module.name}")


_discover()
