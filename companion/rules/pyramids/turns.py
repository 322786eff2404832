"""Silver & Gold – Pyramids: closing a turn once every seat has marked.

Spec §8 (the race for the 10 / 6 / 3 boxes, simultaneous claims by lowest card number, R1-R5),
§7 (replacements, then the refill of the offer, C1-C3, seats in the §14 #8 order), §4 (7 turns
a round, 4 rounds). The moves of step 2 (:mod:`.marking`) close the turn; the replacements
(:mod:`.replacement`) advance it.

Pure: no I/O, no clock, no randomness.
"""

from __future__ import annotations

from ..referee import Draft
from . import printed as t
from .scoring import race_claims, thresholds_crossed
from .state import Pending, Phase


def close_turn(d: Draft) -> None:
    """Every seat has marked: step 4 then step 3 of the spec (their order changes nothing,
    since the race depends only on the completions), then the next turn."""
    players = d["players"]
    for colour in t.COLOURS:
        claimants = []
        for seat, player in enumerate(players):
            this_turn = [card["number"] for card in player["completed"]
                         if card["colour"] == colour and card["number"] in player["just"]]
            if not this_turn:
                continue
            after = sum(1 for card in player["completed"] if card["colour"] == colour)
            crossed = thresholds_crossed(after - len(this_turn), after)     # R4, R5
            # §14 #9: a player who completed two cards of the colour claims with the lower
            claimants += [(min(this_turn), seat)] * crossed
        for seat, value in race_claims(claimants, len(d["race"][colour])):     # R1-R3
            d.own("race", colour).append(seat)
            d.own("players", seat, "race", colour).append(value)
    last_turn = d["round"] == t.ROUNDS and d["turn"] == t.TURNS_PER_ROUND
    order = sorted((min(player["just"]), seat) for seat, player in enumerate(d["players"])
                   if player["just"])
    # NO_REPLACEMENTS_AFTER_THE_LAST_TURN [house]: new cards could never be marked.
    d["pending"] = [] if last_turn else [
        {"seat": seat, "kind": Pending.REPLACE.value, "left": len(d["players"][seat]["just"])}
        for _, seat in order]                                          # §14 #8
    advance(d)


def advance(d: Draft) -> None:
    """The next pending replacement or refill that can happen (§14 #11: with offer and deck
    both empty a player goes without), or the next turn."""
    pending = d["pending"]
    while pending:
        head = pending[0]
        if head["kind"] == Pending.REPLACE and (d["offer"] or d["deck"]):
            d["phase"] = Phase.REPLACE.value
            d["pending"] = pending
            return
        if head["kind"] == Pending.REFILL:
            d["phase"] = Phase.REFILL.value
            d["pending"] = pending
            return
        pending = pending[1:]
    d["pending"] = []
    _next_turn(d)


def _next_turn(d: Draft) -> None:
    """§4: 7 turns a round (the 8th expedition card stays unused), 4 rounds, then the end."""
    turn, round_ = d["turn"] + 1, d["round"]
    if turn > t.TURNS_PER_ROUND:
        turn, round_ = 1, round_ + 1
        d["revealed"] = []                       # the 8 cards are shuffled for the new round
    d["shape"] = None
    d["marked"] = [False] * len(d["names"])
    if round_ > t.ROUNDS:
        d["phase"] = Phase.OVER.value
        return
    d["turn"], d["round"] = turn, round_
    d["phase"] = Phase.REVEAL.value
