"""The generator of our print-and-play edition (issue 13, deliverable 1; spec §2, §10).

Run once, and again only to change the edition on purpose::

    python -m companion.rules.pyramids.generate           # rewrite ours.py next to this file
    python -m companion.rules.pyramids.generate --check   # exit 1 if ours.py differs

:func:`generate` is pure and deterministic: the same seed gives the same cards on every machine
and Python version, because it draws from its own SplitMix64 stream (:class:`SeededStream`)
rather than the ``random`` module (which ``companion/rules`` may not import, design.md §1).
:func:`render` turns the result into the source of :mod:`.ours`; only :func:`main` touches
the file system.

Rules of the generator (each card is drawn again until it passes every rule):

1. Cards are numbered 1-48 in triples; triple ``k`` (numbers 3k+1..3k+3) goes purple, orange,
   green when ``k`` is even and green, orange, purple when it is odd, so each colour's numbers
   add up to the same total (392) and the tie-break and race order (lowest number first) favour
   no colour.
2. Each colour gets the same 16 card profiles (:data:`PROFILES`): number of walls, length of
   the shortest path from entrance to tomb (cells, both included) and how many of each symbol.
   So every colour has the same symbol counts, wall counts and path lengths; the profiles are
   dealt to the colour's numbers in a drawn order.
3. The entrance lies in the top row and the tomb in the bottom row, in drawn columns whose
   distance fits the profile's path length (a path of L cells needs L - 5 - |columns apart|
   to be even and not negative).
4. Walls are drawn among the other 23 cells. A layout is kept only if every cell that is not a
   wall can be reached from the entrance (no dead symbols), the shortest path has exactly the
   profile's length, and every expedition shape of our deck can open the card (cover the
   entrance on the fresh card), so no card is ever closed to a revealed pattern.
5. The symbols are scattered over the remaining floor cells in drawn positions, except that a
   card's first skull lies on its shortest path (between entrance and tomb), so that the
   quickest way through costs a skull and avoiding it costs marks.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from typing import Sequence

from .cards import PyramidCard
from .placement import opening_fits, position, reachable, shortest_path
from .printed import (CARDS_PER_COLOUR, CELLS, COLOURS, DEFAULT_EXPEDITION_DECK, GRID,
                     RACE_BOXES, SKULL_BOXES, SYMBOLS, Cell)

SEED = 0x5347_5059_5241            # "SGPYRA": the seed our printed edition was generated from
MAX_ATTEMPTS = 200_000             # per card; the generator fails loudly instead of looping

# Our expedition deck: the six patterns the reviews describe ("in a line, around a corner, or
# as a block"), with the two 3-cell patterns doubled so that a round of 7 turns averages about
# 3 cells per card. It is also the spec's default for the published deck (printed.py).
EXPEDITION_DECK: tuple[str, ...] = DEFAULT_EXPEDITION_DECK

# Our scoring card's skull boxes, left to right, top row first. Each further skull costs more
# (as the reviews say of the published card), box 5 costs 6 (the one value the seed shows), and
# they never decrease, so a potion always erases the last two ticked boxes.
SKULL_PENALTIES: tuple[int, ...] = (1, 2, 3, 4, 6, 8, 10, 12, 15, 20)

# Our scoring card's rows of boxes, ticked left to right, top row first (spec §2.3: the skulls
# "in two rows"; we print the gems the same way), the torch boxes numbered by round, and the
# race boxes of each colour.
SCORING_CARD_ROWS: dict[str, tuple[int, ...]] = {
    "red_gems": (5, 5), "green_gems": (5, 5), "skulls": (5, 5), "torches": (4,),
    "race": (3, 3, 3)}

# The 16 card profiles every colour gets: (walls, shortest path in cells, red gems, green gems,
# torches, skulls, potions, red crosses). Per colour: 88 walls, 20 red and 20 green gems,
# 10 torches, 24 skulls, 8 potions, 20 red crosses; paths of 5 to 11 cells.
PROFILES: tuple[tuple[int, ...], ...] = (
    (4, 5, 1, 1, 1, 2, 0, 1),
    (4, 6, 1, 1, 0, 2, 1, 1),
    (5, 6, 1, 1, 1, 1, 0, 1),
    (5, 7, 2, 1, 1, 1, 0, 2),
    (5, 7, 1, 2, 0, 2, 1, 1),
    (5, 7, 1, 1, 1, 1, 0, 1),
    (6, 8, 1, 1, 0, 2, 1, 1),
    (6, 8, 2, 1, 1, 1, 0, 2),
    (6, 8, 1, 2, 0, 2, 0, 2),
    (6, 9, 2, 1, 1, 1, 1, 1),
    (5, 9, 1, 1, 1, 2, 0, 1),
    (6, 9, 1, 1, 0, 2, 1, 1),
    (7, 9, 1, 1, 0, 1, 0, 2),
    (7, 10, 2, 2, 1, 2, 1, 1),
    (7, 10, 1, 1, 1, 1, 1, 2),
    (4, 11, 1, 2, 1, 1, 1, 0),
)
PROFILE_SYMBOLS: tuple[str, ...] = ("R", "G", "T", "S", "P", "X")   # order of the counts above

_MASK = (1 << 64) - 1


class SeededStream:
    """SplitMix64 (Steele, Lea, Flood 2014): a tiny, fully specified 64-bit generator, so the
    edition does not depend on the ``random`` module's algorithms."""

    def __init__(self, seed: int):
        self.state = seed & _MASK

    def next64(self) -> int:
        self.state = (self.state + 0x9E3779B97F4A7C15) & _MASK
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        """A whole number in [0, n), without modulo bias (rejection of the uneven top)."""
        limit = (1 << 64) - (1 << 64) % n
        while True:
            value = self.next64()
            if value < limit:
                return value % n

    def shuffled(self, items: Sequence) -> list:
        """A Fisher-Yates shuffle of a copy of ``items``."""
        out = list(items)
        for i in range(len(out) - 1, 0, -1):
            j = self.below(i + 1)
            out[i], out[j] = out[j], out[i]
        return out


