"""The house rules a newcomer relies on to find their way (design.md §1, §3, §6; issue 19).

* No two services modules import each other, directly or round a longer cycle (a helper two of
  them share is public in a third, as the token helpers are in ``services/tokens.py``).
* No view module imports another: what two views share lives in a module that is not a view
  (``web/holdings.py``, ``web/table_page.py``). An API module takes the blueprint from its
  package, which imports it back to register its endpoints; that is the only exception.
* No view or API module imports the broker: a change is announced by the service that commits
  it (tests/test_announcements.py), so a new view cannot forget to.
* No module outside the rules takes another module's private name (``from .groups import
  _audit``).
* No file in ``companion/`` outside the engines is longer than about 1 000 lines.

Imports are read from the source (every ``import``, also inside functions), not executed.
"""

from __future__ import annotations

import ast
from functools import lru_cache
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "companion"
MAX_LINES = 1000


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {module_name(path): path for path in sorted(PACKAGE.rglob("*.py"))}


@lru_cache(maxsize=None)
def imported(module: str) -> frozenset[tuple[str, str | None]]:
    """(module, name) pairs ``module`` imports: ``from a.b import c`` gives ("a.b.c", None)
    when c is a module, else ("a.b", "c"); ``import a.b`` gives ("a.b", None)."""
    path = MODULES[module]
    package = module.split(".") if path.name == "__init__.py" else module.split(".")[:-1]
    found: set[tuple[str, str | None]] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update((alias.name, None) for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = package[:len(package) - node.level + 1] if node.level else []
            source = ".".join(base + ([node.module] if node.module else []))
            for alias in node.names:
                whole = f"{source}.{alias.name}"
                found.add((whole, None) if whole in MODULES else (source, alias.name))
    return frozenset(found)


def imported_modules(module: str) -> set[str]:
    return {name for name, _attribute in imported(module) if name in MODULES} - {module}


def is_view(module: str) -> bool:
    """A module of the web or API layer that answers requests: it routes on a blueprint."""
    if not module.startswith(("companion.web", "companion.api")):
        return False
    tree = ast.parse(MODULES[module].read_text(encoding="utf-8"))
    return any(isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and any(
        isinstance(decorator, ast.Call) and isinstance(decorator.func, ast.Attribute)
        and isinstance(decorator.func.value, ast.Name) and decorator.func.value.id == "bp"
        for decorator in node.decorator_list) for node in ast.walk(tree))


def cycles(modules: set[str]) -> list[list[str]]:
    """Every import cycle among ``modules`` (Tarjan's strongly connected components)."""
    graph = {m: imported_modules(m) & modules for m in modules}
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        for other in graph[node]:
            if other not in index:
                visit(other)
                low[node] = min(low[node], low[other])
            elif other in stack:
                low[node] = min(low[node], index[other])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def test_the_layout_is_read_from_the_source():
    assert is_view("companion.web.live") and is_view("companion.api.live_tables")
    assert not is_view("companion.web.holdings") and not is_view("companion.web.wallet")
    assert "companion.services.tokens" in imported_modules("companion.services.scoring")
    assert cycles({"companion.api", "companion.api.live_tables"}) == [
        ["companion.api", "companion.api.live_tables"]]


def test_no_services_module_imports_its_caller():
    services = {m for m in MODULES if m.startswith("companion.services.")}
    assert cycles(services) == []


def test_no_view_imports_another_view():
    views = {m for m in MODULES if is_view(m)}
    assert {"companion.web.live", "companion.web.main", "companion.api.groups"} <= views
    crossings = []
    for view in sorted(views):
        for other in sorted(imported_modules(view) & views):
            registering = other.startswith(view + ".") or view.startswith(other + ".")
            if not (registering and imported(view) & {(other, None), (other, "bp")}):
                crossings.append((view, other))
    assert crossings == []


def test_no_view_announces_by_itself():
    web_and_api = [m for m in MODULES if m.startswith(("companion.web", "companion.api"))]
    assert [m for m in web_and_api if "companion.services.broker" in imported_modules(m)] == []


def test_no_module_takes_a_private_name_of_another():
    outside_rules = [m for m in MODULES if not m.startswith("companion.rules")]
    taken = [(module, source, name) for module in outside_rules
             for source, name in imported(module)
             if name and name.startswith("_") and not name.startswith("__")
             and source in MODULES and source != module]
    assert taken == []


@pytest.mark.parametrize("path", sorted([*PACKAGE.rglob("*.py"), *(ROOT / "pdfgen").rglob("*.py")]),
                         ids=lambda p: str(p.relative_to(ROOT)))
def test_every_file_stays_a_room_one_can_find_ones_way_in(path):
    """Engines included, now that they are packages (issue 19 §5)."""
    assert len(path.read_text(encoding="utf-8").splitlines()) <= MAX_LINES
