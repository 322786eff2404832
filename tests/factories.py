"""Builders for test data (design.md §4): small functions, not fixture graphs."""

from __future__ import annotations

import copy
from typing import Any

from companion.rules.ra import printed as ra_printed

NAMES = ["Ana", "Řehoř", "Ödön", "Bea", "Cyril"]


def ra_epoch(gods=0, pharaohs=0, niles=0, floods=0, gold=0, **civs) -> dict[str, Any]:
    return {"gods": gods, "pharaohs": pharaohs, "niles": niles, "floods": floods, "gold": gold,
            "civilizations": {k: civs.get(k, 0) for k in ra_printed.CIVILIZATION_KINDS}}


def ra_document(players: int = 4, epochs: int = 3) -> dict[str, Any]:
    """A valid Ra document: a little of everything, within the box, suns dealt by group."""
    groups = ra_printed.SUN_GROUPS[players]
    doc: dict[str, Any] = {"game": "ra", "players": []}
    for p in range(players):
        player: dict[str, Any] = {
            "name": NAMES[p],
            "epochs": [ra_epoch(gods=1 if p == e else 0, pharaohs=p + e, niles=p,
                                floods=1 if (p + e) % 2 else 0, gold=1 if p == 0 and e == 0
                                else 0, **{ra_printed.CIVILIZATION_KINDS[(p + e) % 5]: 1})
                       for e in range(epochs)],
        }
        if epochs == 3:
            player["monuments"] = {kind: (p + i) % 3 if p < 3 else (p + i) % 2 for i, kind
                                   in enumerate(ra_printed.MONUMENT_KINDS)}
            player["suns"] = list(groups[p])
        doc["players"].append(player)
    return doc


def ra_form(document: dict[str, Any]) -> dict[str, str]:
    """The score-only form fields a person would type for ``document``."""
    players = document["players"]
    form = {"_players": str(len(players)), "_stages": str(len(players[0]["epochs"]))}

    def walk(value: Any, path: str) -> None:
        if isinstance(value, dict):
            for key, sub in value.items():
                walk(sub, f"{path}.{key}" if path else key)
        elif isinstance(value, list):
            for i, sub in enumerate(value):
                walk(sub, f"{path}.{i}")
        else:
            form[path] = str(value)

    walk({"players": copy.deepcopy(players)}, "")
    return form


def seat_token(client, table_id: str) -> str | None:
    """The seat token this test client's phone holds for ``table_id`` (from its cookie)."""
    from companion.web import wallet

    cookie = client.get_cookie(wallet.TABLES_COOKIE)
    for kind, held_id, token in wallet._parse_tables(cookie.value if cookie else ""):
        if kind == wallet.SEAT and held_id == table_id:
            return token
    return None
