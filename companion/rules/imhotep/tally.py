"""The live table's tally and score (spec imhotep.md §5): the same score_game that score-only
mode uses, so the live Scoresheet and the score-only one agree.

Pure (design.md §1).
"""

from __future__ import annotations

from typing import Any, Mapping

from ..base import Scoresheet
from . import printed
from .scoring import GameTally, PlayerTally, score_game, score_track_only
from .state import Via, is_over


def _towers(state: Mapping[str, Any], seat: int) -> tuple[int, ...]:
    if state["options"]["sides"]["obelisks"] == "A":
        return ()
    return tuple(value for owner, value in state["obelisks"]["towers"] if owner == seat)


def _obelisk(state: Mapping[str, Any], seat: int) -> int:
    obelisks = state["obelisks"]
    return obelisks[seat] if isinstance(obelisks, list) else obelisks["waiting"][seat]


def pyramid_stones(state: Mapping[str, Any]) -> list[int]:
    """Every stone at the Pyramids, beside the board included (E12)."""
    pyramids = state["pyramids"]
    if isinstance(pyramids, list):
        return list(pyramids)
    return [seat for pile in pyramids["pyramids"] for seat in pile] + pyramids["beside"]


def _delivered_to(state: Mapping[str, Any], seat: int) -> frozenset[str]:
    reached = state["delivered"][seat]
    if state["options"]["red_card_counts_for_wrath"]:
        return frozenset(reached)
    return frozenset(site for site, via in reached.items() if via == Via.SHIP)


def tally(state: Mapping[str, Any]) -> GameTally:
    """The GameTally of the table as it stands (final once the game is over)."""
    colours = state["colours"]
    players = tuple(PlayerTally(
        name=name, colour=colours[seat], track=state["score"][seat],
        obelisk=_obelisk(state, seat),
        cards={kind: state["cards"][seat][kind] for kind in printed.KEPT_CARDS},
        sled=state["sled"][seat], delivered_to=_delivered_to(state, seat),
        obelisk_towers=_towers(state, seat)) for seat, name in enumerate(state["names"]))
    site_stones = {
        "pyramids": len(pyramid_stones(state)),
        "temple": len(state["temple"]),
        "burial_chamber": len(state["burial_chamber"]),
        "obelisks": sum(p.obelisk + printed.OBELISK_B_TOWER_STONES * len(p.obelisk_towers)
                        for p in players),
    }
    options = state["options"]
    return GameTally(players=players,
                     burial_chamber=tuple(colours[seat] for seat in state["burial_chamber"]),
                     site_stones=site_stones, sides=dict(options["sides"]),
                     wrath_of_pharaoh=options["wrath_of_pharaoh"],
                     obelisks_b_score_at_end=options["obelisks_b_score_at_end"],
                     b_values=state["b_values"])


def score(state: Mapping[str, Any]) -> Scoresheet:
    """The final Scoresheet once the game is over; before that, the scoring track so far.
    Either way it names the unverified defaults the table relied on (design.md §2)."""
    assumed = printed.score_assumptions(state["unverified"], state["b_values"])
    if not is_over(state):
        return score_track_only(state["names"], state["score"], state["sled"], assumed)
    return score_game(tally(state), assumed)


def final_document(state: Mapping[str, Any]) -> dict[str, Any]:
    """The score-only document (imhotep/final.py) describing this table as it stands; its
    ``edition`` holds the values of the group's copy this table used (not the defaults)."""
    game = tally(state)
    options = state["options"]
    b_side_obelisks = options["sides"]["obelisks"] == "B"
    players = []
    for player in game.players:
        entry: dict[str, Any] = {
            "name": player.name, "color": player.colour, "track": player.track,
            "obelisk": player.obelisk, "cards": dict(player.cards), "sled": player.sled,
            "delivered_to": [site for site in printed.MONUMENTS if site in player.delivered_to]}
        if b_side_obelisks:
            entry["obelisk_towers"] = list(player.obelisk_towers)
        players.append(entry)
    document: dict[str, Any] = {
        "game": "imhotep",
        "options": {"sides": dict(options["sides"]),
                    "wrath_of_pharaoh": options["wrath_of_pharaoh"],
                    "obelisks_b_score_at_end": options["obelisks_b_score_at_end"],
                    "red_card_counts_for_wrath": options["red_card_counts_for_wrath"]},
        "players": players,
        "burial_chamber": list(game.burial_chamber),
        "site_stones": {"pyramids": game.site_stones["pyramids"],
                        "temple": game.site_stones["temple"]}}
    in_use = printed.unverified_in_use(options["sides"], len(state["names"]))
    defaults = printed.default_b_values()
    entered = {key: value for key, value in state["b_values"].items()
               if value != defaults[key] or (key in in_use and key not in state["unverified"])}
    if entered:
        document["edition"] = entered
    return document
