"""Time the Imhotep live-play referee: validate + apply every move of whole random games.

Usage: ``python benchmarks/bench_imhotep_engine.py [games] [--smoke]`` (default 500; smoke 3). The games come
from benchmarks/games.py (through the Ruleset protocol); only their replay from setup is
timed, against deep-copying the same states (the bare baseline) in the same run.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from games import imhotep_game, main  # noqa: E402

if __name__ == "__main__":
    main("imhotep", imhotep_game)
