"""A made-up game that only prints, for the print registry tests (not a test module).

It is registered the way a real game is: a ``GameRules`` subclass with the rules registry,
and its print content with :mod:`pdfgen.registry` (what its ``pdfgen/<id>.py`` would do when
imported). No shared file knows it. :func:`toy_game` registers one and takes it away again.
"""

from __future__ import annotations

from contextlib import contextmanager
from types import MappingProxyType
from typing import Iterator

from companion.rules.base import (Capability, Catalogue, GameRules, N_, ObjectField, register,
                                  unregister)
from pdfgen import registry
from pdfgen.cardface import Heading, Para
from pdfgen.document import PdfWriter, Surface
from pdfgen.geometry import MM, sheet_geometry
from pdfgen.pads import HEADER, draw_header
from pdfgen.registry import (AidSheet, GamePrint, PadPage, PadRow, PadSheet, PadSpec, Printout,
                             ReferenceCard)
from pdfgen.text import draw_text

PLAYER_COUNTS = (2, 3)


def toy_rules(game_id: str, capabilities=frozenset({Capability.PRINT})) -> GameRules:
    """A ruleset that offers ``capabilities`` (printing only, by default)."""

    class ToyRules(GameRules):
        id = game_id
        catalogue = Catalogue(names=MappingProxyType({"en": "Toy", "cs": "Hračka",
                                                      "hu": "Játék"}),
                              player_counts=PLAYER_COUNTS, capabilities=capabilities)
        final_schema = ObjectField("final", N_("Final"), ())

    return ToyRules()


ROWS = (PadRow("section", "Toy round %(stage)d", params={"stage": 1}),
        PadRow("entry", "Coins in the jar", "one per coin"),
        PadRow("entry", "Beetles caught"),
        PadRow("result", "Toy total"))


def rows_pad(rows=ROWS) -> PadSpec:
    return PadSpec("Toy · score pad", tuple(rows), "Toy footer: add it all up.")


def _draw_free_pad(s: Surface, page: PadPage) -> None:
    """A free-form pad: a spiral track of 12 spaces and one line per player."""
    c = s.canvas
    draw_text(c, "Toy track", 0, s.height - 10 * MM, s.width, 8 * MM, size=12)
    for n in range(12):
        c.rect(n * 14 * MM, s.height - 30 * MM, 12 * MM, 12 * MM, stroke=1, fill=0)
    for i, name in enumerate(page.names):
        draw_text(c, name or f"Seat {i + 1}", 0, s.height - (45 + 10 * i) * MM, 60 * MM,
                  8 * MM, size=10)


def free_pad() -> PadSheet:
    return PadSheet("Toy · track pad", _draw_free_pad)


def _rules_card(t):
    return "Toy · rules", [Heading("How to play"), Para("Roll two dice and catch beetles.")]


def _end_card(t):
    return "Toy · the end", [Para("Most beetles wins.")]


def _draw_checklist(s: Surface) -> None:
    for n in range(10):
        s.canvas.rect(0, s.height - (n + 1) * 12 * MM, 8 * MM, 8 * MM, stroke=1, fill=0)
        draw_text(s.canvas, f"Beetle {n + 1}", 12 * MM, s.height - (n + 1) * 12 * MM,
                  80 * MM, 8 * MM, size=10)


def _dice_sheet(*, page: str, lang: str, qr_url: str) -> bytes:
    """The toy's own printout: two pages of dice faces, each with the shared header."""
    geometry = sheet_geometry(page)
    writer = PdfWriter(geometry.page, lang=lang, title="Toy dice", subject=qr_url)

    def draw(s: Surface) -> None:
        draw_header(s, "Toy · dice sheet", qr_url, "Scan me", date_place=False)
        for n in range(6):
            s.canvas.rect(n * 20 * MM, s.height - HEADER - 30 * MM, 16 * MM, 16 * MM)

    writer.sheet(geometry, draw)
    writer.sheet(geometry, draw)
    return writer.finish()


def toy_print(game_id: str, pad=None) -> GamePrint:
    return GamePrint(
        game=game_id, pad=pad or rows_pad(),
        cards=(ReferenceCard(_rules_card, _end_card),),
        sheets=(AidSheet("checklist", "Toy · beetle checklist", _draw_checklist,
                         lambda t: ["Tick a beetle when it is caught."]),),
        extras=(Printout("dice_sheet", "Toy · dice sheet", _dice_sheet),),
        band=(0.3, 0.5, 0.2))


@contextmanager
def toy_game(game_id: str = "toy_print", pad=None,
             capabilities=frozenset({Capability.PRINT})) -> Iterator[str]:
    """Register the toy game and its print content for the duration of the block."""
    register(toy_rules(game_id, capabilities))
    registry.register(toy_print(game_id, pad))
    try:
        yield game_id
    finally:
        registry.unregister(game_id)
        unregister(game_id)
