"""What each game prints, registered by the game's own module ``pdfgen/<game id>.py``.

design.md §2 and §5: shared print code (the pad and aid machinery, the printing service, the
print menu, the command line) names no game; it asks this registry. Every game whose
catalogue offers ``Capability.PRINT`` has a module ``pdfgen.<game id>`` that calls
:func:`register` with its :class:`GamePrint` when imported: the score pad (rows, or a
free-form sheet), the double-faced reference cards, full-page aid sheets (printed before the
cards) and any printouts of its own. Modules are discovered, not listed: the first question
about a game imports its module, and a printing game without one is an error
(:class:`MissingPrintModule`) that the registry tests catch for every registered game.

Everything here is data plus drawing callbacks; the machinery (:mod:`.pads`, :mod:`.aids`)
lays it out, adds the QR code and checks the input.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass, field
from typing import Any, Callable, Literal, Mapping, Sequence

from reportlab.lib.colors import Color

from companion.rules import Capability, all_rulesets, get_ruleset, offers
from companion.rules.base import Ruleset

from .cardface import Content
from .document import Surface
from .errors import PrintError
from .i18n import N_, Translator

__all__ = ["AidSheet", "GamePrint", "MissingPrintModule", "PadPage", "PadRow", "PadSheet",
           "PadSpec", "Printout", "ReferenceCard", "game_print", "printing_games",
           "register", "ruleset_of", "unregister"]

RowKind = Literal["section", "entry", "result", "fixed"]


# --------------------------------------------------------------------------------------------
# Score pads
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class PadRow:
    """One row of a pad: a heading band, a box per player to write in, or a printed value."""

    kind: RowKind
    label: str                                  # msgid
    hint: str | None = None                     # msgid of the reminder under the label
    params: Mapping[str, Any] = field(default_factory=dict)   # for label and hint
    value: str = ""                             # printed in every player's box ("fixed")

    @property
    def weight(self) -> float:
        return 0.62 if self.kind == "section" else 1.0


@dataclass(frozen=True)
class PadSpec:
    """A score pad made of rows, one column per player, under the shared header."""

    title: str                                  # msgid
    rows: tuple[PadRow, ...]
    footer: str                                 # msgid


@dataclass(frozen=True)
class PadPage:
    """What a free-form pad draws for: the players' names (blank for a blank pad) and the
    colour of each seat (None where the table named none)."""

    names: tuple[str, ...]
    swatches: tuple[Color | None, ...]


@dataclass(frozen=True)
class PadSheet:
    """A score pad that is not rows (a track, a grid of rounds…): ``draw(surface, page)``
    fills the area below the shared header (title, date and place, QR code)."""

    title: str                                  # msgid
    draw: Callable[[Surface, PadPage], None]


Pad = PadSpec | PadSheet


# --------------------------------------------------------------------------------------------
# Play aids and other printouts
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class ReferenceCard:
    """A double-faced reference card: ``front(t)`` and ``back(t)`` give the translated title
    and blocks (:mod:`.cardface`)."""

    front: Content
    back: Content | None = None


def _no_intro(t: Translator) -> Sequence[str]:
    return ()


@dataclass(frozen=True)
class AidSheet:
    """A full-page play aid (a tally to tick, a checklist): ``draw(surface)`` fills the area
    below the shared header, which prints ``title``, the ``intro(t)`` paragraphs and the QR
    code."""

    key: str
    title: str                                  # msgid
    draw: Callable[[Surface], None]
    intro: Callable[[Translator], Sequence[str]] = _no_intro


@dataclass(frozen=True)
class Printout:
    """A printout of the game's own (print-and-play cards, a checklist…), offered by the menu
    and the command line under ``key``. ``make(page=, lang=, qr_url=)`` returns the PDF; it
    must print ``qr_url`` as a QR code on every page (the registry tests check it)."""

    key: str
    title: str                                  # msgid
    make: Callable[..., bytes]


@dataclass(frozen=True)
class GamePrint:
    """Everything one game prints. ``band`` colours the title band of its cards."""

    game: str
    pad: Pad
    cards: tuple[ReferenceCard, ...] = ()
    sheets: tuple[AidSheet, ...] = ()
    extras: tuple[Printout, ...] = ()
    band: tuple[float, float, float] = (0.25, 0.25, 0.25)

    @property
    def has_aids(self) -> bool:
        """Whether there is a play-aids document (cards or aid sheets)."""
        return bool(self.cards or self.sheets)

    def extra(self, key: str) -> Printout:
        """The game's own printout ``key``; PrintError naming the ones there are."""
        for printout in self.extras:
            if printout.key == key:
                return printout
        raise PrintError("print.unknown_printout",
                         N_("There is no printout “%(key)s” for this game: choose one of "
                            "%(choices)s."), "printout", key=str(key)[:40],
                         choices=", ".join(p.key for p in self.extras) or "—")


# --------------------------------------------------------------------------------------------
# The registry
# --------------------------------------------------------------------------------------------

_CONTENT: dict[str, GamePrint] = {}


class MissingPrintModule(LookupError):
    """A game offers printouts but ``pdfgen.<game id>`` is missing or registers nothing."""


def register(content: GamePrint) -> GamePrint:
    """Register one game's print content (its module does this when imported)."""
    if content.game in _CONTENT and _CONTENT[content.game] is not content:
        raise ValueError(f"print content for {content.game!r} registered twice")
    _CONTENT[content.game] = content
    return content


def unregister(game: str) -> None:
    """Remove a game's print content (tests register toy games and take them away again)."""
    _CONTENT.pop(game, None)


def _load(ruleset: Ruleset) -> GamePrint:
    """The game's content, importing ``pdfgen.<game id>`` the first time."""
    if ruleset.id not in _CONTENT:
        name = f"{__package__}.{ruleset.id}"
        try:
            importlib.import_module(name)
        except ModuleNotFoundError as missing:
            if missing.name != name:
                raise
            raise MissingPrintModule(f"game {ruleset.id!r} offers printouts but there is no "
                                     f"module {name}") from None
        if ruleset.id not in _CONTENT:
            raise MissingPrintModule(f"{name} registers no print content for {ruleset.id!r}")
    return _CONTENT[ruleset.id]


def printing_games() -> list[GamePrint]:
    """The print content of every registered game that offers printouts, in the order the
    games are registered."""
    return [_load(ruleset) for ruleset in all_rulesets(Capability.PRINT)]


def ruleset_of(game: str) -> Ruleset:
    """The registered ruleset of a game that prints; PrintError for any other name."""
    try:
        ruleset = get_ruleset(str(game))
    except KeyError:
        ruleset = None
    if ruleset is None or not offers(ruleset, Capability.PRINT):
        raise PrintError("print.unknown_game", N_("There is no score pad for “%(game)s”: "
                                                  "choose one of %(choices)s."), "game",
                         game=str(game)[:40],
                         choices=", ".join(r.id for r in all_rulesets(Capability.PRINT)))
    return ruleset


def game_print(game: str) -> GamePrint:
    """What ``game`` prints; PrintError (``print.unknown_game``) for a game that prints
    nothing or is not registered."""
    return _load(ruleset_of(game))
