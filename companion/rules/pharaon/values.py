"""Printed values entered at the end (spec shared/rules/pharaon.md §9.1 U4, U6): move
``enter_values``.

Gods not entered at set-up and tomb points no copy data gives are asked after round 5, of
every seat at once (the entries commute); the game is over once nothing is missing.
"""

from __future__ import annotations

from typing import Any, Mapping

from ..base import IntField, ListField, N_, ObjectField, Term, TextField
from ..referee import Draft, MoveRule
from .state import MoveKind, Phase, Stage, bad_argument, tomb_points_known, violation


def missing_values(state: Mapping[str, Any]) -> tuple[bool, list[int]]:
    """Whether the gods are missing, and the tomb steps whose points are missing."""
    steps = sorted({p["tomb"] for p in state["players"]
                    if p["tomb"] and tomb_points_known(state, p["tomb"]) is None})
    return state["board"]["gods"] is None, steps


def _check_enter_values(state: Mapping[str, Any], seat: int, args: Mapping[str, Any]) -> None:
    if args["gods"] is None and not args["tomb_points"]:
        raise bad_argument(MoveKind.ENTER_VALUES, "gods",
                           N_("Enter the gods or the points of a tomb space."))
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
        # a god's name is cut to what the board shows (a blank one is its number)
        d.own("board")["gods"] = [{**god, "name": god["name"][:30] or f"{g + 1}"}
                                  for g, god in enumerate(args["gods"])]
    for entry in args["tomb_points"]:
        d.own("tomb_points")[str(entry["steps"])] = entry["points"]
    gods_missing, steps = missing_values(d.state)
    if not gods_missing and not steps:
        d["phase"] = Stage.OVER


def _half(key: str, label: str) -> ObjectField:
    return ObjectField(key, label, (IntField("threshold", N_("Threshold"), default=None),
                                    IntField("points", N_("Points"), default=None)),
                       required=True)


# The move ``enter_values``, declared once: its arguments, its check and its change.
RULES = (
    MoveRule(MoveKind.ENTER_VALUES, Term(N_("enter the printed values")),
             frozenset({Phase.VALUES}),
             args=(
                 ListField("gods", N_("Gods"), ObjectField("god", N_("God"), (
                     TextField("name", N_("Name"), max_length=200, required=False),
                     _half("a", N_("Half on the area before it (clockwise)")),
                     _half("b", N_("Half on the area after it")))),
                           min_items=5, max_items=5, optional=True, item_label=N_("God %(n)d")),
                 ListField("tomb_points", N_("Tomb points"), ObjectField("space", N_("Space"), (
                     IntField("steps", N_("Tomb space"), min=1, default=None),
                     IntField("points", N_("Points"), max=200, default=None))),
                           default=(), item_label=N_("Space %(n)d")),
             ),
             check=_check_enter_values, change=_change_enter_values),
)
