"""Valley of the Kings: the tombs of a live table (spec §5.3: they lie face up), counted as the
score pad counts them (§10, §12, §14).

:func:`score` is the Scoresheet of the tombs so far; :func:`final_document` writes them as the
score-only document (:mod:`.final` scores it to the same Scoresheet); :func:`tomb_view` is a
tomb as a phone shows it, by scoring group.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..base import Scoresheet
from . import printed as t
from .pools import CHOSEN_SIZES, PoolId
from .scoring import PlayerTomb, distinct_titles, score_tombs, starter_assumption
from .setup import pool_of
from .state import GAME, card_set, group_of, is_over, printed_value


def unique_name(card: str) -> str:
    """How a unique is written in the final-state document: its name, else its id."""
    title = t.TITLES[card]
    return title.name_en or title.name_cs or card


def tombs(state: Mapping[str, Any]) -> list[PlayerTomb]:
    """Every tomb as the score pad counts it (§14)."""
    solo = state["solo"] is not None
    groups = {}
    result = []
    for name, player in zip(state["names"], state["players"]):
        tomb = player["tomb"]
        for card in tomb:
            if card not in groups:
                groups[card] = group_of(state, card)
        distinct, pairs = distinct_titles(tomb, groups, solo)
        starters = {s: tomb.count(s) for s in t.STARTERS}
        uniques = tuple((unique_name(c), printed_value(state, "vp", c)) for c in tomb
                        if card_set(state, c) == t.UNIQUE)
        result.append(PlayerTomb(name, len(tomb), starters, uniques, distinct, pairs))
    return result


def score(state: Mapping[str, Any]) -> Scoresheet:
    """The Scoresheet of the tombs so far (``complete`` once the game is over)."""
    players = tombs(state)
    assumed = starter_assumption(players, state["starter_vp"], state["confirmed_starters"])
    return score_tombs(players, pool_of(state["options"]), state["starter_vp"],
                       state["solo"] is not None, complete=is_over(state), assumed=assumed)


def final_document(state: Mapping[str, Any]) -> dict[str, Any]:
    """The score-only document of this game (final.py scores it to the same Scoresheet)."""
    options = state["options"]
    pool_id = PoolId(options["pool"])
    doc_options: dict[str, Any] = {"pool": pool_id.value, "solo": state["solo"]}
    for size in CHOSEN_SIZES.get(pool_id, ()):
        doc_options[f"set_{size}"] = options[f"set_{size}"]
    doc_options["uniques"] = options["uniques"]
    players = []
    for tomb, player in zip(tombs(state), state["players"]):
        # The itemised checklist as well as the counts: it carries the solo pairs (§12.1)
        # and score_final checks that both agree.
        checklist: dict[str, dict[str, dict[str, int]]] = {}
        for card in player["tomb"]:
            group = group_of(state, card)
            if group is not None:
                titles = checklist.setdefault(group, {"titles": {}})["titles"]
                titles[card] = titles.get(card, 0) + 1
        players.append({"name": tomb.name, "tomb_cards": tomb.tomb_cards,
                        "starters": dict(tomb.starters),
                        "uniques": [{"title": title, "vp": vp} for title, vp in tomb.uniques],
                        "distinct": {g["id"]: tomb.distinct.get(g["id"], 0)
                                     for g in state["pool"]["groups"]},
                        "checklist": checklist})
    document: dict[str, Any] = {"game": GAME, "options": doc_options, "players": players}
    edition: dict[str, Any] = {}
    confirmed = {s: state["starter_vp"][s] for s in state["confirmed_starters"]}
    if confirmed:
        edition["starter_vp"] = confirmed
    placements = {c: s for c, s in state["printed"]["card_set"].items()
                  if t.EDITION_DEFAULTS["card_set"].get(c) != s}
    if placements:
        edition["card_set"] = placements
    if edition:
        document["edition"] = edition
    return document


def tomb_view(state: Mapping[str, Any], seat: int) -> dict[str, Any]:
    """One tomb as the phone shows it (§5.3: tombs are public): the starters, each scoring
    group of the pool with its titles and copies and the distinct titles that count (solo:
    held once, §12.1), the uniques with their VP, and cards whose set nobody entered."""
    tomb = state["players"][seat]["tomb"]
    copies: dict[str, int] = {}
    for card in tomb:
        copies[card] = copies.get(card, 0) + 1
    solo = state["solo"] is not None
    groups = []
    for group in state["pool"]["groups"]:
        titles = [[card, n] for card, n in copies.items() if group_of(state, card) == group["id"]]
        counted = sum(1 for _card, n in titles if n == 1 or not solo)
        groups.append({"id": group["id"], "size": group["size"], "titles": titles,
                       "distinct": counted, "points": t.group_points(counted)})
    return {"cards": len(tomb),
            "starters": {s: copies.get(s, 0) for s in t.STARTERS},
            "groups": groups,
            "uniques": [[card, printed_value(state, "vp", card)] for card in copies
                        if card_set(state, card) == t.UNIQUE],
            "unplaced": [card for card in copies if card_set(state, card) is None]}
