"""What an actor gains from an action, a card or a symbol, and how the displays refill.

Spec shared/rules/pharaon.md §4.3 (the areas' effects), §4.6 (nobles 19-20 when a jar is
gained, the acquisition effects of 21-26), §2.3 (offerings drawn from the bag). Shared by the
area actions, the draws, the nobles' effects and the Traitor's symbols.
"""

from __future__ import annotations

from typing import Any, Mapping, Sequence

from ..referee import Draft
from . import printed as t
from .state import DrawTo, Phase, Step, gain, is_traitor, push_front, tomb_length


def raise_nile(d: Draft, actor: int, track: str) -> None:
    """One level up on a Nile track; beyond level 3 the move is lost (spec §4.3 NIL)."""
    index = t.BASIC.index(track)
    if d["players"][actor]["nile"][index] < t.NILE_TOP:
        d.own("players", actor, "nile")[index] += 1


def take_offering(d: Draft, actor: int, source: Any, seat: int) -> None:
    """An offering from a bonus space, or drawn from the bag (the discard pile refills an
    empty bag, spec §2.3)."""
    if source is None:
        return
    if source == "bag":
        push_front(d, {"kind": Step.NEED_OFFERING, "seat": seat, "actor": actor})
        return
    token = d["bonus"][source]
    d.own("bonus")[source] = None
    d.own("players", actor, "off")[token] += 1


def refill_noble(d: Draft, slot: int, seat: int) -> None:
    """Refill noble display ``slot`` from the deck (a draw), if a card is left."""
    if d["noble_deck"] or d["noble_bottom"]:
        push_front(d, {"kind": Phase.DRAW_NOBLES, "seat": seat, "count": 1, "to": DrawTo.DISPLAY,
                       "slots": [slot]})


def refill_artisan(d: Draft, slot: int, seat: int) -> None:
    """Refill artisan display ``slot`` from the deck (a draw), if a card is left."""
    if d["artisan_deck"] > 0:
        push_front(d, {"kind": Phase.DRAW_ARTISANS, "seat": seat, "count": 1, "to": DrawTo.DISPLAY,
                       "slots": [slot]})


def take_artisan(d: Draft, actor: int, card: Any, seat: int) -> None:
    """ART action or nobles 23/24: a displayed artisan (its slot refilled) or the top card."""
    if card == "top":
        push_front(d, {"kind": Phase.DRAW_ARTISANS, "seat": seat, "count": 1, "to": DrawTo.TAKE,
                       "actor": actor})
        return
    taken = d["artisan_display"][card]
    d.own("artisan_display")[card] = None
    refill_artisan(d, card, seat)
    gain_artisan(d, actor, taken, seat)


def gain_artisan(d: Draft, actor: int, card: Mapping[str, Any], seat: int) -> None:
    """An artisan joins ``actor``: its printed resources, and its jar if it shows one."""
    d.own("players", actor, "artisans").append(dict(card))
    for kind, count in card["gains"].items():
        gain(d, actor, kind, count)
    if card["jar"]:
        push_front(d, {"kind": Step.NEED_JARS, "seat": seat, "count": 1, "to": DrawTo.GAIN,
                       "actor": actor})


def acquire_noble(d: Draft, actor: int, card: int) -> None:
    """A noble joins ``actor``: its ability works at once; an acquisition effect (21-26)
    resolves now (spec §4.3 NOB). The Traitor ignores every effect (§7.3)."""
    d.own("players", actor, "nobles").append(card)
    if is_traitor(d.state, actor) or t.NOBLES[card].type != t.NobleType.ACQUIRED:
        return
    icon = d["rules"]["court_icons"].get(str(card))
    if card == 25:
        tomb_step_free(d, actor)
        gain(d, actor, icon, t.COURT_ICON_COUNT[card])
        return
    push_front(d, {"kind": Phase.NOBLE_EFFECT, "seat": actor, "card": card})


def tomb_step_free(d: Draft, actor: int) -> None:
    """Nobles 25/26 and the Traitor's tomb symbol: one space without paying (ignored on the
    last space [unverified])."""
    if d["players"][actor]["tomb"] < tomb_length(d.state):
        d.own("players", actor)["tomb"] += 1


def gain_jar(d: Draft, actor: int, jar: Sequence[str]) -> None:
    """A jar is gained (artisan icon, Nile symbol, pass): its 3 resources; the owner of an
    unused Teacher or Diplomat is asked first (spec §4.6, 19-20). The jar is discarded."""
    player = d["players"][actor]
    if not is_traitor(d.state, actor) and any(
            card in player["nobles"] and card not in player["used"]
            for card in (t.TEACHER, t.DIPLOMAT)):
        push_front(d, {"kind": Phase.JAR_GAIN, "seat": actor, "jar": list(jar)})
        return
    for kind in jar:
        gain(d, actor, kind)


def jar_choice_due(state: Mapping[str, Any], actor: int) -> bool:
    """Whether ``actor`` has an unused Teacher or Diplomat for the next jar."""
    player = state["players"][actor]
    return any(card in player["nobles"] and card not in player["used"]
               for card in (t.TEACHER, t.DIPLOMAT))
