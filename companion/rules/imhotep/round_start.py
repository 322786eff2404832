"""The start of a round (spec imhotep.md §4.1 step 1, §2.3 round cards, §6.1 Market B, E4, E5,
E21): the ``round_card`` and ``reveal_market`` moves.

Physical randomness is input (design.md §2): the start player enters the round card that came
up and the market cards revealed; the referee checks they are still possible, and
:func:`.prompts.chance` lists what it would accept.

Pure (design.md §1).
"""

from __future__ import annotations

from typing import Any, Mapping

from ..base import ChoiceField, IntField, ListField, N_, RuleViolation, Term
from ..referee import Args, Draft, MoveRule
from . import printed
from .delivery import reshuffle
from .state import CARD_CHOICES, MoveKind, Phase, not_in_deck, pile_count


def distinct(cards: list[list[int]]) -> list[list[int]]:
    """``cards`` without repeats, in their order."""
    out: list[list[int]] = []
    for card in cards:
        if card not in out:
            out.append(card)
    return out


def unused_round_cards(state: Mapping[str, Any]) -> tuple[list[list[int]], list[list[int]]]:
    """(unused cards of our copy nobody doubts, unused unverified ones) for this player count
    (§2.3): 3 players' cards 6-7 are unverified until the group enters its copy's."""
    count = len(state["names"])
    cards = printed.round_cards(count, state["b_values"])
    doubted = count == 3 and "round_cards_3p" in state["unverified"]
    groups = (cards[:len(printed.ROUND_CARDS[3])], cards[len(printed.ROUND_CARDS[3]):]) \
        if doubted else (cards, [])
    used = [list(card) for card in state["round_cards"]]
    left: tuple[list[list[int]], list[list[int]]] = ([], [])
    for group, listed in zip(left, groups):
        for card in listed:
            if card in used:
                used.remove(card)
            else:
                group.append(card)
    return left


def reveal_counts(state: Mapping[str, Any]) -> tuple[int, int]:
    """(open cards, face-down pair cards) this round's reveal deals (§4.1, §6.1, E4)."""
    b_side = state["options"]["sides"]["market"] == "B"
    wanted_open = printed.MARKET_B_OPEN if b_side else printed.MARKET_A_DISPLAY
    wanted_pair = printed.MARKET_B_PAIR if b_side else 0
    available = (pile_count(state) + sum(state["discard"].values())
                 + state["discard_unknown"])
    shown = min(wanted_open, available)
    return shown, min(wanted_pair, available - shown)


def reveal_pool(state: Mapping[str, Any]) -> tuple[list[str], Mapping[str, int], int]:
    """What the open market cards can be (§4.1, E4, E5): (cards that must come up, the pool
    the others come from, how many come from it). A pile that runs out comes up whole first,
    then the shuffled discards give the rest; with discards nobody saw (E5) the pile's content
    is unknown, so any card not seen since the last shuffle may come up."""
    shown, _ = reveal_counts(state)
    deck, discard = state["deck"], state["discard"]
    pile = pile_count(state)
    if pile >= shown:
        return [], deck, shown
    if state["discard_unknown"]:
        return [], {k: deck[k] + discard[k] for k in printed.CARD_KINDS}, shown
    return [k for k, n in deck.items() for _ in range(n)], discard, shown - pile


# ---- round_card: the four ships of the card that came up ---------------------------------------


def _round_card_status(state: Mapping[str, Any], ships: list[int]) -> str | None:
    """None for an unused card nobody doubts; a warning code for 3 players (E21); raises for
    a card the rules refuse (§2.3)."""
    if not printed.fits_tokens(ships):
        raise RuleViolation("imhotep.bad_round_card",
                            N_("A round card shows 4 ships of 1 to 4 spaces that the tokens "
                               "allow (at most two 4s, three 3s, two 2s and one 1)."),
                            "move.ships")
    card = sorted(ships, reverse=True)
    verified, unverified = unused_round_cards(state)
    count = len(state["names"])
    if card in verified:
        return None
    if count == 3:
        return ("imhotep.unverified_round_card" if card in unverified
                else "imhotep.round_card_not_listed")
    if card in printed.round_cards(count, state["b_values"]):
        raise RuleViolation("imhotep.card_used",
                            N_("The round card %(card)s has already been used in this game."),
                            "move.ships", card="-".join(map(str, card)))
    raise RuleViolation("imhotep.card_not_in_set",
                        N_("No round card for %(players)d players shows %(card)s."),
                        "move.ships", players=count, card="-".join(map(str, card)))


