"""Silver & Gold – Pyramids: a fresh live game (spec §3 set-up).

The physical start is input: the table enters the 4 cards dealt to each seat, the 2 kept and
the offer of 4 (:func:`setup_schema`), or lets the app deal (``dealer: "app"``), and the game
then starts with the moves of :mod:`.deal`. The state is described in :mod:`.state`.

Pure: no I/O, no clock, no randomness.
"""

from __future__ import annotations

from typing import Any, Mapping, Sequence

from ..base import (ChoiceField, Edition, ListField, N_, ObjectField, RuleViolation,
                    check_document)
from . import ours
from . import printed as t
from .edition import known_cards
from .state import OPTION_DEFAULTS, CardsMode, Dealer, Phase, new_card


def setup_schema(players: int) -> ObjectField:
    """§3 as the open-table form: who deals; when the table dealt, per seat the 4 cards dealt
    and the 2 kept, and the offer."""
    number = ChoiceField("card", N_("Card number"), tuple(range(1, t.CARD_COUNT + 1)))
    hand = ObjectField("hand", N_("Seat"), (
        ListField("dealt", N_("Cards dealt"), number, min_items=0, max_items=t.DEALT,
                  item_label=N_("Card %(n)d")),
        ListField("kept", N_("Cards kept"), number, min_items=t.KEPT, max_items=t.KEPT,
                  required=True, item_label=N_("Card %(n)d")),
    ))
    return ObjectField("setup", N_("Set-up"), (
        ChoiceField("dealer", N_("Who deals the pyramid cards"), (
            (Dealer.TABLE.value, N_("We dealt them: the cards are entered below")),
            (Dealer.APP.value, N_("The app deals: every phone keeps 2 of its 4")),
        ), default=Dealer.TABLE.value),
        # required when the table dealt (checked in _check_deal)
        ListField("hands", N_("Cards of each seat"), hand, min_items=players,
                  max_items=players, item_label=N_("Seat %(n)d")),
        ListField("offer", N_("The offer"), number, min_items=t.OFFER_SIZE,
                  max_items=t.OFFER_SIZE, item_label=N_("Card %(n)d")),
    ))


def default_setup(players: int) -> dict[str, Any]:
    """A fixed deal: seat s is dealt s+1, s+1+P, s+1+2P, s+1+3P and keeps the first two; the
    offer is the next four numbers. The table enters what it really dealt."""
    hands = [{"dealt": [s + 1 + k * players for k in range(t.DEALT)],
              "kept": [s + 1, s + 1 + players]} for s in range(players)]
    first = t.DEALT * players + 1
    return {"dealer": Dealer.TABLE.value, "hands": hands,
            "offer": list(range(first, first + t.OFFER_SIZE))}


def _check_deal(players: int, table: Any
                ) -> tuple[list[list[int]], list[list[int]], list[int]] | None:
    """§3: every number at most once among the cards dealt (or kept, when the deal is not
    given) and the offer; the kept cards among those dealt. A card dealt and returned may show
    up in the offer: the returned cards are shuffled back before the offer is revealed.
    None when the app deals (what else the set-up holds is then not used)."""
    clean, violations = check_document(setup_schema(players), table)
    if clean["dealer"] == Dealer.APP and not any(v.field == "dealer" for v in violations):
        return None
    if violations:
        raise violations[0]
    for key in ("hands", "offer"):
        if key not in clean:
            raise RuleViolation("pyramids.deal_needed",
                                N_("Enter the cards each player kept and the offer, or let "
                                   "the app deal."), key)
    hands, offer = clean["hands"], clean["offer"]
    seen: set[int] = set()

    def claim(number: int, field: str) -> None:
        if number in seen:
            raise RuleViolation("pyramids.duplicate_card",
                                N_("Card %(number)d is entered twice."), field, number=number)
        seen.add(number)

    returned: set[int] = set()
    for s, hand in enumerate(hands):
        dealt, kept = hand.get("dealt") or [], hand["kept"]
        if dealt and len(dealt) != t.DEALT:
            raise RuleViolation("pyramids.dealt_count", N_("Each player is dealt 4 cards."),
                                f"hands.{s}.dealt")
        for i, number in enumerate(dealt):
            claim(number, f"hands.{s}.dealt.{i}")
        for i, number in enumerate(kept):
            if kept.index(number) != i:
                raise RuleViolation("pyramids.duplicate_card",
                                    N_("Card %(number)d is entered twice."),
                                    f"hands.{s}.kept.{i}", number=number)
            if not dealt:
                claim(number, f"hands.{s}.kept.{i}")
            elif number not in dealt:
                raise RuleViolation("pyramids.kept_not_dealt",
                                    N_("A player keeps 2 of the 4 cards dealt to them."),
                                    f"hands.{s}.kept.{i}")
        returned |= set(dealt) - set(kept)
    for i, number in enumerate(offer):
        if number in returned:
            returned.discard(number)             # back in the deck, then turned up
        else:
            claim(number, f"offer.{i}")
    return ([list(hand.get("dealt") or hand["kept"]) for hand in hands],
            [list(hand["kept"]) for hand in hands], list(offer))


