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
