"""companion.rules stays pure: it imports with Flask and the database blocked (design.md §1)."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

RULES = Path(__file__).resolve().parents[2] / "companion" / "rules"
FORBIDDEN = {"flask", "flask_babel", "flask_wtf", "sqlmodel", "sqlalchemy", "werkzeug",
             "alembic", "requests", "random", "time", "datetime", "os", "socket"}


def test_rules_import_with_flask_and_database_blocked():
    blocker = (
        "import sys\n"
        f"for name in {sorted(FORBIDDEN - {'random', 'time', 'datetime', 'os'})!r}:\n"
        "    sys.modules[name] = None\n"
        "import pkgutil, importlib, companion.rules as r\n"
        "for m in pkgutil.walk_packages(r.__path__, 'companion.rules.'):\n"
        "    importlib.import_module(m.name)\n"
        "print(sorted(x.id for x in r.all_rulesets()))\n")
    result = subprocess.run([sys.executable, "-c", blocker], capture_output=True, text=True,
                            cwd=RULES.parents[1])
    assert result.returncode == 0, result.stderr
    assert "'ra'" in result.stdout


def test_no_rules_module_imports_io_clock_or_randomness():
    offenders = []
    for path in RULES.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            names = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names = [node.module]
            offenders += [f"{path.name}: {n}" for n in names if n.split(".")[0] in FORBIDDEN]
    assert offenders == []
