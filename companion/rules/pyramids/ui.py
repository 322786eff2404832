"""Silver & Gold – Pyramids: what only the game's own templates read (``ruleset.ui``).

templates/games/pyramids/*.html draw the expedition shapes, name colours, chambers and shapes,
and lay out the race boxes and the round counter from these; shared code never looks here.
"""

from __future__ import annotations

from . import printed as t

shapes = t.SHAPES                         # the cells of each expedition shape (its picture)
colours = t.COLOURS
# Words the phone pages show (msgids)
colour_labels = t.COLOUR_LABELS
shape_labels = t.SHAPE_LABELS
cell_labels = t.CELL_LABELS
rounds, turns_per_round = t.ROUNDS, t.TURNS_PER_ROUND
race_boxes = t.RACE_BOXES
# The refusals a page names before a marking is sent (msgids, by §5.5 code)
from .marking import PROBLEM_MESSAGES as problem_messages   # noqa: E402


def tap_id(card: int, row: int, col: int) -> str:
    """A tapped chamber as static/games/pyramids.js names it."""
    return f"{card}:{row}:{col}"


def _key(cells) -> str:
    return " ".join(sorted(tap_id(cell["card"], cell["row"], cell["col"]) for cell in cells))


def tap_readings(markings) -> dict[str, str] | None:
    """The markings the referee accepts (prompts ``markings``), as the page's script reads
    them: every chamber of one marking, sorted, maps to its pattern (or single chamber); None
    when the markings are not listed."""
    if markings is None:
        return None
    return {_key(m["cells"] + m["extra"]): _key(m["cells"]) for m in markings}


def tap_blocked(cards) -> dict[str, str]:
    """The places of the pattern on free chambers that the referee refuses, each with the
    §5.5 code it gives (prompts ``cards[].blocked``)."""
    return {_key({"card": card["number"], "row": r, "col": c} for r, c in place["cells"]):
            place["problem"] for card in cards for place in card.get("blocked", ())}
