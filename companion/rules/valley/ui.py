"""Valley of the Kings: the words and helpers only Valley's own templates read
(``templates/games/valley/live.html`` as ``ruleset.ui.…``); shared code never uses them.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..base import N_
from . import names
from . import printed as t
from . import pyramid as pyr
from .effects import EFFECT_LABELS
from .state import UNKNOWN, card_set

name = names.term          # a title, a set or a group, rendered by the ``translate`` filter
copy_language = names.COPY_LANGUAGE     # the language of the printed names (the ``lang``)
unknown_card = UNKNOWN
slots = pyr.SLOTS
base_slots = pyr.BASE
effect_labels = EFFECT_LABELS

action_hints: Mapping[str, str] = {      # what each clarified action does (§8), for the phone
    t.Action.NUT: N_("An opponent may gain the cheapest pyramid card; then you gain the most "
                     "expensive one."),
    t.Action.BROOCH: N_("Seal a pyramid card, then sacrifice a set card from your tomb."),
    t.Action.DAGGER: N_("If the boneyard holds at least as many cards as there are players, "
                        "each player from you on takes its top card."),
    t.Action.BRAIN_HOOK: N_("Turn up the top supply card: buy it for 2 less, or sacrifice it."),
    t.Action.KHOPESH: N_("Gain the pyramid card the opponent on your left picks."),
    t.Action.BOW: N_("Seal from the pyramid a set card of a set you have no card of in your "
                     "tomb."),
    t.Action.NECKLACE: N_("Seal the top card of your deck; after a starter card you may seal "
                          "the next one too."),
    t.Action.OFFERING_CHAPEL: N_("Every player may seal the top card of their discard pile."),
    t.Action.JUDGEMENT: N_("Set hand cards aside, gaining the top boneyard card for each; then "
                           "sacrifice the set-aside cards."),
    t.Action.MIRROR_CASE: N_("Gain a pyramid card; then Mirror Case goes into the pyramid from "
                             "the top."),
    t.Action.RING: N_("The next card you play this turn has double capital."),
    t.Action.ANTECHAMBER: N_("Take a card from your discard pile into your hand."),
    t.Action.HOUNDS_AND_JACKALS: N_("A card you played earlier this turn returns to your hand."),
    t.Action.SENET: N_("Draw a card and put Senet on an opponent's discard pile; they put a "
                       "set card from hand on yours, or show a hand without one."),
    t.Action.SERDAB: N_("Set hand cards aside; they join your hand after you draw."),
    t.Action.VICTORY: N_("Seal a card you played earlier this turn."),
    "generic": N_("A card whose action Scribe does not know: enter what it did, step by "
                  "step."),
}


def card_colour(state: Mapping[str, Any], card: str | None) -> str:
    """A card's frame colour for the phone (§2.3): its set's colour, "unique" (purple),
    "starter" (grey), or "" while unknown."""
    if card is None or card == UNKNOWN:
        return ""
    placed = card_set(state, card)
    if placed in t.SETS:
        return t.SETS[placed].colour.value
    return placed or ""
