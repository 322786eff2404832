"""Imhotep's set-up (spec imhotep.md §3, §6.3 any mix of sides, §6.5 options; §2.3 and §6.2 the
edition data of the group's copy, "our copy" in design.md §2): a fresh live game.

Pure (design.md §1): the colours and the start player were chosen at the table.
"""

from __future__ import annotations

from typing import Any, Mapping, Sequence

from ..base import Edition, N_, RuleViolation, resolve_edition
from ..referee import is_int
from . import printed
from .state import Phase

RULE_OPTIONS: Mapping[str, bool] = {       # §6.4, §6.5 with the seed edition's defaults
    "wrath_of_pharaoh": False,
    "allow_pass_when_stuck": True,
    "market_pick_mandatory": True,
    "hammer_partial_allowed": True,
    "chisel_requires_two_stones": True,
    "obelisks_b_score_at_end": False,
    "red_card_counts_for_wrath": True,
}
SIDE_OPTIONS: Mapping[str, str] = {f"b_{site}": site for site in printed.SITES}  # b_market, …
DISPLAY_OPTIONS = frozenset({"show_deck_counts"})


def normalise_options(options: Mapping[str, Any] | None) -> dict[str, Any]:
    """The rule options, with the sides from the ``b_<site>`` flags."""
    clean: dict[str, Any] = dict(RULE_OPTIONS)
    sides = {site: "A" for site in printed.SITES}
    for key, value in (options or {}).items():
        if key in RULE_OPTIONS or key in SIDE_OPTIONS or key in DISPLAY_OPTIONS:
            if not isinstance(value, bool):
                raise RuleViolation("imhotep.bad_option",
                                    N_("This must be true or false."),     # the field names it
                                    f"options.{key}", option=key)
            if key in RULE_OPTIONS:
                clean[key] = value
            elif key in SIDE_OPTIONS:
                sides[SIDE_OPTIONS[key]] = "B" if value else "A"
    clean["sides"] = sides
    return clean


def setup(options: Mapping[str, Any] | None, names: Sequence[str],
          table: Mapping[str, Any] | None, edition: Edition | None = None) -> dict[str, Any]:
    """A fresh game (§3). ``table`` gives each seat's colour and the start player:
    ``{"colors": ["black", "white"], "start_player": 0}``; ``edition`` the values of the
    group's copy (printed.EDITION; None: the defaults)."""
    opts = normalise_options(options)
    edition = edition or resolve_edition(printed.EDITION, None)
    count = len(names)
    if count not in printed.PLAYER_COUNTS:
        raise RuleViolation("imhotep.bad_player_count",
                            N_("Imhotep is played by 2 to 4 players, not %(count)d."),
                            count=count)
    table = table or {}
    colours = table.get("colors")
    if (not isinstance(colours, list) or len(colours) != count
            or not all(isinstance(c, str) and c in printed.COLOURS for c in colours)
            or len(set(colours)) != count):
        raise RuleViolation("imhotep.bad_colours",
                            N_("Each player needs a different colour: black, white, brown or "
                               "gray."), "colors")
    start = table.get("start_player", 0)
    if not is_int(start) or not 0 <= start < count:
        raise RuleViolation("imhotep.bad_start_player",
                            N_("The start player must be one of the %(count)d seats."),
                            "start_player", count=count)
    sled = [0] * count
    for seat_step in range(count):                  # §3 step 6: 2, 3, 4, 5 going left
        sled[(start + seat_step) % count] = printed.STARTING_SLED[seat_step]
    sides = opts["sides"]
    b_values = {**printed.default_b_values(), **edition.values}
    return {
        "names": [str(name) for name in names],
        "colours": list(colours),
        "options": opts,
        "b_values": b_values,
        "unverified": [key for key in printed.unverified_in_use(sides, count)
                       if key in edition.defaults],
        "warnings": [],
        "round": 1,
        "phase": Phase.ROUND_CARD.value,
        "start_player": start,
        "current": start,
        "passes": 0,
        "last_sailor": None,
        "next_start": None,
        "round_cards": [],
        "ships": [],
        "quarry": [printed.PLAYABLE_STONES - n for n in sled],
        "sled": sled,
        "score": [0] * count,
        "cards": [{kind: 0 for kind in printed.KEPT_CARDS} for _ in range(count)],
        "deck": dict(printed.DECK),
        "discard": {kind: 0 for kind in printed.CARD_KINDS},
        "discard_unknown": 0,
        "display": [],
        "pair": 0,
        "pyramids": ({"pyramids": [[] for _ in b_values["pyramids_b"]], "beside": []}
                     if sides["pyramids"] == "B" else []),
        "temple": [],
        "burial_chamber": [],
        "obelisks": ({"waiting": [0] * count, "towers": []} if sides["obelisks"] == "B"
                     else [0] * count),
        "delivered": [{} for _ in range(count)],
        "queue": [],
        "then": None,
    }