@dataclass(frozen=True)
class OurEdition:
    """Everything our printed edition needs: cards, expedition deck, scoring card."""

    seed: int
    cards: tuple[PyramidCard, ...]
    expedition_deck: tuple[str, ...]
    skull_penalties: tuple[int, ...]


def colour_of_number(number: int) -> str:
    """Rule 1: the colour of card ``number`` (snake order over triples)."""
    triple, place = divmod(number - 1, 3)
    order = COLOURS if triple % 2 == 0 else COLOURS[::-1]
    return order[place]


def _columns(rng: SeededStream, length: int) -> tuple[int, int]:
    """Rule 3: entrance and tomb columns whose distance suits a shortest path of ``length``."""
    spare = length - GRID                    # cells beyond the straight drop of 5
    distances = [d for d in range(GRID) if d <= spare and (spare - d) % 2 == 0]
    apart = distances[rng.below(len(distances))]
    start = rng.below(GRID - apart)
    if rng.below(2):
        return start, start + apart
    return start + apart, start


def _layout(rng: SeededStream, walls: int, length: int) -> str | None:
    """Rules 3-4: one drawn layout of walls, entrance and tomb, or None if it fails a rule."""
    top, bottom = _columns(rng, length)
    entrance, tomb = top, (GRID - 1) * GRID + bottom
    others = [c for c in range(CELLS) if c not in (entrance, tomb)]
    chosen = set(rng.shuffled(others)[:walls])
    flat = "".join(Cell.ENTRANCE if c == entrance else Cell.TOMB if c == tomb else
                   Cell.WALL if c in chosen else Cell.FLOOR for c in range(CELLS))
    if len(reachable(flat, entrance)) != CELLS - walls:
        return None
    path = shortest_path(flat)
    if path is None or len(path) != length:
        return None
    if not all(opening_fits(flat, shape) for shape in set(EXPEDITION_DECK)):
        return None
    return flat


def make_card(rng: SeededStream, number: int, colour: str, profile: Sequence[int]
              ) -> PyramidCard:
    """One card for a profile (rules 3-5)."""
    walls, length, *counts = profile
    for _ in range(MAX_ATTEMPTS):
        flat = _layout(rng, walls, length)
        if flat is not None:
            break
    else:
        raise RuntimeError(f"no layout for card {number} with profile {profile}")
    symbols = [code for code, count in zip(PROFILE_SYMBOLS, counts) for _ in range(count)]
    cells = list(flat)
    if Cell.SKULL in symbols:                             # rule 5: a skull on the way
        on_path = shortest_path(flat)[1:-1]
        cells[on_path[rng.below(len(on_path))]] = Cell.SKULL
        symbols.remove(Cell.SKULL)
    floor = [c for c in range(CELLS) if cells[c] == Cell.FLOOR]
    for cell, code in zip(rng.shuffled(floor), symbols):
        cells[cell] = code
    flat = "".join(cells)
    grid = tuple(flat[r * GRID:(r + 1) * GRID] for r in range(GRID))
    path = shortest_path(flat)
    assert path is not None
    return PyramidCard(number, colour, grid, tuple(position(c) for c in path))


def generate(seed: int = SEED) -> OurEdition:
    """Our whole edition from ``seed`` (pure; the same seed always gives the same edition)."""
    assert len(PROFILES) == CARDS_PER_COLOUR
    rng = SeededStream(seed)
    numbers = {colour: [n for n in range(1, 3 * CARDS_PER_COLOUR + 1)
                        if colour_of_number(n) == colour] for colour in COLOURS}
    cards = []
    for colour in COLOURS:
        for number, profile in zip(numbers[colour], rng.shuffled(PROFILES)):
            cards.append(make_card(rng, number, colour, profile))
    cards.sort(key=lambda card: card.number)
    return OurEdition(seed, tuple(cards), EXPEDITION_DECK, SKULL_PENALTIES)


