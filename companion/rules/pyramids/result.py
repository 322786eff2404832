"""Silver & Gold – Pyramids live game: its Scoresheet and its final-state document (spec §9).

A live game is scored by the same :func:`.scoring.score_game` score-only mode uses
(:mod:`.final`), from a tally of each player's scoring card; :func:`final_document` is the
score-only document that describes the game.

Pure: no I/O, no clock, no randomness.
"""

from __future__ import annotations

from typing import Any, Mapping

from ..base import Assumption, Scoresheet
from .final import penalty_assumption
from .scoring import PlayerTally, score_game, worst_penalty
from .state import GAME, is_over


def _tallies(state: Mapping[str, Any]) -> list[PlayerTally]:
    penalties = state["penalties"]
    return [PlayerTally(
        name=name,
        completed=tuple((card["number"], card["colour"]) for card in player["completed"]),
        torches=tuple(player["torches"]),
        race={colour: tuple(values) for colour, values in player["race"].items()},
        red_gems=player["red"], green_gems=player["green"],
        worst_skull_penalty=worst_penalty(player["skulls"], penalties))
        for name, player in zip(state["names"], state["players"])]


def _assumed(state: Mapping[str, Any]) -> list[Assumption]:
    """The skull penalties are an assumption when the published cards are played with the
    default table and some player has a skull ticked."""
    if state["penalties_assumed"] and any(p["skulls"] for p in state["players"]):
        return [penalty_assumption(state["penalties"])]
    return []


def score(state: Mapping[str, Any]) -> Scoresheet:
    """The Scoresheet of the game so far (complete once it is over)."""
    return score_game(_tallies(state), complete=is_over(state), assumed=_assumed(state))


def final_document(state: Mapping[str, Any]) -> dict[str, Any]:
    """The score-only document (final.py) describing this game; the skull penalties are
    named unless they are the unconfirmed default."""
    players = []
    for name, player in zip(state["names"], state["players"]):
        players.append({
            "name": name,
            "completed": [dict(card) for card in player["completed"]],
            "torches": list(player["torches"]),
            "race": {colour: list(values) for colour, values in player["race"].items()},
            "red_gems": player["red"], "green_gems": player["green"],
            "worst_skull_penalty": worst_penalty(player["skulls"], state["penalties"]),
            "skulls": player["skulls"],
        })
    document: dict[str, Any] = {"game": GAME, "players": players}
    if not state["penalties_assumed"]:
        document["edition"] = {"skull_penalties": list(state["penalties"])}
    return document
