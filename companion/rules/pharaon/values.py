"""Printed values entered at the end (spec shared/rules/pharaon.md §9.1 U4, U6): move
``enter_values``.

Gods not entered at set-up and tomb points no copy data gives are asked after round 5, of
every seat at once (the entries commute); the game is over once nothing is missing.
"""

from __future__ import annotations

from collections.abc import Mapping as _Mapping   # isinstance: faster than typing's alias
from typing import Any, Mapping

from ..base import N_, Term
from ..referee import Draft, MoveRule, is_int
from .state import MoveKind, Phase, bad_move, tomb_points_known, violation


def missing_values(state: Mapping[str, Any]) -> tuple[bool, list[int]]:
    """Whether the gods are missing, and the tomb steps whose points are missing."""
    steps = sorted({p["tomb"] for p in state["players"]
                    if p["tomb"] and tomb_points_known(state, p["tomb"]) is None})
    return state["board"]["gods"] is None, steps


def _parse_enter_values(move: Mapping[str, Any]) -> dict[str, Any]:
    args: dict[str, Any] = {"gods": None, "tomb_points": []}
    gods = move.get("gods")
    if gods is not None:
        if not isinstance(gods, list) or len(gods) != 5:
            raise bad_move("gods")
        clean = []
        for g, god in enumerate(gods):
            if not isinstance(god, _Mapping) or not isinstance(god.get("name"), str):
                raise bad_move(f"gods.{g}")
            halves = {}
            for half in ("a", "b"):
                entry = god.get(half)
                if (not isinstance(entry, _Mapping) or not is_int(entry.get("threshold"))
                        or not is_int(entry.get("points")) or entry["threshold"] < 0
                        or entry["points"] < 0):
                    raise bad_move(f"gods.{g}.{half}")
                halves[half] = {"threshold": entry["threshold"], "points": entry["points"]}
            clean.append({"name": " ".join(god["name"].split())[:30] or f"{g + 1}", **halves})
        args["gods"] = clean
    entries = move.get("tomb_points", [])
    if not isinstance(entries, list):
        raise bad_move("tomb_points")
    for i, entry in enumerate(entries):
        if (not isinstance(entry, _Mapping) or not is_int(entry.get("steps"))
                or not is_int(entry.get("points")) or entry["steps"] < 1
                or not 0 <= entry["points"] <= 200):
            raise bad_move(f"tomb_points.{i}")
        args["tomb_points"].append({"steps": entry["steps"], "points": entry["points"]})
    if args["gods"] is None and not args["tomb_points"]:
        raise bad_move("gods")
    return args


def _check_enter_values(state: Mapping[str, Any], seat: int, args: Mapping[str, Any]) -> None:
    gods_missing, steps = missing_values(state)
    if args["gods"] is not None and not gods_missing:
        raise violation("pharaon.value_known", N_("The gods are entered already."), "gods")
    for i, entry in enumerate(args["tomb_points"]):
        if entry["steps"] not in steps:
            raise violation("pharaon.value_known",
                             N_("No one needs the points of that tomb space."),
                             f"tomb_points.{i}")


def _change_enter_values(d: Draft, seat: int, args: Mapping[str, Any]) -> None:
    if args["gods"] is not None:
        d.own("board")["gods"] = args["gods"]
    for entry in args["tomb_points"]:
        d.own("tomb_points")[str(entry["steps"])] = entry["points"]
    gods_missing, steps = missing_values(d.state)
    if not gods_missing and not steps:
        d["phase"] = Phase.OVER.value


# Each move kind declared once: its phases, arguments, check and change.
RULES = (
    MoveRule(MoveKind.ENTER_VALUES, Term(N_("enter the printed values")), frozenset({Phase.VALUES}),
             parse=_parse_enter_values, check=_check_enter_values, change=_change_enter_values),
)
