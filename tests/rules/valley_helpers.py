"""Small builders shared by the Valley of the Kings tests."""

from __future__ import annotations

import copy
from typing import Any

from companion.rules.base import RuleViolation
from companion.rules.valley import VALLEY
from companion.rules.valley import printed as t
from companion.rules.valley.setup import setup
from companion.rules.valley.state import UNKNOWN
from tests.rules.refusals import assert_refused

NAMES = ["Ana", "Bo", "Cy", "Di", "Eva", "Filip"]
FULL = ["sling", "dagger", "serdab", "nut", "ring", "brooch"]     # B1 B2 B3 M1 M2 T


def new_game(players: int = 2, pyramid: list[Any] | None = None, boneyard: str = "?",
             start: int = 0, edition=None, **options: Any) -> dict[str, Any]:
    """A fresh table; the pyramid defaults to six named Afterlife cards."""
    return setup(options, NAMES[:players],
                 {"start_player": start, "pyramid": list(pyramid or FULL), "boneyard": boneyard},
                 edition)


def give(state: dict[str, Any], seat: int, *cards: str, zone: str = "hand") -> dict[str, Any]:
    """A copy of ``state`` in which ``seat`` holds ``cards`` (bought in an earlier turn):
    known titles of theirs, counted in ``zone`` ("hand", "deck" or "discard")."""
    state = copy.deepcopy(state)
    player = state["players"][seat]
    for card in cards:
        player["cards"] += 1
        player[zone] += 1
        if card != UNKNOWN:
            player["known"][card] = player["known"].get(card, 0) + 1
            state["located"][card] = state["located"].get(card, 0) + 1
        if zone == "discard":           # known to lie there (state.DISCARD_PILE_RULE)
            player["discard_known"][card] = player["discard_known"].get(card, 0) + 1
    return state


def entomb(state: dict[str, Any], seat: int, *cards: str) -> dict[str, Any]:
    """A copy in which ``seat``'s tomb already holds ``cards`` (sealed in earlier turns)."""
    state = copy.deepcopy(state)
    for card in cards:
        state["players"][seat]["tomb"].append(card)
        if t.TITLES[card].kind is not t.Kind.STARTER:
            state["located"][card] = state["located"].get(card, 0) + 1
    return state


def play(state: dict[str, Any], *moves: dict[str, Any], seat: int | None = None
         ) -> dict[str, Any]:
    """Apply moves by the active seat (or ``seat``)."""
    for move in moves:
        state = VALLEY.apply(state, state["current"] if seat is None else seat, move)
    return state


def refused(state: dict[str, Any], move: dict[str, Any], code: str, seat: int | None = None,
            field: str | None = ...) -> RuleViolation:  # type: ignore[assignment]
    """``move`` by the active seat (or ``seat``) is refused with ``code`` (and ``field``, when
    given), the state unchanged: the shared check of tests/rules/refusals.py."""
    seat = state["current"] if seat is None else seat
    return assert_refused(VALLEY, state, seat, move, code, field)


def pay(*cards: Any) -> list[dict[str, Any]]:
    """Payment items: a title (capital from the catalogue), or (title, typed capital)."""
    items = []
    for card in cards:
        if isinstance(card, tuple):
            items.append({"card": card[0], "capital": card[1]})
        else:
            items.append({"card": card})
    return items


def player_doc(name: str, tomb_cards: int, starters: dict[str, int] | None = None,
               uniques: list[tuple[str, int | None]] = (), distinct: dict[str, int] | None = None,
               checklist: dict[str, Any] | None = None) -> dict[str, Any]:
    player: dict[str, Any] = {"name": name, "starters": dict(starters or {}),
                              "uniques": [{"title": u, "vp": vp} for u, vp in uniques]}
    if tomb_cards is not None:
        player["tomb_cards"] = tomb_cards
    if distinct is not None:
        player["distinct"] = distinct
    if checklist is not None:
        player["checklist"] = checklist
    return player


def document(*players: dict[str, Any], pool: str = "afterlife", solo: str | None = None,
             edition: dict[str, Any] | None = None, **options: Any) -> dict[str, Any]:
    doc: dict[str, Any] = {"game": "valley", "options": {"pool": pool, "solo": solo, **options},
                           "players": list(players)}
    if edition is not None:
        doc["edition"] = edition
    return doc


def category(scored_player: dict[str, Any], key: str) -> dict[str, Any]:
    found = [c for c in scored_player["breakdown"]["categories"] if c["category"] == key]
    assert len(found) == 1, found
    return found[0]