def _check_round_card(state: Mapping[str, Any], seat: int, args: Args) -> None:
    _round_card_status(state, args["ships"])


def _round_card(d: Draft, seat: int, args: Args) -> None:
    """§4.1 step 1: the card's four ships are put out, empty and unsailed."""
    warning = _round_card_status(d.state, args["ships"])
    card = sorted(args["ships"], reverse=True)
    if warning:
        d["warnings"] = d["warnings"] + [{"round": d["round"], "code": warning, "ships": card}]
    d["round_cards"] = d["round_cards"] + [card]
    d["ships"] = [{"capacity": c, "minimum": printed.SHIP_MINIMUM[c], "slots": [None] * c,
                   "site": None} for c in card]
    d["phase"] = Phase.MARKET.value


# The card's length and sizes are checked against the tokens (imhotep.bad_round_card), which
# words the problem better than a bound here would.
ROUND_CARD = MoveRule(
    MoveKind.ROUND_CARD.value, Term(N_("turn up the round card")),
    frozenset({Phase.ROUND_CARD.value}),
    args=(ListField("ships", N_("Ships"), IntField("spaces", N_("Spaces"), default=None, min=1),
                    required=True, item_label=N_("Ship %(n)d")),),
    check=_check_round_card, change=_round_card,
    hint=N_("At the start of a round: the spaces of the four ships on the round card that "
            "came up."))


# ---- reveal_market: the cards that came up -----------------------------------------------------


def _check_reveal(state: Mapping[str, Any], seat: int, args: Args) -> None:
    """§4.1 and E4: the right number of cards, each one the pile (or, once it runs out, the
    shuffled discards) can still hold; a pile that runs out comes up whole first."""
    cards = args["cards"]
    shown, _ = reveal_counts(state)
    if len(cards) != shown:
        raise RuleViolation("imhotep.reveal_count",
                            N_("Reveal %(count)d market cards, not %(given)d."),
                            "move.cards", count=shown, given=len(cards))
    first, pool, _ = reveal_pool(state)
    for card in dict.fromkeys(first):
        if cards.count(card) < first.count(card):
            raise RuleViolation("imhotep.pile_card_missing",
                                N_("The draw pile still holds %(card)s; it is revealed before "
                                   "the discards are shuffled."), "move.cards",
                                card=printed.CARD_LABELS[card])
    for index, card in enumerate(cards):
        if cards.count(card) > first.count(card) + pool.get(card, 0):
            raise not_in_deck(card, f"move.cards.{index}")


def _reveal(d: Draft, seat: int, args: Args) -> None:
    """§4.1 step 1 and §6.1 Market B: open cards, then the face-down pair."""
    shown, pair = reveal_counts(d.state)
    if pile_count(d.state) < shown + pair:
        reshuffle(d)          # the pile runs out during this reveal (E4)
    deck = d.own("deck")
    for card in args["cards"]:
        deck[card] -= 1
    d["display"] = list(args["cards"])
    d["pair"] = pair
    d["phase"] = Phase.TURN.value
    d["current"] = d["start_player"]
    d["passes"] = 0


REVEAL_MARKET = MoveRule(
    MoveKind.REVEAL_MARKET.value, Term(N_("reveal the market cards")),
    frozenset({Phase.MARKET.value}),
    args=(ListField("cards", N_("Cards"), ChoiceField("card", N_("Card"), CARD_CHOICES),
                    required=True, item_label=N_("Card %(n)d")),),
    check=_check_reveal, change=_reveal,
    hint=N_("After the round card: the market cards turned face up (the face-down pair of "
            "Market B is named when it is taken)."))