def setup(options: Mapping[str, Any] | None, names: Sequence[str], table: Any,
          edition: Edition | None = None) -> dict[str, Any]:
    """A fresh game (§3). ``edition`` matters for the published cards only: our edition's
    scoring card, deck and layouts are fixed (ours.py)."""
    opts = {**OPTION_DEFAULTS, **(options or {})}
    if opts["cards"] not in (CardsMode.OURS, CardsMode.PUBLISHED):
        raise RuleViolation("pyramids.bad_option", N_("Choose one of the values offered."),
                            "options.cards")
    count = len(names)
    if count not in t.PLAYER_COUNTS:
        raise RuleViolation("pyramids.bad_player_count",
                            N_("Silver & Gold – Pyramids is played by 2 to 4 players, not "
                               "%(count)d."), "players", count=count)
    deal = _check_deal(count, table)
    # §3 dealt by the app: nobody holds a card yet, the whole pack is the deck
    dealt, kept, offer = deal or ([[] for _ in range(count)], [[] for _ in range(count)], [])
    if opts["cards"] == CardsMode.OURS:
        penalties, assumed = list(ours.SKULL_PENALTIES), False
        expedition: list[str] | None = list(ours.EXPEDITION_DECK)
        colours: list[str | None] | None = None
        grids: list[str | None] | None = None
    else:
        values = edition.values if edition else {}
        defaults = edition.defaults if edition else ("skull_penalties", "expedition_deck")
        penalties = list(values.get("skull_penalties") or ours.SKULL_PENALTIES)
        assumed = "skull_penalties" in defaults
        expedition = (None if "expedition_deck" in defaults or not values.get("expedition_deck")
                      else list(values["expedition_deck"]))   # §10: palette until confirmed
        colours, grids = known_cards(values.get("card_layouts"))
    in_play = {n for hand in kept for n in hand} | set(offer)
    state: dict[str, Any] = {
        "names": [str(name) for name in names],
        "options": {"cards": opts["cards"],
                    "skulls_before_potion": bool(opts["skulls_before_potion"])},
        "penalties": penalties, "penalties_assumed": assumed, "expedition": expedition,
        "colours": colours, "grids": grids,
        "round": 1, "turn": 1, "phase": (Phase.REVEAL if deal else Phase.DEAL).value,
        "shape": None, "revealed": [],
        "offer": offer,
        "deck": [n for n in range(1, t.CARD_COUNT + 1) if n not in in_play],
        "race": {colour: [] for colour in t.COLOURS},
        "marked": [False] * count,
        "pending": [],
        "players": [],
    }
    state["players"] = [{
        "open": [new_card(state, n) for n in kept[s]], "completed": [], "just": [],
        "red": 0, "green": 0, "torches": [False] * t.TORCH_BOXES, "skulls": 0,
        "race": {colour: [] for colour in t.COLOURS}, "dealt": dealt[s],
    } for s in range(count)]
    return state
