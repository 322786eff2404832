"""A live game scored (spec shared/rules/pharaon.md §5, §6, §7.7): the actors' holdings as
scoring tallies, the Scoresheet so far, and the score-only document describing the game.
"""

from __future__ import annotations

from typing import Any, Mapping

from ..base import Assumption, Scoresheet
from . import printed as t
from . import traitor as tr
from .edition import EDITION, SCORING_KEYS
from .scoring import Board, God, Half, PlayerTally, score_game
from .state import GAME, is_over, is_traitor, tomb_points_known


def _offering_classes(player: Mapping[str, Any]) -> dict[str, int]:
    counts = {cls: 0 for cls in t.OFFERING_CLASSES}
    for token, count in player["off"].items():
        counts[t.offering_class(token)] += count
    return counts


def _traitor_nobles(state: Mapping[str, Any], player: Mapping[str, Any]) -> list[int]:
    """His nobles as they score (Q7: the starting noble counts unless the option says no)."""
    nobles = list(player["nobles"])
    if not state["options"]["traitor_start_noble_counts"] and player["start_noble"] in nobles:
        nobles.remove(player["start_noble"])
    return nobles


def _column_resources(state: Mapping[str, Any]) -> tuple[int, int]:
    """Basic and silver tokens on his columns (Q8; stand-ins excluded)."""
    basic = silver = 0
    for column in state["traitor_board"]["columns"]:
        for token in column:
            if token["stand_in"]:
                continue
            if token["token"] == t.SILVER:
                silver += 1
            else:
                basic += 1
    return basic, silver


def actor_tallies(state: Mapping[str, Any]) -> tuple[list[PlayerTally], Board]:
    """Every actor's holdings as scoring tallies (seats first), and the board."""
    board_doc = state["board"]
    gods = board_doc["gods"]
    board = Board(tuple(board_doc["areas"]), None if gods is None else tuple(
        God(g["name"], Half(g["a"]["threshold"], g["a"]["points"]),
            Half(g["b"]["threshold"], g["b"]["points"])) for g in gods))
    scribes = state["rules"]["scribes"]
    tallies = []
    for actor, player in enumerate(state["players"]):
        basic = sum(player["res"][k] for k in t.BASIC)
        silver = player["res"][t.SILVER]
        common = dict(
            name=state["actors"][actor], artisans=tuple(c["points"] for c in player["artisans"]),
            nile=tuple(player["nile"]), tomb_steps=player["tomb"],
            tomb_points=tomb_points_known(state, player["tomb"]),
            offerings=_offering_classes(player), pharaoh=state["pharaoh"] == actor,
            first_player=state["first_player"] == actor)
        if is_traitor(state, actor):
            tiles = state["rules"]["traitor_tiles"]
            if state["options"]["traitor_column_tokens_score"]:
                extra_basic, extra_silver = _column_resources(state)
                basic, silver = basic + extra_basic, silver + extra_silver
            tallies.append(PlayerTally(
                nobles=tuple(_traitor_nobles(state, player)), basic=basic, silver=silver,
                traitor=True,
                traitor_gods=tuple(tr.traitor_gods(state["traitor_board"], tiles,
                                                   board_doc["areas"])),
                traitor_multiplier=tr.traitor_multiplier(state["traitor_board"], tiles),
                **common))
        else:
            tallies.append(PlayerTally(
                nobles=tuple(player["nobles"]), basic=basic, silver=silver,
                scribe_areas={card: scribes[card - 1]["area"] for card in player["nobles"]
                              if card in t.SCRIBES}, **common))
    return tallies, board


def _scoring_assumptions(state: Mapping[str, Any]) -> list[Assumption]:
    """The edition defaults the score relied on: the Scribes' areas, when a player owns a
    Scribe and the group has not entered them."""
    owns_scribe = any(card in t.SCRIBES for actor, p in enumerate(state["players"])
                      if not is_traitor(state, actor) for card in p["nobles"])
    return [Assumption(value.key, value.label, state["rules"][value.key]) for value in EDITION
            if value.key in SCORING_KEYS and value.key in state["assumed"] and owns_scribe]


def score(state: Mapping[str, Any]) -> Scoresheet:
    """The Scoresheet so far (complete once the game is over); seats first, the Traitor
    last."""
    tallies, board = actor_tallies(state)
    return score_game(tallies, board, top_cumulative=state["options"]["nile_top_cumulative"],
                      complete=is_over(state), assumed=_scoring_assumptions(state))


def final_document(state: Mapping[str, Any]) -> dict[str, Any]:
    """The score-only document describing this game (final.py scores it to the same
    Scoresheet). Scribe areas are listed only when the group entered them; otherwise the
    document relies on the same default as the live game."""
    tallies, board = actor_tallies(state)
    scribes_entered = "scribes" not in state["assumed"]
    names = state["actors"]

    def holder(actor: int | None) -> str | None:
        return None if actor is None else names[actor]

    def holdings_of(tally: PlayerTally) -> dict[str, Any]:
        out = {"nobles": list(tally.nobles), "artisans": list(tally.artisans),
               "nile": list(tally.nile), "tomb_steps": tally.tomb_steps,
               "basic": tally.basic, "silver": tally.silver,
               "offerings": dict(tally.offerings)}
        if tally.tomb_points is not None:
            out["tomb_points"] = tally.tomb_points
        return out

    document: dict[str, Any] = {
        "game": GAME,
        "board": {"areas": list(board.areas),
                  "gods": [dict(g) for g in state["board"]["gods"]]
                  if state["board"]["gods"] is not None else []},
        "players": [],
        "pharaoh": holder(state["pharaoh"]),
        "first_player": holder(state["first_player"]),
        "options": {"nile_top_cumulative": state["options"]["nile_top_cumulative"]},
    }
    for tally in tallies:
        if tally.traitor:
            document["traitor"] = {"name": tally.name, "multiplier": tally.traitor_multiplier,
                                   "gods": list(tally.traitor_gods), **holdings_of(tally)}
        else:
            entry = {"name": tally.name, **holdings_of(tally)}
            if scribes_entered:
                entry["scribes"] = [{"card": card, "area": area}
                                    for card, area in sorted(tally.scribe_areas.items())]
            document["players"].append(entry)
    return document
