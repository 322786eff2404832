"""Benchmarks never rot: every ``benchmarks/bench_*.py`` runs in its ``--smoke`` mode (a few
requests, games or plays; seconds) and prints its figures.

Each runs as ``python benchmarks/bench_x.py --smoke`` would, in this process (``runpy``, so
the imports are paid once for all of them), from the repository root. A benchmark added
later is found by its name and must take ``--smoke`` too. ``bench_live_load.py`` needs the
``bench`` extra (aiohttp, ``pip install -e '.[bench]'``) and starts real servers: it is
skipped, saying so, when aiohttp is not installed.
"""

from __future__ import annotations

import importlib.util
import os
import runpy
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
BENCHMARKS = sorted((ROOT / "benchmarks").glob("bench_*.py"))
NEEDS = {"bench_live_load.py": "aiohttp"}      # benchmark → module of the bench extra


def test_every_benchmark_is_found():
    assert len(BENCHMARKS) >= 11
    assert {"bench_groups.py", "bench_ladder.py", "bench_live_load.py"} <= \
        {path.name for path in BENCHMARKS}


@pytest.mark.parametrize("path", BENCHMARKS, ids=lambda path: path.stem)
def test_benchmark_runs_in_smoke_mode(path, monkeypatch, capsys, tmp_path):
    needed = NEEDS.get(path.name)
    if needed and importlib.util.find_spec(needed) is None:
        pytest.skip(f"{path.name} needs {needed} (pip install -e '.[bench]')")
    assert "--smoke" in path.read_text(), f"{path.name} has no --smoke mode"
    monkeypatch.chdir(ROOT)
    monkeypatch.setattr(sys, "argv", [str(path), "--smoke"])
    monkeypatch.setattr(sys, "path", [str(path.parent), str(ROOT), *sys.path])
    monkeypatch.setenv("SCRIBE_INSTANCE", str(tmp_path / "instance"))
    modules = set(sys.modules)
    try:
        runpy.run_path(str(path), run_name="__main__")
    except SystemExit as exit:
        assert not exit.code, f"{path.name} --smoke exited with {exit.code}"
    finally:                  # the benchmarks' own helpers (games, bench_ladder…) go again
        for name in set(sys.modules) - modules:
            module = sys.modules.get(name)
            if module is not None and str(getattr(module, "__file__", "") or "").startswith(
                    str(path.parent) + os.sep):
                del sys.modules[name]
    printed = capsys.readouterr().out
    assert printed.strip(), f"{path.name} printed nothing"
