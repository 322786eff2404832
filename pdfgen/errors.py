"""Why a printout cannot be made: a stable code, an English msgid and its parameters.

A :class:`PrintError` is a :class:`companion.rules.base.RuleViolation`, so the web layer can
translate it the way it translates every other refusal (``render(gettext)``); ``str()`` gives
the English sentence for the command line. Nothing half-written is ever returned instead.
"""

from __future__ import annotations

from companion.rules.base import RuleViolation


class PrintError(RuleViolation, ValueError):
    """Bad input for a printout (unknown page size, a name the font cannot show, …)."""

    def __str__(self) -> str:
        return self.render()


class LayoutError(PrintError):
    """The geometry does not work out: unknown sizes, a card bigger than the page, no room."""