# --------------------------------------------------------------------------------------------
# The data module
# --------------------------------------------------------------------------------------------


def balance(cards: Sequence[PyramidCard]) -> dict[str, dict[str, int]]:
    """Per colour: how many of each symbol, walls, and the total shortest-path length."""
    table: dict[str, dict[str, int]] = {}
    for colour in COLOURS:
        row = {code: 0 for code in SYMBOLS + ("#",)}
        row["path"] = 0
        row["numbers"] = 0
        for card in cards:
            if card.colour != colour:
                continue
            for code in card.flat:
                if code in row:
                    row[code] += 1
            row["path"] += len(card.shortest)
            row["numbers"] += card.number
        table[colour] = row
    return table


def _docstring(edition: OurEdition) -> str:
    header = ("colour    red  green  torch  skull  potion  cross  walls  path cells  "
              "numbers")
    rows = []
    for colour, row in balance(edition.cards).items():
        rows.append(f"{colour:<8}{row['R']:>5}{row['G']:>7}{row['T']:>7}{row['S']:>7}"
                    f"{row['P']:>8}{row['X']:>7}{row['#']:>7}{row['path']:>12}"
                    f"{row['numbers']:>9}")
    lengths = sorted(len(card.shortest) for card in edition.cards if card.colour == COLOURS[0])
    return "\n".join([
        '"""Our print-and-play edition of Silver & Gold – Pyramids (issue 13; spec §2, §10).',
        "",
        "GENERATED by ``python -m companion.rules.pyramids.generate`` from seed "
        f"{edition.seed:#x}; do",
        "not edit by hand: the tests regenerate it and compare. Nothing here comes from the",
        "published cards: the layouts, the deck and the penalties are our own.",
        "",
        f"* {len(edition.cards)} pyramid cards, 16 per colour, numbered 1-48: each a 5×5 grid of "
        "cell codes",
        "  (spec §2.1: ``.`` floor, ``#`` wall, ``E`` entrance in the top row, ``B`` tomb in the",
        "  bottom row, ``X`` red cross, ``R``/``G`` gems, ``T`` torch, ``S`` skull, ``P`` potion),",
        "  with one shortest path from entrance to tomb. Every card can be completed, every",
        "  non-wall cell can be reached, and every expedition shape can open every card.",
        f"* {len(edition.expedition_deck)} expedition cards: "
        f"{', '.join(edition.expedition_deck)} (6 patterns; I3 and L3 twice).",
        "* The scoring card: its rows of boxes (SCORING_CARD_ROWS) and the skull penalties,",
        f"  box 1 to 10: {', '.join(str(p) for p in edition.skull_penalties)};",
        f"  race boxes {', '.join(str(v) for v in RACE_BOXES)} per colour as printed in every "
        "edition.",
        "",
        "Balance (generator rules 1-2, see generate.py): every colour has the same card profiles,",
        "so the same symbol, wall and path counts, and its numbers add up to the same total:",
        "",
        "    " + header,
        *["    " + row for row in rows],
        "",
        "Shortest paths per colour (cells): " + ", ".join(map(str, lengths)) + ".",
        '"""',
    ])


def render(edition: OurEdition) -> str:
    """The source text of ours.py for ``edition``."""
    lines = [_docstring(edition), "", "from __future__ import annotations", "",
             "from .cards import PyramidCard", "",
             f"SEED = {edition.seed:#x}",
             f"EXPEDITION_DECK: tuple[str, ...] = {edition.expedition_deck!r}",
             f"SKULL_PENALTIES: tuple[int, ...] = {edition.skull_penalties!r}",
             "SCORING_CARD_ROWS: dict[str, tuple[int, ...]] = {",
             *[f"    {key!r}: {rows!r}," for key, rows in SCORING_CARD_ROWS.items()],
             "}",
             "", "CARDS: tuple[PyramidCard, ...] = ("]
    for card in edition.cards:
        lines.append(f"    PyramidCard({card.number}, {card.colour!r}, (")
        lines.extend(f"        {row!r}," for row in card.grid)
        path = ", ".join(f"({r}, {c})" for r, c in card.shortest)
        lines.append("    ), (")
        lines.append(f"        {path},")
        lines.append("    )),")
    lines.append(")")
    lines.append(f"assert len(SKULL_PENALTIES) == {SKULL_BOXES}")
    lines.append("assert sum(SCORING_CARD_ROWS['skulls']) == len(SKULL_PENALTIES)")
    return "\n".join(lines) + "\n"


def main(argv: Sequence[str]) -> int:
    """Write ours.py (or, with ``--check``, compare it); the only I/O of the package."""
    from pathlib import Path

    target = Path(__file__).with_name("ours.py")
    text = render(generate(SEED))
    if "--check" in argv:
        same = target.exists() and target.read_text(encoding="utf-8") == text
        print("ours.py is up to date" if same else "ours.py differs from the generator")
        return 0 if same else 1
    target.write_text(text, encoding="utf-8")
    print(f"wrote {target}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
